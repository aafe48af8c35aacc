// --what-if-hz: a recorded trace as if its kernel had run at another HZ.
//
// A trace_reader decorator, so the replay core reads the what-if trace
// like any recording. Time stays what it was: timestamps are untouched,
// and every jiffies value is re-expressed at the new HZ.
//   - a timeout (timer_start's [timeout=]) is a duration the caller asked
//     for: t jiffies at HZ h become rescale_timeout(t) at HZ h', the
//     kernel's msecs_to_jiffies(jiffies_to_msecs(t)), rounded up both ways
//     (sim/whatif/kernel_time.h) - never shorter, as the kernel never
//     fires early;
//   - a point in time (the jiffies at a call, `now` of an expiry, baseclk,
//     bucket_expiry, an absolute expiry without timeout) maps linearly
//     from the first jiffies value of the trace, J0: J0 + floor((j - J0)
//     * h' / h), so jiffies stay monotonic per CPU;
//   - `expires` becomes the mapped call time plus the rescaled timeout.
// A recorded expiry keeps its (mapped) time: where the new HZ rounds a
// timeout up past it, the replay calls the expiry `late` and expires the
// timer there, so that the what-if state follows the recording. With
// h' = h every value is left as it was.
#pragma once

#include <memory>

#include "sim/trace/reader.h"

namespace timersim {

// `word_bits` is the width of the trace's jiffies (32 or 64), as the
// replay infers or is told it: a 32-bit value wraps.
std::unique_ptr<trace_reader> make_hz_rescale_reader(std::unique_ptr<trace_reader> inner,
						     unsigned from_hz, unsigned to_hz,
						     unsigned word_bits);

}  // namespace timersim
