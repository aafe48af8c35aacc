// The JSON report's `measured` object: the recording machine's own figures
// for the timer code. An object whose events the trace lacks is null.
#include <algorithm>

#include "sim/base/json_fields.h"
#include "sim/report/report_writers.h"

namespace timersim {

// The field tables (sim/base/json_fields.h): a duration's keys flat in the
// object of what it times.

template <> struct json_fields<measured::duration_stats> {
	static constexpr auto fields = std::make_tuple(
		json_field("count", &measured::duration_stats::count),
		json_field("total_ns", &measured::duration_stats::total_ns),
		json_computed_fixed<measured::duration_stats>("mean_ns",
			[](const measured::duration_stats &d) { return d.mean_ns(); }, 1),
		json_field("p50_ns", &measured::duration_stats::p50_ns),
		json_field("p99_ns", &measured::duration_stats::p99_ns),
		json_field("max_ns", &measured::duration_stats::max_ns));
};

template <> struct json_fields<measured::softirq_stats> {
	static constexpr auto fields = std::make_tuple(
		json_custom<measured::softirq_stats>([](json_writer &w, const measured::softirq_stats &s) {
			write_json_fields(w, s.runs);
		}),
		json_field("callbacks_ns", &measured::softirq_stats::callbacks_ns),
		json_computed<measured::softirq_stats>("overhead_ns",
			[](const measured::softirq_stats &s) { return s.overhead_ns(); }),
		json_field("raised", &measured::softirq_stats::raised));
};

// After the function's name (the map's key).
template <> struct json_fields<measured::callback_cost> {
	static constexpr auto fields = std::make_tuple(
		json_custom<measured::callback_cost>([](json_writer &w, const measured::callback_cost &c) {
			write_json_fields(w, c.runs);
		}),
		json_field("in_timer_softirq", &measured::callback_cost::in_timer_softirq),
		json_field("in_hrtimer_softirq", &measured::callback_cost::in_hrtimer_softirq),
		json_field("in_hardirq", &measured::callback_cost::in_hardirq),
		json_field("wakeups", &measured::callback_cost::wakeups));
};

// The section's own figures; per CPU and per callback follow them.
template <> struct json_fields<measured::cost_report> {
	static constexpr auto fields = std::make_tuple(
		json_field("softirqs_recorded", &measured::cost_report::softirqs_recorded),
		json_field("interrupts_recorded", &measured::cost_report::interrupts_recorded),
		json_field("callbacks_recorded", &measured::cost_report::callbacks_recorded),
		json_field("first_ns", &measured::cost_report::first_ns),
		json_field("last_ns", &measured::cost_report::last_ns),
		json_field("cut", &measured::cost_report::cut),
		json_field("unbalanced", &measured::cost_report::unbalanced),
		json_field("wakeups", &measured::cost_report::wakeups),
		json_field("wakeups_without_expiry", &measured::cost_report::wakeups_without_expiry));
};

namespace {

// An object whose events the trace lacks is null.
void softirq(json_writer &w, const char *key, const measured::softirq_stats &s, bool recorded)
{
	w.key(key);
	if (!recorded) {
		w.null();
		return;
	}
	write_json_object(w, s);
}

void interrupts(json_writer &w, const measured::interrupt_stats &s, bool recorded, double seconds)
{
	w.key("timer_interrupts");
	if (!recorded) {
		w.null();
		return;
	}
	w.begin_object();
	write_json_fields(w, s.timer);
	w.field_fixed("per_second", seconds > 0 ? double(s.timer.count) / seconds : 0.0, 3);
	w.field("other_interrupts", s.other_count);
	w.field("other_interrupts_ns", s.other_ns);
	w.end_object();
}

void cpu(json_writer &w, const measured::cpu_cost &c, const measured::cost_report &m,
	 double seconds)
{
	softirq(w, "timer_softirq", c.timer_softirq, m.softirqs_recorded);
	softirq(w, "hrtimer_softirq", c.hrtimer_softirq, m.softirqs_recorded);
	interrupts(w, c.interrupts, m.interrupts_recorded, seconds);
}

}  // namespace

void write_json_measured(json_writer &w, const measured::cost_report &m)
{
	const double seconds = m.last_ns > m.first_ns ? double(m.last_ns - m.first_ns) / 1e9 : 0;
	w.key("measured");
	w.begin_object();
	write_json_fields(w, m);
	cpu(w, m.all, m, seconds);
	w.key("cpus");
	w.begin_array();
	for (std::size_t c = 0; c < m.cpus.size(); c++) {
		w.begin_object();
		w.field("cpu", std::uint64_t(c));
		cpu(w, m.cpus[c], m, seconds);
		w.end_object();
	}
	w.end_array();
	const auto cbs = measured::callbacks_by_time(m);
	w.key("callbacks");
	w.begin_array();
	for (const auto &[name, c] : cbs) {
		w.begin_object();
		w.field("function", name);
		write_json_fields(w, *c);
		w.end_object();
	}
	w.end_array();
	w.end_object();
}

}  // namespace timersim
