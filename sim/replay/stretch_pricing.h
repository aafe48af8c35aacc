// The model follows the state within the recording (sim/measured/
// calibration.h): a self-calibrated model fitted each stretch's runs at its
// state, so a figure of a scheme's softirq work is priced at the state of
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

class stretch_prices {
public:
	stretch_prices(const measured::calibrated_model &m, const second_grid &grid);
	// Off: one price for the whole trace (no stretch state: the reference,
	// a model file, a state that did not help, no grid).
	bool on() const { return !first_second_.empty(); }
	std::size_t stretches() const { return first_second_.size(); }
	std::uint32_t first_second(std::size_t b) const { return first_second_[b]; }
	std::size_t of_second(std::uint32_t second) const;
	// Work X done in stretch B, priced at its state.
	measured::priced price(std::size_t b, const measured::term_vector &x) const;
	// Of second K: at its stretch's state (on), else the model's.
	measured::priced price_second(std::uint32_t k, const measured::term_vector &x) const;

private:
	const measured::calibrated_model &m_;
	std::vector<std::uint32_t> first_second_;	// by stretch, rising
};

// SUM + P: the figures (ns, interval, borrowed, folds), not the names.
void add_priced(measured::priced &sum, const measured::priced &p);

// One stretch's share of a scheme's modelled softirq overhead.
struct stretch_cost {
	std::uint32_t first_second = 0;	// its seconds: from this one to the next stretch's
	std::uint64_t first_ns = 0, last_ns = 0;	// its runs' (the cross-validation block's)
	double factor = 1;	// its figure over its work's at the model's mean state
	double ns = 0, low = 0, high = 0;
};

}  // namespace timersim
