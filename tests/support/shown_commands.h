// The commands a markdown page shows, for tests that run them: a line
// `$ timersim ...` in a fenced block, its exit status (0, or `# exits N`
// at the end), and the lines shown under it up to the next command or the
// end of the block (`...` skips), which its output must hold in order. The
// lab handbook and the instructor's guide are both checked so.
#pragma once

#include <string>
#include <vector>

namespace timersim::test {

struct shown_command {
	std::string file;
	unsigned line = 0;
	std::vector<std::string> args;
	int exit_status = 0;
	std::vector<std::string> expected;	// trimmed output lines, in order
};

// The whole file, or "" when it cannot be read.
std::string read_text_file(const std::string &path);
// S without blanks and tabs at either end.
std::string trim_blanks(const std::string &s);
// The names (not paths) of the .md files in DIR, sorted.
std::vector<std::string> markdown_in(const std::string &dir);
// The commands TEXT (the content of FILE) shows.
std::vector<shown_command> commands_in(const std::string &file, const std::string &text);
// Runs C with the timersim binary: "" when it exits as shown and its
// output holds every expected line in order, else what went wrong (PAGE:
// who says so, "the handbook", "the guide").
std::string run_shown(const shown_command &c, const std::string &page);

}  // namespace timersim::test
