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
// Interrupts that ran no callback are a row of their own too. The table is the
// scheme's: a what-if scheme's process and softirq cells price that
// scheme's work; the measured cells are the recording's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

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

struct time_table {
	std::vector<time_row> callbacks;	// most total time first (ties by name)
	std::vector<cpu_time_row> cpus;
	// The price of one start or cancel (process context) and how it was got.
	time_cell start_price;
	std::string start_price_from;
	double seconds = 0;	// the trace's span, for per-second figures
};

// The table of R (its scheme, its model and the recording's measurement).
time_table make_time_table(const replay_report &r);

}  // namespace timersim
