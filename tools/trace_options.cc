#include "tools/trace_options.h"

#include "sim/measured/model_file.h"

#include <algorithm>
#include <cctype>

#include <sys/stat.h>
#include <unistd.h>

#include "sim/base/errors.h"
#include "sim/hrtimer/queue_design.h"
#include "sim/stream/kernel_generation.h"
#include "sim/output/progress_line.h"
#include "sim/whatif/own_expiries.h"
#include "tools/numbers.h"
#include "tools/suggest.h"

namespace timersim::cli {

namespace {

const std::vector<std::string> &format_names()
{
	static const std::vector<std::string> names = {
		"auto", "ftrace", "trace-cmd-report", "perf-script", "trace-dat", "ctf"};
	return names;
}

std::uint64_t file_size(const std::string &path)
{
	struct stat st;
	return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) ? st.st_size : 0;
}

// --what-if-hr-slack: exact, or a duration (ns unless a unit follows).
// A kernel cpulist ("2,4-7"), as isolcpus= takes it: sorted, each once.
bool parse_isolated_cpu_list(const std::string &v, std::vector<unsigned> &cpus, std::string &err)
{
	cpus.clear();
	std::size_t at = 0;
	while (at <= v.size()) {
		std::size_t end = v.find(',', at);
		if (end == std::string::npos)
			end = v.size();
		const std::string item = v.substr(at, end - at);
		const std::size_t dash = item.find('-');
		unsigned first = 0, last = 0;
		auto number = [](const std::string &t, unsigned &n) {
			if (t.empty() || t.size() > 4 ||
			    !std::all_of(t.begin(), t.end(), [](unsigned char c) { return std::isdigit(c); }))
				return false;
			n = static_cast<unsigned>(std::stoul(t));
			return n < 4096;
		};
		if (!(dash == std::string::npos ? number(item, first) && number(item, last)
						: number(item.substr(0, dash), first) &&
							  number(item.substr(dash + 1), last)) ||
		    last < first) {
			err = "'" + item + "' in '" + v + "' is not a CPU (0-4095) or a range of them (2-5)";
			return false;
		}
		for (unsigned cpu = first; cpu <= last; cpu++)
			cpus.push_back(cpu);
		at = end + 1;
	}
	std::sort(cpus.begin(), cpus.end());
	cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
	return true;
}

void parse_hr_slack(const std::string &v, hr_what_if_options &o)
{
	if (v == "exact") {
		o.slack = hr_what_if_options::slack_rule::exact;
		return;
	}
	static const std::pair<const char *, std::uint64_t> units[] = {
		{"ns", 1}, {"us", 1000}, {"ms", 1000000}, {"s", 1000000000}};
	std::string digits = v;
	std::uint64_t unit = 1;
	for (const auto &[suffix, ns] : units) {
		const std::string u = suffix;
		if (v.size() > u.size() && v.compare(v.size() - u.size(), u.size(), u) == 0 &&
		    std::isdigit(static_cast<unsigned char>(v[v.size() - u.size() - 1]))) {
			digits = v.substr(0, v.size() - u.size());
			unit = ns;
			break;
		}
	}
	const std::uint64_t max_ns = 10'000'000'000ull;	// 10 s
	std::string why = unsigned_problem(digits, max_ns / unit);
	if (!why.empty())
		throw CLI::ValidationError("--what-if-hr-slack",
					   "'" + v + "': expected exact or a slack in ns (or with a unit: ns, us, "
						     "ms, s) of at most 10 s: " + why);
	o.slack = hr_what_if_options::slack_rule::user;
	o.user_slack_ns = static_cast<std::int64_t>(std::stoull(digits) * unit);
}

// --hr-queues: design names, comma-separated, or all.
void parse_hr_queues(const std::string &v, hr_what_if_options &o)
{
	const std::vector<std::string> &names = hrq::queue_design_names();
	if (v == "all") {
		o.queues = names;
		return;
	}
	o.queues.clear();
	std::size_t start = 0;
	for (std::size_t i = 0; i <= v.size(); i++) {
		if (i < v.size() && v[i] != ',')
			continue;
		std::string name = v.substr(start, i - start);
		start = i + 1;
		if (name.empty())
			throw CLI::ValidationError("--hr-queues", "'" + v + "': an empty design name");
		if (std::find(names.begin(), names.end(), name) == names.end())
			throw CLI::ValidationError("--hr-queues", "unknown queue design '" + name + "'" +
								  did_you_mean(name, names) + " (all: " +
								  "timerqueue,linked,heap,heap4,wheel)");
		if (std::find(o.queues.begin(), o.queues.end(), name) != o.queues.end())
			throw CLI::ValidationError("--hr-queues", "'" + name + "' is named twice");
		o.queues.push_back(name);
	}
}

}  // namespace

CLI::Validator scheme_name(bool allow_auto)
{
	return CLI::Validator(
		[allow_auto](std::string &name) -> std::string {
			std::vector<std::string> names = scheme_names();
			if (allow_auto)
				names.insert(names.begin(), auto_scheme);
			for (const std::string &n : names)
				if (n == name)
					return "";
			return "unknown scheme '" + name + "'" + did_you_mean(name, names) +
			       "; --list-schemes lists them";
		},
		"");
}

void add_what_if_options(CLI::App *sub, unsigned &what_if_hz, hr_what_if_options &hr)
{
	sub->add_option("--what-if-hz", what_if_hz,
			"also replay the trace as if recorded at HZ N: timeouts re-expressed in time "
			"(rounded up, as msecs_to_jiffies does), both reported side by side")
		->type_name("N")
		->check(number_check(what_if_hz))
		->check(CLI::Range(10u, 10000u).description(""));
	sub->add_option_function<std::string>(
		   "--what-if-hr-slack", [&hr](const std::string &v) { parse_hr_slack(v, hr); },
		   "also run the hrtimers with other ranges, beside the recorded ones: exact (every timer's "
		   "expires = softexpires) or NS (user-space timers - hrtimer_wakeup, posix_timer_fn, "
		   "it_real_fn, timerfd_tmrproc - get expires = softexpires + NS; 50us works too): "
		   "interrupts and lateness side by side")
		->type_name("exact|NS");
	sub->add_option_function<std::string>(
		   "--what-if-highres",
		   [&hr](const std::string &v) {
			   if (v != "off")
				   throw CLI::ValidationError("--what-if-highres",
							      "'" + v + "': the what-if is off (high resolution "
									"is what the recording ran)");
			   hr.highres_off = true;
		   },
		   "off: also run the hrtimers from the tick at jiffy granularity (highres=off: "
		   "hrtimer_run_queues), beside high resolution: interrupts and lateness side by side")
		->type_name("off");
	sub->add_option_function<std::string>(
		   "--hr-queues", [&hr](const std::string &v) { parse_hr_queues(v, hr); },
		   "also feed the hrtimer model's queue operations (arms, removals, expiries per clock "
		   "base) to these queue designs, comma-separated, or all: timerqueue, linked, heap, "
		   "heap4, wheel; their costs side by side")
		->type_name("a,b,...|all");
}

void add_trace_options(CLI::App *sub, trace_args &a)
{
	sub->add_option("TRACE", a.trace,
			"raw tracefs text, `trace-cmd report` or `perf script` text (also gzip), "
			"a trace-cmd trace.dat, or an LTTng CTF directory")
		->required();
	sub->add_option_function<std::string>(
		   "--format",
		   [&a](const std::string &v) {
			   if (!parse_trace_format(v, a.format))
				   throw CLI::ValidationError("--format", "unknown format '" + v + "'" +
								  did_you_mean(v, format_names()));
		   },
		   "the trace's format: auto (detected by content), ftrace, trace-cmd-report, "
		   "perf-script, trace-dat, ctf")
		->type_name("F")
		->default_str("auto");
	sub->add_option("--param", a.params,
			"a scheme parameter, e.g. order=lifo for classic (compare: SCHEME:K=V); "
			"repeatable")
		->type_name("K=V")
		->take_all()
		->allow_extra_args(false);
	sub->add_option("--hz", a.replay.hz,
			"HZ of the recording (default: inferred from timestamps against jiffies): "
			"how long a jiffy is, and v48's LVL_DEPTH; a recording's jiffies are kept")
		->type_name("N")
		->check(number_check(a.replay.hz))
		->check(CLI::Range(1u, 100000u).description(""));
	add_what_if_options(sub, a.what_if_hz, a.replay.hr_what_if);
	sub->add_option_function<std::string>(
		   "--kernel-rules",
		   [&a](const std::string &v) {
			   std::string err;
			   if (!parse_kernel_version(v, a.replay.kernel_rules, err))
				   throw CLI::ValidationError("--kernel-rules", err);
		   },
		   "follow the timer rules of this kernel version (MAJOR.MINOR) instead of those of the "
		   "generation the trace shows (the report's `generation` line): 6.12+ a real-time "
		   "task's sleeps keep no slack in --what-if-hr-slack; 6.19+ a CPU out of timer migration's "
		   "available mask (tmigr_cpu_unavailable, --isolated-cpus) takes no part in it")
		->type_name("VERSION");
	sub->add_option_function<std::string>(
		   "--isolated-cpus",
		   [&a](const std::string &v) {
			   std::string err;
			   if (!parse_isolated_cpu_list(v, a.replay.isolated_cpus, err))
				   throw CLI::ValidationError("--isolated-cpus", err);
		   },
		   "6.19 rules: CPUs isolated at boot (isolcpus= domain, not nohz_full), out of timer "
		   "migration's available mask from the start: their global timers are not expired "
		   "remotely and they expire no other CPU's (a kernel cpulist: 2,4-7)")
		->type_name("LIST");
	sub->add_option_function<std::string>(
		   "--what-if-kernel",
		   [&a](const std::string &v) {
			   unsigned version = 0;
			   std::string err;
			   if (!parse_kernel_version(v, version, err))
				   throw CLI::ValidationError("--what-if-kernel", err);
			   if (version < 701)
				   throw CLI::ValidationError("--what-if-kernel", "'" + v + "': the what-if is 7.1's "
									     "hrtimer rework (7.1 or later)");
			   a.replay.hr_what_if.kernel_71 = true;
		   },
		   "7.1: also run the hrtimers under 7.1's hrtimer rework, beside the recording's rules: "
		   "the tick's cancel + start on leaving idle made one start; device programs and "
		   "interrupts side by side")
		->type_name("7.1");
	sub->add_flag("--own-expiries", a.own_expiries,
		      "drop the recorded expiries: every scheme fires the timers on its own (their "
		      "lines count as skipped)");
	sub->add_option("--word-bits", a.replay.word_bits,
			"width of unsigned long jiffies (default: inferred; 8-hex-digit pointers: 32)")
		->type_name("32|64")
		->check(number_check(a.replay.word_bits))
		->check(CLI::IsMember({32u, 64u}).description(""));
	sub->add_flag("--base-small", a.replay.base_small,
		      "CONFIG_BASE_SMALL wheel geometry (TVR_BITS 6, TVN_BITS 4)");
	sub->add_option("--cpus", a.replay.cpus,
			"number of per-CPU bases (default: the trace's declared count, or the CPUs "
			"its first events name, at most 4096)")
		->type_name("N")
		->check(number_check(a.replay.cpus))
		->check(CLI::Range(1u, 4096u).description(""));
	sub->add_option_function<std::uint64_t>(
		   "--start",
		   [&a](const std::uint64_t &j) {
			   a.replay.has_start = true;
			   a.replay.start = j;
		   },
		   "the jiffy every base starts at (default: the first jiffies of the trace)")
		->type_name("J")
		->check(number_check<std::uint64_t>());
	CLI::Option *drain = sub->add_flag("--drain", a.replay.drain,
					   "after the last event, run every base until it holds no timer");
	sub->add_option("--drain-limit", a.replay.drain_limit,
			"with --drain: at most J jiffies past the last event (default 2^28); the "
			"report says where it stopped")
		->type_name("J")
		->check(number_check(a.replay.drain_limit))
		->needs(drain);
	sub->add_option_function<std::string>(
		   "--ticks",
		   [&a](const std::string &v) {
			   if (!parse_tick_mode(v, a.replay.ticks))
				   throw CLI::ValidationError(
					   "--ticks", "unknown tick model '" + v + "'" +
							      did_you_mean(v, {"auto", "recorded", "every-jiffy"}));
		   },
		   "when a base runs its timers: recorded (only when its CPU ticked in the trace, "
		   "to the jiffies that tick saw), every-jiffy (at every jiffy), auto (recorded when "
		   "the trace has tick events)")
		->type_name("MODEL")
		->default_str("auto");
	sub->add_flag("--lenient", a.replay.lenient,
		      "skip malformed lines (and semantic errors) and count them, instead of failing");
	sub->add_option("--max-cost", a.replay.max_cost,
			"stop (exit 2) when a scheme passes N cost units of work done (insertions + "
			"removals + relinks + slot visits + comparisons; not those counted for idle "
			"jiffies skipped in bulk, save a drain's past 2^32 on a base): a guard for the "
			"superlinear schemes "
			"(default 2^36; 0: no limit)")
		->type_name("N")
		->check(number_check(a.replay.max_cost));
	sub->add_option("--symbols", a.reader.symbols,
			"System.map or kallsyms, to name callback addresses (CTF records addresses)")
		->type_name("FILE")
		->check(non_empty("path"))
		->check(CLI::ExistingFile.description(""));
}

void add_report_options(CLI::App *sub, trace_args &a)
{
	sub->add_option("--json", a.json,
			"the JSON report to FILE; '-' prints it on stdout instead of the text report")
		->type_name("FILE")
		->check(non_empty("path"));
	sub->add_option("--top", a.text.top_functions,
			"callbacks listed in the text report (default 10)")
		->type_name("N")
		->check(number_check(a.text.top_functions));
	sub->add_option("--cost-model", a.cost_model,
			"add what the fitted cost model (timersim cost-model -o) predicts for the "
			"timer softirq's overhead, beside what the trace measured")
		->type_name("FILE")
		->check(non_empty("path"));
	sub->add_flag("--timing", a.text.timing,
		      "add wall time per event to the reports (not reproducible run to run)");
}

replay_options replay_options_of(const trace_args &a)
{
	replay_options opt = a.replay;
	if (!a.cost_model.empty())
		opt.cost_model = std::make_shared<const measured::cost_model>(measured::load_model(a.cost_model));
	return opt;
}

// --own-expiries: the replay drops the recorded expiries, so it can pair
// no recorded run with its kernel's work (and the runs keep their
// callbacks' time): the recording's own model, from a replay with them.
void price_as_recorded(const trace_args &a, replay_options &opt)
{
	if (a.own_expiries && a.cost_model.empty() && a.trace != "-")
		opt.recording_model = std::make_shared<const measured::calibrated_model>(
			recording_model(a.trace, a.format, reader_of(a), opt));
}

reader_options reader_of(const trace_args &a)
{
	reader_options ro = a.reader;
	ro.lenient = a.replay.lenient;
	return ro;
}

std::unique_ptr<trace_reader> open_input(const trace_args &a)
{
	auto reader = open_trace(a.trace, a.format, reader_of(a));
	return a.own_expiries ? make_own_expiries_reader(std::move(reader)) : std::move(reader);
}

std::vector<std::pair<std::string, std::string>> params_for(const trace_args &a,
							    const std::string &scheme,
							    bool named)
{
	std::vector<std::pair<std::string, std::string>> out;
	for (const std::string &p : a.params) {
		std::string kv = p;
		auto colon = p.find(':');
		if (named) {
			if (colon == std::string::npos)
				throw usage_error("--param " + p + ": in compare, name the scheme: SCHEME:" + p);
			if (p.substr(0, colon) != scheme)
				continue;
			kv = p.substr(colon + 1);
		}
		auto eq = kv.find('=');
		if (eq == std::string::npos || eq == 0)
			throw usage_error("--param " + p + ": expected " + (named ? "SCHEME:" : "") +
					  "KEY=VALUE");
		out.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
	}
	return out;
}

std::unique_ptr<progress_sink> terminal_progress(const trace_args &a)
{
	if (!isatty(STDERR_FILENO))
		return nullptr;
	return std::make_unique<progress_line>(file_size(a.trace));
}

}  // namespace timersim::cli
