// `perf script` of `perf record -e 'timer:*' -a`:
//
//      rcu_preempt    15 [001]   563.988448:        timer:timer_start: timer=0xffffc9000007fdf8 ...
//
// COMM PID (or PID/TID) [CPU] TIMESTAMP: then the event with its subsystem.
// --ns prints 9 decimals; -F variants add columns (a period before the
// event); --header adds "# ..." lines. The comm may hold blanks.
#include "sim/trace/text_columns.h"
#include "sim/trace/text_reader.h"

namespace timersim {

namespace {

// perf script --header: "# nrcpus avail : 2"
void note_header(std::string_view s, line_context &ctx)
{
	constexpr std::string_view key = "# nrcpus avail :";
	if (!s.starts_with(key))
		return;
	std::uint32_t cpus;
	if (parse_u32(trim_right(skip_blanks(s.substr(key.size()))), cpus))
		ctx.cpus = cpus;
}

// What perf writes about lost or unordered data when stderr went along.
// Its lost records (--show-lost-events) count per CPU.
bool is_perf_note(std::string_view s, line_context &ctx)
{
	return take_lost_events_note(s, ctx) || s.starts_with("Warning:") ||
	       s.starts_with("Processed ") || s.starts_with("Check IO/CPU overload") ||
	       s.find("PERF_RECORD_") != s.npos;
}

line_verdict parse_line(std::string_view line, trace_event &ev, line_context &ctx)
{
	std::string_view s = skip_blanks(line);
	if (s.empty())
		return line_verdict::skip;
	if (line[0] == '#') {
		note_header(s, ctx);
		return line_verdict::skip;
	}
	line_verdict v = parse_event_line(s, ev, name_style::subsystem, ctx);
	if (v == line_verdict::bad && is_perf_note(s, ctx))
		return line_verdict::skip;
	// --show-task-events and friends: perf's own records, not trace events.
	if (v == line_verdict::event && ev.name.starts_with("PERF_RECORD_")) {
		take_lost_events_note(s, ctx);
		return line_verdict::skip;
	}
	return v;
}

}  // namespace

// perf prints through libtraceevent, with the same flags=D|P|I for every
// timer as trace-cmd report (see trace_cmd_report.cc): names dropped.
const text_rendering perf_script_rendering = {
	trace_format::perf_script,
	parse_line,
	{.trust_flag_names = false, .strip_function_offset = false},
};

}  // namespace timersim
