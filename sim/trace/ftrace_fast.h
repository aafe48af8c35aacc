// The common line of raw tracefs text, read in one pass:
//
//   TASK-PID [CPU] FLAGS SECONDS.FRACTION: name: key=value key=value ...
//
// A gigabyte of trace is some seven million such lines, and the general
// parse (text_columns.h, text_fields.h) spends most of its work on what it
// must not assume: which '[' is the CPU column, how many flag columns
// there are, which event a name is, in which order the keys come. Here the
// first '[' is the CPU column, one flag token or none stands before the
// timestamp, the name is one of the timer, hrtimer, softirq and x86 vector
// events, and the keys come in the order the kernel prints them
// (../shared/docs/trace-formats.md).
//
// Anything else, and every value that does not read cleanly, is left to
// the general parse, which stays the one judge of odd lines: their errors,
// skips and messages are its own. What this parse accepts it fills exactly
// as parse_event_line(skip_blanks(line), ev, name_style::bare, ctx) would.
#pragma once

#include <string_view>

#include "sim/trace/event.h"
#include "sim/trace/text_fields.h"

namespace timersim {

// LINE as read (blanks in front included; not a '#' header), EV blank.
// True: an event, EV and ctx.keys set as the general parse sets them. False: not a line of the
// common shape; EV and ctx.keys may hold parts of it (reset EV before the
// general parse).
bool parse_common_ftrace_line(std::string_view line, trace_event &ev, line_context &ctx);

// The same for any line of raw tracefs text: false for a '#' header or an
// empty line too (ftrace_rendering's parse first tries this).
inline bool common_ftrace_line(std::string_view line, trace_event &ev, line_context &ctx)
{
	return !line.empty() && line[0] != '#' && parse_common_ftrace_line(line, ev, ctx);
}

}  // namespace timersim
