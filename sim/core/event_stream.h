// The replay core's view of a trace: owned, compact events with interned
// callback names, and a bounded look-ahead window.
//
// The look-ahead serves two needs: deciding what a timer_cancel is (part of
// an expiry, half of a re-arm, or a real cancel) by the next event on its
// CPU, and the prologue, where the core infers HZ and the width of jiffies
// before the first event is applied.
#pragma once

#include <cstdint>
#include <deque>

#include "sim/core/interner.h"
#include "sim/trace/event.h"
#include "sim/trace/reader.h"

namespace timersim {

// Which hrtimer_* event an event_kind::hrtimer record is. The tick model
// (sim/ticks/) reads the tick's expiries and the starts that give its grid.
enum class hrtimer_op : std::uint8_t { none, start, expire_entry, other };

struct sim_event {
	event_kind kind = event_kind::other;
	hrtimer_op hrtimer = hrtimer_op::none;
	bool is_idle = false;
	std::uint8_t timer_digits = 0;
	std::uint32_t cpu = 0;
	std::uint32_t target_cpu = 0;
	std::uint32_t flags = 0;
	std::uint32_t has = 0;		// event_field bits
	std::uint32_t function = 0;	// interned (also for hrtimer start/expiry); 0 is "" (none)
	std::uint64_t line = 0;
	std::uint64_t ts_ns = 0;
	std::uint64_t timer = 0;
	std::uint64_t expires = 0;
	std::int64_t timeout = 0;
	std::uint64_t now = 0;
	std::uint64_t baseclk = 0;	// timer_expire_entry 5.2+: the bucket being run

	bool carries(event_field f) const { return (has & f) != 0; }
	bool is_timer_event() const
	{
		return kind != event_kind::hrtimer && kind != event_kind::other;
	}
};

class event_stream {
public:
	event_stream(trace_reader &reader, interner &functions);

	// The event `ahead` positions after the current one (0: the current
	// one), reading as needed; nullptr past the end of the trace.
	const sim_event *peek(std::size_t ahead = 0);
	void pop();
	std::size_t buffered() const { return window_.size(); }
	trace_reader &reader() { return reader_; }

private:
	bool fill_one();

	trace_reader &reader_;
	interner &functions_;
	std::deque<sim_event> window_;
	bool at_end_ = false;
};

}  // namespace timersim
