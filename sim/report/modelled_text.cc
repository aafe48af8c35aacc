// The human report's `modelled` section and compare's table of it: what
// the cost model says the scheme's softirq work cost, which model and how
// sure (sim/measured/calibration.h), and the verdict on the recording
// kernel's own scheme against what the trace measured.
#include <fmt/format.h>

#include "sim/report/report_writers.h"
#include "sim/report/text_table.h"

namespace timersim {

namespace {

std::string modelled_ms(double ns) { return fmt::format("{:.3f}", ns / 1e6); }

std::string joined(const std::vector<std::string> &v, const char *sep)
{
	std::string s;
	for (const std::string &x : v)
		s += (s.empty() ? "" : sep) + x;
	return s;
}

std::string signed_percent(double f) { return fmt::format("{:+.1f}%", f * 100); }

std::string model_line(const modelled_cost &c)
{
	const measured::calibrated_model &m = c.model;
	std::string out = "  model   " + std::string(measured::model_source_name(m.source));
	switch (m.source) {
	case measured::model_source::self:
		out += ": fitted on this recording's own " + num(m.model.runs) + " TIMER runs";
		break;
	case measured::model_source::reference:
		out += " (built in): fitted on " + joined(c.sources, ", ");
		break;
	case measured::model_source::file:
		out += " (--cost-model): fitted on " + (c.sources.empty() ? std::string("(unnamed)") : joined(c.sources, ", "));
		break;
	}
	out += "\n";
	if (m.source == measured::model_source::self)
		out += m.state_ns > 0
			? fmt::format("  state   timer interrupts {:.1f} us own time on average: the runs priced at their own "
				      "state; a borrowed term x{:.2f} the reference's ({:.0f} us)\n",
				      m.state_ns / 1e3, m.borrowed_scale, measured::reference_state_ns / 1e3)
			: std::string("  state   no timer interrupt recorded: a borrowed term at the reference's\n");
	else if (m.source == measured::model_source::reference)
		out += m.state_ns > 0
			? fmt::format("  state   timer interrupts {:.1f} us own time on average: the work priced x{:.2f} "
				      "the reference's ({:.0f} us)\n",
				      m.state_ns / 1e3, m.scale, measured::reference_state_ns / 1e3)
			: std::string("  state   unknown (no timer interrupt recorded): priced at the reference's\n");
	return out;
}

// A block's elasticities, one per measure used: "0.75/1.50/1.50".
std::string cv_elasticities(const measured::cross_validation &cv, const std::array<double, measured::state_measures> &e)
{
	std::string out;
	for (unsigned k = 0; k < measured::state_measures; k++)
		if (cv.used[k])
			out += (out.empty() ? "" : "/") + fmt::format("{:.2f}", e[k]);
	return out.empty() ? "-" : out;
}

std::string cv_table(const measured::cross_validation &cv)
{
	std::string used;
	for (unsigned k = 0; k < measured::state_measures; k++)
		if (cv.used[k])
			used += (used.empty() ? "" : "/") + std::string(k == measured::state_interrupts ? "irq"
									: k == measured::state_interrupt_causes ? "cause"
									: "cb");
	std::string out = fmt::format("  cross-validation  {} blocks of the runs in trace order, each predicted by a "
				      "fit on the others ({} of {} within {:.0f}%); state: a block's timer interrupts' "
				      "overhead (irq), the same against interrupts of the same first callback (cause), "
				      "its callbacks' own time against the same function's (cb), each over the trace's; "
				      "a block's prediction is the mean of each measure's, its work priced x state^e "
				      "(e: chosen by the other blocks; the model's {} {})\n",
				      cv.blocks.size(), cv.blocks_within, cv.blocks.size(),
				      cv.whole.tolerance * 100, used.empty() ? "e" : used,
				      cv_elasticities(cv, cv.elasticities));
	text_table t("  ");
	t.row({"    block", "from s", "to s", "runs", "irq", "cause", "cb", "e " + (used.empty() ? "-" : used),
	       "measured ms", "predicted ms", "error", "verdict"});
	const double t0 = cv.blocks.empty() ? 0 : double(cv.blocks.front().first_ns);
	unsigned n = 0;
	for (const measured::cv_block &b : cv.blocks)
		t.row({"    " + std::to_string(++n), fmt::format("{:.1f}", (double(b.first_ns) - t0) / 1e9),
		       fmt::format("{:.1f}", (double(b.last_ns) - t0) / 1e9), num(b.runs),
		       fmt::format("{:.2f}", b.states[measured::state_interrupts]),
		       fmt::format("{:.2f}", b.states[measured::state_interrupt_causes]),
		       fmt::format("{:.2f}", b.states[measured::state_callbacks]), cv_elasticities(cv, b.elasticities),
		       modelled_ms(b.v.measured_ns), modelled_ms(b.v.predicted_ns), signed_percent(b.v.error()),
		       b.v.text()});
	t.row({"    whole", "", "", "", "", "", "", "", modelled_ms(cv.whole.measured_ns),
	       modelled_ms(cv.whole.predicted_ns), signed_percent(cv.whole.error()), cv.whole.text()});
	out += t.render();
	return out;
}

}  // namespace

std::string text_modelled_section(const replay_report &r)
{
	const modelled_cost &c = r.modelled;
	if (!c.given)
		return "";
	std::string out = "\nmodelled  the timer softirq's own overhead this scheme's work would cost, by the cost model\n";
	out += model_line(c);
	if (!c.note.empty())
		out += "  note    " + c.note + "\n";
	out += fmt::format("  softirq {} ms (interval {} .. {}) over {} softirq runs (classic: one per tick, as 3.x "
			   "raised it; the others: when a base had work)\n",
			   modelled_ms(c.softirq.ns), modelled_ms(c.softirq.low), modelled_ms(c.softirq.high),
			   num(c.runs));
	out += "  interval from " + c.model.interval_from + "\n";
	if (!c.borrowed.empty())
		out += fmt::format("  borrowed {} ms of it by {}: terms this recording never exercised, from the "
				   "reference (the relink price of tests/bench/bench_relink, bounded by the classic kernel's recording) at this trace's state; its interval "
				   "widened by the reference's spread\n",
				   modelled_ms(c.borrowed_ns), joined(c.borrowed, ", "));
	if (!c.softirq.unfitted.empty())
		out += "  without " + joined(c.softirq.unfitted, ", ") +
		       " (no model prices them: their cost is left out)\n";
	if (r.measured.softirqs_recorded)
		out += fmt::format("  measured {} ms: the recorded TIMER runs' overhead\n",
				   modelled_ms(double(r.measured.all.timer_softirq.overhead_ns())));
	if (c.model.cross_validated && c.checked)
		out += cv_table(c.model.cv);
	if (c.checked) {
		const bool held_out = c.model.source == measured::model_source::self && c.model.cross_validated;
		out += fmt::format("  check   run by run on {} recorded runs: |predicted - measured| median "
				   "{:.2f} us, p90 {:.2f} us\n",
				   c.check.runs, c.check.median_abs_error_ns / 1e3, c.check.p90_abs_error_ns / 1e3);
		out += fmt::format("  verdict {} ms predicted{}, {} ms measured: {}, {}\n",
				   modelled_ms(c.verdict.predicted_ns), held_out ? " (held-out blocks)" : "",
				   modelled_ms(c.verdict.measured_ns), signed_percent(c.verdict.error()),
				   c.verdict.text());
	}
	return out;
}

// Per scheme, what the model says its softirq work costs, beside what the
// recording measured (the recording kernel's row, with the verdict).
std::string modelled_table(const std::vector<replay_report> &reports)
{
	if (reports.empty() || !reports.front().modelled.given)
		return "";
	const modelled_cost &first = reports.front().modelled;
	std::string out = "\nmodelled timer softirq overhead (" +
			  std::string(measured::model_source_name(first.model.source)) +
			  " cost model; measured: the recorded TIMER runs' own time less their callbacks')\n";
	text_table t("  ");
	t.row({"scheme", "runs", "modelled ms", "interval", "measured ms", "error", "verdict", "borrowed", "not priced"});
	for (const replay_report &r : reports) {
		const modelled_cost &c = r.modelled;
		t.row({r.scheme, num(c.runs), modelled_ms(c.softirq.ns),
		       modelled_ms(c.softirq.low) + " .. " + modelled_ms(c.softirq.high),
		       c.checked ? modelled_ms(c.verdict.measured_ns) : "-",
		       c.checked ? signed_percent(c.verdict.error()) : "-", c.checked ? c.verdict.text() : "-",
		       c.borrowed.empty() ? "-" : joined(c.borrowed, ","),
		       c.softirq.unfitted.empty() ? "-" : joined(c.softirq.unfitted, ",")});
	}
	out += t.render();
	out += "  interval from " + first.model.interval_from + "\n";
	return out;
}

}  // namespace timersim
