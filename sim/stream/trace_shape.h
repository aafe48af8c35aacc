// What a trace does not state but a replay must know before it starts:
// HZ, the width of `unsigned long` jiffies, the CPU count and the first
// jiffies value. Inferred from a prologue of buffered events.
#pragma once

#include <cstdint>
#include <string>

#include "sim/stream/event_stream.h"

namespace timersim {

struct trace_shape {
	unsigned hz = 0;		// 0: could not be inferred
	unsigned word_bits = 0;		// 0: could not be inferred
	unsigned cpus = 0;		// highest CPU seen + 1, at least the declared count
	bool has_jiffies = false;	// some event in the prologue carries jiffies
	std::uint64_t first_jiffies = 0;	// raw value of the first one
	std::uint32_t start_fields = 0;	// event_field bits seen on timer_start
	std::uint32_t expire_fields = 0;	// ... on timer_expire_entry
	// The kernel generation's other evidence (sim/stream/kernel_generation.h).
	std::uint32_t hrtimer_start_fields = 0;	// event_field bits seen on hrtimer_start
	std::uint64_t base_idles = 0;		// timer_base_idle events
	std::uint64_t hrtimer_expiries = 0;	// hrtimer_expire_entry events
	std::uint64_t hrtimer_rearms = 0;	// hrtimer_rearm events (7.1+)
	std::uint64_t hrtimer_start_expired = 0;	// hrtimer_start_expired events (7.1+)
	std::uint64_t tmigr_available = 0;	// tmigr_cpu_available/unavailable events (6.19+)
	std::uint64_t tmigr_online = 0;		// tmigr_cpu_online/offline events (up to 6.18)
};

// The kernel generation the event fields point to, and its scheme:
// bucket_expiry 6.8+, baseclk 5.2+, cpu=/idx= 4.11+ (all the non-cascading
// wheel, "v48"); flags=0x.. 4.2-4.10; none of them: 3.x-4.1 ("classic").
// 4.2-4.10 is ambiguous (the wheel changed in 4.8): "classic" is assumed.
void kernel_of(const trace_shape &shape, std::string &kernel, std::string &scheme);

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
