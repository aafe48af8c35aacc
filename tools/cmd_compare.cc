// timersim compare: one trace through several schemes, read once, side by side.
#include <algorithm>
#include <cstdio>

#include "sim/base/errors.h"
#include "sim/output/output_file.h"
#include "tools/commands.h"
#include "tools/numbers.h"
#include "tools/suggest.h"
#include "sim/estimate/estimate.h"
#include "sim/whatif/hz_rescale.h"
#include "sim/whatif/whatif.h"
#include "tools/trace_options.h"

namespace timersim::cli {

namespace {

struct compare_args : trace_args {
	std::string schemes;	// as given; empty: all
	bool schemes_given = false;
	std::string estimate;	// --estimate CALIBRATION
};

// The compare table (and the estimates) of one side.
std::string compare_text(const std::vector<replay_report> &reports, const compare_args &a, const calibration *c)
{
	std::string out = compare_table(reports, a.text.timing);
	if (c)
		out += estimate_table(reports, *c);
	out += modelled_table(reports);
	// The time table of every scheme, as replay prints it; the per-CPU
	// one, all measured, once.
	for (std::size_t i = 0; i < reports.size(); i++)
		out += text_time_section(reports[i], a.text.top_functions, true, i + 1 == reports.size());
	// The hrtimer what-ifs (--what-if-hr-slack, ...): one hrtimer replay
	// serves every scheme.
	const std::string hr = reports.empty() ? "" : text_hrtimer_what_ifs(reports.front().hrtimers);
	if (!hr.empty())
		out += "\nhrtimers (the same for every scheme)\n" + hr;
	return out;
}

std::string compare_json(const std::vector<replay_report> &reports, const compare_args &a, const calibration *c)
{
	return c ? json_compare_estimated(reports, a.text.timing, *c) : json_compare(reports, a.text.timing);
}

std::vector<std::string> scheme_list(const compare_args &a)
{
	if (!a.schemes_given)
		return scheme_names();
	std::vector<std::string> out;
	std::string s = a.schemes;
	std::size_t start = 0;
	for (std::size_t i = 0; i <= s.size(); i++) {
		if (i < s.size() && s[i] != ',')
			continue;
		std::string name = s.substr(start, i - start);
		start = i + 1;
		if (name.empty())
			throw usage_error("--schemes '" + s + "': an empty scheme name");
		std::string err;
		CLI::Validator v = scheme_name(true);
		if (!(err = v(name)).empty())
			throw usage_error("--schemes: " + err);
		if (std::find(out.begin(), out.end(), name) != out.end())
			throw usage_error("--schemes: '" + name + "' is named twice (its rows would be "
				      "identical)");
		out.push_back(name);
	}
	return out;
}

int run_compare(const compare_args &a)
{
	check_output_paths({a.trace, a.estimate, a.cost_model}, {{"--json", a.json}});
	std::vector<std::string> schemes = scheme_list(a);
	// --param SCHEME:K=V must name a scheme that runs.
	for (const std::string &p : a.params) {
		std::string owner = p.substr(0, p.find(':'));
		if (p.find(':') != std::string::npos &&
		    std::find(schemes.begin(), schemes.end(), owner) == schemes.end())
			throw usage_error("--param " + p + ": '" + owner + "' is not among the compared "
					  "schemes" + did_you_mean(owner, schemes));
	}
	std::vector<scheme_run> runs;
	std::string superlinear;
	for (const std::string &s : schemes) {
		auto params = params_for(a, s, true);
		std::string why = check_scheme(s, a.replay, params);
		if (!why.empty())
			superlinear += "timersim compare: " + s + " is superlinear (" + why + ")\n";
		runs.push_back({s, params, {}});
	}
	// Said before the replay (on stderr: the report stays the same bytes
	// whatever the limit), so that a long run is no surprise.
	if (!superlinear.empty()) {
		superlinear += a.replay.max_cost ? "timersim compare: --max-cost " + std::to_string(a.replay.max_cost) +
							   " stops a scheme past that many cost units\n"
						 : std::string("timersim compare: --max-cost 0: no scheme is stopped\n");
		std::fputs(superlinear.c_str(), stderr);
	}

	std::unique_ptr<calibration> calib;
	if (!a.estimate.empty())
		calib = std::make_unique<calibration>(load_calibration(a.estimate));

	auto reader = open_input(a);
	auto progress = terminal_progress(a);
	// --what-if-hz: the recording first, then the what-if.
	std::vector<replay_report> recorded;
	replay_options opt = replay_options_of(a);
	price_as_recorded(a, opt);
	if (a.what_if_hz) {
		recorded_clock clock = probe_recorded_clock(a.trace, a.format, reader_of(a), a.replay.hz,
							    a.replay.word_bits);
		recorded = replay_schemes(*reader, a.trace, opt, runs, progress.get());
		if (!opt.cost_model && !opt.recording_model)
			opt.recording_model = std::make_shared<const measured::calibrated_model>(recorded.front().modelled.model);
		reader = make_hz_rescale_reader(open_input(a), clock.hz, a.what_if_hz, clock.word_bits);
		opt = what_if_options(opt, clock, a.what_if_hz);
	}
	std::vector<replay_report> reports = replay_schemes(*reader, a.trace, opt, runs, progress.get());

	// `auto` resolved to a scheme also named: the same rows twice.
	for (std::size_t i = 0; i < reports.size(); i++)
		for (std::size_t j = 0; j < i; j++)
			if (reports[i].scheme == reports[j].scheme)
				throw usage_error("--schemes: auto is '" + reports[i].scheme +
						  "' on this trace, which is also named");

	output_set outputs;
	if (!a.json.empty())
		outputs.open(a.json).write(a.what_if_hz ? "{\"recorded\": " + compare_json(recorded, a, calib.get()) +
								  ",\n\"what_if\": " + compare_json(reports, a, calib.get()) + "}"
							: compare_json(reports, a, calib.get()));
	if (a.json != "-")
		outputs.open("-").write(a.what_if_hz ? "recorded (HZ " + std::to_string(recorded.front().input.hz) +
								   ")\n" + compare_text(recorded, a, calib.get()) +
								   "\nwhat-if (HZ " + std::to_string(a.what_if_hz) +
								   ": timeouts re-expressed in time, rounded up)\n" +
								   compare_text(reports, a, calib.get())
							 : compare_text(reports, a, calib.get()));
	outputs.commit();
	return 0;
}

}  // namespace

void add_compare(CLI::App &app, command_list &commands)
{
	auto a = std::make_shared<compare_args>();
	CLI::App *sub = app.add_subcommand("compare", "replay a trace through several schemes at "
						      "once and compare their costs");
	add_trace_options(sub, *a);
	sub->add_option_function<std::string>(
		   "--schemes",
		   [a](const std::string &v) {
			   a->schemes = v;
			   a->schemes_given = true;
		   },
		   "the schemes, comma-separated (default: all; auto: the recording kernel's)")
		->type_name("a,b,...");
	sub->add_option("--estimate", a->estimate,
			"estimate each scheme's process-context, timer softirq and total CPU time from its cost units "
			"and a calibration (`make calibrate` writes build/calibration.json)")
		->type_name("FILE")
		->check(non_empty("path"))
		->check(CLI::ExistingFile.description(""));
	add_report_options(sub, *a);
	sub->footer("examples:\n"
		    "  timersim compare ../shared/traces/linux-6.18-http/trace.dat\n"
		    "  timersim compare --schemes classic,v48 --estimate build/calibration.json trace.txt\n"
		    "  timersim compare --schemes classic,v48 --what-if-hz 1000 trace.txt\n"
		    "  timersim compare --schemes auto,classic,heap --param classic:order=lifo trace.txt\n"
		    "  timersim compare --json - trace.txt > costs.json");
	commands.push_back({sub, [a] { return run_compare(*a); }});
}

}  // namespace timersim::cli
