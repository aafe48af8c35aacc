// What a trace does not state but a replay must know before it starts:
// HZ, the width of `unsigned long` jiffies, the CPU count and the first
// jiffies value. Inferred from a prologue of buffered events.
#pragma once

#include <cstdint>

#include "sim/core/event_stream.h"
#include "sim/scheme/scheme.h"

namespace timersim {

struct trace_shape {
	unsigned hz = 0;		// 0: could not be inferred
	unsigned word_bits = 0;		// 0: could not be inferred
	unsigned cpus = 0;		// highest CPU seen + 1, at least the declared count
	bool has_jiffies = false;	// some event in the prologue carries jiffies
	std::uint64_t first_jiffies = 0;	// raw value of the first one
};

// Jiffies an event carries, raw: timer_start's expires - timeout,
// timer_expire_entry's now. False for events without jiffies.
bool event_jiffies(const sim_event &ev, std::uint64_t &raw);

// Looks ahead in `stream` (without consuming) over up to `max_events`
// events, or until two seconds of trace time carry jiffies, and infers the
// shape. HZ is the common value (100, 250, 300, 1000) nearest to
// jiffies/second; the word is 32 bits when timer pointers were printed
// with 8 hex digits and no jiffies value exceeds 2^32.
trace_shape infer_trace_shape(event_stream &stream, unsigned declared_cpus,
			      std::size_t max_events = 65536);

}  // namespace timersim
