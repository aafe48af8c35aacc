// Running the timersim binary from tests, and writing small traces.
#pragma once

#include <string>
#include <vector>

namespace timersim::test {

struct cli_result {
	int status = -1;	// exit status, or -1 if it did not exit normally
	std::string out, err;
};

// Runs timersim_bin() with `args`, capturing stdout and stderr.
cli_result run_timersim(const std::vector<std::string> &args);

// Writes `content` to a fresh temporary file and returns its path.
std::string temp_file(const std::string &content, const std::string &suffix = ".txt");

// Lines of a raw ftrace text trace (a header plus `body`).
std::string ftrace_text(const std::string &body, unsigned cpus = 1);

}  // namespace timersim::test
