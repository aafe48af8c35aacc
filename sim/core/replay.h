// The replay: a recorded trace through one scheme, and what it cost.
//
//   reader  ->  event_stream  ->  replay_engine  ->  scheme
//                (look-ahead)      (jiffies,          (classic, v48, ...)
//                                   softirq placement,     |
//                                   cancel pairing,        v
//                                   fidelity)  <----- observer: enqueues,
//                                       |              cascades, expiries
//                                       v
//                                  replay_report -> text / JSON / CSV
//
// The model is ../shared/docs/replay-contract.md: one base per CPU; an
// event with jiffies J is applied to its base after that base processed
// every jiffy < J; a recorded timer_expire_entry with now = J has its base
// process J itself first; events without jiffies happen at the latest
// jiffies seen; a timer_cancel followed on its CPU by the expiry or a
// re-start of the same timer belongs to that expiry or re-arm.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "sim/report/replay_report.h"
#include "sim/scheme/scheme.h"
#include "sim/trace/reader.h"

namespace timersim {

struct replay_options {
	std::string scheme = "classic";
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
	std::FILE *expiry_log = nullptr;	// CSV cpu,timer,function,expires,fired
	bool progress = false;		// progress line on stderr
	std::uint64_t input_size = 0;	// bytes, for the progress line
};

// Replays everything `reader` yields through a fresh scheme. Throws
// input_error for semantic errors in the trace (jiffies going backwards on
// a CPU, a CPU beyond the declared count) unless lenient, and usage_error
// for a bad scheme or parameter.
replay_report replay_trace(trace_reader &reader, const std::string &path,
			   const replay_options &opt);

}  // namespace timersim
