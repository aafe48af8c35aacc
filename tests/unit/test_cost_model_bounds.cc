// A cost model's numbers are held to what a measured cost can be (issue
// 41, defect 4): a coefficient of 1e308 ns a unit made the replay print
// `inf` in text and, in JSON, softirq_overhead_ns 0 with a perfect
// median_abs_error_ns 0. Past a second a unit, the model is refused, naming
// the file, the term and the value, exit status 2; at that bound the
// predictions are still finite numbers. compare --estimate's calibration
// likewise.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/cli.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"	// last: check.h defines a fail() macro

using namespace timersim::test;
using json = nlohmann::json;

namespace {

const char *recording = "tests/data/measured-idle.txt.gz";

// A model as `timersim cost-model` writes it: every coefficient NS, one
// bootstrap draw of them.
json model(double ns)
{
	std::vector<double> terms(5, ns);
	return {
		{"kind", "timersim softirq-run cost model"},
		{"version", 1},
		{"unit", "ns"},
		{"terms", {"run", "expiry", "visit", "relink", "cold_relink"}},
		{"ns", terms},
		{"low", terms},
		{"high", terms},
		{"fitted", {true, true, true, true, true}},
		{"runs", 10},
		{"seed", 1},
		{"sources", {"hand"}},
		{"draws", {terms}},
	};
}

cli_result replay_with(const json &m, const std::vector<std::string> &more = {})
{
	std::string path = write_temp("model.json", m.dump());
	std::vector<std::string> args = {"replay", "--cost-model", path};
	args.insert(args.end(), more.begin(), more.end());
	args.push_back(recording);
	return run_timersim(args);
}

bool contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

}  // namespace

START_TEST(a_coefficient_past_a_second_is_refused)
{
	json m = model(5);
	m["ns"][1] = 1e308;
	cli_result r = replay_with(m, {"--json", "-"});
	ck_assert_msg(r.status == 2, "%d: %.400s", r.status, r.out.c_str());
	ck_assert_msg(contains(r.err, "model.json: \"ns\"[1] (expiry) is 1e+308 ns a unit: past 1 s"), "%s",
		      r.err.c_str());
	ck_assert(r.out.empty());
	// In the interval's bounds and in the draws alike.
	m = model(5);
	m["high"][0] = 2e9;
	r = replay_with(m);
	ck_assert_msg(r.status == 2 && contains(r.err, "\"high\"[0] (run) is 2000000000.0 ns a unit"), "%d %s",
		      r.status, r.err.c_str());
	m = model(5);
	m["draws"][0][2] = 1e300;
	r = replay_with(m);
	ck_assert_msg(r.status == 2 && contains(r.err, "\"draws\"[0][2] (visit) is 1e+300 ns a unit"), "%d %s",
		      r.status, r.err.c_str());
}
END_TEST

// At the bound, a second for every unit of work: the overhead is a large,
// finite number in text and JSON, never inf or 0.
START_TEST(at_the_bound_the_prediction_is_a_number)
{
	cli_result r = replay_with(model(1e9), {"--json", "-"});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	json j = json::parse(r.out);
	double ns = j["modelled"]["softirq_overhead_ns"].get<double>();
	ck_assert_msg(ns >= 1e9 && ns < 1e30, "softirq_overhead_ns %g", ns);
	ck_assert(j["modelled"]["check"]["median_abs_error_ns"].get<double>() > 0);
	cli_result t = replay_with(model(1e9));
	ck_assert_int_eq(t.status, 0);
	std::size_t at = t.out.find("\nmodelled ");
	ck_assert(at != std::string::npos);
	std::string section = t.out.substr(at, t.out.find("\n\n", at + 1) - at);
	ck_assert_msg(contains(section, "  softirq ") && !contains(section, "inf") && !contains(section, "nan"),
		      "%.1000s", section.c_str());
}
END_TEST

// The same class in `compare --estimate`'s calibration: ns_per_unit 1e308
// printed 1e308 ns a unit, estimates of inf and a share of -nan.
START_TEST(a_calibration_past_a_second_is_refused)
{
	std::string cal = write_temp("cal.json", "{\"schemes\": {\"classic\": {\"ns_per_unit\": 1e308}}}");
	cli_result r = run_timersim({"compare", "--estimate", cal, "tests/data/default-trace.txt.gz"});
	ck_assert_msg(r.status == 2 && contains(r.err, "cal.json: scheme \"classic\": ns_per_unit 1e+308 is past 1 s"),
		      "%d %.300s", r.status, r.err.c_str());
	cal = write_temp("cal.json", "{\"schemes\": {\"classic\": {\"ns_per_unit\": 20, \"min\": 10, \"max\": 1e300}}}");
	r = run_timersim({"compare", "--estimate", cal, "tests/data/default-trace.txt.gz"});
	ck_assert_msg(r.status == 2 && contains(r.err, "cal.json: scheme \"classic\": max 1e+300 is past 1 s"),
		      "%d %.300s", r.status, r.err.c_str());
}
END_TEST

int main()
{
	Suite *s = suite_create("cost_model_bounds");
	TCase *tc = tcase_create("cost_model_bounds");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, a_coefficient_past_a_second_is_refused);
	tcase_add_test(tc, at_the_bound_the_prediction_is_a_number);
	tcase_add_test(tc, a_calibration_past_a_second_is_refused);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
