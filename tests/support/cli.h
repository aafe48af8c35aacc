// Running the timersim binary from tests, and writing small traces.
// (Temporary files: write_temp() of tests/support/text_trace_util.h.)
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
// The same with stdout sent to `stdout_path` (e.g. /dev/full; then `out`
// is empty), or closed when `stdout_path` is empty.
cli_result run_timersim_to(const std::vector<std::string> &args, const std::string &stdout_path);

// Lines of a raw ftrace text trace (a header plus `body`).
std::string ftrace_text(const std::string &body, unsigned cpus = 1);
// One line of such a body: `payload` ("timer_start: ...") on CPU `cpu` at
// `usec` microseconds.
std::string ftrace_line(unsigned cpu, unsigned long long usec, const std::string &payload);

}  // namespace timersim::test
