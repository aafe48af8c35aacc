// wheel_check(): the classic wheel's invariants, for tests to call after any
// operation (after William Ahern's timeouts_check()).
//
// - Every slot is a well-formed circular list, and every timer in it points
//   back at this base and names this slot: so every pending timer sits in
//   exactly one slot.
// - A tv1 timer sits at `expires & TVR_MASK` and expires within TVR_SIZE
//   jiffies, or is overdue and sits in the slot processed next.
// - A tv2..tv4 timer expires within the span its slot covers at that slot's
//   next cascade; a tv5 timer expires no earlier than its slot's next
//   cascade (clamped timers may expire much later). So no timer can fire
//   early, and none can be passed over.
// - active_timers counts the non-deferrable timers, and next_timer is no
//   later than the earliest of them (or stale: not after timer_jiffies).
#pragma once

#include "kernel/classic_wheel.h"

namespace kernel {

enum class wheel_fault {
	none,
	broken_list,		// a slot's links are not a consistent circle
	foreign_timer,		// timer->base is not this base, or it is not pending
	wrong_slot,		// not the slot its expiry and timer_jiffies imply
	would_fire_late,	// its slot is cascaded only after it expires
	active_count,		// active_timers differs from the count
	next_timer_late,	// next_timer is after a pending non-deferrable expiry
};

template <class Config>
struct wheel_check_result {
	wheel_fault fault = wheel_fault::none;
	const timer_list<Config> *timer = nullptr;
	unsigned level = 0;
	unsigned slot = 0;
	unsigned long pending = 0;	// timers found, deferrable included
	explicit operator bool() const { return fault == wheel_fault::none; }
};

// The first jiffy >= timer_jiffies at which slot `slot` of `level` (>= 2)
// is cascaded: the next multiple of the level's width whose index is `slot`.
template <class Config>
typename Config::word next_cascade_of(const tvec_base<Config> &base, unsigned level, unsigned slot)
{
	using base_t = tvec_base<Config>;
	using word = typename Config::word;
	const unsigned shift = base_t::shift_of(level);
	const word width_mask = (word{1} << shift) - 1;

	word unit = (base.timer_jiffies >> shift) + ((base.timer_jiffies & width_mask) != 0);
	unit += (slot - unit) & base_t::G::TVN_MASK;
	return static_cast<word>(unit << shift);
}

template <class Config>
wheel_fault check_slot_of(const tvec_base<Config> &base, const timer_list<Config> *t,
			  unsigned level, unsigned slot)
{
	using base_t = tvec_base<Config>;
	using G = typename base_t::G;
	using word = typename Config::word;
	const word tj = base.timer_jiffies;

	if (level == 1) {
		if (time_before(t->expires, tj))
			return slot == (tj & G::TVR_MASK) ? wheel_fault::none : wheel_fault::wrong_slot;
		if (static_cast<word>(t->expires - tj) >= G::TVR_SIZE)
			return wheel_fault::wrong_slot;
		return (t->expires & G::TVR_MASK) == slot ? wheel_fault::none : wheel_fault::wrong_slot;
	}

	const word cascade_at = next_cascade_of(base, level, slot);
	const signed_word<word> ahead =
		static_cast<signed_word<word>>(static_cast<word>(t->expires - cascade_at));
	if (ahead < 0)
		return wheel_fault::would_fire_late;
	if (level < G::LEVELS && static_cast<word>(ahead) >> base_t::shift_of(level))
		return wheel_fault::wrong_slot;
	return wheel_fault::none;
}

template <class Config>
wheel_check_result<Config> wheel_check(const tvec_base<Config> &base)
{
	using base_t = tvec_base<Config>;
	using word = typename Config::word;
	wheel_check_result<Config> r;
	unsigned long active = 0;
	bool have_min = false;
	bool displaced = false;
	word min_expires = 0;

	for (unsigned level = 1; level <= base_t::G::LEVELS; level++) {
		for (unsigned slot = 0; slot < base_t::slots_of(level); slot++) {
			const list_head *head = base.tv(level) + slot;
			const list_head *prev = head;

			r.level = level;
			r.slot = slot;
			for (const list_head *pos = head->next; pos != head; prev = pos, pos = pos->next) {
				if (!pos || pos->prev != prev) {
					r.fault = wheel_fault::broken_list;
					return r;
				}
				const timer_list<Config> *t = timer_of<Config>(const_cast<list_head *>(pos));
				r.timer = t;
				if (t->base != &base || !timer_pending(t)) {
					r.fault = wheel_fault::foreign_timer;
					return r;
				}
				r.fault = check_slot_of(base, t, level, slot);
				if (r.fault == wheel_fault::none && t->slot != base_t::first_slot_of(level) + slot)
					r.fault = wheel_fault::wrong_slot;	// not where it says it is
				if (r.fault != wheel_fault::none)
					return r;
				r.pending++;
				if (t->flags & TIMER_DEFERRABLE)
					continue;
				active++;
				// Clamped beyond MAX_TVAL: expires lies past its slot's span.
				if (level == base_t::G::LEVELS &&
				    static_cast<word>(t->expires - next_cascade_of(base, level, slot)) >>
					    base_t::shift_of(level))
					displaced = true;
				if (!have_min || time_before(t->expires, min_expires))
					min_expires = t->expires;
				have_min = true;
			}
			if (head->prev != prev) {
				r.fault = wheel_fault::broken_list;
				return r;
			}
		}
	}
	r.timer = nullptr;
	r.level = r.slot = 0;
	if (active != base.active_timers) {
		r.fault = wheel_fault::active_count;
		return r;
	}
	// next_timer is compared wrap-safely at each add, which is only an
	// order while expiries lie within half the word of each other: a
	// 32-bit kernel with a stale next_timer and a timeout near 2^31 really
	// does cache a later value. Check it where the order is meaningful.
	// Nor is it a bound while a clamped timer sits displaced in tv5 (64-bit
	// or BASE_SMALL): __next_timer_interrupt() stops at the first tv5 slot
	// holding a timer and returns that slot's minimum or the cap, which can
	// be later than a timer in a slot scanned after it; 3.10 caches that.
	const word quarter = word{1} << (sizeof(word) * 8 - 2);
	if (have_min && !displaced && !time_before_eq(base.next_timer, base.timer_jiffies) &&
	    static_cast<word>(base.next_timer - base.timer_jiffies) < quarter &&
	    static_cast<word>(min_expires - base.timer_jiffies + quarter) < 2 * quarter &&
	    time_after(base.next_timer, min_expires))
		r.fault = wheel_fault::next_timer_late;
	return r;
}

}  // namespace kernel
