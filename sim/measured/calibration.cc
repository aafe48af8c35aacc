#include "sim/measured/calibration.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

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

const char *state_measure_name(unsigned m)
{
	static const char *const names[state_measures] = {"interrupts", "interrupt_causes", "callbacks"};
	return m < state_measures ? names[m] : "?";
}

namespace {

// One event the state is read from: when it began, and its time over the
// mean of its kind.
struct timed_ratio {
	std::uint64_t at_ns;
	double ratio;
};

// Each event (at, kind, ns) as its time over its kind's mean, in time
// order (kinds whose mean is 0 left out).
std::vector<timed_ratio> ratios(std::vector<std::tuple<std::uint64_t, std::uint64_t, double>> events)
{
	std::map<std::uint64_t, std::pair<double, double>> kinds;	// sum, count
	for (const auto &[at, kind, ns] : events) {
		auto &k = kinds[kind];
		k.first += ns;
		k.second++;
	}
	std::vector<timed_ratio> r;
	r.reserve(events.size());
	for (const auto &[at, kind, ns] : events) {
		const auto &k = kinds[kind];
		if (k.first > 0)
			r.push_back({at, ns / (k.first / k.second)});
	}
	std::stable_sort(r.begin(), r.end(),
			 [](const timed_ratio &a, const timed_ratio &b) { return a.at_ns < b.at_ns; });
	return r;
}

// Each block's mean ratio over the events inside its stretch of time.
std::vector<double> block_means(const std::vector<softirq_run> &runs, const std::vector<timed_ratio> &r,
				unsigned blocks)
{
	std::vector<double> states(blocks, 1.0);
	const std::size_t n = runs.size();
	if (n < blocks)
		return states;
	for (unsigned b = 0; b < blocks; b++) {
		const std::uint64_t first = runs[n * b / blocks].entry_ns, last = runs[n * (b + 1) / blocks - 1].exit_ns;
		auto it = std::lower_bound(r.begin(), r.end(), first,
					   [](const timed_ratio &e, std::uint64_t t) { return e.at_ns < t; });
		double sum = 0, count = 0;
		for (; it != r.end() && it->at_ns <= last; ++it) {
			sum += it->ratio;
			count++;
		}
		if (count > 0 && sum > 0)
			states[b] = sum / count;
	}
	return states;
}

}  // namespace

stretch_state_table stretch_states(const std::vector<softirq_run> &runs, const std::vector<interrupt_cost> &interrupts,
				   const std::vector<callback_time> &callbacks, unsigned blocks)
{
	std::vector<std::tuple<std::uint64_t, std::uint64_t, double>> all, causes, cbs;
	for (const interrupt_cost &i : interrupts) {
		all.emplace_back(i.entry_ns, 0, double(i.overhead_ns));
		causes.emplace_back(i.entry_ns, i.first_callback, double(i.overhead_ns));
	}
	for (const callback_time &c : callbacks)
		cbs.emplace_back(c.entry_ns, std::uint64_t(c.function) << 8 | std::uint64_t(c.where), double(c.own_ns));
	stretch_state_table t;
	t[state_interrupts] = block_means(runs, ratios(std::move(all)), blocks);
	t[state_interrupt_causes] = block_means(runs, ratios(std::move(causes)), blocks);
	t[state_callbacks] = block_means(runs, ratios(std::move(cbs)), blocks);
	return t;
}

namespace {

// The runs [from, to) of each block, as the cross-validation cuts them,
// and each block's sums: a fit on any blocks at any states is then made
// from them, with no pass over the runs.
struct block_cut {
	std::vector<std::size_t> from, to;
	std::vector<normal_equations> normal;
	std::vector<term_vector> x;
	std::vector<double> y;
	block_cut(const std::vector<run_sample> &samples, std::size_t n, unsigned blocks)
	{
		for (unsigned b = 0; b < blocks; b++) {
			from.push_back(n * b / blocks);
			to.push_back(n * (b + 1) / blocks);
			normal_equations e;
			for (std::size_t i = from[b]; i < to[b]; i++)
				e.add(samples[i]);
			e.mirror();
			normal.push_back(e);
			x.push_back(sum_x(samples, from[b], to[b]));
			y.push_back(sum_y(samples, from[b], to[b]));
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

// The terms fitted on BLOCKS, each block's work priced at its state^e (as
// fit() on at_state()'s samples, without the bootstrap).
term_vector fit_blocks(const block_cut &cut, const std::vector<double> &states, const std::vector<unsigned> &blocks,
		       double e)
{
	normal_equations n;
	for (unsigned b : blocks)
		n.add(cut.normal[b], std::pow(states[b], e));
	std::array<bool, model_terms> use{};
	for (unsigned t = 0; t < model_terms; t++)
		use[t] = n.exercised(t);
	return nnls(n, use);
}

// Block B's overhead by terms C at its state^e.
double block_prediction(const term_vector &c, const block_cut &cut, const std::vector<double> &states, unsigned b,
			double e)
{
	return priced_dot(c, cut.x[b]) * std::pow(states[b], e);
}

// The elasticity under which BLOCKS, each held out of a fit on the others,
// are predicted best (least squared relative error; the lowest on a tie).
double choose_elasticity(const block_cut &cut, const std::vector<double> &states, const std::vector<unsigned> &blocks)
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
			const double y = cut.y[h];
			const double p = block_prediction(fit_blocks(cut, states, rest, e), cut, states, h, e);
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

namespace {

// The measures whose states vary over the blocks: the ones used.
std::array<bool, state_measures> varying(const stretch_state_table &states, unsigned blocks)
{
	std::array<bool, state_measures> used{};
	for (unsigned k = 0; k < state_measures; k++)
		if (states[k].size() == blocks)
			for (double s : states[k])
				used[k] = used[k] || s != 1.0;
	// The callbacks only beside the interrupts: alone they read noise for
	// the state (the LTTng 3.6 recording, which holds no interrupt: its
	// first stretch +18% by them, +8% without a state).
	used[state_callbacks] = used[state_callbacks] && used[state_interrupts];
	return used;
}

}  // namespace

cross_validation blocked_cross_validation(const std::vector<run_sample> &samples,
					  const std::vector<softirq_run> &runs, const stretch_state_table &states,
					  unsigned blocks, double tolerance)
{
	cross_validation cv;
	const std::size_t n = std::min(samples.size(), runs.size());
	if (n < blocks || blocks < 2)
		return cv;
	const block_cut cut(samples, n, blocks);
	std::vector<unsigned> all;
	for (unsigned b = 0; b < blocks; b++)
		all.push_back(b);
	cv.used = varying(states, blocks);
	// The measures a prediction is the mean of; none used: one, flat.
	std::vector<unsigned> measures;
	for (unsigned k = 0; k < state_measures; k++)
		if (cv.used[k])
			measures.push_back(k);
	const std::vector<double> flat(blocks, 1.0);
	auto states_of = [&](unsigned k) -> const std::vector<double> & { return cv.used[k] ? states[k] : flat; };
	if (measures.empty())
		measures.push_back(state_interrupts);
	for (unsigned k : measures)
		cv.elasticities[k] = choose_elasticity(cut, states_of(k), all);
	double measured = 0, predicted = 0;
	bool first = true;
	for (unsigned b = 0; b < blocks; b++) {
		std::vector<unsigned> rest;
		for (unsigned o : all)
			if (o != b)
				rest.push_back(o);
		cv_block k;
		double p = 0;
		term_vector fold{};
		for (unsigned m : measures) {
			const std::vector<double> &st = states_of(m);
			k.states[m] = st[b];
			k.elasticities[m] = choose_elasticity(cut, st, rest);
			const term_vector f = fit_blocks(cut, st, rest, k.elasticities[m]);
			p += block_prediction(f, cut, st, b, k.elasticities[m]) / double(measures.size());
			for (unsigned t = 0; t < model_terms; t++)
				fold[t] += f[t] / double(measures.size());
		}
		for (unsigned m = 0; m < state_measures; m++)
			if (states[m].size() == blocks)
				k.states[m] = states[m][b];
		cv.fold_ns.push_back(fold);
		k.first_ns = runs[cut.from[b]].entry_ns;
		k.last_ns = runs[cut.to[b] - 1].exit_ns;
		k.runs = cut.to[b] - cut.from[b];
		k.v = judge(cut.y[b], p, tolerance);
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

namespace {

// The mean of FITS (each with the same bootstrap draws: the same seed and
// number of runs), its interval from the mean draws.
cost_model mean_fit(const std::vector<cost_model> &fits)
{
	cost_model m = fits.front();
	if (fits.size() == 1)
		return m;
	const double n = double(fits.size());
	m.ns = {};
	for (term_vector &d : m.draws)
		d = {};
	for (const cost_model &f : fits) {
		for (unsigned t = 0; t < model_terms; t++) {
			m.ns[t] += f.ns[t] / n;
			m.fitted[t] = m.fitted[t] || f.fitted[t];
		}
		for (std::size_t i = 0; i < m.draws.size() && i < f.draws.size(); i++)
			for (unsigned t = 0; t < model_terms; t++)
				m.draws[i][t] += f.draws[i][t] / n;
	}
	for (unsigned t = 0; t < model_terms; t++) {
		std::vector<double> v;
		for (const term_vector &d : m.draws)
			v.push_back(d[t]);
		std::sort(v.begin(), v.end());
		// Nearest rank, as fit() takes them.
		auto rank = [&v](double pc) {
			const std::size_t r = std::size_t(std::ceil(double(v.size()) * pc / 100.0));
			return v[r ? r - 1 : 0];
		};
		m.low[t] = v.empty() ? m.ns[t] : rank(2.5);
		m.high[t] = v.empty() ? m.ns[t] : rank(97.5);
	}
	return m;
}

}  // namespace

double stretch_price(const calibrated_model &m, unsigned block, const term_vector &x)
{
	if (m.source != model_source::self || !m.cross_validated || block >= m.cv.blocks.size() ||
	    m.measure_ns.empty())
		return price(m, x).ns;
	std::size_t i = 0;
	double p = 0;
	for (unsigned k = 0; k < state_measures; k++)
		if (m.cv.used[k] && i < m.measure_ns.size())
			p += priced_dot(m.measure_ns[i++], x) * std::pow(m.cv.blocks[block].states[k], m.elasticities[k]);
	return i ? p / double(i) : price(m, x).ns;
}

calibrated_model self_calibrate(const std::vector<softirq_run> &runs, const std::vector<softirq_work> &work,
				const std::vector<interrupt_cost> &interrupts,
				const std::vector<callback_time> &callbacks, double state_ns,
				const std::string &source)
{
	calibrated_model c;
	c.source = model_source::self;
	c.state_ns = state_ns;
	// The recording prices itself at its own mean state (scale 1), each
	// stretch fitted at its own (the cross-validation's elasticities);
	// borrowed terms are scaled to this state.
	c.scale = 1;
	c.borrowed_scale = state_scale(state_ns);
	const std::vector<run_sample> s = samples_of(runs, work);
	const stretch_state_table states = stretch_states(runs, interrupts, callbacks);
	c.cv = blocked_cross_validation(s, runs, states);
	c.cross_validated = !c.cv.blocks.empty();
	c.elasticities = c.cv.elasticities;
	c.folds = c.cv.fold_ns;
	// One fit per measure used, at its elasticity; the model is their mean.
	std::vector<cost_model> fits;
	if (c.cross_validated) {
		std::vector<unsigned> all;
		for (unsigned b = 0; b < cv_blocks; b++)
			all.push_back(b);
		const block_cut cut(s, std::min(s.size(), runs.size()), cv_blocks);
		std::vector<cost_model> flat;	// at elasticity 0, fitted once
		for (unsigned k = 0; k < state_measures; k++) {
			if (!c.cv.used[k])
				continue;
			if (c.elasticities[k] != 0) {
				fits.push_back(fit(at_state(s, cut, states[k], all, c.elasticities[k]), calibration_resamples,
						   calibration_seed));
			} else {
				if (flat.empty())
					flat.push_back(fit(s, calibration_resamples, calibration_seed));
				fits.push_back(flat.front());
			}
			c.measure_ns.push_back(fits.back().ns);
		}
	}
	if (fits.empty())
		fits.push_back(fit(s, calibration_resamples, calibration_seed));
	c.model = mean_fit(fits);
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
