// The instructor's guide (docs/lab/instructor/*.md) cannot state a number
// the wheel does not produce: every command it shows (a line `$ timersim
// ...` in a fenced block) is run with the real binary, must exit as the line
// says (0, or `# exits N`), and every line shown under it (up to the next
// command or the end of the block; `...` skips) must appear in its output,
// in that order. So changing a number in the guide, or the tool's answer,
// fails here. And the guide answers every question: each numbered question
// of a handbook lab (docs/lab/0N-NAME.md, lines `N. ...` outside fenced
// blocks) has a `### Question N` in docs/lab/instructor/0N-NAME.md.
#include <cctype>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/check_main.h"
#include "tests/support/shown_commands.h"

using namespace timersim::test;

namespace {

const std::string handbook = "docs/lab";
const std::string guide = "docs/lab/instructor";

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

}  // namespace

START_TEST(every_guide_command_runs_as_shown)
{
	std::vector<std::string> files = markdown_in(guide);
	ck_assert_msg(files.size() >= 6, "%s has %zu .md files (run from the repository root)", guide.c_str(),
		      files.size());
	unsigned commands = 0, lines = 0;
	for (const std::string &name : files) {
		const std::string file = guide + "/" + name;
		for (const shown_command &c : commands_in(file, read_text_file(file))) {
			const std::string wrong = run_shown(c, "the guide");
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
		const std::set<unsigned> asked = question_numbers(read_text_file(handbook + "/" + name));
		ck_assert_msg(!asked.empty(), "%s/%s has no numbered questions", handbook.c_str(), name.c_str());
		const std::string answers = read_text_file(guide + "/" + name);
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
	std::vector<shown_command> cmds = commands_in(file, read_text_file(file));
	ck_assert(!cmds.empty());
	unsigned tried = 0;
	for (shown_command c : cmds) {
		if (c.expected.empty())
			continue;
		std::string &line = c.expected.back();
		const std::size_t digit = line.find_last_of("0123456789");
		ck_assert(digit != std::string::npos);
		line[digit] = line[digit] == '9' ? '8' : static_cast<char>(line[digit] + 1);
		ck_assert_msg(!run_shown(c, "the guide").empty(), "%s:%u: '%s' accepted", c.file.c_str(), c.line, line.c_str());
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
