#include "sim/output/pending_levels.h"

namespace timersim {

void pending_levels::begin(const replay_setup &setup)
{
	wheel_ = setup.wheel;
	levels_ = wheel_ ? setup.levels : 0;
	counts_.assign(setup.cpus, std::vector<std::uint64_t>(levels_ + 1, 0));
	timers_.clear();
}

pending_levels::timer_state &pending_levels::state(timer_id t)
{
	if (timers_.size() <= t)
		timers_.resize(std::size_t{t} + 1);
	return timers_[t];
}

void pending_levels::count(const timer_state &s, bool add)
{
	std::vector<std::uint64_t> &c = counts_[s.place.cpu];
	unsigned level = s.place.level <= levels_ ? s.place.level : 0;
	if (add) {
		c[0]++;
		c[level] += level != 0;
	} else {
		c[0]--;
		c[level] -= level != 0;
	}
}

// A re-arm is a removal from where the timer was, then a placement.
void pending_levels::started(const timer_ref &t, unsigned cpu, unsigned level)
{
	timer_state &s = state(t.id);
	if (s.pending)
		count(s, false);
	s.pending = true;
	if (wheel_) {
		s.place = wheel_->place(t.id);
		if (s.place.level)
			return count(s, true);
	}
	s.place = {};
	s.place.cpu = cpu;
	s.place.level = wheel_ ? level : 0;
	count(s, true);
}

void pending_levels::moved(const timer_ref &t)
{
	timer_state &s = state(t.id);
	if (!s.pending || !wheel_)
		return;
	wheel_place p = wheel_->place(t.id);
	if (!p.level)
		return;
	count(s, false);
	s.place = p;
	count(s, true);
}

void pending_levels::removed(const timer_ref &t)
{
	timer_state &s = state(t.id);
	if (!s.pending)
		return;
	count(s, false);
	s.pending = false;
}

}  // namespace timersim
