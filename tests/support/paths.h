// Where tests find the shared recordings and the timersim binary.
#pragma once

#include <string>

namespace timersim::test {

// ../shared (or $TIMERSIM_SHARED) + "/traces/" + rel. Empty when the shared
// folder is absent: callers skip with a message.
std::string shared_trace(const std::string &rel);
// $TIMERSIM_BIN, else build/timersim.
std::string timersim_bin();
// Prints "SKIP: <why>" once to stderr (tests that need shared/ use it).
void skip_note(const std::string &why);
// shared_trace(rel), noting the skip when it is absent.
std::string shared_trace_or_skip(const std::string &rel);

}  // namespace timersim::test
