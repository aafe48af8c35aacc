// The 7.1 rules of the hrtimer model (kernel/hrtimer.h, rearm_deferred), each
// on a hand-worked case beside the 6.x rule it replaces (docs/hrtimers.md
// names the kernel source of each):
//
// - the interrupt leaves the device unprogrammed; the way out programs it
//   once, from the cached expiry when nothing changed meanwhile;
// - a start on the way out (the NOHZ tick stopped again at irq exit) folds
//   into that one program, where 6.x programs twice;
// - LAZY_REARM (the HRTICK): the device's next_timer moved later, or
//   removed, leaves the device armed early (a pointless interrupt); moved
//   earlier it programs.
#include <cstdint>

#include "tests/support/hrtimer_fixture.h"

using namespace hrtest;

namespace {

constexpr ktime_t US = NSEC_PER_USEC;

}  // namespace

START_TEST(the_interrupt_defers_its_rearm_to_the_way_out)
{
	fixture f(1);
	hrtimer_cpu_base *c = f.cpu(0);
	c->rearm_deferred = true;
	ttimer &a = f.add(1), &b = f.add(2);
	f.start(a, 1000 * US);
	f.start(b, 3000 * US);
	ck_assert_uint_eq(c->dev.programs, 1);
	bool seen = false;
	f.irq_exit = [&](unsigned) {
		// Between hrtimer_interrupt() and the rearm: nothing programmed.
		seen = true;
		ck_assert(c->deferred_rearm);
		ck_assert_uint_eq(c->dev.programs, 1);
		ck_assert_int_eq(c->dev.next_event, KTIME_MAX);
		ck_assert_int_eq(c->deferred_expires_next, 3000 * US);
	};
	f.advance_to(1000 * US);
	ck_assert(seen);
	ck_assert(!c->deferred_rearm);
	ck_assert_uint_eq(c->dev.programs, 2);
	ck_assert_int_eq(c->dev.next_event, 3000 * US);
	ck_assert_uint_eq(c->costs.deferred_rearms, 1);
	ck_assert_uint_eq(c->costs.deferred_updates, 0);	// the cached expiry served
	// No rearm pending: the way out does nothing.
	ck_assert(!hrtimer_rearm_deferred(c));
}
END_TEST

// The tick k is the first timer after the interrupt; irq exit moves it
// later (tick_nohz_irq_exit() stopping it again). 6.x: the interrupt
// programs k, then the start of the next_timer forces a second program.
// 7.1: the start only marks the cache stale; one program, for 8 ms.
static std::uint64_t programs_for_exit_restart(bool deferred, fixture &f)
{
	hrtimer_cpu_base *c = f.cpu(0);
	c->rearm_deferred = deferred;
	ttimer &a = f.add(1), &k = f.add(2);
	f.start(a, 1000 * US);
	f.start(k, 1500 * US);
	const std::uint64_t before = c->dev.programs;
	f.irq_exit = [&](unsigned) { hrtimer_start(c, &k.timer, 8000 * US, HRTIMER_MODE_ABS); };
	f.advance_to(1000 * US);
	ck_assert_int_eq(c->dev.next_event, 8000 * US);
	return c->dev.programs - before;
}

START_TEST(a_start_on_the_way_out_folds_into_the_rearm)
{
	fixture old_rules(1), new_rules(1);
	ck_assert_uint_eq(programs_for_exit_restart(false, old_rules), 2);
	ck_assert_uint_eq(programs_for_exit_restart(true, new_rules), 1);
	const hrtimer_cpu_base *c = new_rules.cpu(0);
	ck_assert_uint_eq(c->costs.deferred_updates, 1);	// re-evaluated: k moved
	ck_assert_uint_eq(c->costs.skips[SKIP_DEFERRED], 1);
}
END_TEST

// A callback's start inside the interrupt is the same under both rules
// (6.x skips it as in_hrtirq, 7.1 as deferred): one program at the end.
START_TEST(a_callback_start_is_one_program_under_both_rules)
{
	for (bool deferred : {false, true}) {
		fixture f(1);
		hrtimer_cpu_base *c = f.cpu(0);
		c->rearm_deferred = deferred;
		ttimer &a = f.add(1), &e = f.add(2), &late = f.add(3);
		f.start(late, 9000 * US);
		f.start(a, 1000 * US);
		a.action = [&](ttimer &) { hrtimer_start(c, &e.timer, 1500 * US, HRTIMER_MODE_ABS); };
		const std::uint64_t before = c->dev.programs;
		f.advance_to(1000 * US);
		ck_assert_uint_eq(c->dev.programs - before, 1);
		ck_assert_int_eq(c->dev.next_event, 1500 * US);
	}
}
END_TEST

// The HRTICK (HRTIMER_MODE_LAZY_REARM) as the device's next_timer.
START_TEST(lazy_rearm_keeps_the_early_interrupt)
{
	fixture f(1);
	hrtimer_cpu_base *c = f.cpu(0);
	c->rearm_deferred = true;
	ttimer &h = f.add(1, 0, HR_CLOCK_MONOTONIC, HRTIMER_MODE_REL | HRTIMER_MODE_HARD | HRTIMER_MODE_LAZY_REARM);
	ck_assert(h.timer.is_lazy);
	f.start(h, 1000 * US);
	ck_assert_uint_eq(c->dev.programs, 1);
	// Moved later: the device stays armed for 1 ms.
	f.start(h, 3000 * US);
	ck_assert_uint_eq(c->dev.programs, 1);
	ck_assert_uint_eq(c->costs.skips[SKIP_LAZY], 1);
	ck_assert_int_eq(c->dev.next_event, 1000 * US);
	// ... and fires there for nothing; the rearm programs 3 ms.
	f.advance_to(1000 * US);
	ck_assert_uint_eq(f.runs.size(), 0);
	ck_assert_uint_eq(c->nr_events, 1);
	ck_assert_int_eq(c->dev.next_event, 3000 * US);
	ck_assert_uint_eq(c->dev.programs, 2);
	// Moved earlier: programmed.
	f.start(h, 2000 * US);
	ck_assert_uint_eq(c->dev.programs, 3);
	ck_assert_int_eq(c->dev.next_event, 2000 * US);
	// Removed: the device stays armed; its interrupt runs nothing and
	// stops the device.
	f.cancel(h);
	ck_assert_uint_eq(c->costs.skips[SKIP_LAZY], 2);
	ck_assert_int_eq(c->dev.next_event, 2000 * US);
	f.advance_to(2500 * US);
	ck_assert_uint_eq(f.runs.size(), 0);
	ck_assert_uint_eq(c->nr_events, 2);
	ck_assert_int_eq(c->dev.next_event, KTIME_MAX);
}
END_TEST

// The same timer without the 7.1 rules: every move reprograms.
START_TEST(without_the_71_rules_lazy_means_nothing)
{
	fixture f(1);
	hrtimer_cpu_base *c = f.cpu(0);
	ttimer &h = f.add(1, 0, HR_CLOCK_MONOTONIC, HRTIMER_MODE_REL | HRTIMER_MODE_HARD | HRTIMER_MODE_LAZY_REARM);
	f.start(h, 1000 * US);
	f.start(h, 3000 * US);
	ck_assert_uint_eq(c->dev.programs, 2);
	ck_assert_int_eq(c->dev.next_event, 3000 * US);
	ck_assert_uint_eq(c->costs.skips[SKIP_LAZY], 0);
}
END_TEST

int main()
{
	Suite *s = suite_create("hrtimer_rearm71");
	TCase *tc = tcase_create("rules");
	tcase_add_test(tc, the_interrupt_defers_its_rearm_to_the_way_out);
	tcase_add_test(tc, a_start_on_the_way_out_folds_into_the_rearm);
	tcase_add_test(tc, a_callback_start_is_one_program_under_both_rules);
	tcase_add_test(tc, lazy_rearm_keeps_the_early_interrupt);
	tcase_add_test(tc, without_the_71_rules_lazy_means_nothing);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
