// A scenario through the scheme layer (sim/scheme/scheme.h): the third view
// of the lab's "one truth". The scheme sees what a replay shows it - starts,
// cancels, advances - and reports enqueues (level only), cascade calls and
// moves (the level they leave), and expiries; slots, landing levels and
// bucket expiries are not part of that interface and stay unknown
// (unknown_slot, empty level names, unknown_value).
//
// The scheme layer applies starts with __mod_timer(); what mod_timer() adds
// in front of it (slack, and the no-op re-arm to the same expiry) is applied
// here for every scheme but v48, whose own start has 4.8's shortcuts and no
// slack. `show` is answered as the first jiffy at which a timer that wakes
// the CPU (not deferrable) fires, found on a fresh copy of the run.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/lab/scenario.h"
#include "sim/lab/step.h"
#include "sim/scheme/scheme.h"

namespace timersim::lab {

struct scheme_run {
	std::vector<step_record> records;	// `after` is left empty
	cost_counters costs;
};

// Runs `s` on scheme `scheme` with the wheel options of `setup` (hz, word
// bits, geometry, order; start). Throws input_error like `step` does.
scheme_run run_on_scheme(const scenario &s, const std::string &scheme, const wheel_setup &setup);

// The cost units summed: insertions + removals + relinks + slot visits + key comparisons.
std::uint64_t total_cost(const cost_counters &c);

}  // namespace timersim::lab
