// Re-arming a pending timer into the slot it sits in: the kernel unlinks it
// and relinks it at the slot's tail (FIFO) or head (LIFO); the wheel keeps
// it in place with a new enqueue number (kernel/classic_wheel.h). What is
// observable must be the kernel's: the order timers fire in, the order a
// cascade moves them, what __next_timer_interrupt() finds first, and a
// callback's re-arm of a timer still waiting on the jiffy's work list.
#include <cstdint>
#include <vector>

#include "tests/support/classic_fixture.h"

using namespace ctest;

namespace {

std::vector<unsigned long> fired_order()
{
	std::vector<unsigned long> v;
	for (const fire_rec &f : g_log.fired)
		v.push_back(f.data);
	return v;
}

// Five timers due together; re-arm 1 and 3 for the same jiffy (same slot).
template <class Config>
std::vector<unsigned long> order_after_rearm(std::uint64_t ahead)
{
	harness<Config> h(1000);
	for (int i = 0; i < 5; i++)
		h.arm(1000 + ahead);
	kernel::__mod_timer(h.base, h.timers[1].get(), 1000 + ahead, false);
	kernel::__mod_timer(h.base, h.timers[3].get(), 1000 + ahead, false);
	CK_WHEEL(h.base);
	h.run_to(1000 + ahead);
	CK_WHEEL(h.base);
	return fired_order();
}

}  // namespace

START_TEST(rearm_moves_to_the_slot_end)
{
	// FIFO: 1 and 3 go to the tail, in that order; LIFO: to the head.
	const std::vector<unsigned long> fifo = {0, 2, 4, 1, 3}, lifo = {3, 1, 4, 2, 0};
	ck_assert(order_after_rearm<n64>(10) == fifo);
	ck_assert(order_after_rearm<n64_lifo>(10) == lifo);
	// Through a cascade (tv2) and two (tv3): LIFO flips at each cascade.
	ck_assert(order_after_rearm<n64>(1000) == fifo);
	ck_assert(order_after_rearm<n64_lifo>(1000) == (std::vector<unsigned long>{0, 2, 4, 1, 3}));
	ck_assert(order_after_rearm<n64>(20000) == fifo);
	ck_assert(order_after_rearm<n32>(20000) == fifo);
	ck_assert(order_after_rearm<s64>(5000) == fifo);
}
END_TEST

// In tv2 a re-arm to another expiry of the same slot moves the timer to the
// slot's end too: the cascade then moves it last.
START_TEST(rearm_within_a_tv2_slot)
{
	harness<n64> h(0);
	auto *a = h.arm(1000), *b = h.arm(1001), *c = h.arm(1002);
	ck_assert(h.at(a) == h.at(c));
	kernel::mod_timer(h.base, a, 1003);	// slot (1003 >> 8) & 63 == 3 as before
	ck_assert(h.at(a) == h.at(b));
	ck_assert_uint_eq(g_log.enqueues.size(), 4);
	ck_assert_uint_eq(g_log.enqueues[3].level, 2);
	h.run_to(768);	// the cascade of tv2 slot 3
	ck_assert_uint_eq(g_log.moves.size(), 3);
	ck_assert_uint_eq(g_log.moves[0].data, 1);
	ck_assert_uint_eq(g_log.moves[1].data, 2);
	ck_assert_uint_eq(g_log.moves[2].data, 0);
	h.run_to(1003);
	ck_assert(fired_order() == (std::vector<unsigned long>{1, 2, 0}));
	CK_WHEEL(h.base);
}
END_TEST

// A callback re-arms a timer that is still waiting on this jiffy's work
// list, for a jiffy that maps to the same tv1 slot: it must leave the work
// list and run a lap later, as in the kernel.
START_TEST(callback_rearms_a_timer_on_the_work_list)
{
	harness<n64> h(1000);
	for (int i = 0; i < 3; i++)
		h.arm(1010);
	auto *c = h.timers[2].get();
	g_log.action = [&](unsigned long data) {
		if (data == 1)
			kernel::mod_timer(h.base, c, 1010 + 256);
	};
	h.run_to(1010);
	ck_assert(fired_order() == (std::vector<unsigned long>{0, 1}));
	ck_assert(kernel::timer_pending(c));
	g_log.action = nullptr;
	h.run_to(1266);
	ck_assert(g_log.fired.back() == (fire_rec{2, 1266}));
	CK_WHEEL(h.base);
}
END_TEST

// The NOHZ scan takes the first non-deferrable timer of a tv1 slot in the
// kernel's order: after a re-arm moved the overdue X behind Y, Y's expiry.
START_TEST(next_interrupt_reads_the_kernel_order)
{
	harness<n64> h(1000);
	h.run_to(1099);
	auto *x = h.arm(1090);	// overdue: the slot processed next (1100 & 255)
	auto *y = h.arm(1100);	// that same slot
	ck_assert(h.at(x) == h.at(y));
	kernel::__mod_timer(h.base, x, 1095, false);	// still overdue: same slot, now last
	ck_assert(h.at(x) == h.at(y));
	ck_assert_uint_eq(kernel::__next_timer_interrupt(h.base), 1100);
	CK_WHEEL(h.base);
}
END_TEST

// Migrating to another base is never the shortcut, even into the same slot.
START_TEST(rearm_on_another_base_moves_it)
{
	harness<n64> h(1000);
	kernel::tvec_base<n64> other;
	kernel::init_timer_base(other, &h.jiffies, 1, 1000);
	auto *t = h.arm(1010);
	kernel::__mod_timer(other, t, 1010, false);
	ck_assert(t->base == &other);
	ck_assert_uint_eq(h.at(t).first, 0);
	CK_WHEEL(h.base);
	CK_WHEEL(other);
}
END_TEST

// Re-armed into another slot of its own base (the inline path, not
// __mod_timer_general()): the base's accounting is what detach_if_pending()
// and internal_add_timer() leave. Moving the cached earliest timer marks
// next_timer stale, whichever way it moves (the NOHZ scan then finds the
// earliest); moving another timer before next_timer takes its place;
// active_timers is unchanged, a deferrable timer touches neither.
START_TEST(rearm_into_another_slot_keeps_the_accounting)
{
	harness<n64> h(1000);
	auto *a = h.arm(1010), *b = h.arm(1020), *d = h.arm(1005, kernel::TIMER_DEFERRABLE);
	// A fresh base's next_timer is stale (3.10): the scan caches 1010.
	ck_assert_uint_eq(kernel::get_next_timer_interrupt(h.base, 1000), 1010);
	ck_assert_uint_eq(h.base.next_timer, 1010);
	ck_assert_uint_eq(h.base.active_timers, 2);

	kernel::mod_timer(h.base, a, 1030);	// the earliest, later: stale
	ck_assert_uint_eq(h.at(a).second, 1030 & 255);
	ck_assert_uint_eq(h.base.next_timer, h.base.timer_jiffies);
	ck_assert_uint_eq(h.base.active_timers, 2);
	ck_assert_uint_eq(kernel::get_next_timer_interrupt(h.base, 1000), 1020);

	kernel::mod_timer(h.base, b, 1003);	// the cached earliest, earlier: stale too
	ck_assert_uint_eq(h.base.next_timer, h.base.timer_jiffies);
	ck_assert_uint_eq(kernel::get_next_timer_interrupt(h.base, 1000), 1003);
	kernel::mod_timer(h.base, a, 1002);	// before next_timer: takes its place
	ck_assert_uint_eq(h.base.next_timer, 1002);
	kernel::mod_timer(h.base, d, 1001);	// deferrable: not counted
	ck_assert_uint_eq(h.base.next_timer, 1002);
	ck_assert_uint_eq(h.base.active_timers, 2);
	ck_assert_uint_eq(g_log.enqueues.size(), 7);
	CK_WHEEL(h.base);

	h.run_to(1030);
	ck_assert(fired_order() == (std::vector<unsigned long>{2, 0, 1}));
	ck_assert_uint_eq(h.base.active_timers, 0);
}
END_TEST

int main()
{
	Suite *s = suite_create("classic_rearm");
	TCase *tc = tcase_create("rearm");
	tcase_add_test(tc, rearm_moves_to_the_slot_end);
	tcase_add_test(tc, rearm_within_a_tv2_slot);
	tcase_add_test(tc, callback_rearms_a_timer_on_the_work_list);
	tcase_add_test(tc, next_interrupt_reads_the_kernel_order);
	tcase_add_test(tc, rearm_on_another_base_moves_it);
	tcase_add_test(tc, rearm_into_another_slot_keeps_the_accounting);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
