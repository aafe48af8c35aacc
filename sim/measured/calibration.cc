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

cross_validation blocked_cross_validation(const std::vector<run_sample> &samples,
					  const std::vector<softirq_run> &runs, unsigned blocks, double tolerance)
{
	cross_validation cv;
	const std::size_t n = std::min(samples.size(), runs.size());
	if (n < blocks || blocks < 2)
		return cv;
	double measured = 0, predicted = 0;
	bool first = true;
	for (unsigned b = 0; b < blocks; b++) {
		const std::size_t from = n * b / blocks, to = n * (b + 1) / blocks;
		std::vector<run_sample> rest(samples.begin(), samples.begin() + std::ptrdiff_t(from));
		rest.insert(rest.end(), samples.begin() + std::ptrdiff_t(to), samples.begin() + std::ptrdiff_t(n));
		const cost_model m = fit(rest, 0, calibration_seed);
		cv_block k;
		k.first_ns = runs[from].entry_ns;
		k.last_ns = runs[to - 1].exit_ns;
		k.runs = to - from;
		k.v = judge(sum_y(samples, from, to), priced_dot(m.ns, sum_x(samples, from, to)), tolerance);
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
				double state_ns, const std::string &source)
{
	calibrated_model c;
	c.source = model_source::self;
	c.state_ns = state_ns;
	// The recording prices itself at its own state: no scaling. (Scaling
	// each run by its stretch's interrupts, measured on the recordings of
	// tests/data, made held-out blocks worse, not better: -35% where
	// unscaled was -4%. The interrupts' time follows the tick's own work
	// more than the softirq's.) Borrowed terms are scaled to this state.
	c.scale = 1;
	c.borrowed_scale = state_scale(state_ns);
	const std::vector<run_sample> s = samples_of(runs, work);
	c.model = fit(s, calibration_resamples, calibration_seed);
	c.model.sources = {source};
	c.sources = {source};
	c.cv = blocked_cross_validation(s, runs);
	c.cross_validated = !c.cv.blocks.empty();
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
