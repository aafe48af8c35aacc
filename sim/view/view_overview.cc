#include "sim/view/view_overview.h"

#include <algorithm>

namespace timersim {

void view_overview::begin(const replay_setup &setup)
{
	setup_ = setup;
	levels_.begin(setup);
	width_ = 1;
	bins_.assign(setup.cpus, {});
	tick_moves_.assign(setup.cpus, 0);
	tick_expired_.assign(setup.cpus, 0);
	tick_jiffy_.assign(setup.cpus, setup.start);
	tick_open_.assign(setup.cpus, false);
	worst_ = {};
	last_ = setup.start;
}

std::size_t view_overview::bin_count() const
{
	std::size_t n = 0;
	for (const auto &b : bins_)
		n = std::max(n, b.size());
	return n;
}

// Two neighbours become one bin of twice the width: sums add up, the worst
// tick is the worse of the two, pending is the later one's.
void view_overview::merge()
{
	for (auto &bins : bins_) {
		std::vector<overview_bin> merged((bins.size() + 1) / 2);
		for (std::size_t i = 0; i < bins.size(); i++) {
			overview_bin &m = merged[i / 2];
			const overview_bin &b = bins[i];
			m.ticks += b.ticks;
			m.moves += b.moves;
			m.max_moves = std::max(m.max_moves, b.max_moves);
			m.expired += b.expired;
			m.enqueued += b.enqueued;
			m.canceled += b.canceled;
			m.cascades += b.cascades;
			m.misses += b.misses;
			if (b.touched) {
				m.pending = b.pending;
				m.touched = true;
			}
		}
		bins = std::move(merged);
	}
	width_ *= 2;
}

overview_bin &view_overview::bin(unsigned cpu, jiffies_t jiffy)
{
	last_ = std::max(last_, jiffy);
	std::uint64_t at = jiffy > setup_.start ? (jiffy - setup_.start) / width_ : 0;
	while (at >= max_bins_) {
		merge();
		at /= 2;
	}
	std::vector<overview_bin> &bins = bins_[cpu];
	if (bins.size() <= at)
		bins.resize(at + 1);
	return bins[at];
}

void view_overview::sample(unsigned cpu, overview_bin &b)
{
	b.pending = levels_.of(cpu);
	b.touched = true;
}

void view_overview::close_tick(unsigned cpu)
{
	if (!tick_open_[cpu])
		return;
	tick_open_[cpu] = false;
	std::uint64_t moves = tick_moves_[cpu], expired = tick_expired_[cpu];
	overview_bin &b = bin(cpu, tick_jiffy_[cpu]);
	b.moves += moves;
	b.max_moves = std::max(b.max_moves, moves);
	// The worst tick's moves and expiries, counted here (its run ends
	// before its tick is closed).
	if (worst_.found && worst_.cpu == cpu && worst_.jiffy == tick_jiffy_[cpu]) {
		worst_.moves = moves;
		worst_.expired = expired;
	}
}

// The tick the view opens at: the run with most work. The first such run
// wins ties, so the choice is stable.
void view_overview::softirq_run(unsigned cpu, jiffies_t jiffy, std::uint64_t units,
				std::uint64_t, const timer_ref *)
{
	if (!worst_.found || units > worst_.units)
		worst_ = {cpu, jiffy, units, 0, 0, true};
}

void view_overview::started(const timer_ref &t, unsigned cpu, jiffies_t now, jiffies_t,
			    unsigned level, bool)
{
	levels_.started(t, cpu, level);
	overview_bin &b = bin(cpu, now);
	b.enqueued++;
	sample(cpu, b);
}

void view_overview::canceled(const timer_ref &t, unsigned cpu, jiffies_t now)
{
	levels_.removed(t);
	overview_bin &b = bin(cpu, now);
	b.canceled++;
	sample(cpu, b);
}

void view_overview::tick(unsigned cpu, jiffies_t jiffy)
{
	close_tick(cpu);
	tick_open_[cpu] = true;
	tick_moves_[cpu] = 0;
	tick_expired_[cpu] = 0;
	tick_jiffy_[cpu] = jiffy;
	overview_bin &b = bin(cpu, jiffy);
	b.ticks++;
	sample(cpu, b);
}

void view_overview::idle_ticks(unsigned cpu, jiffies_t first, std::uint64_t count)
{
	close_tick(cpu);
	overview_bin &b = bin(cpu, first);
	b.ticks += count;
	sample(cpu, b);
}

void view_overview::cascaded(unsigned cpu, jiffies_t jiffy, unsigned, std::uint32_t)
{
	bin(cpu, jiffy).cascades++;
}

void view_overview::moved(const timer_ref &t, unsigned cpu, jiffies_t jiffy, unsigned)
{
	levels_.moved(t);
	tick_moves_[cpu]++;
	sample(cpu, bin(cpu, jiffy));
}

void view_overview::expired(const timer_ref &t, unsigned cpu, jiffies_t jiffy, jiffies_t)
{
	levels_.removed(t);
	tick_expired_[cpu]++;
	overview_bin &b = bin(cpu, jiffy);
	b.expired++;
	sample(cpu, b);
}

void view_overview::fidelity(const timer_ref &t, unsigned cpu, jiffies_t recorded,
			     jiffies_t simulated, verdict v)
{
	overview_bin &b = bin(cpu, recorded);
	if (v == verdict::early || v == verdict::late || v == verdict::unmatched)
		b.misses++;
	if (expired_by_replay(v, recorded, simulated)) {
		levels_.removed(t);
		b.expired++;
		sample(cpu, b);
	}
}

void view_overview::end(const replay_report &)
{
	for (unsigned cpu = 0; cpu < bins_.size(); cpu++)
		close_tick(cpu);
	std::size_t n = bin_count();
	for (unsigned cpu = 0; cpu < bins_.size(); cpu++) {
		std::vector<overview_bin> &bins = bins_[cpu];
		bins.resize(n);
		std::vector<std::uint64_t> carried(levels_.levels() + 1, 0);
		for (overview_bin &b : bins) {
			if (b.touched)
				carried = b.pending;
			else
				b.pending = carried;
		}
	}
	if (setup_.clock)
		clock_ = *setup_.clock;
	setup_.clock = &clock_;
	setup_.wheel = nullptr;
	bin_seconds_.clear();
	for (std::size_t i = 0; i < n; i++)
		bin_seconds_.push_back(clock_.seconds(setup_.start + i * width_));
}

double view_overview::seconds(jiffies_t j) const
{
	return clock_.seconds(j);
}

}  // namespace timersim
