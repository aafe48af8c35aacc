// Trace seconds of a jiffy, from the trace's own (timestamp, jiffies) pairs.
//
// Events that carry jiffies also carry the time they were recorded; the
// clock keeps one such pair per second of jiffies and reads a jiffy's
// second off the nearest pair at or before it, stepping by 1/HZ from there
// (before the first pair: back from the first). Reports print when things
// happened in the seconds a user sees in their trace, not only in jiffies.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace timersim {

class trace_clock {
public:
	void set_hz(unsigned hz) { hz_ = hz ? hz : 250; }

	// An event recorded at `ts_ns` saw jiffies `j` (unwrapped).
	// Inline, with the rare new pair out of line: the replay asks at
	// every event that carries jiffies.
	void observe(std::uint64_t j, std::uint64_t ts_ns)
	{
		if (!anchors_.empty() && j < anchors_.back().j + hz_) [[likely]]
			return;
		add_anchor(j, ts_ns);
	}

	bool known() const { return !anchors_.empty(); }

	double seconds(std::uint64_t j) const
	{
		if (anchors_.empty())
			return 0.0;
		auto it = std::upper_bound(anchors_.begin(), anchors_.end(), j,
					   [](std::uint64_t v, const anchor &a) { return v < a.j; });
		const anchor &a = it == anchors_.begin() ? anchors_.front() : *(it - 1);
		double delta = j >= a.j ? static_cast<double>(j - a.j) : -static_cast<double>(a.j - j);
		return static_cast<double>(a.ts_ns) / 1e9 + delta / hz_;
	}

	// The jiffy in progress at trace time `ts_ns`: the inverse of
	// seconds(), off the nearest pair at or before it (before the first:
	// back from the first, not below jiffy 0).
	std::uint64_t jiffy_of(std::uint64_t ts_ns) const
	{
		if (anchors_.empty())
			return 0;
		auto it = std::upper_bound(anchors_.begin(), anchors_.end(), ts_ns,
					   [](std::uint64_t v, const anchor &a) { return v < a.ts_ns; });
		const anchor &a = it == anchors_.begin() ? anchors_.front() : *(it - 1);
		const std::uint64_t tick_ns = 1'000'000'000ull / hz_;
		if (ts_ns >= a.ts_ns)
			return a.j + (ts_ns - a.ts_ns) / tick_ns;
		const std::uint64_t back = (a.ts_ns - ts_ns + tick_ns - 1) / tick_ns;
		return a.j >= back ? a.j - back : 0;
	}

private:
	struct anchor {
		std::uint64_t j;
		std::uint64_t ts_ns;
	};
	[[gnu::noinline]] void add_anchor(std::uint64_t j, std::uint64_t ts_ns) { anchors_.push_back({j, ts_ns}); }

	unsigned hz_ = 250;
	std::vector<anchor> anchors_;
};

}  // namespace timersim
