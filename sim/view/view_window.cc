#include "sim/view/view_window.h"

#include <algorithm>

namespace timersim {

view_window::view_window(jiffies_t from, jiffies_t to, bool printed, std::size_t max_events)
	: from_(from), to_(to), printed_(printed), max_events_(max_events)
{
	names_.intern("");
}

void view_window::begin(const replay_setup &setup)
{
	setup_ = &setup;
	drawable_ = setup.wheel != nullptr;
	past_.assign(setup.cpus, false);
	// A 32-bit kernel's jiffies: the unwrapped value nearest to the start.
	if (printed_ && setup.word_bits == 32) {
		const jiffies_t wrap = jiffies_t{1} << 32, top = setup.start - setup.narrow(setup.start);
		for (jiffies_t *j : {&from_, &to_}) {
			*j = top + setup.narrow(*j);
			if (*j + wrap / 2 < setup.start)
				*j += wrap;
		}
	}
}

window_timer &view_window::timer(const timer_ref &t)
{
	if (timers_.size() <= t.id)
		timers_.resize(std::size_t{t.id} + 1);
	window_timer &w = timers_[t.id];
	w.ptr = t.ptr;
	if (!t.name.empty())
		w.name = names_.intern(t.name);
	return w;
}

void view_window::push(window_event e)
{
	if (!started_ || stopped_)
		return;
	if (events_.size() >= max_events_) {
		stopped_ = truncated_ = true;
		return;
	}
	if (e.kind != window_kind::frame && e.kind != window_kind::cascaded)
		timers_[e.timer].shown = true;
	events_.push_back(std::move(e));
}

// Where the scheme put t, read off its wheel right after it did.
void view_window::place_event(window_kind kind, const timer_ref &t, jiffies_t jiffy, bool rearm)
{
	window_timer &w = timer(t);
	wheel_place p = setup_->wheel ? setup_->wheel->place(t.id) : wheel_place{};
	if (!p.level)
		return;
	// The table tells where keyframe timers came from; later placements
	// travel in their own events.
	if (!started_) {
		w.placed_at = jiffy;
		w.placed_clock = p.clock;
		w.by_cascade = kind == window_kind::moved;
	}
	window_event e;
	e.kind = kind;
	e.timer = t.id;
	e.cpu = p.cpu;
	e.base = p.base;
	e.level = p.level;
	e.slot = p.slot;
	e.position = p.position;
	e.jiffy = jiffy;
	e.clock = p.clock;
	e.expires = p.expires;
	e.bucket_expiry = p.bucket_expiry;
	e.rearm = rearm;
	push(std::move(e));
}

void view_window::started(const timer_ref &t, unsigned, jiffies_t now, jiffies_t, unsigned,
			  bool rearm)
{
	place_event(window_kind::placed, t, now, rearm);
}

void view_window::canceled(const timer_ref &t, unsigned cpu, jiffies_t now)
{
	timer(t);
	window_event e;
	e.kind = window_kind::deleted;
	e.timer = t.id;
	e.cpu = cpu;
	e.jiffy = now;
	push(std::move(e));
}

void view_window::tick(unsigned cpu, jiffies_t jiffy)
{
	if (!drawable_)
		return;
	if (!started_ && jiffy >= from_) {
		started_ = true;
		for (unsigned c = 0; c < setup_->cpus; c++) {
			keyframe_.push_back(setup_->wheel->inspect(c));
			for (const wheel_base_state &b : keyframe_.back())
				for (const wheel_level_state &l : b.levels)
					for (const wheel_slot_state &s : l.slots)
						for (const wheel_timer_state &t : s.timers)
							timers_.at(t.id).shown = true;
		}
	}
	if (!started_ || stopped_)
		return;
	if (jiffy > to_) {
		past_[cpu] = true;
		bool all = true;
		for (bool p : past_)
			all = all && p;
		stopped_ = all;
		return;
	}
	if (jiffy < from_)
		return;
	window_event e;
	e.kind = window_kind::frame;
	e.cpu = cpu;
	e.jiffy = jiffy;
	e.clocks = setup_->wheel->clocks(cpu);
	push(std::move(e));
}

void view_window::cascaded(unsigned cpu, jiffies_t jiffy, unsigned level, std::uint32_t count)
{
	if (!count)
		return;
	window_event e;
	e.kind = window_kind::cascaded;
	e.cpu = cpu;
	e.level = level;
	e.count = count;
	e.jiffy = jiffy;
	const std::size_t before = events_.size();
	push(std::move(e));
	if (events_.size() == before)
		return;
	// The scheme reports a cascade once it knows the count, after the moves
	// it made; the page lists what happened in order: the cascade, then its
	// moves (the trailing ones of this CPU's tick).
	std::size_t at = before;
	for (std::uint32_t n = 0; n < count && at > 0; n++, at--) {
		const window_event &m = events_[at - 1];
		if (m.kind != window_kind::moved || m.cpu != cpu || m.jiffy != jiffy)
			break;
	}
	std::rotate(events_.begin() + static_cast<std::ptrdiff_t>(at), events_.end() - 1, events_.end());
}

void view_window::moved(const timer_ref &t, unsigned, jiffies_t jiffy, unsigned)
{
	place_event(window_kind::moved, t, jiffy, false);
}

void view_window::expired(const timer_ref &t, unsigned cpu, jiffies_t jiffy, jiffies_t)
{
	timer(t);
	window_event e;
	e.kind = window_kind::expired;
	e.timer = t.id;
	e.cpu = cpu;
	e.jiffy = jiffy;
	push(std::move(e));
}

void view_window::fidelity(const timer_ref &t, unsigned cpu, jiffies_t recorded,
			   jiffies_t simulated, verdict v)
{
	timer(t);
	window_event e;
	e.timer = t.id;
	e.cpu = cpu;
	e.jiffy = recorded;
	if (expired_by_replay(v, recorded, simulated)) {
		e.kind = window_kind::deleted;
		push(e);
	}
	if (v == verdict::early || v == verdict::late || v == verdict::unmatched) {
		e.kind = window_kind::miss;
		e.v = v;
		e.clock = simulated;
		push(std::move(e));
	}
}

// Nothing after the last frame is needed to draw any frame.
void view_window::end(const replay_report &)
{
	std::size_t keep = events_.size();
	while (keep && events_[keep - 1].kind != window_kind::frame)
		keep--;
	events_.resize(keep);
}

}  // namespace timersim
