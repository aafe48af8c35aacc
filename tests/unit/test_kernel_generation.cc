// The recording kernel's generation (issue 40), told by the events and
// fields its trace has (sim/stream/kernel_generation.h), printed in the
// report, and the rules it selects: 6.12's zero timer slack for real-time
// tasks in the slack what-if, and --kernel-rules to set the version.
#include <string>

#include "sim/replay/replay.h"
#include "sim/stream/kernel_generation.h"
#include "sim/trace/reader.h"
#include "tests/support/cli.h"
#include "tests/support/replay_file.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"	// last: check.h defines a fail() macro

using namespace timersim;
using timersim::test::run_suite;

namespace {

replay_report replay(const std::string &path, unsigned kernel_rules = 0, bool slack_what_if = false)
{
	replay_options opt = test::recording_options();
	opt.kernel_rules = kernel_rules;
	if (slack_what_if) {
		opt.hr_what_if.slack = hr_what_if_options::slack_rule::user;
		opt.hr_what_if.user_slack_ns = 2'000'000;
	}
	return test::replay_file(path, opt);
}

// tests/data/load.txt.gz lines 1940-2030, the timer, hrtimer and
// timer-interrupt events (Linux 6.18.44, HZ 250, 2 CPUs): sleepers of
// scripts/load-workload.py. python3-17748 is the SCHED_FIFO one: its
// prctl(PR_SET_TIMERSLACK, 50000) was ignored and its three sleeps have no
// range (expires == softexpires, lines 1954, 1970, 2013); 17744 sleeps with
// 1 ns of slack, 17745 and 17750 with the default 50 us, 17746 with 1 ms,
// 17747 with 10 ms.
const char *const load_sleepers =
	"         python3-17746   [000] ..... 13496.384187: hrtimer_setup: hrtimer=0000000003acdbaa clockid=CLOCK_MONOTONIC mode=ABS\n"
	"         python3-17746   [000] d..1. 13496.384188: hrtimer_start: hrtimer=0000000003acdbaa function=hrtimer_wakeup expires=13496359271971 softexpires=13496358271971 mode=ABS was_armed=0\n"
	"         python3-17747   [000] ..... 13496.385108: hrtimer_setup: hrtimer=00000000ef0f90db clockid=CLOCK_MONOTONIC mode=ABS\n"
	"         python3-17747   [000] d..1. 13496.385109: hrtimer_start: hrtimer=00000000ef0f90db function=hrtimer_wakeup expires=13496369196585 softexpires=13496359196585 mode=ABS was_armed=0\n"
	"         python3-17748   [000] dN.4. 13496.385863: hrtimer_start: hrtimer=00000000749eb9ff function=sched_rt_period_timer expires=13496358953025 softexpires=13496358953025 mode=ABS|PINNED|HARD was_armed=0\n"
	"         python3-17748   [000] dNh2. 13496.385876: local_timer_entry: vector=236\n"
	"         python3-17748   [000] dNh2. 13496.385877: hrtimer_expire_entry: hrtimer=00000000749eb9ff function=sched_rt_period_timer now=13496358968122\n"
	"         python3-17748   [000] dNh2. 13496.385879: hrtimer_expire_exit: hrtimer=00000000749eb9ff\n"
	"         python3-17748   [000] dNh3. 13496.385880: hrtimer_start: hrtimer=00000000749eb9ff function=sched_rt_period_timer expires=13497358953025 softexpires=13497358953025 mode=ABS was_armed=0\n"
	"         python3-17748   [000] dNh2. 13496.385880: hrtimer_expire_entry: hrtimer=0000000003acdbaa function=hrtimer_wakeup now=13496358968122\n"
	"         python3-17748   [000] dNh2. 13496.385882: hrtimer_expire_exit: hrtimer=0000000003acdbaa\n"
	"         python3-17748   [000] dNh2. 13496.385885: local_timer_exit: vector=236\n"
	"         python3-17748   [000] ..... 13496.386094: hrtimer_setup: hrtimer=000000003f7d30d2 clockid=CLOCK_MONOTONIC mode=ABS\n"
	"         python3-17748   [000] d..1. 13496.386095: hrtimer_start: hrtimer=000000003f7d30d2 function=hrtimer_wakeup expires=13496360182574 softexpires=13496360182574 mode=ABS was_armed=0\n"
	"         cc1plus-17380   [000] d.h1. 13496.386916: local_timer_entry: vector=236\n"
	"         cc1plus-17380   [000] d.h1. 13496.386917: hrtimer_expire_entry: hrtimer=00000000503dde13 function=tick_nohz_handler now=13496360007912\n"
	"         cc1plus-16737   [001] d.h.. 13496.386925: local_timer_entry: vector=236\n"
	"         cc1plus-17380   [000] d.h1. 13496.386930: hrtimer_expire_exit: hrtimer=00000000503dde13\n"
	"         cc1plus-16737   [001] d.h.. 13496.386930: hrtimer_expire_entry: hrtimer=0000000058ff9cc1 function=tick_nohz_handler now=13496360018291\n"
	"         cc1plus-17380   [000] d.h2. 13496.386930: hrtimer_start: hrtimer=00000000503dde13 function=tick_nohz_handler expires=13496364000000 softexpires=13496364000000 mode=ABS was_armed=0\n"
	"         cc1plus-17380   [000] d.h1. 13496.386934: local_timer_exit: vector=236\n"
	"         cc1plus-16737   [001] dNh.. 13496.386944: hrtimer_expire_exit: hrtimer=0000000058ff9cc1\n"
	"         cc1plus-16737   [001] dNh1. 13496.386945: hrtimer_start: hrtimer=0000000058ff9cc1 function=tick_nohz_handler expires=13496364000000 softexpires=13496364000000 mode=ABS was_armed=0\n"
	"         cc1plus-16737   [001] dNh.. 13496.386951: local_timer_exit: vector=236\n"
	"         cc1plus-17380   [000] d.h.. 13496.387097: local_timer_entry: vector=236\n"
	"         cc1plus-17380   [000] d.h.. 13496.387098: hrtimer_expire_entry: hrtimer=000000003f7d30d2 function=hrtimer_wakeup now=13496360188681\n"
	"         cc1plus-17380   [000] dNh.. 13496.387102: hrtimer_expire_exit: hrtimer=000000003f7d30d2\n"
	"         cc1plus-17380   [000] dNh.. 13496.387105: local_timer_exit: vector=236\n"
	"         python3-17748   [000] ..... 13496.387130: hrtimer_setup: hrtimer=000000002ab324a3 clockid=CLOCK_MONOTONIC mode=ABS\n"
	"         python3-17748   [000] d..1. 13496.387131: hrtimer_start: hrtimer=000000002ab324a3 function=hrtimer_wakeup expires=13496364219809 softexpires=13496364219809 mode=ABS was_armed=0\n"
	"         python3-17745   [000] ..... 13496.387153: hrtimer_setup: hrtimer=000000004008cc29 clockid=CLOCK_MONOTONIC mode=ABS\n"
	"         python3-17745   [000] d..1. 13496.387154: hrtimer_start: hrtimer=000000004008cc29 function=hrtimer_wakeup expires=13496364293514 softexpires=13496364243514 mode=ABS was_armed=0\n"
	"         python3-17744   [000] ..... 13496.387173: hrtimer_setup: hrtimer=00000000899dcc99 clockid=CLOCK_MONOTONIC mode=ABS\n"
	"         python3-17744   [000] d..1. 13496.387173: hrtimer_start: hrtimer=00000000899dcc99 function=hrtimer_wakeup expires=13496364263222 softexpires=13496364263221 mode=ABS was_armed=0\n"
	"         python3-17703   [000] ..... 13496.387257: hrtimer_setup: hrtimer=0000000094e5f83d clockid=CLOCK_MONOTONIC mode=REL|HARD\n"
	"         python3-17703   [000] ..... 13496.387258: hrtimer_setup: hrtimer=000000002e7ff95b clockid=CLOCK_MONOTONIC mode=REL|HARD\n"
	"         python3-17703   [000] ..... 13496.387269: hrtimer_setup: hrtimer=0000000092a200b9 clockid=CLOCK_MONOTONIC mode=REL\n"
	"         python3-17703   [000] ..... 13496.387821: hrtimer_setup: hrtimer=00000000cb8d2311 clockid=CLOCK_MONOTONIC mode=REL|HARD\n"
	"         python3-17703   [000] ..... 13496.387822: hrtimer_setup: hrtimer=0000000098d51dad clockid=CLOCK_MONOTONIC mode=REL|HARD\n"
	"         python3-17703   [000] ..... 13496.387827: hrtimer_setup: hrtimer=0000000034aadd7a clockid=CLOCK_MONOTONIC mode=REL\n"
	"         python3-17703   [000] ..... 13496.388158: hrtimer_setup: hrtimer=00000000954cd3b8 clockid=CLOCK_MONOTONIC mode=REL|HARD\n"
	"         python3-17703   [000] ..... 13496.388159: hrtimer_setup: hrtimer=0000000089be5d87 clockid=CLOCK_MONOTONIC mode=REL|HARD\n"
	"         python3-17703   [000] ..... 13496.388164: hrtimer_setup: hrtimer=00000000196faba1 clockid=CLOCK_MONOTONIC mode=REL\n"
	"         python3-17703   [000] ..... 13496.388569: timer_init: timer=00000000090a1a6a\n"
	"         python3-17703   [000] ..... 13496.388570: timer_init: timer=000000003ac73c5c\n"
	"         python3-17703   [000] ..... 13496.388570: timer_init: timer=00000000de67b506\n"
	"         python3-17703   [000] ..... 13496.388571: timer_init: timer=00000000090a1a6a\n"
	"         python3-17703   [000] ..... 13496.388571: hrtimer_setup: hrtimer=000000003e012996 clockid=CLOCK_MONOTONIC mode=ABS|PINNED|SOFT\n"
	"         python3-17703   [000] ..... 13496.388571: hrtimer_setup: hrtimer=0000000047efd875 clockid=CLOCK_MONOTONIC mode=REL|PINNED|SOFT\n"
	"         python3-17703   [000] ..... 13496.389260: hrtimer_setup: hrtimer=00000000822f4635 clockid=CLOCK_MONOTONIC mode=REL|HARD\n"
	"         python3-17703   [000] ..... 13496.389260: hrtimer_setup: hrtimer=000000009ec325e7 clockid=CLOCK_MONOTONIC mode=REL|HARD\n"
	"         cc1plus-17380   [000] d.h.. 13496.390917: local_timer_entry: vector=236\n"
	"         cc1plus-17380   [000] d.h.. 13496.390921: hrtimer_expire_entry: hrtimer=00000000503dde13 function=tick_nohz_handler now=13496364009888\n"
	"         cc1plus-15380   [001] d.h.. 13496.390925: local_timer_entry: vector=236\n"
	"         cc1plus-15380   [001] d.h.. 13496.390929: hrtimer_expire_entry: hrtimer=0000000058ff9cc1 function=tick_nohz_handler now=13496364018574\n"
	"         cc1plus-17380   [000] dNh.. 13496.390933: hrtimer_expire_exit: hrtimer=00000000503dde13\n"
	"         cc1plus-17380   [000] dNh1. 13496.390933: hrtimer_start: hrtimer=00000000503dde13 function=tick_nohz_handler expires=13496368000000 softexpires=13496368000000 mode=ABS was_armed=0\n"
	"         cc1plus-17380   [000] dNh.. 13496.390938: local_timer_exit: vector=236\n"
	"         cc1plus-15380   [001] dNh.. 13496.390942: hrtimer_expire_exit: hrtimer=0000000058ff9cc1\n"
	"         cc1plus-15380   [001] dNh1. 13496.390942: hrtimer_start: hrtimer=0000000058ff9cc1 function=tick_nohz_handler expires=13496368000000 softexpires=13496368000000 mode=ABS was_armed=0\n"
	"         cc1plus-15380   [001] dNh.. 13496.390948: local_timer_exit: vector=236\n"
	"         python3-17749   [000] d.h.. 13496.391135: local_timer_entry: vector=236\n"
	"         python3-17749   [000] d.h.. 13496.391136: hrtimer_expire_entry: hrtimer=000000002ab324a3 function=hrtimer_wakeup now=13496364226434\n"
	"         python3-17749   [000] dNh.. 13496.391142: hrtimer_expire_exit: hrtimer=000000002ab324a3\n"
	"         python3-17749   [000] dNh.. 13496.391144: local_timer_exit: vector=236\n"
	"         python3-17748   [000] d.h.. 13496.391176: local_timer_entry: vector=236\n"
	"         python3-17748   [000] d.h.. 13496.391177: hrtimer_expire_entry: hrtimer=00000000899dcc99 function=hrtimer_wakeup now=13496364267491\n"
	"         python3-17748   [000] d.h.. 13496.391181: hrtimer_expire_exit: hrtimer=00000000899dcc99\n"
	"         python3-17748   [000] d.h.. 13496.391181: hrtimer_expire_entry: hrtimer=000000004008cc29 function=hrtimer_wakeup now=13496364267491\n"
	"         python3-17748   [000] d.h.. 13496.391183: hrtimer_expire_exit: hrtimer=000000004008cc29\n"
	"         python3-17748   [000] d.h.. 13496.391185: local_timer_exit: vector=236\n"
	"         python3-17748   [000] ..... 13496.391189: hrtimer_setup: hrtimer=00000000d2e6a536 clockid=CLOCK_MONOTONIC mode=ABS\n"
	"         python3-17748   [000] d..1. 13496.391190: hrtimer_start: hrtimer=00000000d2e6a536 function=hrtimer_wakeup expires=13496384278321 softexpires=13496384278321 mode=ABS was_armed=0\n"
	"         cc1plus-16504   [001] d.h.. 13496.391903: local_timer_entry: vector=236\n"
	"         cc1plus-16504   [001] d.h.. 13496.391904: hrtimer_expire_entry: hrtimer=00000000bfac8c69 function=hrtimer_wakeup now=13496364994855\n"
	"         cc1plus-16504   [001] dNh.. 13496.391912: hrtimer_expire_exit: hrtimer=00000000bfac8c69\n"
	"         cc1plus-16504   [001] dNh.. 13496.391917: local_timer_exit: vector=236\n"
	" memfd:sealed-91-26885   [001] ..... 13496.391943: hrtimer_setup: hrtimer=00000000469f2bed clockid=CLOCK_MONOTONIC mode=ABS\n"
	" memfd:sealed-91-26885   [001] d..1. 13496.391946: hrtimer_start: hrtimer=00000000469f2bed function=hrtimer_wakeup expires=13496415082746 softexpires=13496415032746 mode=ABS was_armed=0\n"
	"         python3-17750   [000] ..... 13496.392142: hrtimer_setup: hrtimer=000000001da278bc clockid=CLOCK_MONOTONIC mode=ABS\n"
	"         python3-17750   [000] d..1. 13496.392143: hrtimer_start: hrtimer=000000001da278bc function=hrtimer_wakeup expires=13496372278834 softexpires=13496372228834 mode=ABS was_armed=0\n"
	"         cc1plus-17380   [000] d.h.. 13496.394918: local_timer_entry: vector=236\n"
	"         cc1plus-17380   [000] d.h.. 13496.394922: hrtimer_expire_entry: hrtimer=00000000503dde13 function=tick_nohz_handler now=13496368011092\n"
	"         cc1plus-16737   [001] d.h.. 13496.394923: local_timer_entry: vector=236\n"
	"         cc1plus-16737   [001] d.h.. 13496.394928: hrtimer_expire_entry: hrtimer=0000000058ff9cc1 function=tick_nohz_handler now=13496368016742\n"
	"         cc1plus-17380   [000] dNh.. 13496.394932: hrtimer_expire_exit: hrtimer=00000000503dde13\n"
	"         cc1plus-17380   [000] dNh1. 13496.394933: hrtimer_start: hrtimer=00000000503dde13 function=tick_nohz_handler expires=13496372000000 softexpires=13496372000000 mode=ABS was_armed=0\n"
	"         cc1plus-17380   [000] dNh.. 13496.394933: hrtimer_expire_entry: hrtimer=00000000ef0f90db function=hrtimer_wakeup now=13496368011092\n"
	"         cc1plus-17380   [000] dNh.. 13496.394937: hrtimer_expire_exit: hrtimer=00000000ef0f90db\n"
	"         cc1plus-16737   [001] dNh.. 13496.394939: hrtimer_expire_exit: hrtimer=0000000058ff9cc1\n";

}  // namespace

// A 6.18 recording: bucket_expiry (6.8+), was_armed on hrtimer_start
// (6.18+), hrtimer expiries without hrtimer_rearm (before 7.1).
START_TEST(a_6_18_recording_is_told_by_its_fields)
{
	const std::string path = test::write_temp("load-sleepers.txt", test::ftrace_text(load_sleepers, 2));
	const replay_report r = replay(path);
	const kernel_generation &g = r.input.generation;
	ck_assert_uint_eq(g.from, 618);
	ck_assert_uint_eq(g.to, 700);
	ck_assert_msg(g.range() == "6.18..7.0", "%s", (g.range()).c_str());
	ck_assert(g.rt_zero_slack);
	ck_assert(!g.tmigr_available);
	ck_assert(!g.deferred_rearm);
	ck_assert_msg(g.undecided() == "tmigr_available (6.19+)", "%s", (g.undecided()).c_str());
	ck_assert(!g.overridden);
}
END_TEST

// 3.x: timer_start without flags= (include/trace/events/timer.h before 4.2).
START_TEST(a_3_x_recording)
{
	using test::ftrace_line;
	const std::string path = test::write_temp("old.txt", test::ftrace_text(
		ftrace_line(0, 1000000, "timer_start: timer=ffff880000001000 function=fa expires=1010 [timeout=10]") +
		ftrace_line(0, 1044000, "timer_expire_entry: timer=ffff880000001000 function=fa now=1010")));
	const replay_report r = replay(path);
	const kernel_generation &g = r.input.generation;
	ck_assert_msg(g.range() == "3.0..4.1", "%s", (g.range()).c_str());
	ck_assert(!g.rt_zero_slack);
}
END_TEST

// 7.1 (include/trace/events/timer.h, hrtimer_rearm: "next_event=%llu
// deferred=%d", printed by hrtimer_rearm() at the end of the interrupt,
// kernel/time/hrtimer.c): lines written from that rule, the tick's expiry
// and the device rearmed once, deferred.
START_TEST(hrtimer_rearm_is_7_1)
{
	using test::ftrace_line;
	const std::string path = test::write_temp("v71.txt", test::ftrace_text(
		ftrace_line(0, 900000, "timer_start: timer=ffff880000001000 function=fa expires=4294967546 [timeout=250] bucket_expiry=4294967547 cpu=0 idx=64 flags=") +
		ftrace_line(0, 1000000, "local_timer_entry: vector=236") +
		ftrace_line(0, 1000001, "hrtimer_expire_entry: hrtimer=00000000503dde13 function=tick_nohz_handler now=1000000") +
		ftrace_line(0, 1000002, "hrtimer_expire_exit: hrtimer=00000000503dde13") +
		ftrace_line(0, 1000003, "hrtimer_start: hrtimer=00000000503dde13 function=tick_nohz_handler expires=5000000 softexpires=5000000 mode=ABS was_armed=0") +
		ftrace_line(0, 1000004, "hrtimer_rearm: next_event=5000000 deferred=1") +
		ftrace_line(0, 1000005, "local_timer_exit: vector=236"), 1));
	const replay_report r = replay(path);
	const kernel_generation &g = r.input.generation;
	ck_assert_uint_eq(g.from, 701);
	ck_assert_uint_eq(g.to, 0);
	ck_assert_msg(g.range() == "7.1+", "%s", (g.range()).c_str());
	ck_assert(g.rt_zero_slack && g.tmigr_available && g.deferred_rearm);
}
END_TEST

// trace-cmd report's hrtimer plugin prints neither mode= nor was_armed=:
// nothing is told of 6.18, and 6.12's rule is left undecided.
START_TEST(a_rendering_without_was_armed_leaves_the_rules_undecided)
{
	trace_shape s;
	s.start_fields = EF_BUCKET_EXPIRY | EF_TIMEOUT;
	s.expire_fields = EF_BASECLK;
	s.hrtimer_start_fields = EF_SOFTEXPIRES;
	s.hrtimer_expiries = 10;
	kernel_generation g = detect_kernel_generation(s);
	ck_assert(g.range() == "6.8..7.0");
	ck_assert(!g.rt_zero_slack);
	ck_assert(g.undecided() == "rt_zero_slack (6.12+), tmigr_available (6.19+)");
	// mode= printed without was_armed=: older than 6.18's stable.
	s.hrtimer_start_fields = EF_SOFTEXPIRES | EF_HRTIMER_MODE;
	g = detect_kernel_generation(s);
	ck_assert_msg(g.range() == "6.8..7.0", "%s", (g.range()).c_str());
	s.hrtimer_start_fields |= EF_WAS_ARMED;
	ck_assert_msg(detect_kernel_generation(s).range() == "6.18..7.0", "%s", (detect_kernel_generation(s).range()).c_str());
	// baseclk without bucket_expiry.
	s = trace_shape{};
	s.start_fields = EF_TIMEOUT | EF_TARGET_CPU | EF_IDX;
	s.expire_fields = EF_BASECLK;
	ck_assert_msg(detect_kernel_generation(s).range() == "5.2..6.7", "%s", (detect_kernel_generation(s).range()).c_str());
}
END_TEST

START_TEST(kernel_rules_sets_the_version)
{
	unsigned v = 0;
	std::string err;
	ck_assert(parse_kernel_version("6.19", v, err));
	ck_assert_uint_eq(v, 619);
	ck_assert(parse_kernel_version("7.1", v, err));
	ck_assert_uint_eq(v, 701);
	for (const char *bad : {"6", "6.", ".1", "6.x", "6.19.1", "600.1", "", "6.100"})
		ck_assert_msg(!parse_kernel_version(bad, v, err), "'%s' taken", bad);
	ck_assert(err.find("MAJOR.MINOR") != std::string::npos);

	const std::string path = test::write_temp("load-sleepers.txt", test::ftrace_text(load_sleepers, 2));
	const replay_report r = replay(path, 611);
	const kernel_generation &g = r.input.generation;
	ck_assert(g.overridden);
	ck_assert(!g.rt_zero_slack);
	ck_assert_msg(g.range() == "6.18..7.0", "%s", (g.range()).c_str());	// the trace's range stays
	ck_assert_msg(g.undecided() == "", "%s", (g.undecided()).c_str());
	ck_assert(replay(path, 619).input.generation.tmigr_available);
}
END_TEST

// 6.12 (kernel/sched/syscalls.c __setscheduler_params(): an RT or DL
// task's timer_slack_ns = 0): under a what-if that gives user space 2 ms of
// slack, the FIFO sleeper's three sleeps keep no range; the other 6 sleeps
// take the what-if's. Under 6.11's rules all 9 take it.
START_TEST(rt_sleeps_keep_zero_slack_from_6_12)
{
	const std::string path = test::write_temp("load-sleepers.txt", test::ftrace_text(load_sleepers, 2));
	const replay_report r = replay(path, 0, true);
	ck_assert_uint_eq(r.hrtimers.what_ifs.size(), 1);
	const hrtimer_what_if &w = r.hrtimers.what_ifs[0];
	ck_assert(w.rt_zero_slack);
	ck_assert_uint_eq(w.rt_exact, 3);
	ck_assert_uint_eq(w.ranges_changed, 6);

	const replay_report old = replay(path, 611, true);
	const hrtimer_what_if &o = old.hrtimers.what_ifs[0];
	ck_assert(!o.rt_zero_slack);
	ck_assert_uint_eq(o.rt_exact, 0);
	ck_assert_uint_eq(o.ranges_changed, 9);
}
END_TEST

// 7.1's rework (tick/sched: "Avoid hrtimer_cancel/start() sequence",
// kernel/time/tick-sched.c tick_nohz_restart()): leaving idle, the tick is
// started again in one step. ../shared/traces/linux-6.18-http/trace.txt
// lines 13-36: CPU 0 stops its tick (line 27: re-armed far out) and, at
// the idle exit, 6.18 cancels it (line 35), which stops the device (no
// other timer is queued on CPU 0), then starts it (line 36), which
// programs the device again. Under 7.1's rules the pair is one start.
const char *const tick_restart_pair =
	"            bash-13823   [000] .....   949.458480: hrtimer_setup: hrtimer=00000000d4448b79 clockid=CLOCK_MONOTONIC mode=REL|HARD\n"
	"            bash-13823   [000] .....   949.458482: hrtimer_setup: hrtimer=00000000e24e12de clockid=CLOCK_MONOTONIC mode=REL|HARD\n"
	"            bash-13823   [000] .....   949.458493: hrtimer_setup: hrtimer=00000000bd9a5399 clockid=CLOCK_MONOTONIC mode=REL\n"
	"     workload.sh-13825   [001] d.h..   949.460770: hrtimer_expire_entry: hrtimer=00000000d8040f62 function=tick_nohz_handler now=949436001722\n"
	"     workload.sh-13825   [001] d.h..   949.460777: hrtimer_expire_exit: hrtimer=00000000d8040f62\n"
	"     workload.sh-13825   [001] d.h1.   949.460777: hrtimer_start: hrtimer=00000000d8040f62 function=tick_nohz_handler expires=949440000000 softexpires=949440000000 mode=ABS was_armed=0\n"
	"          <idle>-0       [000] d.h1.   949.460783: hrtimer_expire_entry: hrtimer=00000000313ac2bd function=tick_nohz_handler now=949436014205\n"
	"     rcu_preempt-15      [001] d..1.   949.460788: timer_cancel: timer=00000000315ef0ae\n"
	"          <idle>-0       [000] d.h1.   949.460789: hrtimer_expire_exit: hrtimer=00000000313ac2bd\n"
	"          <idle>-0       [000] d.h2.   949.460790: hrtimer_start: hrtimer=00000000313ac2bd function=tick_nohz_handler expires=949440000000 softexpires=949440000000 mode=ABS was_armed=0\n"
	"     rcu_preempt-15      [001] .....   949.460790: timer_init: timer=00000000315ef0ae\n"
	"     rcu_preempt-15      [001] d..1.   949.460791: timer_start: timer=00000000315ef0ae function=process_timeout expires=4295129626 [timeout=1] bucket_expiry=4295129627 cpu=1 idx=27 flags=\n"
	"          <idle>-0       [000] d..3.   949.460796: timer_base_idle: is_idle=1 cpu=0\n"
	"          <idle>-0       [000] d..1.   949.460797: tick_stop: success=1 dependency=NONE\n"
	"          <idle>-0       [000] d..2.   949.460797: hrtimer_start: hrtimer=00000000313ac2bd function=tick_nohz_handler expires=1390231315155 softexpires=1390231315155 mode=ABS|PINNED|HARD was_armed=1\n"
	"     workload.sh-13825   [001] .....   949.460880: hrtimer_setup: hrtimer=00000000612e1fea clockid=CLOCK_MONOTONIC mode=REL|HARD\n"
	"     workload.sh-13825   [001] .....   949.460881: hrtimer_setup: hrtimer=000000009672d1e6 clockid=CLOCK_MONOTONIC mode=REL|HARD\n"
	"     workload.sh-13825   [001] .....   949.460890: hrtimer_setup: hrtimer=0000000006d397d6 clockid=CLOCK_MONOTONIC mode=REL\n"
	"     workload.sh-13825   [001] .....   949.461110: hrtimer_setup: hrtimer=0000000041d9b895 clockid=CLOCK_MONOTONIC mode=REL|HARD\n"
	"     workload.sh-13825   [001] .....   949.461110: hrtimer_setup: hrtimer=000000004f6c5f16 clockid=CLOCK_MONOTONIC mode=REL|HARD\n"
	"     workload.sh-13825   [001] .....   949.461116: hrtimer_setup: hrtimer=00000000bce1edd4 clockid=CLOCK_MONOTONIC mode=REL\n"
	"          <idle>-0       [000] dN.1.   949.461197: timer_base_idle: is_idle=0 cpu=0\n"
	"          <idle>-0       [000] dN.2.   949.461198: hrtimer_cancel: hrtimer=00000000313ac2bd\n"
	"          <idle>-0       [000] dN.2.   949.461199: hrtimer_start: hrtimer=00000000313ac2bd function=tick_nohz_handler expires=949440000000 softexpires=949440000000 mode=ABS|PINNED|HARD was_armed=0\n";

START_TEST(the_7_1_what_if_merges_the_ticks_cancel_start_pair)
{
	const std::string path = test::write_temp("pair.txt", test::ftrace_text(tick_restart_pair, 2));
	replay_options opt;
	opt.scheme = auto_scheme;
	opt.hz = 250;
	opt.hr_what_if.kernel_71 = true;
	auto reader = open_trace(path, trace_format::auto_detect, {});
	const replay_report r = replay_trace(*reader, path, opt);
	ck_assert_uint_eq(r.hrtimers.what_ifs.size(), 1);
	const hrtimer_what_if &w = r.hrtimers.what_ifs[0];
	ck_assert_str_eq(w.name.c_str(), "kernel");
	ck_assert_uint_eq(w.tick_pairs_merged, 1);
	// One device write fewer: the cancel's stop.
	ck_assert_uint_eq(w.what_if.device_programs + 1, w.model.device_programs);
	ck_assert_uint_eq(w.what_if.interrupts, w.model.interrupts);
}
END_TEST

int main()
{
	Suite *s = suite_create("kernel_generation");
	TCase *tc = tcase_create("generation");
	tcase_add_test(tc, a_6_18_recording_is_told_by_its_fields);
	tcase_add_test(tc, a_3_x_recording);
	tcase_add_test(tc, hrtimer_rearm_is_7_1);
	tcase_add_test(tc, a_rendering_without_was_armed_leaves_the_rules_undecided);
	tcase_add_test(tc, kernel_rules_sets_the_version);
	tcase_add_test(tc, rt_sleeps_keep_zero_slack_from_6_12);
	tcase_add_test(tc, the_7_1_what_if_merges_the_ticks_cancel_start_pair);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
