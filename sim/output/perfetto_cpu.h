// The CPU timeline of both halves (sim/base/cpu_activity.h) in the
// --perfetto file: under each CPU's process, beside the wheel's tracks,
// one thread per lane, at the trace's own nanoseconds:
//
//   tid 3  timer interrupt (recorded)   each recorded timer interrupt, entry
//          to exit, as a complete slice (cat "timer interrupt"; args: the
//          cause, the callback it woke for, its first expiry, its hrtimer
//          expiries, and the model's view: "predicted", "not predicted" or
//          "not run"); a trace without irq events: an instant at the
//          interrupt's first expiry, named "timer interrupt (from expiries)"
//   tid 4  hrtimers in the interrupt    each recorded hard hrtimer expiry
//          (hrtimer_expire_entry..exit), named by its callback; the tick's
//          hrtimer (tick_sched_timer before 6.9, tick_nohz_handler after)
//          has cat "tick", the others "hrtimer"
//   tid 5  timer softirq (measured)     each TIMER softirq run (softirq_entry
//          ..exit vec=1), args own_ns (hard irqs inside are not its) and
//          callbacks
//   tid 6  hrtimer softirq (measured)   the same for HRTIMER (vec=8)
//   tid 7  softirq callbacks (recorded) each wheel callback
//          (timer_expire_entry..exit, cat "timer") and soft hrtimer
//          callback (cat "hrtimer")
//   tid 8  hrtimer model                the model's interrupts as instants
//          ("model interrupt"; args: at a recorded interrupt or its own,
//          whether its device had come due, expiries, the first) and each
//          hrtimer it ran as an instant named by its callback (cat "tick"
//          for the tick's, else "hrtimer model")
//
// Threads appear only where they have events. Slices on one thread never
// overlap: one that begins before the previous ended (a lost exit, a
// preempted softirq) is drawn from that end.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/base/cpu_activity.h"
#include "sim/base/interner.h"

namespace timersim {

class perfetto_cpu_lanes {
public:
	void add(const cpu_activity &a);
	void add(const wakeup &w);

	// Called once all is added: orders each CPU's events by time.
	void sort();
	// The thread_name metadata of CPU's lanes (pid), each through EMIT.
	void thread_names(unsigned cpu, unsigned pid, const std::function<void(const std::string &)> &emit) const;
	// Writes CPU's events (pid) that begin before BEFORE_NS (all with
	// ~0), through EMIT, in time order.
	void write(unsigned cpu, unsigned pid, std::uint64_t before_ns,
		   const std::function<void(const std::string &)> &emit);

private:
	enum lane : std::uint8_t { interrupt, hard_expiry, timer_softirq, hrtimer_softirq, soft_expiry, model, lanes };
	enum flag : std::uint8_t {
		f_tick = 1, f_irq_recorded = 2, f_modelled = 4, f_predicted = 8, f_recorded = 16,
		f_hrtimer = 32, f_expiry = 64,
	};
	struct event {
		std::uint64_t start_ns, end_ns;
		std::uint64_t own_ns;
		std::uint64_t seq;
		std::uint32_t cpu;
		std::uint32_t name;	// interned callback: expiry, cause, model's first
		std::uint32_t first;	// wakeup: its first expiry's callback
		std::uint32_t count;
		lane where;
		std::uint8_t flags;
		std::uint8_t cause;	// wakeup: wake_cause; expiry: the softirq vec
	};

	void push(event e);
	void render(const event &e, unsigned pid, std::string &out) const;

	interner names_;
	std::vector<event> events_;
	std::vector<std::size_t> next_;		// per CPU: the next event to write
	std::vector<std::uint8_t> used_;	// per CPU: lanes seen, a bit each
};

}  // namespace timersim
