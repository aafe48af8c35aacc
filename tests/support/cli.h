// Running the timersim binary from tests, and writing small traces.
// (Temporary files: write_temp() of tests/support/text_trace_util.h.)
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

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

// Bounds for a child that could run away: a regression then fails the
// test, not the machine. 0: no such bound.
struct cli_limits {
	unsigned address_space_mib = 0;	// setrlimit(RLIMIT_AS) in the child (not under ASan,
					// whose shadow memory alone passes any cap)
	unsigned rss_mib = 0;		// killed past this resident size
	unsigned seconds = 0;		// killed past this wall time
};
// run_timersim() within `limits`; stdout to `stdout_path` (created) when
// it is given. A child killed has status -1 and a note ending err.
cli_result run_timersim_limited(const std::vector<std::string> &args, const cli_limits &limits,
				const std::string *stdout_path = nullptr);

// The JSON `timersim ARGS` prints on stdout (ARGS ask for it: `--json -`);
// the test fails, with timersim's stderr, unless it exits 0.
nlohmann::json json_of(const std::vector<std::string> &args);
// json_of() of `replay --json - ARGS`.
nlohmann::json replay_json(const std::vector<std::string> &args);

// Lines of a raw ftrace text trace (a header plus `body`).
std::string ftrace_text(const std::string &body, unsigned cpus = 1);
// One line of such a body: `payload` ("timer_start: ...") on CPU `cpu` at
// `usec` microseconds.
std::string ftrace_line(unsigned cpu, unsigned long long usec, const std::string &payload);

}  // namespace timersim::test
