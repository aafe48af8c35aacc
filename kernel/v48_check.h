// v48::wheel_check(): the non-cascading wheel's invariants, for tests to
// call after any operation (after William Ahern's timeouts_check()).
//
// - Every bucket is a well-formed hlist whose timers point back at this
//   base and carry the bucket's index; its pending bit is set exactly when
//   it is not empty.
// - Each timer sits in the bucket its expiry implies: the bucket runs (is
//   next collected, counting from clk) at the expiry rounded up to the
//   level's granularity. Two exceptions, both the kernel's: a timer armed
//   already expired sits in the bucket collected next, and one beyond the
//   cutoff sits in the last level at the wheel's capacity (so it runs
//   early). So no timer runs early, and none is passed over.
// - Unless marked for recalculation, next_expiry is no later than the
//   earliest bucket; timers_pending is set when a timer is.
#pragma once

#include "kernel/v48_wheel.h"

namespace kernel::v48 {

enum class wheel_fault {
	none,
	broken_list,		// pprev/next links are not consistent
	foreign_timer,		// timer->base or timer->idx do not name this bucket
	bitmap,			// a pending bit disagrees with its bucket
	wrong_bucket,		// the bucket does not run at the rounded expiry
	next_expiry_late,	// next_expiry is after the earliest bucket
};

template <class Config>
struct wheel_check_result {
	wheel_fault fault = wheel_fault::none;
	const timer_list<Config> *timer = nullptr;
	unsigned idx = 0;
	unsigned long pending = 0;	// timers found
	explicit operator bool() const { return fault == wheel_fault::none; }
};

// When bucket `idx` is next collected, counting from the base's clk: the
// first clock value at or after clk that is a multiple of the level's
// granularity and selects the bucket.
template <class Config>
typename Config::word bucket_runs_at(const timer_base<Config> &base, unsigned idx)
{
	using G = typename Config::geometry;
	using word = typename Config::word;
	const unsigned lvl = idx / G::LVL_SIZE, slot = idx % G::LVL_SIZE;
	const unsigned shift = G::LVL_SHIFT(lvl);
	const word gran_mask = (word{1} << shift) - 1;

	word unit = (base.clk >> shift) + ((base.clk & gran_mask) != 0);
	unit += (slot - unit) & G::LVL_MASK;
	return static_cast<word>(unit << shift);
}

template <class Config>
wheel_fault check_bucket_of(const timer_base<Config> &base, const timer_list<Config> *t, unsigned idx)
{
	using G = typename Config::geometry;
	using word = typename Config::word;
	const unsigned lvl = idx / G::LVL_SIZE;
	const word runs = bucket_runs_at(base, idx);
	const word rounded = static_cast<word>(((t->expires >> G::LVL_SHIFT(lvl)) + 1) << G::LVL_SHIFT(lvl));

	if (runs == rounded)
		return wheel_fault::none;
	// Armed already expired: in the bucket collected next.
	if (lvl == 0 && time_before(t->expires, runs) && runs == base.clk)
		return wheel_fault::none;
	// Beyond the cutoff: at the capacity of the wheel, before expires.
	if (lvl == G::LVL_DEPTH - 1 && time_after(t->expires, runs) &&
	    static_cast<word>(runs - base.clk) <= G::WHEEL_TIMEOUT_MAX + G::LVL_GRAN(lvl))
		return wheel_fault::none;
	return wheel_fault::wrong_bucket;
}

template <class Config>
wheel_check_result<Config> wheel_check(const timer_base<Config> &base)
{
	using G = typename Config::geometry;
	using word = typename Config::word;
	wheel_check_result<Config> r;
	bool have_min = false;
	word min_runs = 0;

	for (unsigned idx = 0; idx < G::WHEEL_SIZE; idx++) {
		const hlist_head *head = base.vectors + idx;
		hlist_node *const *pprev = &head->first;

		r.idx = idx;
		if (test_bit(idx, base.pending_map) == hlist_empty(head)) {
			r.fault = wheel_fault::bitmap;
			return r;
		}
		for (const hlist_node *n = head->first; n; pprev = &n->next, n = n->next) {
			if (n->pprev != pprev) {
				r.fault = wheel_fault::broken_list;
				return r;
			}
			const timer_list<Config> *t = timer_of<Config>(const_cast<hlist_node *>(n));
			r.timer = t;
			if (t->base != &base || t->idx != idx) {
				r.fault = wheel_fault::foreign_timer;
				return r;
			}
			r.fault = check_bucket_of(base, t, idx);
			if (r.fault != wheel_fault::none)
				return r;
			r.pending++;
		}
		if (!hlist_empty(head)) {
			word runs = bucket_runs_at(base, idx);
			if (!have_min || time_before(runs, min_runs))
				min_runs = runs;
			have_min = true;
		}
	}
	r.timer = nullptr;
	r.idx = 0;
	if (!base.next_expiry_recalc && have_min &&
	    (time_after(base.next_expiry, min_runs) || !base.timers_pending))
		r.fault = wheel_fault::next_expiry_late;
	return r;
}

// The earliest bucket by brute force over every bucket: what
// timer_recalc_next_expiry() must find.
template <class Config>
typename Config::word brute_next_expiry(const timer_base<Config> &base)
{
	using G = typename Config::geometry;
	using word = typename Config::word;
	word next = base.clk + static_cast<word>(NEXT_TIMER_MAX_DELTA);

	for (unsigned idx = 0; idx < G::WHEEL_SIZE; idx++) {
		if (hlist_empty(base.vectors + idx))
			continue;
		word runs = bucket_runs_at(base, idx);
		if (time_before(runs, next))
			next = runs;
	}
	return next;
}

}  // namespace kernel::v48
