// Timers pending per CPU and level, followed from a replay's sink calls:
// what the timelines, the Perfetto counters and the view draw as "pending
// per level". Where the scheme's slots can be read (setup.wheel: classic,
// v48) each timer is counted on the level it really sits on, also after a
// cascade moved it; for other schemes only the total per CPU is known.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/replay/replay_sink.h"

namespace timersim {

class pending_levels {
public:
	void begin(const replay_setup &setup);

	// Levels counted one by one: setup.levels when the wheel can be read, else 0.
	unsigned levels() const { return levels_; }
	// Timers pending on `cpu`: [0] all of them, [1..levels()] per level.
	const std::vector<std::uint64_t> &of(unsigned cpu) const { return counts_[cpu]; }

	// The sink calls that change what is pending.
	void started(const timer_ref &t, unsigned cpu, unsigned level);
	void moved(const timer_ref &t);
	void removed(const timer_ref &t);	// expired, canceled, or expired by the replay
	// The place t was last counted at (level 0 when the wheel cannot be read).
	const wheel_place &where(timer_id t) const { return timers_[t].place; }

private:
	struct timer_state {
		wheel_place place;
		bool pending = false;
	};
	timer_state &state(timer_id t);
	void count(const timer_state &s, bool add);

	const wheel_inspection *wheel_ = nullptr;
	unsigned levels_ = 0;
	std::vector<std::vector<std::uint64_t>> counts_;
	std::vector<timer_state> timers_;
};

}  // namespace timersim
