// The reader loop shared by the text renderings.
#include "sim/trace/text_reader.h"

#include "sim/trace/irq_events.h"
#include "sim/trace/symbols.h"
#include "sim/trace/text_blocks.h"
#include "sim/trace/text_detect.h"

namespace timersim {

namespace {

constexpr int header_lines = 64;	// how far the constructor looks for #P:/cpus=

const text_rendering &rendering_of(trace_format fmt)
{
	switch (fmt) {
	case trace_format::trace_cmd_report:	return trace_cmd_report_rendering;
	case trace_format::perf_script:		return perf_script_rendering;
	default:				return ftrace_rendering;
	}
}

class text_reader final : public trace_reader {
public:
	text_reader(std::unique_ptr<line_source> src, const text_rendering &r,
		    const reader_options &opt)
		: src_(std::move(src)), r_(r), lenient_(opt.lenient)
	{
		ctx_.dialect = r.dialect;
		ctx_.limit = src_->readable_end();
		if (lenient_)
			src_->tolerate_cut();
		if (!opt.symbols.empty()) {
			symbols_.load(opt.symbols);
			ctx_.symbols = &symbols_;
		}
		read_header();
	}

	bool next(trace_event &ev) override;
	const reader_stats &stats() const override { return stats_; }
	trace_format format() const override { return r_.format; }
	unsigned declared_cpus() const override { return ctx_.cpus; }
	symbol_fit symbols_fit() const override { return symbols_.fit(); }
	text_block_input *block_input() override;
	void blocks_done(const reader_stats &st, std::string_view, bool) override { stats_ = st; }

private:
	void read_header();
	line_verdict judge(std::string_view line, trace_event &ev);

	std::unique_ptr<line_source> src_;
	const text_rendering &r_;
	bool lenient_;
	line_context ctx_;
	symbol_table symbols_;
	reader_stats stats_;
	generation_check generation_;
	lost_event_notes lost_;
	timer_irq_memory timer_irqs_;	// irq_handler_exit has no name= to tell
	text_block_input blocks_;
};

// The CPU count is in the header (#P:2, cpus=2), and the replay wants it
// before the first event: read it from the buffered head, consuming nothing.
void text_reader::read_header()
{
	char eol = src_->line_end();
	std::string_view head = src_->head(detect_head_bytes);
	line_context scratch;
	scratch.dialect = ctx_.dialect;
	for (int n = 0; n < header_lines && !head.empty(); n++) {
		std::size_t nl = head.find(eol);
		std::string_view line = head.substr(0, nl);
		head = nl == head.npos ? std::string_view() : head.substr(nl + 1);
		if (line.ends_with('\r'))	// CRLF
			line.remove_suffix(1);
		trace_event ev;
		if (r_.parse(line, ev, scratch) == line_verdict::event)
			break;
	}
	ctx_.cpus = scratch.cpus;
}

line_verdict text_reader::judge(std::string_view line, trace_event &ev)
{
	line_verdict v = judge_line(r_, *src_, line, ev, ctx_);
	if (v == line_verdict::event && generation_check::judges(ev.kind) &&
	    !generation_.pass(ev.kind, ev.hrtimer, ctx_.keys, src_->line_no(), ctx_.reason)) {
		if (!src_->terminated())
			note_cut_short(ctx_.reason);
		v = line_verdict::bad;
	}
	return v;
}

text_block_input *text_reader::block_input()
{
	if (src_->compressed() || stats_.lines)
		return nullptr;
	blocks_.src = src_.get();
	blocks_.rendering = &r_;
	blocks_.ctx.dialect = ctx_.dialect;
	blocks_.ctx.symbols = ctx_.symbols;
	blocks_.lenient = lenient_;
	return &blocks_;
}

bool text_reader::next(trace_event &ev)
{
	// Copied from a constant: `ev = trace_event{}` builds the temporary
	// with rep stos, whose start-up costs more than the copy of a line's
	// fields.
	static constexpr trace_event blank{};
	std::string_view line;
	while (src_->next(line)) {
		stats_.lines++;
		ev = blank;
		line_verdict v = judge(line, ev);
		stats_.bytes = src_->bytes();
		if (v == line_verdict::event) {
			ev.line = src_->line_no();
			timer_irqs_.settle(ev);
			if (lost_.follows_note(ev.cpu))
				ev.has |= EF_AFTER_LOSS;
			stats_.events++;
			return true;
		}
		if (ctx_.lost_note) {
			ctx_.lost_note = false;
			if (!lost_.note(ctx_.lost_cpu, ctx_.lost_events, stats_.lost_events,
					stats_.lost_cpus)) {
				v = line_verdict::bad;
				ctx_.reason = lost_events_overflow;
			}
		}
		stats_.skipped++;
		if (v == line_verdict::bad) {
			if (!lenient_)
				throw input_error(src_->name(), src_->line_no(), ctx_.reason);
			stats_.malformed++;
		}
	}
	stats_.bytes = src_->bytes();
	stats_.truncated_at = src_->cut_at();
	return false;
}

bool is_text_format(trace_format fmt)
{
	return fmt == trace_format::ftrace || fmt == trace_format::trace_cmd_report ||
	       fmt == trace_format::perf_script;
}

// An hrtimer event's name for the messages: both names of init.
const char *hrtimer_event_name(hrtimer_event e)
{
	switch (e) {
	case hrtimer_event::init:		return "hrtimer_init/setup";
	case hrtimer_event::start:		return "hrtimer_start";
	case hrtimer_event::cancel:		return "hrtimer_cancel";
	case hrtimer_event::expire_entry:	return "hrtimer_expire_entry";
	case hrtimer_event::expire_exit:	return "hrtimer_expire_exit";
	case hrtimer_event::rearm:		return "hrtimer_rearm";
	case hrtimer_event::start_expired:	return "hrtimer_start_expired";
	case hrtimer_event::none:
	case hrtimer_event::other:		break;
	}
	return "hrtimer event";
}

}  // namespace

std::string overlong_reason(std::size_t size)
{
	return "line longer than the " + std::to_string(size) + "-byte read buffer";
}

void note_cut_short(std::string &reason)
{
	reason.insert(0, "last line cut short (no newline at the end): ");
}

bool generation_check::first_or_short(std::size_t k, event_kind kind, hrtimer_event op,
				      std::uint32_t keys, std::uint64_t line, std::string &reason)
{
	if (!first_keys_[k]) {
		first_keys_[k] = keys | seen;
		first_line_[k] = line;
		return true;
	}
	std::uint32_t missing = first_keys_[k] & ~seen & ~keys;
	if (!missing)
		return true;
	// A timer event's name is its kind's (kind_of_event); an hrtimer
	// event's, its op's.
	const char *name = kind == event_kind::hrtimer ? hrtimer_event_name(op) : event_kind_name(kind);
	reason.assign(name);
	reason.append(": missing ").append(payload_key_name(missing));
	reason.append(" (the first ").append(name).append(", line ");
	reason.append(std::to_string(first_line_[k])).append(", has it)");
	return false;
}

std::unique_ptr<trace_reader> make_text_reader(std::unique_ptr<line_source> src,
					       trace_format fmt, const reader_options &opt)
{
	if (!is_text_format(fmt))
		throw input_error(src->name(), 0,
				  std::string(trace_format_name(fmt)) + " is not a text format");
	return std::make_unique<text_reader>(std::move(src), rendering_of(fmt), opt);
}

std::unique_ptr<trace_reader> make_text_reader_from_memory(std::string_view data,
							   const std::string &name,
							   trace_format fmt,
							   const reader_options &opt,
							   std::size_t buffer)
{
	return make_text_reader(line_source::from_memory(data, name, buffer), fmt, opt);
}

}  // namespace timersim
