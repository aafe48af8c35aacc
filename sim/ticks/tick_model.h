// The recorded-tick model: a base runs its timers only when its CPU ticks.
//
// What the kernel does (read from the sources of each generation):
//
// Every generation: the timer softirq runs from the tick. The tick handler
// (tick_sched_timer, tick_nohz_handler since 6.9) first lets the CPU that
// owns the jiffies update (tick_do_timer_cpu) advance jiffies
// (tick_sched_do_timer -> tick_do_update_jiffies64), then calls
// update_process_times -> run_local_timers, which raises TIMER_SOFTIRQ. The
// softirq catches its base up from its clock to the current jiffies in one
// go: __run_timers loops "while (time_after_eq(jiffies, base->clk))" (3.x:
// timer_jiffies, one jiffy per pass; 4.8+: clk jumps to next_expiry), and
// every callback of that run sees the same jiffies, which is the `now` its
// timer_expire_entry prints. All CPUs tick on the same TICK_NSEC grid, so a
// CPU that is not the owner races the owner's update: if its tick handler
// runs before the owner's, it sees the previous jiffy.
//
// 3.x (kernel/timer.c, kernel/time/tick-sched.c), NOHZ idle: an idle CPU
// stops its tick and programs the tick hrtimer for the next timer
// (get_next_timer_interrupt -> __next_timer_interrupt, which skips
// deferrable timers, tbase_get_deferrable), so non-deferrable timers bound
// the sleep and deferrable ones wait for whatever tick comes next. The
// owner of the jiffies update gives it up when it stops its tick
// (tick_nohz_stop_sched_tick: tick_do_timer_cpu = TICK_DO_TIMER_NONE); the
// next CPU to tick takes it. Waking (tick_nohz_idle_exit, or an interrupt:
// tick_nohz_irq_enter) updates jiffies first and restarts the tick on the
// grid; the first softirq then catches up, running overdue deferrable
// timers late. No remote expiry: every base is run by its own CPU.
// run_local_timers raises the softirq on every tick.
//
// 4.8+ (kernel/time/timer.c): per CPU a standard and a deferrable base
// (BASE_STD, BASE_DEF). get_next_timer_interrupt marks the base idle
// (base->is_idle) when the next timer is more than a tick away and looks at
// the standard base only; forward_timer_base() catches an idle base's clk
// up to jiffies when a timer is queued, so placement granularity is
// measured from the current jiffies; run_local_timers raises the softirq
// only when a base is due; timer_clear_idle on wake. Deferrable timers of
// an idle CPU wait for its next tick, as in 3.x.
//
// 6.9+ (timer migration, kernel/time/timer_migration.c): bases LOCAL
// (pinned), GLOBAL, DEF. timer_base_try_to_set_idle marks the base idle
// (traced as timer_base_idle, 6.8+) and hands the first global expiry to
// the migration hierarchy (tmigr_cpu_deactivate); an active CPU, or the
// last one to go idle, runs tmigr_handle_remote from its own timer softirq
// (raised from its tick when tmigr_requires_handle_remote), and
// timer_expire_remote(cpu) runs the idle CPU's BASE_GLOBAL in place: its
// expiries are traced on the CPU that ran them. Deferrable timers are not
// handed over: they run at their own CPU's next tick.
//
// What the model does with a trace's ticks (one tick = the tick hrtimer's
// hrtimer_expire_entry on that CPU, mapped to jiffies G by the tick grid):
//   - the jiffies owner sees G: its own update came first; so does a CPU
//     whose tick ends an idle stretch (it updated jiffies on waking), and
//     the only CPU of a one-CPU trace;
//   - any other CPU is sure to see only G - 1: whether the owner's update
//     came first is a race of microseconds the trace cannot settle;
//   - where the softirq that followed the tick traced an expiry, its `now`
//     settles it: that run's jiffies are the ones the trace shows.
// The owner is followed as the kernel hands it on: it drops the duty when
// its base goes idle (timer_base_idle), and the next CPU to tick takes it.
// Until a trace shows who owns it (a softirq that saw G before any other
// CPU ticked G), no CPU is taken to see G unaided.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "sim/scheme/scheme.h"

namespace timersim {

// One tick's timer softirq as the model sees it.
struct tick_run {
	unsigned cpu = 0;
	jiffies_t grid = 0;	// the tick's grid line, as jiffies
	jiffies_t limit = 0;	// the run processes every jiffy up to this one
	jiffies_t label = 0;	// the jiffies its callbacks see (their `now`)
	bool settled = false;	// limit and label came from the run's own events
};

struct tick_model_stats {
	std::uint64_t ticks = 0;
	std::uint64_t owner_ticks = 0;	// ticks that saw their own grid line unaided
	std::uint64_t settled = 0;	// runs whose jiffies the trace showed
	std::uint64_t owner_changes = 0;
};

class tick_model {
public:
	explicit tick_model(unsigned cpus);

	// timer_base_idle: the CPU's base went idle (its tick stops: the
	// jiffies owner gives up the duty) or woke.
	void base_idle(unsigned cpu, bool idle);

	// A tick on `cpu` at grid line `grid`. `seen`: the jiffies the expiries
	// of the softirq that followed it printed, if it traced any.
	// `other_first`: another CPU ticked on `grid` (or later) before that
	// softirq ran, so it may have updated jiffies.
	tick_run tick(unsigned cpu, jiffies_t grid, std::optional<jiffies_t> seen, bool other_first);

	// The CPU that owns the jiffies update, if known.
	std::optional<unsigned> owner() const;
	const tick_model_stats &stats() const { return stats_; }

private:
	// How far behind its grid line the owner's tick may run (a long
	// interrupt, a busy hardirq) and still be the owner.
	static constexpr jiffies_t owner_late_jiffies = 3;
	static constexpr unsigned unknown = ~0u;	// not yet shown
	static constexpr unsigned none = ~0u - 1;	// dropped: the next tick takes it

	unsigned cpus_;
	unsigned owner_;
	std::vector<bool> idle_;
	std::vector<jiffies_t> last_grid_;	// per CPU, its latest tick's grid line
	std::vector<bool> ticked_;
	tick_model_stats stats_;
};

}  // namespace timersim
