#include "sim/trace/timer_events_required.h"

namespace timersim {

namespace {

// What a trace of each format needs to hold, for the message.
const char *expected_events(trace_format f)
{
	switch (f) {
	case trace_format::ftrace:
		return "raw ftrace lines like 'TASK-PID [CPU] FLAGS SECONDS: timer_start: "
		       "timer=...' (tracefs with events/timer enabled)";
	case trace_format::trace_cmd_report:
		return "trace-cmd report lines like 'TASK-PID [CPU] SECONDS: timer_start: "
		       "timer=...' (trace-cmd record -e timer)";
	case trace_format::perf_script:
		return "perf script lines like 'COMM PID [CPU] SECONDS: timer:timer_start: "
		       "timer=...' (perf record -e 'timer:*')";
	case trace_format::trace_dat:
		return "timer_* records (trace-cmd record -e timer)";
	case trace_format::ctf:
		return "timer_* events (lttng enable-event -k 'timer_*')";
	case trace_format::auto_detect:
		break;
	}
	return "timer_* events";
}

std::string counted(std::uint64_t n, const char *what)
{
	return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

class timer_events_required final : public trace_reader {
public:
	timer_events_required(std::unique_ptr<trace_reader> r, const std::string &path,
			      trace_format looks_like)
		: r_(std::move(r)), path_(path), looks_like_(looks_like)
	{
	}

	bool next(trace_event &ev) override
	{
		if (r_->next(ev)) {
			if (!seen_timer_event_) {
				seen_timer_event_ = is_timer_event(ev.kind);
				if (first_name_.empty())
					first_name_ = ev.name;
			}
			return true;
		}
		if (!seen_timer_event_)
			throw input_error(path_, 0, reason());
		return false;
	}
	const reader_stats &stats() const override { return r_->stats(); }
	trace_format format() const override { return r_->format(); }
	unsigned declared_cpus() const override { return r_->declared_cpus(); }
	std::string clock() const override { return r_->clock(); }
	const char *unit() const override { return r_->unit(); }
	symbol_fit symbols_fit() const override { return r_->symbols_fit(); }
	text_block_input *block_input() override { return r_->block_input(); }
	void blocks_done(const reader_stats &st, std::string_view first_name,
			 bool timer_seen) override
	{
		r_->blocks_done(st, first_name, timer_seen);
		first_name_ = first_name;
		if (!timer_seen)
			throw input_error(path_, 0, reason());
	}

private:
	std::string reason() const
	{
		const reader_stats &st = r_->stats();
		trace_format f = r_->format();
		bool binary = f == trace_format::trace_dat || f == trace_format::ctf;
		std::string why = "no timer events in " +
				  counted(st.lines, binary ? "record" : "line") + " read as " +
				  trace_format_name(f) + " (";
		if (st.events)
			why += counted(st.events, "event") + ", none a timer_* event; the first is '" +
			       first_name_ + "'";
		else if (st.malformed)
			why += counted(st.malformed, "malformed line") + ", skipped";
		else
			why += "headers, comments or blank lines only";
		why += "): expected ";
		why += expected_events(f);
		if (looks_like_ != trace_format::auto_detect && looks_like_ != f)
			why += std::string("; the content looks like ") +
			       trace_format_name(looks_like_) + ": try --format " +
			       trace_format_name(looks_like_) + " or auto";
		return why;
	}

	std::unique_ptr<trace_reader> r_;
	std::string path_;
	trace_format looks_like_;
	bool seen_timer_event_ = false;
	std::string first_name_;
};

}  // namespace

std::unique_ptr<trace_reader> require_timer_events(std::unique_ptr<trace_reader> reader,
						   const std::string &path,
						   trace_format looks_like)
{
	return std::make_unique<timer_events_required>(std::move(reader), path, looks_like);
}

}  // namespace timersim
