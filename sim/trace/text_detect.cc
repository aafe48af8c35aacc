// Which text rendering a file is, from its first lines:
//   ftrace     "# tracer:" header, or  TASK-PID [000] d..1.  781.248872: event:
//   trace-cmd  "cpus=N" first line, or TASK-PID [001]  781.248872: event:   (no flags)
//   perf       COMM PID [001]  781.248872:  timer:event:
#include "sim/trace/text_detect.h"

#include "sim/trace/line_source.h"
#include "sim/trace/text_columns.h"

namespace timersim {

namespace {

constexpr int max_voting_lines = 200;

// How the task column ends: "bash-1234" (ftrace, trace-cmd), "bash 1234"
// or "bash 1234/1234" (perf), "bash-1234 ( 1234)" (ftrace with tgid).
enum class task_shape { dash_pid, blank_pid, tgid, other };

task_shape shape_of_task(std::string_view task)
{
	if (task.ends_with(")"))
		return task_shape::tgid;
	std::size_t i = task.size();
	while (i && (is_digit(task[i - 1]) || task[i - 1] == '/'))
		i--;
	if (i == task.size() || i == 0)
		return task_shape::other;
	if (task[i - 1] == '-')
		return task_shape::dash_pid;
	return is_blank(task[i - 1]) ? task_shape::blank_pid : task_shape::other;
}

// One event line's vote; auto_detect when the line is not an event line.
trace_format vote_of(std::string_view line)
{
	line_context ctx;
	line_head h;
	if (!split_line_head(line, h, ctx))
		return trace_format::auto_detect;
	std::string_view rest = h.rest, name;
	bool subsystem = false;
	if (!take_event_name(rest, name, name_style::subsystem, ctx, &subsystem))
		return trace_format::auto_detect;
	task_shape task = shape_of_task(trim_right(skip_blanks(h.task)));
	if (subsystem || task == task_shape::blank_pid)
		return trace_format::perf_script;
	if (!trim_right(h.between).empty() || task == task_shape::tgid)
		return trace_format::ftrace;
	return trace_format::trace_cmd_report;
}

}  // namespace

const char *text_head_problem(std::string_view head)
{
	if (head.empty())
		return "empty file";
	std::size_t control = 0;
	for (unsigned char c : head) {
		if (c == 0)
			return "binary data (NUL bytes), not a text trace";
		if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' &&
		     c != 0x1b) || c == 0x7f)
			control++;
	}
	if (control > head.size() / 100)
		return "binary data (control characters), not a text trace";
	return nullptr;
}

rendering_header find_rendering_header(std::string_view head)
{
	char eol = line_source::line_end_in(head);
	std::uint64_t number = 0;
	// The headers come before the first event line.
	while (!head.empty()) {
		std::size_t nl = head.find(eol);
		std::string_view line = trim_right(head.substr(0, nl));
		if (!line.empty() && line.back() == '\r')
			line.remove_suffix(1);
		head = nl == head.npos ? std::string_view() : head.substr(nl + 1);
		number++;
		if (skip_blanks(line).empty())
			continue;
		if (number == 1 && line.starts_with("cpus="))
			return {trace_format::trace_cmd_report, number, line};
		if (line[0] != '#')
			break;
		if (line.starts_with("# tracer:"))
			return {trace_format::ftrace, number, line};
		if (line.find("captured on") != line.npos || line.find("perf version") != line.npos)
			return {trace_format::perf_script, number, line};
	}
	return {};
}

trace_format detect_text_format(std::string_view head, std::string &why)
{
	int votes[3] = {};
	int lines = 0;
	bool first = true;
	char eol = line_source::line_end_in(head);
	while (!head.empty() && lines < max_voting_lines) {
		std::size_t nl = head.find(eol);
		std::string_view line = trim_right(head.substr(0, nl));
		if (!line.empty() && line.back() == '\r')
			line.remove_suffix(1);
		head = nl == head.npos ? std::string_view() : head.substr(nl + 1);
		if (skip_blanks(line).empty())
			continue;
		if (line.starts_with("# tracer:"))
			return trace_format::ftrace;
		if (first && line.starts_with("cpus="))
			return trace_format::trace_cmd_report;
		first = false;
		if (line[0] == '#') {
			if (line.find("captured on") != line.npos ||
			    line.find("perf version") != line.npos)
				return trace_format::perf_script;
			continue;
		}
		lines++;
		switch (vote_of(line)) {
		case trace_format::ftrace:		votes[0]++; break;
		case trace_format::trace_cmd_report:	votes[1]++; break;
		case trace_format::perf_script:		votes[2]++; break;
		default:				break;
		}
	}
	if (votes[0] + votes[1] + votes[2] == 0) {
		why = "not a trace this tool knows: no line looks like raw ftrace, "
		      "trace-cmd report or perf script output";
		return trace_format::auto_detect;
	}
	if (votes[0] >= votes[1] && votes[0] >= votes[2])
		return trace_format::ftrace;
	return votes[1] >= votes[2] ? trace_format::trace_cmd_report : trace_format::perf_script;
}

}  // namespace timersim
