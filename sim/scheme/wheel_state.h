// Read-only state of a wheel scheme's slots, for pictures: the browser
// view, the timelines' pending timers per level. A scheme whose timers sit
// in slots (classic, v48) implements wheel_inspection beside the scheme
// interface; the replay hands it to the sinks (replay_setup::wheel).
//
// Nothing here changes a wheel. Values are as the kernel holds them:
// jiffies narrowed to the modelled width of `unsigned long`.
//
//   wheel_base_state        classic: one base per CPU ("base");
//                           v48: "local", "global", "def"
//     levels[]              tv1..tv5 or LVL0..LVL8, always all of them
//       index               the slot the base processes or cascades next
//       low, high           the distances (expires - clock) it takes
//       slots[]             only the non-empty ones, ascending
//         timers[]          in list order: the order they run or cascade in
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/scheme/scheme.h"

namespace timersim {

struct wheel_timer_state {
	timer_id id = 0;
	std::uint64_t expires = 0;
	// When its slot runs: v48's bucket expiry (the expiry rounded up to
	// the level's granularity); the expiry itself for the classic wheel.
	std::uint64_t bucket_expiry = 0;
	bool deferrable = false;
};

struct wheel_slot_state {
	unsigned slot = 0;
	std::vector<wheel_timer_state> timers;
};

struct wheel_level_state {
	std::string name;		// "tv1", "LVL0"
	unsigned size = 0;		// slots in the level
	unsigned index = 0;		// the slot processed or cascaded next
	std::uint64_t width = 0;	// jiffies one slot spans (v48: granularity)
	// A timer placed `expires - clock` jiffies ahead lands here when that
	// distance is in [low, high).
	std::uint64_t low = 0, high = 0;
	std::vector<wheel_slot_state> slots;	// the non-empty ones, ascending
};

struct wheel_base_state {
	std::string name;		// "base"; "local", "global", "def"
	std::uint64_t clock = 0;	// timer_jiffies (classic) or clk (v48)
	std::vector<wheel_level_state> levels;
};

// Where a pending timer sits. level is 1-based (tv1 = 1, LVL0 = 1); 0 means
// the timer is in no slot (not pending, or taken out while it runs).
struct wheel_place {
	unsigned cpu = 0;
	unsigned base = 0;		// index into inspect()'s bases
	unsigned level = 0;
	unsigned slot = 0;
	// 0: the head of the slot's list; at_tail: its last, when it is not
	// also the first (counting would walk the whole list).
	unsigned position = 0;
	static constexpr unsigned at_tail = ~0u;
	std::uint64_t clock = 0;	// that base's clock now
	std::uint64_t expires = 0, bucket_expiry = 0;	// the timer's, as in wheel_timer_state
	bool operator==(const wheel_place &) const = default;
};

class wheel_inspection {
public:
	virtual ~wheel_inspection() = default;
	// The bases of `cpu` with every level and their non-empty slots.
	virtual std::vector<wheel_base_state> inspect(unsigned cpu) const = 0;
	// Where timer t sits now (level 0: in no slot).
	virtual wheel_place place(timer_id t) const = 0;
	// The clock of each of `cpu`'s bases, as inspect() gives them,
	// without listing their timers.
	virtual std::vector<std::uint64_t> clocks(unsigned cpu) const
	{
		std::vector<std::uint64_t> c;
		for (const wheel_base_state &b : inspect(cpu))
			c.push_back(b.clock);
		return c;
	}
};

}  // namespace timersim
