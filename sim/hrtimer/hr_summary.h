// What the hrtimer replay (sim/hrtimer/hr_replay.h) reports.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace timersim {

struct hrtimer_cpu_figures {
	std::uint64_t recorded_interrupts = 0;	// interrupts that ran hrtimers (or irq events)
	std::uint64_t predicted_interrupts = 0;	// the model's device came due
	std::uint64_t both = 0;			// recorded ones the model predicted
	std::uint64_t device_programs = 0;
};

struct hrtimer_callback_figures {
	std::string function;
	std::uint64_t starts = 0, cancels = 0, expiries = 0, same_interrupt = 0;
	std::uint64_t wakeups = 0;	// model interrupts whose first expiry it was
};

struct hrtimer_summary {
	bool present = false;		// the trace has hrtimer events
	bool irq_events = false;	// interrupts known from irq events
	std::uint64_t timers = 0, starts = 0, cancels = 0, rearms = 0;
	std::uint64_t cancels_in_expiry = 0;	// the pre-2026 cancel before each expiry
	std::uint64_t expiries = 0;		// recorded hrtimer_expire_entry
	std::uint64_t same_interrupt = 0, other_interrupt = 0, late = 0, not_armed = 0;
	std::uint64_t simulated_only = 0;	// the model ran it, the recording did not
	// Recorded expiries' lateness behind softexpires (now - softexpires), ns.
	std::uint64_t lateness_count = 0;
	double lateness_mean_ns = 0;
	std::int64_t lateness_max_ns = 0;
	// REALTIME's offset from CLOCK_MONOTONIC as the trace shows it.
	std::uint64_t realtime_samples = 0;
	std::int64_t realtime_offset_ns = 0;
	std::int64_t realtime_spread_ns = 0;	// max - min of the samples
	std::vector<hrtimer_cpu_figures> cpus;
	std::vector<hrtimer_callback_figures> callbacks;	// most expiries first
	// The model's costs.
	std::uint64_t enqueues = 0, removals = 0, reprograms = 0, force_reprograms = 0;
	std::uint64_t comparisons = 0, max_depth = 0, rotations = 0, retries = 0, hangs = 0;
};

}  // namespace timersim
