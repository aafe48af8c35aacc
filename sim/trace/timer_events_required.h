// A trace with no timer event in it is refused, whatever its format: the
// replay of one would be an empty report that looks like a result (a
// forced --format that matches no line, a file of headers only, a
// recording made without the timer events).
#pragma once

#include <memory>
#include <string>

#include "sim/trace/reader.h"

namespace timersim {

// READER, unchanged, except that reaching the end of PATH without one
// timer_* event throws input_error saying what was expected. LOOKS_LIKE:
// the format the content was detected as (auto_detect when unknown), named
// as a hint when it differs from the reader's.
std::unique_ptr<trace_reader> require_timer_events(std::unique_ptr<trace_reader> reader,
						   const std::string &path,
						   trace_format looks_like);

}  // namespace timersim
