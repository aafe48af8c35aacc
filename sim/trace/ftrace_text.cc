// Raw tracefs text (/sys/kernel/tracing/trace, trace_pipe):
//
//   # tracer: nop
//   # entries-in-buffer/entries-written: 34165/34165   #P:2
//   #           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
//        rcu_preempt-15      [000] d..1.   781.248872: timer_start: timer=...
//
// The flag block has 4 columns up to about 5.15, 5 after, more on
// PREEMPT_RT, none with options/irq-info off; options/record-tgid adds a
// "(TGID)" column after TASK-PID. text_columns.cc copes with all of them.
#include "sim/trace/ftrace_fast.h"
#include "sim/trace/text_columns.h"
#include "sim/trace/text_reader.h"

namespace timersim {

namespace {

// "# entries-in-buffer/entries-written: 63621/63621   #P:1"
void note_header(std::string_view line, line_context &ctx)
{
	std::size_t p = line.find("#P:");
	if (p == std::string_view::npos)
		return;
	std::string_view n = line.substr(p + 3);
	std::size_t end = 0;
	while (end < n.size() && is_digit(n[end]))
		end++;
	std::uint32_t cpus;
	if (parse_u32(n.substr(0, end), cpus))
		ctx.cpus = cpus;
}

line_verdict parse_line(std::string_view line, trace_event &ev, line_context &ctx)
{
	// Nine lines in ten of a timer trace have the common shape; the rest,
	// and every line it is unsure of, get the general parse.
	if (common_ftrace_line(line, ev, ctx))
		return line_verdict::event;
	return uncommon_ftrace_line(line, ev, ctx);
}

}  // namespace

line_verdict uncommon_ftrace_line(std::string_view line, trace_event &ev, line_context &ctx)
{
	static constexpr trace_event blank{};
	ev = blank;
	std::string_view s = skip_blanks(line);
	if (s.empty())
		return line_verdict::skip;
	// Column 0 only: a task name may start with '#' further right.
	if (line[0] == '#') {	// header, "##### CPU 1 buffer started ####"
		note_header(s, ctx);
		return line_verdict::skip;
	}
	line_verdict v = parse_event_line(s, ev, name_style::bare, ctx);
	return v == line_verdict::bad && take_lost_events_note(s, ctx) ? line_verdict::skip : v;
}

// The kernel prints flags=M|D|P|I itself: trusted.
const text_rendering ftrace_rendering = {
	trace_format::ftrace,
	parse_line,
	{.trust_flag_names = true, .strip_function_offset = false},
};

}  // namespace timersim
