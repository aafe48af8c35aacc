#include "sim/ticks/tick_identity.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include <fmt/format.h>

#include "sim/ticks/tick_grid.h"

namespace timersim {

namespace {

// A callback needs this many re-arms (or expiries) before its rhythm says
// anything, and this share of them on one residue of TICK_NSEC: a stopped
// tick is re-armed once to a far deadline off the grid.
constexpr std::uint64_t min_samples = 8;
constexpr double on_grid_share = 0.9;

struct candidate {
	std::uint64_t starts = 0, expiries = 0;
	std::map<std::uint64_t, std::uint64_t> start_residues;
	std::vector<std::uint64_t> expiry_residues;
	std::set<unsigned> cpus;
};

std::uint64_t top_count(const std::map<std::uint64_t, std::uint64_t> &m)
{
	std::uint64_t best = 0;
	for (const auto &[r, n] : m)
		best = std::max(best, n);
	return best;
}

// Without re-arm events: the expiries themselves run a little after their
// grid line, so nearly all fall in a narrow window of the period.
bool expiries_on_grid(std::vector<std::uint64_t> residues, std::uint64_t tick_nsec)
{
	if (residues.size() < min_samples)
		return false;
	std::sort(residues.begin(), residues.end());
	// The window may wrap past the period's end: try each start point.
	const std::uint64_t window = tick_nsec / 16;
	std::size_t n = residues.size(), best = 0;
	for (std::size_t i = 0, j = 0; i < n; i++) {
		while (j < i + n) {
			std::uint64_t r = residues[j % n] + (j >= n ? tick_nsec : 0);
			if (r - residues[i] > window)
				break;
			j++;
		}
		best = std::max(best, j - i);
	}
	return static_cast<double>(best) >= on_grid_share * static_cast<double>(n);
}

bool on_grid(const candidate &c, std::uint64_t tick_nsec)
{
	if (c.starts >= min_samples)
		return static_cast<double>(top_count(c.start_residues)) >=
		       on_grid_share * static_cast<double>(c.starts);
	return expiries_on_grid(c.expiry_residues, tick_nsec);
}

}  // namespace

const char *tick_found_name(tick_found how)
{
	switch (how) {
	case tick_found::none:		return "none";
	case tick_found::by_name:	return "name";
	case tick_found::by_period:	return "period";
	}
	return "?";
}

bool is_tick_callback_name(std::string_view name)
{
	return name == "tick_sched_timer" || name == "tick_nohz_highres_handler" ||
	       name == "tick_nohz_handler";
}

std::string tick_identity::describe() const
{
	switch (how) {
	case tick_found::none:
		return "no hrtimer is named as the tick or expires on the TICK_NSEC grid";
	case tick_found::by_name:
		return fmt::format("the hrtimer {} on {} CPU{}, by name", function_name, cpus,
				   cpus == 1 ? "" : "s");
	case tick_found::by_period:
		return fmt::format("the hrtimer {} on {} CPU{}, by its period: re-armed on the "
				   "{} ns grid",
				   function_name, cpus, cpus == 1 ? "" : "s", tick_nsec);
	}
	return "";
}

tick_identity identify_tick(event_stream &stream, const interner &names, unsigned hz,
			    std::size_t max_events)
{
	tick_identity id;
	id.tick_nsec = tick_nsec_for_hz(hz);
	std::unordered_map<std::uint32_t, candidate> cands;

	// Walked as arrays (scan_ahead), not by a peek() of each position.
	if (max_events)
		stream.scan_ahead(0, max_events - 1, [&](const sim_event &ev, std::size_t) {
			if (ev.hrtimer != hrtimer_op::start && ev.hrtimer != hrtimer_op::expire_entry)
				return true;
			candidate &c = cands[ev.function];
			if (ev.hrtimer == hrtimer_op::start) {
				c.starts++;
				if (id.tick_nsec)
					c.start_residues[ev.expires % id.tick_nsec]++;
			} else {
				c.expiries++;
				c.cpus.insert(ev.cpu);
				if (id.tick_nsec)
					c.expiry_residues.push_back(ev.now % id.tick_nsec);
			}
			return true;
		});

	// By name first; else the rhythm, the busiest callback on the grid.
	// Ties go to the smaller name, so that the choice is reproducible.
	auto better = [&](std::uint32_t f, std::uint32_t than) {
		if (cands[f].expiries != cands[than].expiries)
			return cands[f].expiries > cands[than].expiries;
		return names.name(f) < names.name(than);
	};
	std::uint32_t named = 0, rhythmic = 0;
	bool have_named = false, have_rhythmic = false;
	for (const auto &[f, c] : cands) {
		if (!c.expiries || !f)
			continue;
		if (is_tick_callback_name(names.name(f))) {
			if (!have_named || better(f, named))
				named = f;
			have_named = true;
		} else if (id.tick_nsec && on_grid(c, id.tick_nsec)) {
			if (!have_rhythmic || better(f, rhythmic))
				rhythmic = f;
			have_rhythmic = true;
		}
	}
	if (!have_named && !have_rhythmic)
		return id;
	id.how = have_named ? tick_found::by_name : tick_found::by_period;
	id.function = have_named ? named : rhythmic;
	id.function_name = names.name(id.function);
	id.expiries = cands[id.function].expiries;
	id.cpus = static_cast<unsigned>(cands[id.function].cpus.size());
	return id;
}

}  // namespace timersim
