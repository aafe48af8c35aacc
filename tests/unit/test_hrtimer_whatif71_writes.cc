// --what-if-kernel 7.1's device writes against 6.18's, worked by hand on
// real lines of tests/data/measured-network-quiet.txt.gz (CPU 0, 15130.0029
// to 15130.0110; the tick's now is its timestamp - 22.88 ms, so times below
// are CLOCK_MONOTONIC, "80.046" for 15129980046271 ns).
//
// 7.1 (kernel/time/hrtimer.c): hrtimer_interrupt() leaves the device
// unprogrammed; a start or removal while deferred_rearm is set only marks
// the cached expiry stale ("If a deferred rearm is pending skip
// reprogramming the device"); the rearm on irq exit programs it once.
// 6.18: a start inside the interrupt does not program (in_hrtirq) and
// hrtimer_interrupt() programs once at its end. So each interrupt with its
// RESTART is one write under either rule. The free models' interrupts come
// at the device's time, the recording's ~50 us later (a VM's latency): the
// tick's expiry and RESTART are still that interrupt's work.
//
//   80.046  interrupt 1: the tick, first seen here (no model holds it);
//           inside it the scheduler's dl_task_timer is canceled and
//           started for 930.050 (a start inside, nothing pending: both
//           models program it, 1), and the tick's RESTART for 84.000
//           programs it (2)
//   84.000  both models' interrupt runs the tick (device time)
//   84.047  the recording runs it; its RESTART for 88.000 at 84.050, exit
//           at 84.053. 6.18: the interrupt programs dl_task_timer (3), the
//           RESTART's program for 88.000 replaces it (3). 7.1: the RESTART
//           folds into the pending rearm
//   87.615  a sleeper starts for 487.665 (not first: no program). 7.1: the
//           interrupt ended at 84.053; its rearm programs 88.000 (3)
//   88.000  interrupt 3 the same way (recorded at 88.059, RESTART for
//           92.000 at 88.062): 6.18 (4); 7.1 folds it, and its rearm is
//           made at the trace's end (4)
//
// Four writes and two interrupts under each rule. Before this count the
// 7.1 side ended an interrupt 10 us after the device's time, before the
// recording ran its tick: the rearm then programmed dl_task_timer and each
// RESTART wrote again (6 writes).
#include <string>

#include <nlohmann/json.hpp>

#include "sim/gen/tracefs_header.h"
#include "tests/support/check_main.h"
#include "tests/support/cli.h"
#include "tests/support/text_trace_util.h"

using namespace timersim::test;
using nlohmann::json;

namespace {

const std::string header = timersim::gen::tracefs_header(timersim::gen::kernel_gen::linux6, 40, 2);

// A wheel timer (a replay needs one), CPU 1's, from the same recording.
const char *const wheel =
	"     rcu_preempt-15      [001] d..1. 15130.003025: timer_start: timer=00000000b5199443 function=process_timeout expires=4298674738 [timeout=1] bucket_expiry=4298674739 cpu=1 idx=51 flags=\n";

const char *const irq1_entry = "           sleep-30256   [000] d.h.. 15130.002925: local_timer_entry: vector=236\n";
const char *const irq1 =
	"           sleep-30256   [000] d.h.. 15130.002926: hrtimer_expire_entry: hrtimer=00000000046cd983 function=tick_nohz_handler now=15129980046271\n"
	"           sleep-30256   [000] d.h2. 15130.002929: hrtimer_cancel: hrtimer=00000000283afc1d\n"
	"           sleep-30256   [000] d.h2. 15130.002930: hrtimer_start: hrtimer=00000000283afc1d function=dl_task_timer expires=15130930050279 softexpires=15130930050279 mode=ABS|HARD was_armed=0\n"
	"           sleep-30256   [000] dNh.. 15130.002932: hrtimer_expire_exit: hrtimer=00000000046cd983\n"
	"           sleep-30256   [000] dNh1. 15130.002932: hrtimer_start: hrtimer=00000000046cd983 function=tick_nohz_handler expires=15129984000000 softexpires=15129984000000 mode=ABS was_armed=0\n";
const char *const irq1_exit = "           sleep-30256   [000] dNh.. 15130.002936: local_timer_exit: vector=236\n";
const char *const irq2_entry = "           pkill-30254   [000] d.h.. 15130.006926: local_timer_entry: vector=236\n";
const char *const irq2 =
	"           pkill-30254   [000] d.h.. 15130.006926: hrtimer_expire_entry: hrtimer=00000000046cd983 function=tick_nohz_handler now=15129984046538\n"
	"           pkill-30254   [000] dNh.. 15130.006930: hrtimer_expire_exit: hrtimer=00000000046cd983\n"
	"           pkill-30254   [000] dNh1. 15130.006930: hrtimer_start: hrtimer=00000000046cd983 function=tick_nohz_handler expires=15129988000000 softexpires=15129988000000 mode=ABS was_armed=0\n";
const char *const irq2_exit = "           pkill-30254   [000] dNh.. 15130.006933: local_timer_exit: vector=236\n";
const char *const sleeper =
	"           sleep-30256   [000] ..... 15130.010494: hrtimer_setup: hrtimer=00000000737f5af2 clockid=CLOCK_REALTIME mode=REL\n"
	"           sleep-30256   [000] d..1. 15130.010495: hrtimer_start: hrtimer=00000000737f5af2 function=hrtimer_wakeup expires=15130487665205 softexpires=15130487615205 mode=REL was_armed=0\n";
const char *const irq3_entry = "           pkill-30254   [000] d.h.. 15130.010938: local_timer_entry: vector=236\n";
const char *const irq3 =
	"           pkill-30254   [000] d.h.. 15130.010939: hrtimer_expire_entry: hrtimer=00000000046cd983 function=tick_nohz_handler now=15129988058970\n"
	"           pkill-30254   [000] d.h.. 15130.010942: hrtimer_expire_exit: hrtimer=00000000046cd983\n"
	"           pkill-30254   [000] d.h1. 15130.010942: hrtimer_start: hrtimer=00000000046cd983 function=tick_nohz_handler expires=15129992000000 softexpires=15129992000000 mode=ABS was_armed=0\n";
const char *const irq3_exit = "           pkill-30254   [000] d.h.. 15130.010946: local_timer_exit: vector=236\n";

json kernel_what_if(const std::string &name, const std::string &text)
{
	std::string path = write_temp(name, text);
	cli_result r = run_timersim({"replay", "--json", "-", "--what-if-kernel", "7.1", path});
	ck_assert_msg(r.status == 0, "replay failed: %s", r.err.c_str());
	const json all = json::parse(r.out);
	const json &w = all["hrtimers"]["what_ifs"][0];
	ck_assert_string_eq(w["name"].get<std::string>(), "kernel");
	return w;
}

std::uint64_t u(const json &j, const char *k) { return j[k].get<std::uint64_t>(); }

}  // namespace

START_TEST(each_interrupt_and_its_restart_write_once_under_either_rule)
{
	const json w = kernel_what_if("w71real.txt", header + wheel + irq1_entry + irq1 + irq1_exit + irq2_entry + irq2 +
							     irq2_exit + sleeper + irq3_entry + irq3 + irq3_exit);
	ck_assert_uint_eq(u(w["model"], "device_programs"), 4);
	ck_assert_uint_eq(u(w["what_if"], "device_programs"), 4);
	ck_assert_uint_eq(u(w["model"], "interrupts"), 2);
	ck_assert_uint_eq(u(w["what_if"], "interrupts"), 2);
	ck_assert_uint_eq(u(w, "ran_ahead"), 0);
}
END_TEST

// The same lines as a trace without interrupt events shows them: only the
// RESTART (the start of the timer whose expire_exit was the CPU's last
// event) is known to be inside an interrupt. dl_task_timer's start in
// interrupt 1 programs the device under either rule all the same (nothing
// pending, nothing to fold into): the count is the same, 4 and 4.
START_TEST(without_interrupt_events_the_restart_still_folds)
{
	const json w = kernel_what_if("w71real-noirq.txt", header + wheel + irq1 + irq2 + sleeper + irq3);
	ck_assert_uint_eq(u(w["model"], "device_programs"), 4);
	ck_assert_uint_eq(u(w["what_if"], "device_programs"), 4);
	ck_assert_uint_eq(u(w["what_if"], "interrupts"), 2);
}
END_TEST

// A start outside the interrupt does not fold under either rule. Made-up
// lines after interrupt 3 (a task sleeping in a loop): sleeper Z started
// at 88.120 for 88.500, run by the recording's interrupt at 88.510, started
// again by its task at 88.600 for 89.000. 6.18: Z's start programs 88.500
// (5), its interrupt programs 92.000 (6), the new sleep 89.000 (7). 7.1:
// Z's start ends interrupt 3 (its rearm programs 92.000, 4) and programs
// 88.500 (5); Z's interrupt ends at its exit, 88.514, so the new sleep
// comes after its rearm (92.000, 6) and programs 89.000 (7). (A rule that
// took any next start of a timer the recording had just run for its
// RESTART folded the new sleep into the interrupt on the 6.18 side: 6.)
START_TEST(a_start_after_the_interrupt_writes_under_either_rule)
{
	const std::string loop =
		"           sleep-30256   [000] d..1. 15130.011000: hrtimer_start: hrtimer=00000000aaaa0002 function=hrtimer_wakeup expires=15129988500000 softexpires=15129988500000 mode=ABS was_armed=0\n"
		"           sleep-30256   [000] d.h.. 15130.011389: local_timer_entry: vector=236\n"
		"           sleep-30256   [000] d.h.. 15130.011390: hrtimer_expire_entry: hrtimer=00000000aaaa0002 function=hrtimer_wakeup now=15129988510271\n"
		"           sleep-30256   [000] d.h.. 15130.011392: hrtimer_expire_exit: hrtimer=00000000aaaa0002\n"
		"           sleep-30256   [000] d.h.. 15130.011394: local_timer_exit: vector=236\n"
		"           sleep-30256   [000] d..1. 15130.011480: hrtimer_start: hrtimer=00000000aaaa0002 function=hrtimer_wakeup expires=15129989000000 softexpires=15129989000000 mode=ABS was_armed=0\n";
	const json w = kernel_what_if("w71real-after.txt", header + wheel + irq1_entry + irq1 + irq1_exit + irq2_entry +
								   irq2 + irq2_exit + sleeper + irq3_entry + irq3 + irq3_exit +
								   loop);
	ck_assert_uint_eq(u(w["model"], "device_programs"), 7);
	ck_assert_uint_eq(u(w["what_if"], "device_programs"), 7);
	ck_assert_uint_eq(u(w["model"], "interrupts"), 3);
	ck_assert_uint_eq(u(w["what_if"], "interrupts"), 3);
}
END_TEST

int main()
{
	Suite *s = suite_create("hrtimer_whatif71_writes");
	TCase *tc = tcase_create("writes");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, each_interrupt_and_its_restart_write_once_under_either_rule);
	tcase_add_test(tc, without_interrupt_events_the_restart_still_folds);
	tcase_add_test(tc, a_start_after_the_interrupt_writes_under_either_rule);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
