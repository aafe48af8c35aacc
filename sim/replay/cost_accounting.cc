#include "sim/replay/cost_accounting.h"

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
function_fidelity &cost_accounting::fn_fidelity(std::uint32_t id)
{
	if (fn_fidelity_.size() <= id)
		fn_fidelity_.resize(id + 1);
	return fn_fidelity_[id];
}

// Moves spent on an arming that then ended without firing were wasted.
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
	// Each idle tick is a softirq run that fired nothing, as when the
	// scheme steps them one by one.
	work_.runs += count;
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
	function_fidelity &ff = fn_fidelity(t.function);
	if (v != verdict::simulated_only)
		f.compared++;
	switch (v) {
	case verdict::exact:
		f.exact++;
		ff.exact++;
		break;
	case verdict::early:
		f.early++;
		ff.early++;
		break;
	case verdict::late:
		f.late++;
		ff.late++;
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
		ff.unmatched++;
		break;
	case verdict::simulated_only:
		f.simulated_only++;
		ff.simulated_only++;
		break;
	}
}

void cost_accounting::bucket_fidelity(const timer_ref &, unsigned, jiffies_t, jiffies_t, verdict v,
				      miss_reason why)
{
	fidelity_summary::by_bucket_summary &b = fidelity_.by_bucket;
	b.judged++;
	if (v != verdict::exact) {
		bucket_misses_[static_cast<unsigned>(why)]++;
		b.trace_caused += v != verdict::unmatched && trace_cause(why);
	}
	b.exact += v == verdict::exact;
	b.early += v == verdict::early;
	b.late += v == verdict::late;
	b.unmatched += v == verdict::unmatched;
}

void cost_accounting::missed(const timer_ref &, unsigned, verdict, miss_reason why)
{
	misses_[static_cast<unsigned>(why)]++;
}

void cost_accounting::softirq_run(unsigned, jiffies_t, std::uint64_t, std::uint64_t,
				  const timer_ref *wake)
{
	work_.runs++;
	if (wake) {
		work_.runs_expiring++;
		fn(wake->function).wakeups++;
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
	for (unsigned m = 0; m < miss_reasons; m++)
		r.fidelity.misses.push_back({miss_reason_name(static_cast<miss_reason>(m)), misses_[m]});
	for (unsigned m = 0; m < miss_reasons; m++)
		r.fidelity.by_bucket.misses.push_back(
			{miss_reason_name(static_cast<miss_reason>(m)), bucket_misses_[m]});
	r.ticks_processed = ticks_processed_;
	r.lateness = lateness_;
	r.lateness.buckets = late_hist_.buckets();
	r.cascade = cascade_;
	r.cascade.moves_per_tick = moves_hist_.buckets();
	r.work.softirq_unattributed = work_.softirq_unattributed;
	r.work.runs = work_.runs;
	r.work.runs_expiring = work_.runs_expiring;

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
		if (!a.started && !a.canceled && !a.expired && !a.moved && !a.process_units &&
		    !a.softirq_units)
			continue;
		const std::string &name = names.name(id);
		r.functions.push_back({name.empty() ? "(unknown)" : name, a.started, a.canceled,
				       a.expired, a.moved, a.process_units, a.softirq_units, a.wakeups,
				       std::nullopt});
	}
	for (std::uint32_t id = 0; id < fn_fidelity_.size(); id++) {
		function_fidelity f = fn_fidelity_[id];
		if (!f.compared() && !f.simulated_only)
			continue;
		const std::string &name = names.name(id);
		f.function = name.empty() ? "(unknown)" : name;
		r.fidelity_by_function.push_back(f);
	}
	std::sort(r.fidelity_by_function.begin(), r.fidelity_by_function.end(),
		  [](const function_fidelity &a, const function_fidelity &b) {
			  if (a.missed() != b.missed())
				  return a.missed() > b.missed();
			  if (a.compared() != b.compared())
				  return a.compared() > b.compared();
			  return a.function < b.function;
		  });
	std::sort(r.functions.begin(), r.functions.end(),
		  [](const function_stats &a, const function_stats &b) {
			  if (a.work() != b.work())
				  return a.work() > b.work();
			  if (a.moved != b.moved)
				  return a.moved > b.moved;
			  if (a.started != b.started)
				  return a.started > b.started;
			  return a.function < b.function;
		  });
}

const char *miss_reason_name(miss_reason r)
{
	switch (r) {
	case miss_reason::armed_before_trace: return "armed_before_trace";
	case miss_reason::arming_not_traced: return "arming_not_traced";
	case miss_reason::flags_lost: return "flags_lost";
	case miss_reason::catch_up_rearm: return "catch_up_rearm";
	case miss_reason::tick_race: return "tick_race";
	case miss_reason::canceled_as_due: return "canceled_as_due";
	case miss_reason::trace_ended: return "trace_ended";
	case miss_reason::events_lost: return "events_lost";
	case miss_reason::design: return "design";
	case miss_reason::unexplained: return "unexplained";
	case miss_reason::jiffies_moved_on: return "jiffies_moved_on";
	}
	return "?";
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
