// timersim replay: one trace through one scheme, the full cost report.
#include <memory>

#include "sim/base/errors.h"
#include "sim/output/expiry_log.h"
#include "sim/output/output_file.h"
#include "sim/output/perfetto.h"
#include "sim/output/timeline.h"
#include "sim/output/why_wake.h"
#include "sim/whatif/hz_rescale.h"
#include "sim/whatif/whatif.h"
#include "tools/commands.h"
#include "tools/numbers.h"
#include "tools/trace_options.h"

namespace timersim::cli {

namespace {

struct replay_args : trace_args {
	std::string scheme = auto_scheme;
	std::string expiry_log;
	std::string timeline, interval, perfetto;
	std::vector<std::string> why;
};

// --what-if-hz with hrtimer what-ifs: the side-by-side table shows no
// hrtimers section, so they follow it, each side's (its HZ sets the tick's
// grid of --what-if-highres).
std::string hrtimer_what_ifs_by_hz(const what_if_reports &w)
{
	std::string out;
	for (const replay_report *r : {&w.recorded, &w.what_if}) {
		std::string h = text_hrtimer_what_ifs(r->hrtimers);
		if (!h.empty())
			out += "\nhrtimers at HZ " + std::to_string(r->input.hz) + "\n" + h;
	}
	return out;
}

int run_replay(const replay_args &a)
{
	check_output_paths({a.trace, a.cost_model}, {{"--json", a.json}, {"--expiry-log", a.expiry_log},
				       {"--timeline", a.timeline}, {"--perfetto", a.perfetto}});
	int to_stdout = (a.json == "-") + (a.expiry_log == "-") + (a.timeline == "-") + (a.perfetto == "-");
	if (to_stdout > 1)
		throw usage_error("only one output can go to stdout ('-')");
	timeline_interval interval = a.interval.empty() ? timeline_interval{} : timeline_interval::parse(a.interval);
	std::vector<why_query> why;
	for (const std::string &spec : a.why)
		why.push_back(why_query::parse(spec));
	if (!why.empty() && to_stdout)
		throw usage_error("--why prints its answer on stdout, after the text report: write the other "
				  "outputs to files");
	auto params = params_for(a, a.scheme, false);
	check_scheme(a.scheme, a.replay, params);

	auto reader = open_input(a);
	output_set outputs;
	std::unique_ptr<expiry_log> log;
	std::vector<replay_sink *> sinks;
	if (!a.expiry_log.empty()) {
		log = std::make_unique<expiry_log>(outputs.open(a.expiry_log));
		sinks.push_back(log.get());
	}
	std::unique_ptr<timeline> timeline_sink;
	std::unique_ptr<perfetto_trace> perfetto_sink;
	if (!a.timeline.empty()) {
		timeline_sink = std::make_unique<timeline>(outputs.open(a.timeline), interval);
		sinks.push_back(timeline_sink.get());
	}
	if (!a.perfetto.empty()) {
		perfetto_sink = std::make_unique<perfetto_trace>(outputs.open(a.perfetto));
		sinks.push_back(perfetto_sink.get());
	}
	std::unique_ptr<why_wake> why_sink;
	if (!why.empty()) {
		why_sink = std::make_unique<why_wake>(why);
		sinks.push_back(why_sink.get());
	}
	auto progress = terminal_progress(a);
	replay_options opt = replay_options_of(a);
	opt.scheme = a.scheme;
	opt.params = params;
	price_as_recorded(a, opt);

	// --what-if-hz: the recording, then the what-if (which the other
	// outputs follow), side by side.
	what_if_reports w;
	if (a.what_if_hz) {
		recorded_clock clock = probe_recorded_clock(a.trace, a.format, reader_of(a), a.replay.hz,
							    a.replay.word_bits);
		w.recorded = replay_trace(*reader, a.trace, opt, {}, progress.get());
		// The what-if priced by the recording's model, as recorded.
		if (!opt.cost_model && !opt.recording_model)
			opt.recording_model = std::make_shared<const measured::calibrated_model>(w.recorded.modelled.model);
		reader = make_hz_rescale_reader(open_input(a), clock.hz, a.what_if_hz, clock.word_bits);
		opt = what_if_options(opt, clock, a.what_if_hz);
	}
	replay_report r = replay_trace(*reader, a.trace, opt, sinks, progress.get());
	w.what_if = r;
	if (why_sink)
		why_sink->check(r);

	if (!a.json.empty())
		outputs.open(a.json).write(a.what_if_hz ? json_what_if(w, a.text.timing)
							: json_report(r, a.text.timing));
	if (!to_stdout)
		outputs.open("-").write((a.what_if_hz ? what_if_table(w) + hrtimer_what_ifs_by_hz(w) : text_report(r, a.text)) +
					(why_sink ? why_sink->text() : ""));
	outputs.commit();
	return 0;
}

}  // namespace

void add_replay(CLI::App &app, command_list &commands)
{
	auto a = std::make_shared<replay_args>();
	CLI::App *sub = app.add_subcommand("replay", "replay a trace through one scheme and report "
						     "what it cost");
	add_trace_options(sub, *a);
	sub->add_option("--scheme", a->scheme,
			"the scheme (default auto: the one that models the recording kernel, v48 "
			"for 4.11+ traces, classic for older); --list-schemes lists them")
		->type_name("S")
		->check(scheme_name(true));
	sub->add_option("--expiry-log", a->expiry_log,
			"CSV cpu,timer,function,expires,fired,recorded,verdict: one row per "
			"simulated expiry, in firing order, with the recorded expiry that judged it "
			"('-': stdout)")
		->type_name("FILE")
		->check(non_empty("path"));
	CLI::Option *tl = sub->add_option("--timeline", a->timeline,
			"CSV per CPU and tick: cpu,jiffy,seconds,ticks,pending[,pending_LEVEL...],"
			"enqueued,moved,cascades,expired,canceled,process_units,softirq_units,softirq_runs,"
			"hrtimer_expiries,interrupts,interrupts_predicted,wakeups_wheel,wakeups_tick,wakeups_hrtimer,"
			"wakeups_none,time_measured_ns,time_modelled_ns,time_modelled_low_ns,time_modelled_high_ns "
			"(the last four on rows of whole seconds; docs/pictures.md: timelines; '-': stdout)")
		->type_name("FILE")
		->check(non_empty("path"));
	sub->add_option("--interval", a->interval,
			"with --timeline: one row per CPU and interval instead of per tick: N jiffies, "
			"or a duration like 10ms or 1s")
		->type_name("N")
		->check(non_empty())
		->needs(tl);
	sub->add_option("--perfetto", a->perfetto,
			"Chrome trace event JSON for ui.perfetto.dev or chrome://tracing: per CPU the "
			"timer armings as slices, cascades, pending timers and moves as counters, simulated softirq runs as slices; "
			"beside them the recorded timer interrupts and callbacks, the measured softirq runs and the hrtimer model's "
			"interrupts")
		->type_name("FILE")
		->check(non_empty("path"));
	sub->add_option("--why", a->why,
			"why did CPU wake at SECONDS (the trace's own time): the recorded timer interrupt "
			"nearest it, the expiry it ran first (an hrtimer, or the tick and the wheel timer "
			"it ran for), what the hrtimer model predicted, the measured time; after the text "
			"report; repeatable")
		->type_name("CPU@SECONDS")
		->check(non_empty())
		->allow_extra_args(false);
	add_report_options(sub, *a);
	sub->footer("examples:\n"
		    "  timersim replay ../shared/traces/linux-3.6-scp_dest/trace.txt\n"
		    "  timersim replay --scheme classic --param order=lifo trace.dat\n"
		    "  timersim replay --drain --json report.json --expiry-log fired.csv trace.txt.gz\n"
		    "  timersim replay --timeline ticks.csv --interval 1s --perfetto replay.json trace.dat\n"
		    "  timersim replay --why 1@12.345678 trace.txt");
	commands.push_back({sub, [a] { return run_replay(*a); }});
}

}  // namespace timersim::cli
