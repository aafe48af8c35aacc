// Grading that keeps the answers private: Gradescope's results.json holds
// a wrong answer's expected answer in no test visible before the due date
// (every --reveal), `lab check --no-working` prints no expected answer
// unless --show-expected, a private variant's handed-out questions file
// (--questions-out) holds questions only and is the answers file `lab
// check` grades once filled in, `make lab-dist`'s tarball holds nothing
// of docs/lab/instructor; and the lab's commands agree with the tool:
// `lab check -s 3 FILE` names -s as not applying, `step --trace` takes the
// recording kernel's wheel as replay does.
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/lab/lab_output.h"
#include "tests/support/browser.h"
#include "tests/support/cli.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"

using namespace timersim::test;
using nlohmann::json;

namespace {

bool contains(const std::string &hay, const std::string &needle) { return hay.find(needle) != std::string::npos; }

std::string read_file(const std::string &path)
{
	std::ifstream in(path, std::ios::binary);
	return std::string(std::istreambuf_iterator<char>(in), {});
}

// place 7's answer is tv1[83]; wrap 3's "... naive=yes after=yes tv2[35]
// ...": a wrong place 7, a partly right wrap 3 (5 of 6).
const char *answers = "place 7 = tv2[5]\n"
		      "wrap 3 = initial=0xfffedb08 expires=0x00002384 naive=no after=yes tv2[35] fires=0x00002384\n";
const char *place_expected = "tv1[83]";
const char *wrap_expected = "naive=yes";

json gradescope(const std::vector<std::string> &extra)
{
	const std::string out = write_temp("private-results.json", "");
	std::vector<std::string> args = {"lab", "check", "--format", "gradescope", "-o", out};
	args.insert(args.end(), extra.begin(), extra.end());
	args.push_back(write_temp("private-answers.txt", answers));
	cli_result c = run_timersim(args);
	ck_assert_msg(c.status == 1, "exit %d: %s", c.status, c.err.c_str());
	return json::parse(read_file(out));
}

// Every string a student sees before the due date: the visible tests'
// fields, and the top level's.
std::string seen_before_due(const json &r)
{
	std::string seen;
	for (auto it = r.begin(); it != r.end(); ++it)
		if (it.key() != "tests")
			seen += it.value().dump() + "\n";
	for (const json &t : r["tests"])
		if (t.value("visibility", r.value("visibility", "visible")) == "visible")
			seen += t.dump() + "\n";
	return seen;
}

std::string root()
{
	const char *env = std::getenv("TIMERSIM_ROOT");
	return env && *env ? env : ".";
}

}  // namespace

START_TEST(gradescope_reveals_after_the_due_date_by_default)
{
	for (const std::vector<std::string> &extra : std::vector<std::vector<std::string>>{{}, {"--reveal", "after-due"}}) {
		const json r = gradescope(extra);
		const std::string seen = seen_before_due(r);
		ck_assert_msg(!contains(seen, place_expected) && !contains(seen, wrap_expected) && !contains(seen, "working"),
			      "visible before the due date: %s", seen.c_str());
		// The scores are the same as with the answers shown.
		ck_assert_int_eq(r["score"].get<int>(), 5);
		ck_assert_int_eq(r["max_score"].get<int>(), 7);
		// Each wrong answer's expected one, in a test of its own, after
		// the due date, worth nothing.
		unsigned later = 0;
		for (const json &t : r["tests"]) {
			if (t["visibility"] != "after_due_date")
				continue;
			later++;
			ck_assert(!t.contains("score") && !t.contains("max_score"));
			const std::string out = t["output"].get<std::string>();
			ck_assert_msg(contains(out, "expected: ") && contains(out, "working:"), "%s", out.c_str());
		}
		ck_assert_uint_eq(later, 2);
		ck_assert(contains(r.dump(), place_expected));
	}
}
END_TEST

START_TEST(gradescope_reveal_never_and_always)
{
	const json never = gradescope({"--reveal", "never"});
	ck_assert_msg(!contains(never.dump(), place_expected) && !contains(never.dump(), wrap_expected),
		      "%s", never.dump().c_str());
	ck_assert_uint_eq(never["tests"].size(), 2);
	const json always = gradescope({"--reveal", "always"});
	ck_assert_uint_eq(always["tests"].size(), 2);
	const std::string seen = seen_before_due(always);
	ck_assert(contains(seen, place_expected) && contains(seen, wrap_expected) && contains(seen, "working:"));
	// --reveal is Gradescope's: text and json grades refuse it.
	cli_result c = run_timersim({"lab", "check", "--reveal", "never", write_temp("private-a.txt", answers)});
	ck_assert_int_eq(c.status, 2);
	ck_assert_msg(contains(c.err, "--format gradescope"), "%s", c.err.c_str());
	c = run_timersim({"lab", "check", "--format", "gradescope", "--reveal", "later",
			  write_temp("private-a.txt", answers)});
	ck_assert_int_eq(c.status, 2);
}
END_TEST

START_TEST(no_working_hides_the_expected_answer)
{
	const std::string file = write_temp("private-text.txt", answers);
	cli_result c = run_timersim({"lab", "check", file});
	ck_assert(contains(c.out, std::string("expected: ") + place_expected));
	c = run_timersim({"lab", "check", "--no-working", file});
	ck_assert_int_eq(c.status, 1);
	ck_assert_msg(contains(c.out, "you gave: tv2[5]") && !contains(c.out, "expected") &&
			      !contains(c.out, place_expected) && !contains(c.out, "working"),
		      "%s", c.out.c_str());
	c = run_timersim({"lab", "check", "--no-working", "--show-expected", file});
	ck_assert_msg(contains(c.out, std::string("expected: ") + place_expected) && !contains(c.out, "working"),
		      "%s", c.out.c_str());
	c = run_timersim({"lab", "check", "--show-expected", file});
	ck_assert_int_eq(c.status, 2);
	// The plain JSON likewise.
	const std::string out = write_temp("private-plain.json", "");
	c = run_timersim({"lab", "check", "--format", "json", "--no-working", "-o", out, file});
	ck_assert_int_eq(c.status, 1);
	ck_assert_msg(!contains(read_file(out), place_expected), "%s", read_file(out).c_str());
	c = run_timersim({"lab", "check", "--format", "json", "-o", out, file});
	ck_assert(json::parse(read_file(out))["questions"][0]["answer"].get<std::string>().find(place_expected) !=
		  std::string::npos);
}
END_TEST

// The instructor makes alice's questions; the file holds no key and no
// answer, reads back as her questions, and filled in with the answers
// (the key holder's -c) is graded all right by `lab check` with the key.
START_TEST(handed_out_questions_are_the_answers_file)
{
	const std::string q = write_temp("alice-questions.txt", "");
	cli_result c = run_timersim({"lab", "place", "-s", "7", "-n", "3", "--student", "alice", "--secret",
				     "sesame-key", "--questions-out", q});
	ck_assert_msg(c.status == 0, "%s", c.err.c_str());
	const std::string text = read_file(q);
	const std::string json_file = write_temp("alice.json", "");
	c = run_timersim({"lab", "place", "-s", "7", "-n", "3", "--student", "alice", "--secret", "sesame-key",
			  "--json", json_file});
	ck_assert_msg(c.status == 0, "%s", c.err.c_str());
	const json key = json::parse(read_file(json_file));
	ck_assert(!contains(text, "sesame-key"));
	const std::vector<timersim::lab::handed_question> hq = timersim::lab::read_handed_questions(text);
	ck_assert_uint_eq(hq.size(), 3);
	std::string filled;
	for (std::size_t i = 0; i < hq.size(); i++) {
		const json &k = key["questions"][i];
		const std::string want_key = k["key"].get<std::string>(), want_q = k["question"].get<std::string>() + "\n";
		ck_assert_str_eq(hq[i].key.c_str(), want_key.c_str());
		ck_assert_str_eq(hq[i].question.c_str(), want_q.c_str());
		ck_assert(hq[i].answer.empty());
		// No answer in the file: the key's answer is not in it as written.
		ck_assert_msg(!contains(text, "= " + k["answer"].get<std::string>()), "%s", text.c_str());
		filled += hq[i].key + " = " + k["answer"].get<std::string>() + "\n";
	}
	// Filled in where the file says: the line after each question.
	std::string answered = text;
	for (const timersim::lab::handed_question &h : hq) {
		const std::string line = h.key + " =\n";
		const std::size_t at = answered.find(line);
		ck_assert(at != std::string::npos);
		const std::string a = filled.substr(filled.find(h.key + " = ") + h.key.size() + 3);
		answered.replace(at, line.size(), h.key + " = " + a.substr(0, a.find('\n')) + "\n");
	}
	const std::vector<timersim::lab::handed_question> back = timersim::lab::read_handed_questions(answered);
	ck_assert(!back.front().answer.empty());
	const std::string af = write_temp("alice-answers.txt", answered);
	c = run_timersim({"lab", "check", "--questions", q, "--student", "alice", "--secret", "sesame-key", af});
	ck_assert_msg(c.status == 0 && contains(c.out, "score: 3 of 3"), "exit %d: %s%s", c.status, c.out.c_str(),
		      c.err.c_str());
	// Not the public questions, and no answers beside them.
	c = run_timersim({"lab", "place", "-s", "7", "-c", "--questions-out", q});
	ck_assert_int_eq(c.status, 2);
	c = run_timersim({"lab", "place", "-s", "7", "--student", "alice", "--questions-out", q});
	ck_assert_int_eq(c.status, 2);
}
END_TEST

START_TEST(check_names_lab_options_as_not_applying)
{
	const std::string file = write_temp("private-s.txt", answers);
	for (const std::vector<std::string> &args :
	     std::vector<std::vector<std::string>>{{"lab", "check", "-s", "3", file},
						   {"lab", "check", file, "--seed", "3"},
						   {"lab", "-s", "3", "check", file}}) {
		cli_result c = run_timersim(args);
		ck_assert_int_eq(c.status, 2);
		ck_assert_msg(contains(c.err, "--seed does not apply to `lab check`") && !contains(c.err, "not expected"),
			      "%s", c.err.c_str());
	}
	cli_result c = run_timersim({"lab", "check", "-c", "--hz", "100", file});
	ck_assert_int_eq(c.status, 2);
	ck_assert_msg(contains(c.err, "--compute") && contains(c.err, "--hz"), "%s", c.err.c_str());
}
END_TEST

// tests/data/default-trace.txt.gz: Linux 6.18, whose wheel is v48.
START_TEST(step_trace_takes_the_recording_kernels_wheel)
{
	const std::string trace = root() + "/tests/data/default-trace.txt.gz";
	cli_result c = run_timersim({"step", "--trace", trace, "--from", "4295061000", "--to", "4295061003"});
	ck_assert_msg(c.status == 0, "%s", c.err.c_str());
	ck_assert_msg(contains(c.out, "--scheme v48") && contains(c.out, "(auto: the recording kernel's wheel)"),
		      "%s", c.out.substr(0, 400).c_str());
	cli_result v48 = run_timersim({"step", "--trace", trace, "--scheme", "v48", "--from", "4295061000", "--to",
				       "4295061003"});
	// The same steps as the wheel named.
	ck_assert(c.out.substr(c.out.find('\n')) == v48.out.substr(v48.out.find('\n')));
	cli_result classic = run_timersim({"step", "--trace", trace, "--scheme", "classic", "--from", "4295061000",
					   "--to", "4295061003"});
	ck_assert(contains(classic.out, "--scheme classic --from 4295061000 --to 4295061003\n"));
	// A scenario has no recording kernel.
	c = run_timersim({"step", "--scheme", "auto", root() + "/docs/lab/scenarios/wrap.txt"});
	ck_assert_int_eq(c.status, 2);
}
END_TEST

START_TEST(lab_dist_holds_no_instructor_material)
{
	const std::string out = write_temp("timersim-lab.tar.gz", "");
	const std::string web = out.substr(0, out.rfind('/')) + "/dist-web";
	int status = 0;
	run_capture("mkdir -p '" + web + "' && echo '<!doctype html>the page' >'" + web + "/index.html'", status);
	ck_assert(status == 0);
	// The page's folder named relative to the checkout, as `make lab-dist` names build/web.
	const std::string log = run_capture("cd '" + root() + "' && scripts/lab-dist.sh '" + out +
						    "' \"$(realpath --relative-to=. '" + web + "')\" 2>&1",
					    status);
	ck_assert_msg(status == 0, "%s", log.c_str());
	const std::string list = run_capture("tar -tzf '" + out + "'", status);
	ck_assert(status == 0);
	ck_assert_msg(!contains(list, "/instructor"), "%s", list.c_str());
	for (const char *f : {"timersim-lab/docs/lab/README.md", "timersim-lab/docs/lab/01-placement.md",
			      "timersim-lab/Makefile", "timersim-lab/sim/lab/answers.cc",
			      "timersim-lab/tests/data/default-trace.txt.gz", "timersim-lab/web/index.html"})
		ck_assert_msg(contains(list, std::string(f) + "\n"), "%s missing:\n%s", f, list.c_str());
	ck_assert_msg(!contains(list, "timersim-lab/tests/unit/"), "%s", list.c_str());
	// The same commit, the same bytes.
	const std::string again = write_temp("timersim-lab-2.tar.gz", "");
	run_capture("cd '" + root() + "' && scripts/lab-dist.sh '" + again + "' '" + web + "' 2>&1", status);
	ck_assert(read_file(out) == read_file(again));
}
END_TEST

int main()
{
	Suite *s = suite_create("lab_private");
	TCase *tc = tcase_create("private");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, gradescope_reveals_after_the_due_date_by_default);
	tcase_add_test(tc, gradescope_reveal_never_and_always);
	tcase_add_test(tc, no_working_hides_the_expected_answer);
	tcase_add_test(tc, handed_out_questions_are_the_answers_file);
	tcase_add_test(tc, check_names_lab_options_as_not_applying);
	tcase_add_test(tc, step_trace_takes_the_recording_kernels_wheel);
	tcase_add_test(tc, lab_dist_holds_no_instructor_material);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
