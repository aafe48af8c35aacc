// What the timer code cost the recording machine, measured from the trace:
// the TIMER and HRTIMER softirq runs, the callbacks inside them, and the
// hardware timer interrupt. Nothing here is modelled; every figure is a
// difference of two timestamps the kernel recorded.
//
// The events (include/trace/events/irq.h, irq_vectors.h, timer.h):
//   softirq_entry/exit vec=N   a softirq handler's run; vec 1 TIMER, 8 HRTIMER
//   softirq_raise vec=N        a softirq marked pending (counted, no time)
//   hardirq entry/exit         any hard interrupt: local_timer_entry/exit
//                              (x86's timer vector, `timer_interrupt`), the
//                              other irq_vectors, irq_handler_entry/exit
//   callback entry/exit        timer_expire_entry/exit, hrtimer_expire_*
//
// Nesting, as the kernel nests: on one CPU a hard interrupt may interrupt a
// softirq run or a callback, and its time is not theirs; softirqs do not
// nest in one another; callbacks do not nest in one another except that a
// hard interrupt's hrtimer callbacks (the tick) may run while a softirq
// callback is interrupted. Each CPU keeps a stack of what is open.
//
// A trace cut in the middle of a run (an exit with no entry at the start,
// an entry with no exit at the end) is counted in `cut`, never guessed at.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/base/second_grid.h"
#include "sim/measured/durations.h"

namespace timersim::measured {

enum class softirq_vec : std::uint8_t { timer = 1, hrtimer = 8 };

// One measured event, as the replay hands it over.
enum class cost_kind : std::uint8_t {
	softirq_entry,
	softirq_exit,
	softirq_raise,
	hardirq_entry,
	hardirq_exit,
	callback_entry,
	callback_exit,
};

struct cost_event {
	cost_kind kind = cost_kind::softirq_entry;
	std::uint32_t cpu = 0;
	std::uint64_t ts_ns = 0;
	std::uint32_t vec = 0;		// softirq_*: the vector
	bool timer_interrupt = false;	// hardirq_*: the hardware timer's
	std::uint32_t function = 0;	// callback_entry: the callback (an interned id)
	bool tick = false;		// callback_entry: the callback is the tick's hrtimer
};

// One TIMER or HRTIMER softirq run, as the trace recorded it: what the
// cost model is fitted to, run by run.
struct softirq_run {
	std::uint32_t cpu = 0;
	std::uint32_t vec = 0;
	std::uint64_t entry_ns = 0, exit_ns = 0;
	std::uint64_t own_ns = 0;	// exit - entry - hard irqs inside
	std::uint64_t callbacks_ns = 0;	// own time of the callbacks inside
	std::uint32_t callbacks = 0;	// callbacks run inside
	std::uint64_t overhead_ns() const { return own_ns - callbacks_ns; }
};

// No callback (an interrupt that ran none).
constexpr std::uint32_t no_callback = UINT32_MAX;

// A timer interrupt as the state of the machine is read from it: when it
// came, its overhead (own time less the callbacks run in it) and the first
// callback it ran (a tick and a wakeup cost what each costs: the state
// compares an interrupt with those of the same first callback).
struct interrupt_cost {
	std::uint64_t entry_ns = 0;
	std::uint64_t overhead_ns = 0;
	std::uint32_t first_callback = no_callback;
};

// Where a callback ran: the frame open beneath it.
enum class callback_context : std::uint8_t { timer_softirq, hrtimer_softirq, hardirq, other };

// One callback run as the state of the machine is read from it: the same
// function in the same context costs more on a loaded machine.
struct callback_time {
	std::uint64_t entry_ns = 0;
	std::uint64_t own_ns = 0;	// hard irqs inside excluded
	std::uint32_t function = 0;
	callback_context where = callback_context::other;
};

// The softirq runs of one vector on one CPU (or all CPUs).
struct softirq_stats {
	duration_stats runs;		// each run's own time: exit - entry - hard irqs inside
	std::uint64_t callbacks_ns = 0;	// of which in callbacks (their own time)
	std::uint64_t raised = 0;	// softirq_raise events
	// The timer code's own overhead: runs.total_ns - callbacks_ns.
	std::uint64_t overhead_ns() const { return runs.total_ns - callbacks_ns; }
};

struct interrupt_stats {
	duration_stats timer;		// the hardware timer interrupt, own time
	std::uint64_t other_count = 0;	// other hard interrupts (their time is nobody's here)
	std::uint64_t other_ns = 0;
};

struct cpu_cost {
	softirq_stats timer_softirq;
	softirq_stats hrtimer_softirq;
	interrupt_stats interrupts;
	// This CPU's part of cost_report::wakeups and wakeups_without_expiry.
	std::uint64_t wakeups = 0, wakeups_without_expiry = 0;
};

struct callback_cost {
	duration_stats runs;		// own time of each run (hard irqs inside excluded)
	std::uint64_t in_timer_softirq = 0;	// runs inside a TIMER softirq run
	std::uint64_t in_hrtimer_softirq = 0;	// runs inside an HRTIMER softirq run (soft hrtimers)
	std::uint64_t in_hardirq = 0;		// runs inside a hard interrupt (the tick's hrtimers)
	// Timer interrupts this callback was the cause of (see wakeups below),
	// and their own time less the callbacks that ran in them.
	std::uint64_t wakeups = 0;
	std::uint64_t wakeup_ns = 0;
	std::vector<std::uint64_t> wakeups_on_cpu;	// `wakeups` by CPU (as far as the last one it woke)
	// Its share of the HRTIMER softirq's overhead: each run's overhead
	// (own time less its callbacks') split evenly over the callbacks it
	// ran, as the TIMER softirq's is shared out by expiries (the rest of a
	// ns to the first ones).
	std::uint64_t hrtimer_softirq_ns = 0;
};

// What one CPU spent in one second of the trace (sim/base/second_grid.h):
// the runs and interrupts that began in it.
struct second_cost {
	std::uint64_t timer_softirq_ns = 0;	// TIMER overhead (own time less callbacks)
	std::uint64_t hrtimer_softirq_ns = 0;	// HRTIMER overhead
	std::uint64_t callbacks_ns = 0;		// callbacks inside either softirq
	std::uint64_t interrupts_ns = 0;	// timer interrupts' own time
};

struct cost_report {
	// Which measured events the trace held: a figure whose events were not
	// recorded is "not recorded", never zero.
	bool softirqs_recorded = false;		// TIMER/HRTIMER softirq_entry/exit/raise
	bool interrupts_recorded = false;	// a hard timer interrupt's entry/exit
	bool callbacks_recorded = false;	// timer or hrtimer expire entry/exit
	std::vector<cpu_cost> cpus;	// indexed by CPU
	cpu_cost all;			// every CPU together
	std::map<std::string, callback_cost, std::less<>> callbacks;
	// Why the timer interrupts came, as PowerTOP's "top causes for
	// wakeups" counts them: an interrupt's cause is the first callback it
	// ran; when that is the tick, the first wheel timer the TIMER softirq
	// after it ran (before the CPU's next timer interrupt), if any - the
	// tick then ran for it. Interrupts that ran no callback at all are
	// `wakeups_without_expiry`; ticks with nothing after them count for
	// the tick's own callback.
	std::uint64_t wakeups = 0;
	std::uint64_t wakeups_without_expiry = 0;
	std::uint64_t wakeups_without_expiry_ns = 0;	// their own time
	// HRTIMER softirq overhead of runs that ran no callback.
	std::uint64_t hrtimer_softirq_no_callback_ns = 0;
	// Per (second, CPU), where per_second() gave a grid.
	std::map<std::pair<std::uint32_t, std::uint32_t>, second_cost> seconds;
	bool seconds_cut = false;	// more seconds than by_second keeps: none kept
	std::uint64_t cut = 0;		// runs cut by the trace's start or end
	std::uint64_t unbalanced = 0;	// an exit that matched nothing open
	std::uint64_t first_ns = 0, last_ns = 0;	// the span the events cover
};

// Feeds events in trace order (per CPU order is what matters) and builds
// the report at the end.
class cpu_time {
public:
	// Returns the run this event closed, if it closed a TIMER or HRTIMER
	// softirq run (valid until the next add).
	const softirq_run *add(const cost_event &ev);
	// Keeps no duration sample, only bounded histograms (durations.h):
	// memory stays flat however long the run (`top`). Before the first add.
	void bound_durations() { bounded_ = true; }
	// Bytes the duration samples hold (for tests of the bound).
	std::uint64_t sample_bytes() const;
	// Keep what each CPU spent per second of GRID (its clock must outlive
	// the measurement).
	void per_second(const second_grid &grid) { grid_ = grid; }
	// The timer interrupt the last add() closed, if it closed one, once.
	const interrupt_cost *take_interrupt()
	{
		if (!interrupt_closed_) [[likely]]
			return nullptr;
		interrupt_closed_ = false;
		return &last_interrupt_;
	}
	// The callback run the last add() closed, if it closed one, once.
	const callback_time *take_callback()
	{
		if (!callback_closed_) [[likely]]
			return nullptr;
		callback_closed_ = false;
		return &last_callback_;
	}
	// NAME_OF: a callback's name from its id. The samples are summarised
	// where they are (reordered, not copied).
	cost_report finish(const std::function<std::string(std::uint32_t)> &name_of);

private:
	// What is open on a CPU: a hard irq, a softirq run or a callback.
	struct frame {
		cost_kind kind;
		std::uint64_t start_ns;
		std::uint64_t nested_ns = 0;	// hard irq time inside (not this frame's)
		std::uint64_t callbacks_ns = 0;	// softirq and hard irq frames: own time of callbacks inside
		std::uint32_t callbacks = 0;	// softirq frames: callbacks inside
		std::uint32_t vec = 0;
		bool timer_interrupt = false;
		std::uint32_t function = 0;
		std::uint32_t first_callback = no_callback;	// hard irq frames: the first callback run in it
	};
	struct samples {
		duration_samples runs;
		std::uint64_t callbacks_ns = 0;
		std::uint64_t raised = 0;
	};
	// Where a CPU is in finding its last timer interrupt's cause.
	enum class waking : std::uint8_t { no, in_irq, after_tick };
	struct cpu_state {
		std::vector<frame> open;
		waking wake = waking::no;
		bool wake_ran = false;		// the interrupt ran a callback
		std::uint32_t wake_tick = 0;	// after_tick: the tick's callback
		// Whom the open timer interrupt's own time goes to when it
		// closes (credited before its exit), and the last one's.
		std::uint32_t irq_credit = no_credit;
		std::uint64_t last_irq_ns = 0;
		samples timer_softirq, hrtimer_softirq;
		duration_samples timer_irqs;
		std::uint64_t other_irqs = 0, other_irq_ns = 0;
		std::uint64_t wakeups = 0, wakeups_without_expiry = 0;
		// The callbacks the open HRTIMER softirq run ran so far.
		std::vector<std::uint32_t> hr_run_callbacks;
	};
	struct callback_samples {
		duration_samples runs;
		std::uint64_t in_timer_softirq = 0, in_hrtimer_softirq = 0, in_hardirq = 0, wakeups = 0;
		std::uint64_t wakeup_ns = 0;
		std::vector<std::uint64_t> wakeups_on_cpu;
		std::uint64_t hrtimer_softirq_ns = 0;
	};
	static constexpr std::uint32_t no_credit = UINT32_MAX, credit_none = UINT32_MAX - 1;

	// Inline: every event asks; a CPU not seen before grows the table.
	cpu_state &cpu(std::uint32_t n)
	{
		if (n < ncpus_) [[likely]]
			return cpus_[n];
		return add_cpu(n);
	}
	[[gnu::noinline]] cpu_state &add_cpu(std::uint32_t n);
	const softirq_run *close(cpu_state &c, cost_kind entry, const cost_event &ev);
	void closed(cpu_state &c, const frame &f, std::uint64_t own_ns);
	void share_hrtimer_run(cpu_state &c, std::uint64_t overhead_ns);
	second_cost *second_of(std::uint32_t cpu, std::uint64_t ts_ns)
	{
		return grid_.on() ? &seconds_.at(grid_.of_ns(ts_ns), cpu) : nullptr;
	}
	void woke(cpu_state &c, const cost_event &ev);
	void settle_wake(cpu_state &c);
	// CB was the cause of C's last timer interrupt.
	void caused(callback_samples &cb, const cpu_state &c)
	{
		cb.wakeups++;
		const std::size_t n = std::size_t(&c - cpus_.data());
		if (cb.wakeups_on_cpu.size() <= n)
			cb.wakeups_on_cpu.resize(n + 1, 0);
		cb.wakeups_on_cpu[n]++;
	}
	callback_samples &callback(std::uint32_t id);

	std::vector<cpu_state> cpus_;
	std::uint32_t ncpus_ = 0;	// cpus_.size(), which divides by the state's size
	std::vector<callback_samples> callbacks_;	// by callback id
	softirq_run last_run_;
	interrupt_cost last_interrupt_;
	bool interrupt_closed_ = false;
	callback_time last_callback_;
	bool callback_closed_ = false;
	std::uint64_t cut_ = 0, unbalanced_ = 0;
	std::uint64_t wakeups_ = 0, wakeups_without_expiry_ = 0, wakeups_without_expiry_ns_ = 0;
	std::uint64_t first_ns_ = 0, last_ns_ = 0;
	bool any_ = false;
	second_grid grid_;
	by_second<second_cost> seconds_;
	std::uint64_t hr_no_callback_ns_ = 0;
	bool softirqs_ = false, interrupts_ = false, callbacks_seen_ = false;
	bool bounded_ = false;
};

// The callbacks of `r`, most own time first (ties in name order).
std::vector<std::pair<std::string, const callback_cost *>> callbacks_by_time(const cost_report &r);

}  // namespace timersim::measured
