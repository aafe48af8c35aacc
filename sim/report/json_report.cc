// The JSON report. Every key of the replay contract is always present;
// numbers are integers except the named fractions, scheme parameters
// included. Each section's keys are its struct's field table (json_fields,
// sim/base/json_fields.h): a key is named once, where its value comes from.
#include "sim/report/report_writers.h"

#include "sim/base/json_fields.h"

namespace timersim {

// The field tables: the key of every value a section writes, in order.

template <> struct json_fields<lost_packet> {
	static constexpr auto fields = std::make_tuple(
		json_field("stream", &lost_packet::stream),
		json_field("packet", &lost_packet::packet),
		json_field("offset", &lost_packet::offset),
		json_field("events", &lost_packet::events));
};

template <> struct json_fields<lost_on_cpu> {
	static constexpr auto fields = std::make_tuple(
		json_field("cpu", &lost_on_cpu::cpu),
		json_field("events", &lost_on_cpu::events),
		json_field("notes", &lost_on_cpu::notes));
};

// --symbols: callback look-ups at a symbol's start, inside one (named
// sym+0xoff), in none (left in hex).
template <> struct json_fields<symbol_fit> {
	static constexpr auto fields = std::make_tuple(
		json_field("looked_up", &symbol_fit::looked_up),
		json_field("at_start", &symbol_fit::at_start),
		json_field("inside", &symbol_fit::inside),
		json_field("unfit", &symbol_fit::unfit));
};

template <> struct json_fields<kernel_generation> {
	static constexpr auto fields = std::make_tuple(
		json_computed<kernel_generation>("range", [](const kernel_generation &g) { return g.range(); }),
		json_computed<kernel_generation>("from", [](const kernel_generation &g) {
			return kernel_version_text(g.from);
		}),
		json_computed<kernel_generation>("to", [](const kernel_generation &g) {
			return g.to ? kernel_version_text(g.to) : std::string();
		}),
		json_field("evidence", &kernel_generation::evidence),
		json_field("rules_overridden", &kernel_generation::overridden),
		json_computed<kernel_generation>("rules_undecided", [](const kernel_generation &g) { return g.undecided(); }),
		json_field("rt_zero_slack", &kernel_generation::rt_zero_slack),
		json_field("tmigr_available", &kernel_generation::tmigr_available),
		json_field("deferred_rearm", &kernel_generation::deferred_rearm));
};

template <> struct json_fields<input_summary> {
	static constexpr auto fields = std::make_tuple(
		json_field("path", &input_summary::path),
		json_field("format", &input_summary::format),
		json_field("lines", &input_summary::lines),
		json_field("events", &input_summary::events),
		json_field("skipped", &input_summary::skipped),
		json_field("malformed", &input_summary::malformed),
		json_field("bytes", &input_summary::bytes),
		// Beyond the contract: events the tracer lost, by packet.
		json_field("lost_events", &input_summary::lost_events),
		json_array("lost_event_packets", &input_summary::lost_packets),
		// Text traces: the tracer's lost-event notes, by CPU (events:
		// their counts; notes: also those that give none).
		json_array("lost_events_by_cpu", &input_summary::lost_cpus),
		json_field("truncated_at", &input_summary::truncated_at),
		json_object("symbols", &input_summary::symbols),
		// What `lines` counts ("lines" of text, or the "events" of a
		// binary trace) and, for CTF, the clock its seconds are in.
		json_field("unit", &input_summary::unit),
		json_field("clock", &input_summary::clock),
		json_field("cpus", &input_summary::cpus),
		json_field("hz", &input_summary::hz),
		json_field("hz_inferred", &input_summary::hz_inferred),
		json_field("word_bits", &input_summary::word_bits),
		json_field("word_bits_inferred", &input_summary::word_bits_inferred),
		json_field("first_jiffies", &input_summary::first_jiffies),
		json_field("last_jiffies", &input_summary::last_jiffies),
		json_fixed("first_seconds", &input_summary::first_seconds, 6),
		json_fixed("last_seconds", &input_summary::last_seconds, 6),
		json_field("kernel", &input_summary::kernel),
		json_field("kernel_scheme", &input_summary::kernel_scheme),
		json_object("kernel_generation", &input_summary::generation));
};

template <> struct json_fields<event_counts> {
	static constexpr auto fields = std::make_tuple(
		json_field("timer_init", &event_counts::timer_init),
		json_field("timer_start", &event_counts::timer_start),
		json_field("timer_cancel", &event_counts::timer_cancel),
		json_field("timer_expire_entry", &event_counts::timer_expire_entry),
		json_field("timer_expire_exit", &event_counts::timer_expire_exit),
		json_field("timer_base_idle", &event_counts::timer_base_idle),
		json_field("hrtimer", &event_counts::hrtimer),
		json_field("other", &event_counts::other),
		json_field("softirq", &event_counts::softirq),
		json_field("irq", &event_counts::irq),
		json_field("tick_stop", &event_counts::tick_stop),
		json_field("cpu_idle", &event_counts::cpu_idle),
		json_field("tmigr", &event_counts::tmigr));
};

template <> struct json_fields<timer_counts> {
	static constexpr auto fields = std::make_tuple(
		json_field("distinct", &timer_counts::distinct),
		json_field("started", &timer_counts::started),
		json_field("rearmed", &timer_counts::rearmed),
		json_field("canceled", &timer_counts::canceled),
		json_field("expired", &timer_counts::expired),
		json_field("pending_at_end", &timer_counts::pending_at_end));
};

namespace {

// A histogram of moves_bucket, whose count is of COUNT_KEY (ticks, expiries).
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

}  // namespace

template <> struct json_fields<level_cascade> {
	static constexpr auto fields = std::make_tuple(
		json_field("level", &level_cascade::level),
		json_field("calls", &level_cascade::calls),
		json_field("moved", &level_cascade::moved));
};

template <> struct json_fields<cascade_summary> {
	static constexpr auto fields = std::make_tuple(
		json_field("moved_total", &cascade_summary::moved_total),
		json_field("moved_then_canceled", &cascade_summary::moved_then_canceled),
		json_field("moved_then_rearmed", &cascade_summary::moved_then_rearmed),
		json_field("max_moved_in_one_tick", &cascade_summary::max_moved_in_one_tick),
		json_field("max_moved_jiffy", &cascade_summary::max_moved_jiffy),
		json_fixed("max_moved_seconds", &cascade_summary::max_moved_seconds, 6),
		json_field("max_moved_cpu", &cascade_summary::max_moved_cpu),
		json_array("levels", &cascade_summary::levels),
		json_custom<cascade_summary>([](json_writer &w, const cascade_summary &c) {
			write_buckets(w, "moves_per_tick", "ticks", c.moves_per_tick);
		}));
};

template <> struct json_fields<level_enqueue> {
	static constexpr auto fields = std::make_tuple(
		json_field("level", &level_enqueue::level),
		json_field("count", &level_enqueue::count));
};

// Named causes, zeros included, in miss_reason_name order.
void write_misses(json_writer &w, const std::vector<std::pair<std::string, std::uint64_t>> &misses)
{
	w.key("misses");
	w.begin_object();
	for (const auto &[why, n] : misses)
		w.field(why, n);
	w.end_object();
}

template <> struct json_fields<fidelity_summary::by_bucket_summary> {
	using bucket = fidelity_summary::by_bucket_summary;
	static constexpr auto fields = std::make_tuple(
		json_field("judged", &bucket::judged),
		json_computed<bucket>("matched", [](const bucket &b) { return b.matched(); }),
		json_field("exact", &bucket::exact),
		json_field("early", &bucket::early),
		json_field("late", &bucket::late),
		json_field("unmatched", &bucket::unmatched),
		json_field("trace_caused", &bucket::trace_caused),
		json_computed_fixed<bucket>("exact_fraction", [](const bucket &b) {
			return b.judged_on_model() ? static_cast<double>(b.exact) / b.judged_on_model() : 0.0;
		}, 6),
		json_custom<bucket>([](json_writer &w, const bucket &b) { write_misses(w, b.misses); }));
};

template <> struct json_fields<fidelity_summary> {
	static constexpr auto fields = std::make_tuple(
		json_field("compared", &fidelity_summary::compared),
		json_field("exact", &fidelity_summary::exact),
		json_field("early", &fidelity_summary::early),
		json_field("late", &fidelity_summary::late),
		json_field("unmatched", &fidelity_summary::unmatched),
		json_field("simulated_only", &fidelity_summary::simulated_only),
		json_computed_fixed<fidelity_summary>("exact_fraction", [](const fidelity_summary &f) {
			return f.compared ? static_cast<double>(f.exact) / f.compared : 0.0;
		}, 6),
		// docs/fidelity.md: judged by the bucket the kernel ran (baseclk).
		json_object("by_bucket", &fidelity_summary::by_bucket),
		json_custom<fidelity_summary>([](json_writer &w, const fidelity_summary &f) {
			write_misses(w, f.misses);
		}));
};

template <> struct json_fields<function_fidelity> {
	static constexpr auto fields = std::make_tuple(
		json_field("function", &function_fidelity::function),
		json_computed<function_fidelity>("compared", [](const function_fidelity &f) { return f.compared(); }),
		json_field("exact", &function_fidelity::exact),
		json_field("early", &function_fidelity::early),
		json_field("late", &function_fidelity::late),
		json_field("unmatched", &function_fidelity::unmatched),
		json_field("simulated_only", &function_fidelity::simulated_only));
};

template <> struct json_fields<tick_identity> {
	static constexpr auto fields = std::make_tuple(
		json_computed<tick_identity>("found_by", [](const tick_identity &t) { return tick_found_name(t.how); }),
		json_field("function", &tick_identity::function_name),
		json_field("cpus", &tick_identity::cpus),
		json_field("expiries_looked_at", &tick_identity::expiries),
		json_field("tick_nsec", &tick_identity::tick_nsec));
};

template <> struct json_fields<tick_grid> {
	static constexpr auto fields = std::make_tuple(
		json_field("phase_ns", &tick_grid::phase),
		json_field("jiffies_offset", &tick_grid::offset),
		json_field("pairs", &tick_grid::pairs),
		json_field("agreeing", &tick_grid::agreeing));
};

template <> struct json_fields<tick_summary> {
	static constexpr auto fields = std::make_tuple(
		json_field("model", &tick_summary::model),
		json_field("reason", &tick_summary::reason),
		json_object("tick", &tick_summary::tick),
		json_object("grid", &tick_summary::grid),
		json_computed<tick_summary>("runs", [](const tick_summary &t) { return t.runs.ticks; }),
		json_computed<tick_summary>("settled", [](const tick_summary &t) { return t.runs.settled; }),
		json_computed<tick_summary>("owner_runs", [](const tick_summary &t) { return t.runs.owner_ticks; }),
		json_computed<tick_summary>("owner_changes", [](const tick_summary &t) { return t.runs.owner_changes; }));
};

template <> struct json_fields<lateness_summary> {
	static constexpr auto fields = std::make_tuple(
		json_field("expiries", &lateness_summary::expiries),
		json_field("on_time", &lateness_summary::on_time),
		json_field("early", &lateness_summary::early),
		json_field("max", &lateness_summary::max),
		json_field("total", &lateness_summary::total),
		json_custom<lateness_summary>([](json_writer &w, const lateness_summary &l) {
			write_buckets(w, "buckets", "expiries", l.buckets);
		}));
};

// The common cost units; a `units` object adds their total first.
template <> struct json_fields<cost_counters> {
	static constexpr auto fields = std::make_tuple(
		json_field("insertions", &cost_counters::insertions),
		json_field("removals", &cost_counters::removals),
		json_field("relinks", &cost_counters::relinks),
		json_field("slot_visits", &cost_counters::slot_visits),
		json_field("key_comparisons", &cost_counters::key_comparisons));
};

namespace {

void write_units(json_writer &w, std::string_view key, const cost_counters &c)
{
	w.key(key);
	w.begin_object();
	w.field("units", c.total());
	write_json_fields(w, c);
	w.end_object();
}

}  // namespace

template <> struct json_fields<work_split> {
	static constexpr auto fields = std::make_tuple(
		json_custom<work_split>([](json_writer &w, const work_split &s) {
			write_units(w, "process", s.process);
			write_units(w, "softirq", s.softirq);
		}),
		json_field("softirq_unattributed", &work_split::softirq_unattributed),
		json_field("runs", &work_split::runs),
		json_field("runs_expiring", &work_split::runs_expiring));
};

// A callback's own keys; its shares of the report's totals follow them
// (write_functions).
template <> struct json_fields<function_stats> {
	static constexpr auto fields = std::make_tuple(
		json_field("function", &function_stats::function),
		json_field("started", &function_stats::started),
		json_field("canceled", &function_stats::canceled),
		json_field("expired", &function_stats::expired),
		json_field("moved", &function_stats::moved),
		json_computed<function_stats>("work_units", [](const function_stats &f) { return f.work(); }),
		json_field("process_units", &function_stats::process_units),
		json_field("softirq_units", &function_stats::softirq_units),
		json_field("wakeups", &function_stats::wakeups));
};

namespace {

void write_section(json_writer &w, std::string_view key, const auto &v)
{
	w.key(key);
	write_json_object(w, v);
}

void write_scheme(json_writer &w, const replay_report &r)
{
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
}

void write_ticks(json_writer &w, const replay_report &r)
{
	w.key("ticks");
	w.begin_object();
	w.field("processed", r.ticks_processed);
	w.field("drained", r.drained);
	w.field("drain_stopped_at", r.drain_stopped_at);
	w.end_object();
}

void write_enqueue(json_writer &w, const std::vector<level_enqueue> &levels)
{
	w.key("enqueue");
	w.begin_object();
	w.key("levels");
	w.begin_array();
	for (const level_enqueue &l : levels)
		write_json_object(w, l);
	w.end_array();
	w.end_object();
}

void write_fidelity_by_function(json_writer &w, const std::vector<function_fidelity> &fns)
{
	w.key("fidelity_by_function");
	w.begin_array();
	for (const function_fidelity &f : fns)
		write_json_object(w, f);
	w.end_array();
}

void write_costs(json_writer &w, const replay_report &r, bool timing)
{
	w.key("costs");
	w.begin_object();
	write_json_fields(w, r.costs);
	w.field("peak_scheme_bytes", r.peak_scheme_bytes);
	if (timing) {
		w.field_fixed("wall_seconds", r.wall_seconds, 6);
		w.field_fixed("ns_per_event", r.input.events ? r.wall_seconds * 1e9 / r.input.events : 0.0, 1);
	}
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
		write_json_fields(w, f);
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
	write_section(w, "input", r.input);
	write_scheme(w, r);
	write_section(w, "events", r.events);
	write_section(w, "tick_model", r.ticks);
	write_section(w, "timers", r.timers);
	write_ticks(w, r);
	write_section(w, "cascade", r.cascade);
	write_enqueue(w, r.enqueue);
	write_section(w, "fidelity", r.fidelity);
	write_fidelity_by_function(w, r.fidelity_by_function);
	write_section(w, "lateness", r.lateness);
	write_costs(w, r, timing);
	write_section(w, "work", r.work);
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
