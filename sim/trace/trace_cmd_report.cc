// `trace-cmd report` of a trace.dat:
//
//   cpus=2
//             sed-12548 [001]   827.479273: timer_start:          timer=0xffff88810243b310 ...
//
// No flag column (unless report -l), the event name padded to 20 columns,
// pointers with 0x. Its hrtimer plugin rewrites hrtimer_start and
// hrtimer_expire_entry (fields reordered, function=sym/0x0); the replay only
// counts hrtimer events, so that costs nothing.
#include "sim/trace/text_columns.h"
#include "sim/trace/text_reader.h"

namespace timersim {

namespace {

bool take_cpus_header(std::string_view s, line_context &ctx)
{
	if (!s.starts_with("cpus="))
		return false;
	std::uint32_t cpus;
	if (parse_u32(trim_right(s.substr(5)), cpus))
		ctx.cpus = cpus;
	return true;
}

// "CPU 3 is empty", "version = 6", "CPU:1 [12 EVENTS DROPPED]": lines
// trace-cmd prints about the file.
bool is_report_note(std::string_view s, line_context &ctx)
{
	return (s.starts_with("CPU ") && s.ends_with(" is empty")) ||
	       s.starts_with("version = ") || take_lost_events_note(s, ctx);
}

line_verdict parse_line(std::string_view line, trace_event &ev, line_context &ctx)
{
	std::string_view s = skip_blanks(line);
	if (s.empty() || line[0] == '#')
		return line_verdict::skip;
	line_verdict v = parse_event_line(s, ev, name_style::bare, ctx);
	if (v == line_verdict::bad && (take_cpus_header(s, ctx) || is_report_note(s, ctx)))
		return line_verdict::skip;
	return v;
}

}  // namespace

// libtraceevent prints flags=D|P|I for every 4.11+ timer_start, whatever the
// kernel's value: the same recording shows "flags=" in tracefs text and
// "flags=D|P|I" here (../shared/traces/linux-6.18-http, trace.txt against
// trace-cmd-report.txt). So the names are checked and dropped: EF_FLAGS
// stays clear. The 4.2-4.10 form flags=0x%08x is a plain number and is kept.
const text_rendering trace_cmd_report_rendering = {
	trace_format::trace_cmd_report,
	parse_line,
	{.trust_flag_names = false, .strip_function_offset = true},
};

}  // namespace timersim
