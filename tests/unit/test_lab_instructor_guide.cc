// The instructor's guide (docs/lab/instructor/*.md) cannot state a number
// the wheel does not produce: every command it shows (a line `$ timersim
// ...` in a fenced block) is run with the real binary, must exit as the line
// says (0, or `# exits N`), and every line shown under it (up to the next
// command or the end of the block; `...` skips) must appear in its output,
// in that order. So changing a number in the guide, or the tool's answer,
// fails here. And the guide answers every question: each numbered question
// of a handbook lab (docs/lab/0N-NAME.md, lines `N. ...` outside fenced
// blocks) has a `### Question N` in docs/lab/instructor/0N-NAME.md.
#include <dirent.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/check_main.h"
#include "tests/support/cli.h"

using namespace timersim::test;

namespace {

const std::string handbook = "docs/lab";
const std::string guide = "docs/lab/instructor";

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

std::vector<std::string> markdown_in(const std::string &dir)
{
	std::vector<std::string> out;
	if (DIR *d = opendir(dir.c_str())) {
		while (dirent *e = readdir(d)) {
			std::string n = e->d_name;
			if (n.size() > 3 && n.substr(n.size() - 3) == ".md")
				out.push_back(n);
		}
		closedir(d);
	}
	std::sort(out.begin(), out.end());
	return out;
}

std::vector<shown_command> commands_in(const std::string &file, const std::string &text)
{
	std::vector<shown_command> out;
	std::istringstream in(text);
	bool fenced = false;
	unsigned n = 0;
	shown_command *cur = nullptr;
	for (std::string line; std::getline(in, line);) {
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

// The numbers of a handbook page's questions: lines "N. " outside fences.
std::set<unsigned> question_numbers(const std::string &text)
{
	std::set<unsigned> out;
	std::istringstream in(text);
	bool fenced = false;
	for (std::string line; std::getline(in, line);) {
		if (line.rfind("```", 0) == 0)
			fenced = !fenced;
		std::size_t digits = 0;
		while (digits < line.size() && std::isdigit(static_cast<unsigned char>(line[digits])))
			digits++;
		if (!fenced && digits > 0 && line.compare(digits, 2, ". ") == 0)
			out.insert(static_cast<unsigned>(std::stoul(line.substr(0, digits))));
	}
	return out;
}

// Runs `c` and returns "" when its output shows every expected line in
// order, else what went wrong.
std::string run_shown(const shown_command &c)
{
	if (c.args.size() < 2 || c.args[0] != "timersim")
		return "not a timersim command";
	cli_result r = run_timersim(std::vector<std::string>(c.args.begin() + 1, c.args.end()));
	if (r.status != c.exit_status)
		return "exit " + std::to_string(r.status) + ", the guide says " + std::to_string(c.exit_status) +
		       "; stderr: " + r.err;
	std::istringstream out(r.out);
	std::size_t want = 0;
	for (std::string got; want < c.expected.size() && std::getline(out, got);)
		if (trim(got) == c.expected[want])
			want++;
	if (want < c.expected.size())
		return "the output has no line '" + c.expected[want] + "' (after the ones before it)";
	return "";
}

}  // namespace

START_TEST(every_guide_command_runs_as_shown)
{
	std::vector<std::string> files = markdown_in(guide);
	ck_assert_msg(files.size() >= 6, "%s has %zu .md files (run from the repository root)", guide.c_str(),
		      files.size());
	unsigned commands = 0, lines = 0;
	for (const std::string &name : files) {
		const std::string file = guide + "/" + name;
		for (const shown_command &c : commands_in(file, read_file(file))) {
			const std::string wrong = run_shown(c);
			ck_assert_msg(wrong.empty(), "%s:%u: %s", c.file.c_str(), c.line, wrong.c_str());
			commands++;
			lines += static_cast<unsigned>(c.expected.size());
		}
	}
	ck_assert_uint_ge(commands, 35);
	ck_assert_uint_ge(lines, 80);
}
END_TEST

START_TEST(every_handbook_question_is_answered)
{
	unsigned labs = 0, questions = 0;
	for (const std::string &name : markdown_in(handbook)) {
		if (!(name.size() > 3 && std::isdigit(static_cast<unsigned char>(name[0])) && name[2] == '-'))
			continue;	// README.md: no questions
		labs++;
		const std::set<unsigned> asked = question_numbers(read_file(handbook + "/" + name));
		ck_assert_msg(!asked.empty(), "%s/%s has no numbered questions", handbook.c_str(), name.c_str());
		const std::string answers = read_file(guide + "/" + name);
		ck_assert_msg(!answers.empty(), "no %s/%s for the handbook's %s", guide.c_str(), name.c_str(), name.c_str());
		for (unsigned q : asked) {
			ck_assert_msg(answers.find("### Question " + std::to_string(q) + "\n") != std::string::npos,
				      "%s/%s: no answer to question %u", guide.c_str(), name.c_str(), q);
			questions++;
		}
		// ... and nothing answered that the lab does not ask.
		std::istringstream in(answers);
		for (std::string line; std::getline(in, line);)
			if (line.rfind("### Question ", 0) == 0)
				ck_assert_msg(asked.count(static_cast<unsigned>(std::stoul(line.substr(13)))),
					      "%s/%s answers '%s', which %s does not ask", guide.c_str(), name.c_str(),
					      line.c_str(), name.c_str());
	}
	ck_assert_uint_eq(labs, 6);
	ck_assert_uint_eq(questions, 6 + 3 + 5 + 3 + 5 + 5);
}
END_TEST

// The test itself: a number changed in a guide's line is caught.
START_TEST(a_changed_number_fails)
{
	const std::string file = guide + "/01-placement.md";
	std::vector<shown_command> cmds = commands_in(file, read_file(file));
	ck_assert(!cmds.empty());
	unsigned tried = 0;
	for (shown_command c : cmds) {
		if (c.expected.empty())
			continue;
		std::string &line = c.expected.back();
		const std::size_t digit = line.find_last_of("0123456789");
		ck_assert(digit != std::string::npos);
		line[digit] = line[digit] == '9' ? '8' : static_cast<char>(line[digit] + 1);
		ck_assert_msg(!run_shown(c).empty(), "%s:%u: '%s' accepted", c.file.c_str(), c.line, line.c_str());
		tried++;
	}
	ck_assert_uint_ge(tried, 5);
}
END_TEST

int main()
{
	Suite *s = suite_create("lab_instructor_guide");
	TCase *tc = tcase_create("guide");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, every_guide_command_runs_as_shown);
	tcase_add_test(tc, every_handbook_question_is_answered);
	tcase_add_test(tc, a_changed_number_fails);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
