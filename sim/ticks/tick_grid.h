// The tick grid: which jiffy a CLOCK_MONOTONIC instant belongs to.
//
// The kernel advances jiffies by one for each TICK_NSEC of monotonic time
// (tick_do_update_jiffies64() steps tick_next_period by TICK_NSEC), and the
// tick hrtimer expires on that grid. So, for one boot,
//
//     jiffies(now) = floor((now - phase) / TICK_NSEC) + offset
//
// where phase is where the grid sits within a TICK_NSEC (the tick's
// hrtimer_start expiries give it exactly) and offset is the jiffies value
// of grid line 0. Neither is printed anywhere; both are fitted from the
// trace itself:
//   - phase from the tick's expiries (or, without hrtimer_start events, the
//     earliest point in the period at which a tick's expiry ran);
//   - the trace clock against CLOCK_MONOTONIC from the tick's expiries,
//     which carry both (`now` and the event's timestamp): the smallest
//     difference is the one with the least interrupt latency (other
//     hrtimers may run on CLOCK_REALTIME);
//   - offset from the trace's own (timestamp, jiffies) pairs, the events
//     that carry jiffies (timer_start: expires - timeout, timer_expire_entry:
//     now): each pair votes for offset = jiffies - grid line of its
//     timestamp, and the most common vote wins (jiffies lag the grid by a
//     jiffy for a few microseconds after each line, which the vote absorbs).
// Values are raw jiffies as the kernel prints them, in the kernel's word
// (32 or 64 bits): the replay unwraps them like any other jiffies.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace timersim {

// include/vdso/jiffies.h: TICK_NSEC = (NSEC_PER_SEC + HZ/2) / HZ.
constexpr std::uint64_t tick_nsec_for_hz(unsigned hz)
{
	return hz ? (1000000000ull + hz / 2) / hz : 0;
}

struct tick_grid {
	std::uint64_t tick_nsec = 0;	// 0: no grid
	std::uint64_t phase = 0;	// [0, tick_nsec)
	std::uint64_t offset = 0;	// raw jiffies of grid line 0, in the word
	std::uint64_t word_mask = ~std::uint64_t{0};
	std::uint64_t pairs = 0;	// (timestamp, jiffies) pairs that voted
	std::uint64_t agreeing = 0;	// ... for the winning offset

	bool known() const { return tick_nsec != 0; }
	// The grid line `now` lies on or after (now >= phase).
	std::uint64_t line(std::uint64_t now_ns) const
	{
		return (now_ns - phase) / tick_nsec;
	}
	// Raw jiffies of the monotonic instant `now_ns`.
	std::uint64_t jiffies(std::uint64_t now_ns) const
	{
		return (line(now_ns) + offset) & word_mask;
	}
	// "jiffies = (ns - 0) / 4000000 + 4294892266 (1169 of 1202 pairs)"
	std::string describe() const;
};

// Collects what the grid is fitted from, then fits it.
class tick_grid_fit {
public:
	tick_grid_fit(std::uint64_t tick_nsec, unsigned word_bits);

	// The tick hrtimer was programmed to expire at `expires_ns` (a grid
	// line, unless the tick was stopped: then it is a far deadline, and
	// the vote drops it).
	void tick_expires(std::uint64_t expires_ns);
	// The tick expired at monotonic `now_ns`, recorded at trace time `ts_ns`.
	void tick_expiry(std::uint64_t ts_ns, std::uint64_t now_ns);
	// An event recorded at trace time `ts_ns` saw raw jiffies `raw`.
	void jiffies_at(std::uint64_t ts_ns, std::uint64_t raw);

	// The grid, or one with tick_nsec == 0 when the trace gave too little
	// (no tick expiry, no jiffies pair after one) or the pairs disagree
	// (no offset has more than half of the votes).
	tick_grid fit() const;
	// The same from pairs not kept here: PAIRS calls its argument with
	// each (ts_ns, raw), as jiffies_at() would have been called.
	using pair_sink = std::function<void(std::uint64_t ts_ns, std::uint64_t raw)>;
	tick_grid fit(const std::function<void(const pair_sink &)> &pairs) const;

private:
	std::uint64_t tick_nsec_;
	std::uint64_t word_mask_;
	std::map<std::uint64_t, std::uint64_t> phase_votes_;	// expires % TICK_NSEC
	// The earliest a tick's expiry ran within its period: a residue of
	// the first expiry plus the smallest (signed) lead over it.
	bool have_entry_ = false;
	std::uint64_t entry_residue_ = 0;
	std::int64_t entry_lead_ = 0;
	bool have_delta_ = false;
	std::int64_t delta_ = 0;	// trace clock - monotonic, smallest seen
	struct jiffies_pair {
		std::uint64_t ts_ns, raw;
	};
	std::vector<jiffies_pair> pairs_;
};

class event_stream;
struct tick_identity;

// Fits the grid from up to `max_events` events ahead in `stream` (not
// consumed): the tick's re-arms and expiries, and the events that carry
// jiffies. The jiffies pairs are read from the stream again once the
// phase is known, not kept (a prologue's 65,536 of them would be 1 MB of
// fresh pages).
tick_grid fit_tick_grid(event_stream &stream, const tick_identity &tick, unsigned word_bits,
			std::size_t max_events);

}  // namespace timersim
