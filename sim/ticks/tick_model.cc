#include "sim/ticks/tick_model.h"

namespace timersim {

tick_model::tick_model(unsigned cpus)
	: cpus_(cpus), owner_(cpus == 1 ? 0 : unknown), idle_(cpus, false), last_grid_(cpus, 0),
	  ticked_(cpus, false)
{
}

void tick_model::base_idle(unsigned cpu, bool idle)
{
	if (cpu >= cpus_)
		return;
	idle_[cpu] = idle;
	// tick_nohz_stop_tick: the owner going idle drops the duty.
	if (idle && owner_ == cpu && cpus_ > 1)
		owner_ = none;
}

std::optional<unsigned> tick_model::owner() const
{
	if (owner_ < cpus_)
		return owner_;
	return std::nullopt;
}

tick_run tick_model::tick(unsigned cpu, jiffies_t grid, std::optional<jiffies_t> seen,
			  bool other_first)
{
	stats_.ticks++;
	// tick_sched_do_timer: a dropped duty goes to the first CPU to tick.
	if (owner_ == none) {
		owner_ = cpu;
		stats_.owner_changes++;
	}
	for (unsigned x = 0; x < cpus_ && !other_first; x++)
		other_first = x != cpu && ticked_[x] && last_grid_[x] >= grid;
	const bool waking = idle_[cpu];
	const bool sees_grid = owner_ == cpu || waking;

	tick_run run;
	run.cpu = cpu;
	run.grid = grid;
	if (seen) {
		run.limit = run.label = *seen;
		run.settled = true;
		stats_.settled++;
		// A CPU whose previous tick is more than a grid line back had
		// its tick stopped: waking (tick_nohz_irq_enter) it may update
		// jiffies itself without taking the duty over.
		const bool stopped = ticked_[cpu] && last_grid_[cpu] + 1 < grid;
		if (*seen >= grid && !other_first && !sees_grid && !stopped) {
			// Nobody else ticked on this line yet: this CPU moved
			// jiffies itself, so it owns the update.
			owner_ = cpu;
			stats_.owner_changes++;
		} else if (*seen < grid && owner_ == cpu && !waking) {
			// The owner would have seen its own update.
			owner_ = unknown;
		}
	} else {
		run.limit = run.label = sees_grid || !grid ? grid : grid - 1;
		// Nor can it see past the owner's latest update: an owner whose
		// tick runs late (a long interrupt) leaves jiffies behind. An
		// owner silent for longer has stopped its tick and so dropped
		// the duty, which a trace without timer_base_idle does not show.
		if (!sees_grid && owner_ < cpus_ && ticked_[owner_] && last_grid_[owner_] < run.label &&
		    grid - last_grid_[owner_] <= owner_late_jiffies)
			run.limit = run.label = last_grid_[owner_];
	}
	stats_.owner_ticks += sees_grid;
	last_grid_[cpu] = grid;
	ticked_[cpu] = true;
	return run;
}

}  // namespace timersim
