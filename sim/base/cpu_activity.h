// One CPU timeline that holds both halves of the timer code: what the
// recording machine did (its timer interrupts, the TIMER and HRTIMER
// softirq runs, every callback, from their entry/exit events) and what the
// hrtimer model (kernel/hrtimer.h) did beside it (its device's interrupts
// and the hrtimers they ran). The replay hands these to the sinks that
// draw a CPU over time (replay_sink::activity, replay_sink::woke), so that
// "why did this CPU wake at 12.345678 s" has one answer in every output.
//
// Times are the trace's own nanoseconds (the timestamp column), not jiffies.
#pragma once

#include <cstdint>
#include <string_view>

namespace timersim {

// Why a timer interrupt came, as PowerTOP's "top causes for wakeups" counts
// them (sim/measured/cpu_time.h uses the same rule): its first expiry;
// when that is the tick's hrtimer, the first wheel timer the TIMER softirq
// after it ran (before the CPU's next interrupt): the tick ran for the
// wheel; a tick with no wheel timer after it ran for itself.
enum class wake_cause : std::uint8_t {
	none,		// the interrupt ran no callback
	hrtimer,	// an hrtimer other than the tick's
	tick,		// the tick's hrtimer, and no wheel timer after it
	wheel,		// the tick, for a wheel timer its TIMER softirq ran
};
const char *wake_cause_name(wake_cause c);

// A slice or instant on one CPU.
struct cpu_activity {
	enum class kind : std::uint8_t {
		softirq_run,		// a measured TIMER or HRTIMER softirq run
		expiry,			// a recorded callback, entry to exit
		model_interrupt,	// the hrtimer model's interrupt (an instant)
		model_expiry,		// an hrtimer the model ran (an instant)
	};
	kind what = kind::softirq_run;
	std::uint32_t cpu = 0;
	std::uint64_t start_ns = 0, end_ns = 0;	// an instant: end == start
	// softirq_run: its own time (hard irqs inside are not the run's);
	// expiry: the callback's wall time.
	std::uint64_t own_ns = 0;
	// softirq_run: TIMER_SOFTIRQ or HRTIMER_SOFTIRQ; expiry: the softirq
	// it ran in, 0 in a hard interrupt (or where no softirq was recorded).
	std::uint32_t vec = 0;
	bool hrtimer = false;		// expiry: an hrtimer's (else a wheel timer's)
	bool tick = false;		// expiry, model_expiry: the tick's hrtimer
	// softirq_run: callbacks run in it; model_interrupt: hrtimers it ran.
	std::uint32_t count = 0;
	// expiry, model_expiry: the callback; model_interrupt: its first
	// expiry ("" none). Valid during the call only: copy it.
	std::string_view function;
	bool recorded = false;		// model_interrupt: run at a recorded interrupt
	bool predicted = false;		// model_interrupt: the model's device had come due
	// model_interrupt: when its device was programmed to fire (the
	// trace's ns), where it was programmed at all.
	bool deadline_known = false;
	std::uint64_t deadline_ns = 0;
};

// A recorded timer interrupt and why it came, told once its cause is
// settled (at the CPU's next interrupt, or the end of the trace).
struct wakeup {
	std::uint32_t cpu = 0;
	std::uint64_t entry_ns = 0, exit_ns = 0;
	// Entry and exit were recorded (local_timer_entry/exit, the timer's
	// irq_handler); else the interrupt is known only from its hrtimer
	// expiries (one `now`), and entry == exit is the first's timestamp.
	bool irq_recorded = false;
	std::uint32_t expiries = 0;	// hrtimer expiries in the interrupt
	std::string_view first;		// its first expiry's callback ("" none)
	bool first_tick = false;	// ... and that was the tick's hrtimer
	wake_cause cause = wake_cause::none;
	std::string_view cause_function;	// the callback credited with it
	// The TIMER softirq run after the interrupt, before the next (measured).
	bool softirq = false;
	std::uint64_t softirq_entry_ns = 0, softirq_own_ns = 0, softirq_callbacks_ns = 0;
	std::uint32_t softirq_callbacks = 0;
	// The hrtimer model at this interrupt: whether it ran its interrupt
	// here, whether its device had come due (it predicted the interrupt),
	// when that device was programmed to fire (the trace's ns), and what
	// it ran first.
	bool modelled = false;
	bool predicted = false;
	bool deadline_known = false;
	std::uint64_t deadline_ns = 0;
	std::uint32_t model_expiries = 0;
	std::string_view model_first;
};

}  // namespace timersim
