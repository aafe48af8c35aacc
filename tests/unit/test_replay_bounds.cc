// Issue 14: the numbers in a trace (CPU ids, leaps of jiffies, a drain's
// horizon) must not decide the replay's time or memory. Each case runs the
// big numbers through the real reader and core (it must end: the suite's
// timeout is the guard) and checks the figures it can know exactly, and the
// same shape on a small scale, skipping, against a replay that steps every
// jiffy (replay_options::stepping): the skipping is what makes the big case
// cheap, and it must not change a figure.

#include <cstdio>
#include <string>
#include <vector>

#include "sim/base/errors.h"
#include "sim/replay/replay.h"
#include "sim/report/report_writers.h"
#include "sim/scheme/scheme.h"
#include "sim/trace/reader.h"
#include "tests/support/cli.h"
#include "tests/support/text_trace_util.h"

// Last: check.h defines macros that clash with <iostream> internals.
#include "tests/support/check_main.h"

using namespace timersim;
using timersim::test::ftrace_line;
using timersim::test::ftrace_text;
using timersim::test::write_temp;

namespace {

constexpr unsigned hz = 250;
constexpr unsigned long long usec_per_jiffy = 1000000 / hz;
constexpr unsigned long long first = 100000;	// the traces' first jiffy

std::string timer(unsigned cpu, unsigned n)
{
	char name[32];
	std::snprintf(name, sizeof name, "ffff8800%04x%04x", cpu, n);
	return name;
}

// One line at `jiffy`, `seq` microseconds into it (the events of a jiffy in
// file order).
std::string at(unsigned cpu, unsigned long long jiffy, unsigned seq, const std::string &payload)
{
	return ftrace_line(cpu, jiffy * usec_per_jiffy + seq, payload);
}

std::string start(const std::string &t, unsigned long long expires, unsigned long long timeout)
{
	return "timer_start: timer=" + t + " function=far_fn expires=" + std::to_string(expires) +
	       " [timeout=" + std::to_string(timeout) + "]";
}

std::string expire(const std::string &t, unsigned long long now)
{
	return "timer_expire_entry: timer=" + t + " function=far_fn now=" + std::to_string(now);
}

// Every CPU of `cpus` starts a timer `leap` jiffies ahead and a near one;
// the next events are the far timers' expiries, `leap` jiffies later.
std::string leaping(unsigned cpus, unsigned long long leap)
{
	std::string body;
	unsigned seq = 0;
	for (unsigned cpu = 0; cpu < cpus; cpu++) {
		body += at(cpu, first, seq++, start(timer(cpu, 1), first + leap, leap));
		body += at(cpu, first, seq++, start(timer(cpu, 2), first + 7, 7));
	}
	seq = 0;
	for (unsigned cpu = 0; cpu < cpus; cpu++)
		body += at(cpu, first + leap, seq++, expire(timer(cpu, 1), first + leap));
	return body;
}

replay_report replay(const std::string &text, const std::string &scheme, replay_options opt)
{
	opt.hz = hz;
	opt.scheme = scheme;
	std::string path = write_temp("bounds.txt", text);
	reader_options ro;
	ro.lenient = opt.lenient;
	auto reader = open_trace(path, trace_format::ftrace, ro);
	return replay_trace(*reader, path, opt);
}

// Every figure of the JSON report but the peak memory (a stepping scheme
// may hold other buffers).
std::string figures(replay_report r)
{
	r.peak_scheme_bytes = 0;
	// Skipping books an idle stretch's work (classic's empty cascades) to
	// the second the stretch began, stepping each to its own second
	// (docs/costs.md, Per second): the seconds may differ, their sum not.
	r.time.per_second.clear();
	return json_report(r, false);
}

// The same trace skipping and stepping, through every scheme: the reports
// must be byte-identical.
void skipping_equals_stepping(const std::string &text, replay_options opt, const char *what)
{
	for (const std::string &scheme : scheme_names()) {
		opt.stepping = false;
		std::string skipped = figures(replay(text, scheme, opt));
		opt.stepping = true;
		std::string stepped = figures(replay(text, scheme, opt));
		ck_assert_msg(skipped == stepped, "%s, %s: skipping differs from stepping:\n%s\n----\n%s", what,
			      scheme.c_str(), skipped.c_str(), stepped.c_str());
	}
}

}  // namespace

// A CPU column far beyond the trace's count is an input error, found at
// once; --lenient skips that event, and the rest replays as if it were not
// there (bases only for the CPUs the trace has).
START_TEST(a_huge_cpu_id_sizes_nothing)
{
	std::string body = at(999999, first, 0, start(timer(9, 1), first + 10, 10)) + leaping(2, 1000);
	std::string text = ftrace_text(body, 2);
	bool refused = false;
	try {
		replay(text, "classic", {});
	} catch (const input_error &e) {
		refused = true;
		ck_assert_msg(std::string(e.what()).find("CPU 999999 is beyond the 2 CPUs the trace declares") !=
				      std::string::npos, "%s", e.what());
	}
	ck_assert(refused);

	replay_options lenient;
	lenient.lenient = true;
	replay_report r = replay(text, "classic", lenient);
	ck_assert_uint_eq(r.input.cpus, 2);
	ck_assert_uint_eq(r.input.malformed, 1);
	ck_assert_uint_eq(r.fidelity.exact, 2);
	skipping_equals_stepping(text, lenient, "CPU 999999, lenient");
}
END_TEST

// Events leaping 2^32 jiffies (the most a trace may leap): a few events,
// a few milliseconds. Classic ticks every jiffy of the leap on both bases
// and says so; the far timers fire in their own jiffy.
START_TEST(a_leap_of_2_32_jiffies_is_cheap)
{
	const unsigned long long leap = 1ull << 32;
	for (const std::string &scheme : scheme_names()) {
		replay_report r = replay(ftrace_text(leaping(2, leap), 2), scheme, {});
		ck_assert_uint_eq(r.timers.expired, 4);
		ck_assert_uint_eq(r.timers.pending_at_end, 0);
		if (scheme == "classic") {
			ck_assert_uint_eq(r.fidelity.exact, 2);
			ck_assert_uint_eq(r.ticks_processed, 2 * (leap + 1));
			// 17 million idle seconds of ticks: no per-second rows, and
			// the table says they were cut (second_grid.h's max_rows).
			ck_assert(r.time.per_second_cut);
			ck_assert(r.time.per_second.empty());
		}
	}
	replay_report short_leap = replay(ftrace_text(leaping(2, 5000), 2), "classic", {});
	ck_assert(!short_leap.time.per_second_cut);
	ck_assert(!short_leap.time.per_second.empty());
	skipping_equals_stepping(ftrace_text(leaping(2, 5000), 2), {}, "leap of 5000");
}
END_TEST

// 4096 CPUs each leaping 2^32: the cost follows the 12288 events, not the
// 2^44 jiffies they span.
START_TEST(four_thousand_cpus_each_leaping_2_32)
{
	const unsigned cpus = 4096;
	const unsigned long long leap = 1ull << 32;
	std::string text = ftrace_text(leaping(cpus, leap), cpus);
	for (const char *scheme : {"classic", "v48", "heap"}) {
		replay_report r = replay(text, scheme, {});
		ck_assert_uint_eq(r.input.cpus, cpus);
		ck_assert_uint_eq(r.timers.expired, 2 * cpus);
		ck_assert_uint_eq(r.timers.pending_at_end, 0);
		if (std::string(scheme) == "classic") {
			ck_assert_uint_eq(r.fidelity.exact, cpus);
			ck_assert_uint_eq(r.ticks_processed, cpus * (leap + 1));
		}
	}
	skipping_equals_stepping(ftrace_text(leaping(8, 3000), 8), {}, "8 CPUs leaping 3000");
}
END_TEST

// --drain --drain-limit 2^63 with a timer 2^62 away: it drains to that
// timer, from event to event, and fires it in its jiffy.
START_TEST(a_drain_to_2_62_ends)
{
	const unsigned long long far = 1ull << 62;
	std::string body = at(0, first, 0, start(timer(0, 1), first + far, far)) +
			   at(1, first, 1, start(timer(1, 1), first + 40, 40)) +
			   at(1, first + 3, 0, start(timer(1, 2), first + 3 + 9, 9));
	replay_options opt;
	opt.drain = true;
	opt.drain_limit = 1ull << 63;
	// Without a cost limit every scheme but classic drains, from event to
	// event. Classic re-queues a timer beyond its range at every pass of
	// its last level: 2^30 passes of 2^32 ticks each.
	for (const std::string &scheme : scheme_names()) {
		if (scheme == "classic")
			continue;
		replay_report r = replay(ftrace_text(body, 2), scheme, opt);
		ck_assert_msg(r.drained, "%s did not drain", scheme.c_str());
		ck_assert_uint_eq(r.timers.expired, 3);
		ck_assert_uint_eq(r.timers.pending_at_end, 0);
	}
	// With the CLI's default limit the guard stops a drain whose cost
	// units pass it, the idle jiffies past a base's first 2^32 counted
	// (classic's; and those that count a visit per jiffy of the horizon,
	// as the hashed wheel and the list do), and says where; the others
	// drain as before.
	opt.max_cost = 1ull << 36;
	bool classic_stopped = false;
	for (const std::string &scheme : scheme_names()) {
		std::string err;
		try {
			replay_report r = replay(ftrace_text(body, 2), scheme, opt);
			ck_assert_msg(r.drained, "%s did not drain", scheme.c_str());
			continue;
		} catch (const usage_error &e) {
			err = e.what();
		}
		classic_stopped = classic_stopped || scheme == "classic";
		ck_assert_msg(err.find(": the drain towards jiffy " + std::to_string(first + 3 + (1ull << 63)) + ": " +
				       scheme + " passed --max-cost 68719476736") != std::string::npos,
			      "%s", err.c_str());
	}
	ck_assert(classic_stopped);
	// The small equivalent: the same three timers, the far one 6000 jiffies away.
	std::string small = at(0, first, 0, start(timer(0, 1), first + 6000, 6000)) +
			    at(1, first, 1, start(timer(1, 1), first + 40, 40)) +
			    at(1, first + 3, 0, start(timer(1, 2), first + 3 + 9, 9));
	skipping_equals_stepping(ftrace_text(small, 2), opt, "drain to 6000");
}
END_TEST

// The drain limit is one horizon, counted from the trace's last jiffy on
// any CPU, for every base: not a budget each CPU spends on its own. A CPU
// whose events ended early still drains up to it; 4096 CPUs with timers
// beyond it stop there at once.
START_TEST(the_drain_limit_is_global)
{
	// CPU 0's events end at `first`, CPU 1's 3000 jiffies later: CPU 0's
	// timer at first + 5000 is within 4096 of the trace's last jiffy
	// (though not of CPU 0's own); CPU 1's at first + 3000 + 5000 is not.
	std::string body = at(0, first, 0, start(timer(0, 1), first + 5000, 5000)) +
			   at(1, first + 3000, 0, start(timer(1, 1), first + 8000, 5000));
	replay_options opt;
	opt.drain = true;
	opt.drain_limit = 4096;
	for (const std::string &scheme : scheme_names()) {
		replay_report r = replay(ftrace_text(body, 2), scheme, opt);
		ck_assert_msg(!r.drained, "%s", scheme.c_str());
		ck_assert_uint_eq(r.drain_stopped_at, first + 3000 + 4096);
		ck_assert_uint_eq(r.timers.expired, 1);
		ck_assert_uint_eq(r.timers.pending_at_end, 1);
	}
	skipping_equals_stepping(ftrace_text(body, 2), opt, "global drain limit");

	// 4096 CPUs, each a timer 2^40 away, the default limit of 2^28.
	const unsigned cpus = 4096;
	std::string many;
	for (unsigned cpu = 0; cpu < cpus; cpu++)
		many += at(cpu, first, cpu, start(timer(cpu, 1), first + (1ull << 40), 1ull << 40));
	replay_options deflt;
	deflt.drain = true;
	for (const char *scheme : {"classic", "v48", "heap"}) {
		replay_report r = replay(ftrace_text(many, cpus), scheme, deflt);
		ck_assert(!r.drained);
		ck_assert_uint_eq(r.drain_stopped_at, first + (1ull << 28));
		ck_assert_uint_eq(r.timers.pending_at_end, cpus);
	}
}
END_TEST

int main()
{
	Suite *s = suite_create("replay_bounds");
	TCase *tc = tcase_create("bounds");
	// The guard: each case takes well under a second when the numbers
	// in the trace do not drive the work.
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, a_huge_cpu_id_sizes_nothing);
	tcase_add_test(tc, a_leap_of_2_32_jiffies_is_cheap);
	tcase_add_test(tc, four_thousand_cpus_each_leaping_2_32);
	tcase_add_test(tc, a_drain_to_2_62_ends);
	tcase_add_test(tc, the_drain_limit_is_global);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
