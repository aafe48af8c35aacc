// The human report's `measured` section: what the recording machine spent
// in the timer code, from its own softirq and interrupt events. Nothing in
// it is modelled; a figure whose events the trace does not hold says
// "not recorded", never 0.
#include <algorithm>

#include <fmt/format.h>

#include "sim/report/report_writers.h"
#include "sim/report/text_table.h"

namespace timersim {

namespace {

std::string us(std::uint64_t ns) { return fmt::format("{:.1f}", double(ns) / 1e3); }
std::string ms(std::uint64_t ns) { return fmt::format("{:.3f}", double(ns) / 1e6); }

void softirq_row(text_table &t, const std::string &label, const measured::softirq_stats &s)
{
	const measured::duration_stats &d = s.runs;
	t.row({label, num(d.count), ms(d.total_ns), ms(s.callbacks_ns), ms(s.overhead_ns()),
	       us(std::uint64_t(d.mean_ns() + 0.5)), us(d.p50_ns), us(d.p99_ns), us(d.max_ns),
	       num(s.raised)});
}

void irq_row(text_table &t, const std::string &label, const measured::duration_stats &d,
	     double seconds)
{
	t.row({label, num(d.count), seconds > 0 ? fmt::format("{:.1f}", double(d.count) / seconds) : "-",
	       ms(d.total_ns), us(std::uint64_t(d.mean_ns() + 0.5)), us(d.p50_ns), us(d.p99_ns),
	       us(d.max_ns)});
}

}  // namespace

std::string text_measured_section(const measured::cost_report &m, unsigned top)
{
	std::string out = "\nmeasured  what the recording machine spent in the timer code, from its own "
			  "events (nothing modelled)\n";
	const bool per_cpu = m.cpus.size() > 1;
	if (!m.softirqs_recorded) {
		out += "  softirq runs      not recorded (the trace has no TIMER or HRTIMER "
		       "irq:softirq_entry/exit events)\n";
	} else {
		text_table t("  ");
		t.row({"softirq", "runs", "total ms", "callbacks ms", "overhead ms", "mean us",
		       "p50 us", "p99 us", "max us", "raised"});
		softirq_row(t, "TIMER", m.all.timer_softirq);
		if (per_cpu)
			for (std::size_t c = 0; c < m.cpus.size(); c++)
				softirq_row(t, "  CPU " + num(c), m.cpus[c].timer_softirq);
		softirq_row(t, "HRTIMER", m.all.hrtimer_softirq);
		if (per_cpu)
			for (std::size_t c = 0; c < m.cpus.size(); c++)
				softirq_row(t, "  CPU " + num(c), m.cpus[c].hrtimer_softirq);
		out += t.render();
		if (!m.callbacks_recorded)
			out += "  (callbacks not recorded: no expire entry/exit events; their time is "
			       "in the overhead)\n";
	}
	const double seconds = m.last_ns > m.first_ns ? double(m.last_ns - m.first_ns) / 1e9 : 0;
	if (!m.interrupts_recorded) {
		out += "  timer interrupts  not recorded (no irq_vectors:local_timer_entry/exit or "
		       "timer irq_handler_entry/exit events)\n";
	} else {
		text_table t("  ");
		t.row({"interrupt", "count", "per s", "total ms", "mean us", "p50 us", "p99 us", "max us"});
		irq_row(t, "timer", m.all.interrupts.timer, seconds);
		if (per_cpu)
			for (std::size_t c = 0; c < m.cpus.size(); c++)
				irq_row(t, "  CPU " + num(c), m.cpus[c].interrupts.timer, seconds);
		out += t.render();
		out += "  wakeups " + num(m.wakeups) + " timer interrupts: each credited to its first "
		       "callback (after the tick, to the first wheel timer its softirq ran); " +
		       num(m.wakeups_without_expiry) + " ran none\n";
	}
	if (m.callbacks_recorded && !m.callbacks.empty()) {
		const auto cbs = measured::callbacks_by_time(m);
		text_table t("  ");
		t.row({"callback (own time)", "runs", "total ms", "mean us", "max us", "in TIMER softirq",
		       "in HRTIMER softirq", "in hardirq", "wakeups"});
		for (std::size_t i = 0; i < cbs.size() && i < top; i++) {
			const measured::callback_cost &c = *cbs[i].second;
			t.row({cbs[i].first, num(c.runs.count), ms(c.runs.total_ns),
			       us(std::uint64_t(c.runs.mean_ns() + 0.5)), us(c.runs.max_ns),
			       num(c.in_timer_softirq), num(c.in_hrtimer_softirq), num(c.in_hardirq),
			       num(c.wakeups)});
		}
		out += t.render();
		if (cbs.size() > top)
			out += "  ... and " + num(cbs.size() - top) + " more callbacks (--json has all)\n";
	}
	if (m.cut || m.unbalanced)
		out += "  cut     " + num(m.cut) + " runs cut by the trace's start or end (not timed), " +
		       num(m.unbalanced) + " exits that matched nothing open\n";
	return out;
}

}  // namespace timersim
