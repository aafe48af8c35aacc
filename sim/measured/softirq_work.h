// What a scheme did on the softirq side of one run: the work the cost
// model prices. The replay books it per CPU as the scheme does it (every
// catch-up of a base is softirq work: the kernel runs it from the timer
// softirq) and hands it over when the recorded run on that CPU closes, so
// that each measured run is paired with the work the scheme did in it.
#pragma once

#include <cstdint>

namespace timersim::measured {

struct softirq_work {
	std::uint64_t runs = 0;		// runs that did any work (for totals)
	std::uint64_t ticks = 0;	// recorded ticks the base ran at (tick-driven replays)
	std::uint64_t expiries = 0;	// timers fired
	std::uint64_t relinks = 0;	// timers moved inside the structure (cascades)
	// Of those, timers nobody touched for a second or more (not started,
	// re-armed or moved): their cache lines are cold when the cascade
	// walks them.
	std::uint64_t cold_relinks = 0;
	std::uint64_t slot_visits = 0;	// buckets, slots, nodes looked at
	std::uint64_t key_comparisons = 0;
	std::uint64_t removals = 0;	// unlinks (expiries, and re-queues)

	bool empty() const
	{
		return !expiries && !relinks && !slot_visits && !key_comparisons && !removals;
	}
	softirq_work &operator+=(const softirq_work &o)
	{
		runs += o.runs;
		ticks += o.ticks;
		expiries += o.expiries;
		relinks += o.relinks;
		cold_relinks += o.cold_relinks;
		slot_visits += o.slot_visits;
		key_comparisons += o.key_comparisons;
		removals += o.removals;
		return *this;
	}
};

}  // namespace timersim::measured
