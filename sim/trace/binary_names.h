// Event names of the binary formats, mapped the way the text readers map
// theirs: the kernel's timer_* names to their kinds, any hrtimer_* to
// hrtimer, everything else to other.
#pragma once

#include <string_view>

#include "sim/trace/event.h"

namespace timersim {

// LTTng prefixes the timer subsystem's hrtimer and itimer events with the
// subsystem ("timer_hrtimer_start"); returns the kernel's name
// ("hrtimer_start"), or NAME itself.
std::string_view kernel_event_name(std::string_view name);

// Kind of a kernel event name (already through kernel_event_name).
event_kind event_kind_of(std::string_view name);

}  // namespace timersim
