// `replay --what-if-hz N` / `compare --what-if-hz N`: the recorded trace
// and the same trace re-expressed at HZ N (sim/whatif/hz_rescale.h),
// replayed alike and reported side by side.
#pragma once

#include <string>

#include "sim/replay/replay.h"
#include "sim/replay/replay_report.h"
#include "sim/trace/reader.h"

namespace timersim {

// What the replay infers about a trace before it starts (or what the user
// gave): HZ and the width of jiffies.
struct recorded_clock {
	unsigned hz = 0;
	unsigned word_bits = 64;
};

// Reads the prologue of the trace at `path` the way the replay does and
// returns its HZ and word width; `hz`/`word_bits` non-zero override. Throws
// usage_error when HZ can neither be inferred nor was given.
recorded_clock probe_recorded_clock(const std::string &path, trace_format fmt,
				    const reader_options &ropt, unsigned hz, unsigned word_bits);

// The trace at `path`, re-expressed at `to_hz`.
std::unique_ptr<trace_reader> open_what_if(const std::string &path, trace_format fmt,
					   const reader_options &ropt, const recorded_clock &clock,
					   unsigned to_hz);

// The replay options of the what-if side: at the recorded HZ the options
// as given (so that the two reports are the same to the byte), otherwise
// HZ stated (the new one need not be one the replay would infer) and the
// word width as recorded.
replay_options what_if_options(const replay_options &opt, const recorded_clock &clock, unsigned to_hz);

struct what_if_reports {
	replay_report recorded, what_if;
};

// Both replays through opt.scheme: the recording as it is (opt unchanged)
// and at `to_hz` (opt.hz = to_hz; the word width as recorded).
what_if_reports replay_what_if(const std::string &path, trace_format fmt, const reader_options &ropt,
			       const replay_options &opt, unsigned to_hz);

// The two side by side: "recorded (HZ h)" and "what-if (HZ h')".
std::string what_if_table(const what_if_reports &r);
// {"recorded": report, "what_if": report}
std::string json_what_if(const what_if_reports &r, bool timing);

}  // namespace timersim
