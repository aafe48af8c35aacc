// Replaying a trace in the test's own process, as `timersim replay TRACE`
// does, for tests that read the report struct rather than its JSON.
#pragma once

#include <string>

#include "sim/replay/replay.h"

namespace timersim::test {

// What this machine's recordings are replayed with: the recording
// kernel's scheme (auto) at HZ 250.
replay_options recording_options();

// The replay of the file at `path` (its format detected) under `opt`.
replay_report replay_file(const std::string &path, const replay_options &opt = recording_options());

}  // namespace timersim::test
