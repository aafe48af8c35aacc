// The replay: a recorded trace through one scheme (or several at once),
// and what each cost.
//
//   reader -> event_stream -> driver ---------> replay_engine -> scheme
//             (look-ahead)   (trace shape,      (one per scheme:    (classic,
//                             jiffies, bases,    softirq placement,  v48, ...)
//                             cancel roles)      fidelity)              |
//                                                   |   <--- observer --+
//                                                   v
//                                   sinks: cost accounting -> replay_report,
//                                          expiry log, timelines, views ...
//
// The model is ../shared/docs/replay-contract.md: one base per CPU; an
// event with jiffies J is applied to its base after that base processed
// every jiffy < J; a recorded timer_expire_entry with now = J has its base
// process J itself first; events without jiffies happen at the latest
// jiffies seen; a timer_cancel followed on its CPU by the expiry or a
// re-start of the same timer belongs to that expiry or re-arm.
//
// The trace is read once whatever the number of schemes: `compare` costs
// one parse plus one engine per scheme.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sim/replay/replay_report.h"
#include "sim/measured/run_model.h"
#include "sim/replay/replay_sink.h"
#include "sim/hrtimer/hr_whatif_options.h"
#include "sim/scheme/scheme.h"
#include "sim/ticks/tick_source.h"
#include "sim/trace/reader.h"

namespace timersim {

// The scheme that models the recording kernel, chosen when `auto` is named.
inline constexpr const char auto_scheme[] = "auto";

struct replay_options {
	std::string scheme = "classic";	// or auto_scheme
	std::vector<std::pair<std::string, std::string>> params;	// --param KEY=VALUE
	unsigned hz = 0;		// 0: inferred from the trace
	unsigned word_bits = 0;		// 0: inferred from the trace
	bool base_small = false;
	unsigned cpus = 0;		// 0: from the trace
	bool has_start = false;		// --start: the bases' first jiffy
	std::uint64_t start = 0;
	bool drain = false;
	// --drain goes at most this far past the last event (default 2^28:
	// 12 days at HZ 250); timers further out stay pending, and the report
	// says where the drain stopped.
	std::uint64_t drain_limit = std::uint64_t{1} << 28;
	bool lenient = false;		// semantic errors skip the event too
	// A scheme whose cost units (insertions + removals + relinks + slot
	// visits + key comparisons) pass this stops the replay with a
	// usage_error saying so: the guard against superlinear schemes on
	// large populations. 0: no limit.
	std::uint64_t max_cost = 0;
	// --ticks: run the bases at the trace's recorded ticks or at every
	// jiffy (automatic: recorded when the trace has tick events).
	tick_mode ticks = tick_mode::automatic;
	// Set when `ticks` was chosen for the user: why (the report says it).
	std::string ticks_why;
	// For tests: every scheme steps jiffy by jiffy (scheme_options::stepping),
	// the reference a replay that skips idle stretches must agree with.
	bool stepping = false;
	// A text trace is read in blocks of this many bytes, parsed on
	// several threads; 0 reads it line by line on one thread (for tests:
	// the reference the blocks must agree with).
	std::size_t text_block = default_text_block;
	// --cost-model: the fitted model of a TIMER softirq run's overhead;
	// each report then carries what it predicts for its scheme.
	std::shared_ptr<const measured::cost_model> cost_model;
	// The recording's own model, made before by a replay of its kernel's
	// scheme with its recorded expiries (recording_model()): what prices
	// every scheme of a replay that cannot pair the recorded runs with its
	// kernel's work itself (another scheme alone, expiries dropped, a
	// what-if HZ), so that every way in gives one figure. Its check and
	// verdict belong to that replay, not to this one.
	std::shared_ptr<const measured::calibrated_model> recording_model;
	// The report keeps every recorded TIMER softirq run and what each
	// scheme did in it (timer_runs, run_work): what `cost-model` fits and
	// --cost-model checks (kept then too). Otherwise only their totals: a
	// run's record is 112 bytes a scheme and nothing reads it.
	bool keep_runs = false;
	// For a replay that runs for hours (`timersim top`'s whole run): the
	// measured durations keep bounded histograms, not every sample (the
	// percentiles within 1/16, durations.h), and only the first
	// bounded_timer_runs TIMER runs are kept for the cost model's fit
	// (their totals still count every run): memory stays flat.
	bool bounded_memory = false;
	// The events are in memory already (`top`'s intervals, a few thousand
	// each): read in the replay's own thread, without a reading thread and
	// its 2 MB of chunks, whose fresh pages cost more than such a replay.
	bool read_on_demand = false;
	// --what-if-hr-slack, --what-if-highres, --hr-queues: the hrtimer
	// what-ifs, reported in the hrtimers section.
	hr_what_if_options hr_what_if;
	// --kernel-rules: follow this kernel version's timer rules (major *
	// 100 + minor, sim/stream/kernel_generation.h) instead of those of
	// the generation the trace shows; 0: the trace's.
	unsigned kernel_rules = 0;
	// --isolated-cpus: CPUs out of 6.19's timer migration available mask
	// from the start (isolcpus= domain isolation happens at boot, before
	// any trace can show tmigr_cpu_unavailable). Needs the 6.19 rules.
	std::vector<unsigned> isolated_cpus;
};

inline constexpr std::size_t bounded_timer_runs = 16384;

// One scheme of a replay and the outputs that watch it.
struct scheme_run {
	std::string scheme;		// a scheme name or auto_scheme
	std::vector<std::pair<std::string, std::string>> params;
	std::vector<replay_sink *> sinks;
};

// Replays everything `reader` yields through each run's scheme, reading the
// trace once; reports in the order of `runs`. opt.scheme and opt.params are
// not used. Throws input_error for semantic errors in the trace (jiffies
// going backwards on a CPU, a CPU beyond the trace's count) unless lenient,
// and usage_error for a bad scheme or parameter.
std::vector<replay_report> replay_schemes(trace_reader &reader, const std::string &path,
					  const replay_options &opt,
					  const std::vector<scheme_run> &runs,
					  progress_sink *progress = nullptr);

// The model a replay of PATH through its recording kernel's scheme, with
// the recorded expiries, prices it with (self-calibrated where the trace
// holds its TIMER runs, else the reference): for
// replay_options::recording_model. OPT's cost_model, scheme, params and
// sinks are not used; its reading options (hz, word bits, CPUs, lenient)
// are.
measured::calibrated_model recording_model(const std::string &path, trace_format format,
					   const reader_options &ro, const replay_options &opt);

// One scheme: opt.scheme with opt.params.
replay_report replay_trace(trace_reader &reader, const std::string &path,
			   const replay_options &opt, std::vector<replay_sink *> sinks = {},
			   progress_sink *progress = nullptr);

// Checks a scheme name and its parameters before any trace is read (the
// user's words are off: usage_error). `auto` passes. Returns the scheme's
// superlinear_note() ("" when its time follows the work, and for `auto`:
// the recording kernel's wheel), for `compare` to say up front.
std::string check_scheme(const std::string &name, const replay_options &opt,
		  const std::vector<std::pair<std::string, std::string>> &params);

}  // namespace timersim
