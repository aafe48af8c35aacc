// `timersim lab check`: a file of right answers is graded all right (exit 0),
// each kind of wrong answer is graded wrong with its working (exit 1), the
// forms the answers file allows are normalised (case, hex, spaces, the order
// of a cascade's moves), a line that is not an answer is graded wrong with
// its line and reason while the other lines are still graded (exit 1), and
// a file that cannot be read as answers is an input error (exit 2).
#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <vector>

#include "sim/lab/answers.h"
#include "sim/lab/exercise.h"
#include "sim/trace/reader.h"
#include "tests/support/cli.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"

using namespace timersim::lab;

namespace {

bool contains(const std::string &hay, const std::string &needle) { return hay.find(needle) != std::string::npos; }

std::string right_answers(unsigned per_kind, lab_config cfg = {})
{
	std::string text = "# right answers\n\n";
	for (lab_kind kind : lab_kinds())
		for (unsigned seed = 0; seed < per_kind; seed++) {
			exercise_ref ref;
			ref.kind = kind;
			ref.id = std::to_string(seed * 7 + 1);
			ref.cfg = cfg;
			exercise ex = make_exercise(ref);
			text += answer_key(ex.ref) + " = " + solve(ex).answer + "\n";
		}
	return text;
}

// The answer with its last number one higher: wrong for every kind.
std::string off_by_one(const std::string &answer)
{
	std::size_t end = answer.find_last_of("0123456789");
	std::size_t start = end;
	while (start > 0 && std::isdigit(static_cast<unsigned char>(answer[start - 1])))
		start--;
	std::string number = answer.substr(start, end - start + 1);
	return answer.substr(0, start) + std::to_string(std::stoull(number) + 1) + answer.substr(end + 1);
}

std::string answer_for(lab_kind kind, const std::string &id)
{
	exercise_ref ref;
	ref.kind = kind;
	ref.id = id;
	return solve(make_exercise(ref)).answer;
}

void expect_input_error(const std::string &text, unsigned line, const std::string &reason)
{
	try {
		check_answers(text, "answers.txt");
	} catch (const timersim::input_error &e) {
		ck_assert_msg(e.line() == line, "'%s': line %llu, expected %u", text.c_str(),
			      static_cast<unsigned long long>(e.line()), line);
		ck_assert_msg(contains(e.what(), reason), "'%s': '%s' does not say '%s'", text.c_str(), e.what(),
			      reason.c_str());
		return;
	}
	ck_abort_msg("'%s' was accepted", text.c_str());
}

// A line of `text` that is not an answer: graded wrong, its reason given.
void expect_not_an_answer(const std::string &text, unsigned line, const std::string &reason)
{
	const check_result r = check_answers(text, "answers.txt");
	for (const graded_line &g : r.lines) {
		if (g.line != line)
			continue;
		ck_assert_msg(!g.right, "'%s': line %u graded right", text.c_str(), line);
		ck_assert_msg(contains(g.problem, reason), "'%s': '%s' does not say '%s'", text.c_str(),
			      g.problem.c_str(), reason.c_str());
		ck_assert_msg(contains(check_text(r), "line " + std::to_string(line) + ": NOT GRADED (wrong): "),
			      "%s", check_text(r).c_str());
		return;
	}
	ck_abort_msg("'%s': no verdict on line %u", text.c_str(), line);
}

// `timersim lab check` on a file holding `text`.
timersim::test::cli_result check_file(const std::string &name, const std::string &text)
{
	return timersim::test::run_timersim({"lab", "check", timersim::test::write_temp(name, text)});
}

}  // namespace

START_TEST(right_answers_are_all_right)
{
	// One answer per kind per seed.
	const std::size_t kinds = lab_kinds().size();
	check_result r = check_answers(right_answers(3), "answers.txt");
	ck_assert_uint_eq(r.right, 3 * kinds);
	ck_assert_uint_eq(r.wrong, 0);
	ck_assert(r.all_right());
	ck_assert(contains(check_text(r), std::to_string(3 * kinds) + " answers: " + std::to_string(3 * kinds) +
						  " right, 0 wrong"));
	// With options: they are part of an exercise's name.
	lab_config cfg;
	cfg.hz = 1000;
	cfg.base_small = true;
	r = check_answers(right_answers(1, cfg), "answers.txt");
	ck_assert(r.all_right());

	// The binary: exit 0, a verdict a line.
	timersim::test::cli_result c = check_file("right.txt", right_answers(1));
	ck_assert_int_eq(c.status, 0);
	ck_assert(contains(c.out, "line 3: place 1: right"));
	ck_assert(contains(c.out, std::to_string(kinds) + " answers: " + std::to_string(kinds) + " right, 0 wrong"));
}
END_TEST

START_TEST(each_kind_of_wrong_answer_is_wrong)
{
	for (lab_kind kind : lab_kinds()) {
		const std::string id = "5";
		const std::string right = answer_for(kind, id);
		std::vector<std::string> wrong = {off_by_one(right), "none"};
		if (kind == lab_kind::place)
			wrong.push_back(right.substr(0, 2) + (right[2] == '1' ? '2' : '1') + right.substr(3));
		if (kind == lab_kind::fire && contains(right, " ")) {
			// The same timers in another order.
			std::string first = right.substr(0, right.find(' ')), rest = right.substr(right.find(' ') + 1);
			wrong.push_back(rest + " " + first);
		}
		if (kind == lab_kind::wrap)
			wrong.push_back(contains(right, "naive=no") ? std::string(right).replace(right.find("naive=no"), 8, "naive=yes")
								     : std::string(right).replace(right.find("naive=yes"), 9, "naive=no"));
		if (kind == lab_kind::cost)
			wrong.push_back("work=1 " + right.substr(right.find("moves=")));
		for (const std::string &w : wrong) {
			if (answers_match(kind, right, w))
				continue;	// e.g. reordering a one-timer answer
			std::string key = std::string(lab_kind_name(kind)) + " " + id;
			check_result r = check_answers(key + " = " + w + "\n", "answers.txt");
			ck_assert_msg(!r.all_right() && r.wrong == 1, "%s: '%s' graded right (right is '%s')", key.c_str(),
				      w.c_str(), right.c_str());
			ck_assert(contains(check_text(r), "WRONG"));
			ck_assert(contains(check_text(r), "expected: " + right));
			ck_assert(contains(check_text(r), "working:"));
		}
	}
	// One wrong among right ones: exit 1, the working of the wrong one only.
	timersim::test::cli_result c =
		check_file("mixed.txt", right_answers(1) + "place 5 = " + off_by_one(answer_for(lab_kind::place, "5")) + "\n");
	const std::size_t kinds = lab_kinds().size();
	ck_assert_int_eq(c.status, 1);
	ck_assert(contains(c.out, std::to_string(kinds + 1) + " answers: " + std::to_string(kinds) + " right, 1 wrong"));
	// After the comment lines and one answer a kind.
	ck_assert_msg(contains(c.out, "line " + std::to_string(kinds + 3) + ": place 5: WRONG"), "%s", c.out.c_str());
}
END_TEST

START_TEST(answers_are_normalised)
{
	ck_assert(answers_match(lab_kind::place, "tv2[1]", "TV2[01]"));
	ck_assert(answers_match(lab_kind::place, "tv2[16]", "tv2[0x10]"));
	ck_assert(!answers_match(lab_kind::place, "tv2[1]", "tv2[10]"));
	ck_assert(answers_match(lab_kind::cascade, "cascade tv2[0] tv3[1] move A tv1[116] B tv2[2]",
				"cascade tv2[0], tv3[1] move B tv2[2], a tv1[116]"));
	ck_assert(!answers_match(lab_kind::cascade, "cascade tv2[0] tv3[1] move A tv1[116]",
				 "cascade tv3[1] tv2[0] move A tv1[116]"));
	ck_assert(answers_match(lab_kind::wrap, "initial=0xfffedb08 naive=no after=yes fires=0x00000064",
				"initial = 4294892296 naive=No after=TRUE fires = 100"));
	ck_assert(!answers_match(lab_kind::fire, "A@300 B@300", "B@300 A@300"));
	ck_assert(answers_match(lab_kind::v48, "LVL8[63] late=-1000", "lvl8[63] late=-1000"));
	ck_assert(!answers_match(lab_kind::v48, "LVL8[63] late=-1000", "lvl8[63] late=1000"));
}
END_TEST

START_TEST(malformed_lines_are_wrong_and_the_rest_graded)
{
	expect_input_error("", 0, "no answers");
	expect_input_error("# only a comment\n\n", 0, "no answers");
	expect_not_an_answer("place 3 = tv1[3]\nplace 3 tv2[1]\n", 2, "no '='");
	expect_not_an_answer("\n\nbogus 3 = x\n", 3, "unknown kind 'bogus'");
	expect_not_an_answer("foo 1 = x\n", 1, "unknown kind 'foo'");
	expect_not_an_answer("place = tv2[1]\n", 1, "KIND ID");
	expect_not_an_answer("place 3 =   \n", 1, "no answer");
	expect_not_an_answer("place F99 = tv2[1]\n", 1, "F1 to F10");
	expect_not_an_answer("place x7 = tv2[1]\n", 1, "neither a seed");
	expect_not_an_answer("place 3 --hz 123 = tv2[1]\n", 1, "HZ must be");
	expect_not_an_answer("place 3 --fast = tv2[1]\n", 1, "unknown option '--fast'");
	expect_not_an_answer("place 3 --hz = tv2[1]\n", 1, "--hz needs a value");

	// The other lines are graded all the same.
	const std::string right = answer_for(lab_kind::place, "7");
	check_result r = check_answers("foo 1 = x\nplace 7 = " + right + "\nplace 8 = tv9[99]\n", "answers.txt");
	ck_assert_uint_eq(r.right, 1);
	ck_assert_uint_eq(r.wrong, 2);

	// The binary: exit 1, the line named on stdout, the right line graded.
	timersim::test::cli_result c = check_file("bad.txt", "place 7 = " + right + "\ncascade 2 = \n");
	ck_assert_int_eq(c.status, 1);
	ck_assert_msg(contains(c.out, "line 2: NOT GRADED (wrong): no answer"), "stdout: %s", c.out.c_str());
	ck_assert_msg(contains(c.out, "line 1: place 7: right"), "stdout: %s", c.out.c_str());
	ck_assert_msg(contains(c.out, "2 answers: 1 right, 1 wrong"), "stdout: %s", c.out.c_str());
	// Unreadable: exit 2.
	c = timersim::test::run_timersim({"lab", "check", "/nonexistent/answers.txt"});
	ck_assert_int_eq(c.status, 2);
	// Not a text file: exit 2, the line named, nothing graded.
	c = check_file("binary.txt", std::string("place 7 = tv1[1]\nplace \x01 8 = x\n"));
	ck_assert_int_eq(c.status, 2);
	ck_assert_msg(contains(c.err, "binary.txt:2: a control character"), "stderr: %s", c.err.c_str());
	ck_assert(c.out.empty());
}
END_TEST

// --no-working: a wrong answer shows neither the working nor, unless
// --show-expected, what was expected.
START_TEST(no_working_hides_the_working)
{
	const std::string text = "place 7 = tv9[99]\n";
	timersim::test::cli_result c = check_file("wrong.txt", text);
	ck_assert_int_eq(c.status, 1);
	ck_assert(contains(c.out, "working:"));
	c = timersim::test::run_timersim({"lab", "check", "--no-working", "--show-expected",
					  timersim::test::write_temp("wrong2.txt", text)});
	ck_assert_int_eq(c.status, 1);
	ck_assert_msg(contains(c.out, "expected: " + answer_for(lab_kind::place, "7")), "%s", c.out.c_str());
	ck_assert_msg(!contains(c.out, "working"), "%s", c.out.c_str());
}
END_TEST

namespace {

struct graded_answer {
	std::string key, answer;
};

// Every exercise of every kind for ids 0 .. n-1, the fixed ones, and with
// other wheel options: each once (options a kind ignores name the same
// exercise), with the right answer.
std::vector<graded_answer> many_right_answers(unsigned n)
{
	lab_config small_fast;
	small_fast.hz = 1000;
	small_fast.base_small = true;
	lab_config narrow;
	narrow.word_bits = 32;
	std::vector<graded_answer> out;
	std::set<std::string> seen;
	auto add = [&](lab_kind kind, const std::string &id, const lab_config &cfg) {
		exercise_ref ref;
		ref.kind = kind;
		ref.id = id;
		ref.cfg = cfg;
		exercise ex = make_exercise(ref);
		if (seen.insert(answer_key(ex.ref)).second)
			out.push_back({answer_key(ex.ref), solve(ex).answer});
	};
	for (lab_kind kind : lab_kinds()) {
		for (const std::string &id : fixed_ids(kind))
			add(kind, id, {});
		for (unsigned i = 0; i < n; i++) {
			add(kind, std::to_string(i), {});
			add(kind, std::to_string(1000 + i), small_fast);
			add(kind, std::to_string(2000 + i), narrow);
		}
	}
	// The cascade whose right answer ends "move none" (an odd count of
	// moved words crashed the grader).
	add(lab_kind::cascade, "265805", {});
	return out;
}

std::string answers_text(const std::vector<graded_answer> &answers)
{
	std::string text;
	for (const graded_answer &a : answers)
		text += a.key + " = " + a.answer + "\n";
	return text;
}

std::vector<std::string> words_of(const std::string &s)
{
	std::vector<std::string> w;
	std::size_t pos = 0;
	while ((pos = s.find_first_not_of(' ', pos)) != std::string::npos) {
		std::size_t end = std::min(s.find(' ', pos), s.size());
		w.push_back(s.substr(pos, end - pos));
		pos = end;
	}
	return w;
}

std::string joined(const std::vector<std::string> &w)
{
	std::string s;
	for (const std::string &x : w)
		s += (s.empty() ? "" : " ") + x;
	return s;
}

// One line graded on its own: wrong, or an input error naming line 1.
void expect_wrong_or_refused(const std::string &line)
{
	try {
		check_result r = check_answers(line + "\n", "answers.txt");
		ck_assert_msg(r.wrong == 1 && r.right == 0, "'%s' graded right", line.c_str());
	} catch (const timersim::input_error &e) {
		ck_assert_msg(e.line() == 1, "'%s': %s", line.c_str(), e.what());
	}
}

}  // namespace

START_TEST(every_kind_graded_whole_mutated_and_cut)
{
	const std::vector<graded_answer> answers = many_right_answers(12);
	const std::string text = answers_text(answers);
	check_result r = check_answers(text, "answers.txt");
	ck_assert_uint_eq(r.right, answers.size());
	ck_assert_uint_eq(r.wrong, 0);
	ck_assert(contains(text, "cascade 265805 = cascade tv2[0] tv3[55] move none\n"));

	// The binary grades the same file the same way.
	timersim::test::cli_result c = check_file("many.txt", text);
	ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err.c_str());
	ck_assert(contains(c.out, std::to_string(answers.size()) + " answers: " + std::to_string(answers.size()) +
					  " right, 0 wrong"));

	// Each answer mutated: every one wrong.
	std::string mutated;
	for (const graded_answer &a : answers) {
		std::string m = a.answer.find_first_of("0123456789") == std::string::npos ? a.answer + " A@1"
											     : off_by_one(a.answer);
		mutated += a.key + " = " + m + "\n";
	}
	r = check_answers(mutated, "answers.txt");
	ck_assert_uint_eq(r.right, 0);
	ck_assert_uint_eq(r.wrong, answers.size());

	// A word too many or too few (at the end, and after "move"): wrong or
	// refused with its line, never a crash.
	for (const graded_answer &a : answers) {
		std::vector<std::string> w = words_of(a.answer);
		for (const char *extra : {"none", "A", "tv1[0]", "move"}) {
			expect_wrong_or_refused(a.key + " = " + a.answer + " " + extra);
			std::vector<std::string> more = w;
			more.insert(more.begin(), extra);
			expect_wrong_or_refused(a.key + " = " + joined(more));
		}
		std::vector<std::string> fewer(w.begin(), w.end() - 1);
		expect_wrong_or_refused(a.key + " = " + joined(fewer));
		fewer.assign(w.begin() + 1, w.end());
		expect_wrong_or_refused(a.key + " = " + joined(fewer));
	}
	// What crashed: an odd count of words after "move".
	expect_wrong_or_refused("cascade 1 = move x");
	expect_wrong_or_refused("cascade 1 = move");
	expect_wrong_or_refused("cascade 1 = cascade tv2[0] move A tv1[3] B");
	ck_assert(!answers_match(lab_kind::cascade, "cascade tv2[0] move none", "cascade tv2[0] move none x"));
	ck_assert(answers_match(lab_kind::cascade, "cascade tv2[0] move A tv1[3] B tv2[4]",
				"cascade tv2[0] move B tv2[4] A tv1[3]"));
	ck_assert(!answers_match(lab_kind::cascade, "cascade tv2[0] move A tv1[3] B tv2[4]",
				 "cascade tv2[0] move tv1[3] A B tv2[4]"));
}
END_TEST

// The README: `#` starts a comment, also after an answer; lines end with
// \n, \r\n or \r alone (old Mac), each line its own answer.
START_TEST(comments_and_line_ends)
{
	const std::string right = answer_for(lab_kind::place, "7");
	check_result r = check_answers("place 7 = " + right + "  # my guess\n", "answers.txt");
	ck_assert_msg(r.all_right(), "%s", check_text(r).c_str());
	r = check_answers("place 7 = " + right + "#no space\n", "answers.txt");
	ck_assert(r.all_right());
	expect_not_an_answer("place 7 = # nothing but a comment\n", 1, "no answer");

	const std::string lf = right_answers(2);
	for (const char *eol : {"\r\n", "\r"}) {
		std::string text;
		for (char ch : lf)
			text += ch == '\n' ? std::string(eol) : std::string(1, ch);
		r = check_answers(text, "answers.txt");
		ck_assert_msg(r.right == 2 * lab_kinds().size() && r.wrong == 0, "line ends %s: %s", eol[1] ? "CRLF" : "CR", check_text(r).c_str());
		ck_assert_msg(contains(check_text(r), "line 3: place 1: right\nline 4: place 8: right\n"), "%s", check_text(r).c_str());
		// The binary reads them the same way.
		timersim::test::cli_result c = check_file("eol.txt", text);
		ck_assert_int_eq(c.status, 0);
		const std::string n = std::to_string(2 * lab_kinds().size());
		ck_assert(contains(c.out, n + " answers: " + n + " right, 0 wrong"));
	}
	// A CR alone inside a file of LF lines: two answers would run together.
	expect_input_error("place 1 = tv1[1]\nplace 2 = tv1[2]\rplace 3 = tv1[3]\n", 2, "mixed line endings");
}
END_TEST

// A grader counts each exercise once: a second answer to the same exercise
// (even the same answer, even spelt otherwise) is an input error naming
// both lines, so that hedging two answers earns nothing.
START_TEST(an_exercise_is_answered_once)
{
	const std::string right = answer_for(lab_kind::place, "7");
	expect_not_an_answer("place 7 = " + right + "\nplace 7 = " + right + "\n", 2, "place 7 is answered already on line 1");
	expect_not_an_answer("place 7 = tv1[1]\n# again\nplace 07 = " + right + "\n", 3, "answered already on line 1");
	expect_not_an_answer("wrap 3 = x\nwrap 3 --word-bits 32 = y\n", 2, "wrap 3 is answered already on line 1");
	expect_not_an_answer("fire F2 = x\nfire f2 = y\n", 2, "fire F2 is answered already");
	// The first answer counts: a wrong one then a right one earns nothing.
	check_result r = check_answers("place 7 = tv1[1]\nplace 7 = " + right + "\n", "answers.txt");
	ck_assert_uint_eq(r.right, 0);
	ck_assert_uint_eq(r.wrong, 2);
	// Other options make another exercise.
	r = check_answers("place 7 = " + right + "\nplace 7 --hz 1000 = " + answer_for(lab_kind::place, "7") + "\n",
			  "answers.txt");
	ck_assert_uint_eq(r.right + r.wrong, 2);
	timersim::test::cli_result c = check_file("twice.txt", "place 7 = " + right + "\nplace 7 = " + right + "\n");
	ck_assert_int_eq(c.status, 1);
	ck_assert(contains(c.out, "line 2: NOT GRADED (wrong): place 7 is answered already on line 1"));
}
END_TEST

int main()
{
	Suite *s = suite_create("lab_check");
	TCase *tc = tcase_create("check");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, right_answers_are_all_right);
	tcase_add_test(tc, each_kind_of_wrong_answer_is_wrong);
	tcase_add_test(tc, answers_are_normalised);
	tcase_add_test(tc, malformed_lines_are_wrong_and_the_rest_graded);
	tcase_add_test(tc, no_working_hides_the_working);
	tcase_add_test(tc, every_kind_graded_whole_mutated_and_cut);
	tcase_add_test(tc, comments_and_line_ends);
	tcase_add_test(tc, an_exercise_is_answered_once);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
