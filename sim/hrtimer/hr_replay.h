// The hrtimer half of a trace, replayed through the kernel's own hrtimer
// model (kernel/hrtimer.h): per CPU an hrtimer_cpu_base with its clock
// bases and clockevent device, fed the recorded hrtimer_setup/init, start
// and cancel events, and run free: the model's device fires when it is
// due, and its interrupts run what they run by the kernel's rules.
//
// Each recorded hrtimer expiry is then judged against the model:
//   same interrupt   the model ran the timer in the interrupt (or HRTIMER
//                    softirq run) that the recording ran it in;
//   other interrupt  the model ran it, in an interrupt of its own before;
//   late             the model still held it: by its softexpires the
//                    recorded interrupt came too early for it;
//   not armed        the model never saw it started (armed before the trace).
//
// Re-arms the kernel made without a trace event: an expiry of a timer the
// trace showed before, which the model does not hold (expired and not
// re-started, or canceled), was armed again untraced (a timerfd's; on some
// CPUs the tick's idle stop and restart log no hrtimer_start). The model is
// told the re-arm at the expiry, at the latest moment it can have been
// made, and the report counts these apart. The model also infers the
// tick's untraced stops, on any CPU: when the recording shows the tick did
// not run at the time the model holds it for (time passed on that CPU, or
// an interrupt ran other timers first), the model's tick is taken off
// until its next recorded expiry, and the CPU is listed as one whose tick
// re-arms untraced.
// A recorded interrupt is a local_timer_entry/exit (or the timer's
// irq_handler) where the trace has them, else the hard expiries on one CPU
// with one `now`. The model's interrupts are counted against them per CPU:
// predicted (its device came due), recorded, and both.
//
// Time: `now` and `expires` are the timer's own clock; the events' trace
// timestamps are put on CLOCK_MONOTONIC by the offset (now - timestamp)
// of the latest MONOTONIC expiry, and REALTIME's offset is taken from
// interrupts that ran timers of both clocks (the report says how well they
// agree). Quirks of the tracepoints, each counted: before 2026 every
// expiry is preceded by an hrtimer_cancel at the same time (the removal
// __run_hrtimer makes), which is not a cancel; a re-arm of an armed timer
// is a cancel then a start on kernels without was_armed; periodic timers
// are re-started by an hrtimer_start after their expire_exit.
//
// Under 7.1's rules (set_deferred_rearm(): the trace's generation, or
// --kernel-rules 7.1) the model's interrupts leave the device unprogrammed
// and the rearm is made where the kernel makes it, at the end of the
// interrupt as the trace shows it. Where the trace records hrtimer_rearm,
// its deferred=1 is that end (irq exit's work, the NOHZ tick's restart or
// stop, comes after the timer interrupt's exit event); else the first event
// on the CPU deferred_gap_ns past the interrupt's exit (or its last expiry,
// without interrupt events). A softirq's entry (the kernel rearms before it
// runs softirqs), a soft expiry and the model's next interrupt end it too.
// Starts and cancels in between fold into that one program. Each recorded
// hrtimer_rearm is judged against the model's device (hrtimer_rearm_figures).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "kernel/hrtimer.h"
#include "sim/base/cpu_activity.h"
#include "sim/base/second_grid.h"
#include "sim/hrtimer/hr_summary.h"
#include "sim/hrtimer/hr_whatif.h"
#include "sim/stream/event_stream.h"
#include "sim/base/flat_ids.h"

namespace timersim {

class hrtimer_replay {
public:
	explicit hrtimer_replay(unsigned cpus);
	hrtimer_replay(const hrtimer_replay &) = delete;
	hrtimer_replay &operator=(const hrtimer_replay &) = delete;

	// The trace's events that concern the hrtimers, in order, each by its
	// kind (the replay's loop switches on it once): irq_entry/exit,
	// softirq_*, hrtimer. AHEAD.peek(i) is the i-th event after an hrtimer
	// event, for the cancels that are part of an expiry: read directly,
	// since a cancel looks at up to 64 events, and an indirect call for
	// each would be paid 64 times a cancel.
	void apply_irq(const sim_event &ev);
	void apply_softirq(const sim_event &ev);
	void apply_hrtimer(const sim_event &ev, event_stream &ahead);
	// Any event recorded in the idle task: the trace holds what its CPU
	// did in idle (hrtimer_cpu_figures::idle_uncaptured).
	void apply_idle_task(const sim_event &ev)
	{
		if (ev.cpu < cpus_.size())
			figures_[ev.cpu].idle_task_events++;
	}
	// timer:tick_stop and power:cpu_idle: the NOHZ tick's recorded stops
	// (kernel/time/tick-sched.c, 6.18): tick_nohz_stop_tick() traces
	// tick_stop(1) when it first stops an idle CPU's tick, then cancels
	// the tick's hrtimer or starts it for the next event (more than a tick
	// away); tick_nohz_handler() does not re-arm a stopped tick; the idle
	// exit restarts it (tick_nohz_restart(): forwarded from the last tick
	// past now, at most TICK_NSEC ahead), which clears the stop. While a
	// CPU's stop is recorded, its tick found not running is that stop
	// (applied, not inferred).
	void apply_nohz(const sim_event &ev);
	hrtimer_summary finish(const std::function<std::string(std::uint32_t)> &name_of);
	// Also run the what-ifs (sim/hrtimer/hr_whatif.h) on what this replays;
	// before the first event. `hz`: the recording's.
	void set_what_ifs(const hr_what_if_options &opt, unsigned hz,
			  std::function<std::string(std::uint32_t)> name_of);
	// The tick's callback (interned) and TICK_NSEC, when the trace's tick
	// was found (sim/ticks/tick_identity.h): its untraced re-arms are
	// inferred on the tick's grid. Before the first event.
	void set_tick(std::uint32_t function, std::uint64_t tick_nsec)
	{
		tick_function_ = function;
		tick_nsec_ = tick_nsec;
	}

	// Told each interrupt the model runs and each hrtimer it runs in one
	// (cpu_activity::model_interrupt, model_expiry; the first expiry's or
	// the timer's callback as an interned id, for the caller to name), in
	// the trace's ns. Unset (the default): nothing is told.
	using model_fn = std::function<void(cpu_activity &, std::uint32_t function)>;
	void observe(model_fn fn) { observe_ = std::move(fn); }
	// Count the starts and cancels per second of GRID and CPU
	// (hrtimer_summary::ops_by_second). Before the first event.
	void per_second(const second_grid &grid) { grid_ = grid; }
	// 7.1's rules: the interrupts' rearm deferred (above). Before the
	// first event.
	// REARM_EVENTS: the trace records hrtimer_rearm (its deferred=1 marks
	// each interrupt's end).
	void set_deferred_rearm(bool on, bool rearm_events);

private:
	struct slot {
		kernel::hr::hrtimer timer;	// first: the callback finds its slot from it
		std::uint64_t ptr = 0;
		std::uint32_t id = 0;		// its number, for the what-ifs
		std::uint32_t function = 0;
		int clockid = 1;		// CLOCK_MONOTONIC unless told
		bool set_up = false;
		bool soft = false;
		// The model ran it and no recorded expiry has claimed it yet.
		bool fired = false;
		std::uint64_t fired_irq = 0;	// the model interrupt that ran it
		std::uint32_t fired_cpu = 0;
	std::int64_t fired_mono = 0;	// the model's now when it ran it
	// CLOCK_MONOTONIC at its last traced start (the cause
	// arm_not_captured: how far ahead that arm was made).
	std::int64_t armed_mono = 0;
	// Which of its CPU's HRTIMER softirq runs was next when it ran (the
	// cause softirq_after_later_interrupt).
	std::uint64_t fired_soft_run = 0;
	// Its callback runs now, by the trace (expire_entry, no exit yet):
	// on this CPU + 1 (0: not running).
	std::uint32_t running_on = 0;
		bool seen = false;		// an event of it came before
		bool inferred = false;		// armed by inference: its expiry unknown
		// The trace's last event of it was a start (no expiry or cancel
		// since): the kernel holds it queued.
		bool started = false;
		bool fired_unmatched = false;	// ... in a predicted-only interrupt
		// In a kernel stack (on_stack_block()), listed in stacks_ while
		// started; its end shown by its task running again (owner_ran).
		bool listed = false;
		bool owner_ran = false;
	};
	enum class device_write : std::uint8_t { none, program, stop };
	struct cpu_state {
		kernel::hr::hrtimer_cpu_base base;
		bool in_irq = false;		// inside a recorded timer interrupt
		bool irq_ran = false;		// ... which has run the model's interrupt
		std::uint64_t irq_entry_ns = 0;	// its entry's timestamp
		bool in_soft = false;		// inside a recorded HRTIMER softirq run
		bool soft_ran = false;
		std::uint64_t group_now = 0;	// the last expiry group's now (no irq events)
		bool group_open = false;
		std::uint64_t irq_id = 0;	// the model interrupt the recorded one matched
		// The group's MONOTONIC now, for REALTIME's offset (0: none yet).
		std::uint64_t group_mono_now = 0;
		slot *tick = nullptr;		// this CPU's tick hrtimer, once seen
		slot *last_slot = nullptr;	// the timer of its last slot_for()
		bool tick_untraced = false;	// ... listed in untraced_tick_cpus
		// 7.1: the model's interrupt left its rearm pending
		// (base.deferred_rearm); closed by the first event past this
		// timestamp on the CPU (UINT64_MAX: only by the interrupt's end).
		std::uint64_t rearm_close_after = 0;
		bool irq_unmatched = false;	// its interrupt was predicted only
		// The interrupt's latest work seen (CLOCK_MONOTONIC): a rearm made
		// later than it (at the next event) is made at that time.
		std::int64_t window_mono = 0;
		bool tick_stopped = false;	// a recorded tick_stop, no restart since
		bool idle = false;		// inside a recorded cpu_idle entry
	// 6.x: the model's interrupt for the recorded one that is still
	// running (its exit not yet seen) wrote the device so (none: no
	// interrupt open, or it left the device as it was).
	device_write irq_write = device_write::none;
	// The timer whose expire_exit was this CPU's last event the replay
	// saw (0: another came since).
	std::uint64_t after_exit = 0;
	// The now the model's interrupt ran at for the recorded one (the
	// cause later_pass), and the HRTIMER softirq runs begun.
	std::int64_t irq_mono = 0;
	std::uint64_t soft_runs = 0;
	// The most a recorded expiry on this CPU came behind its traced arm's
	// softexpires, of those the model ran in the same interrupt: how late
	// the kernel is seen to run a timer here (the cause arm_not_captured).
	std::int64_t lateness_seen = 0;
	};

	void count_op(const sim_event &ev)
	{
		if (grid_.on() && ev.carries(EF_TIMESTAMP))
			ops_.at(grid_.of_ns(ev.ts_ns), ev.cpu)++;
	}
	second_grid grid_;
	by_second<std::uint64_t> ops_;

	static kernel::hr::hrtimer_restart fired(kernel::hr::hrtimer *t, void *context);
	// Inline: nearly every hrtimer event looks its timer up (flat_ids::mix()
	// is a bijection, so a matching hash is this very pointer).
	slot &slot_of(std::uint64_t ptr)
	{
		bool fresh;
		std::uint32_t id = ids_.find_or_add(
			flat_ids::mix(ptr), [](std::uint32_t) { return true; }, fresh);
		if (fresh) [[unlikely]]
			return new_slot(ptr, id);
		return *slots_[id];
	}
	// The timer EV names (on a CPU the replay holds): its CPU's last one
	// first, without the look-up (a setup, start and cancel of one timer
	// on one CPU are often adjacent).
	slot &slot_for(const sim_event &ev)
	{
		cpu_state &c = *cpus_[ev.cpu];
		if (c.last_slot && c.last_slot->ptr == ev.timer)
			return *c.last_slot;
		slot &s = slot_of(ev.timer);
		c.last_slot = &s;
		return s;
	}
	// Out of line: a timer's first event only (slot_of() stays small).
	[[gnu::noinline]] slot &new_slot(std::uint64_t ptr, std::uint32_t id);
	void set_up(slot &s, const sim_event &ev, unsigned cpu);
	std::int64_t mono_of(std::uint64_t ts_ns) const;
	std::uint64_t ts_of(std::int64_t mono) const;
	// Every event an hrtimer_replay takes: false for those it cannot
	// place (no timestamp, a CPU beyond the bases); notes the trace's span.
	bool note_time(const sim_event &ev)
	{
		if (ev.cpu >= cpus_.size() || !ev.carries(EF_TIMESTAMP))
			return false;
		if (!seen_ts_)
			first_ts_ = ev.ts_ns;
		seen_ts_ = true;
		last_ts_ = ev.ts_ns;
		return true;
	}
	// Inline, in the .cc: asked at nearly every hrtimer event; run_due()
	// runs the interrupts that came due.
	inline void catch_up(unsigned cpu, std::int64_t mono);
	[[gnu::noinline]] void run_due(unsigned cpu, std::int64_t mono);
	// `unarmed`: the recorded interrupt's first timer was one the model
	// was never told armed (hrtimer_cpu_figures::recorded_trace_caused).
	void run_interrupt(unsigned cpu, std::int64_t now, bool recorded, bool unarmed = false);
	// `in_interrupt`: made inside the recorded timer interrupt.
	void on_start(const sim_event &ev, bool in_interrupt);
	// The trace shows S's end without an event for it; if the model ran S
	// in an interrupt no recorded one matched, that interrupt's events
	// were lost (hrtimer_cpu_figures::predicted_trace_caused).
	enum class lost_cause { end_shown, owner_ran };
	void end_not_traced(slot &s, lost_cause why = lost_cause::end_shown);
	// EV sets up or starts a timer: one in a kernel stack shows that
	// stack's task running, and so the end of the timers it slept on there
	// that were due by now (lost_cause::owner_ran).
	void note_stack_owner(const sim_event &ev, const slot &s);
	void list_on_stack(slot &s);
	void idle_not_captured(hrtimer_summary &r) const;
	void on_cancel(const sim_event &ev, event_stream &ahead);
	// A recorded expiry, in steps.
	struct expiry_clock {
		unsigned base = 0;		// its clock base's index, soft or hard alike
		bool realtime = false;		// REALTIME or TAI
		std::int64_t mono = 0;		// its now, on CLOCK_MONOTONIC
	};
	void on_expire(const sim_event &ev);
	bool rearmed_untraced(slot &s, const sim_event &ev);
	expiry_clock clock_of_expiry(const slot &s, const sim_event &ev);
	void place_hard_expiry(slot &s, const sim_event &ev, const expiry_clock &clock, bool untraced,
			       bool unseen);
	void place_soft_expiry(slot &s, const sim_event &ev, const expiry_clock &clock);
	void note_realtime_offset(const sim_event &ev, bool realtime);
	void judge(slot *s, const sim_event &ev, unsigned cpu, std::int64_t mono);
	// Why the model ran S in another interrupt, or still holds it.
	// INFERRED: its arm was the model's inference (counted apart already).
	// True when the cause is the trace's.
	bool count_other_cause(const slot &s, const sim_event &ev, unsigned cpu, bool inferred);
	bool arm_not_captured(const slot &s, const sim_event &ev, unsigned cpu) const;
	void count_late_cause(const slot &s, unsigned cpu, std::int64_t mono);
	void note_tick(slot &s, unsigned cpu);
	void rearm_untraced(slot &s, const sim_event &ev, bool realtime);
	void arm(slot &s, unsigned cpu, std::int64_t soft, std::int64_t delta, unsigned mode,
		 std::int64_t what_if_mono, bool in_interrupt = false);
	// Inline: asked at every hrtimer event; the tick is rarely found
	// stopped.
	void stop_tick_untraced(unsigned cpu, std::int64_t due_by)
	{
		const cpu_state &c = *cpus_[cpu];
		if (c.tick && kernel::hr::hrtimer_is_queued(&c.tick->timer) &&
		    c.tick->timer.node.expires <= due_by)
			stop_tick(cpu);
	}
	// The tick's start on CPU at MONO for EXPIRES: a restart after a
	// recorded stop when back on its grid (at most a tick ahead).
	void note_tick_start(unsigned cpu, std::int64_t mono, std::int64_t expires);
	void stop_tick(unsigned cpu);
	// 7.1: the CPU's pending rearm, made now (true when one was pending).
	// AT_END: made at the interrupt's latest work (window_mono), not now.
	bool close_deferred(unsigned cpu, bool at_end = true);
	void close_deferred_if_past(unsigned cpu, std::uint64_t ts)
	{
		const cpu_state &c = *cpus_[cpu];
		if (c.base.deferred_rearm && ts > c.rearm_close_after) [[unlikely]]
			close_deferred(cpu);
	}
	void on_rearm(const sim_event &ev);
	// 6.x: a start or cancel made inside a timer interrupt (its callbacks'
	// work, traced after their expire_exit and before the interrupt's
	// exit) does not program the device while in_hrtirq is set: the
	// interrupt programs once, at its end, for what they left
	// (hrtimer_reprogram() returns on in_hrtirq; hrtimer_interrupt()
	// then calls tick_program_event() for the next expiry). The model ran
	// the interrupt at its first expiry, before them, so a write one of
	// them makes replaces the interrupt's own.
	struct device_writes {
		std::uint64_t programs = 0, stops = 0;
	};
	device_writes writes_of(unsigned cpu) const
	{
		const kernel::hr::clock_event_device &d = cpus_[cpu]->base.dev;
		return {d.programs, d.stops};
	}
	device_write last_write(unsigned cpu, const device_writes &before) const;
	// RESTART: EV started the timer whose expire_exit was the CPU's last
	// event (what tells a re-enqueue inside the interrupt where the trace
	// has no interrupt events).
	void fold_in_hrtirq(unsigned cpu, const device_writes &before, bool restart);
	// A recorded program of next_event the model's device is not set for: why.
	void judge_rearm_miss(unsigned cpu, std::int64_t recorded);
	void mark_tick_untraced(unsigned cpu);
	void remove(slot &s);
	void find_offset(event_stream &ahead, const sim_event &ev);
	hrtimer_callback_figures &callback(std::uint32_t function)
	{
		if (function >= by_function_.size()) [[unlikely]]
			by_function_.resize(std::size_t(function) + 1);
		return by_function_[function];
	}

	kernel::hr::hrtimer_machine machine_;
	// Where the kernel model's pointers lead, so never moved; found
	// through the vectors beside them (a deque's index is a division
	// and two loads at every look-up).
	std::deque<cpu_state> cpu_store_;
	std::deque<slot> slot_store_;
	std::vector<cpu_state *> cpus_;	// by CPU, into cpu_store_
	std::vector<slot *> slots_;	// by id, into slot_store_
	flat_ids ids_;
	std::vector<hrtimer_callback_figures> by_function_;	// by interned id
	std::vector<hrtimer_cpu_figures> figures_;
	std::uint64_t current_irq_ = 0;		// the model interrupt running now
	// The running model interrupt matches no recorded one (predicted only).
	bool irq_unmatched_ = false;
	// The predicted-only interrupts counted as lost (few: only those the
	// trace shows it lost).
	std::unordered_set<std::uint64_t> lost_irqs_;
	// The timers last seen started that lie in a kernel stack, by the
	// stack (on_stack_block()).
	std::unordered_map<std::uint64_t, std::vector<slot *>> stacks_;
	bool crediting_ = false;		// its first expiry is a wakeup, not yet credited
	hrtimer_summary sum_;
	bool offset_known_ = false;
	std::int64_t ts_to_mono_ = 0;		// mono = ts + this
	std::uint64_t next_irq_ = 1;
	unsigned running_cpu_ = 0;
	bool irq_events_ = false;
	double lateness_sum_ = 0;
	std::int64_t realtime_min_ = 0, realtime_max_ = 0;
	std::unique_ptr<hr_what_ifs> what_ifs_;	// null unless asked for
	std::uint64_t first_ts_ = 0, last_ts_ = 0;	// the trace's span, for them
	bool seen_ts_ = false;
	model_fn observe_;
	bool rearm_recorded_ = false;		// the trace has hrtimer_rearm events
	std::uint32_t irq_fired_ = 0;		// hrtimers the running model interrupt ran
	std::uint32_t irq_first_ = 0;		// ... its first one's callback
	std::uint32_t tick_function_ = 0;	// the tick's callback (0: not known)
	std::uint64_t tick_nsec_ = 0;
};

}  // namespace timersim
