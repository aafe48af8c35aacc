// The hrtimer what-ifs in the text report's `hrtimers` section: each
// beside the recording, and the queue designs side by side
// (sim/hrtimer/hr_whatif.h). Their JSON is hrtimer_json.cc's.
#include <fmt/format.h>

#include "sim/report/report_writers.h"
#include "sim/report/text_table.h"

namespace timersim {

namespace {

std::string micros(double ns) { return fmt::format("{:.1f}", ns / 1e3); }

std::string what_if_label(const hrtimer_what_if &w)
{
	if (w.name == "highres")
		return "highres off";
	if (w.name == "kernel")
		return w.setting + " rules";
	return w.setting == "exact" ? "exact" : "slack " + micros(double(std::stoll(w.setting))) + " us";
}

std::string heading(const hrtimer_what_if &w)
{
	if (w.name == "highres")
		return "highres off: the hrtimers run from the tick, at jiffy granularity (hrtimer_run_queues)";
	if (w.name == "kernel")
		return "kernel " + w.setting + ": the hrtimer rework's rules (the tick's cancel + start on leaving idle "
		       "one start: " + num(w.tick_pairs_merged) + " pairs)";
	if (w.setting == "exact")
		return "slack exact: every timer's expires = softexpires (" + num(w.ranges_changed) +
		       " starts' ranges changed)";
	return "slack " + w.setting + " ns for user-space timers: expires = softexpires + " + w.setting +
	       " ns (" + num(w.ranges_changed) + " starts' ranges changed" +
	       (w.rt_zero_slack ? "; " + num(w.rt_exact) + " sleeps armed with no range kept so: 6.12+ gives a real-time task no slack"
				: "") +
	       ")";
}

std::string signed_num(std::int64_t v) { return (v > 0 ? "+" : "") + std::to_string(v); }

std::string what_if_block(const hrtimer_what_if &w)
{
	std::string out = "  what-if " + heading(w) + "; lateness of " + w.scope + "\n";
	text_table t("    ");
	const std::string base = w.name == "highres" ? "model, high resolution"
				 : w.name == "kernel" ? "model, the recording's rules"
						      : "model, recorded slack";
	t.row({"", "recording", base, "model, " + what_if_label(w)});
	const hrtimer_what_if_side *sides[3] = {&w.recorded, &w.model, &w.what_if};
	auto row = [&](const std::string &label, auto cell) {
		std::vector<std::string> r = {label};
		for (const hrtimer_what_if_side *s : sides)
			r.push_back(cell(*s));
		t.row(r);
	};
	row("interrupts", [](const hrtimer_what_if_side &s) { return num(s.interrupts); });
	row("expiries", [](const hrtimer_what_if_side &s) { return num(s.expiries); });
	if (w.name == "kernel")
		row("device programs, stops", [](const hrtimer_what_if_side &s) {
			return s.device_programs ? num(s.device_programs) : std::string("-");
		});
	row("lateness mean us", [](const hrtimer_what_if_side &s) { return micros(s.lateness.mean_ns); });
	row("lateness p99 us", [](const hrtimer_what_if_side &s) { return micros(double(s.lateness.p99_ns)); });
	row("lateness max us", [](const hrtimer_what_if_side &s) { return micros(double(s.lateness.max_ns)); });
	out += t.render();
	const std::int64_t saved = std::int64_t(w.what_if.interrupts) - std::int64_t(w.model.interrupts);
	const double later = w.what_if.lateness.mean_ns - w.model.lateness.mean_ns;
	if (w.name == "kernel")
		out += fmt::format("    {}: {} device programs and stops, {} interrupts\n", what_if_label(w),
				   signed_num(std::int64_t(w.what_if.device_programs) - std::int64_t(w.model.device_programs)),
				   signed_num(saved));
	else if (w.name == "highres")
		out += fmt::format("    highres off: {} interrupts ({} ticks the trace spans on its CPUs), {} us "
				   "mean lateness\n",
				   signed_num(saved), num(w.ticks), (later >= 0 ? "+" : "") + micros(later));
	else
		out += fmt::format("    {}: {} interrupts, {} us mean lateness\n", what_if_label(w), signed_num(saved),
				   (later >= 0 ? "+" : "") + micros(later));
	out += "    (model: the hrtimer model run free on the recorded starts and cancels; " + num(w.ran_ahead) +
	       " recorded expiries came before the what-if ran the timer: it ran on to it first)\n";
	return out;
}

}  // namespace

std::string text_hrtimer_what_ifs(const hrtimer_summary &h)
{
	std::string out;
	for (const hrtimer_what_if &w : h.what_ifs)
		out += what_if_block(w);
	if (h.queues.empty())
		return out;
	const hrtimer_queue_figures &q0 = h.queues.front();
	out += "  queues  the model's queue operations, per CPU and clock base, fed to each design: " + num(q0.arms) +
	       " arms, " + num(q0.removes) + " removals, " + num(q0.expiries) + " expiries (first + remove)\n";
	text_table t("    ");
	t.row({"design", "insertions", "removals", "in place", "comparisons", "depth", "max depth", "rotations",
	       "slot visits", "cascades", "order differs", "ties reordered"});
	for (const hrtimer_queue_figures &q : h.queues)
		t.row({q.design, num(q.costs.insertions), num(q.costs.removals), num(q.costs.in_place),
		       num(q.costs.comparisons), num(q.costs.depth), num(q.costs.max_depth), num(q.costs.rotations),
		       num(q.costs.slot_visits), num(q.costs.cascades), num(q.order_mismatches), num(q.tie_reorders)});
	out += t.render();
	// Without it, depth equal to comparisons on the tree rows read as a
	// copied column.
	out += "    comparisons: expiry comparisons; depth: tree or heap levels walked, summed (max depth: the\n"
	       "    longest walk). A timerqueue insert compares once at each level it walks down, so there the\n"
	       "    two are one figure; linked adds its in-place re-arms' neighbour checks, a heap compares\n"
	       "    every child of each level it walks.\n";
	return out;
}

}  // namespace timersim
