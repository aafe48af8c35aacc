// `timersim compare`: one row per scheme, the same trace through each.
#include <cstdio>

#include "sim/report/report_writers.h"
#include "sim/report/text_table.h"

namespace timersim {

namespace {

std::string mean(std::uint64_t total, std::uint64_t n)
{
	char buf[32];
	std::snprintf(buf, sizeof buf, "%.2f", n ? static_cast<double>(total) / n : 0.0);
	return buf;
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
					 "late mean", "late max", "insertions", "removals", "relinks",
					 "slot visits", "comparisons", "peak bytes"};
	if (timing)
		head.push_back("ns/event");
	t.row(head);
	for (const replay_report &r : reports) {
		const fidelity_summary &f = r.fidelity;
		const cost_counters &c = r.costs;
		std::vector<std::string> row = {
			r.scheme,
			num(r.timers.expired),
			percent(f.exact, f.compared),
			num(f.early),
			num(f.late),
			num(f.unmatched),
			mean(r.lateness.total, r.lateness.expiries),
			num(r.lateness.max),
			num(c.insertions),
			num(c.removals),
			num(c.relinks),
			num(c.slot_visits),
			num(c.key_comparisons),
			num(r.peak_scheme_bytes),
		};
		if (timing) {
			char buf[32];
			std::snprintf(buf, sizeof buf, "%.1f",
				      r.input.events ? r.wall_seconds * 1e9 / r.input.events : 0.0);
			row.push_back(buf);
		}
		t.row(row);
	}
	out += t.render();
	out += "\n  exact: recorded expiries the scheme fired in the same jiffy; late mean/max:\n"
	       "  jiffies after the requested expiry; relinks: cascade moves, re-adds, round\n"
	       "  decrements (see README).\n";
	return out;
}

}  // namespace timersim
