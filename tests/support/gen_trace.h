// Generated traces for the gen, what-if and sweep tests: options in one
// call, the trace as text in memory or in a temporary file, and a replay
// of that file through the same path a recording takes.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "sim/replay/replay.h"
#include "sim/gen/generator.h"

namespace timersim::test {

// `mixture` is "KIND:K=V,...;KIND...", `seconds` the duration.
gen::gen_options gen_opts(const std::string &mixture, unsigned hz = 250, unsigned cpus = 1,
			  double seconds = 2.0, std::uint64_t seed = 1);
// write_ftrace() into a string.
std::string gen_text(const gen::gen_options &opt);
// The text in a temporary file named NAME; returns its path.
std::string gen_file(const gen::gen_options &opt, const std::string &name);
// Replays the file at PATH (any format, detected) through SCHEME.
replay_report replay_path(const std::string &path, const std::string &scheme = "classic",
			  std::vector<std::pair<std::string, std::string>> params = {});

}  // namespace timersim::test
