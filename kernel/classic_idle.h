// Idle stretches of the classic wheel: jiffies in which run_timers() finds
// its tv1 slot empty and every slot it cascades empty too. Such a jiffy
// changes nothing but timer_jiffies, so a run of them can be taken in one
// step, the way 4.8+ forwards an idle base (forward_timer_base()), instead
// of one jiffy at a time as 3.x's __run_timers() catches up after NOHZ.
//
// Cascade points: level L (2..5) is cascaded at the jiffies that are
// multiples of 2^shift_of(L) (256, 2^14, 2^20, 2^26), its slot index then
// being (jiffy >> shift_of(L)) & TVN_MASK. So the first busy jiffy is the
// earliest of: the first non-empty tv1 slot from the current index on
// (tv1 timers never move), and for each level the first cascade point
// whose slot is non-empty. Finding it looks at no more than every slot
// once (256 + 4 * 64), and less when a busy jiffy comes early.
#pragma once

#include <cstdint>

#include "kernel/classic_wheel.h"

namespace kernel {

// "Every jiffy from now on is idle": an empty wheel.
constexpr std::uint64_t IDLE_FOREVER = ~std::uint64_t{0};

// How many jiffies from timer_jiffies on run_timers() would process
// without running or moving any timer; 0 when the next one is busy,
// IDLE_FOREVER when the wheel is empty.
template <class Config>
std::uint64_t idle_jiffies(const tvec_base<Config> &base)
{
	using G = typename Config::geometry;
	using base_t = tvec_base<Config>;
	using word = typename Config::word;

	const word now = base.timer_jiffies;
	const unsigned index = static_cast<unsigned>(now & G::TVR_MASK);
	std::uint64_t best = IDLE_FOREVER;

	for (unsigned k = 0; k < G::TVR_SIZE; k++)
		if (!list_empty(base.tv1 + ((index + k) & G::TVR_MASK))) {
			best = k;
			break;
		}
	for (unsigned level = 2; level <= G::LEVELS; level++) {
		const unsigned shift = base_t::shift_of(level);
		const std::uint64_t period = std::uint64_t{1} << shift;
		// The first cascade point of this level, at or after now; the
		// points of higher levels are no earlier.
		const std::uint64_t first = static_cast<word>(-now) & (period - 1);
		if (first >= best)
			break;
		const unsigned slot = static_cast<unsigned>((static_cast<word>(now + first) >> shift) & G::TVN_MASK);
		for (unsigned k = 0; k < G::TVN_SIZE && first + k * period < best; k++)
			if (!list_empty(base.tv(level) + ((slot + k) & G::TVN_MASK))) {
				best = first + k * period;
				break;
			}
	}
	return best;
}

// The cascade() calls, per level (calls[2] .. calls[5]), that a stretch of
// idle jiffies made, every one of them on an empty slot.
struct idle_cascades {
	std::uint64_t calls[6];
};

// Processes `n` idle jiffies at once (n <= idle_jiffies(base), and below
// 2^(bits-1)): timer_jiffies moves on by n as run_timers() would have
// moved it, and nothing else changes. Returns the cascade() calls
// run_timers() would have made on the way.
template <class Config>
idle_cascades forward_idle(tvec_base<Config> &base, std::uint64_t n)
{
	using G = typename Config::geometry;
	using base_t = tvec_base<Config>;
	using word = typename Config::word;

	idle_cascades c = {};
	for (unsigned level = 2; level <= G::LEVELS; level++) {
		const unsigned shift = base_t::shift_of(level);
		const std::uint64_t first = static_cast<word>(-base.timer_jiffies) & ((std::uint64_t{1} << shift) - 1);
		c.calls[level] = n > first ? 1 + ((n - 1 - first) >> shift) : 0;
	}
	base.timer_jiffies = static_cast<word>(base.timer_jiffies + static_cast<word>(n));
	return c;
}

}  // namespace kernel
