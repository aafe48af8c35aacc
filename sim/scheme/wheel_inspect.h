// How the kernel/ wheels answer wheel_inspection (sim/scheme/wheel_state.h):
// a base's levels, slots and timers, and where one timer sits, read off the
// kernel structures without changing them. The classic and v48 scheme
// adapters call these; the geometry comes from the wheels' own constants.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernel/classic_wheel.h"
#include "kernel/v48_wheel.h"
#include "sim/scheme/wheel_state.h"

namespace timersim::inspect {

// ---- classic (tv1..tv5) ----------------------------------------------------------

template <class Config>
wheel_base_state classic_base(const kernel::tvec_base<Config> &base)
{
	using base_t = kernel::tvec_base<Config>;
	using G = typename base_t::G;
	wheel_base_state out;
	out.name = "base";
	out.clock = base.timer_jiffies;
	for (unsigned level = 1; level <= G::LEVELS; level++) {
		wheel_level_state l;
		l.name = "tv" + std::to_string(level);
		l.size = base_t::slots_of(level);
		l.width = std::uint64_t{1} << base_t::shift_of(level);
		l.index = static_cast<unsigned>(base.timer_jiffies >> base_t::shift_of(level)) & (l.size - 1);
		l.low = level == 1 ? 0 : l.width;
		l.high = level == G::LEVELS ? G::MAX_TVAL + 1 : std::uint64_t{1} << base_t::shift_of(level + 1);
		for (unsigned slot = 0; slot < l.size; slot++) {
			const kernel::list_head *head = base.tv(level) + slot;
			if (head->next == head)
				continue;
			wheel_slot_state s;
			s.slot = slot;
			for (const kernel::list_head *pos = head->next; pos != head; pos = pos->next) {
				const auto *t = kernel::timer_of<Config>(const_cast<kernel::list_head *>(pos));
				s.timers.push_back({static_cast<timer_id>(t->data), t->expires, t->expires,
						    (t->flags & kernel::TIMER_DEFERRABLE) != 0});
			}
			l.slots.push_back(std::move(s));
		}
		out.levels.push_back(std::move(l));
	}
	return out;
}

// The slot whose list head is `head`, if it is one of the base's (level 0 if not).
template <class Config>
wheel_place classic_head_place(const kernel::tvec_base<Config> &base, const kernel::list_head *head)
{
	using base_t = kernel::tvec_base<Config>;
	for (unsigned level = 1; level <= base_t::G::LEVELS; level++) {
		const kernel::list_head *first = base.tv(level);
		if (head >= first && head < first + base_t::slots_of(level))
			return {0, 0, level, static_cast<unsigned>(head - first), 0, 0, 0, 0};
	}
	return {};
}

// Walks back from the timer to its slot's head: the position is the number
// of timers before it. A timer on a detached list (a cascade or expiry in
// progress) comes full circle without meeting a head: in no slot. The
// wheel links timers at a list's head or tail, and is asked right after:
// a timer that is last of its slot (and not alone) answers `at_tail` at
// once, so that a slot of n timers costs n steps to fill, not n^2 / 2.
template <class Config>
wheel_place classic_place(const kernel::timer_list<Config> &t)
{
	if (!kernel::timer_pending(&t) || !t.base)
		return {};
	if (wheel_place p = classic_head_place(*t.base, t.entry.next);
	    p.level && !classic_head_place(*t.base, t.entry.prev).level) {
		p.cpu = t.base->cpu;
		p.position = wheel_place::at_tail;
		p.clock = t.base->timer_jiffies;
		p.expires = p.bucket_expiry = t.expires;
		return p;
	}
	unsigned position = 0;
	for (const kernel::list_head *pos = t.entry.prev; pos != &t.entry; pos = pos->prev) {
		wheel_place p = classic_head_place(*t.base, pos);
		if (p.level) {
			p.cpu = t.base->cpu;
			p.position = position;
			p.clock = t.base->timer_jiffies;
			p.expires = p.bucket_expiry = t.expires;
			return p;
		}
		position++;
	}
	return {};
}

// ---- v48 (LVL0..LVL8, three bases per CPU) -----------------------------------------

inline const char *v48_base_name(unsigned index)
{
	static const char *const names[] = {"local", "global", "def"};
	return index < 3 ? names[index] : "?";
}

// `bucket_expiry(t)` gives the expiry of the bucket t was enqueued in (the
// kernel keeps it only in next_expiry; the adapter remembers it).
template <class Config, class BucketExpiry>
wheel_base_state v48_base(const kernel::v48::timer_base<Config> &base, BucketExpiry &&bucket_expiry)
{
	using G = typename Config::geometry;
	wheel_base_state out;
	out.name = v48_base_name(base.index);
	out.clock = base.clk;
	for (unsigned lvl = 0; lvl < G::LVL_DEPTH; lvl++) {
		wheel_level_state l;
		l.name = "LVL" + std::to_string(lvl);
		l.size = G::LVL_SIZE;
		l.width = G::LVL_GRAN(lvl);
		l.index = static_cast<unsigned>(base.clk >> G::LVL_SHIFT(lvl)) & G::LVL_MASK;
		l.low = lvl == 0 ? 0 : G::LVL_START(lvl);
		l.high = lvl + 1 == G::LVL_DEPTH ? G::WHEEL_TIMEOUT_CUTOFF : G::LVL_START(lvl + 1);
		for (unsigned slot = 0; slot < G::LVL_SIZE; slot++) {
			const kernel::v48::hlist_head &head = base.vectors[G::LVL_OFFS(lvl) + slot];
			if (!head.first)
				continue;
			wheel_slot_state s;
			s.slot = slot;
			for (const kernel::v48::hlist_node *n = head.first; n; n = n->next) {
				const auto *t = kernel::v48::timer_of<Config>(const_cast<kernel::v48::hlist_node *>(n));
				s.timers.push_back({static_cast<timer_id>(t->data), t->expires, bucket_expiry(*t),
						    (t->flags & kernel::v48::TIMER_DEFERRABLE) != 0});
			}
			l.slots.push_back(std::move(s));
		}
		out.levels.push_back(std::move(l));
	}
	return out;
}

// A pending timer's bucket is timer->idx of timer->base; a timer taken out
// to run (collected, not yet expired) is linked in no bucket of the base.
// The caller fills in bucket_expiry.
template <class Config>
wheel_place v48_place(const kernel::v48::timer_list<Config> &t)
{
	using G = typename Config::geometry;
	if (!kernel::v48::timer_pending(&t) || !t.base)
		return {};
	const kernel::v48::hlist_head &head = t.base->vectors[t.idx];
	unsigned position = 0;
	for (const kernel::v48::hlist_node *n = head.first; n; n = n->next, position++)
		if (n == &t.entry)
			return {t.base->cpu, t.base->index, t.idx / G::LVL_SIZE + 1, t.idx % G::LVL_SIZE,
				position, t.base->clk, t.expires, 0};
	return {};
}

}  // namespace timersim::inspect
