// Names of event kinds and trace formats, and the input_error message shape.
#include <string>

#include "sim/trace/event.h"
#include "sim/trace/reader.h"

namespace timersim {

const char *event_kind_name(event_kind k)
{
	switch (k) {
	case event_kind::timer_init:		return "timer_init";
	case event_kind::timer_start:		return "timer_start";
	case event_kind::timer_cancel:		return "timer_cancel";
	case event_kind::timer_expire_entry:	return "timer_expire_entry";
	case event_kind::timer_expire_exit:	return "timer_expire_exit";
	case event_kind::timer_base_idle:	return "timer_base_idle";
	case event_kind::hrtimer:		return "hrtimer";
	case event_kind::softirq_entry:		return "softirq_entry";
	case event_kind::softirq_exit:		return "softirq_exit";
	case event_kind::softirq_raise:		return "softirq_raise";
	case event_kind::irq_entry:		return "irq_entry";
	case event_kind::irq_exit:		return "irq_exit";
	case event_kind::tick_stop:		return "tick_stop";
	case event_kind::cpu_idle:		return "cpu_idle";
	case event_kind::tmigr:			return "tmigr";
	case event_kind::other:			return "other";
	}
	return "other";
}

namespace {
struct format_name {
	trace_format format;
	const char *name;
};
constexpr format_name format_names[] = {
	{trace_format::auto_detect, "auto"},
	{trace_format::ftrace, "ftrace"},
	{trace_format::trace_cmd_report, "trace-cmd-report"},
	{trace_format::perf_script, "perf-script"},
	{trace_format::trace_dat, "trace-dat"},
	{trace_format::ctf, "ctf"},
};
}  // namespace

const char *trace_format_name(trace_format f)
{
	for (const auto &fn : format_names)
		if (fn.format == f)
			return fn.name;
	return "auto";
}

bool parse_trace_format(const std::string &name, trace_format &out)
{
	for (const auto &fn : format_names)
		if (name == fn.name) {
			out = fn.format;
			return true;
		}
	return false;
}

input_error::input_error(const std::string &msg, const std::string &file, std::uint64_t line,
			 const std::string &reason)
	: std::runtime_error(msg), file_(file), line_(line), reason_(reason)
{
}

input_error::input_error(const std::string &file, std::uint64_t line, const std::string &reason)
	: input_error(line ? file + ":" + std::to_string(line) + ": " + reason : file + ": " + reason,
		      file, line, reason)
{
}

input_error input_error::at_offset(const std::string &file, std::uint64_t offset,
				   const std::string &reason)
{
	return input_error(file + ": offset " + std::to_string(offset) + ": " + reason, file, 0,
			   reason);
}

}  // namespace timersim
