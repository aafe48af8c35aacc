// The lab handbook (docs/lab/*.md) cannot go stale: every command in it (a
// line `$ timersim ...` in a fenced block) is run with the real binary, must
// exit as the line says (0, or `# exits N`), and every line shown under it
// (up to the next command or the end of the block; `...` skips) must appear
// in its output, in that order. Every example scenario is run by some
// command, and every lab the index links to exists.
#include <dirent.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "tests/support/shown_commands.h"

#include "tests/support/check_main.h"

using namespace timersim::test;

namespace {

const std::string dir = "docs/lab";

std::vector<std::string> markdown_files()
{
	std::vector<std::string> out;
	for (const std::string &n : markdown_in(dir))
		out.push_back(dir + "/" + n);
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
		std::vector<shown_command> cmds = commands_in(file, read_text_file(file));
		ck_assert_msg(!cmds.empty(), "%s shows no `$ timersim` command", file.c_str());
		for (const shown_command &c : cmds) {
			for (std::size_t i = 1; i < c.args.size(); i++)
				all_args += c.args[i] + " ";
			const std::string wrong = run_shown(c, "the handbook");
			ck_assert_msg(wrong.empty(), "%s:%u: %s", c.file.c_str(), c.line, wrong.c_str());
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
	std::string index = read_text_file(dir + "/README.md");
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
