// The durations of one kind of measured run (a CPU's softirq runs, its
// timer interrupts, one callback's runs) and their order statistics.
//
// Kept in 32 bits where they fit (4.29 s; a softirq run or callback is
// microseconds): half the memory, and half the fresh pages - each first
// touch of one costs microseconds on a VM, and a 1 GB trace holds
// millions of samples. A longer one goes to a 64-bit list of its own, so
// every value is kept exactly; as all of those are above all of the
// short ones, a rank falls in one list or the other without merging them.
//
// The statistics are selected where the samples are, not from copies,
// and over several sets (all CPUs together) across the sets, not from a
// concatenation: copies and their selection would be a single-threaded
// tail at the end of a replay, after the parse has stopped, growing with
// the trace.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace timersim::measured {

// Durations of one kind: count, total and the order statistics.
struct duration_stats {
	std::uint64_t count = 0;
	std::uint64_t total_ns = 0;
	std::uint64_t max_ns = 0;
	std::uint64_t p50_ns = 0;	// nearest rank
	std::uint64_t p99_ns = 0;
	double mean_ns() const { return count ? double(total_ns) / double(count) : 0.0; }
};

class duration_samples {
public:
	void add(std::uint64_t ns)
	{
		if (ns <= UINT32_MAX) [[likely]] {
			if (short_.empty() || short_.back().size() == block_values) [[unlikely]]
				new_block();
			short_.back().push_back(std::uint32_t(ns));
			shorts_++;
		} else {
			long_.push_back(ns);
		}
		total_ += ns;
		min_ = ns < min_ ? ns : min_;
		max_ = ns > max_ ? ns : max_;
	}
	std::uint64_t size() const { return shorts_ + long_.size(); }
	bool empty() const { return size() == 0; }

	// Count, total, max and the nearest-rank p50/p99 of SETS together.
	// The samples may be reordered (a small set is selected in place),
	// never copied.
	friend duration_stats summarise(std::span<duration_samples *const> sets);

	// The short values go in blocks of this many: a set grows by a
	// block, not by copying all it holds into twice the room (each copy
	// a memmove and first touches of fresh pages, some microseconds each
	// on a VM).
	static constexpr std::size_t block_values = 16384;

private:
	void new_block();

	// Those up to 2^32 - 1 ns: every block but the last full. The first
	// grows as a vector does, up to a block.
	std::vector<std::vector<std::uint32_t>> short_;
	std::uint64_t shorts_ = 0;
	std::vector<std::uint64_t> long_;	// the longer ones
	std::uint64_t total_ = 0;
	std::uint64_t min_ = UINT64_MAX, max_ = 0;
};

duration_stats summarise(std::span<duration_samples *const> sets);
// One set's.
duration_stats summarise(duration_samples &samples);

}  // namespace timersim::measured
