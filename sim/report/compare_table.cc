// `timersim compare`: one row per scheme, the same trace through each.
#include <fmt/format.h>

#include "sim/report/report_writers.h"
#include "sim/report/text_table.h"

namespace timersim {

namespace {

std::string mean(std::uint64_t total, std::uint64_t n)
{
	return fmt::format("{:.2f}", n ? static_cast<double>(total) / n : 0.0);
}

}  // namespace

std::string compare_table(const std::vector<replay_report> &reports, bool timing)
{
	std::string out;
	if (reports.empty())
		return out;
	const input_summary &in = reports.front().input;
	out += "timersim compare of " + in.path + "\n";
	out += "  " + in.format + ", " + num(in.events) + " events, " + num(in.cpus) +
	       (in.cpus == 1 ? " CPU" : " CPUs") + ", HZ " + num(in.hz) + ", " + num(in.word_bits) +
	       "-bit jiffies\n\n";

	text_table t;
	std::vector<std::string> head = {"scheme", "expired", "exact", "early", "late", "unmatched",
					 "delay mean", "delay max", "cascades", "moved", "worst tick",
					 "insertions", "removals", "relinks", "slot visits",
					 "comparisons", "peak bytes"};
	if (timing)
		head.push_back("ns/event");
	t.row(head);
	for (const replay_report &r : reports) {
		const fidelity_summary &f = r.fidelity;
		const cost_counters &c = r.costs;
		std::uint64_t cascades = 0;
		for (const level_cascade &l : r.cascade.levels)
			cascades += l.calls;
		bool levels = !r.cascade.levels.empty();
		std::vector<std::string> row = {
			r.scheme + (r.scheme_choice.empty() ? "" : " (auto)"),
			num(r.timers.expired),
			percent(f.exact, f.compared),
			num(f.early),
			num(f.late),
			num(f.unmatched),
			mean(r.lateness.total, r.lateness.expiries),
			num(r.lateness.max),
			levels ? num(cascades) : "-",
			levels ? num(r.cascade.moved_total) : "-",
			levels ? num(r.cascade.max_moved_in_one_tick) : "-",
			num(c.insertions),
			num(c.removals),
			num(c.relinks),
			num(c.slot_visits),
			num(c.key_comparisons),
			num(r.peak_scheme_bytes),
		};
		if (timing)
			row.push_back(fmt::format(
				"{:.1f}", r.input.events ? r.wall_seconds * 1e9 / r.input.events : 0.0));
		t.row(row);
	}
	out += t.render();
	std::string others;
	for (const replay_report &r : reports)
		if (!in.kernel_scheme.empty() && r.scheme != in.kernel_scheme)
			others += (others.empty() ? "" : ", ") + r.scheme;
	if (!others.empty())
		out += "\n  The recording kernel's wheel is " + in.kernel_scheme + " (" + in.kernel +
		       "). For " + others + ",\n  exact measures how far the designs fire apart, and the "
		       "costs are what each would\n  have spent on this workload.\n";
	out += "\n  exact, early, late: fidelity verdicts against the recorded expiries (exact:\n"
	       "  fired in the same jiffy, early: before it, late: still pending when the kernel\n"
	       "  ran it); delay mean/max: jiffies from the requested expiry to the simulated\n"
	       "  one (lateness in the JSON); cascades: cascade calls on the upper levels,\n"
	       "  moved: timers they re-inserted, worst tick: most moves in one tick (wheels\n"
	       "  only); relinks: cascade moves, re-adds, round decrements (see README).\n";
	return out;
}

}  // namespace timersim
