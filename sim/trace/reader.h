// Trace readers: a stream of trace_events from one recorded trace.
//
// Every reader is streaming (constant memory in the trace length) and
// accounts for every unit of its input: each text line (or binary record) is
// either an event or counted as skipped. Malformed input throws input_error
// naming the file, the line (or byte offset) and what was wrong - unless the
// reader is lenient, in which case the unit is counted as malformed (and
// skipped) and reading goes on.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "sim/trace/event.h"
#include "sim/trace/lost_events.h"
#include "sim/trace/symbols.h"

namespace timersim {

enum class trace_format {
	auto_detect,
	ftrace,			// raw /sys/kernel/tracing/trace text
	trace_cmd_report,	// `trace-cmd report` text
	perf_script,		// `perf script` text of timer:* events
	trace_dat,		// trace-cmd binary trace.dat
	ctf,			// LTTng CTF directory (metadata + channel files)
};

const char *trace_format_name(trace_format f);	// "ftrace", "trace-cmd-report", ...
// Parses a --format value; returns false for an unknown name.
bool parse_trace_format(const std::string &name, trace_format &out);

// Bad input. what() is the full message "FILE:LINE: reason" (or
// "FILE: offset N: reason" for binary input).
class input_error : public std::runtime_error {
public:
	input_error(const std::string &file, std::uint64_t line, const std::string &reason);
	// Binary input: a byte offset instead of a line.
	static input_error at_offset(const std::string &file, std::uint64_t offset,
				     const std::string &reason);
	const std::string &file() const { return file_; }
	std::uint64_t line() const { return line_; }	// 0 when at an offset
	const std::string &reason() const { return reason_; }

private:
	input_error(const std::string &msg, const std::string &file, std::uint64_t line,
		    const std::string &reason);
	std::string file_;
	std::uint64_t line_ = 0;
	std::string reason_;
};

struct reader_stats {
	std::uint64_t lines = 0;	// text lines (or binary records) read
	std::uint64_t events = 0;	// of those, events returned by next()
	std::uint64_t skipped = 0;	// not events: headers, comments, blank, malformed
	std::uint64_t malformed = 0;	// of skipped, bad lines passed over by --lenient
	std::uint64_t bytes = 0;	// input bytes consumed (uncompressed)
	// --lenient read of a gzip file cut short: the compressed byte offset
	// where it stopped (what followed is lost); 0 when the input was whole.
	std::uint64_t truncated_at = 0;
	// Events the tracer itself lost (CTF: events_discarded), by packet,
	// in stream and packet order once the input is read; text traces: by
	// CPU, from the tracer's notes.
	std::uint64_t lost_events = 0;
	std::vector<lost_packet> lost_packets;
	std::vector<lost_on_cpu> lost_cpus;
};

struct reader_options {
	bool lenient = false;
	std::string symbols;	// System.map or /proc/kallsyms to resolve addresses; may be empty
	// trace.dat: records decoded ahead of the replay, callbacks not yet
	// named, while the file's kallsyms load (272 bytes each, in huge
	// pages: 32768 is 8.5 MiB). Past it, or at the end of the input,
	// the reader waits for the kallsyms; then the queue is named and
	// handed on in order. 0: wait at the first record that needs a name.
	std::size_t read_ahead = 32768;
	// For tests: fill the read-ahead even when the kallsyms are ready,
	// so that the queued path is taken whatever the timing.
	bool read_ahead_always = false;
};

struct text_block_input;	// text_blocks.h

// The size of the blocks a text trace is read in, on several threads
// (sim/stream/block_prefetch.h): large enough that a block's hand-over is
// rare, small enough that a few in flight keep memory flat.
constexpr std::size_t default_text_block = std::size_t{256} << 10;

class trace_reader {
public:
	virtual ~trace_reader() = default;
	// Next event; false at the end of the input. Throws input_error.
	virtual bool next(trace_event &ev) = 0;
	virtual const reader_stats &stats() const = 0;
	virtual trace_format format() const = 0;
	// Number of CPUs the trace declares (#P:2, cpus=2, ...), 0 if unknown.
	virtual unsigned declared_cpus() const { return 0; }
	// Which clock the timestamps are in, when the format says more than
	// the seconds it prints (CTF: a clock plus an offset); "" otherwise.
	virtual std::string clock() const { return ""; }
	// What the format's units are called: text "lines", binary "events".
	virtual const char *unit() const { return "lines"; }
	// How the callback addresses fitted reader_options::symbols, once read.
	virtual symbol_fit symbols_fit() const { return {}; }

	// Reading in blocks on several threads instead of next(): a text
	// reader not yet read offers its input (text_blocks.h); null when the
	// input must be read line by line (gzip, whose errors name the line
	// being read) or the reader is not a text reader.
	virtual text_block_input *block_input() { return nullptr; }
	// After reading in blocks, the end of the input: the counts, the name
	// of the first event and whether any was a timer_* event. Throws what
	// next() would have thrown at the end.
	virtual void blocks_done(const reader_stats &, std::string_view /*first_name*/,
				 bool /*timer_seen*/)
	{
	}
};

// Opens PATH (a file, a gzip-compressed text file, or a CTF directory) with
// the given format, detecting it from the content when auto_detect.
// Throws input_error for a missing or unreadable input or unknown content.
std::unique_ptr<trace_reader> open_trace(const std::string &path, trace_format fmt,
					 const reader_options &opt);

// Content detection alone (what open_trace uses for auto_detect).
trace_format detect_trace_format(const std::string &path);

// The per-format constructors behind open_trace (the text one is in
// text_reader.h: open_trace looks at the text before it is read).
std::unique_ptr<trace_reader> make_trace_dat_reader(const std::string &path,
						    const reader_options &opt);
std::unique_ptr<trace_reader> make_ctf_reader(const std::string &path,
					      const reader_options &opt);

}  // namespace timersim
