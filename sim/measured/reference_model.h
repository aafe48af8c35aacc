// The reference cost model that ships with timersim: what prices a trace
// that holds no TIMER softirq run, and the terms a recording never
// exercised. Fitted (state-scaled, sim/measured/calibration.h) on the
// recordings of this project's machine in tests/data, its interval the
// errors each of them showed when left out of the fit; the cascade terms
// (relink, cold_relink) from a microbenchmark of the kernel/ classic
// wheel's cascade (tests/bench/bench_relink.cc) within the bounds of the
// classic kernel's recording (../shared/traces/linux-3.6-scp_dest), the
// only one that cascades (reference_model.cc says which bound is whose).
// `timersim cost-model --reference` recomputes every figure here
// (scripts/cost-model.sh), and tests/unit/test_calibration.cc checks they
// are what fitting those recordings gives.
#pragma once

#include <string>
#include <vector>

#include "sim/measured/run_model.h"

namespace timersim::measured {

// One recording the reference was fitted on, or left out of it.
struct recording_runs {
	std::string path;
	std::vector<run_sample> samples;	// state-scaled (state_samples)
	double state_ns = 0;			// its mean timer-interrupt own time
};

// A left-out recording, predicted by a fit on the others.
struct left_out {
	std::string path;
	double state_ns = 0;
	double measured_ns = 0, predicted_ns = 0;
	double low_ns = 0, high_ns = 0;	// the interval the others' spread gives
};

struct reference_fit {
	cost_model model;	// fitted on every recording (bootstrap draws dropped)
	// The factors - 1 a new recording's measured / predicted may fall in:
	// the 95% prediction interval of the left-out recordings' log errors
	// (their mean +- t * sd * sqrt(1 + 1/n)); a prediction's interval is
	// PRED * (1 + low) .. PRED * (1 + high), each side at least PRED.
	double low_ratio = 0, high_ratio = 0;
	std::vector<left_out> rows;	// the leave-one-out checks
	std::vector<term_vector> loo_ns;	// their fits, in the order of rows
	double state_low_ns = 0, state_high_ns = 0;	// the recordings' states
};

// The reference over RECS (state-scaled samples): the fit on all of them,
// the leave-one-out rows (each predicted by a fit on the others, its
// interval the spread the others show among themselves) and the spread
// they show. Deterministic: no bootstrap.
reference_fit fit_reference(const std::vector<recording_runs> &recs);

// The interval a spread gives a prediction: PRED * (1 + low) .. PRED * (1 + high).
void spread_interval(double pred, double low_ratio, double high_ratio, double &low, double &high);

// The built-in reference (the figures fit_reference gave on tests/data,
// the cascade terms of the classic recording's fit).
const reference_fit &builtin_reference();

}  // namespace timersim::measured
