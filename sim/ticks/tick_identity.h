// Which hrtimer is the tick.
//
// With high-resolution timers each CPU's periodic tick is an hrtimer
// (tick_sched_timer up to 6.8, tick_nohz_handler since 6.9; briefly
// tick_nohz_highres_handler), so a trace of the timer events records every
// tick as an hrtimer_expire_entry on that CPU. Renderings that print the
// callback as an address (LTTng CTF, 3.x text without symbols) hide the
// name; then the tick is told by its rhythm: it is re-armed on the grid of
// TICK_NSEC = 10^9/HZ, so all its programmed expiries share one residue
// modulo TICK_NSEC, where a sleep's or a timeout's fall anywhere.
//
// Without high-resolution timers (or NOHZ low-res mode) the tick is a
// clock-event handler, not an hrtimer, and the trace has no tick events.
#pragma once

#include <cstdint>
#include <string>

#include "sim/stream/event_stream.h"
#include "sim/base/interner.h"

namespace timersim {

enum class tick_found : std::uint8_t {
	none,		// no hrtimer looks like the tick
	by_name,	// its callback is named (by the trace or --symbols)
	by_period,	// its expiries step by whole multiples of TICK_NSEC
};
const char *tick_found_name(tick_found how);

struct tick_identity {
	tick_found how = tick_found::none;
	std::uint32_t function = 0;	// interned callback (name or 0x address)
	std::string function_name;
	std::uint64_t tick_nsec = 0;
	std::uint64_t expiries = 0;	// its expiries in the looked-at events
	unsigned cpus = 0;		// CPUs they were seen on

	bool found() const { return how != tick_found::none; }
	// "the hrtimer tick_nohz_handler on 2 CPUs, by name"
	std::string describe() const;
};

// The kernel's names for the tick's hrtimer callback, oldest first.
bool is_tick_callback_name(std::string_view name);

// Looks at up to `max_events` events of `stream` ahead of the current one
// (without consuming them). `hz` gives TICK_NSEC for the rhythm test.
tick_identity identify_tick(event_stream &stream, const interner &names, unsigned hz,
			    std::size_t max_events);

}  // namespace timersim
