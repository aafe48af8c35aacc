// timersim gen: a seeded workload as a raw tracefs text trace (sim/gen).
#include <charconv>
#include <cstdio>
#include <memory>

#include "sim/base/errors.h"
#include "sim/gen/fit.h"
#include "sim/gen/generator.h"
#include "sim/gen/kinds.h"
#include "sim/output/output_file.h"
#include "tools/commands.h"
#include "tools/numbers.h"

namespace timersim::cli {

namespace {

struct gen_args {
	std::vector<std::string> workloads;
	std::string like;
	std::uint64_t seed = 1;
	unsigned hz = 0, cpus = 0;
	std::string duration;
	bool has_duration = false;	// --duration '' is an error, not the default
	double scale = 1;
	bool no_slack = false, no_expiries = false;
	unsigned kernel = 3;
	bool has_start = false;
	std::uint64_t start = 0;
	std::string output = "-";
	bool list = false, show_fit = false;
};

// A whole number 0..2^64-1 exactly as written: CLI11's own conversion
// would take "-1" as 2^64-1. The option's number_check (tools/numbers)
// refuses the rest first, in the message shape of every number; this
// conversion keeps its own refusal in case it is called without one.
std::uint64_t whole_number(const char *option, const std::string &v)
{
	const char *range = " (a whole number 0..18446744073709551615)";
	if (v.empty())
		throw CLI::ValidationError(option, std::string("empty value") + range);
	std::uint64_t x = 0;
	auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
	if (ec == std::errc::result_out_of_range)
		throw CLI::ValidationError(option, v + " is out of range" + range);
	if (ec != std::errc() || end != v.data() + v.size())
		throw CLI::ValidationError(option, "'" + v + "' is not a whole number" + range);
	return x;
}

std::string list_workloads()
{
	std::string out = "workload kinds (--workload KIND:KEY=VALUE,...; mixtures with ';'):\n";
	for (const gen::kind_info *k : gen::workload_kinds()) {
		out += "\n" + std::string(k->name) + ": " + k->what + "\n";
		for (const param_spec &p : k->params) {
			char line[200];
			std::snprintf(line, sizeof line, "  %-13s %-22s %s\n", p.key, p.value, p.help);
			out += line;
		}
	}
	out += "\ndurations: 200ms, 1.5s, 300us, 5m, 2h, 5d (a bare number is ms); rates per second;\n"
	       "fractions 0..1 or 5%; cpu: a CPU number or any.\n";
	return out;
}

int run_gen(const gen_args &a)
{
	if (a.list) {
		write_output(a.output, list_workloads());
		return 0;
	}
	gen::gen_options o;
	o.seed = a.seed;
	o.scale = a.scale;
	o.slack = !a.no_slack;
	o.expiries = !a.no_expiries;
	o.kernel = a.kernel == 6 ? gen::kernel_gen::linux6 : gen::kernel_gen::linux3;
	o.has_start = a.has_start;
	o.start = a.start;
	o.hz = 250;
	o.cpus = 1;
	o.duration_ns = 10'000'000'000;
	if (!a.like.empty()) {
		check_output_paths({a.like}, {{"--output", a.output}});
		gen::trace_fit fit = gen::fit_trace(a.like, trace_format::auto_detect, {}, 0);
		if (a.show_fit) {
			std::string out = "# gen --like " + a.like + ": HZ " + std::to_string(fit.hz) + ", " +
					  std::to_string(fit.cpus) + " CPUs, " +
					  std::to_string(double(fit.duration_ns) / 1e9) + " s\n";
			for (const gen::workload &w : fit.workloads)
				out += w.text() + "\n";
			write_output(a.output, out);
			return 0;
		}
		o.workloads = fit.workloads;
		o.hz = fit.hz;
		o.cpus = std::max(1u, fit.cpus);
		o.duration_ns = std::max<std::uint64_t>(fit.duration_ns, 1'000'000);
	} else if (a.show_fit) {
		throw usage_error("--show-fit needs --like TRACE");
	}
	for (const std::string &w : a.workloads)
		for (const gen::workload &x : gen::parse_mixture(w))
			o.workloads.push_back(x);
	if (a.hz)
		o.hz = a.hz;
	if (a.cpus)
		o.cpus = a.cpus;
	if (a.has_duration && !gen::parse_duration(a.duration, 1e9, o.duration_ns))
		throw usage_error("--duration: '" + a.duration + "' is not a duration (10s, 500ms, 2m; a bare number "
										   "is seconds)");
	gen::check_options(o);

	output_file out(a.output);
	gen::write_ftrace(o, out.stream());
	out.commit();
	return 0;
}

}  // namespace

void add_gen(CLI::App &app, command_list &commands)
{
	auto a = std::make_shared<gen_args>();
	CLI::App *sub = app.add_subcommand("gen", "generate a seeded workload as a raw tracefs text trace "
						  "(what an ideal Linux kernel would record: 3.x, or 6.8+ with --kernel 6)");
	sub->add_option("--workload,-w", a->workloads,
			"a workload KIND[:KEY=VALUE,...], or several joined by ';'; repeatable "
			"(--list-workloads: the kinds and their parameters)")
		->type_name("W")
		->take_all()
		->allow_extra_args(false);
	sub->add_option("--like", a->like,
			"fit one workload per callback to a recorded TRACE (timeouts, lifetimes, how "
			"armings end) and generate that; HZ, CPUs and duration default to the trace's")
		->type_name("TRACE")
		->check(non_empty("path"));
	sub->add_flag("--show-fit", a->show_fit, "with --like: print the fitted workloads instead of a trace");
	sub->add_option_function<std::string>(
		   "--seed,-s", [a](const std::string &v) { a->seed = whole_number("--seed", v); },
		   "the seed (default 1): the same seed, the same trace bytes")
		->type_name("N")
		->check(number_check<std::uint64_t>());
	sub->add_option("--hz", a->hz, "HZ of the generated kernel (default 250)")
		->type_name("N")
		->check(number_check(a->hz))
		->check(CLI::Range(10u, 10000u).description(""));
	sub->add_option("--cpus", a->cpus, "CPUs (default 1)")
		->type_name("N")
		->check(number_check(a->cpus))
		->check(CLI::Range(1u, 4096u).description(""));
	sub->add_option_function<std::string>(
		   "--duration",
		   [a](const std::string &v) {
			   a->duration = v;
			   a->has_duration = true;
		   },
		   "length of the trace (default 10s; a bare number is seconds)")
		->type_name("D");
	sub->add_option("--scale", a->scale, "multiply every rate and population (default 1)")
		->type_name("F")
		->check(number_check(a->scale))
		->check(CLI::PositiveNumber.description(""));
	sub->add_option("--kernel", a->kernel,
			"the kernel traced: 3 (classic wheel, expiries at `expires`; the default) or 6 "
			"(non-cascading wheel, expiries at bucket_expiry, 6.8+ fields)")
		->type_name("3|6")
		->check(number_check(a->kernel))
		->check(CLI::IsMember({3u, 6u}).description(""));
	sub->add_flag("--no-slack", a->no_slack, "exact expiries: no 3.x timer slack on mod_timer");
	sub->add_flag("--no-expiries", a->no_expiries,
		      "leave the expiries out: the trace holds what the callers did, and every scheme fires "
		      "the timers on its own");
	sub->add_option_function<std::string>(
		   "--start",
		   [a](const std::string &j) {
			   a->has_start = true;
			   a->start = whole_number("--start", j);
		   },
		   "the first jiffy (default INITIAL_JIFFIES + 1000 s of uptime)")
		->type_name("J")
		->check(number_check<std::uint64_t>());
	sub->add_option("--output,-o", a->output, "the trace file ('-': stdout, the default)")
		->type_name("FILE")
		->check(non_empty("path"));
	sub->add_flag("--list-workloads", a->list, "print the workload kinds and their parameters");
	sub->footer("examples:\n"
		    "  timersim gen -w networking:rate=500 --cpus 4 --hz 1000 -o net.txt\n"
		    "  timersim gen -w 'networking;guards:timers=100000;periodic' --duration 60s -o mix.txt\n"
		    "  timersim gen --like ../shared/traces/linux-6.18-http/trace.txt --scale 100 -o big.txt\n"
		    "  timersim gen --list-workloads");
	commands.push_back({sub, [a] { return run_gen(*a); }});
}

}  // namespace timersim::cli
