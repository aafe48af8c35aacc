// What a replay tells its outputs, as it happens.
//
// The replay engine applies a trace to one scheme and calls every sink it
// was given: the cost accounting that becomes the report, the expiry log,
// the progress line, timelines, views. A new output is a new sink in a new
// file; the engine does not change. Every method has an empty default, so a
// sink overrides only what it draws.
//
// Calls come in simulation order. Times are jiffies of the unwrapped
// timeline (jiffies_t); `setup.seconds(j)` gives the trace second of a jiffy
// and `setup.narrow(j)` the value the kernel printed.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/base/cpu_activity.h"
#include "sim/base/trace_clock.h"
#include "sim/scheme/scheme.h"
#include "sim/scheme/wheel_state.h"
#include "sim/trace/reader.h"

namespace timersim {

struct replay_report;

// What every sink knows before the first event.
struct replay_setup {
	std::string path;		// the trace
	std::string scheme;		// the scheme's name
	std::string kernel_scheme;	// the recording kernel's ("" when unknown)
	unsigned cpus = 0;
	unsigned hz = 0;
	unsigned word_bits = 64;
	jiffies_t start = 0;		// the jiffy every base begins at
	unsigned levels = 0;		// the scheme's wheel levels (0: none)
	std::vector<std::string> level_names;	// [0] is level 1 ("tv1", "LVL0", ...)
	const trace_clock *clock = nullptr;	// jiffies -> trace seconds
	// The scheme's slots, read-only, for schemes that have them (classic,
	// v48); nullptr for the others.
	const wheel_inspection *wheel = nullptr;
	// Bases run only at the recorded ticks (sim/ticks/tick_source.h); a
	// timer fired in a tick's catch-up has that run's jiffies as `jiffy`.
	bool tick_driven = false;
	// Out of 6.19's timer migration available mask from the start
	// (--isolated-cpus; empty under older rules).
	std::vector<unsigned> isolated;

	double seconds(jiffies_t j) const { return clock ? clock->seconds(j) : 0.0; }
	std::uint64_t narrow(jiffies_t j) const
	{
		return word_bits == 32 ? j & 0xffffffffull : j;
	}
};

// A traced timer as the sinks see it.
struct timer_ref {
	timer_id id = 0;		// dense, per replay
	std::uint64_t ptr = 0;		// the address the trace printed
	std::uint32_t function = 0;	// interned callback name (0: unknown)
	std::string_view name;		// the callback name ("" when unknown)
};

// How a recorded expiry compared with the simulation (the contract's
// fidelity verdicts), plus the simulated expiries nothing recorded.
enum class verdict : std::uint8_t {
	exact,		// fired in the recorded jiffy
	early,		// the simulation fired it before the recorded jiffy
	late,		// still pending in the simulation: expired at the recorded jiffy
	unmatched,	// the simulation never knew the timer armed
	simulated_only,	// a simulated expiry no recorded one claimed
};
const char *verdict_name(verdict v);

// A `late` verdict whose simulated jiffy is the recorded one: the timer was
// still pending and the engine expired it there (it leaves the wheel now).
inline bool expired_by_replay(verdict v, jiffies_t recorded, jiffies_t simulated)
{
	return v == verdict::late && simulated == recorded;
}

// Why a recorded expiry was not exact, or a simulated one went unclaimed:
// the named categories of what the model misses.
enum class miss_reason : std::uint8_t {
	armed_before_trace,	// unmatched: the trace never started the timer
	arming_not_traced,	// unmatched: the trace started the timer before, but
				// shows no start of the arming that fired
	flags_lost,		// the rendering dropped the timer's flags (D, P), so
				// its base (deferrable, pinned, global) is a guess
	catch_up_rearm,		// re-armed by its own callback in a late catch-up run,
				// which the replay applies after the run
	tick_race,		// one jiffy off: a tick raced the jiffies update
	canceled_as_due,	// simulated only: the kernel removed it in the jiffy
				// it fell due
	trace_ended,		// simulated only: the trace ended before the kernel ran it
	events_lost,		// the tracer lost events since the timer's last one
				// (a ring buffer overrun): its own may be among them
	design,			// a scheme that is not the recording kernel's fired
				// it where its own rules put it (e.g. classic at
				// `expires`, the kernel at v48's bucket_expiry)
	unexplained,		// none of the above
	jiffies_moved_on,	// by jiffies only: the simulation fired it from the
				// bucket the kernel ran (baseclk), but jiffies moved
				// on while the kernel's softirq ran the buckets
};
inline constexpr unsigned miss_reasons = 11;
const char *miss_reason_name(miss_reason r);
// A cause that is the trace's, not the model's: what the trace does not
// show (arming before it, events lost, flags its rendering dropped).
// Counted apart from the fidelity figure.
inline bool trace_cause(miss_reason r)
{
	return r == miss_reason::armed_before_trace || r == miss_reason::arming_not_traced ||
	       r == miss_reason::flags_lost || r == miss_reason::events_lost;
}

class replay_sink {
public:
	virtual ~replay_sink() = default;

	virtual void begin(const replay_setup &setup) { (void)setup; }

	// t was (re)armed on base `cpu` at jiffy `now` to expire at `expires`,
	// landing on `level` (1-based; 0 for schemes without levels).
	// `rearm`: it was pending, so this start also ended an arming.
	virtual void started(const timer_ref &t, unsigned cpu, jiffies_t now,
			     jiffies_t expires, unsigned level, bool rearm)
	{
		(void)t; (void)cpu; (void)now; (void)expires; (void)level; (void)rearm;
	}
	// del_timer removed the pending t.
	virtual void canceled(const timer_ref &t, unsigned cpu, jiffies_t now)
	{
		(void)t; (void)cpu; (void)now;
	}
	// Base `cpu` begins processing `jiffy`.
	virtual void tick(unsigned cpu, jiffies_t jiffy) { (void)cpu; (void)jiffy; }
	// Base `cpu` processed `count` jiffies from `first` on in which nothing
	// fired or moved (an idle stretch the scheme skipped in one step).
	virtual void idle_ticks(unsigned cpu, jiffies_t first, std::uint64_t count)
	{
		(void)cpu; (void)first; (void)count;
	}
	// One cascade call on `level` of base `cpu`, moving `count` timers.
	virtual void cascaded(unsigned cpu, jiffies_t jiffy, unsigned level, std::uint32_t count)
	{
		(void)cpu; (void)jiffy; (void)level; (void)count;
	}
	// `calls` cascade calls on `level` that found their slot empty, made
	// during an idle stretch.
	virtual void empty_cascades(unsigned level, std::uint64_t calls)
	{
		(void)level; (void)calls;
	}
	// A cascade (or another relink) re-inserted t, taken from `from_level`.
	virtual void moved(const timer_ref &t, unsigned cpu, jiffies_t jiffy, unsigned from_level)
	{
		(void)t; (void)cpu; (void)jiffy; (void)from_level;
	}
	// The simulation fired t on base `cpu` at `jiffy`; it was armed for `expires`.
	virtual void expired(const timer_ref &t, unsigned cpu, jiffies_t jiffy, jiffies_t expires)
	{
		(void)t; (void)cpu; (void)jiffy; (void)expires;
	}
	// A recorded timer_expire_entry of t at `recorded` on `cpu`, compared
	// with the simulation: `simulated` is the jiffy the simulation fired it
	// in. For late, simulated == recorded means the timer was still pending
	// and the engine expired it at the recorded jiffy (so that the state
	// follows the recorded kernel); for unmatched it is `recorded`.
	// simulated_only: a simulated expiry that no recorded one claimed
	// before the timer was armed again or the replay ended.
	virtual void fidelity(const timer_ref &t, unsigned cpu, jiffies_t recorded,
			      jiffies_t simulated, verdict v)
	{
		(void)t; (void)cpu; (void)recorded; (void)simulated; (void)v;
	}

	// The same recorded expiry judged by the bucket the kernel ran, where
	// its line printed baseclk (5.2+): `kernel` is baseclk, `model` the
	// bucket the simulation fired t from (for late and unmatched, `kernel`:
	// it did not fire it); `why` names the cause of a verdict that is not
	// exact. Told before fidelity().
	virtual void bucket_fidelity(const timer_ref &t, unsigned cpu, jiffies_t kernel,
				     jiffies_t model, verdict v, miss_reason why)
	{
		(void)t; (void)cpu; (void)kernel; (void)model; (void)v; (void)why;
	}

	// Why the verdict just given by fidelity() for t was not exact.
	virtual void missed(const timer_ref &t, unsigned cpu, verdict v, miss_reason why)
	{
		(void)t; (void)cpu; (void)v; (void)why;
	}

	// The scheme did `units` of work in context `ctx` on base `cpu` at
	// `jiffy`, credited to timer t (nullptr: to no callback). Every unit
	// the scheme counts is reported once, in the order it was done. The
	// rule (replay_engine.h): a start's or cancel's work is its timer's;
	// in the softirq, the work up to an expiry or a move is that timer's,
	// and what follows the last one in a run (the next-expiry search,
	// empty slots) is the run's first expiry's, the timer it woke for, or
	// no callback's when it fired nothing (and idle stretches').
	virtual void worked(const timer_ref *t, unsigned cpu, jiffies_t jiffy, work_context ctx,
			    const cost_counters &units)
	{
		(void)t; (void)cpu; (void)jiffy; (void)ctx; (void)units;
	}
	// A simulated timer softirq run ended: base `cpu` processed `jiffy`
	// (a tick of the scheme, the simulated timer interrupt), doing
	// `units` of work in all and firing `expired` timers; `wake` is its
	// first expiry (nullptr: it fired none).
	virtual void softirq_run(unsigned cpu, jiffies_t jiffy, std::uint64_t units,
				 std::uint64_t expired, const timer_ref *wake)
	{
		(void)cpu; (void)jiffy; (void)units; (void)expired; (void)wake;
	}

	// The CPU timeline of both halves (sim/base/cpu_activity.h), told only
	// to sinks that want it (it costs a pass over the softirq, interrupt
	// and expiry events). In trace order per CPU as far as the events
	// settle: a wakeup comes at its CPU's next interrupt, an activity at
	// its end; after the engines applied the event that settled it.
	virtual bool wants_activity() const { return false; }
	virtual void activity(const cpu_activity &a) { (void)a; }
	virtual void woke(const wakeup &w) { (void)w; }

	// The replay is over: `report` is complete. A sink that writes a file
	// finishes it here; throwing output_error fails the run.
	virtual void end(const replay_report &report) { (void)report; }
};

// Reading progress, called by the driver (once per trace, not per scheme).
class progress_sink {
public:
	virtual ~progress_sink() = default;
	virtual void read(const reader_stats &stats, bool last) = 0;
};

}  // namespace timersim
