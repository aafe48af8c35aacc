#include "sim/whatif/whatif.h"

#include <fmt/format.h>

#include "sim/base/errors.h"
#include "sim/stream/event_stream.h"
#include "sim/stream/trace_shape.h"
#include "sim/report/report_writers.h"
#include "sim/report/text_table.h"
#include "sim/whatif/hz_rescale.h"

namespace timersim {

recorded_clock probe_recorded_clock(const std::string &path, trace_format fmt, const reader_options &ropt,
				    unsigned hz, unsigned word_bits)
{
	recorded_clock c;
	std::unique_ptr<trace_reader> reader = open_trace(path, fmt, ropt);
	interner names;
	event_stream stream(*reader, names);
	trace_shape shape = infer_trace_shape(stream, reader->declared_cpus());
	c.hz = hz ? hz : shape.hz;
	c.word_bits = word_bits ? word_bits : shape.word_bits ? shape.word_bits : 64;
	if (!c.hz)
		throw usage_error(path + ": --what-if-hz needs the recorded HZ, which the trace does not show "
					 "(too short, or no timestamps): give --hz");
	return c;
}

std::unique_ptr<trace_reader> open_what_if(const std::string &path, trace_format fmt, const reader_options &ropt,
					   const recorded_clock &clock, unsigned to_hz)
{
	return make_hz_rescale_reader(open_trace(path, fmt, ropt), clock.hz, to_hz, clock.word_bits);
}

what_if_reports replay_what_if(const std::string &path, trace_format fmt, const reader_options &ropt,
			       const replay_options &opt, unsigned to_hz)
{
	recorded_clock clock = probe_recorded_clock(path, fmt, ropt, opt.hz, opt.word_bits);
	what_if_reports r;
	{
		std::unique_ptr<trace_reader> reader = open_trace(path, fmt, ropt);
		r.recorded = replay_trace(*reader, path, opt);
	}
	std::unique_ptr<trace_reader> reader = open_what_if(path, fmt, ropt, clock, to_hz);
	r.what_if = replay_trace(*reader, path, what_if_options(opt, clock, to_hz));
	return r;
}

replay_options what_if_options(const replay_options &opt, const recorded_clock &clock, unsigned to_hz)
{
	replay_options at = opt;
	if (to_hz != clock.hz) {
		at.hz = to_hz;
		at.word_bits = clock.word_bits;
		// The trace's ticks are those of a HZ clock.hz kernel: a kernel
		// at to_hz ticks at its own rate, which the trace cannot show.
		if (at.ticks != tick_mode::every_jiffy) {
			at.ticks = tick_mode::every_jiffy;
			at.ticks_why = "--what-if-hz " + std::to_string(to_hz) +
				       ": a kernel at that HZ ticks at every one of its jiffies; "
				       "the trace's ticks are the HZ " + std::to_string(clock.hz) +
				       " kernel's";
		}
	}
	return at;
}

namespace {

std::string mean(std::uint64_t total, std::uint64_t n)
{
	return fmt::format("{:.2f}", n ? double(total) / double(n) : 0.0);
}

}  // namespace

std::string what_if_table(const what_if_reports &w)
{
	const replay_report &a = w.recorded, &b = w.what_if;
	std::string out = "timersim what-if of " + a.input.path + "\n";
	out += "  scheme " + a.scheme + "; timeouts re-expressed in time at HZ " + num(b.input.hz) +
	       " (msecs_to_jiffies rounding, up)\n\n";
	// What each side replayed: the what-if's machine and ticks differ.
	out += "recorded (HZ " + num(a.input.hz) + ")\n" + text_input_rows(a);
	out += "what-if (HZ " + num(b.input.hz) + ")\n" + text_input_rows(b) + "\n";
	text_table t;
	t.row({"", "recorded (HZ " + num(a.input.hz) + ")", "what-if (HZ " + num(b.input.hz) + ")"});
	auto row = [&](const char *name, std::uint64_t x, std::uint64_t y) { t.row({name, num(x), num(y)}); };
	row("jiffies", a.input.last_jiffies - a.input.first_jiffies, b.input.last_jiffies - b.input.first_jiffies);
	row("timers started", a.timers.started, b.timers.started);
	row("re-armed", a.timers.rearmed, b.timers.rearmed);
	row("canceled", a.timers.canceled, b.timers.canceled);
	row("expired", a.timers.expired, b.timers.expired);
	row("ticks processed", a.ticks_processed, b.ticks_processed);
	for (std::size_t l = 0; l < a.enqueue.size() && l < b.enqueue.size(); l++)
		row(("enqueued " + a.enqueue[l].level).c_str(), a.enqueue[l].count, b.enqueue[l].count);
	row("cascade moves", a.cascade.moved_total, b.cascade.moved_total);
	row("moved, then canceled", a.cascade.moved_then_canceled, b.cascade.moved_then_canceled);
	row("most moves in a tick", a.cascade.max_moved_in_one_tick, b.cascade.max_moved_in_one_tick);
	row("insertions", a.costs.insertions, b.costs.insertions);
	row("removals", a.costs.removals, b.costs.removals);
	row("relinks", a.costs.relinks, b.costs.relinks);
	row("slot visits", a.costs.slot_visits, b.costs.slot_visits);
	row("key comparisons", a.costs.key_comparisons, b.costs.key_comparisons);
	t.row({"exact expiries", percent(a.fidelity.exact, a.fidelity.compared),
	       percent(b.fidelity.exact, b.fidelity.compared)});
	t.row({"delay mean (lateness)", mean(a.lateness.total, a.lateness.expiries),
	       mean(b.lateness.total, b.lateness.expiries)});
	out += t.render();
	out += "\n  The what-if keeps each recorded expiry at its time (mapped to the new HZ): a\n"
	       "  timer the new HZ rounds past it counts as late and is expired there.\n";
	// The what-if side runs every jiffy (its kernel's ticks are not in
	// the trace): beside a recorded-tick side, lateness and ticks differ
	// by the tick model as much as by HZ.
	if (a.ticks.model != b.ticks.model)
		out += "  Not like for like: the recorded side ran its timers at " + a.ticks.model +
		       " ticks, the what-if side at " + b.ticks.model +
		       " ones; --ticks every-jiffy\n  runs both sides alike.\n";
	return out;
}

std::string json_what_if(const what_if_reports &r, bool timing)
{
	std::string out;
	json_writer w(out);
	w.begin_object();
	w.key("recorded");
	write_json_report(w, r.recorded, timing);
	w.key("what_if");
	write_json_report(w, r.what_if, timing);
	w.end_object();
	return out;
}

}  // namespace timersim
