// The events a timer trace is made of, known by name in one look-up, each
// with the keys its payload prints in the kernel's order
// (include/trace/events/timer.h, irq.h, arch/x86/include/asm/trace/
// irq_vectors.h; ../shared/docs/trace-formats.md):
//
//   timer_init, timer_cancel, timer_expire_exit   timer=
//   timer_start        timer= function= expires= [[timeout=]] [bucket_expiry=]
//                      [cpu= idx= flags=]            (4.11+, 6.8+, 6.2+)
//   timer_expire_entry timer= function= now= [baseclk=]     (5.2+)
//   hrtimer_init/setup hrtimer= clockid= mode=
//   hrtimer_start      hrtimer= function= expires= softexpires= mode= [was_armed=] (6.18+)
//   hrtimer_expire_entry  hrtimer= function= now=
//   hrtimer_cancel, hrtimer_expire_exit   hrtimer=
//   softirq_*          vec= ...            <vector>_entry/_exit   vector=
//
// ftrace_fast.cc reads the common lines by it; kind_of_event and the
// general payload parse stay the definition (a test holds the two equal).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "sim/trace/event.h"

namespace timersim {

// The payload keys, as printed with their '=' ("[timeout=" with its '[').
enum class payload_order_key : std::uint8_t {
	timer, hrtimer, function, expires, timeout, now, baseclk, bucket_expiry, cpu, idx,
	flags, softexpires, mode, was_armed, clockid, vec, vector,
};

// One key of a layout, with what reading it needs at hand (a line has
// six of them: no look-ups).
struct layout_key {
	payload_order_key key;
	bool optional;		// may be left out
	std::uint8_t size;	// of text
	std::uint32_t bit;	// its payload_key (text_fields.h) where timer events report it, else 0
	char text[16];		// "key=", zero-padded to one SSE2 block
};

// The keys of one event's payload, in order.
struct payload_layout {
	layout_key keys[8];
	std::size_t size;
	bool rest_ignored;	// after the first key: the general parse reads no further
};

struct known_event_name {
	std::string_view name;
	event_kind kind;
	hrtimer_event hrtimer;		// hrtimer_event_of(name)
	bool timer_interrupt;		// local_timer_entry/exit
	const payload_layout *layout;
};

// The event NAME (SIZE bytes at NAME) is, or null. LIMIT as for the
// scanners (text_scan.h): with 32 bytes readable at NAME, compared in
// blocks.
const known_event_name *known_event_named(const char *name, std::size_t size,
					  const char *limit);

// Every known name, for tests.
std::size_t known_event_count();
const known_event_name &known_event_at(std::size_t i);

}  // namespace timersim
