// `timersim lab check` on what is not an answers file: a device of endless
// zeros or random bytes, a pipe that never ends, a huge file, a line with
// no end. Each is refused at the line that shows it (exit 2, the file and
// line named) in bounded time and memory, never read until memory runs out.
#include <csignal>
#include <cstdio>
#include <string>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/lab/answers.h"
#include "sim/trace/reader.h"
#include "tests/support/cli.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"

using namespace timersim::test;

namespace {

bool contains(const std::string &hay, const std::string &needle) { return hay.find(needle) != std::string::npos; }

// `lab check PATH`: exit 2, "PATH:LINE: ..." (LINE 1 when line is 0:
// any line), nothing graded.
void expect_refused(const std::string &path, unsigned line, const std::string &reason)
{
	cli_result r = run_timersim({"lab", "check", path});
	ck_assert_msg(r.status == 2, "%s: exit %d, stderr %s", path.c_str(), r.status, r.err.c_str());
	const std::string where = path + ":" + (line ? std::to_string(line) + ":" : "");
	ck_assert_msg(contains(r.err, where) && contains(r.err, reason), "%s: stderr '%s' lacks '%s' / '%s'", path.c_str(),
		      r.err.c_str(), where.c_str(), reason.c_str());
	ck_assert(r.out.empty());
}

void expect_input_error(const std::string &text, unsigned line, const std::string &reason)
{
	try {
		timersim::lab::check_answers(text, "answers.txt");
	} catch (const timersim::input_error &e) {
		ck_assert_msg(e.line() == line, "line %llu, expected %u: %s", static_cast<unsigned long long>(e.line()), line,
			      e.what());
		ck_assert_msg(contains(e.what(), reason), "'%s' does not say '%s'", e.what(), reason.c_str());
		return;
	}
	ck_abort_msg("accepted");
}

}  // namespace

START_TEST(long_lines_and_large_files)
{
	// A line without end: cut at 64 KiB, refused at line 1.
	std::string one_line(1 << 20, 'a');
	expect_input_error(one_line, 1, "a line longer than 65535 bytes");
	expect_refused(write_temp("one-line.txt", one_line), 1, "a line longer than 65535 bytes");
	// The longest line allowed is still read: the lines after it are graded.
	const timersim::lab::check_result after =
		timersim::lab::check_answers("# " + std::string(65533, 'c') + "\nplace 1 = x\nplace 1 = y\n", "answers.txt");
	ck_assert_uint_eq(after.lines.size(), 2);
	ck_assert_uint_eq(after.lines[1].line, 3);
	ck_assert(contains(after.lines[1].problem, "answered already"));
	// 17 MiB of comments: refused at the line that passes 16 MiB.
	std::string comments;
	const std::string comment = "# " + std::string(1021, 'c') + "\n";	// 1 KiB a line
	for (unsigned i = 0; i < 17 * 1024; i++)
		comments += comment;
	expect_input_error(comments, 16 * 1024 + 1, "more than 16 MiB");
	expect_refused(write_temp("big.txt", comments), 16 * 1024 + 1, "more than 16 MiB");
	// 100,000 answers at most (each one is a run of the wheel).
	std::string many;
	for (unsigned i = 0; i <= 100000; i++)
		many += "place " + std::to_string(i) + " = x\n";
	expect_input_error(many, 100001, "more than 100000 answers");
}
END_TEST

START_TEST(binary_bytes_are_not_answers)
{
	expect_input_error(std::string("place 1 = tv1[1]\nplace 2 = tv1\0[2]\n", 34), 2, "a control character (0x00)");
	expect_input_error("# fine\nplace 1 = \x1b[31mtv1[1]\n", 2, "a control character (0x1b)");
	// Tabs are blanks, UTF-8 is text (a comment in any language).
	std::string right = "place\t1\t=\ttv1[1]  # r\xc3\xa9ponse\n";
	timersim::lab::check_result r = timersim::lab::check_answers(right, "answers.txt");
	ck_assert_uint_eq(r.right + r.wrong, 1);
}
END_TEST

// Character devices of our own (never the real /dev): /dev/zero's and
// /dev/urandom's numbers, in a temporary directory. Needs root; skipped
// otherwise.
START_TEST(endless_devices)
{
	const std::string dir = temp_subdir("devices");
	const std::string zero = dir + "/zero", urandom = dir + "/urandom";
	if (mknod(zero.c_str(), S_IFCHR | 0600, makedev(1, 5)) != 0 ||
	    mknod(urandom.c_str(), S_IFCHR | 0600, makedev(1, 9)) != 0) {
		std::fprintf(stderr, "endless_devices: mknod not permitted, skipped\n");
		return;
	}
	expect_refused(zero, 1, "a line longer than 65535 bytes");
	expect_refused(urandom, 0, "");	// whichever line shows it first
	expect_refused(dir, 0, "is a directory");
}
END_TEST

// A pipe that never ends: comments without end are refused at 16 MiB.
START_TEST(endless_pipe)
{
	const std::string fifo = temp_subdir("fifo") + "/answers";
	ck_assert_int_eq(mkfifo(fifo.c_str(), 0600), 0);
	pid_t writer = fork();
	if (writer == 0) {
		std::signal(SIGPIPE, SIG_IGN);
		FILE *f = std::fopen(fifo.c_str(), "w");
		const std::string line = "# more\n";
		while (f && std::fwrite(line.data(), 1, line.size(), f) == line.size())
			;
		_exit(0);
	}
	expect_refused(fifo, (16u << 20) / 7 + 1, "more than 16 MiB");
	int status = 0;
	waitpid(writer, &status, 0);
}
END_TEST

// An editor's UTF-8 byte order mark before the first line: the right
// answer after it is right, a comment after it a comment (the mark made
// the one wrong, the other "not an answer"). A question listed three
// times in --questions scored its one answer three times: refused, the
// line named, exit 2.
START_TEST(a_byte_order_mark_and_a_question_listed_twice)
{
	const std::string bom = "\xEF\xBB\xBF";
	for (const std::string &text : {bom + "place 7 = tv1[83]\n", bom + "# answers\nplace 7 = tv1[83]\n"}) {
		const timersim::lab::check_result r = timersim::lab::check_answers(text, "answers.txt");
		ck_assert_uint_eq(r.lines.size(), 1);
		ck_assert_msg(r.all_right(), "%s", timersim::lab::check_text(r, false).c_str());
	}
	const std::string answers = write_temp("answers.txt", bom + "place 7 = tv1[83]\n");
	cli_result ok = run_timersim({"lab", "check", "--questions", write_temp("q1.txt", bom + "place 7\n"), answers});
	ck_assert_msg(ok.status == 0 && contains(ok.out, "score: 1"), "exit %d: %s %s", ok.status, ok.out.c_str(),
		      ok.err.c_str());
	const std::string thrice = write_temp("q3.txt", "place 7\nplace 7\nplace 7\n");
	cli_result r = run_timersim({"lab", "check", "--questions", thrice, answers});
	ck_assert_msg(r.status == 2, "exit %d: %s %s", r.status, r.out.c_str(), r.err.c_str());
	ck_assert_msg(contains(r.err, thrice + ":2: the question of line 1 again (place 7)"), "%s", r.err.c_str());
	ck_assert(r.out.empty());
}
END_TEST

int main()
{
	Suite *s = suite_create("lab_check_bounds");
	TCase *tc = tcase_create("bounds");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, long_lines_and_large_files);
	tcase_add_test(tc, binary_bytes_are_not_answers);
	tcase_add_test(tc, endless_devices);
	tcase_add_test(tc, endless_pipe);
	tcase_add_test(tc, a_byte_order_mark_and_a_question_listed_twice);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
