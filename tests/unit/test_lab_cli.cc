// `timersim lab KIND` as a student meets it: the arguments echoed (so a
// problem can be made again), -c adds answers and working, --json carries
// questions and answers for an autograder, and bad arguments exit 2.
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

#include "tests/support/cli.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"

using namespace timersim::test;

namespace {

bool contains(const std::string &hay, const std::string &needle) { return hay.find(needle) != std::string::npos; }

std::string read_whole_file_or_empty(const std::string &path)
{
	std::ifstream in(path, std::ios::binary);
	return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

START_TEST(arguments_are_echoed_and_reproduce_the_problem)
{
	cli_result a = run_timersim({"lab", "cascade", "-s", "12", "-n", "2", "--hz", "1000", "--base-small"});
	ck_assert_int_eq(a.status, 0);
	for (const char *line : {"ARG kind cascade\n", "ARG seed 12\n", "ARG count 2\n", "ARG compute no\n", "ARG hz 1000\n",
				 "ARG word-bits 64\n", "ARG base-small yes\n",
				 "(again: timersim lab cascade -s 12 -n 2 --hz 1000 --base-small)\n",
				 "Question 2 of 2: cascade 13 --hz 1000 --base-small\n"})
		ck_assert_msg(contains(a.out, line), "no '%s' in:\n%s", line, a.out.c_str());
	ck_assert(!contains(a.out, "Answer:"));
	// The same arguments, the same bytes; -c adds the answers after each question.
	cli_result b = run_timersim({"lab", "cascade", "--base-small", "--hz", "1000", "-n", "2", "-s", "12"});
	ck_assert(a.out == b.out);
	cli_result c = run_timersim({"lab", "cascade", "-s", "12", "-n", "2", "--hz", "1000", "--base-small", "-c"});
	ck_assert(contains(c.out, "  Answer: cascade tv2["));
	ck_assert(contains(c.out, "  Working:\n"));
	ck_assert(contains(c.out, "  Scenario (save it and run: timersim step FILE --scheme classic --explain):\n"));
	// The question text is the same with and without -c.
	std::string q = a.out.substr(a.out.find("Question 1"), a.out.find("  Answer as:") - a.out.find("Question 1"));
	ck_assert(contains(c.out, q));
	// An hrtimer exercise's scenario runs without a wheel: its hint names
	// none, and the command it gives runs the scenario it prints.
	cli_result hr = run_timersim({"lab", "coalesce", "-s", "3", "-c"});
	ck_assert_int_eq(hr.status, 0);
	ck_assert(contains(hr.out, "  Scenario (save it and run: timersim step FILE --explain):\n"));
	ck_assert(!contains(hr.out, "--scheme"));
	std::string scenario;
	for (std::size_t at = hr.out.find("\n", hr.out.find("  Scenario (")) + 1; at < hr.out.size();) {
		std::size_t end = hr.out.find('\n', at);
		scenario += hr.out.substr(at + 4, end - at - 4) + "\n";
		at = end + 1;
	}
	cli_result ran = run_timersim({"step", write_temp("coalesce3.txt", scenario), "--explain"});
	ck_assert_msg(ran.status == 0, "%s", ran.err.c_str());
	ck_assert(contains(ran.out, "interrupts"));
	// wrap is always 32-bit, and says so.
	cli_result w = run_timersim({"lab", "wrap"});
	ck_assert(contains(w.out, "ARG word-bits 32\n"));
}
END_TEST

START_TEST(json_for_an_autograder)
{
	std::string out = temp_subdir("lab-json") + "/q.json";
	cli_result r = run_timersim({"lab", "v48", "-s", "F1", "-n", "3", "--json", out});
	ck_assert_int_eq(r.status, 0);
	ck_assert(r.out.empty());
	std::string check = "python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); q=d[\"questions\"]; "
			    "assert d[\"args\"][\"kind\"]==\"v48\" and len(q)==3, d[\"args\"]; "
			    "assert q[0][\"id\"]==\"F1\" and q[0][\"key\"]==\"v48 F1\", q[0]; "
			    "assert q[0][\"answer\"]==\"LVL1[13] gran=8 bucket_expiry=104 fires=104 late=4\", q[0]; "
			    "assert q[2][\"working\"] and q[2][\"scheme\"]==\"v48\" and \"add A\" in q[2][\"scenario\"]' '" +
			    out + "'";
	ck_assert_msg(std::system(check.c_str()) == 0, "q.json is not what an autograder needs");
	cli_result s = run_timersim({"lab", "place", "--json", "-"});
	ck_assert(contains(s.out, "\"questions\": ["));
}
END_TEST

START_TEST(bad_arguments_exit_2)
{
	for (auto args : {std::vector<std::string>{"lab"}, {"lab", "bogus"}, {"lab", "place", "-s", "x1"},
			  {"lab", "place", "-s", "F11"}, {"lab", "place", "-n", "0"}, {"lab", "place", "--hz", "123"},
			  {"lab", "place", "--word-bits", "16"}, {"lab", "check"}}) {
		cli_result r = run_timersim(args);
		ck_assert_msg(r.status == 2, "%s %s: exit %d", args[0].c_str(), args.size() > 1 ? args[1].c_str() : "",
			      r.status);
		ck_assert(!r.err.empty());
		ck_assert(r.out.empty());
	}
	ck_assert(contains(run_timersim({"lab", "place", "-s", "F11"}).err, "fixed exercises F1 to F10"));
	ck_assert(contains(run_timersim({"lab", "bogus"}).err, "unknown kind 'bogus'"));
}
END_TEST

// `lab check FILE` takes nothing but FILE: each answer line names its
// exercise and options, so a KIND, -s, -n, -c, --hz, --word-bits,
// --base-small or --json given with it is a usage error, not ignored.
START_TEST(check_takes_only_a_file)
{
	const std::string dir = temp_subdir("lab-check-opts");
	const std::string answers = write_temp("opts-answers.txt", "place 1 = tv1[1]\n");
	for (auto args : {std::vector<std::string>{"lab", "place", "-s", "5", "-n", "3", "check", answers},
			  {"lab", "--json", dir + "/F", "check", answers},
			  {"lab", "-c", "check", answers},
			  {"lab", "--hz", "1000", "check", answers},
			  {"lab", "--word-bits", "32", "check", answers},
			  {"lab", "--base-small", "check", answers},
			  {"lab", "cascade", "check", answers}}) {
		cli_result r = run_timersim(args);
		ck_assert_msg(r.status == 2, "%s: exit %d", args[1].c_str(), r.status);
		ck_assert_msg(contains(r.err, "do not apply to `lab check`") || contains(r.err, "does not apply to `lab check`"),
			      "%s: %s", args[1].c_str(), r.err.c_str());
		ck_assert(r.out.empty());
	}
	cli_result r = run_timersim({"lab", "place", "-s", "5", "-n", "3", "check", answers});
	ck_assert_msg(contains(r.err, "KIND, --seed and --count do not apply"), "%s", r.err.c_str());
	// Nothing written where --json pointed.
	ck_assert(read_whole_file_or_empty(dir + "/F").empty());
	// Alone, the same file is graded.
	ck_assert_int_eq(run_timersim({"lab", "check", answers}).status, 1);
}
END_TEST

// Seeds are the whole uint64 range: the last seed makes one question; a
// count that would go past it, a negative, too large or empty seed is a
// usage error.
START_TEST(seeds_span_uint64)
{
	cli_result r = run_timersim({"lab", "place", "-s", "18446744073709551615", "-n", "1"});
	ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err.c_str());
	ck_assert(contains(r.out, "Question 1 of 1: place 18446744073709551615\n"));
	r = run_timersim({"lab", "place", "-s", "18446744073709551614", "-n", "2"});
	ck_assert_int_eq(r.status, 0);
	ck_assert(contains(r.out, "Question 2 of 2: place 18446744073709551615\n"));
	for (const char *seed : {"18446744073709551616", "-1", "", "99999999999999999999999"}) {
		r = run_timersim({"lab", "place", "-s", seed, "-n", "1"});
		ck_assert_msg(r.status == 2 && !r.err.empty() && r.out.empty(), "-s '%s': exit %d", seed, r.status);
	}
	r = run_timersim({"lab", "place", "-s", "18446744073709551615", "-n", "2"});
	ck_assert_int_eq(r.status, 2);
	ck_assert(contains(r.err, "overflow"));
}
END_TEST

int main()
{
	Suite *s = suite_create("lab_cli");
	TCase *tc = tcase_create("cli");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, arguments_are_echoed_and_reproduce_the_problem);
	tcase_add_test(tc, json_for_an_autograder);
	tcase_add_test(tc, bad_arguments_exit_2);
	tcase_add_test(tc, check_takes_only_a_file);
	tcase_add_test(tc, seeds_span_uint64);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
