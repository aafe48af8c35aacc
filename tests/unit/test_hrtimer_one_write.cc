// 6.x: a start made inside the timer interrupt (a callback's RESTART, which
// __run_hrtimer() re-enqueues and traces as hrtimer_start after the
// callback's hrtimer_expire_exit) does not program the device while
// cpu_base->in_hrtirq is set (hrtimer_reprogram() returns); the interrupt
// programs it once, at its end, for the next expiry (hrtimer_interrupt() ->
// tick_program_event()). Worked by hand on real lines of
// tests/data/measured-network-quiet.txt.gz (CPU 0; the tick's now is its
// timestamp - 22.88 ms):
//
//   15130.006926  interrupt A: the tick (unseen before) expires; the model
//                 holds nothing, its interrupt leaves the device stopped;
//                 the RESTART for 15129988000000 programs it (1)
//   15130.010495  a sleeper started for 15130487665205: later, no program
//   15130.010938  interrupt B runs the tick; the model's interrupt programs
//                 the sleeper's time (2); the RESTART for 15129992000000,
//                 earlier, programs again (3)
//
// Old rule: 3 device programs. The kernel (and the model now): the RESTART
// folds into its interrupt's one program: A's stop becomes the tick's
// program (1), B programs 15129992000000 once (2). Both interrupts are the
// model's under either rule.
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

const char *const irq_entry_a =
	"           pkill-30254   [000] d.h.. 15130.006926: local_timer_entry: vector=236\n";
const char *const interrupt_a =
	"           pkill-30254   [000] d.h.. 15130.006926: hrtimer_expire_entry: hrtimer=00000000046cd983 function=tick_nohz_handler now=15129984046538\n"
	"           pkill-30254   [000] dNh.. 15130.006930: hrtimer_expire_exit: hrtimer=00000000046cd983\n"
	"           pkill-30254   [000] dNh1. 15130.006930: hrtimer_start: hrtimer=00000000046cd983 function=tick_nohz_handler expires=15129988000000 softexpires=15129988000000 mode=ABS was_armed=0\n";
const char *const irq_exit_a =
	"           pkill-30254   [000] dNh.. 15130.006933: local_timer_exit: vector=236\n";
const char *const sleeper =
	"           sleep-30256   [000] d..1. 15130.010495: hrtimer_start: hrtimer=00000000737f5af2 function=hrtimer_wakeup expires=15130487665205 softexpires=15130487615205 mode=REL was_armed=0\n";
const char *const irq_entry_b =
	"           pkill-30254   [000] d.h.. 15130.010938: local_timer_entry: vector=236\n";
const char *const interrupt_b =
	"           pkill-30254   [000] d.h.. 15130.010939: hrtimer_expire_entry: hrtimer=00000000046cd983 function=tick_nohz_handler now=15129988058970\n"
	"           pkill-30254   [000] d.h.. 15130.010942: hrtimer_expire_exit: hrtimer=00000000046cd983\n"
	"           pkill-30254   [000] d.h1. 15130.010942: hrtimer_start: hrtimer=00000000046cd983 function=tick_nohz_handler expires=15129992000000 softexpires=15129992000000 mode=ABS was_armed=0\n";
const char *const irq_exit_b =
	"           pkill-30254   [000] d.h.. 15130.010946: local_timer_exit: vector=236\n";

json hrtimers(const std::string &name, const std::string &text)
{
	return replay_json({write_temp(name, text)})["hrtimers"];
}

std::uint64_t u(const json &j, const char *k) { return j[k].get<std::uint64_t>(); }

}  // namespace

START_TEST(a_restart_inside_the_interrupt_folds_into_its_program)
{
	json h = hrtimers("onewrite.txt", header + wheel + irq_entry_a + interrupt_a + irq_exit_a + sleeper +
						  irq_entry_b + interrupt_b + irq_exit_b);
	ck_assert(h["irq_events"].get<bool>());
	ck_assert_uint_eq(u(h["cpus"][0], "device_programs"), 2);
	ck_assert_uint_eq(u(h["cpus"][0], "recorded_interrupts"), 2);
	ck_assert_uint_eq(u(h["cpus"][0], "predicted_interrupts"), 1);	// B: A's tick was unseen
	ck_assert_uint_eq(u(h["cpus"][0], "both"), 1);
}
END_TEST

// The same lines as a trace without interrupt events shows them: the
// RESTART is the start of the timer whose expire_exit came just before.
START_TEST(without_interrupt_events_the_restart_after_its_exit_folds)
{
	json h = hrtimers("onewrite-noirq.txt", header + wheel + interrupt_a + sleeper + interrupt_b);
	ck_assert(!h["irq_events"].get<bool>());
	ck_assert_uint_eq(u(h["cpus"][0], "device_programs"), 2);
	ck_assert_uint_eq(u(h["cpus"][0], "predicted_interrupts"), 1);
}
END_TEST

// A start after the interrupt's exit is irq exit's (or a task's) work: it
// programs the device itself. The tick moved later after B's exit (as
// tick_nohz_stop_tick() does): the device, set for 15129992000000 by the
// interrupt, is written again (3).
START_TEST(a_start_after_the_interrupts_exit_writes_again)
{
	const std::string moved =
		"           pkill-30254   [000] d..2. 15130.010950: hrtimer_start: hrtimer=00000000046cd983 function=tick_nohz_handler expires=15129996000000 softexpires=15129996000000 mode=ABS|PINNED|HARD was_armed=1\n";
	json h = hrtimers("onewrite-exit.txt", header + wheel + irq_entry_a + interrupt_a + irq_exit_a + sleeper +
						       irq_entry_b + interrupt_b + irq_exit_b + moved);
	ck_assert_uint_eq(u(h["cpus"][0], "device_programs"), 3);
}
END_TEST

int main()
{
	Suite *s = suite_create("hrtimer_one_write");
	TCase *tc = tcase_create("one_write");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, a_restart_inside_the_interrupt_folds_into_its_program);
	tcase_add_test(tc, without_interrupt_events_the_restart_after_its_exit_folds);
	tcase_add_test(tc, a_start_after_the_interrupts_exit_writes_again);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
