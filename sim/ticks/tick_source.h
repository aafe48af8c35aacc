// Where a replay's softirq runs come from (--ticks).
//
//   recorded     a base runs only when its CPU ticked in the trace: each
//                tick (the tick hrtimer's expiry) becomes one timer softirq
//                run, to the jiffies tick_model says it saw
//   every-jiffy  every base processes every jiffy before each event that
//                carries a later one (the replay contract's placement rule,
//                as if every CPU ticked at every jiffy)
//
// The default is recorded when the trace has tick events (the tick
// hrtimer was identified and the ns -> jiffies grid fitted), else
// every-jiffy; the report says which ran and why.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "sim/stream/event_stream.h"
#include "sim/base/interner.h"
#include "sim/ticks/tick_grid.h"
#include "sim/ticks/tick_identity.h"
#include "sim/ticks/tick_model.h"
#include "sim/ticks/tick_summary.h"

namespace timersim {

enum class tick_mode : std::uint8_t { automatic, recorded, every_jiffy };
const char *tick_mode_name(tick_mode m);	// "auto", "recorded", "every-jiffy"
bool parse_tick_mode(std::string_view s, tick_mode &m);

class tick_source {
public:
	// Looks at up to `prologue` events ahead in `stream`: finds the tick
	// and fits the grid, then settles the model. Throws usage_error when
	// `requested` is recorded and the trace has no tick to replay.
	// `every_jiffy_why`: every-jiffy was chosen for the user, and why
	// (the report says so instead of "--ticks every-jiffy").
	tick_source(event_stream &stream, const interner &names, tick_mode requested, unsigned hz,
		    unsigned word_bits, unsigned cpus, std::size_t prologue,
		    const std::string &every_jiffy_why = "");

	bool recorded() const { return recorded_; }

	// Is `ev` a tick of the recorded model?
	bool is_tick(const sim_event &ev) const
	{
		return recorded_ && ev.hrtimer == hrtimer_op::expire_entry &&
		       ev.function == summary_.tick.function;
	}

	// The softirq run of the tick `ev` (is_tick), which is stream.peek(0):
	// the events after it on its CPU, up to its next tick, say what
	// jiffies that run saw. `unwrap` turns raw jiffies into the replay's
	// timeline.
	tick_run run(const sim_event &ev, event_stream &stream,
		     const std::function<jiffies_t(std::uint64_t)> &unwrap);

	// timer_base_idle of `cpu`.
	void base_idle(unsigned cpu, bool idle) { model_.base_idle(cpu, idle); }

	tick_summary summary() const;

private:
	tick_summary summary_;
	bool recorded_ = false;
	tick_model model_;
};

}  // namespace timersim
