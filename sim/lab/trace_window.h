// `timersim step --trace T --from J --to J`: a window of a real recording,
// one base at a time, on a lab wheel.
//
// The trace goes through the replay core (sim/core/replay.h) with its
// model of the recording (jiffies, which base, what a timer_cancel is, the
// fidelity of each recorded expiry); a replay_sink mirrors what the replay
// does to base `cpu` onto a lab wheel of the same design: each start,
// cancel and recorded expiry on that base is a step, with the wheel's
// picture after it. Before --from the steps are applied silently, after
// --to the window is closed.
//
// Recorded starts are applied as the replay applies them (__mod_timer(),
// no slack). A recorded expiry the wheel had not fired yet (`late`) is
// expired at the recorded jiffy, as the replay does. Timers are named after
// their callback (a second timer of the same callback gets ".2", ...).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/lab/lab_wheel.h"
#include "sim/lab/step.h"
#include "sim/trace/reader.h"

namespace timersim::lab {

struct trace_window_options {
	std::string path;
	trace_format format = trace_format::auto_detect;
	reader_options reader;
	std::string scheme = "classic";		// classic or v48
	std::optional<unsigned> hz;		// default: inferred from the trace
	std::optional<unsigned> word_bits;	// default: inferred
	bool base_small = false;
	bool lifo = false;
	unsigned cpu = 0;			// the base shown
	std::optional<std::uint64_t> from;	// jiffies as the trace prints them
	std::optional<std::uint64_t> to;
	bool explain = false;
};

struct trace_window_summary {
	std::uint64_t steps = 0;		// records in the window
	// Expiries on the base in the window: the lab wheel's and the
	// replay's scheme's (they are the same kernel code, so they agree).
	std::vector<std::pair<std::string, std::uint64_t>> lab_fired, scheme_fired;
};

// Runs the window: `begin` once the lab wheel exists, `each` per step.
// Throws input_error / usage_error as a replay does, and usage_error for a
// base the trace does not have or an empty window.
trace_window_summary run_trace_window(const trace_window_options &opt,
				      const std::function<void(const lab_wheel &)> &begin,
				      const std::function<void(const step_record &)> &each);

std::string trace_window_text(const trace_window_options &opt);
std::string trace_window_json(const trace_window_options &opt);

}  // namespace timersim::lab
