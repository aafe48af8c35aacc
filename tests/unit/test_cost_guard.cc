// --max-cost guards the work a scheme does: it stops a superlinear scheme
// within about one event of the limit (not a check interval later), and it
// leaves out the units counted in bulk for idle jiffies the replay steps
// over (a leap of 2^32 jiffies on every CPU is cheap to simulate).
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
// within one such event of the limit (it used to stop at the next multiple
// of 1024 events: 16.8M units for a limit of 10M).
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

int main()
{
	Suite *s = suite_create("cost_guard");
	TCase *tc = tcase_create("cost_guard");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, the_guard_stops_within_an_event_of_the_limit);
	tcase_add_test(tc, an_idle_leap_on_every_cpu_is_accepted);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
