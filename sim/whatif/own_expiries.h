// --own-expiries: a recorded trace without its expiries, so that every
// scheme fires the timers on its own instead of being told when the
// recording kernel did.
//
// A replay follows the recording: a timer the scheme has not fired by the
// recorded timer_expire_entry is expired there (`late`). That keeps the
// state true to the kernel, but it also takes the expiry work out of the
// scheme's tick: a scheme that is not the recording kernel's then never
// collects those timers itself, and its softirq cost is understated. This
// reader drops each expiry - the timer_expire_entry, the timer_cancel
// just before it on its CPU (detach_expired_timer's) and the matching
// timer_expire_exit - and counts the dropped lines as skipped. The entry
// and exit still go on, in their places, marked EF_MEASURE_ONLY: the
// replay's measurement takes them (the callbacks ran in the recording, and
// a TIMER run's overhead is its own time less theirs), no scheme and no
// inference of the trace's shape does. What the callers did stays:
// starts, re-arms, deletes, and what callbacks did.
// A callback's re-arm of its own timer then looks, to a scheme that has
// not fired the timer yet, like a re-arm of a pending timer.
// (`gen --no-expiries` writes the same for a generated trace.)
#pragma once

#include <memory>

#include "sim/trace/reader.h"

namespace timersim {

std::unique_ptr<trace_reader> make_own_expiries_reader(std::unique_ptr<trace_reader> inner);

}  // namespace timersim
