// The JSON report. Every key of the replay contract is always present;
// numbers are integers except the named fractions, scheme parameters
// included.
#include "sim/report/report_writers.h"

namespace timersim {

namespace {

void write_input(json_writer &w, const input_summary &in)
{
	w.key("input");
	w.begin_object();
	w.field("path", in.path);
	w.field("format", in.format);
	w.field("lines", in.lines);
	w.field("events", in.events);
	w.field("skipped", in.skipped);
	w.field("malformed", in.malformed);
	w.field("bytes", in.bytes);
	// Beyond the contract: events the tracer lost, by packet.
	w.field("lost_events", in.lost_events);
	w.key("lost_event_packets");
	w.begin_array();
	for (const lost_packet &p : in.lost_packets) {
		w.begin_object();
		w.field("stream", p.stream);
		w.field("packet", p.packet);
		w.field("offset", p.offset);
		w.field("events", p.events);
		w.end_object();
	}
	w.end_array();
	// Text traces: the tracer's lost-event notes, by CPU (events: their
	// counts; notes: also those that give none).
	w.key("lost_events_by_cpu");
	w.begin_array();
	for (const lost_on_cpu &l : in.lost_cpus) {
		w.begin_object();
		w.field("cpu", l.cpu);
		w.field("events", l.events);
		w.field("notes", l.notes);
		w.end_object();
	}
	w.end_array();
	w.field("truncated_at", in.truncated_at);
	// --symbols: callback look-ups at a symbol's start, inside one
	// (named sym+0xoff), in none (left in hex).
	w.key("symbols");
	w.begin_object();
	w.field("looked_up", in.symbols.looked_up);
	w.field("at_start", in.symbols.at_start);
	w.field("inside", in.symbols.inside);
	w.field("unfit", in.symbols.unfit);
	w.end_object();
	// What `lines` counts ("lines" of text, or the "events" of a binary
	// trace) and, for CTF, the clock its seconds are in.
	w.field("unit", in.unit);
	w.field("clock", in.clock);
	w.field("cpus", in.cpus);
	w.field("hz", in.hz);
	w.field("hz_inferred", in.hz_inferred);
	w.field("word_bits", in.word_bits);
	w.field("word_bits_inferred", in.word_bits_inferred);
	w.field("first_jiffies", in.first_jiffies);
	w.field("last_jiffies", in.last_jiffies);
	w.field_fixed("first_seconds", in.first_seconds, 6);
	w.field_fixed("last_seconds", in.last_seconds, 6);
	w.field("kernel", in.kernel);
	w.field("kernel_scheme", in.kernel_scheme);
	w.end_object();
}

void write_events(json_writer &w, const event_counts &c)
{
	w.key("events");
	w.begin_object();
	w.field("timer_init", c.timer_init);
	w.field("timer_start", c.timer_start);
	w.field("timer_cancel", c.timer_cancel);
	w.field("timer_expire_entry", c.timer_expire_entry);
	w.field("timer_expire_exit", c.timer_expire_exit);
	w.field("timer_base_idle", c.timer_base_idle);
	w.field("hrtimer", c.hrtimer);
	w.field("other", c.other);
	w.field("softirq", c.softirq);
	w.field("irq", c.irq);
	w.end_object();
}

void write_timers(json_writer &w, const timer_counts &t)
{
	w.key("timers");
	w.begin_object();
	w.field("distinct", t.distinct);
	w.field("started", t.started);
	w.field("rearmed", t.rearmed);
	w.field("canceled", t.canceled);
	w.field("expired", t.expired);
	w.field("pending_at_end", t.pending_at_end);
	w.end_object();
}

void write_buckets(json_writer &w, const char *name, const char *count_key,
		   const std::vector<moves_bucket> &buckets)
{
	w.key(name);
	w.begin_array();
	for (const moves_bucket &b : buckets) {
		w.begin_object();
		w.field("low", b.low);
		w.field("high", b.high);
		w.field(count_key, b.ticks);
		w.end_object();
	}
	w.end_array();
}

void write_cascade(json_writer &w, const cascade_summary &c)
{
	w.key("cascade");
	w.begin_object();
	w.field("moved_total", c.moved_total);
	w.field("moved_then_canceled", c.moved_then_canceled);
	w.field("moved_then_rearmed", c.moved_then_rearmed);
	w.field("max_moved_in_one_tick", c.max_moved_in_one_tick);
	w.field("max_moved_jiffy", c.max_moved_jiffy);
	w.field_fixed("max_moved_seconds", c.max_moved_seconds, 6);
	w.field("max_moved_cpu", c.max_moved_cpu);
	w.key("levels");
	w.begin_array();
	for (const level_cascade &l : c.levels) {
		w.begin_object();
		w.field("level", l.level);
		w.field("calls", l.calls);
		w.field("moved", l.moved);
		w.end_object();
	}
	w.end_array();
	write_buckets(w, "moves_per_tick", "ticks", c.moves_per_tick);
	w.end_object();
}

void write_enqueue(json_writer &w, const std::vector<level_enqueue> &levels)
{
	w.key("enqueue");
	w.begin_object();
	w.key("levels");
	w.begin_array();
	for (const level_enqueue &l : levels) {
		w.begin_object();
		w.field("level", l.level);
		w.field("count", l.count);
		w.end_object();
	}
	w.end_array();
	w.end_object();
}

void write_fidelity(json_writer &w, const fidelity_summary &f)
{
	w.key("fidelity");
	w.begin_object();
	w.field("compared", f.compared);
	w.field("exact", f.exact);
	w.field("early", f.early);
	w.field("late", f.late);
	w.field("unmatched", f.unmatched);
	w.field("simulated_only", f.simulated_only);
	w.field_fixed("exact_fraction", f.compared ? static_cast<double>(f.exact) / f.compared : 0.0, 6);
	w.key("misses");
	w.begin_object();
	for (const auto &[why, n] : f.misses)
		w.field(why, n);
	w.end_object();
	w.end_object();
}

void write_fidelity_by_function(json_writer &w, const std::vector<function_fidelity> &fns)
{
	w.key("fidelity_by_function");
	w.begin_array();
	for (const function_fidelity &f : fns) {
		w.begin_object();
		w.field("function", f.function);
		w.field("compared", f.compared());
		w.field("exact", f.exact);
		w.field("early", f.early);
		w.field("late", f.late);
		w.field("unmatched", f.unmatched);
		w.field("simulated_only", f.simulated_only);
		w.end_object();
	}
	w.end_array();
}

void write_tick_model(json_writer &w, const tick_summary &t)
{
	w.key("tick_model");
	w.begin_object();
	w.field("model", t.model);
	w.field("reason", t.reason);
	w.key("tick");
	w.begin_object();
	w.field("found_by", tick_found_name(t.tick.how));
	w.field("function", t.tick.function_name);
	w.field("cpus", t.tick.cpus);
	w.field("expiries_looked_at", t.tick.expiries);
	w.field("tick_nsec", t.tick.tick_nsec);
	w.end_object();
	w.key("grid");
	w.begin_object();
	w.field("phase_ns", t.grid.phase);
	w.field("jiffies_offset", t.grid.offset);
	w.field("pairs", t.grid.pairs);
	w.field("agreeing", t.grid.agreeing);
	w.end_object();
	w.field("runs", t.runs.ticks);
	w.field("settled", t.runs.settled);
	w.field("owner_runs", t.runs.owner_ticks);
	w.field("owner_changes", t.runs.owner_changes);
	w.end_object();
}

void write_lateness(json_writer &w, const lateness_summary &l)
{
	w.key("lateness");
	w.begin_object();
	w.field("expiries", l.expiries);
	w.field("on_time", l.on_time);
	w.field("early", l.early);
	w.field("max", l.max);
	w.field("total", l.total);
	write_buckets(w, "buckets", "expiries", l.buckets);
	w.end_object();
}

void write_costs(json_writer &w, const replay_report &r, bool timing)
{
	w.key("costs");
	w.begin_object();
	w.field("insertions", r.costs.insertions);
	w.field("removals", r.costs.removals);
	w.field("relinks", r.costs.relinks);
	w.field("slot_visits", r.costs.slot_visits);
	w.field("key_comparisons", r.costs.key_comparisons);
	w.field("peak_scheme_bytes", r.peak_scheme_bytes);
	if (timing) {
		w.field_fixed("wall_seconds", r.wall_seconds, 6);
		w.field_fixed("ns_per_event", r.input.events ? r.wall_seconds * 1e9 / r.input.events : 0.0, 1);
	}
	w.end_object();
}

void write_units(json_writer &w, std::string_view key, const cost_counters &c)
{
	w.key(key);
	w.begin_object();
	w.field("units", c.total());
	w.field("insertions", c.insertions);
	w.field("removals", c.removals);
	w.field("relinks", c.relinks);
	w.field("slot_visits", c.slot_visits);
	w.field("key_comparisons", c.key_comparisons);
	w.end_object();
}

void write_work(json_writer &w, const work_split &s)
{
	w.key("work");
	w.begin_object();
	write_units(w, "process", s.process);
	write_units(w, "softirq", s.softirq);
	w.field("softirq_unattributed", s.softirq_unattributed);
	w.field("runs", s.runs);
	w.field("runs_expiring", s.runs_expiring);
	w.end_object();
}

void write_functions(json_writer &w, const replay_report &r)
{
	const std::uint64_t softirq_units = r.work.softirq.total();
	const std::uint64_t timer_ns = r.measured.softirqs_recorded ? r.measured.all.timer_softirq.runs.total_ns : 0;
	w.key("functions");
	w.begin_array();
	for (const function_stats &f : r.functions) {
		w.begin_object();
		w.field("function", f.function);
		w.field("started", f.started);
		w.field("canceled", f.canceled);
		w.field("expired", f.expired);
		w.field("moved", f.moved);
		w.field("work_units", f.work());
		w.field("process_units", f.process_units);
		w.field("softirq_units", f.softirq_units);
		w.field("wakeups", f.wakeups);
		// Its share of the scheme's softirq work (modelled, cost units).
		w.field_fixed("softirq_share", softirq_units ? double(f.softirq_units) / double(softirq_units) : 0.0, 6);
		if (f.measured_ns) {
			w.key("measured");
			w.begin_object();
			w.field_fixed("ns", *f.measured_ns, 0);
			// Of the TIMER softirq time the trace measured.
			if (timer_ns) {
				w.field_fixed("share_of_timer_softirq", *f.measured_ns / double(timer_ns), 6);
			}
			w.end_object();
		} else {
			w.field("measured", "not recorded");
		}
		w.end_object();
	}
	w.end_array();
}

}  // namespace

void write_json_report(json_writer &w, const replay_report &r, bool timing)
{
	w.begin_object();
	write_input(w, r.input);
	w.key("scheme");
	w.begin_object();
	w.field("name", r.scheme);
	w.field("choice", r.scheme_choice.empty() ? "named" : r.scheme_choice);
	w.key("params");
	w.begin_object();
	for (const scheme_param &p : r.scheme_params) {
		w.key(p.key);
		if (p.integer)
			w.value(static_cast<std::uint64_t>(std::stoull(p.value)));
		else
			w.value(p.value);
	}
	w.end_object();
	w.end_object();
	write_events(w, r.events);
	write_tick_model(w, r.ticks);
	write_timers(w, r.timers);
	w.key("ticks");
	w.begin_object();
	w.field("processed", r.ticks_processed);
	w.field("drained", r.drained);
	w.field("drain_stopped_at", r.drain_stopped_at);
	w.end_object();
	write_cascade(w, r.cascade);
	write_enqueue(w, r.enqueue);
	write_fidelity(w, r.fidelity);
	write_fidelity_by_function(w, r.fidelity_by_function);
	write_lateness(w, r.lateness);
	write_costs(w, r, timing);
	write_work(w, r.work);
	write_functions(w, r);
	write_json_measured(w, r.measured);
	write_json_modelled(w, r);
	write_json_time(w, r);
	write_json_hrtimers(w, r.hrtimers);
	w.end_object();
}

std::string json_report(const replay_report &r, bool timing)
{
	std::string out;
	json_writer w(out);
	write_json_report(w, r, timing);
	return out;
}

void write_json_schemes(json_writer &w, const std::vector<replay_report> &reports, bool timing)
{
	w.key("schemes");
	w.begin_array();
	for (const replay_report &r : reports)
		write_json_report(w, r, timing);
	w.end_array();
}

std::string json_compare(const std::vector<replay_report> &reports, bool timing)
{
	std::string out;
	json_writer w(out);
	w.begin_object();
	write_json_schemes(w, reports, timing);
	w.end_object();
	return out;
}

}  // namespace timersim
