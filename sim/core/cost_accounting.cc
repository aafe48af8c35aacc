#include "sim/core/cost_accounting.h"

#include <algorithm>

namespace timersim {

void cost_accounting::begin(const replay_setup &setup)
{
	setup_ = &setup;
	tick_moves_.assign(setup.cpus, 0);
	tick_jiffy_.assign(setup.cpus, 0);
	tick_open_.assign(setup.cpus, false);
	unsigned levels = std::max(setup.levels, 1u);
	level_calls_.assign(levels + 1, 0);
	level_moved_.assign(levels + 1, 0);
	level_enqueued_.assign(levels + 1, 0);
}

// Levels beyond what the scheme declared are counted on its last one.
std::uint64_t &cost_accounting::level_slot(std::vector<std::uint64_t> &v, unsigned level)
{
	return v[std::min<std::size_t>(level, v.size() - 1)];
}

cost_accounting::function_acc &cost_accounting::fn(std::uint32_t id)
{
	if (fns_.size() <= id)
		fns_.resize(id + 1);
	return fns_[id];
}

cost_accounting::arming &cost_accounting::arm(timer_id t)
{
	if (armings_.size() <= t)
		armings_.resize(t + 1);
	return armings_[t];
}

// Moves spent on an arming that then ended without firing were wasted.
void cost_accounting::end_arming(timer_id t, arming_end how)
{
	arming &a = arm(t);
	if (a.moves && how == arming_end::canceled)
		cascade_.moved_then_canceled++;
	if (a.moves && how == arming_end::rearmed)
		cascade_.moved_then_rearmed++;
	a.moves = 0;
}

void cost_accounting::started(const timer_ref &t, unsigned, jiffies_t, jiffies_t, unsigned level,
			      bool rearm)
{
	level_slot(level_enqueued_, level)++;
	if (rearm) {
		timers_.rearmed++;
		end_arming(t.id, arming_end::rearmed);
	}
	timers_.started++;
	fn(t.function).started++;
	arm(t.id).moves = 0;
}

void cost_accounting::canceled(const timer_ref &t, unsigned, jiffies_t)
{
	timers_.canceled++;
	fn(t.function).canceled++;
	end_arming(t.id, arming_end::canceled);
}

// A base's tick ends when its next one begins (or the replay ends): its
// moves go into the distribution, and the worst tick is remembered.
void cost_accounting::close_tick(unsigned cpu)
{
	if (!tick_open_[cpu])
		return;
	tick_open_[cpu] = false;
	std::uint64_t moves = tick_moves_[cpu];
	moves_hist_.add(moves);
	if (moves > cascade_.max_moved_in_one_tick) {
		cascade_.max_moved_in_one_tick = moves;
		cascade_.max_moved_jiffy = setup_->narrow(tick_jiffy_[cpu]);
		cascade_.max_moved_seconds = setup_->seconds(tick_jiffy_[cpu]);
		cascade_.max_moved_cpu = cpu;
	}
}

void cost_accounting::tick(unsigned cpu, jiffies_t jiffy)
{
	close_tick(cpu);
	tick_open_[cpu] = true;
	tick_moves_[cpu] = 0;
	tick_jiffy_[cpu] = jiffy;
	ticks_processed_++;
}

void cost_accounting::idle_ticks(unsigned cpu, jiffies_t, std::uint64_t count)
{
	close_tick(cpu);
	moves_hist_.add(0, count);
	ticks_processed_ += count;
}

void cost_accounting::cascaded(unsigned, jiffies_t, unsigned level, std::uint32_t)
{
	level_slot(level_calls_, level)++;
}

void cost_accounting::empty_cascades(unsigned level, std::uint64_t calls)
{
	level_slot(level_calls_, level) += calls;
}

void cost_accounting::moved(const timer_ref &t, unsigned cpu, jiffies_t, unsigned from_level)
{
	level_slot(level_moved_, from_level)++;
	cascade_.moved_total++;
	tick_moves_[cpu]++;
	arm(t.id).moves++;
	fn(t.function).moved++;
}

void cost_accounting::expired(const timer_ref &t, unsigned, jiffies_t jiffy, jiffies_t expires)
{
	timers_.expired++;
	fn(t.function).expired++;
	end_arming(t.id, arming_end::expired);

	lateness_summary &l = lateness_;
	l.expiries++;
	if (jiffy < expires) {
		l.early++;
	} else {
		std::uint64_t late = jiffy - expires;
		l.on_time += late == 0;
		l.total += late;
		l.max = std::max(l.max, late);
		late_hist_.add(late);
	}
}

void cost_accounting::fidelity(const timer_ref &t, unsigned, jiffies_t recorded,
			       jiffies_t simulated, verdict v)
{
	fidelity_summary &f = fidelity_;
	if (v != verdict::simulated_only)
		f.compared++;
	switch (v) {
	case verdict::exact:
		f.exact++;
		break;
	case verdict::early:
		f.early++;
		break;
	case verdict::late:
		f.late++;
		if (!expired_by_replay(v, recorded, simulated))
			break;	// it fired later in the simulation: counted then
		// Still pending: the engine expired it at the recorded jiffy,
		// so that the state follows the recorded kernel.
		timers_.expired++;
		fn(t.function).expired++;
		end_arming(t.id, arming_end::expired);
		break;
	case verdict::unmatched:
		f.unmatched++;
		break;
	case verdict::simulated_only:
		f.simulated_only++;
		break;
	}
}

void cost_accounting::fill(replay_report &r, const interner &names)
{
	for (unsigned cpu = 0; cpu < tick_open_.size(); cpu++)
		close_tick(cpu);

	r.timers.started = timers_.started;
	r.timers.rearmed = timers_.rearmed;
	r.timers.canceled = timers_.canceled;
	r.timers.expired = timers_.expired;
	r.fidelity = fidelity_;
	r.ticks_processed = ticks_processed_;
	r.lateness = lateness_;
	r.lateness.buckets = late_hist_.buckets();
	r.cascade = cascade_;
	r.cascade.moves_per_tick = moves_hist_.buckets();

	unsigned levels = setup_->levels;
	for (unsigned l = 2; l <= levels; l++)
		r.cascade.levels.push_back(
			{setup_->level_names[l - 1], level_calls_[l], level_moved_[l]});
	if (levels)
		for (unsigned l = 1; l <= levels; l++)
			r.enqueue.push_back({setup_->level_names[l - 1], level_enqueued_[l]});
	else
		r.enqueue.push_back({"all", level_enqueued_[0] + level_enqueued_[1]});

	for (std::uint32_t id = 0; id < fns_.size(); id++) {
		const function_acc &a = fns_[id];
		if (!a.started && !a.canceled && !a.expired && !a.moved)
			continue;
		const std::string &name = names.name(id);
		r.functions.push_back({name.empty() ? "(unknown)" : name, a.started, a.canceled,
				       a.expired, a.moved});
	}
	std::sort(r.functions.begin(), r.functions.end(),
		  [](const function_stats &a, const function_stats &b) {
			  if (a.moved != b.moved)
				  return a.moved > b.moved;
			  if (a.started != b.started)
				  return a.started > b.started;
			  return a.function < b.function;
		  });
}

const char *verdict_name(verdict v)
{
	switch (v) {
	case verdict::exact: return "exact";
	case verdict::early: return "early";
	case verdict::late: return "late";
	case verdict::unmatched: return "unmatched";
	case verdict::simulated_only: return "simulated_only";
	}
	return "?";
}

}  // namespace timersim
