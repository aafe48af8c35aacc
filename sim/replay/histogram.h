// A histogram in power-of-two buckets: [0], [1], [2,3], [4,7], [8,15], ...
// The shape cascade costs have: most ticks move nothing, a few move
// hundreds.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/replay/replay_report.h"

namespace timersim {

class power2_histogram {
public:
	void add(std::uint64_t value, std::uint64_t times = 1)
	{
		unsigned b = value ? 64 - __builtin_clzll(value) : 0;
		if (counts_.size() <= b)
			counts_.resize(b + 1, 0);
		counts_[b] += times;
	}

	// Every bucket up to the highest non-empty one, with inclusive bounds.
	std::vector<moves_bucket> buckets() const
	{
		std::vector<moves_bucket> out;
		for (unsigned b = 0; b < counts_.size(); b++) {
			std::uint64_t low = b ? std::uint64_t{1} << (b - 1) : 0;
			std::uint64_t high = b ? (low << 1) - 1 : 0;
			out.push_back({low, high, counts_[b]});
		}
		return out;
	}

private:
	std::vector<std::uint64_t> counts_;
};

}  // namespace timersim
