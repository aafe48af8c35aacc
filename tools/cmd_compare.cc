// timersim compare: one trace through several schemes, read once, side by side.
#include <algorithm>

#include "sim/core/errors.h"
#include "sim/output/output_file.h"
#include "tools/commands.h"
#include "tools/suggest.h"
#include "tools/trace_options.h"

namespace timersim::cli {

namespace {

struct compare_args : trace_args {
	std::string schemes;	// as given; empty: all
	bool schemes_given = false;
};

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
	check_output_paths({a.trace}, {{"--json", a.json}});
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
	for (const std::string &s : schemes) {
		auto params = params_for(a, s, true);
		check_scheme(s, a.replay, params);
		runs.push_back({s, params, {}});
	}

	auto reader = open_input(a);
	auto progress = terminal_progress(a);
	std::vector<replay_report> reports =
		replay_schemes(*reader, a.trace, a.replay, runs, progress.get());

	// `auto` resolved to a scheme also named: the same rows twice.
	for (std::size_t i = 0; i < reports.size(); i++)
		for (std::size_t j = 0; j < i; j++)
			if (reports[i].scheme == reports[j].scheme)
				throw usage_error("--schemes: auto is '" + reports[i].scheme +
						  "' on this trace, which is also named");

	output_set outputs;
	if (!a.json.empty())
		outputs.open(a.json).write(json_compare(reports, a.text.timing));
	if (a.json != "-")
		outputs.open("-").write(compare_table(reports, a.text.timing));
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
	add_report_options(sub, *a);
	sub->footer("examples:\n"
		    "  timersim compare ../shared/traces/linux-6.18-http/trace.dat\n"
		    "  timersim compare --schemes auto,classic,heap --param classic:order=lifo trace.txt\n"
		    "  timersim compare --json - trace.txt > costs.json");
	commands.push_back({sub, [a] { return run_compare(*a); }});
}

}  // namespace timersim::cli
