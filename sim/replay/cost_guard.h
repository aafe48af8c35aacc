// The --max-cost guard: stops a replay whose scheme has done more than
// max_cost units of work (insertions + removals + relinks + slot visits +
// comparisons), before a superlinear scheme (a sorted list of a million
// timers) runs for hours.
//
// The event loop counts events down to the next check itself (one
// decrement an event); the guard says how far apart the checks are: at
// most cost_check_every events, and closer as a scheme nears the limit.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/replay/replay_engine.h"

namespace timersim {

// The work a scheme did: its cost units less those it counted in bulk for
// idle jiffies stepped over (a leap of 2^32 idle jiffies is cheap to
// simulate, though the kernel would have ticked through it).
inline std::uint64_t work_done(const cost_counters &c)
{
	return c.insertions + c.removals + c.relinks + c.slot_visits + c.key_comparisons -
	       c.skipped_idle;
}

class cost_guard {
public:
	// --max-cost is checked at most this many events apart; sooner when
	// the cost per event seen since the last check would reach the limit
	// before.
	static constexpr std::uint64_t cost_check_every = 1024;

	// MAX_COST 0: no limit.
	explicit cost_guard(std::uint64_t max_cost) : max_cost_(max_cost) {}

	bool limited() const { return max_cost_ != 0; }
	// Events before the first check (never, without a limit).
	std::uint64_t first_gap() const { return max_cost_ ? gap_ : ~std::uint64_t{0}; }
	// Checks every engine, the events since the last check having been
	// read (WHERE: the trace's file and line, for the message); returns
	// the events until the next check. Throws usage_error past the limit.
	std::uint64_t check_all(const std::vector<std::unique_ptr<replay_engine>> &engines,
				const std::string &where);
	// Throws when the work E did (and `extra` units) passed the limit;
	// else returns the work done.
	std::uint64_t check(const replay_engine &e, const std::string &where,
			    std::uint64_t extra = 0) const;

private:
	std::uint64_t max_cost_;
	std::uint64_t gap_ = cost_check_every;	// events between the last two checks
	std::vector<std::uint64_t> checked_;	// by engine: the work done at the last check
};

}  // namespace timersim
