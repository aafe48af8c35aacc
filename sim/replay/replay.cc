#include "sim/replay/replay.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>

#include "sim/base/errors.h"
#include "sim/stream/event_stream.h"
#include "sim/base/interner.h"
#include "sim/replay/cost_guard.h"
#include "sim/replay/cpu_watch.h"
#include "sim/replay/jiffies_track.h"
#include "sim/replay/replay_engine.h"
#include "sim/base/trace_clock.h"
#include "sim/stream/kernel_generation.h"
#include "sim/stream/trace_shape.h"
#include "sim/hrtimer/hr_replay.h"
#include "sim/measured/cpu_time.h"
#include "sim/ticks/tick_identity.h"

namespace timersim {

namespace {

// The model every scheme of this replay is priced with: a --cost-model
// file's; else the recording's own runs, paired with the work its kernel's
// scheme did in them; else the built-in reference. The state: the trace's
// mean timer-interrupt own time (0 when none was recorded).
measured::calibrated_model choose_model(const std::vector<replay_report> &reports,
					const std::shared_ptr<const measured::cost_model> &file,
					const std::shared_ptr<const measured::calibrated_model> &recording,
					bool expiries_kept, std::string &note)
{
	const replay_report &any = reports.front();
	const double state = any.measured.interrupts_recorded ? any.measured.all.interrupts.timer.mean_ns() : 0.0;
	if (file)
		return measured::file_calibration(*file, state);
	if (recording) {
		if (recording->source == measured::model_source::self)
			note = "fitted on the recording's own runs by a replay of its kernel's scheme with the recorded "
			       "expiries (this replay cannot pair them with that work)";
		return *recording;
	}
	// The schemes fired the timers themselves (--own-expiries, with no
	// replay of the recorded expiries before: a trace read once, from
	// standard input): no run can be paired with its kernel's work.
	if (expiries_kept && any.measured.softirqs_recorded && !any.timer_runs.empty()) {
		note = "the recorded expiries were kept from the schemes (--own-expiries), so no run pairs with the work "
		       "its kernel did, and no replay with them fitted the recording's model (a trace read once)";
		return measured::reference_calibration(state);
	}
	for (const replay_report &r : reports)
		if (r.scheme == r.input.kernel_scheme && r.timer_runs.size() >= measured::cv_blocks)
			return measured::self_calibrate(r.timer_runs, r.run_work, r.timer_interrupts, r.callback_times,
							state, r.input.path);
	bool kernel_replayed = false;
	for (const replay_report &r : reports)
		kernel_replayed = kernel_replayed || r.scheme == r.input.kernel_scheme;
	if (any.measured.softirqs_recorded && !any.timer_runs.empty())
		note = kernel_replayed ? "the recording's " + std::to_string(any.timer_runs.size()) +
						 " TIMER runs are too few to fit on and hold out " +
						 std::to_string(measured::cv_blocks) + " blocks"
				       : "the recording's runs were not fitted on: its kernel's scheme (" +
						 any.input.kernel_scheme +
						 ") was not replayed, and only it pairs each run with its work";
	return measured::reference_calibration(state);
}

// What the model predicts for the scheme of `r` over the whole trace, and,
// for the recording kernel's own scheme, how it fares.
modelled_cost model_costs(const replay_report &r, const measured::calibrated_model &m, const std::string &note,
			  bool imposed, const second_grid &grid)
{
	modelled_cost c;
	c.given = true;
	c.model = m;
	c.sources = m.sources;
	c.note = note;
	c.runs = scheme_softirq_runs(r.scheme, r.softirq_work, r.ticks_processed, r.softirq_work.ticks > 0);
	measured::priced p = measured::price(m, measured::terms_of(r.softirq_work, double(c.runs)));
	// The model follows the state: the whole is its stretches' sum, each
	// stretch's work (its seconds') priced at its state, as the time
	// table prices each second.
	const stretch_prices sp(m, grid);
	if (sp.on() && !r.seconds_cut && !r.seconds_work.empty()) {
		std::vector<measured::term_vector> x(sp.stretches(), measured::term_vector{});
		const bool ticks_recorded = r.softirq_work.ticks > 0;
		for (const auto &[k, w] : r.seconds_work) {
			const double runs = double(scheme_softirq_runs(r.scheme, w.softirq, w.processed, ticks_recorded));
			const measured::term_vector t = measured::terms_of(w.softirq, runs);
			measured::term_vector &to = x[sp.of_second(k.first)];
			for (unsigned i = 0; i < measured::model_terms; i++)
				to[i] += t[i];
		}
		measured::priced sum;
		for (std::size_t b = 0; b < x.size(); b++) {
			const measured::priced s = sp.price(b, x[b]);
			add_priced(sum, s);
			const double at_mean = measured::price(m, x[b]).ns;
			const measured::cv_block &block = m.cv.blocks[b];
			c.stretches.push_back({sp.first_second(b), block.first_ns, block.last_ns,
					       at_mean > 0 ? s.ns / at_mean : 1.0, s.ns, s.low, s.high});
		}
		p.ns = sum.ns;
		p.low = sum.low;
		p.high = sum.high;
		p.borrowed_ns = sum.borrowed_ns;
		p.folds = sum.folds;
	}
	c.softirq.ns = p.ns;
	c.softirq.low = p.low;
	c.softirq.high = p.high;
	c.softirq.unfitted = p.unfitted;
	c.borrowed_ns = p.borrowed_ns;
	c.borrowed = p.borrowed;
	c.folds = p.folds;
	if (r.scheme == r.input.kernel_scheme && !r.timer_runs.empty() && !imposed) {
		c.checked = true;
		// The runs as the model prices them (the reference: at the
		// trace's state).
		const std::vector<measured::run_sample> runs = measured::samples_of(r.timer_runs, r.run_work);
		c.check = measured::check(m.model, m.source == measured::model_source::reference
							   ? measured::state_samples(runs, m.state_ns)
							   : runs);
		c.verdict = m.source == measured::model_source::self && m.cross_validated
			? m.cv.whole
			: measured::judge(double(r.measured.all.timer_softirq.overhead_ns()), p.ns);
	}
	return c;
}

// Each callback's measured time, where the trace recorded its runs (its
// timer_expire_entry/exit pairs, own time: hard irqs inside excluded); a
// callback with no recorded run took none of it.
void attach_measured(replay_report &r)
{
	if (!r.measured.callbacks_recorded)
		return;
	for (function_stats &f : r.functions) {
		auto it = r.measured.callbacks.find(f.function);
		f.measured_ns = it == r.measured.callbacks.end() ? 0.0 : double(it->second.runs.total_ns);
	}
}

// How far the driver looks past a timer_cancel for the next timer event on
// the same CPU. Between a cancel and its expiry or re-start the kernel
// holds the base lock, so the partner comes right after on that CPU.
constexpr std::size_t cancel_lookahead = 4096;

// CPUs a trace may name when it does not declare its count (#P:, cpus=):
// the same cap as --cpus.
constexpr unsigned max_undeclared_cpus = 4096;

// Reading progress is reported every this many events.
constexpr std::uint64_t progress_every = 65536;

// Events looked at before the replay to find the tick and fit its grid.
constexpr std::size_t tick_prologue = 65536;

// TIMER softirq runs the measurement's vectors hold before they grow.
constexpr std::size_t runs_reserved = 65536;

using engine_list = std::vector<std::unique_ptr<replay_engine>>;

// The replay's main loop, as __run_timers is the kernel's: read the
// trace's shape, make an engine per scheme, take every event through the
// measurement, the hrtimer model and the engines, then drain and report.
class replay_driver {
public:
	replay_driver(trace_reader &reader, const std::string &path, const replay_options &opt,
		      progress_sink *progress)
		: reader_(reader), stream_(reader, functions_,
			  opt.read_on_demand ? event_stream::reading::on_demand
			  : opt.text_block   ? event_stream::reading::blocks
					     : event_stream::reading::background,
			  opt.text_block),
		  path_(path), opt_(opt),
		  progress_(progress), guard_(opt.max_cost)
	{
		if (opt.bounded_memory)
			measured_.bound_durations();
	}

	std::vector<replay_report> run(const std::vector<scheme_run> &runs);

private:
	// The steps of run(), in order.
	void read_shape();
	void start_jiffies();
	void make_models();
	engine_list make_engines(const std::vector<scheme_run> &runs);
	void refuse_unread_options(const std::vector<std::string> &names) const;
	void watch_cpus(const std::vector<scheme_run> &runs);
	void replay_events(engine_list &engines);
	void finish_reading();
	void drain(replay_engine &e, jiffies_t limit, replay_report &r);
	void assemble(std::size_t i, engine_list &engines, replay_report &r);
	void price(std::vector<replay_report> &reports) const;

	// One event, through every part of the replay that takes its kind.
	[[gnu::always_inline]] void replay_event(const sim_event &ev, std::uint32_t &loss,
						 engine_list &engines);
	// Of an event of kind K: the loop's switch knows it, and each of its
	// cases has its own copy of the part that applies.
	template <event_kind K> [[gnu::always_inline]] bool prepare(const sim_event &ev, prepared_event &p);
	template <event_kind K> [[gnu::always_inline]] timer_id timer_id_of(const sim_event &ev);
	cancel_role classify_cancel(const sim_event &ev);
	// Inline where they pass (nearly every event); the messages of a
	// rejection out of line.
	bool check_cpu(const sim_event &ev, unsigned cpu)
	{
		return cpu < input_.cpus || reject_cpu(ev, cpu);
	}
	[[gnu::noinline, gnu::cold]] bool reject_cpu(const sim_event &ev, unsigned cpu);
	[[gnu::always_inline]] bool note_jiffies(const sim_event &ev, jiffies_t j)
	{
		if (!jiffies_.fits(ev.cpu, j)) [[unlikely]]
			return reject_jiffies(ev, j);
		jiffies_.note(ev.cpu, j);
		if (ev.carries(EF_TIMESTAMP))
			clock_.observe(j, ev.ts_ns);
		return true;
	}
	[[gnu::noinline, gnu::cold]] bool reject_jiffies(const sim_event &ev, jiffies_t j);
	bool reject(const sim_event &ev, const std::string &reason);
	jiffies_t unwrap(std::uint64_t raw) const { return jiffies_.unwrap(raw); }
	std::uint64_t narrow(jiffies_t j) const { return jiffies_.narrow(j); }
	void fill_input(replay_report &r) const;
	void check_symbols();
	// Inlined in the event loop, whatever else grows: out of line, its
	// call and a second switch on the kind would be paid at every event.
	// KIND: what the event is to the measurement (the loop's switch
	// knows it).
	[[gnu::always_inline]] void measure(const sim_event &ev, measured::cost_kind kind,
					    engine_list &engines);
	// The events of the wheel and the tick, prepared once and applied by
	// every engine; LOSS: the event_field bits of the events since the
	// last one applied (EF_AFTER_LOSS is the one read).
	template <event_kind K>
	[[gnu::always_inline]] void apply_prepared(const sim_event &ev, std::uint32_t &loss,
						   engine_list &engines)
	{
		prepared_event p;
		if (!prepare<K>(ev, p))
			return;
		p.timer = timer_id_of<K>(ev);
		p.after_loss = (loss & EF_AFTER_LOSS) != 0;
		loss = 0;
		for (auto &e : engines)
			e->template apply<K>(p);
	}
	void reserve_runs(std::size_t engines);
	bool is_tick_function(std::uint32_t id);

	trace_reader &reader_;
	interner functions_;
	event_stream stream_;
	std::string path_;
	const replay_options &opt_;
	symbol_fit symbols_;		// how the callbacks fitted --symbols
	progress_sink *progress_;
	cost_guard guard_;		// --max-cost

	input_summary input_;
	event_counts counts_;
	flat_ids timer_ids_;	// timer pointer -> the engines' dense id (prepared_event::timer)
	trace_shape shape_;
	trace_clock clock_;
	std::unique_ptr<tick_source> ticks_;
	jiffies_t start_ = 0;
	jiffies_track jiffies_;	// the latest jiffies, and each CPU's last
	std::vector<std::string> choices_;	// by engine: how its scheme was chosen
	std::uint64_t rejected_ = 0;	// events skipped by --lenient semantic checks
	measured::cpu_time measured_;	// what the recording machine spent, from its events
	measured::cost_report measured_report_;
	std::unique_ptr<hrtimer_replay> hrtimers_;	// the hrtimer half, through the kernel's model
	hrtimer_summary hrtimer_report_;
	std::vector<measured::softirq_run> timer_runs_;
	std::vector<measured::interrupt_cost> timer_interrupts_;
	std::vector<measured::callback_time> callback_times_;
	std::vector<std::vector<measured::softirq_work>> run_work_;	// by engine
	std::vector<std::int8_t> tick_function_;	// by callback id: -1 unknown, 0 no, 1 the tick's
	// By CPU: the timer whose callback runs (its timer_expire_entry came,
	// its _exit not yet), 0 when none: a start of it then is its own
	// callback's (prepared_event::in_callback).
	std::vector<std::uint64_t> running_callback_;
	// The CPU timeline of both halves, for the sinks that draw it: the
	// model's calls and the run an event closed wait until the engines
	// applied the event (a tick's row is then open).
	cpu_watch cpus_;
	second_grid grid_;
	// The last engine is the recording kernel's scheme, replayed only to
	// fit the model the others are priced with (make_engines).
	bool pricing_engine_ = false;
	// Recorded expiries the measurement took and no scheme (EF_MEASURE_ONLY).
	std::uint64_t kept_from_schemes_ = 0;
};

// The CPU timeline, when a sink wants it.
void replay_driver::watch_cpus(const std::vector<scheme_run> &runs)
{
	// The tick's hrtimer by its name, or the callback the tick model found
	// by its rhythm (a trace that names callbacks by address).
	const tick_identity tick = ticks_->summary().tick;
	const std::uint32_t tick_id = tick.found() ? tick.function : 0;
	cpus_.watch(
		runs, [this](std::uint32_t id) -> const std::string & { return functions_.name(id); },
		[this, tick_id](std::uint32_t id) { return (tick_id && id == tick_id) || is_tick_function(id); },
		*hrtimers_);
}

bool replay_driver::is_tick_function(std::uint32_t id)
{
	if (tick_function_.size() <= id)
		tick_function_.resize(std::size_t(id) + 1, -1);
	if (tick_function_[id] < 0)
		tick_function_[id] = is_tick_callback_name(functions_.name(id));
	return tick_function_[id] == 1;
}

// The events that say what the timer code cost the recording machine go
// to the measurement, whatever the replay makes of them: the softirq runs,
// the hard interrupts and the callbacks' entries and exits.
inline void replay_driver::measure(const sim_event &ev, measured::cost_kind kind,
				   engine_list &engines)
{
	using measured::cost_kind;
	if (!ev.carries(EF_TIMESTAMP))
		return;
	measured::cost_event m;
	m.kind = kind;
	m.cpu = ev.cpu;
	m.ts_ns = ev.ts_ns;
	m.vec = is_cost_event(ev.kind) ? ev.vec : 0;	// a callback's event: target_cpu's place
	m.timer_interrupt = ev.timer_interrupt;
	m.function = ev.function;
	m.tick = m.kind == cost_kind::callback_entry && ev.kind == event_kind::hrtimer && is_tick_function(ev.function);
	const measured::softirq_run *run = measured_.add(m);
	if (const measured::interrupt_cost *irq = measured_.take_interrupt()) [[unlikely]]
		timer_interrupts_.push_back(*irq);
	if (const measured::callback_time *cb = measured_.take_callback()) [[unlikely]]
		if (!opt_.bounded_memory || timer_runs_.size() < bounded_timer_runs)
			callback_times_.push_back(*cb);
	if (run && cpus_.on())
		cpus_.softirq_closed(*run);
	// A TIMER run closed: what each scheme did for that CPU since its
	// last run is this run's work.
	if (!run || run->vec != TIMER_SOFTIRQ || run->cpu >= input_.cpus)
		return;
	if (timer_runs_.empty())
		reserve_runs(engines.size());
	const bool keep = !opt_.bounded_memory || timer_runs_.size() < bounded_timer_runs;
	if (keep)
		timer_runs_.push_back(*run);
	for (std::size_t i = 0; i < engines.size(); i++) {
		measured::softirq_work w = engines[i]->take_softirq_work(run->cpu);
		if (keep)
			run_work_[i].push_back(w);
	}
}

// Room for the runs of a small trace up front: address space, not memory
// (a page is touched when a run is written). Grown by doubling from
// nothing, every copy would touch fresh pages, and on a virtual machine a
// first-touch fault costs microseconds. Out of line: measure() stays
// inlined in the event loop.
[[gnu::noinline, gnu::cold]] void replay_driver::reserve_runs(std::size_t engines)
{
	timer_runs_.reserve(runs_reserved);
	run_work_.resize(engines);
	for (auto &w : run_work_)
		w.reserve(runs_reserved);
}

// What the trace is: its format, HZ, word, CPUs and recording kernel,
// from its first events (the input section of every report).
void replay_driver::read_shape()
{
	shape_ = infer_trace_shape(stream_, stream_.declared_cpus());
	input_summary &in = input_;

	in.path = path_;
	in.format = trace_format_name(reader_.format());
	in.unit = reader_.unit();
	in.clock = reader_.clock();
	in.hz = opt_.hz ? opt_.hz : shape_.hz ? shape_.hz : 250;
	in.hz_inferred = !opt_.hz && shape_.hz;
	in.hz_trace = shape_.hz;
	in.word_bits = opt_.word_bits ? opt_.word_bits : shape_.word_bits ? shape_.word_bits : 64;
	in.word_bits_inferred = !opt_.word_bits && shape_.word_bits;
	// Bases for the CPUs the trace declares, or else that its prologue
	// names, within a cap: the numbers in a trace must not size the
	// replay. An event on a CPU beyond them is an input error.
	unsigned declared = stream_.declared_cpus();
	in.cpus = opt_.cpus ? opt_.cpus
		: declared  ? declared
			    : std::min(std::max(shape_.cpus, 1u), max_undeclared_cpus);
	kernel_of(shape_, in.kernel, in.kernel_scheme);
	in.generation = detect_kernel_generation(shape_);
	if (opt_.kernel_rules)
		set_kernel_rules(in.generation, opt_.kernel_rules);
	clock_.set_hz(in.hz);
}

// The jiffies every base starts at: the trace's first, or --start before
// them. Reports narrow values back to the word.
void replay_driver::start_jiffies()
{
	input_summary &in = input_;
	jiffies_.begin(in.word_bits, in.cpus, shape_.first_jiffies);
	const jiffies_t first = jiffies_.latest();
	start_ = opt_.has_start ? unwrap(opt_.start) : first;
	if (shape_.has_jiffies && start_ < first && first - start_ > max_jiffies_leap)
		throw usage_error("--start " + std::to_string(opt_.start) + " is " +
				  std::to_string(first - start_) +
				  " jiffies before the trace's first jiffies " +
				  std::to_string(narrow(first)) + " (more than 2^32)");
	jiffies_.start_at(start_);
	in.first_jiffies = narrow(start_);
}

// The models every scheme shares: the hrtimer half (through the kernel's
// hrtimer model) and the tick (when each base runs its timers).
void replay_driver::make_models()
{
	const input_summary &in = input_;
	hrtimers_ = std::make_unique<hrtimer_replay>(in.cpus);
	hrtimers_->set_deferred_rearm(in.generation.deferred_rearm, shape_.hrtimer_rearms != 0);
	if (opt_.hr_what_if.any()) {
		hr_what_if_options w = opt_.hr_what_if;
		w.rt_zero_slack = in.generation.rt_zero_slack;
		hrtimers_->set_what_ifs(w, in.hz, [this](std::uint32_t id) { return functions_.name(id); });
	}
	ticks_ = std::make_unique<tick_source>(stream_, functions_, opt_.ticks, in.hz, in.word_bits,
					       in.cpus, tick_prologue, opt_.ticks_why);
	const tick_summary ticks = ticks_->summary();
	if (ticks.tick.found())
		hrtimers_->set_tick(ticks.tick.function, ticks.tick.tick_nsec);
}

std::vector<replay_report> replay_driver::run(const std::vector<scheme_run> &runs)
{
	const auto t0 = std::chrono::steady_clock::now();
	read_shape();
	start_jiffies();
	make_models();
	// The seconds of the per-second figures: the timeline's, from the start.
	grid_ = {&clock_, start_, input_.hz};
	measured_.per_second(grid_);
	hrtimers_->per_second(grid_);
	engine_list engines = make_engines(runs);
	watch_cpus(runs);
	replay_events(engines);
	finish_reading();

	// One drain limit for every base and scheme; far timers stay pending.
	const jiffies_t now = jiffies_.latest();
	const jiffies_t limit = opt_.drain_limit > ~jiffies_t{0} - now ? ~jiffies_t{0}
									: now + opt_.drain_limit;
	std::vector<replay_report> reports(engines.size());
	const std::size_t shown = engines.size() - (pricing_engine_ ? 1 : 0);
	for (std::size_t i = 0; i < engines.size(); i++) {
		engines[i]->end_seconds_at(now);
		// The pricing engine's drain would add no run.
		if (opt_.drain && i < shown)
			drain(*engines[i], limit, reports[i]);
		assemble(i, engines, reports[i]);
	}
	price(reports);
	const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
	for (std::size_t i = 0; i < engines.size(); i++) {
		reports[i].wall_seconds = wall;
		engines[i]->end(reports[i]);
	}
	reports.resize(shown);
	return reports;
}

// An engine per scheme run, begun at the replay's start.
engine_list replay_driver::make_engines(const std::vector<scheme_run> &runs)
{
	replay_setup setup;
	setup.path = path_;
	setup.cpus = input_.cpus;
	setup.hz = input_.hz;
	setup.word_bits = input_.word_bits;
	setup.clock = &clock_;
	setup.tick_driven = ticks_->recorded();
	setup.kernel_scheme = input_.kernel_scheme;
	if (!opt_.isolated_cpus.empty()) {
		if (!input_.generation.tmigr_available)
			throw usage_error("--isolated-cpus: the trace's kernel generation (" +
					  input_.generation.range() +
					  ") keeps isolated CPUs in timer migration; it takes the 6.19 rules "
					  "(--kernel-rules 6.19)");
		for (unsigned cpu : opt_.isolated_cpus)
			if (cpu >= input_.cpus)
				throw usage_error("--isolated-cpus: CPU " + std::to_string(cpu) +
						  " is not one of the trace's " + std::to_string(input_.cpus));
		setup.isolated = opt_.isolated_cpus;
	}

	engine_list engines;
	std::vector<std::string> names;
	for (const scheme_run &run : runs) {
		scheme_options so;
		so.hz = input_.hz;
		so.word_bits = input_.word_bits;
		so.base_small = opt_.base_small;
		so.params = run.params;
		so.stepping = opt_.stepping;
		bool automatic = run.scheme == auto_scheme;
		std::string name = automatic ? input_.kernel_scheme : run.scheme;
		names.push_back(name);
		choices_.push_back(automatic ? "auto: the recording kernel's wheel" : "");
		engines.push_back(std::make_unique<replay_engine>(make_scheme(name, so), functions_,
								  run.sinks));
		engines.back()->begin(setup, start_);
	}
	refuse_unread_options(names);
	// No scheme of the run is the recording kernel's, and nothing else
	// prices it: that scheme replayed beside them, for its price only
	// (no sinks, no report), so that a replay of another scheme alone is
	// priced by the model its kernel's runs fit, as `compare` is.
	const bool kernel_named = std::find(names.begin(), names.end(), input_.kernel_scheme) != names.end();
	if (!kernel_named && !input_.kernel_scheme.empty() && !opt_.cost_model && !opt_.recording_model) {
		scheme_options so;
		so.hz = input_.hz;
		so.word_bits = input_.word_bits;
		so.base_small = opt_.base_small;
		so.stepping = opt_.stepping;
		engines.push_back(std::make_unique<replay_engine>(make_scheme(input_.kernel_scheme, so), functions_,
								  std::vector<replay_sink *>{}));
		engines.back()->begin(setup, start_);
		choices_.push_back("");
		pricing_engine_ = true;
	}
	return engines;
}

// An option no scheme of the run reads is an error, not ignored (once
// `auto` is resolved, so here and not before the trace is opened).
void replay_driver::refuse_unread_options(const std::vector<std::string> &names) const
{
	if (!opt_.base_small || std::find(names.begin(), names.end(), "classic") != names.end())
		return;
	std::string list;
	for (const std::string &n : names)
		list += (list.empty() ? "" : ", ") + n;
	throw usage_error("--base-small: CONFIG_BASE_SMALL is the classic wheel's geometry, and the " +
			  std::string(names.size() == 1 ? "scheme " : "schemes ") + list +
			  (names.size() == 1 ? " has" : " have") + " none");
}

// The event loop: every event of the trace, in order, then the guard
// and the progress report when their turn comes.
void replay_driver::replay_events(engine_list &engines)
{
	// The tracer lost events before this one (a note, a CTF packet's
	// discarded count), told to the engines with the next event they take.
	// Kept as the event_field bits of the events since the last applied
	// one: an OR an event, where a test and a branch cost more.
	std::uint32_t loss = 0;
	// Counted down to the next --max-cost check and progress report (never,
	// without them): one decrement an event each.
	std::uint64_t until_cost_check = guard_.first_gap();
	std::uint64_t until_progress = progress_ ? progress_every : ~std::uint64_t{0};
	for (const sim_event *ev = stream_.peek(0); ev; ev = stream_.next()) {
		loss |= ev->has;
		if (ev->idle_task)
			hrtimers_->apply_idle_task(*ev);
		replay_event(*ev, loss, engines);
		if (cpus_.on())
			cpus_.tell(*ev, input_.cpus);
		if (--until_cost_check == 0)
			until_cost_check = guard_.check_all(engines, path_ + ":" + std::to_string(ev->line));
		if (--until_progress == 0) {
			until_progress = progress_every;
			progress_->read(stream_.stats(), false);
		}
	}
	if (progress_)
		progress_->read(stream_.stats(), true);
}

// What each part of the replay takes, by one switch: the measurement
// (measure()), the hrtimer half, and the engines.
inline void replay_driver::replay_event(const sim_event &ev, std::uint32_t &loss, engine_list &engines)
{
	using measured::cost_kind;
	switch (ev.kind) {
	case event_kind::timer_expire_entry:
		measure(ev, cost_kind::callback_entry, engines);
		if (ev.carries(EF_MEASURE_ONLY)) [[unlikely]] {
			kept_from_schemes_++;
			break;
		}
		apply_prepared<event_kind::timer_expire_entry>(ev, loss, engines);
		break;
	case event_kind::timer_expire_exit:
		measure(ev, cost_kind::callback_exit, engines);
		if (ev.carries(EF_MEASURE_ONLY)) [[unlikely]]
			break;
		counts_.timer_expire_exit++;
		if (ev.cpu < running_callback_.size())
			running_callback_[ev.cpu] = 0;
		break;
	case event_kind::timer_init:
		apply_prepared<event_kind::timer_init>(ev, loss, engines);
		break;
	case event_kind::timer_start:
		apply_prepared<event_kind::timer_start>(ev, loss, engines);
		break;
	case event_kind::timer_cancel:
		apply_prepared<event_kind::timer_cancel>(ev, loss, engines);
		break;
	case event_kind::timer_base_idle:
		apply_prepared<event_kind::timer_base_idle>(ev, loss, engines);
		break;
	case event_kind::hrtimer:
		if (ev.hrtimer == hrtimer_op::expire_entry)
			measure(ev, cost_kind::callback_entry, engines);
		else if (ev.hrtimer == hrtimer_op::expire_exit)
			measure(ev, cost_kind::callback_exit, engines);
		hrtimers_->apply_hrtimer(ev, stream_);
		apply_prepared<event_kind::hrtimer>(ev, loss, engines);
		break;
	case event_kind::softirq_entry:
	case event_kind::softirq_exit:
	case event_kind::softirq_raise:
		measure(ev, ev.kind == event_kind::softirq_entry ? cost_kind::softirq_entry
			     : ev.kind == event_kind::softirq_exit ? cost_kind::softirq_exit
								     : cost_kind::softirq_raise,
			engines);
		hrtimers_->apply_softirq(ev);
		counts_.softirq++;
		break;
	case event_kind::irq_entry:
	case event_kind::irq_exit:
		measure(ev, ev.kind == event_kind::irq_entry ? cost_kind::hardirq_entry
							     : cost_kind::hardirq_exit,
			engines);
		hrtimers_->apply_irq(ev);
		counts_.irq++;
		break;
	case event_kind::tick_stop:
		hrtimers_->apply_nohz(ev);
		counts_.tick_stop++;
		break;
	case event_kind::cpu_idle:
		hrtimers_->apply_nohz(ev);
		counts_.cpu_idle++;
		break;
	case event_kind::tmigr:
		counts_.tmigr++;
		apply_prepared<event_kind::tmigr>(ev, loss, engines);
		break;
	case event_kind::other:
		counts_.other++;
		break;
	}
}

// After the last event: the symbols' fit, and the measurement's, the
// hrtimer model's and the CPU timeline's ends.
void replay_driver::finish_reading()
{
	check_symbols();
	cpus_.finish();
	measured_report_ = measured_.finish([this](std::uint32_t id) { return functions_.name(id); });
	hrtimer_report_ = hrtimers_->finish([this](std::uint32_t id) { return functions_.name(id); });
}

// --drain: E's bases run until they hold no timer, up to LIMIT. A drain
// far ahead can cost more than the events did (classic re-queues a timer
// beyond its range at every pass of its last level): the same guard, which
// counts the idle jiffies skipped past drain_unguarded_idle too.
void replay_driver::drain(replay_engine &e, jiffies_t limit, replay_report &r)
{
	std::string where = path_ + ": the drain towards jiffy " + std::to_string(narrow(limit));
	r.drained = e.drain(limit, jiffies_.latest(), [&](std::uint64_t guarded_idle) {
		if (guard_.limited())
			guard_.check(e, where, guarded_idle);
	});
	if (!r.drained)
		r.drain_stopped_at = narrow(limit);
}

// Engine I's report: the input's sections, the measured runs and their
// work, the engine's own sections, and what the cost model predicts.
void replay_driver::assemble(std::size_t i, engine_list &engines, replay_report &r)
{
	fill_input(r);
	// The last report takes the runs, the others copy them.
	r.timer_runs = i + 1 == engines.size() ? std::move(timer_runs_) : timer_runs_;
	r.timer_interrupts = i + 1 == engines.size() ? std::move(timer_interrupts_) : timer_interrupts_;
	r.callback_times = i + 1 == engines.size() ? std::move(callback_times_) : callback_times_;
	if (i < run_work_.size())
		r.run_work = std::move(run_work_[i]);
	r.softirq_work = engines[i]->all_softirq_work();
	engines[i]->finish(r);
	attach_measured(r);
	r.scheme_choice = choices_[i];
}

// Every scheme priced by one model: the recording's own, the reference or
// --cost-model's (choose_model).
void replay_driver::price(std::vector<replay_report> &reports) const
{
	if (reports.empty())
		return;
	std::string note;
	const measured::calibrated_model model =
		choose_model(reports, opt_.cost_model, opt_.recording_model, kept_from_schemes_ > 0, note);
	const bool imposed = !opt_.cost_model && opt_.recording_model;
	if (pricing_engine_ && model.source == measured::model_source::self)
		note = "fitted on the recording's own runs, paired with the work of its kernel's scheme (" +
		       input_.kernel_scheme + "), replayed beside this one for its price only";
	const std::size_t shown = reports.size() - (pricing_engine_ ? 1 : 0);
	for (std::size_t i = 0; i < shown; i++) {
		replay_report &r = reports[i];
		r.modelled = model_costs(r, model, note, imposed, grid_);
		r.time = make_time_table(r, grid_);
	}
}

// A callback is a function: in the map of the kernel that recorded the
// trace its address is a symbol's start. A map where none is (another
// kernel's: callbacks land inside functions or past the end of its text)
// would rename every callback wrongly: refused. Where some are not, the
// report and stderr say so, and those show as sym+0xoff.
void replay_driver::check_symbols()
{
	symbols_ = reader_.symbols_fit();
	const symbol_fit &f = symbols_;
	if (!f.looked_up || f.at_start == f.looked_up)
		return;
	std::string counts = std::to_string(f.looked_up - f.at_start) + " of " +
			     std::to_string(f.looked_up) + " callback look-ups";
	if (!f.at_start)
		throw input_error(f.file, 0, "does not fit this trace: none of its " +
					     std::to_string(f.looked_up) +
					     " callback look-ups is a symbol's start, as every callback "
					     "is in the map of the kernel that recorded it (" +
					     f.example_text + "): a map of another kernel?");
	std::fprintf(stderr, "timersim: warning: %s: %s are no symbol's start (%s): shown as "
			     "sym+0xoff or left in hex; is it the recording kernel's map?\n",
		     f.file.c_str(), counts.c_str(), f.example_text.c_str());
}

void replay_driver::fill_input(replay_report &r) const
{
	r.input = input_;
	r.events = counts_;
	const reader_stats &st = stream_.stats();
	r.input.lines = st.lines;
	r.input.events = st.events - rejected_;
	r.input.skipped = st.skipped + rejected_;
	r.input.malformed = st.malformed + rejected_;
	r.input.bytes = st.bytes;
	r.input.lost_events = st.lost_events;
	r.input.lost_packets = st.lost_packets;
	r.input.lost_cpus = st.lost_cpus;
	r.input.truncated_at = st.truncated_at;
	r.input.symbols = symbols_;
	r.input.last_jiffies = narrow(jiffies_.latest());
	r.ticks = ticks_->summary();
	r.measured = measured_report_;
	r.sample_bytes = measured_.sample_bytes() + timer_runs_.size() * sizeof(measured::softirq_run) +
			 callback_times_.size() * sizeof(measured::callback_time);
	for (const auto &w : run_work_)
		r.sample_bytes += w.size() * sizeof(measured::softirq_work);
	r.hrtimers = hrtimer_report_;
	if (clock_.known()) {
		r.input.first_seconds = clock_.seconds(start_);
		r.input.last_seconds = clock_.seconds(jiffies_.latest());
	}
}

// Works out, once for every engine, what an event means: its base, its
// jiffies, and what a timer_cancel is part of. False: skip it (--lenient).
// The dense id of the timer a wheel event names (flat_ids::mix() is a
// bijection, so a matching hash is this very pointer), or 0 for events
// that name none.
template <event_kind K> inline timer_id replay_driver::timer_id_of(const sim_event &ev)
{
	switch (K) {
	case event_kind::timer_init:
	case event_kind::timer_start:
	case event_kind::timer_cancel:
	case event_kind::timer_expire_entry: {
		bool fresh;
		return timer_ids_.find_or_add(
			flat_ids::mix(ev.timer), [](std::uint32_t) { return true; }, fresh);
	}
	default:
		return 0;
	}
}

template <event_kind K> inline bool replay_driver::prepare(const sim_event &ev, prepared_event &p)
{
	event_counts &c = counts_;
	p.ev = &ev;
	p.base = ev.cpu;
	p.jiffies = jiffies_.latest();

	switch (K) {
	case event_kind::timer_init:
		c.timer_init++;
		return true;
	case event_kind::timer_start: {
		p.base = ev.carries(EF_TARGET_CPU) ? ev.target_cpu : ev.cpu;
		if (!check_cpu(ev, ev.cpu) || !check_cpu(ev, p.base))
			return false;
		jiffies_t j;
		if (ev.carries(EF_TIMEOUT)) {
			j = unwrap(ev.expires - static_cast<std::uint64_t>(ev.timeout));
			p.expires = j + static_cast<jiffies_t>(ev.timeout);
		} else {
			j = jiffies_.latest();
			p.expires = unwrap(ev.expires);
		}
		if (!note_jiffies(ev, j))
			return false;
		p.jiffies = j;
		// 4.11+ renderings print flags= beside cpu= idx=; one that
		// printed them unusably (trace-cmd report, perf script) lost D
		// and P.
		p.flags_lost = ev.carries(EF_TARGET_CPU) && ev.carries(EF_IDX) && !ev.carries(EF_FLAGS);
		p.in_callback = ev.cpu < running_callback_.size() && running_callback_[ev.cpu] == ev.timer;
		c.timer_start++;
		return true;
	}
	case event_kind::timer_cancel:
		c.timer_cancel++;
		p.role = classify_cancel(ev);
		return true;
	case event_kind::timer_expire_entry: {
		if (!check_cpu(ev, ev.cpu))
			return false;
		jiffies_t now = unwrap(ev.now);
		if (!note_jiffies(ev, now))
			return false;
		p.jiffies = now;
		if (running_callback_.size() <= ev.cpu)
			running_callback_.resize(ev.cpu + 1, 0);
		running_callback_[ev.cpu] = ev.timer;
		c.timer_expire_entry++;
		return true;
	}
	case event_kind::timer_base_idle:
		p.base = ev.carries(EF_TARGET_CPU) ? ev.target_cpu : ev.cpu;
		if (!check_cpu(ev, p.base))
			return false;
		c.timer_base_idle++;
		ticks_->base_idle(p.base, ev.is_idle);
		return true;
	case event_kind::hrtimer: {
		c.hrtimer++;
		if (!ticks_->is_tick(ev) || !check_cpu(ev, ev.cpu))
			return false;
		tick_run run = ticks_->run(ev, stream_, [this](std::uint64_t raw) { return unwrap(raw); });
		p.tick = true;
		p.jiffies = run.label;
		p.limit = run.limit;
		p.settled = run.settled;
		return true;
	}
	case event_kind::timer_expire_exit:
	case event_kind::softirq_entry:
	case event_kind::softirq_exit:
	case event_kind::softirq_raise:
	case event_kind::irq_entry:
	case event_kind::irq_exit:
	case event_kind::tmigr:
		// 6.19's available mask: a CPU joins or leaves the migration
		// hierarchy (under older rules the events only count).
		if (!input_.generation.tmigr_available ||
		    (ev.tmigr != tmigr_event::cpu_available && ev.tmigr != tmigr_event::cpu_unavailable))
			return false;
		p.base = ev.cpu_id;
		return check_cpu(ev, p.base);
	case event_kind::tick_stop:
	case event_kind::cpu_idle:
	case event_kind::other:
		break;	// for no engine: the event loop counts them
	}
	return false;
}

cancel_role replay_driver::classify_cancel(const sim_event &ev)
{
	cancel_role role = cancel_role::plain;
	stream_.scan_ahead(1, cancel_lookahead, [&](const sim_event &next, std::size_t) {
		if (next.cpu != ev.cpu || !next.is_timer_event() || next.carries(EF_MEASURE_ONLY))
			return true;
		if (next.timer == ev.timer && next.kind == event_kind::timer_expire_entry)
			role = cancel_role::part_of_expiry;
		else if (next.timer == ev.timer && next.kind == event_kind::timer_start)
			role = cancel_role::part_of_rearm;
		return false;
	});
	return role;
}

bool replay_driver::reject_cpu(const sim_event &ev, unsigned cpu)
{
	std::string n = std::to_string(input_.cpus);
	std::string bound = opt_.cpus ? "--cpus " + n
		: stream_.declared_cpus() ? "the " + n + " CPUs the trace declares"
		: input_.cpus == max_undeclared_cpus ? "the cap of " + n + " CPUs for a trace that does not declare its count"
		: "the " + n + " CPUs named in the trace's first events";
	return reject(ev, "CPU " + std::to_string(cpu) + " is beyond " + bound +
				  (opt_.cpus ? "" : " (give --cpus)"));
}

bool replay_driver::reject_jiffies(const sim_event &ev, jiffies_t j)
{
	if (jiffies_.goes_back(ev.cpu, j))
		return reject(ev, "jiffies go backwards on CPU " + std::to_string(ev.cpu) + ": " +
					  std::to_string(narrow(j)) + " after " +
					  std::to_string(narrow(jiffies_.last_on(ev.cpu))));
	return reject(ev, "jiffies leap forward by " + std::to_string(j - jiffies_.latest()) + " to " +
				  std::to_string(narrow(j)) + " (corrupt value?)");
}

bool replay_driver::reject(const sim_event &ev, const std::string &reason)
{
	if (!opt_.lenient)
		throw input_error(path_, ev.line, reason);
	rejected_++;
	return false;
}

}  // namespace

std::vector<replay_report> replay_schemes(trace_reader &reader, const std::string &path,
					  const replay_options &opt,
					  const std::vector<scheme_run> &runs,
					  progress_sink *progress)
{
	replay_driver driver(reader, path, opt, progress);
	return driver.run(runs);
}

replay_report replay_trace(trace_reader &reader, const std::string &path,
			   const replay_options &opt, std::vector<replay_sink *> sinks,
			   progress_sink *progress)
{
	std::vector<scheme_run> runs{{opt.scheme, opt.params, std::move(sinks)}};
	return std::move(replay_schemes(reader, path, opt, runs, progress).front());
}

std::string check_scheme(const std::string &name, const replay_options &opt,
			 const std::vector<std::pair<std::string, std::string>> &params)
{
	if (name == auto_scheme && params.empty())
		return "";
	scheme_options so;
	so.params = params;
	so.base_small = opt.base_small;
	so.word_bits = opt.word_bits ? opt.word_bits : 64;
	if (opt.hz)
		so.hz = opt.hz;
	auto s = make_scheme(name == auto_scheme ? "classic" : name, so);
	return name == auto_scheme ? "" : s->superlinear_note();
}

}  // namespace timersim

namespace timersim {

measured::calibrated_model recording_model(const std::string &path, trace_format format, const reader_options &ro,
					   const replay_options &opt)
{
	std::unique_ptr<trace_reader> reader = open_trace(path, format, ro);
	replay_options o = opt;
	o.scheme = auto_scheme;
	o.params.clear();
	o.cost_model.reset();
	o.recording_model.reset();
	o.drain = false;
	o.hr_what_if = {};
	return replay_trace(*reader, path, o).modelled.model;
}

}  // namespace timersim
