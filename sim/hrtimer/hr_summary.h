// What the hrtimer replay (sim/hrtimer/hr_replay.h) reports.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sim/hrtimer/queue_design.h"

namespace timersim {

// The kernel's clock bases (kernel/hrtimer.h's hrtimer_base_type), by index.
inline constexpr unsigned hrtimer_clock_bases = 8;
inline const char *hrtimer_base_name(unsigned index)
{
	static const char *const names[hrtimer_clock_bases] = {
		"MONOTONIC", "REALTIME", "BOOTTIME", "TAI",
		"MONOTONIC_SOFT", "REALTIME_SOFT", "BOOTTIME_SOFT", "TAI_SOFT"};
	return index < hrtimer_clock_bases ? names[index] : "?";
}

struct hrtimer_cpu_figures {
	std::uint64_t recorded_interrupts = 0;	// interrupts that ran hrtimers (or irq events)
	std::uint64_t predicted_interrupts = 0;	// the model's device came due
	std::uint64_t both = 0;			// recorded ones the model predicted
	// Recorded ones the model could not predict for the trace's cause: its
	// device was not due, and the first timer they ran was armed before
	// the trace began or re-armed with no event traced (the model never
	// held it). Counted apart from the interrupt figure.
	std::uint64_t recorded_trace_caused = 0;
	// Predicted ones the recording lost: the model's interrupt, which no
	// recorded one matched, ran a timer whose end the trace shows with no
	// event for it (a later hrtimer_setup, or hrtimer_start was_armed=0,
	// of a timer last seen started: its expiry or cancel event was lost,
	// as perf drops events without saying so). Counted apart too.
	std::uint64_t predicted_trace_caused = 0;
	// ... by cause (docs/fidelity.md), they add up to it:
	//   end_shown   the timer's own later event shows it ended (a setup,
	//               or a start with was_armed=0);
	//   owner_ran   its task ran again: a timer was set up or started in
	//               the kernel stack the timer lies in, after it was due
	//               (a kernel stack is one task's, which cannot run while
	//               it sleeps on the timer);
	//   idle_not_captured  the rest, on a CPU whose idle the capture
	//               lacks (idle_uncaptured below): none of its interrupts
	//               from idle was recorded.
	std::uint64_t lost_end_shown = 0, lost_owner_ran = 0, idle_not_captured = 0;
	// The trace records no event of this CPU's idle task (pid 0) while it
	// does of other CPUs', and its tick stopped untraced
	// (tick_stops_inferred of it), and the model's interrupts there left
	// unmatched and unproven: the capture lacks what ran in its idle, the
	// interrupts that woke it among them
	// (tests/unit/test_hrtimer_lost.cc). Text renderings only: trace.dat
	// and CTF name no task here.
	bool idle_uncaptured = false;
	std::uint64_t idle_task_events = 0;	// events recorded in its idle task
	std::uint64_t tick_stops_inferred = 0;	// of hrtimer_summary's, on this CPU
	std::uint64_t device_programs = 0;
	// hrtimer_rearm (2026 kernels): the device programmings the trace
	// recorded, and those for the time the model's device was set to.
	std::uint64_t recorded_programs = 0, programs_matched = 0;
	// The model's hrtimers queued at the end, per clock base (by
	// hrtimer_base_type: hrtimer_base_name()).
	std::uint64_t pending[hrtimer_clock_bases] = {};
};

struct hrtimer_callback_figures {
	std::string function;
	std::uint64_t starts = 0, cancels = 0, expiries = 0, same_interrupt = 0;
	std::uint64_t wakeups = 0;	// model interrupts whose first expiry it was
};

// Lateness behind softexpires (the time asked for), ns: p99 by nearest
// rank, to within 1/128 of its value (a log-linear histogram).
struct hrtimer_lateness {
	std::uint64_t count = 0;
	double mean_ns = 0;
	std::int64_t p99_ns = 0, max_ns = 0;
};

// 7.1's hrtimer_rearm events judged against the model under 7.1's rules
// (sim/hrtimer/hr_replay.h): each recorded programming of the device, and
// whether the model programmed its device for the same next_event then.
// A deferred=1 rearm closes the model's pending rearm (the recorded end of
// its interrupt); a deferred=0 one is a start's or removal's program. The
// misses, by cause:
//   no_model_interrupt  deferred=1 where the model had no rearm pending
//                       (it ran no interrupt for the recorded one);
//   untraced_timer      the kernel programmed a time no timer the model
//                       holds expires at: a timer armed before the trace
//                       or with no event (the trace's: counted apart);
//   model_earlier       the model's device is set earlier: it holds a
//                       timer the kernel no longer had;
//   model_later         later, though the model holds a timer for the
//                       recorded time (it ran or moved one the kernel kept).
// model_deferred: the model's deferred rearms; of them by_recorded closed
// at a recorded deferred=1 event (the others at the interrupt's exit, a
// softirq's entry or the next interrupt).
// 7.1's deferred rearm where the trace records no hrtimer_rearm: the
// interrupt's end is the first event on its CPU this long after its last
// recorded event (its exit, or its last expiry): irq exit's work (the NOHZ
// tick's restart or stop) follows within microseconds, a woken task's own
// events later. The replay's model; the --what-if-kernel 7.1 model ends the
// interrupt at its last recorded work (7.1 rearms before the idle loop's
// NOHZ stop: sim/hrtimer/hr_whatif.h) and takes recorded work this close
// after its own interrupt's time for that interrupt's.
inline constexpr std::uint64_t deferred_rearm_gap_ns = 10'000;

struct hrtimer_rearm_figures {
	std::uint64_t recorded = 0, deferred = 0, matched = 0;
	std::uint64_t no_model_interrupt = 0, untraced_timer = 0, model_earlier = 0, model_later = 0;
	std::uint64_t model_deferred = 0, by_recorded = 0;
	std::uint64_t judged() const { return recorded - untraced_timer; }
};

// One side of a what-if (sim/hrtimer/hr_whatif.h).
struct hrtimer_what_if_side {
	std::uint64_t interrupts = 0;	// timer interrupts (the tick's, highres off)
	std::uint64_t expiries = 0;	// expiries of timers in the what-if's scope
	// The clockevent device's programmings and stops (the models'; 0: the
	// recording's, unknown).
	std::uint64_t device_programs = 0;
	hrtimer_lateness lateness;	// of those
};

// A what-if beside the recording: the trace's figures, the model run free
// with the recorded ranges and in high resolution, and the model under the
// what-if, fed the same starts and cancels.
struct hrtimer_what_if {
	std::string name;		// "slack", "highres"
	std::string setting;		// "exact", "50000", "off"
	std::string scope;		// the timers its lateness covers
	hrtimer_what_if_side recorded, model, what_if;
	std::uint64_t ranges_changed = 0;	// starts whose range the what-if changed
	// The kernel's rt_zero_slack rule (6.12+) was followed: sleeps armed
	// with no range (a real-time task's) kept none; how many.
	bool rt_zero_slack = false;
	std::uint64_t rt_exact = 0;
	// kernel 7.1: the tick's cancel + start pairs made one start.
	std::uint64_t tick_pairs_merged = 0;
	// Recorded expiries of timers the what-if still held: it ran them
	// then, at their own time, before the events that follow them.
	std::uint64_t ran_ahead = 0;
	std::uint64_t ticks = 0;	// highres off: jiffies of the trace x CPUs, the bound
};

// One queue design fed the model's own queue operations, per clock base.
struct hrtimer_queue_figures {
	std::string design;
	std::uint64_t arms = 0, removes = 0, expiries = 0;
	std::uint64_t order_mismatches = 0;	// expiries where its first was not the model's
	std::uint64_t tie_reorders = 0;		// ... but had the same expiry
	std::uint64_t remove_missed = 0;	// removes of a timer it did not hold
	hrq::queue_costs costs;
};

// The model's misses by cause (docs/fidelity.md "hrtimers: the misses by
// cause"). Of other_interrupt: softirq_after_later_interrupt (a soft
// timer the model ran in the interrupt that raised the HRTIMER softirq,
// whose run came after a later interrupt: the judge ties it to that one),
// slack_order (the model ran it earlier in its [softexpires, expires]
// range: the kernel's run of the queue, by expires, stopped at a timer
// ahead of it not yet due, the tick re-armed by its own callback). Of
// late: later_pass (hrtimer_interrupt()'s retry ran it with a later now
// than the interrupt's first pass), queued_on_other_cpu (the model holds
// it queued on another CPU). The trace's, of other_interrupt:
// arm_not_captured (the kernel ran an arm the capture does not hold: the
// recorded expiry came later behind the traced arm than that arm was made
// ahead, and far later than any timer ran late on its CPU before;
// counted apart from the fidelity figure). unexplained: the rest of both.
struct hrtimer_miss_causes {
	std::uint64_t softirq_after_later_interrupt = 0, slack_order = 0;
	std::uint64_t arm_not_captured = 0;
	std::uint64_t later_pass = 0, queued_on_other_cpu = 0;
	std::uint64_t unexplained = 0;
};

struct hrtimer_summary {
	bool present = false;		// the trace has hrtimer events
	bool irq_events = false;	// interrupts known from irq events
	std::uint64_t timers = 0, starts = 0, cancels = 0, rearms = 0;
	std::uint64_t cancels_in_expiry = 0;	// the pre-2026 cancel before each expiry
	// 2026 kernels: hrtimer_start_expired (a user timer started already
	// expired, taken off again without running) and hrtimer_rearm.
	std::uint64_t starts_expired = 0;
	bool rearm_events = false;
	// The model ran under 7.1's deferred rearm (the trace's generation or
	// --kernel-rules), and the recorded rearms judged against it.
	bool deferred_rearm = false;
	hrtimer_rearm_figures rearm;
	std::uint64_t expiries = 0;		// recorded hrtimer_expire_entry
	std::uint64_t same_interrupt = 0, other_interrupt = 0, late = 0, not_armed = 0;
	std::uint64_t simulated_only = 0;	// the model ran it, the recording did not
	// The misses (other_interrupt, late) by cause (docs/fidelity.md).
	hrtimer_miss_causes miss_causes;
	// Starts of a timer whose callback was running on another CPU: queued
	// on that CPU, as switch_hrtimer_base() keeps it.
	std::uint64_t starts_while_running_elsewhere = 0;
	// Expiries of timers re-armed without a trace event (hr_replay.h): the
	// model was told the re-arm at the expiry; how many of them it ran in
	// the same interrupt. Tick stops inferred on CPUs whose tick is so.
	std::uint64_t rearmed_untraced = 0, rearmed_untraced_same = 0;
	// The fidelity figure: the expiries of the arms the trace shows, less
	// the trace's misses (counted apart: not_armed are timers whose first
	// event is their expiry, armed before the trace began; re-arms with no
	// event traced; arms the capture does not hold, miss_causes), and
	// those of them the model ran in the same interrupt.
	std::uint64_t traced_arms() const
	{
		return expiries - rearmed_untraced - not_armed - miss_causes.arm_not_captured;
	}
	std::uint64_t traced_arms_same() const { return same_interrupt - rearmed_untraced_same; }
	std::uint64_t tick_stops_inferred = 0;
	std::vector<unsigned> untraced_tick_cpus;
	// The NOHZ tick as the trace records it (hr_replay.h): tick_stop
	// success=1 (the first stop of an idle period), success=0 (a
	// dependency kept the tick), the restarts (the tick's start back on
	// its grid after a recorded stop), the recorded stops the model
	// applied itself (the tick's own cancel or start after tick_stop not
	// traced), and the power:cpu_idle entries and exits.
	std::uint64_t tick_stops_recorded = 0, tick_stops_refused = 0, tick_restarts_recorded = 0;
	std::uint64_t tick_stops_applied = 0;
	std::uint64_t idle_entries = 0, idle_exits = 0;
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
	// Starts and cancels (those counted above) per (second, CPU) of the
	// replay's second_grid, where it kept them.
	std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint64_t> ops_by_second;
	bool ops_by_second_cut = false;	// more seconds than by_second keeps: none kept
	// The model's costs.
	std::uint64_t enqueues = 0, removals = 0, reprograms = 0, force_reprograms = 0;
	std::uint64_t comparisons = 0, max_depth = 0, rotations = 0, retries = 0, hangs = 0;
	// Only when asked for (--what-if-hr-slack, --what-if-highres, --hr-queues).
	std::vector<hrtimer_what_if> what_ifs;
	std::vector<hrtimer_queue_figures> queues;
};

}  // namespace timersim
