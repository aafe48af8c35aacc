// The human report's `time` section: the timer code's time per callback
// and per CPU in ns (sim/replay/time_table.h), one table ranked by total,
// each cell measured or modelled (an interval); compare prints it for
// every scheme.
#include <fmt/format.h>

#include "sim/report/report_writers.h"
#include "sim/report/text_table.h"

namespace timersim {

namespace {

// ms: measured "12.345", modelled "12.345 (11.0..13.9)" marked with ~.
std::string time_ms(const time_cell &c)
{
	if (!c.known)
		return "-";
	if (!c.modelled)
		return fmt::format("{:.3f}", c.ns / 1e6);
	return fmt::format("~{:.3f} ({:.3f}..{:.3f})", c.ns / 1e6, c.low / 1e6, c.high / 1e6);
}

}  // namespace

std::string text_time_section(const replay_report &r, unsigned top, bool of_scheme, bool cpus)
{
	const time_table &t = r.time;
	if (t.callbacks.empty() || !top)
		return "";
	std::string out = "\ntime" + (of_scheme ? " of " + r.scheme : std::string()) +
			  "  what the timer code cost, ms, per callback, most first (plain: measured; "
			  "~: modelled, with its interval)\n";
	text_table tab("  ");
	tab.row({"callback", "total ms", "process ms", "softirq ms", "callbacks ms", "interrupts ms", "starts",
		 "cancels", "expiries", "wakeups"});
	std::size_t shown = 0;
	for (const time_row &row : t.callbacks) {
		if (shown++ == top)
			break;
		tab.row({row.name + (row.hrtimer ? " (hr)" : ""), time_ms(row.total), time_ms(row.process),
			 time_ms(row.softirq), time_ms(row.callbacks), time_ms(row.interrupts), num(row.starts),
			 num(row.cancels), num(row.expiries), num(row.wakeups)});
	}
	out += tab.render();
	if (t.callbacks.size() > top)
		out += "  ... and " + num(t.callbacks.size() - top) + " more rows (--json has all)\n";
	out += "  process: starts and cancels, each priced as " + t.start_price_from + "; softirq: the " +
	       r.scheme + " scheme's expiries, wakeups and cascades by the model; callbacks: their own time; "
	       "interrupts: the timer interrupts each caused (PowerTOP's rule), less the callbacks run in them; "
	       "an hrtimer callback's softirq: its share of the measured HRTIMER softirq overhead (each run's "
	       "split evenly over the callbacks it ran)\n";
	if (!t.cpus.empty() && cpus) {
		text_table c("  ");
		c.row({"  cpu", "total ms", "TIMER softirq ms", "HRTIMER softirq ms", "callbacks ms", "interrupts ms",
		       "per s ms"});
		for (const cpu_time_row &row : t.cpus)
			c.row({"  CPU " + std::to_string(row.cpu), time_ms(row.total), time_ms(row.timer_softirq),
			       time_ms(row.hrtimer_softirq), time_ms(row.callbacks), time_ms(row.interrupts),
			       t.seconds > 0 ? fmt::format("{:.3f}", row.total.ns / 1e6 / t.seconds) : "-"});
		out += "  per CPU, measured (the recording's, whatever the scheme): softirq overheads (own time less callbacks), the callbacks in them, the "
		       "timer interrupts' own time (the tick's callbacks in it)\n";
		out += c.render();
	}
	return out;
}

}  // namespace timersim
