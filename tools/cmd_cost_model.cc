// timersim cost-model: fits the model of a TIMER softirq run's overhead
// (sim/measured/run_model.h) on recordings that hold the softirq events,
// and checks it on recordings it was not fitted on. Each trace is replayed
// through the recording kernel's own scheme, which pairs every recorded
// run with the work that scheme did in it.
#include <fmt/format.h>

#include "sim/base/errors.h"
#include "sim/replay/replay.h"
#include "sim/measured/calibration.h"
#include "sim/measured/model_file.h"
#include "sim/measured/reference_model.h"
#include "sim/output/output_file.h"
#include "sim/base/json_writer.h"
#include "sim/report/text_table.h"
#include "tools/commands.h"
#include "tools/numbers.h"

namespace timersim::cli {

namespace {

struct cost_model_args {
	std::vector<std::string> fit, check;
	std::string output, json;
	std::uint64_t seed = 1;
	unsigned resamples = 200;
	bool reference = false;
};

// One recording's runs, paired with its kernel's scheme's work.
struct recording {
	std::string path, scheme;
	std::vector<measured::run_sample> samples;
	std::vector<measured::run_sample> state_samples;	// each run's work scaled by its state
	double state_ns = 0;	// mean timer-interrupt own time (0: none recorded)
	bool fitted_on = false;
	measured::model_check check;
};

recording replay_runs(const std::string &path)
{
	auto reader = open_trace(path, trace_format::auto_detect, reader_options{});
	replay_options opt;
	opt.scheme = auto_scheme;
	opt.keep_runs = true;
	replay_report r = replay_trace(*reader, path, opt, {}, nullptr);
	if (!r.measured.softirqs_recorded || r.timer_runs.empty())
		throw input_error(path, 0, "no TIMER softirq run recorded (the model is fitted on "
					   "irq:softirq_entry/exit vec=1; scripts/record-trace.sh records them)");
	recording rec;
	rec.path = path;
	rec.scheme = r.scheme;
	rec.samples = measured::samples_of(r.timer_runs, r.run_work);
	rec.state_ns = r.measured.interrupts_recorded ? r.measured.all.interrupts.timer.mean_ns() : 0.0;
	rec.state_samples = measured::state_samples(rec.samples, rec.state_ns);
	return rec;
}

std::string us(double ns) { return fmt::format("{:.2f}", ns / 1e3); }
std::string ms(double ns) { return fmt::format("{:.3f}", ns / 1e6); }
std::string ns1(double ns) { return fmt::format("{:.1f}", ns); }

std::string text_of(const measured::cost_model &m, const std::vector<recording> &recs)
{
	std::string out = "timersim cost model: a TIMER softirq run's overhead (its own time less its "
			  "callbacks', measured) from the work the recording kernel's scheme did in it\n";
	out += "fitted on " + num(m.runs) + " runs, " + num(m.draws.size()) +
	       " bootstrap resamples (seed " + num(m.seed) + ")\n\n";
	text_table t("  ");
	t.row({"term", "ns per unit", "95% interval"});
	for (unsigned k = 0; k < measured::model_terms; k++)
		if (m.fitted[k])
			t.row({measured::model_term_name(k), ns1(m.ns[k]),
			       ns1(m.low[k]) + " .. " + ns1(m.high[k])});
		else
			t.row({measured::model_term_name(k), "not fitted", "(the runs never did this work)"});
	out += t.render();
	out += "\n";
	text_table c("  ");
	c.row({"recording", "scheme", "role", "runs", "measured ms", "predicted ms", "95% interval",
	       "|error| p50 us", "p90 us"});
	for (const recording &r : recs) {
		const measured::model_check &k = r.check;
		c.row({r.path, r.scheme, r.fitted_on ? "fitted on" : "check only", num(k.runs),
		       ms(k.measured_ns), ms(k.predicted_ns),
		       ms(k.predicted_low_ns) + " .. " + ms(k.predicted_high_ns),
		       us(k.median_abs_error_ns), us(k.p90_abs_error_ns)});
	}
	out += c.render();
	return out;
}

std::string json_of(const measured::cost_model &m, const std::vector<recording> &recs)
{
	std::string out;
	json_writer w(out);
	w.begin_object();
	w.key("terms");
	w.begin_array();
	for (unsigned k = 0; k < measured::model_terms; k++) {
		w.begin_object();
		w.field("term", measured::model_term_name(k));
		w.field("fitted", bool(m.fitted[k]));
		w.field_fixed("ns", m.ns[k], 3);
		w.field_fixed("low", m.low[k], 3);
		w.field_fixed("high", m.high[k], 3);
		w.end_object();
	}
	w.end_array();
	w.field("runs", m.runs);
	w.field("resamples", std::uint64_t(m.draws.size()));
	w.field("seed", m.seed);
	w.key("recordings");
	w.begin_array();
	for (const recording &r : recs) {
		const measured::model_check &k = r.check;
		w.begin_object();
		w.field("path", r.path);
		w.field("scheme", r.scheme);
		w.field("fitted_on", r.fitted_on);
		w.field("runs", k.runs);
		w.field_fixed("measured_ns", k.measured_ns, 0);
		w.field_fixed("predicted_ns", k.predicted_ns, 0);
		w.field_fixed("predicted_low_ns", k.predicted_low_ns, 0);
		w.field_fixed("predicted_high_ns", k.predicted_high_ns, 0);
		w.field_fixed("median_abs_error_ns", k.median_abs_error_ns, 1);
		w.field_fixed("p90_abs_error_ns", k.p90_abs_error_ns, 1);
		w.end_object();
	}
	w.end_array();
	w.end_object();
	out += "\n";
	return out;
}

// --reference: the built-in reference's figures (sim/measured/reference_model.h)
// from the recordings: the state-scaled fit on the non-cascading ones with
// the leave-one-out checks, the cascade terms from the classic ones' fit.
std::string reference_text(const std::vector<recording> &recs)
{
	std::vector<measured::recording_runs> v48;
	std::vector<measured::run_sample> classic;
	std::string classic_from;
	for (const recording &r : recs) {
		if (r.scheme == "classic") {
			classic.insert(classic.end(), r.state_samples.begin(), r.state_samples.end());
			classic_from += (classic_from.empty() ? "" : ", ") + r.path;
		} else {
			v48.push_back({r.path, r.state_samples, r.state_ns});
		}
	}
	const measured::reference_fit f = measured::fit_reference(v48);
	const measured::cost_model c = measured::fit(classic, 200, 1);
	std::string out = "timersim reference cost model: state-scaled (ns per unit at a " +
			  fmt::format("{:.0f}", measured::reference_state_ns / 1e3) +
			  " us timer interrupt), fitted on the recordings below; leave-one-out: each "
			  "predicted by a fit on the others, its interval the spread the others show\n\n";
	text_table t("  ");
	t.row({"recording", "state us", "measured ms", "predicted ms", "error", "interval ms", "contains"});
	for (const measured::left_out &r : f.rows)
		t.row({r.path, fmt::format("{:.1f}", r.state_ns / 1e3), ms(r.measured_ns), ms(r.predicted_ns),
		       fmt::format("{:+.1f}%", (r.predicted_ns - r.measured_ns) / r.measured_ns * 100),
		       ms(r.low_ns) + " .. " + ms(r.high_ns),
		       r.low_ns <= r.measured_ns && r.measured_ns <= r.high_ns ? "yes" : "NO"});
	out += t.render();
	out += fmt::format("\nspread (measured/predicted - 1 of each left out): {:+.4f} .. {:+.4f}\n", f.low_ratio,
			   f.high_ratio);
	out += "cascade terms from " + (classic_from.empty() ? std::string("(no classic recording)") : classic_from) + "\n";
	auto figures = [&](const char *name, const measured::term_vector &a, const measured::term_vector &b) {
		std::string s = std::string("\t\tf.model.") + name + " = {";
		for (unsigned k = 0; k < measured::model_terms; k++) {
			const bool cascade = k == measured::term_relink || k == measured::term_cold_relink;
			s += fmt::format("{}{:.4f}", k ? ", " : "", cascade ? b[k] : a[k]);
		}
		return s + "};\n";
	};
	out += "\nthe figures of builtin_reference():\n";
	out += figures("ns", f.model.ns, c.ns);
	out += figures("low", f.model.ns, c.low);
	out += figures("high", f.model.ns, c.high);
	std::string names;
	for (const std::string &n : f.model.sources)
		names += (names.empty() ? "\"" : ", \"") + n + "\"";
	out += "\t\tf.model.sources = {" + names + "};\n";
	out += fmt::format("\t\tf.low_ratio = {:.4f};\n\t\tf.high_ratio = {:.4f};\n", f.low_ratio, f.high_ratio);
	out += fmt::format("\t\tf.state_low_ns = {:.1f};\n\t\tf.state_high_ns = {:.1f};\n", f.state_low_ns,
			   f.state_high_ns);
	out += "\t\tf.loo_ns = {\n";
	for (const measured::term_vector &l : f.loo_ns) {
		out += "\t\t\t{";
		for (unsigned k = 0; k < measured::model_terms; k++)
			out += fmt::format("{}{:.4f}", k ? ", " : "", l[k]);
		out += "},\n";
	}
	out += "\t\t};\n";
	return out;
}

int run_cost_model(const cost_model_args &a)
{
	std::vector<std::string> inputs = a.fit;
	inputs.insert(inputs.end(), a.check.begin(), a.check.end());
	std::vector<std::pair<std::string, std::string>> outs;
	if (!a.output.empty())
		outs.push_back({"-o", a.output});
	if (!a.json.empty())
		outs.push_back({"--json", a.json});
	check_output_paths(inputs, outs);

	std::vector<recording> recs;
	std::vector<measured::run_sample> fit_on;
	measured::cost_model m;
	for (const std::string &p : a.fit) {
		recs.push_back(replay_runs(p));
		recs.back().fitted_on = true;
		fit_on.insert(fit_on.end(), recs.back().samples.begin(), recs.back().samples.end());
	}
	for (const std::string &p : a.check)
		recs.push_back(replay_runs(p));
	if (a.reference) {
		output_set outputs;
		outputs.open(a.output.empty() ? "-" : a.output).write(reference_text(recs));
		outputs.commit();
		return 0;
	}
	m = measured::fit(fit_on, a.resamples, a.seed);
	m.sources = a.fit;
	for (recording &r : recs)
		r.check = measured::check(m, r.samples);

	output_set outputs;
	if (!a.output.empty())
		outputs.open(a.output).write(measured::model_json(m));
	if (!a.json.empty())
		outputs.open(a.json).write(json_of(m, recs));
	if (a.json != "-" && a.output != "-")
		outputs.open("-").write(text_of(m, recs));
	outputs.commit();
	return 0;
}

}  // namespace

void add_cost_model(CLI::App &app, command_list &commands)
{
	auto a = std::make_shared<cost_model_args>();
	CLI::App *sub = app.add_subcommand(
		"cost-model", "fit the model of a TIMER softirq run's overhead on recordings that "
			      "hold the softirq events, and check it on others");
	sub->add_option("--fit", a->fit, "a recording to fit on (repeat for several)")
		->type_name("TRACE")
		->required()
		->check(non_empty("path"));
	sub->add_option("--check", a->check,
			"a recording to check the model on, not fitted on (repeat for several)")
		->type_name("TRACE")
		->check(non_empty("path"));
	sub->add_option("-o,--output", a->output,
			"the model, for replay and compare --cost-model ('-': stdout)")
		->type_name("FILE")
		->check(non_empty("path"));
	sub->add_option("--json", a->json, "the fit and the checks as JSON ('-': stdout)")
		->type_name("FILE")
		->check(non_empty("path"));
	sub->add_option("--seed", a->seed, "the bootstrap's seed (default 1)")
		->type_name("N")
		->check(number_check(a->seed));
	sub->add_option("--resamples", a->resamples, "bootstrap resamples (default 200; 0: no interval)")
		->type_name("N")
		->check(number_check(a->resamples) & CLI::Range(0u, 10000u));
	sub->add_flag("--reference", a->reference,
		      "print the built-in reference model's figures from the --fit recordings "
		      "(state-scaled, leave-one-out; classic ones give the cascade terms)");
	sub->footer("examples:\n"
		    "  timersim cost-model --fit tests/data/measured-network.txt.gz "
		    "--check tests/data/measured-idle.txt.gz -o model.json\n"
		    "  timersim replay --cost-model model.json trace.txt");
	commands.push_back({sub, [a] { return run_cost_model(*a); }});
}

}  // namespace timersim::cli
