#include "sim/measured/calibration.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sim/measured/reference_model.h"

namespace timersim::measured {

namespace {

double priced_dot(const term_vector &c, const term_vector &x)
{
	double v = 0;
	for (unsigned t = 0; t < model_terms; t++)
		v += c[t] * x[t];
	return v;
}

term_vector sum_x(const std::vector<run_sample> &s, std::size_t from, std::size_t to)
{
	term_vector x{};
	for (std::size_t i = from; i < to; i++)
		for (unsigned t = 0; t < model_terms; t++)
			x[t] += s[i].x[t];
	return x;
}

double sum_y(const std::vector<run_sample> &s, std::size_t from, std::size_t to)
{
	double y = 0;
	for (std::size_t i = from; i < to; i++)
		y += s[i].overhead_ns;
	return y;
}

std::string percent_text(double f) { return fmt::format("{:.0f}%", f * 100); }

}  // namespace

double state_scale(double state_ns) { return state_ns > 0 ? state_ns / reference_state_ns : 1.0; }

std::vector<run_sample> state_samples(const std::vector<run_sample> &samples, double state_ns)
{
	std::vector<run_sample> s(samples);
	const double k = state_scale(state_ns);
	for (run_sample &r : s)
		for (double &x : r.x)
			x *= k;
	return s;
}

std::string verdict::text() const
{
	return (within() ? "within " : "off by more than ") + percent_text(tolerance);
}

verdict judge(double measured_ns, double predicted_ns, double tolerance)
{
	verdict v;
	v.measured_ns = measured_ns;
	v.predicted_ns = predicted_ns;
	v.tolerance = tolerance;
	return v;
}

std::vector<double> stretch_states(const std::vector<softirq_run> &runs, const std::vector<interrupt_cost> &interrupts,
				   unsigned blocks)
{
	std::vector<double> states(blocks, 1.0);
	const std::size_t n = runs.size();
	if (n < blocks || interrupts.empty())
		return states;
	double all = 0;
	for (const interrupt_cost &i : interrupts)
		all += double(i.overhead_ns);
	all /= double(interrupts.size());
	if (all <= 0)
		return states;
	// Interrupts are in trace order: one pass, block by block.
	std::size_t k = 0;
	for (unsigned b = 0; b < blocks; b++) {
		const std::size_t from = n * b / blocks, to = n * (b + 1) / blocks;
		const std::uint64_t first = runs[from].entry_ns, last = runs[to - 1].exit_ns;
		double sum = 0, count = 0;
		while (k < interrupts.size() && interrupts[k].entry_ns < first)
			k++;
		for (std::size_t j = k; j < interrupts.size() && interrupts[j].entry_ns <= last; j++) {
			sum += double(interrupts[j].overhead_ns);
			count++;
		}
		if (count > 0 && sum > 0)
			states[b] = sum / count / all;
	}
	return states;
}

namespace {

// The runs [from, to) of each block, as the cross-validation cuts them.
struct block_cut {
	std::vector<std::size_t> from, to;
	block_cut(std::size_t n, unsigned blocks)
	{
		for (unsigned b = 0; b < blocks; b++) {
			from.push_back(n * b / blocks);
			to.push_back(n * (b + 1) / blocks);
		}
	}
};

// The samples of BLOCKS, each block's work priced at its state^e.
std::vector<run_sample> at_state(const std::vector<run_sample> &samples, const block_cut &cut,
				 const std::vector<double> &states, const std::vector<unsigned> &blocks, double e)
{
	std::vector<run_sample> s;
	for (unsigned b : blocks) {
		const double k = std::pow(states[b], e);
		for (std::size_t i = cut.from[b]; i < cut.to[b]; i++) {
			run_sample r = samples[i];
			for (double &x : r.x)
				x *= k;
			s.push_back(r);
		}
	}
	return s;
}

// Block B's overhead by M at its state^e.
double block_prediction(const cost_model &m, const std::vector<run_sample> &samples, const block_cut &cut,
			const std::vector<double> &states, unsigned b, double e)
{
	return priced_dot(m.ns, sum_x(samples, cut.from[b], cut.to[b])) * std::pow(states[b], e);
}

// The elasticity under which BLOCKS, each held out of a fit on the others,
// are predicted best (least squared relative error; the lowest on a tie).
double choose_elasticity(const std::vector<run_sample> &samples, const block_cut &cut,
			 const std::vector<double> &states, const std::vector<unsigned> &blocks)
{
	bool varies = false;
	for (unsigned b : blocks)
		varies = varies || states[b] != 1.0;
	if (!varies || blocks.size() < 3)
		return 0;
	double best = 0, best_error = -1;
	for (double e : state_elasticities) {
		double error = 0;
		for (unsigned h : blocks) {
			std::vector<unsigned> rest;
			for (unsigned b : blocks)
				if (b != h)
					rest.push_back(b);
			const cost_model m = fit(at_state(samples, cut, states, rest, e), 0, calibration_seed);
			const double y = sum_y(samples, cut.from[h], cut.to[h]);
			const double p = block_prediction(m, samples, cut, states, h, e);
			if (y > 0)
				error += (p - y) * (p - y) / (y * y);
		}
		if (best_error < 0 || error < best_error) {
			best_error = error;
			best = e;
		}
	}
	return best;
}

}  // namespace

cross_validation blocked_cross_validation(const std::vector<run_sample> &samples,
					  const std::vector<softirq_run> &runs, const std::vector<double> &states_in,
					  unsigned blocks, double tolerance)
{
	cross_validation cv;
	const std::size_t n = std::min(samples.size(), runs.size());
	if (n < blocks || blocks < 2)
		return cv;
	const std::vector<double> states = states_in.size() == blocks ? states_in : std::vector<double>(blocks, 1.0);
	const block_cut cut(n, blocks);
	std::vector<unsigned> all;
	for (unsigned b = 0; b < blocks; b++)
		all.push_back(b);
	cv.elasticity = choose_elasticity(samples, cut, states, all);
	double measured = 0, predicted = 0;
	bool first = true;
	for (unsigned b = 0; b < blocks; b++) {
		std::vector<unsigned> rest;
		for (unsigned o : all)
			if (o != b)
				rest.push_back(o);
		cv_block k;
		k.state = states[b];
		k.elasticity = choose_elasticity(samples, cut, states, rest);
		const cost_model m = fit(at_state(samples, cut, states, rest, k.elasticity), 0, calibration_seed);
		cv.fold_ns.push_back(m.ns);
		k.first_ns = runs[cut.from[b]].entry_ns;
		k.last_ns = runs[cut.to[b] - 1].exit_ns;
		k.runs = cut.to[b] - cut.from[b];
		k.v = judge(sum_y(samples, cut.from[b], cut.to[b]),
			    block_prediction(m, samples, cut, states, b, k.elasticity), tolerance);
		cv.blocks_within += k.v.within();
		measured += k.v.measured_ns;
		predicted += k.v.predicted_ns;
		if (k.v.predicted_ns > 0) {
			const double r = k.v.measured_ns / k.v.predicted_ns - 1;
			cv.low_ratio = first ? r : std::min(cv.low_ratio, r);
			cv.high_ratio = first ? r : std::max(cv.high_ratio, r);
			first = false;
		}
		cv.blocks.push_back(k);
	}
	cv.whole = judge(measured, predicted, tolerance);
	return cv;
}

const char *model_source_name(model_source s)
{
	switch (s) {
	case model_source::self:
		return "self-calibrated";
	case model_source::reference:
		return "reference";
	case model_source::file:
		return "file";
	}
	return "?";
}

priced price(const calibrated_model &m, const term_vector &x)
{
	priced p;
	term_vector own{}, lent{};
	for (unsigned t = 0; t < model_terms; t++) {
		if (x[t] == 0)
			continue;
		if (m.borrowed[t]) {
			lent[t] = x[t] * m.borrowed_scale;
			p.borrowed.push_back(model_term_name(t));
		} else if (m.model.fitted[t]) {
			own[t] = x[t] * m.scale;
		} else {
			p.unfitted.push_back(model_term_name(t));
		}
	}
	const reference_fit &ref = builtin_reference();
	const double own_ns = priced_dot(m.model.ns, own);
	double own_low, own_high;
	spread_interval(own_ns, m.low_ratio, m.high_ratio, own_low, own_high);
	// Never narrower than the fit's own noise, where it was bootstrapped.
	if (!m.model.draws.empty()) {
		prediction b = predict(m.model, own);
		own_low = std::min(own_low, b.low);
		own_high = std::max(own_high, b.high);
	}
	p.borrowed_ns = priced_dot(ref.model.ns, lent);
	double lent_low, lent_high;
	spread_interval(priced_dot(ref.model.low, lent), m.borrowed_low_ratio, 0, lent_low, lent_high);
	double unused;
	spread_interval(priced_dot(ref.model.high, lent), 0, m.borrowed_high_ratio, unused, lent_high);
	p.ns = own_ns + p.borrowed_ns;
	for (const term_vector &f : m.folds)
		p.folds.push_back(priced_dot(f, own) + p.borrowed_ns);
	p.low = own_low + lent_low;
	p.high = own_high + lent_high;
	return p;
}

namespace {

// Terms this model did not fit, the reference did: borrowed.
void borrow(calibrated_model &c)
{
	const reference_fit &ref = builtin_reference();
	for (unsigned t = 0; t < model_terms; t++)
		c.borrowed[t] = !c.model.fitted[t] && ref.model.fitted[t];
	c.borrowed_low_ratio = std::min(0.0, ref.low_ratio);
	c.borrowed_high_ratio = std::max(0.0, ref.high_ratio);
}

}  // namespace

calibrated_model self_calibrate(const std::vector<softirq_run> &runs, const std::vector<softirq_work> &work,
				const std::vector<interrupt_cost> &interrupts, double state_ns,
				const std::string &source)
{
	calibrated_model c;
	c.source = model_source::self;
	c.state_ns = state_ns;
	// The recording prices itself at its own mean state (scale 1), each
	// stretch fitted at its own (the cross-validation's elasticity);
	// borrowed terms are scaled to this state.
	c.scale = 1;
	c.borrowed_scale = state_scale(state_ns);
	const std::vector<run_sample> s = samples_of(runs, work);
	const std::vector<double> states = stretch_states(runs, interrupts);
	c.cv = blocked_cross_validation(s, runs, states);
	c.cross_validated = !c.cv.blocks.empty();
	c.elasticity = c.cv.elasticity;
	c.folds = c.cv.fold_ns;
	std::vector<run_sample> fitted = s;
	if (c.cross_validated && c.elasticity != 0) {
		std::vector<unsigned> all;
		for (unsigned b = 0; b < cv_blocks; b++)
			all.push_back(b);
		fitted = at_state(s, block_cut(std::min(s.size(), runs.size()), cv_blocks), states, all, c.elasticity);
	}
	c.model = fit(fitted, calibration_resamples, calibration_seed);
	c.model.sources = {source};
	c.sources = {source};
	c.low_ratio = std::min(0.0, c.cv.low_ratio);
	c.high_ratio = std::max(0.0, c.cv.high_ratio);
	c.interval_from = c.cross_validated
		? "the bootstrap of the fit and the errors of the " + std::to_string(c.cv.blocks.size()) +
			  " held-out blocks (" + percent_text(c.cv.low_ratio) + " .. " + percent_text(c.cv.high_ratio) + ")"
		: "the bootstrap of the fit (too few runs to hold blocks out)";
	borrow(c);
	return c;
}

calibrated_model reference_calibration(double state_ns)
{
	const reference_fit &ref = builtin_reference();
	calibrated_model c;
	c.source = model_source::reference;
	c.model = ref.model;
	c.sources = ref.model.sources;
	// The left-out fits' v48 terms; the cascade terms are the reference's.
	for (term_vector f : ref.loo_ns) {
		for (unsigned t = term_relink; t < model_terms; t++)
			f[t] = ref.model.ns[t];
		c.folds.push_back(f);
	}
	c.state_ns = state_ns;
	c.scale = c.borrowed_scale = state_scale(state_ns);
	c.low_ratio = std::min(0.0, ref.low_ratio);
	c.high_ratio = std::max(0.0, ref.high_ratio);
	c.interval_from = "the errors of the reference's " + std::to_string(ref.model.sources.size()) +
			  " recordings each left out of its fit (" + percent_text(ref.low_ratio) + " .. " +
			  percent_text(ref.high_ratio) + ")";
	if (state_ns <= 0) {
		// No interrupt recorded: the state is unknown, anywhere between
		// the reference recordings' states.
		const double lo = ref.state_low_ns / reference_state_ns, hi = ref.state_high_ns / reference_state_ns;
		c.low_ratio = (1 + c.low_ratio) * std::min(1.0, lo) - 1;
		c.high_ratio = (1 + c.high_ratio) * std::max(1.0, hi) - 1;
		c.interval_from += ", widened by the states of those recordings (timer interrupts of " +
				   fmt::format("{:.1f} .. {:.1f} us", ref.state_low_ns / 1e3, ref.state_high_ns / 1e3) +
				   ": this trace recorded none)";
	}
	c.borrowed = {};
	c.borrowed_low_ratio = c.low_ratio;
	c.borrowed_high_ratio = c.high_ratio;
	return c;
}

calibrated_model file_calibration(const cost_model &m, double state_ns)
{
	calibrated_model c;
	c.source = model_source::file;
	c.model = m;
	c.sources = m.sources;
	// A model file is priced as it was fitted: with no state term.
	c.state_ns = state_ns;
	c.scale = 1;
	c.interval_from = "the bootstrap of the file's fit";
	return c;
}

}  // namespace timersim::measured
