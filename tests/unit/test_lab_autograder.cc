// `timersim lab check --format gradescope|json`: a fixture answers file with
// right, partly right, wrong, malformed and missing answers gets exactly the
// scores docs/lab/README.md promises (a point per part of an answer), and
// the results.json has the fields and types Gradescope's autograder
// specification documents (score, max_score, tests[] of name, score,
// max_score, status, output, visibility).
#include <fstream>
#include <iterator>
#include <set>
#include <tuple>
#include <vector>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/cli.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"

using namespace timersim::test;
using nlohmann::json;

namespace {

// The assignment: four questions.
const char *questions = "place 7\nwrap 3\ncascade 2\nplace 8\n";

// Its answers: place 7 right (1 of 1); wrap 3 with naive= wrong (5 of 6);
// cascade 2 with C misplaced and D..F left out (cascade, tv2[48], move, A,
// B: 5 of 9); a line that is not an answer (0 of 0: its question is
// missing); place 8 missing (0 of 1). 11 of 17.
const char *answers = "place 7 = tv1[83]\n"
		      "wrap 3 = initial=0xfffedb08 expires=0x00002384 naive=no after=yes tv2[35] fires=0x00002384\n"
		      "cascade 2 = cascade tv2[48] move A tv1[36] B tv1[227] C tv1[0]\n"
		      "foo 1 = x\n";

bool contains(const std::string &hay, const std::string &needle) { return hay.find(needle) != std::string::npos; }

std::string read_file(const std::string &path)
{
	std::ifstream in(path, std::ios::binary);
	return std::string(std::istreambuf_iterator<char>(in), {});
}

json graded(const std::string &format, int expect_status)
{
	const std::string out = write_temp("results-" + format + ".json", "");
	cli_result c = run_timersim({"lab", "check", "--format", format, "--questions",
				     write_temp("questions.txt", questions), "-o", out, write_temp("answers.txt", answers)});
	ck_assert_msg(c.status == expect_status, "exit %d: %s", c.status, c.err.c_str());
	return json::parse(read_file(out));
}

// A field Gradescope documents, of the type it documents.
void expect_number(const json &o, const char *field)
{
	ck_assert_msg(o.contains(field) && o[field].is_number(), "%s: not a number in %s", field, o.dump().c_str());
}

void expect_string(const json &o, const char *field)
{
	ck_assert_msg(o.contains(field) && o[field].is_string(), "%s: not a string in %s", field, o.dump().c_str());
}

}  // namespace

START_TEST(gradescope_results_json)
{
	const json r = graded("gradescope", 1);
	ck_assert(r.is_object());
	expect_number(r, "score");
	expect_number(r, "max_score");
	ck_assert(r["visibility"] == "visible");
	ck_assert(r["tests"].is_array());
	const std::set<std::string> documented = {"score", "max_score", "status", "name", "name_format", "number",
						  "output", "output_format", "tags", "visibility", "extra_data"};
	for (const json &t : r["tests"]) {
		// A wrong answer's expected answer: a scoreless test shown after
		// the due date (test_lab_private.cc).
		if (t["visibility"] == "after_due_date") {
			ck_assert(!t.contains("score"));
			continue;
		}
		for (const char *f : {"score", "max_score"})
			expect_number(t, f);
		for (const char *f : {"name", "output", "visibility", "status"})
			expect_string(t, f);
		for (auto it = t.begin(); it != t.end(); ++it)
			ck_assert_msg(documented.count(it.key()), "undocumented test field %s", it.key().c_str());
		ck_assert(t["status"] == "passed" || t["status"] == "failed");
		ck_assert(t["visibility"] == "visible");
	}
	ck_assert_int_eq(r["score"].get<int>(), 11);
	ck_assert_int_eq(r["max_score"].get<int>(), 17);
	// name -> {score, max_score}, in the report's order.
	const std::vector<std::tuple<std::string, int, int>> expect = {
		{"line 4", 0, 0}, {"place 7", 1, 1}, {"wrap 3", 5, 6}, {"cascade 2", 5, 9}, {"place 8", 0, 1}};
	json scored = json::array();
	for (const json &t : r["tests"])
		if (t["visibility"] == "visible")
			scored.push_back(t);
	ck_assert_uint_eq(scored.size(), expect.size());
	for (std::size_t i = 0; i < expect.size(); i++) {
		const json &t = scored[i];
		// Named first: Check keeps the pointers past the full expression.
		const std::string name = t["name"].get<std::string>();
		ck_assert_string_eq(name.c_str(), std::get<0>(expect[i]).c_str());
		ck_assert_msg(t["score"] == std::get<1>(expect[i]) && t["max_score"] == std::get<2>(expect[i]),
			      "%s: %s", std::get<0>(expect[i]).c_str(), t.dump().c_str());
	}
	ck_assert(contains(scored[0]["output"], "unknown kind 'foo'"));
	ck_assert(contains(scored[2]["output"], "partly right (5 of 6 parts)"));
	ck_assert(contains(scored[4]["output"], "no answer to place 8"));
}
END_TEST

START_TEST(plain_json_and_all_right)
{
	const json r = graded("json", 1);
	ck_assert_int_eq(r["score"].get<int>(), 11);
	ck_assert_int_eq(r["max_score"].get<int>(), 17);
	ck_assert_int_eq(r["right"].get<int>(), 1);
	ck_assert_int_eq(r["wrong"].get<int>(), 3);
	ck_assert_uint_eq(r["questions"].size(), 5);
	// All right, no questions file: every answered line is a question; exit 0.
	const std::string out = write_temp("all-right.json", "");
	cli_result c = run_timersim({"lab", "check", "--format", "gradescope", "-o", out,
				     write_temp("right.txt", "place 7 = tv1[83]\n")});
	ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err.c_str());
	const json g = json::parse(read_file(out));
	ck_assert_int_eq(g["score"].get<int>(), 1);
	ck_assert_int_eq(g["max_score"].get<int>(), 1);
	// Without questions a line that is not an answer scores 0 of 1.
	c = run_timersim({"lab", "check", "--format", "json", "-o", out,
			  write_temp("bad.txt", "place 7 = tv1[83]\nfoo 1 = x\n")});
	ck_assert_int_eq(c.status, 1);
	const json b = json::parse(read_file(out));
	ck_assert_int_eq(b["max_score"].get<int>(), 2);
	ck_assert_int_eq(b["score"].get<int>(), 1);
}
END_TEST

int main()
{
	Suite *s = suite_create("lab_autograder");
	TCase *tc = tcase_create("autograder");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, gradescope_results_json);
	tcase_add_test(tc, plain_json_and_all_right);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
