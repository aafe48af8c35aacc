// The seconds of a replay's per-second figures (the time table's, and the
// timeline's rows at --interval 1s, which share its grid): second k holds
// the jiffies [start + k*HZ, start + (k+1)*HZ) of the unwrapped timeline,
// `start` the jiffy every base begins at. Something measured at a trace
// ns lies in the second of the jiffy in progress then
// (trace_clock::jiffy_of), as the timeline places it.
//
// by_second keeps a figure per (second, CPU), sparse (a trace may leap over
// hours of jiffies; a drain runs far past the last event: nothing is sized
// by them), with the latest slot of each CPU at hand (events come in runs
// on one CPU in one second). It holds at most max_rows (second, CPU)
// figures: past them (a trace leaping 2^32 jiffies has millions of idle
// seconds, each with the classic wheel's ticks) it keeps none and says so
// (cut): per-second figures that stop part-way would not add up.
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "sim/base/trace_clock.h"

namespace timersim {

struct second_grid {
	const trace_clock *clock = nullptr;	// nullptr: no grid (nothing kept per second)
	std::uint64_t start = 0;
	unsigned hz = 250;

	bool on() const { return clock != nullptr; }
	std::uint32_t of_jiffy(std::uint64_t j) const
	{
		const std::uint64_t k = j > start ? (j - start) / hz : 0;
		return k > UINT32_MAX ? UINT32_MAX : std::uint32_t(k);
	}
	std::uint32_t of_ns(std::uint64_t ts_ns) const { return of_jiffy(clock->jiffy_of(ts_ns)); }
	std::uint64_t first_jiffy(std::uint32_t k) const { return start + std::uint64_t(k) * hz; }
};

// (second, cpu) -> T, in that order.
template <class T> class by_second {
public:
	using key = std::pair<std::uint32_t, std::uint32_t>;

	by_second() = default;
	// A copy's latest slots would point into the original's map.
	by_second(const by_second &o) : all_(o.all_), cut_(o.cut_) {}
	by_second &operator=(const by_second &o)
	{
		all_ = o.all_;
		cut_ = o.cut_;
		latest_.clear();
		return *this;
	}

	// An hour of 64 CPUs is 230,400 rows.
	static constexpr std::size_t max_rows = std::size_t{1} << 18;

	T &at(std::uint32_t second, std::uint32_t cpu)
	{
		if (cpu < latest_.size() && latest_[cpu].value && latest_[cpu].second == second) [[likely]]
			return *latest_[cpu].value;
		if (cut_ || all_.size() >= max_rows) {
			cut();
			scratch_ = T{};
			return scratch_;
		}
		T &v = all_[{second, cpu}];
		if (cpu >= latest_.size())
			latest_.resize(std::size_t(cpu) + 1);
		latest_[cpu] = {second, &v};	// map nodes never move
		return v;
	}
	const std::map<key, T> &all() const { return all_; }
	std::map<key, T> take()
	{
		latest_.clear();
		return std::move(all_);
	}
	bool empty() const { return all_.empty(); }
	// Keep nothing from now on (more seconds than max_rows).
	void cut()
	{
		cut_ = true;
		all_.clear();
		latest_.clear();
	}
	bool is_cut() const { return cut_; }

private:
	struct latest {
		std::uint32_t second = 0;
		T *value = nullptr;
	};
	std::map<key, T> all_;
	std::vector<latest> latest_;
	T scratch_{};
	bool cut_ = false;
};

}  // namespace timersim
