// The hrtimer model of kernel/hrtimer.h against the rules of
// kernel/time/hrtimer.c (6.x), each on a hand-worked case:
//
// - hrtimer_reprogram(): a first timer programs the device; a later one
//   (first of another base) is skipped as not earlier; an earlier one
//   reprograms; a start inside the interrupt is left to the interrupt's
//   end; a start on another CPU's base never touches either device, and a
//   remote target where the timer would be first brings it back here.
// - removal: only the next_timer forces a re-evaluation; skip_equal spares
//   the device when the first expiry stays; the last timer stops the
//   device; re-arming the next_timer programs once (not twice); a cancel
//   from another CPU leaves a stale expires_next whose interrupt runs
//   nothing.
// - softexpires: a timer runs once now >= softexpires inside an interrupt
//   another timer caused, in tree (expires) order; the run stops at the
//   first timer not yet soft-expired, even when one behind it is.
// - periodic restart (RESTART re-enqueues), soft vs hard (the interrupt
//   raises HRTIMER_SOFTIRQ, the softirq runs them and programs the next soft
//   expiry), the retry loop and the hang rule with its 100 ms cap, the
//   device's max delta, forced minimum delta, generations, clock offsets,
//   low resolution mode, try_to_cancel's returns.
// - hrtimer_check() catches each kind of corruption.
#include <cstdint>
#include <vector>

#include "tests/support/hrtimer_fixture.h"

using namespace hrtest;

namespace {

constexpr ktime_t US = NSEC_PER_USEC;
constexpr ktime_t MS = NSEC_PER_MSEC;

}  // namespace

START_TEST(first_timer_programs_device)
{
	fixture f;
	hrtimer_cpu_base *c = f.cpu(0);
	ttimer &a = f.add(1);
	f.start(a, 1000 * US);
	ck_assert_int_eq(c->dev.next_event, 1000 * US);
	ck_assert_int_eq(c->dev.fires_at, 1000 * US);
	ck_assert_uint_eq(c->dev.programs, 1);
	ck_assert_int_eq(c->expires_next, 1000 * US);
	ck_assert_ptr_eq(c->next_timer, &a.timer);
}
END_TEST

// The first timer of the REALTIME base, later than expires_next: skipped.
START_TEST(later_first_of_base_is_skipped)
{
	fixture f;
	hrtimer_cpu_base *c = f.cpu(0);
	ttimer &a = f.add(1);
	ttimer &b = f.add(2, 0, HR_CLOCK_REALTIME);
	ttimer &d = f.add(3);
	f.start(a, 1000 * US);
	f.start(b, 2000 * US);
	ck_assert_uint_eq(c->dev.programs, 1);
	ck_assert_uint_eq(c->costs.skips[SKIP_NOT_EARLIER], 1);
	// Not the first of its base: no reprogram is even considered.
	f.start(d, 3000 * US);
	ck_assert_uint_eq(c->costs.skips[SKIP_NOT_EARLIER], 1);
	ck_assert_uint_eq(c->costs.reprograms, 1);
	ck_assert_int_eq(c->dev.next_event, 1000 * US);
}
END_TEST

START_TEST(earlier_timer_reprograms)
{
	fixture f;
	hrtimer_cpu_base *c = f.cpu(0);
	ttimer &a = f.add(1), &b = f.add(2);
	f.start(a, 1000 * US);
	f.start(b, 500 * US);
	ck_assert_uint_eq(c->dev.programs, 2);
	ck_assert_int_eq(c->dev.next_event, 500 * US);
	ck_assert_ptr_eq(c->next_timer, &b.timer);
}
END_TEST

START_TEST(cancel_forces_only_for_next_timer)
{
	fixture f;
	hrtimer_cpu_base *c = f.cpu(0);
	ttimer &a = f.add(1), &b = f.add(2), &d = f.add(3);
	f.start(a, 1000 * US);
	f.start(b, 2000 * US);
	f.start(d, 500 * US);
	const std::uint64_t programs = c->dev.programs;
	ck_assert_int_eq(f.cancel(b), 1);	// not next_timer
	ck_assert_uint_eq(c->costs.force_reprograms, 0);
	ck_assert_uint_eq(c->dev.programs, programs);
	ck_assert_int_eq(f.cancel(d), 1);	// next_timer: re-evaluate
	ck_assert_uint_eq(c->costs.force_reprograms, 1);
	ck_assert_uint_eq(c->dev.programs, programs + 1);
	ck_assert_int_eq(c->dev.next_event, 1000 * US);
	ck_assert_int_eq(f.cancel(a), 1);	// the last: the device stops
	ck_assert(c->dev.stopped);
	ck_assert_uint_eq(c->dev.stops, 1);
	ck_assert_int_eq(c->expires_next, KTIME_MAX);
	ck_assert_int_eq(f.cancel(a), 0);
}
END_TEST

// Two timers expire together; removing the one the device waits for
// leaves the first expiry where it was: skip_equal, no programming.
START_TEST(skip_equal)
{
	fixture f;
	hrtimer_cpu_base *c = f.cpu(0);
	ttimer &a = f.add(1), &b = f.add(2, 0, HR_CLOCK_BOOTTIME);
	f.start(a, 1000 * US);
	f.start(b, 1000 * US);
	ck_assert_ptr_eq(c->next_timer, &a.timer);
	const std::uint64_t programs = c->dev.programs;
	f.cancel(a);
	ck_assert_uint_eq(c->costs.skips[SKIP_EQUAL], 1);
	ck_assert_uint_eq(c->dev.programs, programs);
	ck_assert_ptr_eq(c->next_timer, &b.timer);
}
END_TEST

// Re-arming the timer the device waits for: not reprogrammed at the removal
// and again at the enqueue, but once, forced, after it (force_local).
START_TEST(rearm_next_timer_programs_once)
{
	fixture f;
	hrtimer_cpu_base *c = f.cpu(0);
	ttimer &a = f.add(1), &b = f.add(2);
	f.start(a, 1000 * US);
	f.start(b, 2000 * US);
	const std::uint64_t programs = c->dev.programs;
	f.start(a, 3000 * US);
	ck_assert_uint_eq(c->dev.programs, programs + 1);
	ck_assert_uint_eq(c->costs.force_reprograms, 1);
	ck_assert_int_eq(c->dev.next_event, 2000 * US);
	ck_assert_ptr_eq(c->next_timer, &b.timer);
	// Re-armed earlier again: one more programming, for it.
	f.start(a, 1500 * US);
	ck_assert_uint_eq(c->dev.programs, programs + 2);
	ck_assert_int_eq(c->dev.next_event, 1500 * US);
}
END_TEST

// A callback starts an earlier timer: the interrupt re-evaluates at its end.
START_TEST(start_inside_interrupt_is_deferred)
{
	fixture f;
	hrtimer_cpu_base *c = f.cpu(0);
	ttimer &a = f.add(1), &e = f.add(2), &late = f.add(3);
	f.start(late, 9000 * US);
	f.start(a, 1000 * US);
	a.action = [&](ttimer &) { hrtimer_start(f.cpu(0), &e.timer, 1500 * US, HRTIMER_MODE_ABS); };
	const std::uint64_t programs = c->dev.programs;
	f.advance_to(1000 * US);
	ck_assert_uint_eq(c->costs.skips[SKIP_IN_HRTIRQ], 1);
	ck_assert_uint_eq(c->dev.programs, programs + 1);	// once, at the interrupt's end
	ck_assert_int_eq(c->dev.next_event, 1500 * US);
	f.advance_to(2000 * US);
	ck_assert_uint_eq(f.runs.size(), 2);
	ck_assert_int_eq(f.runs[1].id, 2);
}
END_TEST

START_TEST(remote_start_and_cancel)
{
	fixture f;
	hrtimer_cpu_base *c0 = f.cpu(0), *c1 = f.cpu(1);
	ttimer &r = f.add(1, 1);
	f.start(r, 1000 * US, 0, HRTIMER_MODE_ABS, 1);	// CPU 1's own
	ck_assert_int_eq(c1->expires_next, 1000 * US);

	// From CPU 0 onto CPU 1, later than its first: queued there, the first
	// of its base, and no device is touched (CPU 0 cannot program CPU 1's).
	ttimer &x = f.add(2, 0, HR_CLOCK_TAI);
	f.start(x, 5000 * US, 0, HRTIMER_MODE_ABS, 0, c1);
	ck_assert_ptr_eq(x.timer.base->cpu_base, c1);
	ck_assert_uint_eq(c0->costs.skips[SKIP_REMOTE], 1);
	ck_assert_uint_eq(c0->dev.programs, 0);
	ck_assert_uint_eq(c1->dev.programs, 1);

	// Earlier than CPU 1's first: not a suitable target, it stays here.
	ttimer &y = f.add(3);
	f.start(y, 500 * US, 0, HRTIMER_MODE_ABS, 0, c1);
	ck_assert_ptr_eq(y.timer.base->cpu_base, c0);
	ck_assert_int_eq(c0->dev.next_event, 500 * US);

	// PINNED ignores the target.
	ttimer &p = f.add(4);
	f.start(p, 7000 * US, 0, HRTIMER_MODE_ABS | HRTIMER_MODE_PINNED, 0, c1);
	ck_assert_ptr_eq(p.timer.base->cpu_base, c0);

	// Cancelling CPU 1's next_timer from CPU 0: no re-evaluation there.
	ck_assert_int_eq(f.cancel(r, 0), 1);
	ck_assert_int_eq(c1->expires_next, 1000 * US);
	ck_assert_int_eq(c1->dev.next_event, 1000 * US);
	ck_assert_uint_eq(c1->costs.force_reprograms, 0);
	// Its interrupt comes anyway, runs nothing, and reprograms for x.
	f.advance_to(1000 * US);
	ck_assert_uint_eq(c1->nr_events, 1);
	ck_assert_uint_eq(c1->costs.expiries_hard, 0);
	ck_assert_int_eq(c1->dev.next_event, 5000 * US);
}
END_TEST

// A [100, 300] us timer and a 150 us one: the device is programmed for 150
// (the earliest expires) and that interrupt runs both, in expires order.
START_TEST(softexpires_range_runs_early)
{
	fixture f;
	hrtimer_cpu_base *c = f.cpu(0);
	ttimer &a = f.add(1), &b = f.add(2);
	f.start(a, 100 * US, 200 * US);
	f.start(b, 150 * US);
	ck_assert_int_eq(hrtimer_get_softexpires(&a.timer), 100 * US);
	ck_assert_int_eq(hrtimer_get_expires(&a.timer), 300 * US);
	ck_assert_int_eq(c->dev.next_event, 150 * US);
	f.advance_to(149 * US);
	ck_assert_uint_eq(f.runs.size(), 0);	// nothing woke for a's softexpires
	f.advance_to(1000 * US);
	ck_assert_uint_eq(c->nr_events, 1);
	ck_assert_uint_eq(f.runs.size(), 2);
	ck_assert_int_eq(f.runs[0].id, 2);
	ck_assert_int_eq(f.runs[1].id, 1);
	ck_assert_int_eq(f.runs[1].now, 150 * US);
	ck_assert(c->dev.stopped);
}
END_TEST

// The run stops at the first timer whose softexpires has not passed: c
// ([100, 400]) waits behind d ([300, 300]) in the 200 us interrupt.
START_TEST(run_stops_at_first_not_due)
{
	fixture f;
	hrtimer_cpu_base *cb = f.cpu(0);
	ttimer &c = f.add(1), &d = f.add(2), &e = f.add(3);
	f.start(c, 100 * US, 300 * US);
	f.start(d, 300 * US);
	f.start(e, 200 * US);
	f.advance_to(200 * US);
	ck_assert_uint_eq(f.runs.size(), 1);
	ck_assert_int_eq(f.runs[0].id, 3);
	ck_assert(hrtimer_is_queued(&c.timer));
	ck_assert_int_eq(cb->dev.next_event, 300 * US);
	f.advance_to(300 * US);
	ck_assert_uint_eq(f.runs.size(), 3);
	ck_assert_int_eq(f.runs[1].id, 2);
	ck_assert_int_eq(f.runs[2].id, 1);
	ck_assert_uint_eq(f.runs[2].interrupt, 2);
	ck_assert_uint_eq(cb->nr_events, 2);
}
END_TEST

START_TEST(periodic_restart)
{
	fixture f;
	hrtimer_cpu_base *c = f.cpu(0);
	ttimer &p = f.add(1);
	p.period = 1000 * US;
	f.start(p, 1000 * US);
	f.advance_to(10500 * US);
	ck_assert_uint_eq(f.runs.size(), 10);
	for (unsigned i = 0; i < 10; i++)
		ck_assert_int_eq(f.runs[i].now, static_cast<ktime_t>(i + 1) * 1000 * US);
	ck_assert_uint_eq(c->costs.restarts, 10);
	ck_assert_uint_eq(c->nr_events, 10);
	ck_assert_int_eq(c->dev.next_event, 11000 * US);
	ck_assert(hrtimer_is_queued(&p.timer));
	// NORESTART ends it.
	p.stop = true;
	f.advance_to(20000 * US);
	ck_assert_uint_eq(f.runs.size(), 11);
	ck_assert(!hrtimer_is_queued(&p.timer));
}
END_TEST

// A due soft timer raises HRTIMER_SOFTIRQ from the interrupt, which does
// not run it; the softirq does, and programs the next soft expiry.
START_TEST(soft_timers_run_in_softirq)
{
	fixture f;
	hrtimer_cpu_base *c = f.cpu(0);
	ttimer &s = f.add(1, 0, HR_CLOCK_MONOTONIC, HRTIMER_MODE_ABS | HRTIMER_MODE_SOFT);
	ttimer &s2 = f.add(2, 0, HR_CLOCK_MONOTONIC, HRTIMER_MODE_ABS | HRTIMER_MODE_SOFT);
	ttimer &h = f.add(3);
	ck_assert(s.timer.is_soft);
	ck_assert_uint_eq(s.timer.base->index, HRTIMER_BASE_MONOTONIC_SOFT);
	f.start(s, 1000 * US);
	f.start(h, 2000 * US);
	f.start(s2, 3000 * US);
	ck_assert_int_eq(c->softirq_expires_next, 1000 * US);
	ck_assert_int_eq(c->dev.next_event, 1000 * US);
	ck_assert_ptr_eq(c->next_timer, &s.timer);

	// The interrupt alone: raises, runs no soft timer.
	c->machine->now = 1000 * US;
	hrtimer_interrupt(c);
	ck_assert(c->softirq_pending);
	ck_assert(c->softirq_activated);
	ck_assert_uint_eq(c->costs.softirqs_raised, 1);
	ck_assert_uint_eq(f.runs.size(), 0);
	ck_assert_int_eq(c->dev.next_event, 2000 * US);	// soft bases ignored meanwhile
	hrtimer_run_softirq(c);
	f.check_all();
	ck_assert_uint_eq(f.runs.size(), 1);
	ck_assert(f.runs[0].soft);
	ck_assert_uint_eq(f.runs[0].interrupt, 0);
	ck_assert_int_eq(c->softirq_expires_next, 3000 * US);
	ck_assert_int_eq(c->dev.next_event, 2000 * US);
	f.advance_to(5000 * US);
	ck_assert_uint_eq(f.runs.size(), 3);
	ck_assert_int_eq(f.runs[1].id, 3);
	ck_assert_int_eq(f.runs[2].id, 2);
	ck_assert_uint_eq(c->costs.expiries_soft, 2);
	ck_assert_uint_eq(c->costs.expiries_hard, 1);
}
END_TEST

// A 50 us periodic timer forwarded from its own expiry whose callback takes
// 100 us falls further behind with every pass: two retries, then the hang.
//   pass 1 at 1 ms: runs once (exp 1.05 ms, now 1.1 ms) -> programming refused
//   pass 2 at 1.1 ms: runs twice (exp 1.15 ms, now 1.3 ms) -> refused
//   pass 3 at 1.3 ms: runs 4 times (exp 1.35 ms, now 1.7 ms) -> hang
// The interrupt took 700 us: the device waits that long again.
START_TEST(retries_then_hang)
{
	fixture f;
	hrtimer_cpu_base *c = f.cpu(0);
	ttimer &p = f.add(1);
	p.period = 50 * US;
	p.cost = 100 * US;
	p.forward_from_expires = true;
	f.start(p, 1000 * US);
	f.check = false;	// the interrupt below runs outside advance_to
	c->machine->now = 1000 * US;
	hrtimer_interrupt(c);
	ck_assert_uint_eq(f.runs.size(), 7);
	ck_assert_uint_eq(c->nr_retries, 3);
	ck_assert_uint_eq(c->nr_hangs, 1);
	ck_assert(c->hang_detected);
	ck_assert_int_eq(c->machine->now, 1700 * US);
	ck_assert_int_eq(c->max_hang_time, 700 * US);
	ck_assert_int_eq(c->dev.next_event, 2400 * US);
	ck_assert_int_eq(c->expires_next, 1350 * US);
	ck_assert_uint_eq(c->dev.refused, 3);
	f.check = true;
	f.check_all();

	// Meanwhile an earlier start sets expires_next but not the device.
	ttimer &e = f.add(2);
	p.stop = true;
	c->machine->now = 1750 * US;
	f.start(e, 1800 * US);
	ck_assert_uint_eq(c->costs.skips[SKIP_HANG], 0);	// 1.8 ms is not before 1.35 ms
	ck_assert_int_eq(c->dev.next_event, 2400 * US);
	// The hang's interrupt runs what is due, and the hang is over.
	f.advance_to(2400 * US);
	ck_assert(!c->hang_detected);
	ck_assert_int_eq(f.runs.back().id, 2);
	ck_assert(c->dev.stopped);
}
END_TEST

// While a hang is sat out, __hrtimer_reprogram() leaves the device alone.
START_TEST(hang_blocks_reprogram)
{
	fixture f;
	hrtimer_cpu_base *c = f.cpu(0);
	ttimer &p = f.add(1), &e = f.add(2, 0, HR_CLOCK_REALTIME);
	p.period = 50 * US;
	p.cost = 100 * US;
	p.forward_from_expires = true;
	f.start(p, 1000 * US);
	c->machine->now = 1000 * US;
	f.check = false;
	hrtimer_interrupt(c);
	ck_assert(c->hang_detected);
	p.stop = true;
	// Cancel the periodic timer (next_timer): the re-evaluation does not
	// reach the device either.
	ck_assert_int_eq(hrtimer_try_to_cancel(c, &p.timer), 1);
	ck_assert_uint_eq(c->costs.skips[SKIP_HANG], 1);
	hrtimer_start(c, &e.timer, 1800 * US, HRTIMER_MODE_ABS);
	ck_assert_uint_eq(c->costs.skips[SKIP_HANG], 2);
	ck_assert_int_eq(c->expires_next, 1800 * US);
	ck_assert_int_eq(c->dev.next_event, 2400 * US);
}
END_TEST

// A callback of 60 ms, forwarded by 10 ms from its expiry: the hang's delay
// is capped at 100 ms.
START_TEST(hang_delay_capped)
{
	fixture f;
	hrtimer_cpu_base *c = f.cpu(0);
	ttimer &p = f.add(1);
	p.period = 10 * MS;
	p.cost = 60 * MS;
	p.forward_from_expires = true;
	f.start(p, 1 * MS);
	c->machine->now = 1 * MS;
	f.check = false;
	hrtimer_interrupt(c);
	ck_assert_uint_eq(c->nr_hangs, 1);
	ck_assert(c->max_hang_time > HANG_MAX_DELTA);
	ck_assert_int_eq(c->dev.next_event, c->machine->now + HANG_MAX_DELTA);
}
END_TEST

// 10 s ahead with a 4 s max delta: two early interrupts that run nothing.
START_TEST(device_max_delta)
{
	clock_event_device dev;
	dev.max_delta_ns = 4 * NSEC_PER_SEC;
	fixture f(1, hrtimer_generation::soft_bases, true, dev);
	hrtimer_cpu_base *c = f.cpu(0);
	ttimer &t = f.add(1);
	f.start(t, 10 * NSEC_PER_SEC);
	ck_assert_int_eq(c->dev.next_event, 10 * NSEC_PER_SEC);
	ck_assert_int_eq(c->dev.fires_at, 4 * NSEC_PER_SEC);
	f.advance_to(10 * NSEC_PER_SEC);
	ck_assert_uint_eq(c->nr_events, 3);
	ck_assert_uint_eq(f.runs.size(), 1);
	ck_assert_int_eq(f.runs[0].now, 10 * NSEC_PER_SEC);
}
END_TEST

// Started already expired: the device is forced to its minimum delta.
START_TEST(past_expiry_min_delta)
{
	fixture f;
	hrtimer_cpu_base *c = f.cpu(0);
	f.m.now = 5000 * US;
	ttimer &t = f.add(1);
	f.start(t, 1000 * US);
	ck_assert_uint_eq(c->dev.min_delta_programs, 1);
	ck_assert_int_eq(c->dev.fires_at, 5000 * US + c->dev.min_delta_ns);
	f.advance_to(6000 * US);
	ck_assert_uint_eq(f.runs.size(), 1);
	ck_assert_int_eq(f.runs[0].now, 5000 * US + c->dev.min_delta_ns);
}
END_TEST

START_TEST(generations)
{
	fixture old(1, hrtimer_generation::two_bases);
	hrtimer t;
	ck_assert(!hrtimer_setup(&t, nullptr, nullptr, HR_CLOCK_BOOTTIME, HRTIMER_MODE_ABS, old.cpu(0)));
	ck_assert_uint_eq(t.base->index, HRTIMER_BASE_MONOTONIC);
	ck_assert(!hrtimer_setup(&t, nullptr, nullptr, HR_CLOCK_MONOTONIC, HRTIMER_MODE_ABS | HRTIMER_MODE_SOFT,
				 old.cpu(0)));
	ck_assert(!t.is_soft);
	fixture mid(1, hrtimer_generation::four_bases);
	ck_assert(hrtimer_setup(&t, nullptr, nullptr, HR_CLOCK_TAI, HRTIMER_MODE_ABS, mid.cpu(0)));
	ck_assert(!hrtimer_setup(&t, nullptr, nullptr, HR_CLOCK_TAI, HRTIMER_MODE_ABS | HRTIMER_MODE_SOFT, mid.cpu(0)));
	ck_assert_uint_eq(t.base->index, HRTIMER_BASE_TAI);

	// Two timers due in one interrupt: the two-base kernels walk REALTIME
	// first (the array was indexed by clockid), later ones MONOTONIC.
	for (auto gen : {hrtimer_generation::two_bases, hrtimer_generation::four_bases}) {
		fixture f(1, gen);
		ttimer &mono = f.add(1), &real = f.add(2, 0, HR_CLOCK_REALTIME);
		f.start(mono, 1000 * US);
		f.start(real, 1000 * US);
		f.advance_to(1000 * US);
		ck_assert_uint_eq(f.runs.size(), 2);
		ck_assert_int_eq(f.runs[0].id, gen == hrtimer_generation::two_bases ? 2 : 1);
	}
}
END_TEST

// Expiries are in the timer's clock: a REALTIME timer at the epoch offset
// plus 5 ms is programmed for 5 ms of CLOCK_MONOTONIC; a relative REALTIME
// timer is a MONOTONIC one.
START_TEST(clock_offsets)
{
	fixture f;
	f.m.offs_real = 1700000000 * NSEC_PER_SEC;
	f.m.offs_boot = 3 * NSEC_PER_SEC;
	hrtimer_cpu_base *c = f.cpu(0);
	hrtimer_cpu_base_init(c, &f.m, 0, hrtimer_generation::soft_bases, true);
	ttimer &r = f.add(1, 0, HR_CLOCK_REALTIME);
	f.start(r, f.m.offs_real + 5 * MS);
	ck_assert_int_eq(c->dev.next_event, 5 * MS);
	ttimer &b = f.add(2, 0, HR_CLOCK_BOOTTIME, HRTIMER_MODE_REL);
	f.m.now = 1 * MS;
	f.start(b, 2 * MS, 0, HRTIMER_MODE_REL);
	ck_assert_int_eq(hrtimer_get_expires(&b.timer), 3 * NSEC_PER_SEC + 3 * MS);
	ck_assert_int_eq(c->dev.next_event, 3 * MS);
	ttimer &rel = f.add(3, 0, HR_CLOCK_REALTIME, HRTIMER_MODE_REL);
	ck_assert_uint_eq(rel.timer.base->index, HRTIMER_BASE_MONOTONIC);
	f.advance_to(10 * MS);
	ck_assert_uint_eq(f.runs.size(), 2);
	ck_assert_int_eq(f.runs[0].id, 2);
	ck_assert_int_eq(f.runs[1].now, 5 * MS);
}
END_TEST

// highres=off: the device is never programmed for hrtimers; the tick runs
// them through hrtimer_run_queues(), late by up to a jiffy.
START_TEST(low_resolution_from_tick)
{
	fixture f(1, hrtimer_generation::soft_bases, false);
	hrtimer_cpu_base *c = f.cpu(0);
	ttimer &t = f.add(1), &s = f.add(2, 0, HR_CLOCK_MONOTONIC, HRTIMER_MODE_ABS | HRTIMER_MODE_SOFT);
	f.start(t, 1500 * US);
	f.start(s, 1200 * US);
	ck_assert_uint_eq(c->dev.programs, 0);
	ck_assert(c->costs.skips[SKIP_LOWRES] >= 1);
	for (ktime_t tick = 0; tick <= 8 * MS; tick += 4 * MS) {
		f.m.now = tick;
		hrtimer_run_queues(c);
		if (c->softirq_pending)
			hrtimer_run_softirq(c);
		f.check_all();
	}
	ck_assert_uint_eq(f.runs.size(), 2);
	ck_assert_int_eq(f.runs[0].now, 4 * MS);
	ck_assert_uint_eq(c->costs.tick_runs, 3);
	ck_assert_uint_eq(c->dev.programs, 0);
	hrtimer_interrupt(c);	// not called in low resolution; harmless here
}
END_TEST

START_TEST(try_to_cancel_returns)
{
	fixture f;
	ttimer &t = f.add(1);
	ck_assert_int_eq(f.cancel(t), 0);
	f.start(t, 1000 * US);
	int inside = 2;
	t.action = [&](ttimer &self) { inside = hrtimer_try_to_cancel(f.cpu(0), &self.timer); };
	f.advance_to(1000 * US);
	ck_assert_int_eq(inside, -1);
	ck_assert_int_eq(f.cancel(t), 0);
	f.start(t, 2000 * US);
	ck_assert_int_eq(f.cancel(t), 1);
	ck_assert_int_eq(f.cancel(t), 0);
}
END_TEST

START_TEST(forward_overruns)
{
	fixture f;
	ttimer &t = f.add(1);
	t.timer.node.expires = t.timer.softexpires = 1000;
	ck_assert_uint_eq(hrtimer_forward(&t.timer, 999, 100), 0);
	ck_assert_uint_eq(hrtimer_forward(&t.timer, 1000, 100), 1);
	ck_assert_int_eq(hrtimer_get_expires(&t.timer), 1100);
	ck_assert_uint_eq(hrtimer_forward(&t.timer, 1450, 100), 4);	// 1200, 1300, 1400, 1500
	ck_assert_int_eq(hrtimer_get_expires(&t.timer), 1500);
	ck_assert_uint_eq(hrtimer_forward(&t.timer, 1700, 100), 3);	// exact: one more
	ck_assert_int_eq(hrtimer_get_expires(&t.timer), 1800);
	ck_assert_int_eq(hrtimer_get_softexpires(&t.timer), 1800);
}
END_TEST

// ---- the checker must catch what it claims to -------------------------------

namespace {

struct corrupt_me {
	fixture f;
	std::vector<ttimer *> t;
	corrupt_me()
	{
		for (int i = 0; i < 20; i++) {
			t.push_back(&f.add(i));
			f.start(*t.back(), (1000 + 37 * ((i * 7) % 20)) * US);
		}
	}
	hrtimer_cpu_base &c() { return *f.cpu(0); }
	void expect(hrtimer_fault want)
	{
		auto r = hrtimer_check(c());
		ck_assert_msg(r.fault == want, "fault %s, want %s", hrtimer_fault_name(r.fault),
			      hrtimer_fault_name(want));
	}
};

}  // namespace

START_TEST(checker_catches_corruption)
{
	{
		corrupt_me w;
		w.expect(hrtimer_fault::none);
		ck_assert_uint_eq(hrtimer_check(w.c()).queued, 20);
	}
	{
		corrupt_me w;
		w.c().clock_base[0].active.rb_root.root.node->colour = kernel::RB_RED;
		w.expect(hrtimer_fault::red_root);
	}
	{
		corrupt_me w;	// a black leaf turned red under a red parent, or a black height off
		kernel::rb_node *n = w.c().clock_base[0].active.rb_root.root.node;
		while (n->left)
			n = n->left;
		n->colour = n->colour == kernel::RB_RED ? kernel::RB_BLACK : kernel::RB_RED;
		auto r = hrtimer_check(w.c());
		ck_assert(r.fault == hrtimer_fault::black_height || r.fault == hrtimer_fault::red_red);
	}
	{
		corrupt_me w;
		w.t[5]->timer.node.expires = 1;	// out of place in the tree
		auto r = hrtimer_check(w.c());
		ck_assert(r.fault == hrtimer_fault::out_of_order);
	}
	{
		corrupt_me w;
		w.c().clock_base[0].active.rb_root.leftmost = w.c().clock_base[0].active.rb_root.root.node;
		w.expect(hrtimer_fault::stale_leftmost);
	}
	{
		corrupt_me w;
		w.t[3]->timer.state = HRTIMER_STATE_INACTIVE;
		w.expect(hrtimer_fault::bad_state);
	}
	{
		corrupt_me w;
		w.t[3]->timer.softexpires = hrtimer_get_expires(&w.t[3]->timer) + 1;
		w.expect(hrtimer_fault::bad_range);
	}
	{
		corrupt_me w;
		w.t[3]->timer.is_soft = true;
		w.expect(hrtimer_fault::wrong_kind);
	}
	{
		corrupt_me w;
		w.c().active_bases |= 1u << HRTIMER_BASE_TAI;
		w.expect(hrtimer_fault::active_bits);
	}
	{
		corrupt_me w;
		w.c().expires_next += 1;
		w.expect(hrtimer_fault::expires_next_late);
	}
	{
		corrupt_me w;
		w.c().dev.next_event -= 1;
		w.expect(hrtimer_fault::device_mismatch);
	}
	{
		corrupt_me w;
		kernel::rb_node *root = w.c().clock_base[0].active.rb_root.root.node;
		root->left->parent = root->right;
		w.expect(hrtimer_fault::broken_links);
	}
}
END_TEST

int main()
{
	Suite *s = suite_create("hrtimer_rules");
	TCase *tc = tcase_create("rules");
	tcase_add_test(tc, first_timer_programs_device);
	tcase_add_test(tc, later_first_of_base_is_skipped);
	tcase_add_test(tc, earlier_timer_reprograms);
	tcase_add_test(tc, cancel_forces_only_for_next_timer);
	tcase_add_test(tc, skip_equal);
	tcase_add_test(tc, rearm_next_timer_programs_once);
	tcase_add_test(tc, start_inside_interrupt_is_deferred);
	tcase_add_test(tc, remote_start_and_cancel);
	tcase_add_test(tc, softexpires_range_runs_early);
	tcase_add_test(tc, run_stops_at_first_not_due);
	tcase_add_test(tc, periodic_restart);
	tcase_add_test(tc, soft_timers_run_in_softirq);
	tcase_add_test(tc, retries_then_hang);
	tcase_add_test(tc, hang_blocks_reprogram);
	tcase_add_test(tc, hang_delay_capped);
	tcase_add_test(tc, device_max_delta);
	tcase_add_test(tc, past_expiry_min_delta);
	tcase_add_test(tc, generations);
	tcase_add_test(tc, clock_offsets);
	tcase_add_test(tc, low_resolution_from_tick);
	tcase_add_test(tc, try_to_cancel_returns);
	tcase_add_test(tc, forward_overruns);
	tcase_add_test(tc, checker_catches_corruption);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
