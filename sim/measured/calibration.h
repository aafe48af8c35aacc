// The cost model a replay prices every scheme with, and how sure it is.
//
// Where the trace holds its TIMER softirq runs, the model is fitted on that
// recording's own runs (its machine, its load, its caches) and checked by
// blocked cross-validation over time: the runs in trace order are cut into
// `cv_blocks` contiguous stretches of equal run count; each is predicted by
// a fit on the others. Terms the recording's kernel never exercised (v48
// never cascades) are borrowed from the reference model. Without runs, the
// reference model (sim/measured/reference_model.h) prices everything.
//
// The state: the same code costs more on a loaded machine. A recording's
// state is its timer interrupts' mean own time; the reference's
// coefficients are priced at reference_state_ns (each recording's work
// scaled by its state / reference before the fit), so that the reference
// carries to another machine's load: left out of the reference fit, the
// recordings of tests/data were predicted within -34% .. +14% scaled, +50%
// .. -37% not. Within one recording the model follows the state of each
// stretch: a stretch's state is its timer interrupts' mean overhead (own
// time less the callbacks run in them: the tick's own work left out, which
// followed the tick more than the machine) over the whole recording's, and
// its runs' work is priced x state^elasticity. The elasticity is chosen
// from a small grid by cross-validation over the stretches (0: the state
// does not help this recording), never fitted on the stretch it predicts.
//
// An interval is never a fit's noise alone: a self-calibrated prediction's
// interval spans the bootstrap and the errors the held-out blocks showed;
// the reference's spans the errors its own recordings showed when each was
// left out of its fit (leave-one-out); a borrowed term's widens by the
// reference's spread.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/measured/cpu_time.h"
#include "sim/measured/run_model.h"

namespace timersim::measured {

// The state the coefficients are priced at: a timer interrupt of 10 us own
// time, about what this project's machine showed idle.
constexpr double reference_state_ns = 10000;
constexpr unsigned cv_blocks = 5;
constexpr double default_tolerance = 0.15;
constexpr unsigned calibration_resamples = 200;
constexpr std::uint64_t calibration_seed = 1;
// The elasticities of the stretch state the cross-validation chooses
// from: cost ~ state^e.
constexpr double state_elasticities[] = {0, 0.25, 0.5, 0.75, 1.0, 1.5};

// The factor a stretch's work is scaled by: its state over the reference's
// (1 when the state is unknown: no timer interrupt recorded).
double state_scale(double state_ns);

// A recording's samples with each run's work scaled by the recording's
// state (its mean timer-interrupt own time): the reference's samples.
std::vector<run_sample> state_samples(const std::vector<run_sample> &samples, double state_ns);

// Measured against predicted: the error as a fraction of the measured
// (+0.1: predicted 10% too high), judged against a tolerance.
struct verdict {
	double measured_ns = 0, predicted_ns = 0;
	double tolerance = default_tolerance;
	double error() const { return measured_ns > 0 ? (predicted_ns - measured_ns) / measured_ns : 0.0; }
	bool within() const { return error() <= tolerance && error() >= -tolerance; }
	// "within 15%" / "off by more than 15%"
	std::string text() const;
};
verdict judge(double measured_ns, double predicted_ns, double tolerance = default_tolerance);

struct cv_block {
	std::uint64_t first_ns = 0, last_ns = 0;	// the stretch of trace time
	std::uint64_t runs = 0;
	double state = 1;	// its timer interrupts' mean overhead over the recording's
	double elasticity = 0;	// the one the other blocks chose among themselves
	verdict v;		// its overhead, by a fit on the other blocks
};
struct cross_validation {
	std::vector<cv_block> blocks;
	verdict whole;		// the blocks' predictions summed against the whole trace
	// Of the blocks, the lowest and highest measured/predicted - 1 (the
	// factors a held-out stretch was off by): the self-calibrated interval.
	double low_ratio = 0, high_ratio = 0;
	unsigned blocks_within = 0;
	// The elasticity the blocks choose together: the model's.
	double elasticity = 0;
	// Each block's held-out fit (the terms at the recording's mean state).
	std::vector<term_vector> fold_ns;
};

// Each block's state (the runs cut as the cross-validation cuts them):
// the mean overhead of the timer INTERRUPTS inside its stretch over that of
// all of them; 1 where a stretch holds none, or none were recorded.
std::vector<double> stretch_states(const std::vector<softirq_run> &runs, const std::vector<interrupt_cost> &interrupts,
				   unsigned blocks = cv_blocks);

// SAMPLES in trace order, paired with RUNS; STATES per block
// (stretch_states; empty: all 1). Each block is predicted by a fit on the
// others at the elasticity those others choose among themselves (each of
// them held out in turn).
cross_validation blocked_cross_validation(const std::vector<run_sample> &samples,
					  const std::vector<softirq_run> &runs,
					  const std::vector<double> &states = {}, unsigned blocks = cv_blocks,
					  double tolerance = default_tolerance);

// The model of one replay, for every scheme in it.
enum class model_source : std::uint8_t { self, reference, file };
const char *model_source_name(model_source s);	// "self-calibrated", "reference", "file"

struct calibrated_model {
	model_source source = model_source::reference;
	cost_model model;	// its fitted terms, at reference_state_ns
	// Terms taken from the reference model because the recording never
	// exercised them (scaled by the recording's state like the others).
	std::array<bool, model_terms> borrowed{};
	double state_ns = 0;		// the trace's state (mean timer-interrupt own time; 0: unknown)
	// Self-calibrated: each stretch's runs were fitted at state^elasticity
	// (cv.blocks[].state): the terms are the recording's mean state's.
	double elasticity = 0;
	// What its own terms' work is scaled by (the reference's: the state;
	// a self-calibrated model's: 1, it is priced at its own state), and
	// the borrowed terms' (the state).
	double scale = 1, borrowed_scale = 1;
	// A prediction's interval, as factors of it: its own terms' (the
	// held-out blocks' errors, or the reference's leave-one-out spread,
	// never narrower than the bootstrap), a borrowed term's.
	double low_ratio = 0, high_ratio = 0;
	double borrowed_low_ratio = 0, borrowed_high_ratio = 0;
	std::string interval_from;	// how the interval was got, in words
	// The held-out fits (self-calibrated: the cross-validation's blocks;
	// reference: each recording left out), priced like `model`: a ratio of
	// two schemes priced by this one model is as sure as the fits agree on
	// it (a level error common to both cancels in the ratio).
	std::vector<term_vector> folds;
	bool cross_validated = false;
	cross_validation cv;
	std::vector<std::string> sources;	// the recordings fitted on
};

// The scheme's work X (terms_of its totals) priced.
struct priced {
	double ns = 0, low = 0, high = 0;
	double borrowed_ns = 0;		// of ns, by borrowed terms
	std::vector<std::string> borrowed;	// their names
	std::vector<std::string> unfitted;	// terms nobody could price (left out)
	std::vector<double> folds;	// ns by each of the model's folds
};
priced price(const calibrated_model &m, const term_vector &x);

// Fitted on the recording's RUNS (paired with its kernel's scheme's WORK);
// STATE_NS the trace's mean timer-interrupt own time (0: not recorded);
// INTERRUPTS its timer interrupts in trace order (the stretches' state).
calibrated_model self_calibrate(const std::vector<softirq_run> &runs, const std::vector<softirq_work> &work,
				const std::vector<interrupt_cost> &interrupts, double state_ns,
				const std::string &source);
// The built-in reference at the trace's state.
calibrated_model reference_calibration(double state_ns);
// A model file's, as given (no state term unless it carries one).
calibrated_model file_calibration(const cost_model &m, double state_ns);

}  // namespace timersim::measured
