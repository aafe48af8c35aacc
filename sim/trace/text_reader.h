// The text trace readers (raw tracefs text, trace-cmd report, perf script):
// one reader loop over a line_source, with one line parser per rendering.
//
// The reader accounts for every line (lines == events + skipped), turns a
// bad line into input_error(file, line, reason) or, when lenient, counts it
// as skipped and malformed and goes on.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "sim/trace/line_source.h"
#include "sim/trace/reader.h"
#include "sim/trace/text_fields.h"

namespace timersim {

// One rendering's view of one line: an event (EV filled), a line to skip
// (header, comment, note), or bad (ctx.reason says why).
using text_line_parser = line_verdict (*)(std::string_view line, trace_event &ev,
					   line_context &ctx);

// A rendering: its line parser and how it prints the timer payloads.
struct text_rendering {
	trace_format format;
	text_line_parser parse;
	payload_dialect dialect;
};
extern const text_rendering ftrace_rendering;		// ftrace_text.cc
extern const text_rendering trace_cmd_report_rendering;	// trace_cmd_report.cc
extern const text_rendering perf_script_rendering;	// perf_script.cc
// ftrace_rendering's parse of a line its common-line parse
// (common_ftrace_line, ftrace_fast.h) did not take: EV is reset first.
line_verdict uncommon_ftrace_line(std::string_view line, trace_event &ev, line_context &ctx);

// Why a line of SIZE bytes, cut to the read buffer, is bad.
std::string overlong_reason(std::size_t size);
// A bad last line without its newline is said to be cut short (by its
// parse or by the keys it lacks; not when overlong or mixing line ends),
// as is one of blanks only.
void note_cut_short(std::string &reason);

// The parts of the reader's judgement of a line that need no other line
// (the text reader and the block-parallel reading of text_blocks.h share
// them): an overlong line, a stray line end, then the rendering's parser
// (a line it finds bad without its newline is said to be cut short).
// Inline: it runs once a line, around a parse of a few hundred instructions.
inline line_verdict judge_line(const text_rendering &r, const line_source &src,
			       std::string_view line, trace_event &ev, line_context &ctx)
{
	if (src.overlong()) [[unlikely]]
		return ctx.reject(overlong_reason(line.size()));
	if (src.stray_line_end()) [[unlikely]]
		return ctx.reject(src.stray_line_end());
	line_verdict v = r.parse(line, ev, ctx);
	if (!src.terminated()) [[unlikely]] {
		// Blanks with no line end are a line cut in its indentation:
		// no rendering ends a file so.
		if (v == line_verdict::skip && !line.empty() && skip_blanks(line).empty())
			v = ctx.reject("only blanks");
		if (v == line_verdict::bad)
			note_cut_short(ctx.reason);
	}
	return v;
}

// The fields a kernel prints for an event do not change within a trace, so
// an event that lacks one the first event of its kind had (a [timeout=],
// the cpu= idx= flags= of 4.11+, a baseclk=, an hrtimer_start's mode= or
// was_armed=) was cut short. Fed the events in the order of the trace.
class generation_check {
public:
	// The events it judges: the timer and hrtimer events, the kinds up to
	// hrtimer (one compare: it runs for every event).
	static constexpr bool judges(event_kind kind) { return kind <= event_kind::hrtimer; }
	// Whether an event of KIND (one it judges; OP: which hrtimer event)
	// on LINE with payload KEYS carries the keys of the first event of its
	// kind; if not, REASON says which is missing.
	bool pass(event_kind kind, hrtimer_event op, std::uint32_t keys, std::uint64_t line,
		  std::string &reason)
	{
		// Inline the common answer: a later event with every key.
		std::size_t k = slot(kind, op);
		std::uint32_t first = first_keys_[k];
		if (first && !(first & ~seen & ~keys))
			return true;
		return first_or_short(k, kind, op, keys, line, reason);
	}

private:
	static constexpr std::uint32_t seen = 1u << 31;	// in first_keys_: a first was seen
	static_assert(is_timer_event(event_kind(unsigned(event_kind::hrtimer) - 1)),
		      "judges(): the timer kinds are the ones just before hrtimer");
	// The timer events by kind (their OP is none, 0), the hrtimer events
	// by OP after them: KIND + OP, no branch.
	static constexpr std::size_t slot(event_kind kind, hrtimer_event op)
	{
		return std::size_t(kind) + std::size_t(op);
	}
	static constexpr std::size_t slots = std::size_t(event_kind::hrtimer) + std::size_t(hrtimer_event::other) + 1;
	bool first_or_short(std::size_t k, event_kind kind, hrtimer_event op, std::uint32_t keys,
			    std::uint64_t line, std::string &reason);

	// Payload keys of the first event of each slot, and its line.
	std::uint32_t first_keys_[slots] = {};
	std::uint64_t first_line_[slots] = {};
};

// A text reader of format FMT (ftrace, trace_cmd_report or perf_script)
// over SRC. Does not look at the content first: open_trace does.
std::unique_ptr<trace_reader> make_text_reader(std::unique_ptr<line_source> src,
					       trace_format fmt, const reader_options &opt);

// The same over DATA in memory (tests, fuzzing, benchmarks); DATA must
// outlive the reader. BUFFER as for line_source::from_memory.
std::unique_ptr<trace_reader> make_text_reader_from_memory(std::string_view data,
							   const std::string &name,
							   trace_format fmt,
							   const reader_options &opt,
							   std::size_t buffer = 0);

}  // namespace timersim
