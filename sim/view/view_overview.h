// The view's timeline over the whole replay, aggregated so that any trace
// fits: per CPU at most `max_bins` bins of a power-of-two number of jiffies
// (the width doubles, merging neighbours, whenever the replay outgrows
// them), each with the moves, the worst tick's moves, expiries, enqueues,
// cancels, cascades, fidelity misses and the timers pending per level at
// its end. It also finds the tick the view opens at: the simulated softirq
// run with the most work in the scheme's cost units (cascades, bucket
// visits, expiries: whatever the scheme does there), so that a wheel that
// never cascades (v48) opens where it works hardest too.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/replay/replay_sink.h"
#include "sim/base/trace_clock.h"
#include "sim/output/pending_levels.h"

namespace timersim {

struct overview_bin {
	std::uint64_t ticks = 0, moves = 0, max_moves = 0, expired = 0, enqueued = 0, canceled = 0,
		      cascades = 0, misses = 0;
	std::vector<std::uint64_t> pending;	// [0] all, [1..levels] per level; at the bin's end
	bool touched = false;			// pending was sampled in this bin
};

struct worst_tick {
	unsigned cpu = 0;
	jiffies_t jiffy = 0;
	std::uint64_t units = 0;	// the run's work, cost units
	std::uint64_t moves = 0, expired = 0;
	bool found = false;
};

class view_overview final : public replay_sink {
public:
	explicit view_overview(std::size_t max_bins = 1024) : max_bins_(max_bins) {}

	void begin(const replay_setup &setup) override;
	void started(const timer_ref &t, unsigned cpu, jiffies_t now, jiffies_t expires,
		     unsigned level, bool rearm) override;
	void canceled(const timer_ref &t, unsigned cpu, jiffies_t now) override;
	void tick(unsigned cpu, jiffies_t jiffy) override;
	void idle_ticks(unsigned cpu, jiffies_t first, std::uint64_t count) override;
	void cascaded(unsigned cpu, jiffies_t jiffy, unsigned level, std::uint32_t count) override;
	void moved(const timer_ref &t, unsigned cpu, jiffies_t jiffy, unsigned from_level) override;
	void expired(const timer_ref &t, unsigned cpu, jiffies_t jiffy, jiffies_t expires) override;
	void fidelity(const timer_ref &t, unsigned cpu, jiffies_t recorded, jiffies_t simulated,
		      verdict v) override;
	void softirq_run(unsigned cpu, jiffies_t jiffy, std::uint64_t units, std::uint64_t expired,
			 const timer_ref *wake) override;
	void end(const replay_report &report) override;

	const replay_setup &setup() const { return setup_; }
	jiffies_t first() const { return setup_.start; }
	std::uint64_t bin_width() const { return width_; }
	// Bins of `cpu`, from first(); pending carried forward into bins the
	// base did not touch.
	const std::vector<overview_bin> &bins(unsigned cpu) const { return bins_[cpu]; }
	std::size_t bin_count() const;
	unsigned levels() const { return levels_.levels(); }
	const worst_tick &worst() const { return worst_; }
	jiffies_t last_jiffy() const { return last_; }
	// The trace second each bin begins at, and of any jiffy of the replay
	// (the trace's clock is gone once the replay returns: kept at end()).
	const std::vector<double> &bin_seconds() const { return bin_seconds_; }
	double seconds(jiffies_t j) const;

private:
	overview_bin &bin(unsigned cpu, jiffies_t jiffy);
	void sample(unsigned cpu, overview_bin &b);
	void close_tick(unsigned cpu);
	void merge();

	std::size_t max_bins_;
	replay_setup setup_;
	pending_levels levels_;
	std::uint64_t width_ = 1;
	std::vector<std::vector<overview_bin>> bins_;
	std::vector<std::uint64_t> tick_moves_, tick_expired_;
	std::vector<jiffies_t> tick_jiffy_;
	std::vector<bool> tick_open_;
	worst_tick worst_;
	jiffies_t last_ = 0;
	std::vector<double> bin_seconds_;
	trace_clock clock_;		// a copy, for seconds() after the replay
};

}  // namespace timersim
