// timersim view: one self-contained HTML page of a replay: the wheel
// animated over a window of jiffies, the whole replay's timeline, the
// report's tables (sim/view/view_page.h).
#include <algorithm>
#include <fstream>
#include <memory>
#include <optional>

#include "sim/base/errors.h"
#include "sim/lab/scenario.h"
#include "sim/view/view_scenario.h"
#include "sim/output/output_file.h"
#include "sim/view/view_page.h"
#include "tools/commands.h"
#include "tools/numbers.h"
#include "tools/trace_options.h"

namespace timersim::cli {

namespace {

// Without --from/--to the window spans this many jiffies each side of the
// worst tick; with one of them, the other is this far away. At most
// max_window jiffies, to keep the page's size bounded.
constexpr std::uint64_t half_window = 100;
constexpr std::uint64_t max_window = 65536;

struct view_args : trace_args {
	std::string scheme = auto_scheme;
	std::string output;
	std::uint64_t from = 0, to = 0;
	bool has_from = false, has_to = false;
	const CLI::App *app = nullptr;	// which options were given
};

// An option given that the page cannot honour is an error, not ignored.
void refuse_given(const view_args &a, const std::vector<std::string> &honoured, const std::string &why)
{
	for (const CLI::Option *o : a.app->get_options()) {
		if (!o->count() || o->get_positional())
			continue;
		const std::string name = o->get_name();
		if (std::find(honoured.begin(), honoured.end(), name) == honoured.end())
			throw usage_error(name + " " + why);
	}
}

replay_report replay_into(const view_args &a, const replay_options &opt,
			  std::vector<replay_sink *> sinks)
{
	auto reader = open_input(a);
	auto progress = terminal_progress(a);
	return replay_trace(*reader, a.trace, opt, std::move(sinks), progress.get());
}

// INPUT is a trace when a trace reader takes it; else a lab scenario when
// it reads like one (then the lab's parser reports its mistakes by line);
// else the trace readers' complaint stands.
bool is_scenario(const view_args &a)
{
	if (a.format != trace_format::auto_detect)
		return false;
	try {
		detect_trace_format(a.trace);
		return false;
	} catch (const input_error &) {
		std::ifstream in(a.trace, std::ios::binary);
		std::string head(1 << 16, '\0');
		in.read(head.data(), static_cast<std::streamsize>(head.size()));
		head.resize(static_cast<std::size_t>(in.gcount()));
		if (!lab::looks_like_scenario(head))
			throw;
		return true;
	}
}

int run_scenario_view(const view_args &a)
{
	if (a.has_from || a.has_to)
		throw usage_error("--from and --to choose a window of a trace; a scenario's page shows all its statements");
	refuse_given(a, {"--output", "--scheme", "--hz", "--word-bits", "--base-small", "--help"},
		     "does not apply to a scenario: its page runs the lab's wheel (--scheme, --hz, --word-bits "
		     "and --base-small do, as in `timersim step`)");
	if (a.scheme != auto_scheme && a.scheme != "classic" && a.scheme != "v48")
		throw usage_error("--scheme " + a.scheme + ": a scenario runs on the lab's classic or v48 wheel");
	lab::step_options opt;
	opt.scheme = a.scheme == auto_scheme ? "classic" : a.scheme;
	if (a.app->get_option("--hz")->count())
		opt.hz = a.replay.hz;
	if (a.app->get_option("--word-bits")->count())
		opt.word_bits = a.replay.word_bits;
	if (a.app->get_option("--base-small")->count())
		opt.base_small = true;
	const lab::scenario s = lab::read_scenario(a.trace);
	// The page draws a wheel; a scenario of hrtimers would show none of its statements.
	if (s.is_hr())
		throw input_error(a.trace, s.hr_ops.front().line,
				  "a scenario of hrtimers: `timersim step` runs it; the view draws the wheel's scenarios");
	write_output(a.output, scenario_view_html(s, opt));
	return 0;
}

int run_view(view_args &a)
{
	check_output_paths({a.trace}, {{"--output", a.output}});
	if (is_scenario(a))
		return run_scenario_view(a);
	if (a.app->get_option("--what-if-hz")->count())
		throw usage_error("--what-if-hz does not apply to view: the page draws the trace as recorded "
				  "(replay and compare --what-if-hz report the what-if beside it)");
	if (a.has_from && !a.has_to)
		a.to = a.from + 2 * half_window;
	if (a.has_to && !a.has_from)
		a.from = a.to >= 2 * half_window ? a.to - 2 * half_window : 0;
	if (a.from > a.to)
		throw usage_error("--from " + std::to_string(a.from) + " is after --to " + std::to_string(a.to));
	if (a.to - a.from > max_window)
		throw usage_error("--from .. --to spans " + std::to_string(a.to - a.from) +
				  " jiffies; the view animates at most " + std::to_string(max_window));
	replay_options opt = a.replay;
	opt.scheme = a.scheme;
	opt.params = params_for(a, a.scheme, false);
	check_scheme(a.scheme, a.replay, opt.params);

	// One pass when the window is known; else a second one for the window
	// around the worst tick the first pass found.
	view_overview overview;
	std::unique_ptr<view_window> window;
	std::unique_ptr<view_hrlane> lane;
	replay_report report;
	if (a.has_from || a.has_to) {
		window = std::make_unique<view_window>(a.from, a.to, true);
		lane = std::make_unique<view_hrlane>(*window);
		report = replay_into(a, opt, {&overview, window.get(), lane.get()});
	} else {
		report = replay_into(a, opt, {&overview});
		jiffies_t worst = overview.worst().jiffy;
		jiffies_t first = overview.first();
		jiffies_t from = worst > first + half_window ? worst - half_window : first;
		window = std::make_unique<view_window>(from, worst + half_window, false);
		lane = std::make_unique<view_hrlane>(*window);
		replay_into(a, opt, {window.get(), lane.get()});
	}
	write_output(a.output, view_html(report, overview, *window, lane.get()));
	return 0;
}

}  // namespace

void add_view(CLI::App &app, command_list &commands)
{
	auto a = std::make_shared<view_args>();
	CLI::App *sub = app.add_subcommand("view", "one self-contained HTML page: the wheel animated "
						   "tick by tick, the timeline, the report");
	a->app = sub;
	add_trace_options(sub, *a);
	sub->add_option("-o,--output", a->output, "the HTML file to write ('-': stdout)")
		->type_name("FILE")
		->check(non_empty("path"))
		->required();
	sub->add_option("--scheme", a->scheme,
			"the scheme whose wheel is drawn (default auto: the recording kernel's, "
			"v48 for 4.11+ traces, classic for older; a scenario's: classic or v48, default classic)")
		->type_name("S")
		->check(scheme_name(true));
	sub->add_option_function<std::uint64_t>(
		   "--from", [a](const std::uint64_t &j) { a->from = j; a->has_from = true; },
		   "the first jiffy the wheel is animated over, as the trace prints jiffies "
		   "(default: 100 before the worst tick)")
		->type_name("J")
		->check(number_check<std::uint64_t>());
	sub->add_option_function<std::uint64_t>(
		   "--to", [a](const std::uint64_t &j) { a->to = j; a->has_to = true; },
		   "the last jiffy of the animated window (default: 100 after the worst tick; "
		   "at most 65536 after --from)")
		->type_name("J")
		->check(number_check<std::uint64_t>());
	sub->footer("examples:\n"
		    "  timersim view ../shared/traces/linux-6.18-http/trace.txt -o view.html\n"
		    "  timersim view docs/lab/scenarios/first-cascade.txt --scheme v48 -o first-cascade.html\n"
		    "  timersim view --scheme classic --from 4295133300 --to 4295133600 trace.dat -o view.html");
	commands.push_back({sub, [a] { return run_view(*a); }});
}

}  // namespace timersim::cli
