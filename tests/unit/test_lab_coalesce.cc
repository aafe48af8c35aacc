// The `coalesce` lab kind and the hrtimer statements of `timersim step`:
// the fixed exercises equal their answers worked by hand from the kernel's
// rules (below), generated exercises are graded all right and, mutated,
// wrong (with partial credit by part), private variants need the key, and
// the scenario syntax reports its mistakes by line (exit 2) and stays
// bounded.
#include <cctype>
#include <string>
#include <vector>

#include "sim/lab/answers.h"
#include "sim/lab/exercise.h"
#include "sim/lab/grade_report.h"
#include "sim/lab/scenario.h"
#include "sim/lab/step.h"
#include "sim/trace/reader.h"
#include "tests/support/cli.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"

using namespace timersim::lab;
using timersim::test::cli_result;
using timersim::test::run_timersim;
using timersim::test::read_whole_file;
using timersim::test::write_temp;

namespace {

bool contains(const std::string &hay, const std::string &needle) { return hay.find(needle) != std::string::npos; }

std::string answer_for(const std::string &id, const std::string &student = "", const std::string &secret = "")
{
	exercise_ref ref;
	ref.kind = lab_kind::coalesce;
	ref.id = id;
	ref.student = student;
	ref.secret = secret;
	return solve(make_exercise(ref)).answer;
}

// Worked by hand. Rules: the device is programmed from the earliest
// expires over every base; an interrupt at now walks each hard base from
// its first timer (least expires; equal expires: the one queued first) and
// runs every timer with softexpires <= now, stopping at the first that is
// not due; soft timers run in HRTIMER_SOFTIRQ, raised when now passes the
// first soft timer's *expires*. Times in ns; the device's min_delta (1 us)
// never matters here (every delta is >= 1 us).
struct fixed_answer {
	const char *id, *answer;
};
const fixed_answer fixed[] = {
	// F1: A 10000..15000, B 12000. The device: min(15000, 12000) = 12000.
	// At 12000: B (12000 <= 12000) runs, then A (softexpires 10000 <=
	// 12000) runs 3000 ns early, coalesced. Nothing left: stopped.
	{"F1", "B@12000 A@12000 next=none"},
	// F2: A 10000, B 9000..19000, C 12000..15000; queue order by expires:
	// A(10000) C(15000) B(19000). At 10000: A runs; C's softexpires 12000 >
	// 10000 stops the walk, so B waits although 9000 has passed. The
	// device: C's 15000. At 15000: C (12000 <= 15000), then B (9000).
	{"F2", "A@10000 C@15000 B@15000 next=none"},
	// F3: A 20000, H 9000, soft S 8000..10000. The device: min(20000, 9000,
	// 10000) = 9000. At 9000: H runs; softirq_expires_next is S's expires
	// 10000 > 9000: no softirq, though S's softexpires 8000 has passed. The
	// device: 10000. At 10000: the softirq runs S. The device: A's 20000;
	// run-to-ns 15000 stops before it: show says 20000.
	{"F3", "H@9000 S@10000(softirq) next=20000"},
	// F4: A 5000 (the device: 5000), B 9000..12000 (not earlier than
	// 5000: skip). Cancelling A, the next_timer: hrtimer_force_reprogram()
	// -> B's expires 12000. run-to-ns 10000 < 12000: nothing runs.
	{"F4", "next=12000"},
	// F5: T 4000 period 4000, A 5000..8000. At 4000: T runs, forwarded to
	// 8000 and queued behind A (equal expires 8000: A was queued first);
	// A's softexpires 5000 > 4000 stops the walk. At 8000: A, then T
	// (-> 12000). run-to-ns 10000: show says 12000.
	{"F5", "T@4000 A@8000 T@8000 next=12000"},
};

START_TEST(fixed_answers_worked_by_hand)
{
	for (const fixed_answer &f : fixed)
		ck_assert_msg(answer_for(f.id) == f.answer, "coalesce %s: %s, worked by hand: %s", f.id,
			      answer_for(f.id).c_str(), f.answer);
	ck_assert_uint_eq(fixed_ids(lab_kind::coalesce).size(), sizeof fixed / sizeof fixed[0]);
}
END_TEST

START_TEST(fixed_working_names_the_rules)
{
	exercise_ref ref;
	ref.kind = lab_kind::coalesce;
	ref.id = "F2";
	std::string w;
	for (const std::string &l : solve(make_exercise(ref)).working)
		w += l + "\n";
	ck_assert_msg(contains(w, "B waits although its softexpires 9000 has passed"), "%s", w.c_str());
	ck_assert(contains(w, "coalesced: it runs 4000 ns before its expires 19000"));
	ck_assert(contains(w, "B is not the first timer of its base: hrtimer_reprogram() is not called"));
	ref.id = "F4";
	w.clear();
	for (const std::string &l : solve(make_exercise(ref)).working)
		w += l + "\n";
	ck_assert_msg(contains(w, "A was next_timer") && contains(w, "hrtimer_force_reprogram()"), "%s", w.c_str());
	ref.id = "F3";
	w.clear();
	for (const std::string &l : solve(make_exercise(ref)).working)
		w += l + "\n";
	ck_assert_msg(contains(w, "softirq_expires_next 10000 > now 9000"), "%s", w.c_str());
	ck_assert(contains(w, "S's expires 10000 is not earlier than expires_next 9000: skip"));
}
END_TEST

// Every generated exercise graded right as given, wrong when mutated (one
// number off), with a part held for each run still right.
START_TEST(generated_answers_are_graded)
{
	const std::string json = timersim::test::temp_subdir("c1") + "/lab.json";
	cli_result r = run_timersim({"lab", "coalesce", "-s", "11", "-n", "40", "-c", "--json", json});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	std::string right, wrong;
	unsigned runs_total = 0;
	for (unsigned i = 0; i < 40; i++) {
		const std::string id = std::to_string(11 + i);
		const std::string a = answer_for(id);
		ck_assert_msg(contains(read_whole_file(json), "\"answer\": \"" + a + "\""), "%s", a.c_str());
		right += "coalesce " + id + " = " + a + "\n";
		// Mutate: every time one later ("@8000" -> "@8001", next=N -> N+1).
		std::string m;
		for (std::size_t k = 0; k < a.size(); k++) {
			m += a[k];
			if ((a[k] == '@' || a[k] == '=') && k + 1 < a.size() && std::isdigit(static_cast<unsigned char>(a[k + 1]))) {
				std::size_t e = k + 1;
				while (e < a.size() && std::isdigit(static_cast<unsigned char>(a[e])))
					e++;
				m += std::to_string(std::stoull(a.substr(k + 1, e - k - 1)) + 1);
				k = e - 1;
			}
		}
		if (m == a)	// next=none and nothing ran: not possible with these seeds
			m = "next=1";
		wrong += "coalesce " + id + " = " + m + "\n";
		runs_total += static_cast<unsigned>(answer_parts(lab_kind::coalesce, a).size());
		// Partial credit: the runs kept, the device answer wrong.
		const std::size_t at = a.rfind("next=");
		const std::string partial = a.substr(0, at) + "next=999999999";
		auto [score, max] = part_score(lab_kind::coalesce, a, partial);
		ck_assert_uint_eq(max, answer_parts(lab_kind::coalesce, a).size());
		ck_assert_uint_eq(score, max - 1);
	}
	ck_assert_uint_gt(runs_total, 80);
	const std::string rf = write_temp("right.txt", right);
	const std::string wf = write_temp("wrong.txt", wrong);
	r = run_timersim({"lab", "check", rf});
	ck_assert_msg(r.status == 0 && contains(r.out, "40 right"), "%s%s", r.out.c_str(), r.err.c_str());
	r = run_timersim({"lab", "check", wf});
	ck_assert_msg(r.status == 1 && contains(r.out, "0 right"), "%s", r.out.c_str());
	// Normalisation: case, commas and spaces do not matter.
	ck_assert(answers_match(lab_kind::coalesce, "H@9000 S@10000(softirq) next=20000",
				"h@9000, s@0x2710(SOFTIRQ)  next = 20000"));
}
END_TEST

START_TEST(private_variants_need_the_key)
{
	const std::string a = answer_for("5", "ada", "k1"), b = answer_for("5", "bob", "k1"), c = answer_for("5");
	ck_assert(a != b || a != c);
	ck_assert(a == answer_for("5", "ada", "k1"));
	cli_result r = run_timersim({"lab", "coalesce", "-s", "5", "--student", "ada"});
	ck_assert_int_eq(r.status, 2);
	const std::string f = write_temp("ada.txt", "coalesce 5 = " + a + "\n");
	r = run_timersim({"lab", "check", "--student", "ada", "--secret", "k1", f});
	ck_assert_msg(r.status == 0, "%s%s", r.out.c_str(), r.err.c_str());
}
END_TEST

scenario parse(const std::string &text) { return parse_scenario(text, "s.txt"); }

std::string parse_error(const std::string &text)
{
	try {
		scenario s = parse(text);
		check_scenario(s, {});
	} catch (const timersim::input_error &e) {
		return e.what();
	}
	return "";
}

START_TEST(scenario_syntax_round_trips)
{
	const scenario s = parse("show\nhrstart A 10000 slack=5000 # c\nhrstart B +2000 soft period=4000\n"
				 "hrcancel A\nrun-to-ns +30000\nshow\n");
	ck_assert(s.is_hr());
	ck_assert_uint_eq(s.hr_ops.size(), 6);
	ck_assert_uint_eq(s.hr_ops[1].slack, 5000);
	ck_assert(s.hr_ops[2].relative && s.hr_ops[2].soft);
	ck_assert_uint_eq(s.hr_ops[2].period, 4000);
	const scenario again = parse(render_scenario(s));
	// Named first: Check keeps the pointers past the full expression.
	const std::string twice = render_scenario(again), once = render_scenario(s);
	ck_assert_str_eq(twice.c_str(), once.c_str());
	ck_assert(looks_like_scenario("# x\nhrstart A 1000\n"));
}
END_TEST

START_TEST(scenario_mistakes_name_the_line)
{
	ck_assert(contains(parse_error("add A 300\nhrstart B 1000\n"), "s.txt:2"));
	ck_assert(contains(parse_error("hrstart B 1000\ntick\n"), "s.txt:2"));
	ck_assert(contains(parse_error("hrstart B 1000 slack=x\n"), "s.txt:1"));
	ck_assert(contains(parse_error("hrstart B 1000 period=0\n"), "period=0"));
	ck_assert(contains(parse_error("hrstart B 99999999999999999999\n"), "s.txt:1"));
	ck_assert(contains(parse_error("hrstart B 999999999999999999 slack=999999999999999999\n"), "beyond"));
	ck_assert(contains(parse_error("hrstart B 1000000000000000000\n"), "beyond"));
	ck_assert(contains(parse_error("hrstart B 1000\nrun-to-ns 500000\nrun-to-ns 2000\n"), "s.txt:3"));
	ck_assert(contains(parse_error("hrstart B 1000\nhrstart B 2000 soft\n"), "s.txt:2"));
	// Unbounded work is refused with the line: a 1 ns period over a second,
	// a slack not below the period (due again at once, for ever).
	ck_assert(contains(parse_error("hrstart T 1000 period=1\nrun-to-ns 1000000000000\n"), "s.txt:2"));
	ck_assert(contains(parse_error("hrstart T 200000\nhrstart B 1 slack=900000000 period=1\nrun-to-ns 300000\n"),
			   "s.txt:3"));
}
END_TEST

START_TEST(step_cli_explains_and_exits_2)
{
	const std::string f = write_temp("s.txt",
							 "hrstart A 10000 slack=5000\nhrstart B 12000\nrun-to-ns 20000\nshow\n");
	cli_result r = run_timersim({"step", f, "--explain"});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	ck_assert_msg(contains(r.out, "! A ran at 12000 (softexpires 10000, expires 15000)"), "%s", r.out.c_str());
	ck_assert(contains(r.out, "coalesced: it runs 3000 ns before its expires 15000"));
	ck_assert(contains(r.out, "device programmed for: none (stopped)"));
	const std::string json = timersim::test::temp_subdir("c2") + "/s.json";
	r = run_timersim({"step", f, "--json", json});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	ck_assert(contains(read_whole_file(json), "\"model\": \"hrtimer\""));
	const std::string bad = write_temp("bad.txt", "hrstart A 1000\nrun-to-ns 99999999999999999999\n");
	r = run_timersim({"step", bad});
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(contains(r.err, "bad.txt:2") && r.out.empty(), "%s", r.err.c_str());
	// The view draws wheels: an hrtimer scenario is refused, not drawn empty.
	r = run_timersim({"view", f, "-o", timersim::test::temp_subdir("c3") + "/v.html"});
	ck_assert_msg(r.status == 2 && contains(r.err, "s.txt:1"), "%d %s", r.status, r.err.c_str());
}
END_TEST

}  // namespace

int main()
{
	Suite *s = suite_create("lab_coalesce");
	TCase *tc = tcase_create("coalesce");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, fixed_answers_worked_by_hand);
	tcase_add_test(tc, fixed_working_names_the_rules);
	tcase_add_test(tc, generated_answers_are_graded);
	tcase_add_test(tc, private_variants_need_the_key);
	tcase_add_test(tc, scenario_syntax_round_trips);
	tcase_add_test(tc, scenario_mistakes_name_the_line);
	tcase_add_test(tc, step_cli_explains_and_exits_2);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
