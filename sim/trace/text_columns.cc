// Column splitting shared by the ftrace, trace-cmd report and perf script
// readers (and by content detection).
#include "sim/trace/text_columns.h"

namespace timersim {

namespace {

// Tokens allowed between the CPU column and the timestamp: the flag block
// ("d..1.", PREEMPT_RT's wider ones); a little slack for variants.
constexpr int max_between = 3;

// "[NNN]" at LINE[lb], followed by a blank. Sets CPU and returns the index
// just past the ']', or 0.
std::size_t cpu_column_at(std::string_view line, std::size_t lb, std::uint32_t &cpu)
{
	const char *digits = line.data() + lb + 1, *end = line.data() + line.size();
	auto [stop, ec] = decimal_prefix(digits, end, cpu);
	if (ec != std::errc() || stop - digits > 9 || end - stop < 2 || *stop != ']' ||
	    !is_blank(stop[1]))
		return 0;
	return std::size_t(stop + 1 - line.data());
}

bool is_cpu_token(std::string_view tok)
{
	if (tok.size() < 3 || tok.front() != '[' || tok.back() != ']')
		return false;
	for (char c : tok.substr(1, tok.size() - 2))
		if (!is_digit(c))
			return false;
	return true;
}

// After the CPU column: [flag block] TIMESTAMP: ... Fills the rest of H.
bool find_timestamp(std::string_view after, line_head &h, const char *limit)
{
	std::string_view s = skip_blanks(after);
	const char *between = s.data();
	for (int n = 0; n <= max_between && !s.empty(); n++) {
		const char *tok_start = s.data();
		std::string_view tok = next_token(s);
		if (is_cpu_token(tok))
			return false;	// a later [NNN]: the one before was in the task name
		if (tok.back() != ':')
			continue;
		if (!parse_timestamp(tok.substr(0, tok.size() - 1), h.ts_ns, limit))
			return false;
		h.between = std::string_view(between, tok_start - between);
		h.rest = s;
		return true;
	}
	return false;
}

// A timer event printed the way another rendering prints it: a forced
// --format that is not the file's.
line_verdict wrong_rendering(line_context &ctx, std::string_view name, const char *how)
{
	ctx.reason.assign("event '").append(name).append("' ").append(how);
	return line_verdict::bad;
}

}  // namespace

bool split_line_head(std::string_view line, line_head &h, line_context &ctx)
{
	bool had_cpu = false;
	const char *begin = line.data(), *end = begin + line.size();
	for (const char *at = find_byte(begin, end, '['); at != end;
	     at = find_byte(at + 1, end, '[')) {
		std::size_t lb = std::size_t(at - begin);
		if (lb == 0 || !is_blank(line[lb - 1]))
			continue;
		std::size_t past = cpu_column_at(line, lb, h.cpu);
		if (!past)
			continue;
		had_cpu = true;
		if (find_timestamp(line.substr(past), h, ctx.limit)) {
			h.task = line.substr(0, lb);
			return true;
		}
	}
	ctx.reject(had_cpu ? "timestamp missing" : "no [CPU] column");
	return false;
}

bool take_event_name(std::string_view &rest, std::string_view &name, name_style style,
		     line_context &ctx, bool *subsystem)
{
	int extra = style == name_style::subsystem ? max_between : 0;
	for (int n = 0; n <= extra; n++) {
		std::string_view tok = next_token(rest);
		if (tok.empty())
			break;
		if (tok.back() != ':' || tok.size() < 2)
			continue;	// perf -F ...,period: a count before the event
		tok.remove_suffix(1);
		if (style == name_style::subsystem) {
			std::size_t colon = tok.rfind(':');
			if (colon != std::string_view::npos)
				tok.remove_prefix(colon + 1);
			if (subsystem)
				*subsystem = colon != std::string_view::npos;
		}
		if (tok.empty())
			break;
		name = tok;
		return true;
	}
	ctx.reject("line truncated: no event name");
	return false;
}

line_verdict parse_event_line(std::string_view line, trace_event &ev, name_style style,
			      line_context &ctx)
{
	line_head h;
	std::string_view name;
	if (!split_line_head(line, h, ctx))
		return line_verdict::bad;
	bool subsystem = false;
	if (!take_event_name(h.rest, name, style, ctx, &subsystem))
		return line_verdict::bad;
	ev.name = name;
	ev.kind = kind_of_event(name);
	if (style == name_style::subsystem && !subsystem && ev.kind != event_kind::other)
		return wrong_rendering(ctx, name, "without its 'timer:' subsystem, which perf "
						  "script prints: not perf script output");
	if (style == name_style::bare && ev.kind == event_kind::other)
		if (std::size_t colon = name.rfind(':'); colon != std::string_view::npos &&
		    kind_of_event(name.substr(colon + 1)) != event_kind::other)
			return wrong_rendering(ctx, name, "with its subsystem, as perf script "
							  "prints it: not ftrace or trace-cmd "
							  "report output");
	ev.cpu = h.cpu;
	ev.ts_ns = h.ts_ns;
	ev.idle_task = is_idle_task(h.task);
	ev.has |= EF_TIMESTAMP;
	return parse_payload(h.rest, ev, ctx);
}

namespace {

bool lost_note(line_context &ctx, std::uint32_t cpu, std::uint64_t events)
{
	ctx.lost_note = true;
	ctx.lost_cpu = cpu;
	ctx.lost_events = events;
	return true;
}

// perf script: "COMM PID [CPU] TIMESTAMP: PERF_RECORD_LOST lost 1234".
bool take_perf_lost_record(std::string_view line, line_context &ctx)
{
	std::size_t at = line.find("PERF_RECORD_LOST");
	if (at == line.npos)
		return false;
	line_context scratch;
	line_head h;
	if (!split_line_head(line, h, scratch))
		return false;
	std::string_view rest = line.substr(at);
	next_token(rest);	// PERF_RECORD_LOST[_SAMPLES]
	std::uint64_t events = 0;
	if (next_token(rest) != "lost" || !parse_u64(trim_right(next_token(rest)), events))
		return false;
	return lost_note(ctx, h.cpu, events);
}

}  // namespace

bool take_lost_events_note(std::string_view line, line_context &ctx)
{
	line = trim_right(skip_blanks(line));
	if (!line.starts_with("CPU:"))
		return take_perf_lost_record(line, ctx);
	std::string_view rest = line.substr(4);
	std::size_t blank = rest.find(' ');
	std::uint32_t cpu;
	if (blank == rest.npos || !parse_u32(rest.substr(0, blank), cpu))
		return false;
	std::string_view note = skip_blanks(rest.substr(blank));
	if (!note.starts_with('[') || !note.ends_with(']'))
		return false;
	note = note.substr(1, note.size() - 2);
	// The count stands between the words tracefs or trace-cmd put around it.
	std::string_view count;
	if (note == "LOST EVENTS" || note == "EVENTS DROPPED")
		return lost_note(ctx, cpu, 0);
	if (note.starts_with("LOST ") && note.ends_with(" EVENTS"))
		count = note.substr(5, note.size() - 5 - 7);
	else if (note.ends_with(" EVENTS DROPPED"))
		count = note.substr(0, note.size() - 15);
	std::uint64_t events;
	if (!parse_u64(count, events))
		return false;
	return lost_note(ctx, cpu, events);
}

}  // namespace timersim
