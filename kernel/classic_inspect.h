// Read-only views of a classic wheel's base, for pictures and lessons: where
// a pending timer sits, each level's index pointer, and every timer in slot
// order. Nothing here changes the base; the wheel's own rules stay in
// kernel/classic_wheel.h.
#pragma once

#include <cstdint>

#include "kernel/classic_wheel.h"

namespace kernel {

struct timer_place {
	unsigned level = 0;	// 1..5 (tv1..tv5); 0: in no slot of the base
	unsigned slot = 0;
};

// The slot whose list head is `head`, if it is one of the base's.
template <class Config>
timer_place place_of_head(const tvec_base<Config> &base, const list_head *head)
{
	using base_t = tvec_base<Config>;
	const std::uintptr_t h = reinterpret_cast<std::uintptr_t>(head);

	for (unsigned level = 1; level <= base_t::G::LEVELS; level++) {
		const std::uintptr_t first = reinterpret_cast<std::uintptr_t>(base.tv(level));
		const std::uintptr_t end = first + base_t::slots_of(level) * sizeof(list_head);
		if (h >= first && h < end)
			return {level, static_cast<unsigned>((h - first) / sizeof(list_head))};
	}
	return {};
}

// Where a pending timer sits: follow its list to the slot's head.
template <class Config>
timer_place place_of(const tvec_base<Config> &base, const timer_list<Config> *timer)
{
	if (!timer_pending(timer))
		return {};
	for (const list_head *pos = timer->entry.next; pos != &timer->entry; pos = pos->next) {
		timer_place p = place_of_head(base, pos);
		if (p.level)
			return p;
	}
	return {};
}

// The slot of `level` that the base processes (tv1) or cascades (tv2..tv5)
// next: the level's bits of timer_jiffies.
template <class Config>
unsigned level_index(const tvec_base<Config> &base, unsigned level)
{
	using base_t = tvec_base<Config>;
	const unsigned mask = base_t::slots_of(level) - 1;
	return static_cast<unsigned>(base.timer_jiffies >> base_t::shift_of(level)) & mask;
}

// fn(level, slot, timer) for every pending timer, level by level, slot by
// slot, each slot in list order (the order its timers run or cascade in).
template <class Config, class Fn>
void for_each_timer(const tvec_base<Config> &base, Fn &&fn)
{
	using base_t = tvec_base<Config>;
	for (unsigned level = 1; level <= base_t::G::LEVELS; level++)
		for (unsigned slot = 0; slot < base_t::slots_of(level); slot++) {
			const list_head *head = base.tv(level) + slot;
			for (const list_head *pos = head->next; pos != head; pos = pos->next)
				fn(level, slot, *timer_of<Config>(const_cast<list_head *>(pos)));
		}
}

}  // namespace kernel
