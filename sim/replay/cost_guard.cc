#include "sim/replay/cost_guard.h"

#include <algorithm>

#include "sim/base/errors.h"

namespace timersim {

std::uint64_t cost_guard::check_all(const std::vector<std::unique_ptr<replay_engine>> &engines,
				    const std::string &where)
{
	const std::uint64_t since = gap_;
	// The next check comes before the events, at twice the cost per
	// event of these (it grows), could spend what is left: the gap
	// halves towards the limit, and a scheme that costs a million units
	// an event (a sorted list of a million timers) stops within an event
	// or two of the limit, not 1024 events past it.
	gap_ = cost_check_every;
	checked_.resize(engines.size(), 0);
	for (std::size_t i = 0; i < engines.size(); i++) {
		std::uint64_t done = check(*engines[i], where);
		std::uint64_t per_event = (done - checked_[i]) / since + 1;
		checked_[i] = done;
		gap_ = std::min(gap_, std::max<std::uint64_t>((max_cost_ - done) / (2 * per_event), 1));
	}
	return gap_;
}

std::uint64_t cost_guard::check(const replay_engine &e, const std::string &where,
				std::uint64_t extra) const
{
	std::uint64_t cost = work_done(e.the_scheme().costs()) + extra;
	if (cost <= max_cost_)
		return cost;
	std::string why = e.the_scheme().superlinear_note();
	throw usage_error(where + ": " + e.the_scheme().name() +
			  " passed --max-cost " + std::to_string(max_cost_) + " (" +
			  std::to_string(cost) + " cost units) with " +
			  std::to_string(e.pending()) + " timers pending" +
			  (why.empty() ? "" : " (" + why + ")") +
			  "; leave it out or raise --max-cost");
}

}  // namespace timersim
