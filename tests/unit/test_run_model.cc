// The softirq-run cost model: the constrained least-squares fit recovers
// coefficients a test sets, never goes negative, leaves terms the runs
// never exercised unfitted (and says so when a prediction needs them), is
// deterministic for a seed, and its error figures are the hand-computed
// ones.
#include <cmath>
#include <vector>

#include "sim/measured/run_model.h"

#include "tests/support/check_main.h"

using namespace timersim::measured;

namespace {

run_sample sample(double expiries, double visits, double relinks, double y)
{
	run_sample s;
	s.x = {1, expiries, visits, relinks, 0};
	s.overhead_ns = y;
	return s;
}

}  // namespace

START_TEST(the_fit_recovers_known_coefficients)
{
	// overhead = 1500 + 300 * expiries + 20 * visits, no noise.
	std::vector<run_sample> s;
	for (int e = 0; e < 6; e++)
		for (int v = 1; v < 40; v += 7)
			s.push_back(sample(e, v, 0, 1500 + 300.0 * e + 20.0 * v));
	cost_model m = fit(s, 50, 1);
	ck_assert_double_eq_tol(m.ns[term_run], 1500, 1e-6);
	ck_assert_double_eq_tol(m.ns[term_expiry], 300, 1e-6);
	ck_assert_double_eq_tol(m.ns[term_visit], 20, 1e-6);
	ck_assert(m.fitted[term_run] && m.fitted[term_expiry] && m.fitted[term_visit]);
	ck_assert(!m.fitted[term_relink] && !m.fitted[term_cold_relink]);
	// Without noise every resample gives the same answer.
	ck_assert_double_eq_tol(m.low[term_expiry], 300, 1e-6);
	ck_assert_double_eq_tol(m.high[term_expiry], 300, 1e-6);
	ck_assert_uint_eq(m.draws.size(), 50);
}
END_TEST

// Unconstrained least squares would give visits a negative cost here (more
// visits, less time); the fit clamps it at 0 and refits the rest:
// y = 1000 + 100 e - 5 v on these points, the best non-negative answer
// drops visits and fits y on the run and expiry terms alone.
START_TEST(no_coefficient_goes_negative)
{
	std::vector<run_sample> s = {sample(0, 0, 0, 1000), sample(1, 10, 0, 1050),
				     sample(2, 0, 0, 1200), sample(3, 20, 0, 1200),
				     sample(1, 0, 0, 1100), sample(0, 10, 0, 950)};
	term_vector c = nnls(s, {true, true, true, false, false});
	for (double v : c)
		ck_assert(v >= 0);
	ck_assert_double_eq(c[term_visit], 0);
	// Least squares of y on (1, e) over the six points, worked by hand:
	// e = 0,1,2,3,1,0 (mean 7/6), y = 1000,1050,1200,1200,1100,950 (mean 1083.33);
	// Sxy = 8150 - 6 (7/6)(6500/6) = 1700/3, Sxx = 15 - 6 (7/6)^2 = 41/6
	// -> slope 3400/41, intercept 6500/6 - (3400/41)(7/6).
	ck_assert_double_eq_tol(c[term_expiry], 3400.0 / 41, 1e-6);
	ck_assert_double_eq_tol(c[term_run], 6500.0 / 6 - 3400.0 / 41 * 7 / 6, 1e-6);
}
END_TEST

START_TEST(a_prediction_says_which_terms_were_never_fitted)
{
	std::vector<run_sample> s;
	for (int e = 0; e < 5; e++)
		s.push_back(sample(e, 2 * e + 1, 0, 1000 + 250.0 * e));
	cost_model m = fit(s, 20, 7);
	prediction p = predict(m, {10, 30, 40, 0, 0});
	ck_assert(p.unfitted.empty());
	prediction q = predict(m, {10, 30, 40, 5, 2});
	ck_assert_uint_eq(q.unfitted.size(), 2);
	ck_assert_str_eq(q.unfitted[0].c_str(), "relink");
	ck_assert_str_eq(q.unfitted[1].c_str(), "cold_relink");
	ck_assert_double_eq(q.ns, p.ns);	// their cost is left out, not guessed
}
END_TEST

START_TEST(the_fit_is_deterministic_for_a_seed)
{
	std::vector<run_sample> s;
	std::uint64_t k = 12345;
	for (int i = 0; i < 300; i++) {
		k = k * 6364136223846793005ull + 1442695040888963407ull;
		double e = double((k >> 33) % 6), v = double((k >> 40) % 50);
		double noise = double((k >> 20) % 400) - 200;
		s.push_back(sample(e, v, 0, 2000 + 400 * e + 15 * v + noise));
	}
	cost_model a = fit(s, 100, 42), b = fit(s, 100, 42), c = fit(s, 100, 43);
	ck_assert_uint_eq(a.draws.size(), b.draws.size());
	for (std::size_t i = 0; i < a.draws.size(); i++)
		for (unsigned t = 0; t < model_terms; t++)
			ck_assert(a.draws[i][t] == b.draws[i][t]);
	bool differs = false;
	for (std::size_t i = 0; i < a.draws.size(); i++)
		differs = differs || a.draws[i][term_expiry] != c.draws[i][term_expiry];
	ck_assert(differs);
	// The interval holds the point estimate and is not empty with noise.
	ck_assert(a.low[term_expiry] <= a.ns[term_expiry] && a.ns[term_expiry] <= a.high[term_expiry]);
	ck_assert(a.low[term_expiry] < a.high[term_expiry]);
	ck_assert_double_eq_tol(a.ns[term_expiry], 400, 40);
}
END_TEST

// Errors of a model with c_run = 100, c_expiry = 10 on four runs whose
// measured overheads miss it by 5, -10, 20 and 0: |e| sorted 0, 5, 10, 20;
// median (nearest rank, 2 of 4) 5, p90 (rank 4 of 4) 20.
START_TEST(the_check_reports_per_run_and_total_error)
{
	cost_model m;
	m.ns = {100, 10, 0, 0, 0};
	m.fitted = {true, true, false, false, false};
	std::vector<run_sample> s = {sample(1, 0, 0, 115), sample(2, 0, 0, 110),
				     sample(0, 0, 0, 120), sample(3, 0, 0, 130)};
	model_check c = check(m, s);
	ck_assert_uint_eq(c.runs, 4);
	ck_assert_double_eq(c.median_abs_error_ns, 5);
	ck_assert_double_eq(c.p90_abs_error_ns, 20);
	ck_assert_double_eq(c.measured_ns, 475);
	ck_assert_double_eq(c.predicted_ns, 460);	// 4 * 100 + 6 * 10
}
END_TEST

START_TEST(samples_pair_each_run_with_its_work)
{
	std::vector<softirq_run> runs(2);
	runs[0].own_ns = 5000;
	runs[0].callbacks_ns = 3000;
	runs[1].own_ns = 900;
	std::vector<softirq_work> work(2);
	work[0].expiries = 2;
	work[0].slot_visits = 3;
	work[0].key_comparisons = 4;
	work[1].relinks = 6;
	work[1].cold_relinks = 1;
	std::vector<run_sample> s = samples_of(runs, work);
	ck_assert_uint_eq(s.size(), 2);
	ck_assert_double_eq(s[0].overhead_ns, 2000);
	ck_assert_double_eq(s[0].x[term_run], 1);
	ck_assert_double_eq(s[0].x[term_expiry], 2);
	ck_assert_double_eq(s[0].x[term_visit], 7);
	ck_assert_double_eq(s[1].x[term_relink], 6);
	ck_assert_double_eq(s[1].x[term_cold_relink], 1);
}
END_TEST

int main()
{
	Suite *s = suite_create("run_model");
	TCase *tc = tcase_create("run_model");
	tcase_add_test(tc, the_fit_recovers_known_coefficients);
	tcase_add_test(tc, no_coefficient_goes_negative);
	tcase_add_test(tc, a_prediction_says_which_terms_were_never_fitted);
	tcase_add_test(tc, the_fit_is_deterministic_for_a_seed);
	tcase_add_test(tc, the_check_reports_per_run_and_total_error);
	tcase_add_test(tc, samples_pair_each_run_with_its_work);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
