// `timersim step --trace T --from J --to J`: a window of a real recording,
// one base at a time.
//
// The trace goes through the replay (sim/replay/replay.h) with its model of
// the recording (jiffies, which base, what a timer_cancel is, when bases
// run: --ticks, the fidelity of each recorded expiry). A replay_sink turns
// what the replay does to base `cpu` into step records: each recorded
// start, cancel and expiry on that base is a step, with what the wheel did
// since the one before (cascades, moves, expiries) and the picture after
// it, read off the scheme's own slots (wheel_inspection): the same wheel
// `timersim view` draws. The reasons (--explain) are the lab's, for the
// place the wheel chose. Outside [--from, --to] nothing is shown.
//
// Timers are named after their callback (a second timer of the same
// callback gets ".2", ...; an address without symbols "cb_" and its low
// digits).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/replay/replay.h"
#include "sim/lab/lab_wheel.h"
#include "sim/lab/step.h"
#include "sim/trace/reader.h"

namespace timersim::lab {

struct trace_window_options {
	std::string path;
	trace_format format = trace_format::auto_detect;
	reader_options reader;
	// classic, v48, or auto_scheme: the recording kernel's wheel, as
	// replay takes it.
	std::string scheme = auto_scheme;
	std::optional<unsigned> hz;		// default: inferred from the trace
	std::optional<unsigned> word_bits;	// default: inferred
	bool base_small = false;
	bool lifo = false;
	unsigned cpu = 0;			// the base shown
	std::optional<std::uint64_t> from;	// jiffies as the trace prints them
	std::optional<std::uint64_t> to;
	tick_mode ticks = tick_mode::automatic;	// --ticks, as for replay
	bool explain = false;
};

struct trace_window_summary {
	std::uint64_t steps = 0;	// records in the window
	// The expiries on the base in the window, in firing order.
	std::vector<std::pair<std::string, std::uint64_t>> fired;
};

// Runs the window: `begin` with the wheel's set-up and description once
// the replay knows them, `each` per step. Throws input_error / usage_error
// as a replay does, and usage_error for a base the trace does not have or
// --from after --to.
trace_window_summary run_trace_window(const trace_window_options &opt,
				      const std::function<void(const wheel_setup &, const std::string &)> &begin,
				      const std::function<void(const step_record &)> &each);

// What `timersim step --trace` prints, as text or JSON, piece by piece as
// the replay makes it (a window without --to may span the whole trace).
void write_trace_window_text(const trace_window_options &opt, const step_output &write);
void write_trace_window_json(const trace_window_options &opt, const step_output &write);
// Both as one string (tests, small windows).
std::string trace_window_text(const trace_window_options &opt);
std::string trace_window_json(const trace_window_options &opt);

}  // namespace timersim::lab
