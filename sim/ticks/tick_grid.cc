#include "sim/ticks/tick_grid.h"

#include <fmt/format.h>

#include "sim/stream/event_stream.h"
#include "sim/stream/trace_shape.h"
#include "sim/ticks/tick_identity.h"

namespace timersim {

std::string tick_grid::describe() const
{
	if (!known())
		return "no tick grid";
	return fmt::format("jiffies = (ns - {}) / {} + {} ({} of {} timestamp/jiffies pairs agree)",
			   phase, tick_nsec, offset, agreeing, pairs);
}

tick_grid_fit::tick_grid_fit(std::uint64_t tick_nsec, unsigned word_bits)
	: tick_nsec_(tick_nsec), word_mask_(word_bits == 32 ? 0xffffffffull : ~std::uint64_t{0})
{
}

void tick_grid_fit::tick_expires(std::uint64_t expires_ns)
{
	if (tick_nsec_)
		phase_votes_[expires_ns % tick_nsec_]++;
}

void tick_grid_fit::tick_expiry(std::uint64_t ts_ns, std::uint64_t now_ns)
{
	auto delta = static_cast<std::int64_t>(ts_ns - now_ns);
	if (!have_delta_ || delta < delta_) {
		delta_ = delta;
		have_delta_ = true;
	}
	if (!tick_nsec_)
		return;
	std::uint64_t r = now_ns % tick_nsec_;
	if (!have_entry_) {
		have_entry_ = true;
		entry_residue_ = r;
		return;
	}
	// Signed distance from the first residue, folded into half a period
	// either way: expiries run a little after their grid line.
	auto d = static_cast<std::int64_t>((r + tick_nsec_ - entry_residue_) % tick_nsec_);
	if (d > static_cast<std::int64_t>(tick_nsec_ / 2))
		d -= static_cast<std::int64_t>(tick_nsec_);
	if (d < entry_lead_)
		entry_lead_ = d;
}

void tick_grid_fit::jiffies_at(std::uint64_t ts_ns, std::uint64_t raw)
{
	pairs_.push_back({ts_ns, raw});
}

tick_grid tick_grid_fit::fit() const
{
	return fit([this](const pair_sink &vote) {
		for (const jiffies_pair &p : pairs_)
			vote(p.ts_ns, p.raw);
	});
}

tick_grid tick_grid_fit::fit(const std::function<void(const pair_sink &)> &pairs) const
{
	tick_grid g;
	if (!tick_nsec_ || !have_delta_ || (phase_votes_.empty() && !have_entry_))
		return g;
	g.tick_nsec = tick_nsec_;
	g.word_mask = word_mask_;

	// The tick's programmed expiries are grid lines; a stopped tick's far
	// deadline is not, and is outvoted.
	std::uint64_t best = 0;
	for (const auto &[residue, votes] : phase_votes_)
		if (votes > best) {
			best = votes;
			g.phase = residue;
		}
	if (!best) {
		auto p = static_cast<std::int64_t>(entry_residue_) + entry_lead_;
		auto t = static_cast<std::int64_t>(tick_nsec_);
		g.phase = static_cast<std::uint64_t>(((p % t) + t) % t);
	}

	std::map<std::uint64_t, std::uint64_t> votes;
	pairs([&](std::uint64_t ts_ns, std::uint64_t raw) {
		std::uint64_t mono = ts_ns - static_cast<std::uint64_t>(delta_);
		if (mono < g.phase)
			return;
		votes[(raw - g.line(mono)) & word_mask_]++;
		g.pairs++;
	});
	for (const auto &[offset, n] : votes)
		if (n > g.agreeing) {
			g.agreeing = n;
			g.offset = offset;
		}
	// Most pairs must agree: otherwise what was taken for the tick does not
	// keep time with jiffies.
	if (!g.agreeing || g.agreeing * 2 <= g.pairs)
		return tick_grid{};
	return g;
}

tick_grid fit_tick_grid(event_stream &stream, const tick_identity &tick, unsigned word_bits,
			std::size_t max_events)
{
	tick_grid_fit fit(tick.tick_nsec, word_bits);
	// Both passes walk the events as arrays (scan_ahead), not by a
	// peek() of each position.
	std::size_t events = 0;
	if (max_events)
		stream.scan_ahead(0, max_events - 1, [&](const sim_event &ev, std::size_t) {
			events++;
			bool is_tick = tick.found() && ev.function == tick.function;
			if (ev.hrtimer == hrtimer_op::start && is_tick)
				fit.tick_expires(ev.expires);
			else if (ev.hrtimer == hrtimer_op::expire_entry && is_tick &&
				 ev.carries(EF_TIMESTAMP))
				fit.tick_expiry(ev.ts_ns, ev.now);
			return true;
		});
	return fit.fit([&](const tick_grid_fit::pair_sink &vote) {
		if (events)
			stream.scan_ahead(0, events - 1, [&](const sim_event &ev, std::size_t) {
				std::uint64_t raw;
				if (ev.carries(EF_TIMESTAMP) && event_jiffies(ev, raw))
					vote(ev.ts_ns, raw);
				return true;
			});
	});
}

}  // namespace timersim
