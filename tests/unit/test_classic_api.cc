// The classic wheel's API as Linux 3.10 has it: return values of mod_timer,
// mod_timer_pending, del_timer, try_to_del_timer_sync; slack; add_timer_on
// and migration between bases (not while the timer runs); slot order FIFO
// vs LIFO; and what callbacks may do to timers, including ones still on
// the work list of the jiffy being run.
//
// Note: wheel_check() is only called outside callbacks. While a work list
// is being run its timers are pending (and counted in active_timers) but in
// no slot, so the checker's count would not match there.
#include "tests/support/classic_fixture.h"

#include <cstdint>
#include <vector>

using namespace ctest;
using kernel::del_timer;
using kernel::mod_timer;
using kernel::mod_timer_pending;
using kernel::timer_pending;
using kernel::try_to_del_timer_sync;

// ---- return values ---------------------------------------------------------

START_TEST(mod_timer_and_del_timer_returns)
{
	harness<n64> h(1000);
	auto *t = h.make();
	ck_assert(!timer_pending(t));
	ck_assert_int_eq(mod_timer(h.base, t, 2000), 0);
	ck_assert(timer_pending(t));
	ck_assert_uint_eq(h.base.active_timers, 1);
	ck_assert_int_eq(mod_timer(h.base, t, 3000), 1);
	ck_assert_uint_eq(t->expires, 3000);
	ck_assert_uint_eq(h.base.active_timers, 1);
	CK_WHEEL(h.base);
	ck_assert_int_eq(del_timer(t), 1);
	ck_assert(!timer_pending(t));
	ck_assert_uint_eq(h.base.active_timers, 0);
	ck_assert_int_eq(del_timer(t), 0);
	ck_assert_uint_eq(h.at(t).first, 0);
	CK_WHEEL(h.base);
	h.run_to(4000);
	ck_assert(g_log.fired.empty());
}
END_TEST

START_TEST(mod_timer_pending_only_acts_on_pending)
{
	harness<n64> h(1000);
	auto *t = h.make();
	t->slack = -1;	// default slack: mod_timer would move 5000 to 5008
	ck_assert_int_eq(mod_timer_pending(h.base, t, 5000), 0);
	ck_assert(!timer_pending(t));
	ck_assert(g_log.enqueues.empty());
	ck_assert_uint_eq(h.base.active_timers, 0);
	CK_WHEEL(h.base);

	ck_assert_int_eq(mod_timer(h.base, t, 5000), 0);
	// delta 4001 from jiffies 999: limit 5015; 0x1388 ^ 0x1397 -> bit 4 -> 0x1390
	ck_assert_uint_eq(t->expires, 5008);
	ck_assert_int_eq(mod_timer_pending(h.base, t, 5000), 1);
	ck_assert_uint_eq(t->expires, 5000);	// no slack
	ck_assert_uint_eq(g_log.enqueues.size(), 2);
	CK_WHEEL(h.base);
	h.run_to(6000);
	ck_assert(g_log.fired == (std::vector<fire_rec>{{0, 5000}}));
	ck_assert_int_eq(mod_timer_pending(h.base, t, 7000), 0);	// fired: not pending
	ck_assert(!timer_pending(t));
}
END_TEST

START_TEST(add_timer_applies_slack_add_timer_on_does_not)
{
	harness<n64> h(1000);
	kernel::tvec_base<n64> other;
	kernel::init_timer_base(other, &h.jiffies, 1, 1000);
	auto *a = h.make();
	auto *b = h.make();
	a->slack = b->slack = -1;
	a->expires = b->expires = 5000;
	kernel::add_timer(h.base, a);
	kernel::add_timer_on(other, b);
	ck_assert_uint_eq(a->expires, 5008);
	ck_assert_uint_eq(b->expires, 5000);
	ck_assert_ptr_eq(a->base, &h.base);
	ck_assert_ptr_eq(b->base, &other);
	ck_assert_uint_eq(where(other, b).first, 2);
	ck_assert_uint_eq(h.at(b).first, 0);
	ck_assert_uint_eq(h.base.active_timers, 1);
	ck_assert_uint_eq(other.active_timers, 1);
	CK_WHEEL(h.base);
	CK_WHEEL(other);

	h.run_to(6000);	// runs only h.base
	ck_assert(g_log.fired == (std::vector<fire_rec>{{0, 5008}}));
	kernel::run_timers(other, 6000);
	ck_assert(g_log.fired == (std::vector<fire_rec>{{0, 5008}, {1, 5000}}));
	CK_WHEEL(other);
}
END_TEST

START_TEST(try_to_del_timer_sync_outside_callbacks)
{
	harness<n64> h(1000);
	auto *t = h.make();
	ck_assert_int_eq(try_to_del_timer_sync(t), 0);	// never armed: no base
	mod_timer(h.base, t, 1500);
	ck_assert_int_eq(try_to_del_timer_sync(t), 1);
	ck_assert(!timer_pending(t));
	ck_assert_int_eq(try_to_del_timer_sync(t), 0);
	ck_assert_uint_eq(h.base.active_timers, 0);
	CK_WHEEL(h.base);
}
END_TEST

// ---- slack -------------------------------------------------------------------

START_TEST(slack_explicit)
{
	harness<n64> h(1);
	auto *t = h.make();
	t->slack = 10;
	mod_timer(h.base, t, 1000);	// 0x3e8..0x3f2 -> 0x3f0
	ck_assert_uint_eq(t->expires, 1008);
	mod_timer(h.base, t, 1024);	// 0x400..0x40a -> 0x408
	ck_assert_uint_eq(t->expires, 1032);
	t->slack = 0;
	mod_timer(h.base, t, 1001);
	ck_assert_uint_eq(t->expires, 1001);
	CK_WHEEL(h.base);
}
END_TEST

START_TEST(slack_default)
{
	harness<n64> h(1001);	// jiffies 1000
	auto *t = h.make();
	t->slack = -1;
	mod_timer(h.base, t, 1000 + 100);
	ck_assert_uint_eq(t->expires, 1100);	// delta < 256: none
	mod_timer(h.base, t, 1000 + 255);
	ck_assert_uint_eq(t->expires, 1255);
	mod_timer(h.base, t, 1000 + 256);	// limit 1257: 0x4e8 ^ 0x4e9 -> bit 0
	ck_assert_uint_eq(t->expires, 1257);
	mod_timer(h.base, t, 1000 + 25600);	// limit +100: 0x67e8..0x684c -> 0x6800
	ck_assert_uint_eq(t->expires, 26624);
	mod_timer(h.base, t, 990);	// in the past: none
	ck_assert_uint_eq(t->expires, 990);
	CK_WHEEL(h.base);
}
END_TEST

// Slack is measured from the machine's jiffies, not from the base's
// timer_jiffies: with a base lagging far behind, 200 ahead of jiffies is
// still "under 256" and gets none.
START_TEST(slack_from_global_jiffies)
{
	harness<n64> h(1001);
	h.jiffies = 100000;
	auto *t = h.make();
	t->slack = -1;
	mod_timer(h.base, t, 100200);
	ck_assert_uint_eq(t->expires, 100200);
	mod_timer(h.base, t, 100000 + 25600);	// same as 1000 + 25600, shifted by 99000
	// 125600 = 0x1eaa0, limit 125700 = 0x1eb04: xor 0x1a4 -> bit 8 -> 0x1eb00
	ck_assert_uint_eq(t->expires, 0x1eb00);
	CK_WHEEL(h.base);
}
END_TEST

START_TEST(slack_32_across_wrap)
{
	harness<n32> h(0xffffff01u);	// jiffies 0xffffff00
	auto *t = h.make();
	t->slack = -1;
	mod_timer(h.base, t, static_cast<std::uint32_t>(0xffffff00u + 25600));	// = 25344
	// limit 25444: 0x6300 ^ 0x6364 -> bit 6 -> 0x6340
	ck_assert_uint_eq(t->expires, 25408);
	CK_WHEEL(h.base);
	h.run_to(25408);
	ck_assert(g_log.fired == (std::vector<fire_rec>{{0, 25408}}));
}
END_TEST

// Re-arming a pending timer to the expiry slack makes of it anyway is a
// no-op that returns 1: no enqueue reaches the observer.
START_TEST(slack_same_expiry_is_noop)
{
	harness<n64> h(1001);
	auto *t = h.make();
	t->slack = -1;
	ck_assert_int_eq(mod_timer(h.base, t, 26601), 0);	// limit 26701 -> 26624
	ck_assert_uint_eq(t->expires, 26624);
	ck_assert_uint_eq(g_log.enqueues.size(), 1);
	ck_assert_int_eq(mod_timer(h.base, t, 26601), 1);
	ck_assert_int_eq(mod_timer(h.base, t, 26600), 1);	// also slacks to 26624
	ck_assert_uint_eq(g_log.enqueues.size(), 1);
	ck_assert_uint_eq(t->expires, 26624);
	// 26624 itself slacks further (limit 26724: 0x6800 ^ 0x6864 -> 0x6840):
	// a real re-arm, still returning 1.
	ck_assert_int_eq(mod_timer(h.base, t, 26624), 1);
	ck_assert_uint_eq(t->expires, 26688);
	ck_assert_uint_eq(g_log.enqueues.size(), 2);
	CK_WHEEL(h.base);
	// Not pending: the same expiry is armed normally.
	del_timer(t);
	ck_assert_int_eq(mod_timer(h.base, t, 26601), 0);
	ck_assert_uint_eq(g_log.enqueues.size(), 3);
	CK_WHEEL(h.base);
}
END_TEST

// ---- migration between bases -------------------------------------------------

START_TEST(migration_to_local_base)
{
	harness<n64> h(1000);	// base A, cpu 0
	kernel::tvec_base<n64> b;
	kernel::init_timer_base(b, &h.jiffies, 1, 1000);
	auto *t = h.arm(2000);
	auto *u = h.arm(2500);
	ck_assert_ptr_eq(t->base, &h.base);

	ck_assert_int_eq(mod_timer(b, t, 2100), 1);	// re-armed from cpu 1
	ck_assert_ptr_eq(t->base, &b);
	ck_assert_uint_eq(h.at(t).first, 0);
	ck_assert_uint_eq(where(b, t).first, 2);
	ck_assert_uint_eq(h.base.active_timers, 1);
	ck_assert_uint_eq(b.active_timers, 1);
	ck_assert_int_eq(mod_timer_pending(b, u, 2600), 1);	// also migrates
	ck_assert_ptr_eq(u->base, &b);
	ck_assert_uint_eq(h.base.active_timers, 0);
	CK_WHEEL(h.base);
	CK_WHEEL(b);

	h.run_to(3000);
	ck_assert(g_log.fired.empty());
	kernel::run_timers(b, 3000);
	ck_assert(g_log.fired == (std::vector<fire_rec>{{0, 2100}, {1, 2600}}));
	ck_assert_int_eq(del_timer(t), 0);
}
END_TEST

// From inside its own callback a timer is its base's running timer: it is
// not pending, try_to_del_timer_sync() says -1, and mod_timer() from
// another CPU re-arms it on its old base (del_timer_sync() must still find
// it there). Another timer re-armed from the same callback does migrate.
START_TEST(no_migration_while_running)
{
	harness<n64> h(1000);
	kernel::tvec_base<n64> b;
	kernel::init_timer_base(b, &h.jiffies, 1, 1000);
	auto *t = h.arm(1500);
	auto *u = h.arm(1800);
	int calls = 0;
	g_log.action = [&](unsigned long data) {
		if (data != 0 || calls++)
			return;
		ck_assert_ptr_eq(h.base.running_timer, t);
		ck_assert(!timer_pending(t));
		ck_assert_int_eq(try_to_del_timer_sync(t), -1);
		ck_assert_int_eq(del_timer(t), 0);
		ck_assert_int_eq(mod_timer(b, t, 1600), 0);
		ck_assert_ptr_eq(t->base, &h.base);	// stayed on its base
		ck_assert(timer_pending(t));
		ck_assert_int_eq(try_to_del_timer_sync(t), -1);	// still running
		ck_assert(timer_pending(t));
		ck_assert_int_eq(mod_timer(b, u, 1900), 1);
		ck_assert_ptr_eq(u->base, &b);
	};
	h.run_to(1500);
	ck_assert_int_eq(calls, 1);
	ck_assert_ptr_null(h.base.running_timer);
	ck_assert_uint_eq(h.at(t).first, 1);	// 99 ahead of 1501
	ck_assert_uint_eq(where(b, t).first, 0);
	ck_assert_uint_eq(where(b, u).first, 2);	// b still at 1000: 900 ahead
	ck_assert_uint_eq(h.base.active_timers, 1);
	ck_assert_uint_eq(b.active_timers, 1);
	CK_WHEEL(h.base);
	CK_WHEEL(b);
	// Outside its callback try_to_del_timer_sync deletes normally...
	ck_assert_int_eq(try_to_del_timer_sync(u), 1);
	// ...and t fires again on its old base.
	h.run_to(2000);
	ck_assert(g_log.fired == (std::vector<fire_rec>{{0, 1500}, {0, 1600}}));
	CK_WHEEL(h.base);
}
END_TEST

// ---- slot order --------------------------------------------------------------

// Equal expiry: FIFO (up to 4.1) runs in add order, LIFO (4.2+) in reverse.
// After a cascade LIFO's order flips again: the cascade walks the slot head
// first and re-adds each timer at the head of its tv1 slot, as 4.2..4.7's
// hlist code does.
template <class Config>
std::vector<unsigned long> order_of(std::uint64_t ahead)
{
	harness<Config> h(1000);
	for (int i = 0; i < 5; i++)
		h.arm(1000 + ahead);
	h.run_to(1000 + ahead);
	std::vector<unsigned long> order;
	for (const fire_rec &f : g_log.fired) {
		ck_assert_uint_eq(f.jiffy, 1000 + ahead);
		order.push_back(f.data);
	}
	return order;
}

START_TEST(fifo_vs_lifo)
{
	const std::vector<unsigned long> add = {0, 1, 2, 3, 4}, rev = {4, 3, 2, 1, 0};
	ck_assert(order_of<n64>(10) == add);
	ck_assert(order_of<n64_lifo>(10) == rev);
	ck_assert(order_of<n64>(1000) == add);	// through one cascade
	ck_assert(order_of<n64_lifo>(1000) == add);
	ck_assert(order_of<n64>(20000) == add);	// through two
	ck_assert(order_of<n64_lifo>(20000) == rev);
}
END_TEST

// FIFO across arrivals: a timer already in tv1 runs before one of the same
// expiry that a later cascade brings down.
START_TEST(fifo_direct_before_cascaded)
{
	harness<n64> h(0);
	h.arm(300);	// tv2, comes to tv1 at 256
	h.run_to(100);
	h.arm(300);	// 200 ahead: straight into tv1
	h.run_to(300);
	ck_assert(g_log.fired == (std::vector<fire_rec>{{1, 300}, {0, 300}}));
}
END_TEST

// ---- callbacks ----------------------------------------------------------------

START_TEST(callback_rearms_itself)
{
	harness<n64> h(1000);
	auto *t = h.arm(1010);
	g_log.action = [&](unsigned long) {
		if (g_log.fired.size() < 5)
			ck_assert_int_eq(mod_timer(h.base, t, g_log.current + 10), 0);
	};
	h.run_to(2000);
	ck_assert(g_log.fired ==
		  (std::vector<fire_rec>{{0, 1010}, {0, 1020}, {0, 1030}, {0, 1040}, {0, 1050}}));
	ck_assert(!timer_pending(t));
	CK_WHEEL(h.base);
}
END_TEST

// Timers added from a callback at the current jiffy or before run at the
// next processed jiffy, in add order, together with one due then.
START_TEST(callback_adds_timers)
{
	harness<n64> h(1000);
	h.arm(1100);
	g_log.action = [&](unsigned long data) {
		if (data != 0)
			return;
		h.arm(1100);	// now: past once the jiffy is being run
		h.arm(1101);	// the next jiffy
		h.arm(1050);	// well in the past
		h.arm(1100 + 256);
		ck_assert_ptr_eq(h.base.running_timer, h.timers[0].get());
	};
	h.run_to(1100);
	ck_assert_uint_eq(g_log.fired.size(), 1);
	CK_WHEEL(h.base);
	h.run_to(1101);
	ck_assert(g_log.fired == (std::vector<fire_rec>{{0, 1100}, {1, 1101}, {2, 1101}, {3, 1101}}));
	h.run_to(2000);
	ck_assert(g_log.fired.back() == (fire_rec{4, 1356}));
	ck_assert_uint_eq(h.base.active_timers, 0);
	CK_WHEEL(h.base);
}
END_TEST

// A timer on the work list deleted by an earlier callback does not run.
START_TEST(callback_deletes_work_list_timer)
{
	harness<n64> h(1000);
	auto *a = h.arm(1200);
	auto *b = h.arm(1200);
	h.arm(1200);
	g_log.action = [&](unsigned long data) {
		if (data == 0) {
			ck_assert(timer_pending(b));
			ck_assert_int_eq(del_timer(b), 1);
			ck_assert_int_eq(del_timer(b), 0);
			ck_assert_int_eq(del_timer(a), 0);	// running, not pending
		}
	};
	h.run_to(1300);
	ck_assert(g_log.fired == (std::vector<fire_rec>{{0, 1200}, {2, 1200}}));
	ck_assert_uint_eq(h.base.active_timers, 0);
	CK_WHEEL(h.base);
}
END_TEST

// A timer on the work list re-armed by an earlier callback does not run
// now but at its new expiry; re-armed to exactly the expiry it has, it is
// left alone (mod_timer's early return) and so still runs now.
START_TEST(callback_modifies_work_list_timer)
{
	harness<n64> h(1000);
	auto *a = h.arm(1200);
	auto *b = h.arm(1200);
	auto *c = h.arm(1200);
	auto *d = h.arm(1200);
	h.arm(1200);
	g_log.action = [&](unsigned long data) {
		if (data != 0)
			return;
		ck_assert_int_eq(mod_timer(h.base, b, 1300), 1);
		ck_assert_int_eq(mod_timer(h.base, c, 1200), 1);	// no-op
		ck_assert_int_eq(mod_timer_pending(h.base, d, 1201), 1);
		ck_assert_int_eq(mod_timer_pending(h.base, a, 1250), 0);	// running
	};
	h.run_to(1200);
	ck_assert(g_log.fired == (std::vector<fire_rec>{{0, 1200}, {2, 1200}, {4, 1200}}));
	ck_assert_uint_eq(h.base.active_timers, 2);
	CK_WHEEL(h.base);
	h.run_to(1400);
	ck_assert(g_log.fired ==
		  (std::vector<fire_rec>{{0, 1200}, {2, 1200}, {4, 1200}, {3, 1201}, {1, 1300}}));
	ck_assert(!timer_pending(c));
	CK_WHEEL(h.base);
}
END_TEST

// Deferrable timers are not counted in active_timers and never set
// next_timer, but fire like any other.
START_TEST(deferrable_accounting)
{
	harness<n64> h(1000);
	auto *d = h.arm(1100, kernel::TIMER_DEFERRABLE);
	ck_assert_uint_eq(h.base.active_timers, 0);
	auto *t = h.arm(1200);
	ck_assert_uint_eq(h.base.active_timers, 1);
	// 3.10: an add only lowers next_timer; it is still the stale mark
	// (timer_jiffies) and the NOHZ query recomputes it, skipping d.
	ck_assert_uint_eq(h.base.next_timer, 1000);
	ck_assert_uint_eq(kernel::get_next_timer_interrupt(h.base, 1000), 1200);
	ck_assert_uint_eq(h.base.next_timer, 1200);
	CK_WHEEL(h.base);
	ck_assert_int_eq(del_timer(d), 1);
	ck_assert_uint_eq(h.base.active_timers, 1);
	mod_timer(h.base, d, 1150);
	h.run_to(1300);
	ck_assert(g_log.fired == (std::vector<fire_rec>{{0, 1150}, {1, 1200}}));
	ck_assert(!timer_pending(t));
	ck_assert_uint_eq(h.base.active_timers, 0);
	CK_WHEEL(h.base);
}
END_TEST

int main()
{
	Suite *s = suite_create("classic_api");
	TCase *tc = tcase_create("api");
	tcase_add_test(tc, mod_timer_and_del_timer_returns);
	tcase_add_test(tc, mod_timer_pending_only_acts_on_pending);
	tcase_add_test(tc, add_timer_applies_slack_add_timer_on_does_not);
	tcase_add_test(tc, try_to_del_timer_sync_outside_callbacks);
	tcase_add_test(tc, slack_explicit);
	tcase_add_test(tc, slack_default);
	tcase_add_test(tc, slack_from_global_jiffies);
	tcase_add_test(tc, slack_32_across_wrap);
	tcase_add_test(tc, slack_same_expiry_is_noop);
	tcase_add_test(tc, migration_to_local_base);
	tcase_add_test(tc, no_migration_while_running);
	tcase_add_test(tc, fifo_vs_lifo);
	tcase_add_test(tc, fifo_direct_before_cascaded);
	tcase_add_test(tc, callback_rearms_itself);
	tcase_add_test(tc, callback_adds_timers);
	tcase_add_test(tc, callback_deletes_work_list_timer);
	tcase_add_test(tc, callback_modifies_work_list_timer);
	tcase_add_test(tc, deferrable_accounting);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
