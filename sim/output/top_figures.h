// What `timersim top` shows for an interval or a whole run, taken from a
// replay report (the same replay_report `replay` prints: no figure is
// computed here, only picked, ranked and added up).
//
// An interval's figures are the replay of that interval's events as a trace
// of their own; the whole run's are the replay of every event, which `top`
// runs beside the intervals and reports when the run ends. Until then the
// run's counts are the intervals' added up (top_figures::add), which a run
// cut at interval edges can only differ from where a softirq run, a
// callback or a timer's arming and expiry straddle an edge.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/hrtimer/hr_summary.h"
#include "sim/replay/replay_report.h"

namespace timersim {

struct top_cpu_row {
	std::uint64_t interrupts = 0, interrupt_ns = 0;	// the hardware timer's, own time
	std::uint64_t timer_runs = 0, timer_ns = 0;	// TIMER softirq runs, own time
	std::uint64_t hrtimer_runs = 0, hrtimer_ns = 0;	// HRTIMER softirq runs, own time
	std::uint64_t predicted = 0;			// the hrtimer model's interrupts
	// Its timer interrupts and those that ran no callback (PowerTOP's
	// rule, measured::cost_report::wakeups).
	std::uint64_t wakeups = 0, wakeups_without_expiry = 0;
	// At the end of the span, in the replay's state: the wheel timers
	// pending on its bases, [0] all, [l] on level l (top_figures::
	// level_names; only [0] for a scheme whose slots cannot be read), and
	// the hrtimer model's queued timers per clock base.
	std::vector<std::uint64_t> pending;
	std::array<std::uint64_t, hrtimer_clock_bases> hr_pending{};
	// Adds counts; pending ones too (CPUs added up into `all`).
	void add(const top_cpu_row &o);
};

struct top_callback {
	std::string function;
	std::uint64_t measured_ns = 0;	// its runs' own time (replay's measured_ns)
	bool measured = false;		// the trace recorded its runs
	std::uint64_t runs = 0;		// recorded runs
	std::uint64_t model_units = 0;	// the scheme's work credited to it (cost units)
	std::uint64_t expired = 0;	// simulated expiries
	std::uint64_t wakeups = 0;	// recorded timer interrupts it caused
	// The first wheel what-if's work credited to it (cost units).
	std::uint64_t what_if_units = 0;
	std::vector<std::uint64_t> wakeups_on_cpu;	// of them, by CPU
	std::uint64_t wakeups_on(int cpu) const
	{
		return cpu < 0 ? wakeups : std::size_t(cpu) < wakeups_on_cpu.size() ? wakeups_on_cpu[std::size_t(cpu)] : 0;
	}
};

// A what-if beside the recording (modelled, never measured): the wheel
// through another scheme or at another HZ (the same interval replayed so),
// or the hrtimers with other slack or high resolution off (the replay's
// hrtimer what-ifs).
struct top_what_if {
	std::string label;		// "scheme classic", "HZ 1000", "hr slack exact", "highres off"
	bool wheel = false;		// a wheel what-if (else an hrtimer one)
	// wheel: the scheme's work (cost units), its expiries, and the cost
	// model's price of its TIMER softirq overhead (model_given: priced).
	std::uint64_t units = 0, expired = 0;
	bool model_given = false;
	double model_ns = 0;
	// hrtimers: timer interrupts the model takes, with the recorded ranges
	// and under the what-if.
	std::uint64_t model_interrupts = 0, interrupts = 0;
	void add(const top_what_if &o);
};

struct top_figures {
	double seconds = 0;		// the span the events cover
	std::uint64_t events = 0, lost = 0;
	std::vector<top_cpu_row> cpus;
	top_cpu_row all;
	bool softirqs_recorded = false, interrupts_recorded = false;
	std::uint64_t wakeups = 0, wakeups_without_expiry = 0;
	// Wheel: recorded expiries and the model's verdicts; hrtimers: recorded
	// expiries and those the model ran in the same interrupt.
	std::uint64_t expiries = 0, compared = 0, exact = 0;
	std::uint64_t hr_expiries = 0, hr_same_interrupt = 0;
	// The TIMER softirq's own overhead (runs' time less their callbacks'),
	// measured, and as the replay's cost model prices the scheme's work
	// (replay_report::modelled; model_given false: no price).
	std::uint64_t overhead_ns = 0;
	bool model_given = false;
	double model_ns = 0, model_low_ns = 0, model_high_ns = 0;
	std::uint64_t pending = 0;			// wheel timers pending at the end
	std::vector<std::string> level_names;		// top_cpu_row::pending's levels
	std::vector<top_callback> callbacks;	// every callback, unranked
	std::string scheme;
	std::uint64_t units = 0;		// the scheme's work, cost units
	std::vector<top_what_if> what_ifs;

	// Adds another interval's counts (callbacks merged by name); what is
	// pending is the later interval's.
	void add(const top_figures &o);
};

top_figures top_figures_of(const replay_report &r);
// The what-ifs of a replay: its hrtimer ones (replay_options::hr_what_if).
void add_hr_what_ifs(top_figures &f, const replay_report &r);
// A wheel what-if: W is the interval through another scheme or HZ; its
// callbacks' work goes to what_if_units (of the first wheel what-if).
void add_wheel_what_if(top_figures &f, const std::string &label, const replay_report &w);

// How the callbacks are ranked.
enum class top_sort { measured, model, wakeups, expired };
// Wakeups rank by the CPU picked (-1: all CPUs).
const char *top_sort_name(top_sort s);
std::vector<top_callback> ranked(const std::vector<top_callback> &c, top_sort by, int cpu = -1);

// The block `top --batch` prints per interval: the interval's figures and
// the run's so far (CPU: one CPU's rows only, -1 all).
struct top_block_options {
	top_sort sort = top_sort::measured;
	int cpu = -1;
	unsigned callbacks = 10;
	unsigned width = 100;
};
std::string top_text_block(const std::string &title, const top_figures &window,
			   const top_figures &run, const top_block_options &opt);
// One JSON object (a line) of an interval: {"interval":N,"t":..,"window":{..},"run":{..}}.
std::string top_json_line(std::uint64_t interval, double t, const top_figures &window,
			  const top_figures &run, bool final);

}  // namespace timersim
