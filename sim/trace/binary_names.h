// Event names of the binary formats, mapped the way the text readers map
// theirs: the kernel's timer_* names to their kinds, any hrtimer_* to
// hrtimer, the softirq and interrupt events (irq_events.h) to theirs,
// everything else to other.
#pragma once

#include <cstdint>
#include <string_view>

#include "sim/trace/event.h"

namespace timersim {

// LTTng prefixes the timer subsystem's hrtimer and itimer events with the
// subsystem ("timer_hrtimer_start"), and newer lttng-modules the softirq
// and x86 vector events ("irq_softirq_entry", "x86_irq_vectors_local_timer_entry",
// "x86_irq_vectors_ipi_entry" for x86_platform_ipi); returns the kernel's
// name ("hrtimer_start", "softirq_entry", "local_timer_entry"), or NAME itself.
std::string_view kernel_event_name(std::string_view name);

// Kind of a kernel event name (already through kernel_event_name).
event_kind event_kind_of(std::string_view name);

// A kernel release string ("6.18.44-fc-v595", "3.6.11-1-ARCH") as
// major * 100 + minor (618, 306); 0 when it does not parse.
unsigned kernel_release(std::string_view release);

// timer->flags as timer_start records it (4.2+), taken apart. The layout
// changed in 4.8:
//   4.2-4.7: CPU in bits 0-18, MIGRATING 0x00080000, DEFERRABLE 0x00100000,
//            IRQSAFE 0x00200000.
//   4.8+:    CPU in bits 0-17, MIGRATING 0x00040000, DEFERRABLE 0x00080000,
//            PINNED 0x00100000, IRQSAFE 0x00200000, wheel index from bit 22.
// RELEASE (as kernel_release gives it) picks the layout; 0 (unknown) means
// the 4.8 one, which every kernel since has kept.
struct timer_flag_word {
	std::uint32_t flags = 0;	// timer_flag bits
	std::uint32_t cpu = 0;		// the timer's base
	std::uint32_t idx = 0;		// wheel index (4.8+)
	bool has_idx = false;
};
timer_flag_word decode_timer_flags(std::uint32_t raw, unsigned release);

}  // namespace timersim
