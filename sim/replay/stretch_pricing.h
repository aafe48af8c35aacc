// The model follows the state within the recording (sim/measured/
// calibration.h): a self-calibrated model fitted each stretch's runs at
// state^e, so a figure of a scheme's softirq work is priced at the state of
// the stretch it lies in - each second at its stretch's, the whole as the
// sum of its stretches'. A stretch here is the cross-validation's block in
// whole seconds of the replay's grid (sim/base/second_grid.h): stretch b
// holds the seconds from the one its first run began in up to the next
// stretch's (the first from second 0, the last to the end), so that the
// seconds of a stretch add up to its figure.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/base/second_grid.h"
#include "sim/measured/calibration.h"

namespace timersim {

struct stretch_prices {
	std::vector<std::uint32_t> first_second;	// by stretch, rising
	std::vector<double> factor;			// state^e, by stretch
	// Off: one price for the whole trace (no stretch state: the reference,
	// a model file, e = 0, no grid).
	bool on() const { return !factor.empty(); }
	std::size_t of_second(std::uint32_t second) const;
	double factor_of_second(std::uint32_t second) const { return on() ? factor[of_second(second)] : 1.0; }
};

stretch_prices stretch_prices_of(const measured::calibrated_model &m, const second_grid &grid);

// P with every figure (ns, interval, borrowed, folds) times K.
measured::priced scaled(measured::priced p, double k);
// SUM + P: the figures (ns, interval, borrowed, folds), not the names.
void add_priced(measured::priced &sum, const measured::priced &p);

// One stretch's share of a scheme's modelled softirq overhead.
struct stretch_cost {
	std::uint32_t first_second = 0;	// its seconds: from this one to the next stretch's
	std::uint64_t first_ns = 0, last_ns = 0;	// its runs' (the cross-validation block's)
	double state = 1, factor = 1;	// its state, and state^e its work is priced x
	double ns = 0, low = 0, high = 0;
};

}  // namespace timersim
