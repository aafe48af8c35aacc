// `gen --like TRACE`: a workload fitted to a recorded trace, one `fitted`
// workload (sim/gen/fitted.cc) per callback, so that a machine's own
// pattern can be replayed at another HZ, on more CPUs or scaled up.
//
// Per callback, over the armings (timer_start events) of the trace:
//   - chains: a chain begins with a start of a timer that was not pending
//     and is not its own callback re-arming it. They arrive at the `rate`
//     per second seen after the callback's first (median) timeout (at most
//     1 s into the trace); those that began within it beyond that rate are
//     taken as running when the trace began (`initial`: the periodic
//     timers and open connections of a machine that was up before
//     recording);
//   - the timeout, fitted as a log-normal (mean and standard deviation of
//     the log of the timeout in milliseconds, each timeout of t jiffies
//     taken at t - 1/2 jiffies: the middle of the durations that round up
//     to t);
//   - how armings end: expired, re-armed while pending (mod_timer), or
//     deleted - and, for the latter two, the lifetime (timestamps of the
//     start and of the end), fitted as a log-normal too;
//   - self: the share of expiries whose callback re-armed the timer.
// A timer_cancel is told apart as the replay does: followed on its CPU by
// the timer's expiry it belongs to that expiry, by the timer's start it
// is half of a re-arm, by anything else it is a delete. Armings still
// open at the end of the trace are left out.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/gen/workload.h"
#include "sim/trace/reader.h"

namespace timersim::gen {

struct fitted_callback {
	std::string function;
	std::uint64_t chains = 0, armings = 0;
	std::uint64_t expired = 0, rearmed = 0, canceled = 0, self_rearmed = 0;
	std::uint64_t initial = 0;	// chains running when the trace began
	double initial_window_ms = 0;	// ... told by the chains of this first window
	double rate = 0;		// chains per second after that
	double timeout_median_ms = 0, timeout_sigma = 0;
	double life_median_ms = 0, life_sigma = 0;
};

struct trace_fit {
	unsigned hz = 0;
	unsigned cpus = 0;
	std::uint64_t duration_ns = 0;	// first to last timestamp
	std::vector<fitted_callback> callbacks;	// most armings first
	std::vector<workload> workloads;	// one `fitted` per callback
};

// Fits every callback with at least `min_armings` armings. `hz` overrides
// the recorded HZ (else inferred as the replay does).
trace_fit fit_trace(const std::string &path, trace_format fmt, const reader_options &ropt, unsigned hz,
		    std::uint64_t min_armings = 2);

}  // namespace timersim::gen
