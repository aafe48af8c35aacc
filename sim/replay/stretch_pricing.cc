#include "sim/replay/stretch_pricing.h"

#include <algorithm>
#include <cmath>

namespace timersim {

std::size_t stretch_prices::of_second(std::uint32_t second) const
{
	const auto it = std::upper_bound(first_second.begin(), first_second.end(), second);
	return it == first_second.begin() ? 0 : std::size_t(it - first_second.begin()) - 1;
}

stretch_prices stretch_prices_of(const measured::calibrated_model &m, const second_grid &grid)
{
	stretch_prices s;
	if (m.source != measured::model_source::self || !m.cross_validated || m.elasticity == 0 || !grid.on())
		return s;
	for (const measured::cv_block &b : m.cv.blocks) {
		s.first_second.push_back(s.first_second.empty() ? 0 : grid.of_ns(b.first_ns));
		s.factor.push_back(std::pow(b.state, m.elasticity));
	}
	// Seconds rise with the blocks' times; a block begun in the second
	// the one before began in is a stretch of no whole second.
	for (std::size_t i = 1; i < s.first_second.size(); i++)
		s.first_second[i] = std::max(s.first_second[i], s.first_second[i - 1]);
	return s;
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
