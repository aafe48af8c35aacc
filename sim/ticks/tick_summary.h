// What a report says about the tick model (sim/ticks/tick_source.h).
#pragma once

#include <string>

#include "sim/ticks/tick_grid.h"
#include "sim/ticks/tick_identity.h"
#include "sim/ticks/tick_model.h"

namespace timersim {

struct tick_summary {
	std::string model;		// "recorded" or "every-jiffy"
	std::string reason;		// why that one ran
	tick_identity tick;
	tick_grid grid;
	tick_model_stats runs;		// recorded: the ticks replayed as softirq runs
};

}  // namespace timersim
