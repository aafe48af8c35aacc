// The model's hrtimer interrupts that the recording lost (issue 40): an
// interrupt the model predicts, no recorded one matches, is the trace's when
// the trace itself shows the end of a timer it ran with no event for it,
// or when it falls on a CPU whose idle the capture lacks. Each rule on the
// real lines of ../shared/traces/linux-6.18-tcp/perf-script.txt (their line
// numbers there), and on the whole recording.
#include <cstdlib>
#include <string>
#include <vector>

#include "sim/replay/replay.h"
#include "sim/trace/text_columns.h"
#include "tests/support/paths.h"
#include "tests/support/replay_file.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"	// last: check.h defines a fail() macro

using namespace timersim;
using timersim::test::run_suite;

namespace {

replay_report replay(const std::string &path)
{
	return test::replay_file(path);
}

replay_report replay_text(const std::string &text)
{
	return replay(test::write_temp("lost.txt", text));
}

// Lines 4-12: the ticks of both CPUs run and are started again (the
// timestamps' offset to CLOCK_MONOTONIC), a wheel timer runs.
const char *const ticks =
	"    workload2.sh 14385 [001]   975.992236: timer:hrtimer_expire_entry: hrtimer=0xffff888627d1c6f8 function=tick_nohz_handler now=975992001969\n"
	"    workload2.sh 14387 [000]   975.992237: timer:hrtimer_expire_entry: hrtimer=0xffff888627c1c6f8 function=tick_nohz_handler now=975992001706\n"
	"    workload2.sh 14385 [001]   975.992243:  timer:hrtimer_expire_exit: hrtimer=0xffff888627d1c6f8\n"
	"    workload2.sh 14387 [000]   975.992243:  timer:hrtimer_expire_exit: hrtimer=0xffff888627c1c6f8\n"
	"    workload2.sh 14385 [001]   975.992244:        timer:hrtimer_start: hrtimer=0xffff888627d1c6f8 function=tick_nohz_handler expires=975996000000 softexpires=975996000000 mode=0x0 was_armed=0\n"
	"    workload2.sh 14387 [000]   975.992244:        timer:hrtimer_start: hrtimer=0xffff888627c1c6f8 function=tick_nohz_handler expires=975996000000 softexpires=975996000000 mode=0x0 was_armed=0\n"
	"    workload2.sh 14385 [001]   975.992249:         timer:timer_cancel: timer=0xffff888627d28f50\n"
	"    workload2.sh 14385 [001]   975.992250:   timer:timer_expire_entry: timer=0xffff888627d28f50 function=mix_interrupt_randomness now=4295136264 baseclk=4295136264\n"
	"    workload2.sh 14385 [001]   975.992251:    timer:timer_expire_exit: timer=0xffff888627d28f50\n";

// Lines 1906, 1908, 2170: python3 14449 sleeps on CPU 1 until 977.125783
// (its hrtimer on its kernel stack, block 0xffffc9000397c000); no expiry
// or cancel of it follows, and a later event on CPU 1 shows CPU 1 past it:
// the model runs it in an interrupt no recorded one matches.
const char *const sleep_on_cpu1 =
	"         python3 14449 [001]   977.052683:        timer:hrtimer_setup: hrtimer=0xffffc9000397fb98 clockid=CLOCK_MONOTONIC mode=0x0\n"
	"         python3 14449 [001]   977.052686:        timer:hrtimer_start: hrtimer=0xffffc9000397fb98 function=hrtimer_wakeup expires=977125783304 softexpires=977125733304 mode=0x0 was_armed=0\n"
	"     rcu_preempt    15 [001]   977.156299:       timer:hrtimer_cancel: hrtimer=0xffff888627d2c428\n";
// Line 2574: at 977.54 another sleep is set up in the same 16 KiB of
// kernel stack (python3 14455, forked after 14449 ended, took its stack):
// the stack's task ran after the sleep was due, so the sleep ended, and
// its expiry is not in the capture.
const char *const same_stack_later =
	"         python3 14455 [000]   977.536709:        timer:hrtimer_setup: hrtimer=0xffffc9000397fbc8 clockid=CLOCK_MONOTONIC mode=0x0\n";
// The same line moved to 977.100000, before the sleep was due (edited):
// the task may not have slept yet, so it proves nothing.
const char *const same_stack_before_due =
	"         python3 14455 [000]   977.100000:        timer:hrtimer_setup: hrtimer=0xffffc9000397fbc8 clockid=CLOCK_MONOTONIC mode=0x0\n";
// The same line with its address 16 KiB on (edited): another task's stack.
const char *const other_stack_later =
	"         python3 14455 [000]   977.536709:        timer:hrtimer_setup: hrtimer=0xffffc90003983bc8 clockid=CLOCK_MONOTONIC mode=0x0\n";

struct lost_counts {
	std::uint64_t predicted_only = 0, lost = 0, owner_ran = 0, end_shown = 0, idle = 0;
};

lost_counts cpu_lost(const replay_report &r, unsigned cpu)
{
	ck_assert_uint_gt(r.hrtimers.cpus.size(), cpu);
	const hrtimer_cpu_figures &f = r.hrtimers.cpus[cpu];
	lost_counts c;
	c.predicted_only = f.predicted_interrupts - f.both;
	c.lost = f.predicted_trace_caused;
	c.owner_ran = f.lost_owner_ran;
	c.end_shown = f.lost_end_shown;
	c.idle = f.idle_not_captured;
	// The causes add up to the count apart.
	ck_assert_uint_eq(c.owner_ran + c.end_shown + c.idle, c.lost);
	return c;
}

}  // namespace

START_TEST(a_sleep_whose_stack_is_used_again_ended_untraced)
{
	const std::string base = std::string(ticks) + sleep_on_cpu1;
	// No later event of its stack: the model's interrupt stays in the figure.
	lost_counts none = cpu_lost(replay_text(base), 1);
	ck_assert_uint_eq(none.predicted_only, 1);
	ck_assert_uint_eq(none.lost, 0);
	// A sleep set up in its stack after it was due: the trace's.
	lost_counts proven = cpu_lost(replay_text(base + same_stack_later), 1);
	ck_assert_uint_eq(proven.predicted_only, 1);
	ck_assert_uint_eq(proven.lost, 1);
	ck_assert_uint_eq(proven.owner_ran, 1);
	// Before it was due, or in another stack: no proof.
	const std::string before = std::string(ticks) +
				   std::string(sleep_on_cpu1).substr(0, std::string(sleep_on_cpu1).rfind("     rcu_preempt")) +
				   same_stack_before_due + "     rcu_preempt    15 [001]   977.156299:       timer:hrtimer_cancel: hrtimer=0xffff888627d2c428\n";
	ck_assert_uint_eq(cpu_lost(replay_text(before), 1).lost, 0);
	ck_assert_uint_eq(cpu_lost(replay_text(base + other_stack_later), 1).lost, 0);
}
END_TEST

// Lines 4-12, 488, 1738-1739, 3110: CPU 0 records an event of its idle
// task (swapper, pid 0); CPU 1 none, and its tick (due 975.996) is gone by
// 977.006 with no event for it; sleep 14446's 1 s sleep on CPU 1 falls
// due at 978.0064 with no expiry recorded, and nothing later in the trace
// shows its end.
const char *const cpu0_idle_entry =
	"         swapper     0 [000]   976.144278:      timer:timer_base_idle: is_idle=1 cpu=0\n";
const char *const sleep_no_proof =
	"           sleep 14446 [001]   977.006341:        timer:hrtimer_setup: hrtimer=0xffffc90002d37ae0 clockid=CLOCK_REALTIME mode=0x1\n"
	"           sleep 14446 [001]   977.006346:        timer:hrtimer_start: hrtimer=0xffffc90002d37ae0 function=hrtimer_wakeup expires=978006163447 softexpires=978006113447 mode=0x1 was_armed=0\n"
	"    workload2.sh 14385 [001]   978.006866:        timer:hrtimer_setup: hrtimer=0xffff8881244b48a0 clockid=CLOCK_MONOTONIC mode=0x9\n";

// The idle task by the task column of each text rendering: tracefs and
// trace-cmd report "COMM-PID", perf script "COMM PID" (or "PID/TID").
START_TEST(the_idle_task_by_its_pid)
{
	ck_assert(is_idle_task("          <idle>-0       "));
	ck_assert(is_idle_task("         swapper     0 "));
	ck_assert(is_idle_task("         swapper 0/0 "));
	ck_assert(!is_idle_task("     rcu_preempt-15      "));
	ck_assert(!is_idle_task("         python3 14450 "));
	ck_assert(!is_idle_task("    kworker/0:0-10 "));
	ck_assert(!is_idle_task("      sleep 14400 "));
	ck_assert(!is_idle_task("0"));
	// The readers mark the events so.
	const replay_report r = replay_text(std::string(ticks) +
					    "         swapper     0 [000]   976.144278:      timer:timer_base_idle: is_idle=1 cpu=0\n");
	ck_assert_uint_eq(r.hrtimers.cpus[0].idle_task_events, 1);
	ck_assert_uint_eq(r.hrtimers.cpus[1].idle_task_events, 0);
}
END_TEST

START_TEST(a_cpu_whose_idle_is_not_captured)
{
	// With CPU 0's idle task recorded: CPU 1's is missing from the capture, and
	// its unproven interrupt is the trace's, by that cause.
	const replay_report with = replay_text(std::string(ticks) + cpu0_idle_entry + sleep_no_proof);
	const hrtimer_cpu_figures &f1 = with.hrtimers.cpus[1];
	ck_assert(f1.idle_uncaptured);
	ck_assert_uint_ge(f1.tick_stops_inferred, 1);
	ck_assert_uint_eq(f1.idle_task_events, 0);
	lost_counts c = cpu_lost(with, 1);
	ck_assert_uint_eq(c.predicted_only, 1);
	ck_assert_uint_eq(c.idle, 1);
	ck_assert_uint_eq(c.lost, 1);
	ck_assert(!with.hrtimers.cpus[0].idle_uncaptured);
	ck_assert_uint_ge(with.hrtimers.cpus[0].idle_task_events, 1);
	// A trace that records no idle task at all says nothing of it.
	const replay_report without = replay_text(std::string(ticks) + sleep_no_proof);
	ck_assert(!without.hrtimers.cpus[1].idle_uncaptured);
	c = cpu_lost(without, 1);
	ck_assert_uint_eq(c.predicted_only, 1);
	ck_assert_uint_eq(c.lost, 0);
}
END_TEST

// The whole recording: CPU 1's capture lacks its idle (no event of its
// idle task, swapper, in 30 s against CPU 0's 23,427; its tick recorded
// 155 times). Of the model's 587 interrupts on it that no recorded one
// matched, 529 a later event shows lost, the other 58 fall in its missing
// idle; CPU 0 (its idle recorded) has none apart, and the figure holds
// within 1% with the trace's apart.
START_TEST(linux_6_18_tcp_interrupts_within_one_percent)
{
	const std::string path = test::shared_trace_or_skip("linux-6.18-tcp/perf-script.txt");
	if (path.empty())
		return;
	const replay_report r = replay(path);
	const auto &cpus = r.hrtimers.cpus;
	ck_assert_uint_eq(cpus.size(), 2);
	ck_assert(!cpus[0].idle_uncaptured);
	ck_assert_uint_eq(cpus[0].predicted_trace_caused, 0);
	ck_assert(cpus[1].idle_uncaptured);
	const lost_counts c = cpu_lost(r, 1);
	ck_assert_uint_eq(c.predicted_only, 587);
	ck_assert_uint_eq(c.end_shown + c.owner_ran, 529);
	ck_assert_uint_eq(c.idle, 58);
	std::int64_t recorded = 0, predicted = 0;
	for (const hrtimer_cpu_figures &f : cpus) {
		recorded += std::int64_t(f.recorded_interrupts - f.recorded_trace_caused);
		predicted += std::int64_t(f.predicted_interrupts - f.predicted_trace_caused);
	}
	ck_assert_int_le(std::llabs(predicted - recorded) * 100, recorded);
}
END_TEST

// No other recording has an interrupt apart by these rules: their captures
// are whole (each CPU's idle entries recorded, or none on any CPU).
START_TEST(whole_captures_lose_nothing)
{
	for (const char *name : {"tests/data/idle-nohz.txt.gz", "tests/data/load.txt.gz",
				 "tests/data/sleep-net.perf-script.txt.gz", "tests/data/sleep-net.dat",
				 "tests/data/measured-network-quiet.txt.gz"}) {
		const replay_report r = replay(name);
		for (const hrtimer_cpu_figures &f : r.hrtimers.cpus) {
			ck_assert_msg(!f.idle_uncaptured, "%s: a CPU's idle not captured", name);
			ck_assert_msg(f.predicted_trace_caused == 0, "%s: lost interrupts", name);
		}
	}
}
END_TEST

// Issue 40's must-holds on the 6.x recordings test_fidelity_bucket's
// recordings_hold_by_the_bucket does not read: the other renderings of
// sleep-net, the calibration recordings, linux-6.18-http in its three
// formats and linux-6.18-tcp. The wheel: >= 99.9% of the matched expiries
// (less the trace's) exact by the bucket, none unexplained; the hrtimers:
// >= 99.5% of the traced arms in the same interrupt, no miss unexplained;
// the model's interrupts within 1% of the recorded, the trace's apart.
START_TEST(every_other_6x_recording_holds)
{
	std::vector<std::string> paths = {
		"tests/data/sleep-net.dat", "tests/data/sleep-net.perf-script.txt.gz",
		"tests/data/sleep-net.trace-cmd-report.txt.gz", "tests/data/calibration/loaded-busy-idle.txt.gz",
		"tests/data/calibration/loaded-idle.txt.gz", "tests/data/calibration/loaded-mixed.txt.gz",
		"tests/data/calibration/loaded-network.txt.gz"};
	for (const char *rel : {"linux-6.18-http/trace.txt", "linux-6.18-http/trace-cmd-report.txt",
				"linux-6.18-http/trace.dat", "linux-6.18-tcp/perf-script.txt"})
		if (std::string p = test::shared_trace_or_skip(rel); !p.empty())
			paths.push_back(p);
	for (const std::string &path : paths) {
		const char *name = path.c_str();
		const replay_report r = replay(path);
		const auto &b = r.fidelity.by_bucket;
		ck_assert_msg(b.judged > 0, "%s: judged by the bucket", name);
		ck_assert_msg(b.exact * 1000 >= b.judged_on_model() * 999, "%s: %llu of %llu exact by the bucket",
			      name, (unsigned long long)b.exact, (unsigned long long)b.judged_on_model());
		for (const auto &[why, n] : b.misses)
			ck_assert_msg(why != "unexplained" || n == 0, "%s: unexplained by the bucket", name);
		for (const auto &[why, n] : r.fidelity.misses)
			ck_assert_msg(why != "unexplained" || n == 0, "%s: unexplained by jiffies", name);
		const hrtimer_summary &h = r.hrtimers;
		ck_assert_msg(h.present, "%s: hrtimer events", name);
		ck_assert_msg(h.traced_arms_same() * 1000 >= h.traced_arms() * 995, "%s: %llu of %llu in the same interrupt",
			      name, (unsigned long long)h.traced_arms_same(), (unsigned long long)h.traced_arms());
		ck_assert_msg(h.miss_causes.unexplained == 0, "%s: %llu hrtimer misses unexplained", name,
			      (unsigned long long)h.miss_causes.unexplained);
		std::int64_t recorded = 0, predicted = 0;
		for (const hrtimer_cpu_figures &f : h.cpus) {
			recorded += std::int64_t(f.recorded_interrupts - f.recorded_trace_caused);
			predicted += std::int64_t(f.predicted_interrupts - f.predicted_trace_caused);
		}
		ck_assert_msg(std::llabs(predicted - recorded) * 100 <= recorded, "%s: %lld interrupts predicted, %lld recorded",
			      name, (long long)predicted, (long long)recorded);
	}
}
END_TEST

int main()
{
	Suite *s = suite_create("hrtimer_lost");
	TCase *tc = tcase_create("lost");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, a_sleep_whose_stack_is_used_again_ended_untraced);
	tcase_add_test(tc, the_idle_task_by_its_pid);
	tcase_add_test(tc, a_cpu_whose_idle_is_not_captured);
	tcase_add_test(tc, linux_6_18_tcp_interrupts_within_one_percent);
	tcase_add_test(tc, whole_captures_lose_nothing);
	tcase_add_test(tc, every_other_6x_recording_holds);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
