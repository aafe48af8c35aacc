// The lab handbook (docs/lab/*.md) cannot go stale: every command in it (a
// line `$ timersim ...` in a fenced block) is run with the real binary, must
// exit as the line says (0, or `# exits N`), and every line shown under it
// (up to the next command or the end of the block; `...` skips) must appear
// in its output, in that order. Every example scenario is run by some
// command, and every lab the index links to exists.
#include <dirent.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/cli.h"

#include "tests/support/check_main.h"

using namespace timersim::test;

namespace {

const std::string dir = "docs/lab";

struct shown_command {
	std::string file;
	unsigned line = 0;
	std::vector<std::string> args;
	int exit_status = 0;
	std::vector<std::string> expected;	// trimmed output lines, in order
};

std::string read_file(const std::string &path)
{
	std::ifstream in(path);
	std::ostringstream s;
	s << in.rdbuf();
	return s.str();
}

std::string trim(const std::string &s)
{
	std::size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
	return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

std::vector<std::string> markdown_files()
{
	std::vector<std::string> out;
	if (DIR *d = opendir(dir.c_str())) {
		while (dirent *e = readdir(d)) {
			std::string n = e->d_name;
			if (n.size() > 3 && n.substr(n.size() - 3) == ".md")
				out.push_back(dir + "/" + n);
		}
		closedir(d);
	}
	std::sort(out.begin(), out.end());
	return out;
}

std::vector<shown_command> commands_in(const std::string &file)
{
	std::vector<shown_command> out;
	std::istringstream in(read_file(file));
	std::string line;
	bool fenced = false;
	unsigned n = 0;
	shown_command *cur = nullptr;
	while (std::getline(in, line)) {
		n++;
		if (line.rfind("```", 0) == 0) {
			fenced = !fenced;
			cur = nullptr;
			continue;
		}
		if (!fenced)
			continue;
		if (line.rfind("$ ", 0) == 0) {
			shown_command c;
			c.file = file;
			c.line = n;
			std::string cmd = line.substr(2);
			if (std::size_t hash = cmd.find("# exits "); hash != std::string::npos) {
				c.exit_status = std::stoi(cmd.substr(hash + 8));
				cmd = cmd.substr(0, hash);
			}
			std::istringstream words(cmd);
			for (std::string w; words >> w;)
				c.args.push_back(w);
			out.push_back(c);
			cur = &out.back();
			continue;
		}
		if (cur && trim(line) != "..." && !trim(line).empty())
			cur->expected.push_back(trim(line));
	}
	return out;
}

}  // namespace

START_TEST(every_handbook_command_runs_as_shown)
{
	std::vector<std::string> files = markdown_files();
	ck_assert_msg(files.size() >= 6, "docs/lab has %zu .md files (run from the repository root)", files.size());
	unsigned commands = 0;
	std::string all_args;
	for (const std::string &file : files) {
		std::vector<shown_command> cmds = commands_in(file);
		ck_assert_msg(!cmds.empty(), "%s shows no `$ timersim` command", file.c_str());
		for (const shown_command &c : cmds) {
			ck_assert_msg(c.args.size() >= 2 && c.args[0] == "timersim", "%s:%u: not a timersim command",
				      c.file.c_str(), c.line);
			std::vector<std::string> args(c.args.begin() + 1, c.args.end());
			for (const std::string &a : args)
				all_args += a + " ";
			cli_result r = run_timersim(args);
			ck_assert_msg(r.status == c.exit_status, "%s:%u: exit %d, the handbook says %d; stderr: %s",
				      c.file.c_str(), c.line, r.status, c.exit_status, r.err.c_str());
			// The shown lines, in order.
			std::istringstream out(r.out);
			std::string got;
			std::size_t want = 0;
			while (want < c.expected.size() && std::getline(out, got))
				if (trim(got) == c.expected[want])
					want++;
			ck_assert_msg(want == c.expected.size(), "%s:%u: the output has no line '%s' (after the ones before it)",
				      c.file.c_str(), c.line, want < c.expected.size() ? c.expected[want].c_str() : "");
			commands++;
		}
	}
	ck_assert_uint_ge(commands, 30);

	// Every example scenario is run by some command of the handbook.
	if (DIR *d = opendir((dir + "/scenarios").c_str())) {
		while (dirent *e = readdir(d)) {
			std::string n = e->d_name;
			if (n[0] == '.')
				continue;
			ck_assert_msg(all_args.find("scenarios/" + n + " ") != std::string::npos,
				      "docs/lab/scenarios/%s is run by no command of the handbook", n.c_str());
		}
		closedir(d);
	}
}
END_TEST

START_TEST(the_index_links_every_lab)
{
	std::string index = read_file(dir + "/README.md");
	for (const std::string &file : markdown_files()) {
		std::string name = file.substr(dir.size() + 1);
		if (name == "README.md")
			continue;
		ck_assert_msg(index.find("(" + name + ")") != std::string::npos, "README.md does not link %s", name.c_str());
	}
	// ... and every link it has resolves.
	for (std::size_t at = index.find("]("); at != std::string::npos; at = index.find("](", at + 1)) {
		std::string target = index.substr(at + 2, index.find(')', at) - at - 2);
		if (target.rfind("http", 0) == 0)
			continue;
		std::ifstream f(dir + "/" + target);
		DIR *d = opendir((dir + "/" + target).c_str());
		ck_assert_msg(f.good() || d, "README.md links %s, which does not exist", target.c_str());
		if (d)
			closedir(d);
	}
}
END_TEST

int main()
{
	Suite *s = suite_create("lab_handbook");
	TCase *tc = tcase_create("handbook");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, every_handbook_command_runs_as_shown);
	tcase_add_test(tc, the_index_links_every_lab);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
