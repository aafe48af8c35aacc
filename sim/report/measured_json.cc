// The JSON report's `measured` object: the recording machine's own figures
// for the timer code. An object whose events the trace lacks is null.
#include <algorithm>

#include "sim/report/report_writers.h"

namespace timersim {

namespace {

void durations(json_writer &w, const measured::duration_stats &d)
{
	w.field("count", d.count);
	w.field("total_ns", d.total_ns);
	w.field_fixed("mean_ns", d.mean_ns(), 1);
	w.field("p50_ns", d.p50_ns);
	w.field("p99_ns", d.p99_ns);
	w.field("max_ns", d.max_ns);
}

void softirq(json_writer &w, const char *key, const measured::softirq_stats &s, bool recorded)
{
	w.key(key);
	if (!recorded) {
		w.null();
		return;
	}
	w.begin_object();
	durations(w, s.runs);
	w.field("callbacks_ns", s.callbacks_ns);
	w.field("overhead_ns", s.overhead_ns());
	w.field("raised", s.raised);
	w.end_object();
}

void interrupts(json_writer &w, const measured::interrupt_stats &s, bool recorded, double seconds)
{
	w.key("timer_interrupts");
	if (!recorded) {
		w.null();
		return;
	}
	w.begin_object();
	durations(w, s.timer);
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
	w.field("softirqs_recorded", m.softirqs_recorded);
	w.field("interrupts_recorded", m.interrupts_recorded);
	w.field("callbacks_recorded", m.callbacks_recorded);
	w.field("first_ns", m.first_ns);
	w.field("last_ns", m.last_ns);
	w.field("cut", m.cut);
	w.field("unbalanced", m.unbalanced);
	w.field("wakeups", m.wakeups);
	w.field("wakeups_without_expiry", m.wakeups_without_expiry);
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
		durations(w, c->runs);
		w.field("in_timer_softirq", c->in_timer_softirq);
		w.field("in_hrtimer_softirq", c->in_hrtimer_softirq);
		w.field("in_hardirq", c->in_hardirq);
		w.field("wakeups", c->wakeups);
		w.end_object();
	}
	w.end_array();
	w.end_object();
}

}  // namespace timersim
