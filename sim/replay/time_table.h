// What the timer code cost, in nanoseconds, per callback and per CPU: one
// table ranked by total time, each cell measured (a difference of two
// timestamps the kernel recorded) or modelled (the replay's cost model,
// sim/measured/calibration.h, with its interval). Per callback:
//
//   process     modelled: its timers' starts and cancels (wheel and
//               hrtimer), each priced as one expiry of the model: the same
//               link/unlink under the base lock with one tracepoint where
//               an expiry has two and a call. Interval: half of that (the
//               expiry's call and second tracepoint left out) to all of it
//               at the model's upper end. No trace event brackets a start
//               or cancel: nothing can measure them.
//   softirq     modelled: the TIMER softirq overhead its expiries, the runs
//               it woke (the run term) and the cascades that moved its
//               timers cost, by the scheme's work. What no callback's
//               share holds (slot visits, runs that fired nothing) is a
//               row of its own: the rows add up to the modelled whole.
//   callbacks   measured: its callbacks' own time (hard irqs inside
//               excluded), timer and hrtimer callbacks alike.
//   interrupts  measured: the timer interrupts it caused (PowerTOP's rule,
//               cpu_time.h), their own time less the callbacks that ran in
//               them (those are in `callbacks`, of their own rows).
//
// An hrtimer callback's softirq cell is measured: its share of the HRTIMER
// softirq's overhead (each run's split evenly over the callbacks it ran,
// cpu_time.h); runs that ran none are a row of their own.
//
// Per second (sim/base/second_grid.h) and CPU, the same figures: measured
// (the CPU table's: the softirq runs and interrupts that began in that
// second) and modelled (the starts and cancels of that second at the
// start price, and the softirq work the scheme did in it priced by the
// same model, measured::price). The seconds' measured figures add up to
// the CPU table's; their modelled ns to the callback table's modelled
// cells (process, and the modelled softirq whole); each second's interval
// is its own (intervals do not add).
//
// Interrupts that ran no callback are a row of their own too. The table is the
// scheme's: a what-if scheme's process and softirq cells price that
// scheme's work; the measured cells are the recording's.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sim/base/second_grid.h"
#include "sim/measured/softirq_work.h"

namespace timersim {

struct replay_report;

struct time_cell {
	bool known = false;	// false: not recorded / not priced
	bool modelled = false;
	double ns = 0, low = 0, high = 0;	// measured: low = high = ns
};

struct time_row {
	std::string name;	// the callback, or a row of what no callback holds
	bool hrtimer = false;	// an hrtimer callback (no wheel timer of that name)
	std::uint64_t starts = 0, cancels = 0, expiries = 0, wakeups = 0;
	time_cell process, softirq, callbacks, interrupts;
	time_cell total;	// the sum; an interval if any part is modelled
};

struct cpu_time_row {
	unsigned cpu = 0;
	time_cell timer_softirq;	// measured TIMER overhead (own time less callbacks)
	time_cell hrtimer_softirq;	// measured HRTIMER overhead
	time_cell callbacks;		// measured: callbacks inside either softirq
	time_cell interrupts;		// measured: timer interrupts' own time (the tick's callbacks inside)
	time_cell total;
};

// What a scheme did on one CPU in one second: what the per-second
// modelled figures price (the replay engine keeps it).
struct second_work {
	measured::softirq_work softirq;	// its softirq-side work (ticks: recorded ticks run)
	std::uint64_t processed = 0;	// jiffies its base processed (ticks and idle ones)
	std::uint64_t starts = 0, cancels = 0;	// of wheel timers (process context)
};
using second_key = std::pair<std::uint32_t, std::uint32_t>;	// (second, cpu)

struct second_time_row {
	std::uint32_t second = 0;	// from the replay's start (second_grid)
	unsigned cpu = 0;
	double seconds = 0;		// the trace second it begins at
	std::uint64_t jiffy = 0;	// its first jiffy, as the kernel prints it
	// Measured (null where the trace recorded none of it).
	time_cell timer_softirq, hrtimer_softirq, callbacks, interrupts, measured;
	// Modelled: starts and cancels (wheel and hrtimer) at the start
	// price, the scheme's softirq work by the model; and their sum.
	time_cell process, softirq, modelled;
};

struct time_table {
	std::vector<time_row> callbacks;	// most total time first (ties by name)
	std::vector<cpu_time_row> cpus;
	// The price of one start or cancel (process context) and how it was got.
	time_cell start_price;
	std::string start_price_from;
	double seconds = 0;	// the trace's span, for per-second figures
	// By second, then CPU; seconds with nothing measured or modelled left out.
	std::vector<second_time_row> per_second;
	// Not kept: more (second, CPU) rows than by_second keeps (JSON
	// per_second_cut, written only then).
	bool per_second_cut = false;
};

// The table of R (its scheme, its model and the recording's measurement).
// The softirq runs the scheme's kernel would make for work W (PROCESSED
// jiffies; TICKS_RECORDED: the replay ran at the recorded ticks): the
// classic wheel's run_local_timers() raised TIMER_SOFTIRQ at every tick
// (3.x); since 4.8 only when a base is due, which is when it has work; for
// the schemes no kernel ran, the runs that did work.
std::uint64_t scheme_softirq_runs(const std::string &scheme, const measured::softirq_work &w,
				  std::uint64_t processed, bool ticks_recorded);

// GRID: the seconds of its per-second rows (none without a clock).
time_table make_time_table(const replay_report &r, const second_grid &grid = {});

}  // namespace timersim
