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
	sim_event &s = window_.emplace_back();
	s.kind = ev.kind;
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
	if (ev.kind == event_kind::timer_start || ev.kind == event_kind::timer_expire_entry ||
	    s.hrtimer == hrtimer_op::start || s.hrtimer == hrtimer_op::expire_entry)
		s.function = functions_.intern(ev.function);
	return true;
}

const sim_event *event_stream::peek(std::size_t ahead)
{
	while (window_.size() <= ahead)
		if (!fill_one())
			return nullptr;
	return &window_[ahead];
}

void event_stream::pop()
{
	if (!window_.empty())
		window_.pop_front();
}

}  // namespace timersim
