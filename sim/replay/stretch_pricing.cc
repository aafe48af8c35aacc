#include "sim/replay/stretch_pricing.h"

#include <algorithm>
#include <cmath>

namespace timersim {

namespace {

// The model's stretches have states of their own (calibration.h: a
// self-calibrated model whose cross-validation chose to follow some
// measure of the state).
bool follows_state(const measured::calibrated_model &m)
{
	if (m.source != measured::model_source::self || !m.cross_validated)
		return false;
	for (unsigned k = 0; k < measured::state_measures; k++)
		if (m.cv.used[k] && m.elasticities[k] != 0)
			return true;
	return false;
}

// Stretch B's work X at its state over the same work at the recording's
// mean state: stretch_price() of the recording's own terms (the borrowed
// ones, which no stretch of it fitted, follow the same factor).
double stretch_factor(const measured::calibrated_model &m, std::size_t b, const measured::term_vector &x)
{
	measured::term_vector own = x;
	for (unsigned t = 0; t < measured::model_terms; t++)
		if (m.borrowed[t])
			own[t] = 0;
	const double base = measured::price(m, own).ns;
	return base > 0 ? measured::stretch_price(m, unsigned(b), own) / base : 1.0;
}

measured::priced scaled(measured::priced p, double k)
{
	p.ns *= k;
	p.low *= k;
	p.high *= k;
	p.borrowed_ns *= k;
	for (double &f : p.folds)
		f *= k;
	return p;
}

}  // namespace

stretch_prices::stretch_prices(const measured::calibrated_model &m, const second_grid &grid) : m_(m)
{
	if (!follows_state(m) || !grid.on())
		return;
	for (const measured::cv_block &b : m.cv.blocks)
		// Seconds rise with the blocks' times; a block begun in the
		// second the one before began in is a stretch of no whole second.
		first_second_.push_back(first_second_.empty() ? 0 : std::max(grid.of_ns(b.first_ns), first_second_.back()));
}

std::size_t stretch_prices::of_second(std::uint32_t second) const
{
	const auto it = std::upper_bound(first_second_.begin(), first_second_.end(), second);
	return it == first_second_.begin() ? 0 : std::size_t(it - first_second_.begin()) - 1;
}

measured::priced stretch_prices::price(std::size_t b, const measured::term_vector &x) const
{
	return scaled(measured::price(m_, x), stretch_factor(m_, b, x));
}

measured::priced stretch_prices::price_second(std::uint32_t k, const measured::term_vector &x) const
{
	return on() ? price(of_second(k), x) : measured::price(m_, x);
}

void add_priced(measured::priced &sum, const measured::priced &p)
{
	sum.ns += p.ns;
	sum.low += p.low;
	sum.high += p.high;
	sum.borrowed_ns += p.borrowed_ns;
	if (sum.folds.size() < p.folds.size())
		sum.folds.resize(p.folds.size(), 0.0);
	for (std::size_t i = 0; i < p.folds.size(); i++)
		sum.folds[i] += p.folds[i];
}

}  // namespace timersim
