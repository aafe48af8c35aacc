// timersim step: a scenario (or a window of a real trace) through one base
// of a wheel, statement by statement, with a picture of the wheel after
// each step and, with --explain, the reason for every placement and move.
#include <charconv>
#include <memory>
#include <string_view>

#include "sim/base/errors.h"
#include "sim/lab/scenario.h"
#include "sim/lab/step.h"
#include "sim/lab/trace_window.h"
#include "sim/output/output_file.h"
#include "tools/commands.h"
#include "tools/numbers.h"

namespace timersim::cli {

namespace {

struct step_args {
	std::string scenario;
	std::string scheme;	// a scenario's default: classic; a trace's: auto
	bool explain = false;
	unsigned hz = 250, word_bits = 64;
	std::string order = "fifo";
	bool base_small = false;
	std::string json;
	std::string trace, format = "auto";
	std::uint64_t from = 0, to = 0;
	unsigned cpu = 0;
	tick_mode ticks = tick_mode::automatic;
	CLI::Option *hz_opt = nullptr, *bits_opt = nullptr, *order_opt = nullptr, *small_opt = nullptr;
	CLI::Option *from_opt = nullptr, *to_opt = nullptr;
};

// A jiffy as the trace prints it: decimal digits only, below 2^64 (a
// larger value is refused, not wrapped or clamped).
std::uint64_t jiffy_value(const char *option, const std::string &v)
{
	std::uint64_t j = 0;
	auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), j);
	if (ec == std::errc::result_out_of_range)
		throw CLI::ValidationError(option, "'" + v + "' is beyond the largest jiffy, 2^64 - 1");
	if (v.empty() || ec != std::errc() || end != v.data() + v.size())
		throw CLI::ValidationError(option, "'" + v + "' is not a jiffy (decimal digits)");
	return j;
}

int run_step(const step_args &a)
{
	if (a.trace.empty() == a.scenario.empty())
		throw usage_error("step: give a SCENARIO file or --trace T (not both)");
	if (!a.json.empty())
		check_output_paths({a.trace.empty() ? a.scenario : a.trace}, {{"--json", a.json}});
	if (!a.trace.empty()) {
		lab::trace_window_options o;
		o.path = a.trace;
		if (!parse_trace_format(a.format, o.format))
			throw usage_error("--format: unknown format '" + a.format + "'");
		o.scheme = a.scheme.empty() ? auto_scheme : a.scheme;
		if (a.hz_opt->count())
			o.hz = a.hz;
		if (a.bits_opt->count())
			o.word_bits = a.word_bits;
		o.base_small = a.base_small;
		o.lifo = a.order == "lifo";
		o.cpu = a.cpu;
		if (a.from_opt->count())
			o.from = a.from;
		if (a.to_opt->count())
			o.to = a.to;
		o.ticks = a.ticks;
		o.explain = a.explain;
		// Streamed, as a scenario's steps are (below).
		output_file out(a.json.empty() ? "-" : a.json);
		auto write = [&](std::string_view piece) { out.write(piece); };
		if (a.json.empty())
			lab::write_trace_window_text(o, write);
		else
			lab::write_trace_window_json(o, write);
		out.commit();
		return 0;
	}
	if (a.from_opt->count() || a.to_opt->count())
		throw usage_error("--from and --to choose a window of a --trace");
	if (a.scheme == auto_scheme)
		throw usage_error("--scheme auto is a trace's (the recording kernel's wheel): give a scenario "
				  "classic or v48");
	lab::step_options o;
	o.scheme = a.scheme.empty() ? "classic" : a.scheme;
	if (a.hz_opt->count())
		o.hz = a.hz;
	if (a.bits_opt->count())
		o.word_bits = a.word_bits;
	if (a.small_opt->count())
		o.base_small = a.base_small;
	if (a.order_opt->count())
		o.lifo = a.order == "lifo";
	o.explain = a.explain;
	lab::scenario s = lab::read_scenario(a.scenario);
	// Streamed: a step's picture lists every pending timer, so the whole
	// output grows as statements times timers.
	output_file out(a.json.empty() ? "-" : a.json);
	if (out.is_stdout())
		lab::check_scenario(s, o);	// a mistake prints only the error
	auto write = [&](std::string_view piece) { out.write(piece); };
	if (a.json.empty())
		lab::write_step_text(s, o, write);
	else
		lab::write_step_json(s, o, write);
	out.commit();
	return 0;
}

}  // namespace

void add_step(CLI::App &app, command_list &commands)
{
	auto a = std::make_shared<step_args>();
	CLI::App *sub = app.add_subcommand("step", "run a scenario (add/mod/del/tick/run-to/show; hrstart/hrcancel/run-to-ns) or a window "
						   "of a trace on one base, and picture the wheel after each step");
	sub->add_option("SCENARIO", a->scenario, "the scenario file (see docs/lab/README.md)");
	sub->add_option("--scheme", a->scheme,
			"the wheel: classic (2.6..4.7, cascading) or v48 (4.8+); default: a scenario's classic, "
			"a trace's auto (the recording kernel's, as replay)")
		->type_name("S")
		->check(CLI::IsMember({"classic", "v48", "auto"}).description(""));
	sub->add_flag("--explain", a->explain, "the reason for every placement, cascade, move and expiry");
	a->hz_opt = sub->add_option("--hz", a->hz, "HZ (default: the scenario's, else 250; a trace's: inferred)")
			    ->type_name("N")
			    ->check(number_check(a->hz))
			    ->check(CLI::IsMember({100u, 250u, 300u, 1000u}).description(""));
	a->bits_opt = sub->add_option("--word-bits", a->word_bits,
				      "width of unsigned long jiffies (default: the scenario's, else 64)")
			      ->type_name("32|64")
			      ->check(number_check(a->word_bits))
			      ->check(CLI::IsMember({32u, 64u}).description(""));
	a->small_opt = sub->add_flag("--base-small", a->base_small,
				     "CONFIG_BASE_SMALL wheel geometry (TVR_BITS 6, TVN_BITS 4)");
	a->order_opt = sub->add_option("--order", a->order, "classic slot order: fifo (up to 4.1) or lifo (4.2+)")
			       ->type_name("fifo|lifo")
			       ->check(CLI::IsMember({"fifo", "lifo"}).description(""));
	sub->add_option("--json", a->json, "the steps as JSON to FILE ('-': stdout), the wheel after each")
		->type_name("FILE")
		->check(non_empty("path"));
	CLI::Option *trace = sub->add_option("--trace", a->trace, "a recorded trace instead of a scenario")
				     ->type_name("T")
				     ->check(non_empty("path"));
	sub->add_option("--format", a->format, "the trace's format (default auto)")->type_name("F")->needs(trace);
	a->from_opt = sub->add_option_function<std::string>(
				   "--from", [a](const std::string &v) { a->from = jiffy_value("--from", v); },
				   "the window's first jiffy, as the trace prints it")
			      ->type_name("J")
			      ->check(number_check(a->from))
			      ->needs(trace);
	a->to_opt = sub->add_option_function<std::string>(
				 "--to", [a](const std::string &v) { a->to = jiffy_value("--to", v); },
				 "the window's last jiffy")
			    ->type_name("J")
			    ->needs(trace);
	sub->add_option("--cpu", a->cpu, "the CPU whose base is shown (default 0)")
		->type_name("N")
		->check(number_check(a->cpu))
		->needs(trace);
	sub->add_option_function<std::string>(
		   "--ticks",
		   [a](const std::string &v) {
			   if (!parse_tick_mode(v, a->ticks))
				   throw CLI::ValidationError("--ticks", "unknown tick model '" + v +
									 "' (recorded, every-jiffy, auto)");
		   },
		   "with --trace: when the base runs its timers, as for replay (recorded, every-jiffy, auto)")
		->type_name("MODEL")
		->needs(trace);
	sub->footer("examples:\n"
		    "  timersim step docs/lab/scenarios/first-cascade.txt\n"
		    "  timersim step docs/lab/scenarios/first-cascade.txt --scheme v48 --explain\n"
		    "  timersim step --trace trace.txt --from 4298030200 --to 4298030400");
	commands.push_back({sub, [a] { return run_step(*a); }});
}

}  // namespace timersim::cli
