// Reading a text trace in blocks of whole lines, parsed on several threads
// (sim/stream/block_prefetch.h runs them): a cutter that splits the input at
// line ends, one block after the other, and a parser that judges the lines
// of one block alone, exactly as the text reader would (text_reader.h).
//
// What depends on the lines before a block (its line numbers, the first
// bad line of the trace, the payload keys of the first event of each kind,
// the counts) is the caller's to apply, block after block in file order:
// a block's parse says what it saw relative to its own start.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/trace/ftrace_fast.h"
#include "sim/trace/line_ends.h"
#include "sim/trace/line_source.h"
#include "sim/trace/reader.h"
#include "sim/trace/text_reader.h"

namespace timersim {

// What a text reader hands to reading in blocks: its input, not yet read
// (nothing but the head was looked at), and how its lines are judged.
struct text_block_input {
	line_source *src = nullptr;
	const text_rendering *rendering = nullptr;
	line_context ctx;		// dialect and symbols; each parser copies it
	bool lenient = false;
};

// Whole lines of the input, from where the block before ended.
struct text_block {
	// The lines [0, size), then what was read past them, then
	// line_source::read_slack zero bytes (the scanners may read there).
	std::vector<char> data;
	std::size_t size = 0;
	std::size_t filled = 0;		// read bytes in data, lines and past them
	// Not 0: the block is one line too long for the read buffer, cut to
	// this many bytes (the reader's overlong line; its rest is dropped).
	std::size_t overlong = 0;
	std::uint64_t bytes = 0;	// input bytes the block stands for
	std::string_view lines() const { return std::string_view(data.data(), size); }
};

class text_block_cutter {
public:
	// Blocks of about BLOCK bytes from SRC; a line of BUFFER bytes or more
	// is overlong, as in a line_source of that buffer.
	text_block_cutter(line_source &src, std::size_t block, std::size_t buffer);
	// The next block; false when the input has ended. Throws input_error
	// when the input cannot be read.
	bool next(text_block &b);

private:
	std::size_t fill(text_block &b, std::size_t have, std::size_t want);

	line_source &src_;
	std::size_t block_;
	std::size_t buffer_;
	char eol_;
	std::string carry_;		// read past the last block's last line end
	bool dropping_ = false;		// inside the dropped rest of an overlong line
	bool eof_ = false;
};

// What the parse of one block saw; lines are the block's own (1: its first).
struct text_block_counts {
	std::uint64_t lines = 0, events = 0, skipped = 0, malformed = 0;
	// Strict: the block's first bad line (0: none) and why; the parse
	// stopped there.
	std::uint64_t bad_line = 0;
	std::string reason;
	// The block's last line has no line end (the input's last line).
	bool cut_short = false;
	std::string first_name;		// of the block's first event
	// The tracer's lost-event notes among the lines, in order.
	struct lost_note {
		std::uint64_t line;	// the block's own
		std::uint32_t cpu;
		std::uint64_t events;	// 0: count unknown
	};
	std::vector<lost_note> lost;
};

class text_block_parser {
public:
	explicit text_block_parser(const text_block_input &in)
		: in_(in), ctx_(in.ctx), eol_(in.src->line_end())
	{
	}
	// Judges the lines of B into C, calling EMIT(ev, payload keys) for
	// each event, its line the block's own.
	template <class Emit>
	void parse(const text_block &b, text_block_counts &c, Emit &&emit);

private:
	void bad(text_block_counts &c, std::uint64_t line);

	const text_block_input &in_;
	line_context ctx_;
	char eol_;
	lf_line_index lf_index_;
};

template <class Emit>
void text_block_parser::parse(const text_block &b, text_block_counts &c, Emit &&emit)
{
	c = text_block_counts();
	if (b.overlong) {
		c.lines = c.skipped = 1;
		ctx_.reason = overlong_reason(b.overlong);
		bad(c, 1);
		return;
	}
	ctx_.limit = b.data.data() + b.filled + line_source::read_slack;
	static constexpr trace_event blank{};
	trace_event ev;
	// The verdict V on the block's line c.lines; false: the parse stops.
	auto take = [&](line_verdict v) __attribute__((always_inline)) {
		if (v == line_verdict::event) [[likely]] {
			ev.line = c.lines;
			if (!c.events++)
				c.first_name.assign(ev.name);
			emit(ev, ctx_.keys);
			return true;
		}
		c.skipped++;
		if (ctx_.lost_note) {
			ctx_.lost_note = false;
			c.lost.push_back({c.lines, ctx_.lost_cpu, ctx_.lost_events});
		}
		if (v == line_verdict::bad) {
			bad(c, c.lines);
			if (c.bad_line)
				return false;
		}
		return true;
	};
	const char *line_begin = b.data.data(), *lines_end = line_begin + b.size;
	// Raw tracefs text with LF line ends, the trace people record: its
	// lines found by lf_line_index and tried by the common-line parse
	// first, no line_source between (a block's lines are whole and in
	// memory: none is overlong). A line holding a '\r' (a stray line end)
	// and the last line without its '\n' are line_source's, below, as is
	// any other rendering.
	if (eol_ == '\n' && in_.rendering->format == trace_format::ftrace) {
		const char *base;
		std::size_t indexed;
		do {
			base = line_begin;
			indexed = lf_index_.index(base, lines_end);
			for (std::uint32_t lf : lf_index_) {
				std::string_view line(line_begin, base + lf - line_begin);
				line_begin = base + lf + 1;
				c.lines++;
				ev = blank;
				if (!take(common_ftrace_line(line, ev, ctx_) ? line_verdict::event
									     : uncommon_ftrace_line(line, ev, ctx_)))
					return;
			}
			// Again after the last line when the index ran out of room.
		} while (!lf_index_.stray_cr() && base + indexed != lines_end && line_begin != base);
		if (line_begin == lines_end)
			return;		// c.cut_short: the last line had its '\n'
	}
	auto src = line_source::from_memory(std::string_view(line_begin, lines_end - line_begin),
					     in_.src->name());
	src->assume_line_end(eol_);
	std::string_view line;
	while (src->next(line)) {
		c.lines++;
		ev = blank;
		if (!take(judge_line(*in_.rendering, *src, line, ev, ctx_)))
			return;
	}
	c.cut_short = !src->terminated();
}

}  // namespace timersim
