// The view tests' way to a browser: Debian's headless Chromium, run
// directly (--dump-dom) or by scripts/view-browser-check.py through a shell.
#pragma once

#include <string>

namespace timersim::test {

// Where Debian's chromium package puts the browser (scripts/setup.sh
// installs it).
extern const char chromium[];

// The standard output of the shell command CMD (popen); STATUS is its wait
// status as pclose() returns it, -1 when it could not be started.
std::string run_capture(const std::string &cmd, int &status);

}  // namespace timersim::test
