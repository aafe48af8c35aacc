// --max-cost guards the work a scheme does: it stops a superlinear scheme
// within about one event of the limit (not a check interval later), and it
// leaves out the units counted in bulk for idle jiffies the replay steps
// over (a leap of 2^32 jiffies on every CPU is cheap to simulate), as a
// drain does for its first 2^32 jiffies on each base; past them a drain's
// idle jiffies are guarded, so that one to 2^62 ends or stops at once.
#include <cinttypes>
#include <cstdio>
#include <string>

#include "tests/support/cli.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"

using namespace timersim::test;

namespace {

constexpr std::uint64_t first_jiffy = 4295000000ull;

std::string start_line(unsigned cpu, const std::string &ts, std::uint64_t timer, std::uint64_t expires,
		       std::uint64_t now)
{
	char buf[320];
	std::snprintf(buf, sizeof buf,
		      "          <idle>-0       [%03u] d..1.   %s: timer_start: timer=%016" PRIx64
		      " function=process_timeout expires=%" PRIu64 " [timeout=%" PRIu64 "] bucket_expiry=%" PRIu64
		      " cpu=%u idx=10 flags=\n",
		      cpu, ts.c_str(), timer, expires, expires - now, expires, cpu);
	return buf;
}

std::string expiry_lines(unsigned cpu, const std::string &ts, std::uint64_t timer, std::uint64_t now)
{
	char buf[320];
	std::snprintf(buf, sizeof buf,
		      "          <idle>-0       [%03u] d.s1.   %s: timer_cancel: timer=%016" PRIx64 "\n"
		      "          <idle>-0       [%03u] d.s1.   %s: timer_expire_entry: timer=%016" PRIx64
		      " function=process_timeout now=%" PRIu64 " baseclk=%" PRIu64 "\n",
		      cpu, ts.c_str(), timer, cpu, ts.c_str(), timer, now, now);
	return buf;
}

std::string header(unsigned cpus)
{
	return "# tracer: nop\n#\n# entries-in-buffer/entries-written: 0/0   #P:" + std::to_string(cpus) + "\n#\n";
}

// The cost a "passed --max-cost" message reports.
std::uint64_t reported_cost(const std::string &err)
{
	auto at = err.find(" cost units)");
	ck_assert_msg(at != std::string::npos, "%s", err.c_str());
	auto open = err.rfind('(', at);
	return std::stoull(err.substr(open + 1, at - open - 1));
}

}  // namespace

// Timers started in falling expiry order: each start walks the whole sorted
// list, an event costing twice the timers pending. The guard stops the list
// within one such event of the limit, not at the next multiple of its
// 1024-event check (which would be 16.8M units for a limit of 10M).
START_TEST(the_guard_stops_within_an_event_of_the_limit)
{
	constexpr unsigned timers = 6000;
	constexpr std::uint64_t limit = 10000000;
	std::string trace = header(1);
	for (unsigned k = 0; k < timers; k++) {
		char ts[32];
		std::snprintf(ts, sizeof ts, "100.%06u", k);
		trace += start_line(0, ts, 0xaaaa0000u + 64u * k, first_jiffy + 100000 + timers - k, first_jiffy);
	}
	std::string path = write_temp("falling.txt", trace);
	cli_result r = run_timersim({"compare", "--schemes", "sorted-list", "--max-cost", std::to_string(limit), path});
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(r.err.find("sorted-list passed --max-cost 10000000") != std::string::npos, "%s", r.err.c_str());
	std::uint64_t cost = reported_cost(r.err);
	ck_assert_msg(cost > limit && cost <= limit + 2 * timers, "reported %" PRIu64 ": %s", cost, r.err.c_str());
	ck_assert(r.out.empty());
}
END_TEST

// 4,096 CPUs, each with one timer 2^32 jiffies ahead that expires there:
// every scheme steps over the idle jiffies, and the default --max-cost
// accepts the trace (classic was refused with 2.2 * 10^12 cost units, all
// of them idle jiffies counted in bulk).
START_TEST(an_idle_leap_on_every_cpu_is_accepted)
{
	constexpr unsigned cpus = 4096;
	constexpr std::uint64_t leap = std::uint64_t{1} << 32;
	std::string trace = header(cpus);
	for (unsigned c = 0; c < cpus; c++) {
		char ts[32];
		std::snprintf(ts, sizeof ts, "100.%06u", c);
		trace += start_line(c, ts, 0xaaaa0000u + 64u * c, first_jiffy + leap, first_jiffy);
	}
	for (unsigned c = 0; c < cpus; c++) {
		char ts[32];
		std::snprintf(ts, sizeof ts, "%" PRIu64 ".%06u", 100 + leap / 250, c);
		trace += expiry_lines(c, ts, 0xaaaa0000u + 64u * c, first_jiffy + leap);
	}
	std::string path = write_temp("leap.txt", trace);
	cli_result r = run_timersim({"compare", path});
	ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err.c_str());
	ck_assert_msg(r.err.find("passed --max-cost") == std::string::npos, "%s", r.err.c_str());
	ck_assert_msg(r.out.find("classic") != std::string::npos, "%s", r.out.c_str());
}
END_TEST

// 4,096 CPUs, each with a timer 2^40 jiffies ahead, drained to the default
// limit (2^28 past the last event): every scheme steps over the idle
// jiffies and stops at the limit, and the default --max-cost accepts it
// (classic and the hashed wheel were refused with 2^40 cost units, all of
// them idle jiffies counted in bulk).
START_TEST(a_drain_of_every_cpu_to_the_default_limit_is_accepted)
{
	constexpr unsigned cpus = 4096;
	constexpr std::uint64_t far = std::uint64_t{1} << 40;
	std::string trace = header(cpus);
	for (unsigned c = 0; c < cpus; c++) {
		char ts[32];
		std::snprintf(ts, sizeof ts, "100.%06u", c);
		trace += start_line(c, ts, 0xaaaa0000u + 64u * c, first_jiffy + far, first_jiffy);
	}
	std::string path = write_temp("far.txt", trace);
	cli_result r = run_timersim({"compare", "--drain", path});
	ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err.c_str());
	ck_assert_msg(r.err.find("passed --max-cost") == std::string::npos, "%s", r.err.c_str());
	ck_assert_msg(r.out.find("wheel-overflow") != std::string::npos, "%s", r.out.c_str());
}
END_TEST

// A drain to 2^62 past the trace with a timer there, under the default
// --max-cost: every scheme either drains it (from event to event) or the
// guard stops it with exit 2 and says where; classic, which re-queues the
// timer at every pass of its last level (2^30 passes), is stopped. None
// runs on for minutes (it did: classic, its idle jiffies left out).
START_TEST(a_drain_to_2_62_ends_or_is_stopped)
{
	constexpr std::uint64_t far = std::uint64_t{1} << 62;
	std::string path = write_temp("drain.txt", header(2) + start_line(0, "100.000000", 0xaaaa0000u, first_jiffy + far, first_jiffy) +
					       start_line(1, "100.000001", 0xaaaa0040u, first_jiffy + 40, first_jiffy));
	for (const char *scheme : {"classic", "v48", "hashed", "kafka", "heap", "heap4", "sorted-list", "list",
				   "wheel-overflow"}) {
		cli_result r = run_timersim({"replay", "--scheme", scheme, "--drain", "--drain-limit",
					     std::to_string(std::uint64_t{1} << 63), path});
		if (r.status == 0) {
			ck_assert_msg(std::string(scheme) != "classic", "classic drained 2^30 passes: %s", r.out.c_str());
			continue;
		}
		ck_assert_msg(r.status == 2, "%s: exit %d: %s", scheme, r.status, r.err.c_str());
		ck_assert_msg(r.err.find(": the drain towards jiffy " + std::to_string(first_jiffy + (std::uint64_t{1} << 63)) +
					 ": " + scheme + " passed --max-cost 68719476736") != std::string::npos,
			      "%s", r.err.c_str());
	}
}
END_TEST

int main()
{
	Suite *s = suite_create("cost_guard");
	TCase *tc = tcase_create("cost_guard");
	// Each case takes a few seconds at most (the machine busy); a
	// drain that runs on is what the guard is for.
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, the_guard_stops_within_an_event_of_the_limit);
	tcase_add_test(tc, an_idle_leap_on_every_cpu_is_accepted);
	tcase_add_test(tc, a_drain_of_every_cpu_to_the_default_limit_is_accepted);
	tcase_add_test(tc, a_drain_to_2_62_ends_or_is_stopped);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
