// The options every command that replays a trace shares (replay, compare,
// and the outputs built on them), defined once.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "sim/replay/replay.h"
#include "sim/report/report_writers.h"
#include "sim/trace/reader.h"

namespace timersim::cli {

struct trace_args {
	trace_args() { replay.max_cost = std::uint64_t{1} << 36; }
	std::string trace;
	trace_format format = trace_format::auto_detect;
	reader_options reader;
	replay_options replay;
	std::vector<std::string> params;	// --param, as given
	std::string json;			// --json FILE
	unsigned what_if_hz = 0;		// --what-if-hz N (sim/whatif)
	bool own_expiries = false;		// --own-expiries (sim/whatif)
	text_report_options text;
	std::string cost_model;			// --cost-model FILE
};

// The options as the replay takes them: --cost-model's file read.
replay_options replay_options_of(const trace_args &a);
// With --own-expiries (and no --cost-model): OPT priced by the recording's
// own model (replay_options::recording_model), one more replay of it.
void price_as_recorded(const trace_args &a, replay_options &opt);

// TRACE and the options of reading and replaying it.
void add_trace_options(CLI::App *sub, trace_args &a);
// --what-if-hz, --what-if-hr-slack, --what-if-highres, --hr-queues (part of
// add_trace_options; `top` takes them alone).
void add_what_if_options(CLI::App *sub, unsigned &what_if_hz, hr_what_if_options &hr);
// --json, --top, --timing.
void add_report_options(CLI::App *sub, trace_args &a);

// A validator for scheme names (and `auto` when `allow_auto`), with a
// suggestion for a typo.
CLI::Validator scheme_name(bool allow_auto);

// Opens the trace (after the options are known to be good), without its
// expiries with --own-expiries.
std::unique_ptr<trace_reader> open_input(const trace_args &a);
// The reader options open_input uses.
reader_options reader_of(const trace_args &a);

// --param values for `scheme`: "K=V" when `named` is false (replay), else
// only "SCHEME:K=V" naming it.
std::vector<std::pair<std::string, std::string>> params_for(const trace_args &a,
							    const std::string &scheme,
							    bool named);

// Progress on a terminal: a progress line when stderr is one, else none.
std::unique_ptr<progress_sink> terminal_progress(const trace_args &a);

}  // namespace timersim::cli
