// timersim top: the replay's figures for the running kernel (or a recorded
// trace played back), refreshed every interval.
//
// Each interval's events are replayed as a trace of their own (what
// `replay` reports for that interval); every event also goes, on another
// thread, into one replay of the whole run, whose report is the final
// block: `replay` of the --record file gives the same figures.
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <memory>
#include <thread>
#include <sys/ioctl.h>
#include <unistd.h>
#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "sim/base/errors.h"
#include "sim/output/output_file.h"
#include "sim/output/top_figures.h"
#include "sim/replay/replay.h"
#include "sim/trace/live_tracefs.h"
#include "sim/trace/stored_events.h"
#include "sim/whatif/hz_rescale.h"
#include "sim/whatif/whatif.h"
#include "tools/commands.h"
#include "tools/top_ui.h"
#include "tools/trace_options.h"

namespace timersim::cli {

namespace {

volatile std::sig_atomic_t top_signal = 0;

extern "C" void top_on_signal(int sig)
{
	top_signal = sig;
}

struct top_args {
	std::string trace;		// --trace: play a recorded trace
	double speed = 1;		// --speed: its seconds per wall second (0: at once)
	double interval = 1;		// --interval, seconds
	bool batch = false;
	std::string json_lines, record;
	std::string scheme = auto_scheme;
	unsigned hz = 0;
	unsigned iterations = 0;	// 0: until stopped
	unsigned buffer_kb = 4096;
	std::string tracing_dir;
	unsigned callbacks = 10;
	// What-ifs, modelled beside the recording: another scheme, another
	// HZ, hrtimer slack or high resolution off (replay's options).
	std::string what_if_scheme;
	unsigned what_if_hz = 0;
	hr_what_if_options hr;
};

// The interval's events through the what-if scheme and HZ.
struct top_what_ifs {
	std::string scheme;
	unsigned hz = 0;
};

// The source of events: the live kernel or a recorded trace, read in the
// main loop. Names and callbacks are kept for the run (there are few).
class top_source {
public:
	virtual ~top_source() = default;
	// Appends the events ready by now; false when the source has ended.
	virtual bool pull(std::vector<trace_event> &out, std::uint64_t &ready_until) = 0;
	virtual unsigned cpus() const = 0;
	virtual trace_format format() const = 0;
	virtual const reader_stats &stats() const = 0;
	virtual void stop() = 0;
};

class live_source final : public top_source {
public:
	explicit live_source(const live_options &o) : reader_(o) {}
	bool pull(std::vector<trace_event> &out, std::uint64_t &ready_until) override
	{
		reader_.poll();
		trace_event ev;
		while (reader_.try_next(ev))
			out.push_back(ev);
		ready_until = reader_.stopped() ? ~std::uint64_t{0} : live_reader::now_ns() - 1'000'000;
		return !reader_.stopped();
	}
	unsigned cpus() const override { return reader_.declared_cpus(); }
	trace_format format() const override { return reader_.format(); }
	const reader_stats &stats() const override { return reader_.stats(); }
	void stop() override { reader_.stop(); }
	live_reader &reader() { return reader_; }

private:
	live_reader reader_;
};

class file_source final : public top_source {
public:
	file_source(const std::string &path, double speed)
		: reader_(open_trace(path, trace_format::auto_detect, {})), speed_(speed)
	{
	}
	bool pull(std::vector<trace_event> &out, std::uint64_t &ready_until) override
	{
		const auto now = std::chrono::steady_clock::now();
		for (unsigned n = 0; !ended_ && n < 65536; n++) {
			if (!have_ && !(have_ = reader_->next(ev_))) {
				ended_ = true;
				break;
			}
			if (!started_) {
				started_ = true;
				t0_ = ev_.ts_ns;
				wall0_ = now;
			}
			if (speed_ > 0) {
				double due = double(ev_.ts_ns - std::min(ev_.ts_ns, t0_)) / 1e9 / speed_;
				if (std::chrono::duration<double>(now - wall0_).count() < due)
					break;
			}
			ev_.name = keep(ev_.name);
			ev_.function = keep(ev_.function);
			out.push_back(ev_);
			have_ = false;
		}
		if (ended_)
			ready_until = ~std::uint64_t{0};
		else if (speed_ > 0 && started_)
			ready_until = t0_ + std::uint64_t(std::chrono::duration<double>(now - wall0_).count() *
							  speed_ * 1e9);
		else
			ready_until = out.empty() ? 0 : out.back().ts_ns;
		return !ended_;
	}
	unsigned cpus() const override { return reader_->declared_cpus(); }
	trace_format format() const override { return reader_->format(); }
	const reader_stats &stats() const override { return reader_->stats(); }
	void stop() override { ended_ = true; }

private:
	std::string_view keep(std::string_view s) { return *names_.emplace(s).first; }
	std::unique_ptr<trace_reader> reader_;
	double speed_;
	trace_event ev_;
	bool have_ = false, ended_ = false, started_ = false;
	std::uint64_t t0_ = 0;
	std::chrono::steady_clock::time_point wall0_;
	std::unordered_set<std::string> names_;
};

// The timers armed in earlier intervals and still pending at the end of
// the last one, wheel timers and hrtimers: their last start (and an
// hrtimer's setup, for its clock) is replayed before the next interval's
// events, so that an expiry there is judged against its arming, and what
// the interval ends with pending is the replay's whole state, not only
// what the interval itself armed.
class carried_arms {
public:
	// Follows an interval's events.
	void follow(const std::vector<trace_event> &events)
	{
		for (const trace_event &ev : events) {
			switch (ev.kind) {
			case event_kind::timer_start:
				wheel_[ev.timer] = ev;
				break;
			case event_kind::timer_cancel:
			case event_kind::timer_expire_entry:
				wheel_.erase(ev.timer);
				break;
			case event_kind::hrtimer:
				if (ev.hrtimer == hrtimer_event::init) {
					if (setups_.size() >= max_setups)
						setups_.clear();
					setups_[ev.timer] = ev;
				} else if (ev.hrtimer == hrtimer_event::start) {
					hr_[ev.timer] = ev;
				} else if (ev.hrtimer == hrtimer_event::cancel ||
					   ev.hrtimer == hrtimer_event::expire_entry) {
					hr_.erase(ev.timer);
				}
				break;
			default:
				break;
			}
		}
	}
	// The events to replay first, in the order they were recorded.
	std::vector<trace_event> events() const
	{
		std::vector<trace_event> out;
		for (const auto &[ptr, ev] : wheel_)
			out.push_back(ev);
		for (const auto &[ptr, ev] : hr_) {
			auto s = setups_.find(ptr);
			if (s != setups_.end() && s->second.ts_ns <= ev.ts_ns)
				out.push_back(s->second);
			out.push_back(ev);
		}
		std::stable_sort(out.begin(), out.end(), [](const trace_event &a, const trace_event &b) {
			return a.ts_ns != b.ts_ns ? a.ts_ns < b.ts_ns : a.line < b.line;
		});
		return out;
	}

private:
	// Setups of timers not started since: a bound (most timers are set
	// up once, and a freed one's setup is never claimed).
	static constexpr std::size_t max_setups = 65536;
	std::unordered_map<std::uint64_t, trace_event> wheel_, hr_, setups_;
};

replay_options top_replay_options(const top_args &a)
{
	replay_options o;
	o.scheme = a.scheme;
	o.hz = a.hz;
	o.hr_what_if = a.hr;
	return o;
}

// An interval's figures: the replay of its events after the arms carried
// from before (carried_arms). Those events are the earlier intervals':
// their count, and the process-context work of re-arming them (a replay
// of them alone gives it), are taken off again.
top_figures interval_figures(std::vector<trace_event> carried, const std::vector<trace_event> &window,
			     unsigned cpus, trace_format format, const std::string &label, const replay_options &opt,
			     const top_what_ifs &what_if)
{
	const std::size_t n_carried = carried.size();
	// The schemes: the model's, then the what-if's (one parse for both).
	std::vector<scheme_run> runs{{opt.scheme, opt.params, {}}};
	if (!what_if.scheme.empty())
		runs.push_back({what_if.scheme, {}, {}});
	std::vector<std::map<std::string, std::uint64_t>> rearm_units(runs.size());
	if (n_carried) {
		stored_reader alone(carried, cpus, format);
		std::vector<replay_report> rs = replay_schemes(alone, label, opt, runs);
		for (std::size_t i = 0; i < rs.size(); i++)
			for (const function_stats &f : rs[i].functions)
				rearm_units[i][f.function] += f.process_units;
	}
	carried.insert(carried.end(), window.begin(), window.end());
	stored_reader r(carried, cpus, format);
	std::vector<replay_report> rs = replay_schemes(r, label, opt, runs);
	top_figures w = top_figures_of(rs[0]);
	add_hr_what_ifs(w, rs[0]);
	w.events -= std::min<std::uint64_t>(w.events, n_carried);
	if (rs.size() > 1)
		add_wheel_what_if(w, "scheme " + rs[1].scheme, rs[1]);
	if (what_if.hz) {
		recorded_clock clock{rs[0].input.hz, rs[0].input.word_bits};
		auto rescaled = make_hz_rescale_reader(std::make_unique<stored_reader>(carried, cpus, format), clock.hz,
						       what_if.hz, clock.word_bits);
		replay_options hz_opt = what_if_options(opt, clock, what_if.hz);
		hz_opt.hr_what_if = {};
		add_wheel_what_if(w, "HZ " + std::to_string(what_if.hz), replay_trace(*rescaled, label, hz_opt));
		// Its re-arming of the carried arms, as for the schemes below.
		rearm_units.emplace_back();
		if (n_carried) {
			const std::vector<trace_event> prefix(carried.begin(), carried.begin() + std::ptrdiff_t(n_carried));
			auto alone = make_hz_rescale_reader(std::make_unique<stored_reader>(prefix, cpus, format),
							    clock.hz, what_if.hz, clock.word_bits);
			for (const function_stats &f : replay_trace(*alone, label, hz_opt).functions)
				rearm_units.back()[f.function] += f.process_units;
		}
	}
	// The carried arms' re-arming is the earlier intervals' work.
	auto total = [](const std::map<std::string, std::uint64_t> &m) {
		std::uint64_t n = 0;
		for (const auto &f : m)
			n += f.second;
		return n;
	};
	// rearm_units: [0] the scheme's, then each wheel what-if's in the
	// order of w.what_ifs' wheel ones (the first gives what_if_units).
	w.units -= std::min(w.units, total(rearm_units[0]));
	std::size_t k = 1;
	for (top_what_if &x : w.what_ifs)
		if (x.wheel && k < rearm_units.size())
			x.units -= std::min(x.units, total(rearm_units[k++]));
	for (top_callback &c : w.callbacks) {
		auto it = rearm_units[0].find(c.function);
		if (it != rearm_units[0].end())
			c.model_units -= std::min(c.model_units, it->second);
		if (rearm_units.size() > 1 && (it = rearm_units[1].find(c.function)) != rearm_units[1].end())
			c.what_if_units -= std::min(c.what_if_units, it->second);
	}
	return w;
}

int run_top(const top_args &a)
{
	if (a.interval < 0.01)
		throw usage_error("--interval must be at least 0.01 s");
	if (!a.trace.empty() && !a.record.empty())
		throw usage_error("--record writes what a live session read; --trace plays a file that is "
				  "already recorded");
	if (!a.batch && !::isatty(STDOUT_FILENO))
		throw usage_error("the terminal UI needs a terminal on stdout: give --batch for plain "
				  "blocks (or --json-lines FILE)");
	check_scheme(a.scheme, top_replay_options(a), {});
	if (!a.what_if_scheme.empty())
		check_scheme(a.what_if_scheme, top_replay_options(a), {});
	if (!a.hr.queues.empty())
		throw usage_error("--hr-queues: top shows no queue designs (timersim replay --hr-queues does)");
	const top_what_ifs what_ifs{a.what_if_scheme, a.what_if_hz};
	// Before the instance exists: a signal then ends the run as q does,
	// and the instance is removed.
	struct sigaction sa = {};
	sa.sa_handler = top_on_signal;
	for (int s : {SIGINT, SIGTERM, SIGHUP})
		sigaction(s, &sa, nullptr);
	std::unique_ptr<top_source> source;
	live_source *live = nullptr;
	if (a.trace.empty()) {
		live_options lo;
		lo.tracing_dir = a.tracing_dir;
		lo.record = a.record;
		lo.buffer_kb = a.buffer_kb;
		try {
			auto s = std::make_unique<live_source>(lo);
			live = s.get();
			source = std::move(s);
		} catch (const live_unavailable &e) {
			std::fprintf(stderr,
				     "timersim top: cannot trace the live kernel: %s\n"
				     "  (timersim top --trace FILE plays a recorded trace instead)\n",
				     e.what());
			return 2;
		}
		for (const std::string &m : live->reader().missing())
			std::fprintf(stderr, "timersim top: this kernel lacks %s\n", m.c_str());
	} else {
		source = std::make_unique<file_source>(a.trace, a.speed);
	}

	output_set outputs;
	output_file *json = a.json_lines.empty() ? nullptr : &outputs.open(a.json_lines);
	const std::string label = a.trace.empty() ? "live:" + (live ? live->reader().instance() : "") : a.trace;

	// The whole run's replay, on its own thread.
	event_queue queue(source->cpus(), source->format());
	replay_options opt = top_replay_options(a);
	// The run's replay may go on for hours: its memory stays flat (the
	// figures top shows are counts and totals, which stay exact).
	replay_options run_opt = opt;
	run_opt.bounded_memory = true;
	// An interval's replay reads events held in memory.
	opt.read_on_demand = true;
	replay_report final_report;
	std::exception_ptr run_failed;
	std::thread run_thread([&] {
		try {
			final_report = replay_trace(queue, label, run_opt);
		} catch (...) {
			run_failed = std::current_exception();
		}
	});

	std::unique_ptr<top_ui> ui;
	if (!a.batch)
		ui = std::make_unique<top_ui>();
	top_block_options view;
	view.callbacks = a.callbacks;
	top_figures run_sum;
	std::vector<trace_event> window, fresh;
	std::uint64_t boundary = 0, n_intervals = 0;
	bool have_start = false, going = true;
	const std::uint64_t step = std::uint64_t(a.interval * 1e9);

	carried_arms carried;
	auto close_window = [&](std::uint64_t end) {
		top_figures w;
		if (!window.empty()) {
			try {
				w = interval_figures(carried.events(), window, source->cpus(), source->format(),
						     label, opt, what_ifs);
			} catch (const input_error &e) {
				std::fprintf(stderr, "timersim top: interval %llu: %s\n",
					     (unsigned long long)n_intervals + 1, e.what());
			}
			carried.follow(window);
			queue.push(window);
		}
		w.seconds = a.interval;
		run_sum.add(w);
		n_intervals++;
		window.clear();
		const double t = double(end) / 1e9;
		char title[160];
		std::snprintf(title, sizeof title, "timersim top  interval %llu  t=%.3f s (%.2f s)  %s",
			      (unsigned long long)n_intervals, t, a.interval, label.c_str());
		if (json)
			json->write(top_json_line(n_intervals, t, w, run_sum, false));
		if (ui)
			ui->show(title, w, run_sum);
		else {
			view.width = 200;
			std::fputs((top_text_block(title, w, run_sum, view) + "\n").c_str(), stdout);
			std::fflush(stdout);
		}
	};

	while (going) {
		fresh.clear();
		std::uint64_t ready_until = 0;
		bool more = source->pull(fresh, ready_until);
		for (const trace_event &ev : fresh) {
			if (!have_start) {
				have_start = true;
				boundary = ev.ts_ns + step;
			}
			while (ev.ts_ns >= boundary) {
				close_window(boundary);
				boundary += step;
			}
			window.push_back(ev);
		}
		if (have_start)
			while (ready_until != ~std::uint64_t{0} && ready_until >= boundary) {
				close_window(boundary);
				boundary += step;
			}
		if (a.iterations && n_intervals >= a.iterations)
			going = false;
		if (top_signal || (ui && ui->quit_asked()))
			going = false;
		if (!more)
			going = false;
		if (going && fresh.size() < 4096)
			std::this_thread::sleep_for(std::chrono::milliseconds(ui ? 50 : 100));
		if (ui)
			ui->keys();
	}
	// The end: what the source still holds, then the run's own replay.
	source->stop();
	fresh.clear();
	std::uint64_t ignore;
	source->pull(fresh, ignore);
	// Every event read goes into the run (and the last interval), as it
	// went into --record's file.
	window.insert(window.end(), fresh.begin(), fresh.end());
	if (!window.empty())
		close_window(boundary);
	queue.close(source->stats());
	run_thread.join();
	ui.reset();
	if (run_failed)
		std::rethrow_exception(run_failed);
	std::string why;
	if (live && !live->reader().finish_record(why))
		throw output_error(why);
	top_figures final_figures = top_figures_of(final_report);
	add_hr_what_ifs(final_figures, final_report);
	// The wheel what-ifs of the run: its intervals' added up (the run's
	// replay is the recording's alone).
	for (const top_what_if &w : run_sum.what_ifs)
		if (w.wheel) {
			final_figures.what_ifs.push_back(w);
			final_figures.what_ifs.back().label += " (intervals added up)";
		}
	// After the UI, the final block in the terminal's width.
	winsize ws{};
	view.width = !a.batch && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col ? ws.ws_col : 200;
	if (json)
		json->write(top_json_line(n_intervals, final_figures.seconds, final_figures, final_figures, true));
	std::fputs(top_text_block("timersim top  final: the whole run, replayed  " + label, final_figures,
				  final_figures, view)
			   .c_str(),
		   stdout);
	outputs.commit();
	if (live && !live->reader().lost_by_cpu().empty() && final_figures.lost)
		std::fprintf(stderr, "timersim top: the ring buffers lost %llu events (--buffer-kb)\n",
			     (unsigned long long)final_figures.lost);
	// A kernel without some events: the parts it could show were shown;
	// the run still says what it lacked.
	if (live && !live->reader().missing().empty()) {
		for (const std::string &m : live->reader().missing())
			std::fprintf(stderr, "timersim top: this kernel lacks %s\n", m.c_str());
		return 2;
	}
	return 0;
}

}  // namespace

void add_top(CLI::App &app, command_list &commands)
{
	auto a = std::make_shared<top_args>();
	CLI::App *sub = app.add_subcommand("top", "the replay's figures for the running kernel, "
						  "refreshed every interval (root, tracefs)");
	sub->add_option("--trace", a->trace, "play a recorded trace instead of the live kernel")
		->type_name("FILE");
	sub->add_option("--speed", a->speed, "with --trace: trace seconds per wall second (0: as fast as read)")
		->type_name("N")
		->check(CLI::NonNegativeNumber);
	sub->add_option("--interval", a->interval, "seconds per refresh (default 1)")->type_name("S");
	sub->add_flag("--batch", a->batch, "one plain block per interval on stdout, no terminal UI");
	sub->add_option("--json-lines", a->json_lines, "one JSON object per interval, and a final one")
		->type_name("FILE");
	sub->add_option("--record", a->record, "also write what was read as a trace.dat `replay` reads")
		->type_name("FILE");
	sub->add_option("--scheme", a->scheme, "the scheme (default auto: the running kernel's wheel)")
		->type_name("S")
		->check(scheme_name(true));
	sub->add_option("--hz", a->hz, "the kernel's HZ (default: inferred from the events)")->type_name("N");
	sub->add_option("--iterations", a->iterations, "stop after N intervals")->type_name("N");
	sub->add_option("--buffer-kb", a->buffer_kb, "each CPU's ring buffer (default 4096)")->type_name("KB");
	sub->add_option("--tracing-dir", a->tracing_dir, "where tracefs is mounted (default: libtracefs finds it)")
		->type_name("DIR");
	sub->add_option("--callbacks", a->callbacks, "callbacks shown (default 10)")->type_name("N");
	sub->add_option("--what-if-scheme", a->what_if_scheme,
			"also replay each interval through scheme S: its work and TIMER overhead, modelled, "
			"beside the recording's (and a what-if u column per callback)")
		->type_name("S")
		->check(scheme_name(false));
	add_what_if_options(sub, a->what_if_hz, a->hr);
	sub->footer("keys: q quit, s sort (measured ns, model units, wakeups, expiries), c CPU, p pause\n"
		    "examples:\n"
		    "  sudo timersim top\n"
		    "  sudo timersim top --batch --iterations 10 --record live.dat\n"
		    "  timersim top --trace live.dat --speed 4");
	commands.push_back({sub, [a] { return run_top(*a); }});
}

}  // namespace timersim::cli
