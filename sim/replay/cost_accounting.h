// The cost accounting of a replay: the sink that turns what the scheme did
// into the report's numbers (contract metrics: enqueues and cascades per
// level, moves per tick, wasted cascades, per-callback attribution,
// lateness, fidelity).
//
// The engine holds one directly (the class is final, so its calls are not
// virtual) and hands it every event it gives the other sinks.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "sim/replay/histogram.h"
#include "sim/base/interner.h"
#include "sim/replay/replay_report.h"
#include "sim/replay/replay_sink.h"

namespace timersim {

class cost_accounting final : public replay_sink {
public:
	void begin(const replay_setup &setup) override;
	// Inline, with what they call: every start and cancel of every
	// scheme of a compare tells them.
	[[gnu::always_inline]] void started(const timer_ref &t, unsigned, jiffies_t, jiffies_t, unsigned level,
					    bool rearm) override
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
	void canceled(const timer_ref &t, unsigned, jiffies_t) override
	{
		timers_.canceled++;
		fn(t.function).canceled++;
		end_arming(t.id, arming_end::canceled);
	}
	void tick(unsigned cpu, jiffies_t jiffy) override;
	void idle_ticks(unsigned cpu, jiffies_t first, std::uint64_t count) override;
	void cascaded(unsigned cpu, jiffies_t jiffy, unsigned level, std::uint32_t count) override;
	void empty_cascades(unsigned level, std::uint64_t calls) override;
	void moved(const timer_ref &t, unsigned cpu, jiffies_t jiffy, unsigned from_level) override;
	void expired(const timer_ref &t, unsigned cpu, jiffies_t jiffy, jiffies_t expires) override;
	void fidelity(const timer_ref &t, unsigned cpu, jiffies_t recorded, jiffies_t simulated,
		      verdict v) override;
	void missed(const timer_ref &t, unsigned cpu, verdict v, miss_reason why) override;
	void bucket_fidelity(const timer_ref &t, unsigned cpu, jiffies_t kernel, jiffies_t model,
			     verdict v, miss_reason why) override;
	// Inline: the engine credits work at nearly every event.
	void worked(const timer_ref *t, unsigned, jiffies_t, work_context ctx,
		    const cost_counters &units) override
	{
		worked_units(t, ctx, units.total());
	}
	// worked() with the units' total alone (all it keeps).
	void worked_units(const timer_ref *t, work_context ctx, std::uint64_t n)
	{
		if (!t) {
			work_.softirq_unattributed += n;
			return;
		}
		function_acc &a = fn(t->function);
		(ctx == work_context::process ? a.process_units : a.softirq_units) += n;
	}
	void softirq_run(unsigned cpu, jiffies_t jiffy, std::uint64_t units, std::uint64_t expired,
			 const timer_ref *wake) override;

	// Writes the accounted sections into `r` (timers, ticks, cascade,
	// enqueue, fidelity, lateness, functions); `names` names the
	// interned callbacks.
	void fill(replay_report &r, const interner &names);

private:
	struct arming {
		std::uint32_t moves = 0;	// moves during the current arming
	};
	struct function_acc {
		std::uint64_t started = 0, canceled = 0, expired = 0, moved = 0;
		std::uint64_t process_units = 0, softirq_units = 0, wakeups = 0;
	};
	enum class arming_end { expired, canceled, rearmed };

	void end_arming(timer_id t, arming_end how)
	{
		arming &a = arm(t);
		if (a.moves && how == arming_end::canceled)
			cascade_.moved_then_canceled++;
		if (a.moves && how == arming_end::rearmed)
			cascade_.moved_then_rearmed++;
		a.moves = 0;
	}
	void close_tick(unsigned cpu);
	// By id, grown on a new one: inline, as every event asks one of them.
	function_acc &fn(std::uint32_t id)
	{
		if (id >= fns_.size()) [[unlikely]]
			fns_.resize(std::size_t(id) + 1);
		return fns_[id];
	}
	function_fidelity &fn_fidelity(std::uint32_t id);
	arming &arm(timer_id t)
	{
		if (t >= armings_.size()) [[unlikely]]
			armings_.resize(std::size_t(t) + 1);
		return armings_[t];
	}
	std::uint64_t &level_slot(std::vector<std::uint64_t> &v, unsigned level)
	{
		return v[std::min<std::size_t>(level, v.size() - 1)];
	}

	const replay_setup *setup_ = nullptr;
	timer_counts timers_;
	fidelity_summary fidelity_;
	lateness_summary lateness_;
	cascade_summary cascade_;
	std::uint64_t ticks_processed_ = 0;
	work_split work_;	// the counts; the engine fills the split itself

	std::vector<arming> armings_;
	std::vector<function_acc> fns_;
	std::vector<function_fidelity> fn_fidelity_;	// by interned id
	std::uint64_t misses_[miss_reasons] = {};
	std::uint64_t bucket_misses_[miss_reasons] = {};
	std::vector<std::uint64_t> tick_moves_;
	std::vector<jiffies_t> tick_jiffy_;
	std::vector<bool> tick_open_;
	power2_histogram moves_hist_;
	power2_histogram late_hist_;
	std::vector<std::uint64_t> level_calls_, level_moved_, level_enqueued_;
};

}  // namespace timersim
