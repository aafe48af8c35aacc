// The cost model of a TIMER softirq run: what the timer code's own
// overhead in a run (its time less its callbacks', measured) is, given
// what the scheme did in it (counted by the replay).
//
//   overhead_ns = c_run                      a fixed cost per run (entry,
//                                            locking, clock reads, exit)
//               + c_expiry      * expiries   unlinking and calling a timer
//               + c_visit       * visits     slots, buckets and nodes looked
//                                            at, key comparisons
//               + c_relink      * relinks    a timer moved by a cascade
//               + c_cold_relink * cold       of those, timers untouched for
//                                            a second: cold cache lines
//
// The coefficients are fitted by least squares under the constraint that
// none is negative (a cost), on the recorded runs of one or more traces,
// and bootstrapped (runs resampled with a fixed seed) for an interval.
// A term the fitted runs never exercised (v48 never cascades) cannot be
// fitted: it is reported as such, and a prediction that needs it says so.
//
// The measurement is made with tracing on: the expiry term carries the
// cost of the expire entry/exit tracepoints themselves.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/measured/cpu_time.h"
#include "sim/measured/softirq_work.h"

namespace timersim::measured {

constexpr unsigned model_terms = 5;
enum model_term : unsigned { term_run, term_expiry, term_visit, term_relink, term_cold_relink };
const char *model_term_name(unsigned term);	// "run", "expiry", ...

using term_vector = std::array<double, model_terms>;

// A run's work as the model's terms (runs = 1 for one recorded run; for a
// scheme's totals, its runs that did work).
term_vector terms_of(const softirq_work &w, double runs);

struct cost_model {
	term_vector ns{};		// fitted ns per unit
	term_vector low{}, high{};	// 95% bootstrap interval of each
	std::array<bool, model_terms> fitted{};	// the runs exercised the term
	std::vector<term_vector> draws;	// the bootstrap's coefficient vectors
	std::uint64_t runs = 0;		// runs fitted on
	std::uint64_t seed = 0;
	std::vector<std::string> sources;	// the traces fitted on
};

// One recorded run paired with the scheme's work in it.
struct run_sample {
	term_vector x{};
	double overhead_ns = 0;
};

std::vector<run_sample> samples_of(const std::vector<softirq_run> &runs,
				   const std::vector<softirq_work> &work);

// Fits the model; `resamples` bootstrap rounds drawn with `seed`. The same
// samples and seed give the same model, bit for bit.
cost_model fit(const std::vector<run_sample> &samples, unsigned resamples, std::uint64_t seed);

// The prediction for `x`, and its interval over the bootstrap draws.
struct prediction {
	double ns = 0, low = 0, high = 0;
	// Terms x needs that the model could not fit (their cost is left out).
	std::vector<std::string> unfitted;
};
prediction predict(const cost_model &m, const term_vector &x);

// How well the model predicts recorded runs it was (or was not) fitted on.
struct model_check {
	std::uint64_t runs = 0;
	double median_abs_error_ns = 0;	// per run, |predicted - measured|
	double p90_abs_error_ns = 0;
	double measured_ns = 0;		// overhead over every run
	double predicted_ns = 0;
	double predicted_low_ns = 0, predicted_high_ns = 0;
};
model_check check(const cost_model &m, const std::vector<run_sample> &samples);

// The normal equations of samples: Gram matrix, right side and the sum of
// squares, from which every subset's fit and residual follow. They add
// over sets of samples, and samples whose work is scaled by k (a stretch
// priced at its state) add k^2 G and k b: a fit on any union of stretches
// at any scale needs no pass over the samples.
struct normal_equations {
	double g[model_terms][model_terms] = {};
	double b[model_terms] = {};
	double yy = 0;
	void add(const run_sample &r, double k);
	void add(const normal_equations &o, double k);
	// add(r, 1.0) with each product of G computed once, into its upper
	// triangle (the bootstrap adds millions of draws); mirror() after the
	// last such add copies it below, and every entry then holds what
	// add(r, 1.0) would have put there, bit for bit (x_i x_j = x_j x_i
	// exactly, and 1 * 1 * x = x).
	void add(const run_sample &r);
	void mirror();
	// The terms the samples exercised (a fit's `fitted`).
	bool exercised(unsigned t) const { return g[t][t] > 0; }
};
normal_equations normal_of(const std::vector<run_sample> &samples);

// The non-negative least-squares solution of min |A c - y| (A: rows of
// terms) over the terms `use` marks; exact, by the active sets of so few
// terms. The samples' form exposed for tests.
term_vector nnls(const std::vector<run_sample> &samples, const std::array<bool, model_terms> &use);
term_vector nnls(const normal_equations &n, const std::array<bool, model_terms> &use);

}  // namespace timersim::measured
