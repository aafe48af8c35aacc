#include "sim/core/event_stream.h"

namespace timersim {

event_stream::event_stream(trace_reader &reader, interner &functions)
	: reader_(reader), functions_(functions)
{
	functions_.intern("");
}

bool event_stream::fill_one()
{
	trace_event ev;
	if (at_end_ || !reader_.next(ev)) {
		at_end_ = true;
		return false;
	}
	sim_event &s = *slot_for_next();
	s.kind = ev.kind;
	s.hrtimer = hrtimer_op::none;
	s.is_idle = ev.is_idle;
	s.timer_digits = ev.timer_digits;
	s.cpu = ev.cpu;
	s.target_cpu = ev.target_cpu;
	s.flags = ev.flags;
	s.has = ev.has;
	s.line = ev.line;
	s.ts_ns = ev.ts_ns;
	s.timer = ev.timer;
	s.expires = ev.expires;
	s.timeout = ev.timeout;
	s.now = ev.now;
	s.baseclk = ev.baseclk;
	// The wheel's own events name the callbacks we account for; hrtimer
	// starts and expiries name the tick (sim/ticks/tick_identity.h).
	if (ev.kind == event_kind::hrtimer)
		s.hrtimer = ev.name == "hrtimer_expire_entry" ? hrtimer_op::expire_entry
			  : ev.name == "hrtimer_start"        ? hrtimer_op::start
							      : hrtimer_op::other;
	s.function = ev.kind == event_kind::timer_start || ev.kind == event_kind::timer_expire_entry ||
			     s.hrtimer == hrtimer_op::start || s.hrtimer == hrtimer_op::expire_entry
		? functions_.intern(ev.function) : 0;
	tail_++;
	return true;
}

// The slot of the event at tail_, in a new chunk when tail_ starts one.
sim_event *event_stream::slot_for_next()
{
	if ((tail_ & chunk_mask) == 0) {
		std::uint64_t in_use = (tail_ >> chunk_bits) - (head_ >> chunk_bits);
		if (in_use >= ring_.size()) {
			// Twice the chunks: each buffered one moves to its
			// place under the new mask (the events stay put).
			std::vector<sim_event *> wider(ring_.empty() ? 4 : ring_.size() * 2);
			std::uint64_t mask = wider.size() - 1;
			for (std::uint64_t c = head_ >> chunk_bits; c < tail_ >> chunk_bits; c++)
				wider[c & mask] = ring_[c & ring_mask_];
			ring_.swap(wider);
			ring_mask_ = mask;
		}
		sim_event *chunk;
		if (spare_.empty()) {
			chunks_.push_back(std::make_unique<sim_event[]>(std::size_t{1} << chunk_bits));
			chunk = chunks_.back().get();
		} else {
			chunk = spare_.back();
			spare_.pop_back();
		}
		chunk_of(tail_) = chunk;
	}
	return at(tail_);
}

const sim_event *event_stream::peek_slow(std::uint64_t seq)
{
	while (tail_ <= seq)
		if (!fill_one())
			return nullptr;
	return at(seq);
}

}  // namespace timersim
