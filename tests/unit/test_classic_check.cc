// wheel_check() itself: corrupt a healthy wheel on purpose, one way at a
// time, and assert the checker names the right fault (and where). A checker
// that passes everything would let every other test pass too.
#include "tests/support/classic_fixture.h"

#include <cstdint>

using namespace ctest;
using kernel::wheel_fault;

namespace {

// A wheel with a timer on each level; timer_jiffies 0x12345678.
struct corrupt_me : harness<n64> {
	timer_t *t1, *t1b, *t2, *t3, *t5;
	corrupt_me() : harness<n64>(0x12345678)
	{
		t1 = arm(0x12345678 + 10);	// tv1 slot 0x82
		t1b = arm(0x12345678 + 10);
		t2 = arm(0x12345678 + 1000);	// tv2
		t3 = arm(0x12345678 + 100000);	// tv3
		t5 = arm(0x12345678 + (1ull << 27));	// tv5
		CK_WHEEL(base);
	}
	// Unlink a timer and link it at the tail of another slot.
	void move(timer_t *t, unsigned level, unsigned slot)
	{
		kernel::__list_del(t->entry.prev, t->entry.next);
		kernel::list_add_tail(&t->entry, base.tv(level) + slot);
	}
	kernel::wheel_check_result<n64> check() const { return kernel::wheel_check(base); }
};

void expect(const kernel::wheel_check_result<n64> &r, wheel_fault f)
{
	ck_assert_msg(r.fault == f, "fault %s, want %s", fault_name(r.fault), fault_name(f));
	ck_assert(!r);
}

}  // namespace

START_TEST(healthy_counts)
{
	corrupt_me w;
	auto r = w.check();
	ck_assert(r);
	ck_assert_uint_eq(r.pending, 5);
}
END_TEST

START_TEST(tv1_wrong_slot)
{
	corrupt_me w;
	const unsigned right = w.at(w.t1).second;
	w.move(w.t1, 1, (right + 1) & 255);
	auto r = w.check();
	expect(r, wheel_fault::wrong_slot);
	ck_assert_ptr_eq(r.timer, w.t1);
	ck_assert_uint_eq(r.level, 1);
	ck_assert_uint_eq(r.slot, (right + 1) & 255);
}
END_TEST

// A tv1 slot that matches expires & 255 but the expiry is a lap ahead.
START_TEST(tv1_too_far_ahead)
{
	corrupt_me w;
	w.t1->expires += 256;
	auto r = w.check();
	expect(r, wheel_fault::wrong_slot);
	ck_assert_ptr_eq(r.timer, w.t1);
}
END_TEST

// An overdue timer belongs in the slot processed next, nowhere else.
START_TEST(tv1_overdue_elsewhere)
{
	corrupt_me w;
	w.t1->expires = 0x12345678 - 5;	// its slot 0x82 is not 0x78
	expect(w.check(), wheel_fault::wrong_slot);
}
END_TEST

// tv2 slot cascaded too early: the expiry lies beyond the slot's span.
START_TEST(tv2_slot_too_early)
{
	corrupt_me w;
	const unsigned right = w.at(w.t2).second;
	w.move(w.t2, 2, (right - 1) & 63);
	auto r = w.check();
	expect(r, wheel_fault::wrong_slot);
	ck_assert_ptr_eq(r.timer, w.t2);
	ck_assert_uint_eq(r.level, 2);
}
END_TEST

// tv2 slot cascaded after the expiry: the timer would be passed over. (The
// checker calls this would_fire_late: "its slot is run before it expires"
// does not describe it -- it would fire late.)
START_TEST(tv2_slot_too_late)
{
	corrupt_me w;
	const unsigned right = w.at(w.t2).second;
	w.move(w.t2, 2, (right + 1) & 63);
	auto r = w.check();
	expect(r, wheel_fault::would_fire_late);
	ck_assert_ptr_eq(r.timer, w.t2);
}
END_TEST

START_TEST(tv3_wrong_level)
{
	corrupt_me w;
	// In tv4 the slot of an expiry 100000 ahead is the current one, which
	// cascades 2^26 jiffies from now: far too late.
	w.move(w.t3, 4, (0x12345678 + 100000) >> 20 & 63);
	expect(w.check(), wheel_fault::would_fire_late);
}
END_TEST

START_TEST(broken_next_link)
{
	corrupt_me w;
	w.t1b->entry.prev = &w.t2->entry;	// t1b follows t1 in the slot
	auto r = w.check();
	expect(r, wheel_fault::broken_list);
	ck_assert_uint_eq(r.level, 1);
}
END_TEST

START_TEST(broken_head_link)
{
	corrupt_me w;
	const auto [level, slot] = w.at(w.t3);
	w.base.tv(level)[slot].prev = &w.base.tv(level)[slot];	// head thinks it is empty
	auto r = w.check();
	expect(r, wheel_fault::broken_list);
	ck_assert_uint_eq(r.level, level);
	ck_assert_uint_eq(r.slot, slot);
}
END_TEST

START_TEST(foreign_timer)
{
	corrupt_me w;
	kernel::tvec_base<n64> other;
	kernel::init_timer_base(other, &w.jiffies, 1, 0x12345678);
	w.t5->base = &other;
	auto r = w.check();
	expect(r, wheel_fault::foreign_timer);
	ck_assert_ptr_eq(r.timer, w.t5);
}
END_TEST

START_TEST(active_count)
{
	corrupt_me w;
	w.base.active_timers++;
	expect(w.check(), wheel_fault::active_count);
	w.base.active_timers -= 2;
	expect(w.check(), wheel_fault::active_count);
	w.base.active_timers++;
	ck_assert(w.check());
	// A deferrable timer must not be counted.
	w.t3->flags |= kernel::TIMER_DEFERRABLE;
	expect(w.check(), wheel_fault::active_count);
}
END_TEST

START_TEST(next_timer_late)
{
	corrupt_me w;
	// 3.10 leaves the cache stale on adds to a fresh base; the NOHZ query
	// recomputes it.
	ck_assert_uint_eq(w.base.next_timer, w.base.timer_jiffies);
	ck_assert_uint_eq(kernel::get_next_timer_interrupt(w.base, w.base.timer_jiffies), w.t1->expires);
	ck_assert_uint_eq(w.base.next_timer, w.t1->expires);
	w.base.next_timer = w.t1->expires + 1;
	expect(w.check(), wheel_fault::next_timer_late);
	// Stale (not after timer_jiffies) is fine: recomputed lazily.
	w.base.next_timer = w.base.timer_jiffies;
	ck_assert(w.check());
	// Earlier than the earliest is fine too (the cache only lowers).
	w.base.next_timer = w.t1->expires - 1;
	ck_assert(w.check());
}
END_TEST

int main()
{
	Suite *s = suite_create("classic_check");
	TCase *tc = tcase_create("corruptions");
	tcase_add_test(tc, healthy_counts);
	tcase_add_test(tc, tv1_wrong_slot);
	tcase_add_test(tc, tv1_too_far_ahead);
	tcase_add_test(tc, tv1_overdue_elsewhere);
	tcase_add_test(tc, tv2_slot_too_early);
	tcase_add_test(tc, tv2_slot_too_late);
	tcase_add_test(tc, tv3_wrong_level);
	tcase_add_test(tc, broken_next_link);
	tcase_add_test(tc, broken_head_link);
	tcase_add_test(tc, foreign_timer);
	tcase_add_test(tc, active_count);
	tcase_add_test(tc, next_timer_late);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
