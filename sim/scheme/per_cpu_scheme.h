// What every scheme except the kernel wheels shares: the timer table
// (which base holds each timer, and when it is due), one clock and pending
// count per base, the cost counters and the observer. A scheme built on it
// supplies only its per-base structure: link, unlink and run.
//
// Like the kernel's per-CPU bases, each base is an independent instance of
// the structure; a start on another base unlinks the timer from the old
// one and links it into the new one.
//
// run() skips idle stretches in one step unless stepping() asks for the
// jiffy-by-jiffy reference; next_fire() lets a drain go from event to event.
//
// A timer is due at max(expires, the base's next jiffy at the start): a
// start for a jiffy already processed fires in the next one, as in the
// classic wheel. Exact schemes fire each timer in the jiffy it is due.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sim/scheme/params.h"
#include "sim/scheme/scheme.h"

namespace timersim {

class per_cpu_scheme : public reported_scheme {
public:
	per_cpu_scheme(std::string name, const scheme_options &opt, std::vector<scheme_param> params)
		: name_(std::move(name)), opt_(opt), params_(std::move(params))
	{
	}

	std::string name() const override { return name_; }

	std::vector<scheme_param> params() const override
	{
		std::vector<scheme_param> p = {integer_param("hz", opt_.hz)};
		p.insert(p.end(), params_.begin(), params_.end());
		return p;
	}

	void reset(unsigned ncpus, jiffies_t start, scheme_observer *obs) override
	{
		obs_ = obs;
		enqueue_obs_ = obs && obs->wants_enqueues() ? obs : nullptr;
		costs_ = {};
		timers_.clear();
		peak_timers_ = 0;
		clocks_.assign(ncpus, start);
		pending_.assign(ncpus, 0);
		reset_bases(ncpus, start);
	}

	bool start(timer_id t, unsigned cpu, jiffies_t expires, std::uint32_t flags) override
	{
		if (cpu >= clocks_.size())
			throw std::out_of_range("start on CPU " + std::to_string(cpu) + " of " +
						std::to_string(clocks_.size()));
		record &r = rec(t);
		bool was = r.pending;
		if (was) {
			pending_[r.cpu]--;
			costs_.removals++;
			unlink(r.cpu, t);
		}
		r.cpu = cpu;
		r.pending = true;
		r.due = std::max(expires, clocks_[cpu]);
		pending_[cpu]++;
		costs_.insertions++;
		placed_level_ = 0;
		link(cpu, t, r.due, flags);
		return was;
	}

	bool cancel(timer_id t) override
	{
		if (t >= timers_.size() || !timers_[t].pending)
			return false;
		record &r = timers_[t];
		pending_[r.cpu]--;
		costs_.removals++;
		r.pending = false;
		unlink(r.cpu, t);
		return true;
	}

	bool pending(timer_id t) const override { return t < timers_.size() && timers_[t].pending; }

	void advance(unsigned cpu, jiffies_t upto) override
	{
		if (upto < clocks_.at(cpu))
			return;
		run(cpu, upto);
		clocks_[cpu] = upto + 1;
	}

	jiffies_t clock(unsigned cpu) const override { return clocks_.at(cpu); }
	jiffies_t next_event(unsigned cpu) const override { return std::max(clock(cpu), next_fire(cpu)); }
	std::uint64_t pending_on(unsigned cpu) const override { return pending_.at(cpu); }
	const cost_counters &costs() const override { return costs_; }
	const cost_counters *live_costs() const override { return &costs_; }

	std::uint64_t peak_memory_bytes() const override
	{
		return peak_timers_ * sizeof(record) + peak_structure_bytes();
	}

	// The structure's invariants, for tests: "" when they hold, else what
	// is wrong. Each scheme checks its own (heap order and index, list
	// order, slot ranges, ...) and that it holds exactly the pending timers.
	virtual std::string check() const = 0;

protected:
	struct record {
		jiffies_t due = 0;
		unsigned cpu = 0;
		bool pending = false;
	};

	// The structure of one base. link(): put pending timer t, due at
	// `due`, into base cpu. unlink(): take it out (now or lazily).
	// run(): process jiffies clock(cpu) .. upto, calling fire() for each
	// expiry and tick() for each jiffy at which the base does work.
	virtual void reset_bases(unsigned ncpus, jiffies_t start) = 0;
	virtual void link(unsigned cpu, timer_id t, jiffies_t due, std::uint32_t flags) = 0;
	virtual void unlink(unsigned cpu, timer_id t) = 0;
	virtual void run(unsigned cpu, jiffies_t upto) = 0;
	virtual std::uint64_t peak_structure_bytes() const = 0;
	// No timer of base cpu fires before this jiffy (a lower bound is
	// enough; the default knows nothing).
	virtual jiffies_t next_fire(unsigned cpu) const { return clocks_[cpu]; }

	// Whether run() must step idle stretches instead of skipping them
	// (scheme_options::stepping, for tests).
	bool stepping() const { return opt_.stepping; }

	void fire(unsigned cpu, timer_id t, jiffies_t jiffy)
	{
		record &r = timers_[t];
		r.pending = false;
		pending_[cpu]--;
		costs_.removals++;
		obs_->expired(t, cpu, jiffy);
	}

	void tick(unsigned cpu, jiffies_t jiffy) { obs_->tick(cpu, jiffy); }
	void enqueued(timer_id t, unsigned level)
	{
		placed_level_ = level;
		if (enqueue_obs_)
			enqueue_obs_->enqueued(t, level);
	}
	void moved(timer_id t, unsigned from_level)
	{
		costs_.relinks++;
		obs_->moved(t, from_level);
	}
	void cascaded(unsigned level, std::uint32_t count) { obs_->cascaded(level, count); }
	void idle_ticks(unsigned cpu, jiffies_t first, std::uint64_t count) { obs_->idle_ticks(cpu, first, count); }

	const record &rec_of(timer_id t) const { return timers_[t]; }
	std::size_t timer_slots() const { return timers_.size(); }

	scheme_observer *obs_ = nullptr;
	scheme_observer *enqueue_obs_ = nullptr;	// obs_ if it wants_enqueues()
	cost_counters costs_;

private:
	record &rec(timer_id t)
	{
		if (t >= timers_.size()) {
			timers_.resize(std::size_t{t} + 1);
			peak_timers_ = std::max<std::uint64_t>(peak_timers_, timers_.size());
			timers_grew(timers_.size());
		}
		return timers_[t];
	}

protected:
	// Schemes with a per-timer index (heap position, list links) grow it here.
	virtual void timers_grew(std::size_t n) { (void)n; }

private:
	std::string name_;
	scheme_options opt_;
	std::vector<scheme_param> params_;
	std::vector<record> timers_;
	std::uint64_t peak_timers_ = 0;
	std::vector<jiffies_t> clocks_;
	std::vector<std::uint64_t> pending_;
};

}  // namespace timersim
