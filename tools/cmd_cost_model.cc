// timersim cost-model: fits the model of a TIMER softirq run's overhead
// (sim/measured/run_model.h) on recordings that hold the softirq events,
// and checks it on recordings it was not fitted on. Each trace is replayed
// through the recording kernel's own scheme, which pairs every recorded
// run with the work that scheme did in it.
#include <fmt/format.h>

#include "sim/base/errors.h"
#include "sim/replay/replay.h"
#include "sim/measured/model_file.h"
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
};

// One recording's runs, paired with its kernel's scheme's work.
struct recording {
	std::string path, scheme;
	std::vector<measured::run_sample> samples;
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
	sub->footer("examples:\n"
		    "  timersim cost-model --fit tests/data/measured-network.txt.gz "
		    "--check tests/data/measured-idle.txt.gz -o model.json\n"
		    "  timersim replay --cost-model model.json trace.txt");
	commands.push_back({sub, [a] { return run_cost_model(*a); }});
}

}  // namespace timersim::cli
