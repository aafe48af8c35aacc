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
// stretch, read three ways from what the stretch measured other than the
// TIMER runs' overhead being predicted (state_measure): its timer
// interrupts' overhead, the same compared only with interrupts of the same
// first callback, and its callbacks' own times compared with the same
// function's. Each measure prices a stretch's work x state^elasticity, its
// elasticity chosen from a small grid by cross-validation over the other
// stretches (0: that measure does not help this recording), never on the
// stretch it predicts; a stretch's prediction is the mean of the measures'
// (one measure alone read noise for the state on some recording: the
// interrupts missed a network recording's load by 27%, the callbacks a
// quiet one's by 23%; their mean missed neither by more than 15%).
//
// An interval is never a fit's noise alone: a self-calibrated prediction's
// interval spans the bootstrap and the errors the held-out blocks showed;
// the reference's spans the errors its own recordings showed when each was
// left out of its fit (leave-one-out); a borrowed term's widens by the
// reference's spread.
#pragma once

#include <array>
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

// What a stretch's state is read from. Each is a mean of ratios, every
// event's measured time over the recording's mean of its kind, so that a
// stretch that ran other work than the rest is not taken for a dearer one:
//   interrupts        each timer interrupt's overhead (own time less the
//                     callbacks run in it: the tick's own work left out,
//                     which followed the tick more than the machine) over
//                     all interrupts' mean
//   interrupt_causes  the same over the mean of the interrupts that ran
//                     the same first callback (or none)
//   callbacks         each callback run's own time over the mean of the
//                     same function in the same context (TIMER or HRTIMER
//                     softirq, hard irq, other): not the TIMER runs'
//                     overhead the model predicts, which excludes them
enum state_measure : unsigned { state_interrupts, state_interrupt_causes, state_callbacks };
constexpr unsigned state_measures = 3;
const char *state_measure_name(unsigned m);	// "interrupts", "interrupt_causes", "callbacks"

// [measure][block]: each block's state by each measure (the runs cut as
// the cross-validation cuts them), 1 where a stretch holds no such event.
using stretch_state_table = std::array<std::vector<double>, state_measures>;
stretch_state_table stretch_states(const std::vector<softirq_run> &runs, const std::vector<interrupt_cost> &interrupts,
				   const std::vector<callback_time> &callbacks, unsigned blocks = cv_blocks);

struct cv_block {
	std::uint64_t first_ns = 0, last_ns = 0;	// the stretch of trace time
	std::uint64_t runs = 0;
	std::array<double, state_measures> states{1, 1, 1};	// by each measure
	// Each measure's, chosen by the other blocks among themselves (0 for
	// a measure not used).
	std::array<double, state_measures> elasticities{};
	verdict v;		// its overhead, by fits on the other blocks
};
struct cross_validation {
	std::vector<cv_block> blocks;
	verdict whole;		// the blocks' predictions summed against the whole trace
	// Of the blocks, the lowest and highest measured/predicted - 1 (the
	// factors a held-out stretch was off by): the self-calibrated interval.
	double low_ratio = 0, high_ratio = 0;
	unsigned blocks_within = 0;
	// The measures a block's prediction is the mean of: those the
	// recording's stretches differ by (none: the state is left out).
	std::array<bool, state_measures> used{};
	// The elasticities the blocks choose together: the model's.
	std::array<double, state_measures> elasticities{};
	// Each block's held-out fit (the terms at the recording's mean state:
	// the mean of the measures' fits).
	std::vector<term_vector> fold_ns;
};

// SAMPLES in trace order, paired with RUNS; STATES per measure and block
// (stretch_states; a measure with no states or all 1 is not used, the
// callbacks not without the interrupts). Each
// block is predicted, for each measure used, by a fit on the others at the
// elasticity those others choose among themselves (each of them held out
// in turn); its prediction is the mean of the measures'.
cross_validation blocked_cross_validation(const std::vector<run_sample> &samples,
					  const std::vector<softirq_run> &runs,
					  const stretch_state_table &states = {}, unsigned blocks = cv_blocks,
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
	// Self-calibrated: for each measure used, the runs of each stretch
	// were fitted at its state^elasticity (cv.blocks[].states), and the
	// terms are the mean of those fits: the recording's mean state's.
	std::array<double, state_measures> elasticities{};
	// Each used measure's fit, by cv.used (what a stretch's work is
	// priced with: stretch_price).
	std::vector<term_vector> measure_ns;
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

// Work X done in the cross-validation's stretch BLOCK priced at that
// stretch's state (a self-calibrated model's; else price(m, x).ns): the
// mean over the measures used of each one's fit x state^elasticity.
double stretch_price(const calibrated_model &m, unsigned block, const term_vector &x);

// Fitted on the recording's RUNS (paired with its kernel's scheme's WORK);
// STATE_NS the trace's mean timer-interrupt own time (0: not recorded);
// INTERRUPTS and CALLBACKS what it measured besides (the stretches' state).
calibrated_model self_calibrate(const std::vector<softirq_run> &runs, const std::vector<softirq_work> &work,
				const std::vector<interrupt_cost> &interrupts,
				const std::vector<callback_time> &callbacks, double state_ns,
				const std::string &source);
// The built-in reference at the trace's state.
calibrated_model reference_calibration(double state_ns);
// A model file's, as given (no state term unless it carries one).
calibrated_model file_calibration(const cost_model &m, double state_ns);

}  // namespace timersim::measured
