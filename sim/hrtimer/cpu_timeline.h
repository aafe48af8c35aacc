// The CPU timeline of both halves (sim/base/cpu_activity.h), built as the
// replay goes: the recorded timer interrupts with the cause of each, the
// callbacks as slices, the measured softirq runs, and beside them the
// hrtimer model's interrupts and expiries (sim/hrtimer/hr_replay.h).
//
// An interrupt is the hardware timer's entry..exit where the trace records
// them; else, as the hrtimer replay counts them, the hard hrtimer expiries
// on a CPU with one `now` (the model is told it is at a recorded interrupt).
// Its cause is settled by the rule of wake_cause; the interrupt is told
// once settled: at the CPU's next interrupt or at finish().
//
// Per event, after the model's calls for that event: model(), then
// softirq_closed() if the event closed a run, then add().
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sim/base/cpu_activity.h"
#include "sim/stream/event_stream.h"
#include "sim/measured/cpu_time.h"

namespace timersim {

class cpu_timeline {
public:
	using name_fn = std::function<const std::string &(std::uint32_t)>;
	using tick_fn = std::function<bool(std::uint32_t)>;
	using activity_fn = std::function<void(const cpu_activity &)>;
	using wakeup_fn = std::function<void(const wakeup &)>;

	cpu_timeline(name_fn name_of, tick_fn is_tick, activity_fn on_activity, wakeup_fn on_wakeup);

	// A model interrupt or expiry; FUNCTION its (first) callback's id.
	void model(cpu_activity a, std::uint32_t function);
	// A TIMER or HRTIMER softirq run the measurement closed.
	void softirq_closed(const measured::softirq_run &run);
	// Every event of the trace (irq, softirq, expiry ones are read).
	void add(const sim_event &ev);
	// Settles what is still open.
	void finish();

private:
	struct open_expiry {
		std::uint64_t timer = 0;
		std::uint64_t entry_ns = 0;
		std::uint32_t function = 0;
		std::uint32_t vec = 0;
		bool hrtimer = false;
	};
	// A recorded interrupt whose cause is not settled yet.
	struct pending_wakeup {
		wakeup w;			// but its names
		std::uint32_t first = 0, cause = 0, model_first = 0;
		std::uint32_t tick = 0;		// the tick's callback, waiting for a wheel timer
		bool waiting_wheel = false;
	};
	struct cpu_state {
		bool in_irq = false;
		std::uint32_t softirq_vec = 0;		// the softirq running (0: none)
		std::vector<open_expiry> expiries;	// a hard irq's may interrupt a softirq's
		bool open = false;			// `wake` holds an interrupt
		pending_wakeup wake;
		// Without irq events: the model was told of a recorded
		// interrupt; its hard expiries share one now.
		bool group_starting = false, in_group = false;
		std::uint64_t group_now = 0;
	};

	cpu_state &cpu(std::uint32_t n);
	void open_wakeup(cpu_state &c, std::uint32_t n, std::uint64_t ts, bool irq_recorded);
	void settle(cpu_state &c);
	void expiry_entry(cpu_state &c, const sim_event &ev, bool hrtimer);
	void expiry_exit(cpu_state &c, const sim_event &ev, bool hrtimer);

	name_fn name_of_;
	tick_fn is_tick_;
	activity_fn on_activity_;
	wakeup_fn on_wakeup_;
	std::vector<cpu_state> cpus_;
	bool irq_events_ = false;	// the trace records timer interrupts
	bool softirq_events_ = false;	// ... and TIMER/HRTIMER softirq runs
};

}  // namespace timersim
