// The columns in front of the event in the three text renderings:
//
//   ftrace     TASK-PID [(TGID)] [CPU] FLAGS TIMESTAMP: event: payload
//   trace-cmd  TASK-PID [CPU] TIMESTAMP: event:<padding> payload
//   perf       COMM PID [CPU] TIMESTAMP: [PERIOD] subsys:event: payload
//
// The task name may hold blanks, dashes and brackets, so nothing is read
// out of it: the line is anchored on the first " [NNN] " that is followed,
// within a few columns (the flag block), by a "SECONDS.FRACTION:" token.
#pragma once

#include <cstdint>
#include <string_view>

#include "sim/trace/event.h"
#include "sim/trace/text_fields.h"

namespace timersim {

// The views are not trimmed: only content detection looks at them.
struct line_head {
	std::string_view task;		// everything before the CPU column
	std::uint32_t cpu = 0;
	std::string_view between;	// between CPU column and timestamp (flag block)
	std::uint64_t ts_ns = 0;
	std::string_view rest;		// after "TIMESTAMP:", blanks skipped
};

// TASK (everything before the CPU column) names the idle task: its pid,
// the last number, is 0 ("<idle>-0", perf script's "swapper     0", "0/0").
inline bool is_idle_task(std::string_view task)
{
	while (!task.empty() && (task.back() == ' ' || task.back() == '\t'))
		task.remove_suffix(1);
	return task.size() >= 2 && task.back() == '0' &&
	       (task[task.size() - 2] == '-' || task[task.size() - 2] == ' ' || task[task.size() - 2] == '\t' ||
		task[task.size() - 2] == '/');
}

// False, with ctx.reason set, when LINE has no CPU column or no timestamp.
bool split_line_head(std::string_view line, line_head &h, line_context &ctx);

// How the event name is printed after the timestamp.
enum class name_style {
	bare,		// "timer_start:" right after the timestamp
	subsystem,	// perf: "timer:timer_start:", maybe after extra columns
};

// Takes the event name off the front of REST (leaving the payload). False,
// with ctx.reason set, when there is none. SUBSYSTEM: whether a "subsys:"
// came off with it (name_style::subsystem only).
bool take_event_name(std::string_view &rest, std::string_view &name, name_style style,
		     line_context &ctx, bool *subsystem = nullptr);

// split_line_head + take_event_name + parse_payload: one event line.
line_verdict parse_event_line(std::string_view line, trace_event &ev, name_style style,
			      line_context &ctx);

// A note, not an event, that the tracer lost events on a CPU where it
// stands (its ring buffer overran): tracefs prints "CPU:1 [LOST 1234
// EVENTS]" (or "[LOST EVENTS]", count unknown), trace-cmd report "CPU:1
// [1234 EVENTS DROPPED]" (or "[EVENTS DROPPED]"), perf script a
// "PERF_RECORD_LOST lost 1234" record in the CPU's columns. True, with
// ctx.lost_* set, when LINE (blanks skipped) is one.
bool take_lost_events_note(std::string_view line, line_context &ctx);

}  // namespace timersim
