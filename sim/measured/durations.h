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
//
// Bounded (bound()), for a replay that runs for hours (`timersim top`'s
// whole run): no sample is kept; count, total, min and max stay exact and
// the order statistics come from a log-linear histogram of fixed size,
// each within 1/16 of its value (the bucket's lowest value, never below
// the smallest sample nor above the largest).
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
		if (bounded_) [[unlikely]] {
			add_binned(ns);
		} else if (ns <= UINT32_MAX) [[likely]] {
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
	std::uint64_t size() const { return shorts_ + long_.size() + binned_; }
	// From now on, keep the histogram, not the samples (before the first add).
	void bound() { bounded_ = true; }
	bool bounded() const { return bounded_; }
	// Bytes held for the samples (the vectors' capacity, the histogram).
	std::uint64_t bytes() const;

	// The histogram's buckets: values below 16 one each, then 16 a power
	// of two.
	static constexpr unsigned sub_bits = 4;
	static constexpr std::size_t bins = 16 + (64 - sub_bits) * 16;
	static std::size_t bin_of(std::uint64_t ns)
	{
		if (ns < 16)
			return std::size_t(ns);
		const unsigned e = 63u - unsigned(__builtin_clzll(ns));	// >= 4
		return 16 + std::size_t(e - sub_bits) * 16 + std::size_t((ns >> (e - sub_bits)) & 15);
	}
	static std::uint64_t bin_low(std::size_t b)
	{
		if (b < 16)
			return b;
		const unsigned e = unsigned((b - 16) / 16) + sub_bits;
		return (std::uint64_t{16} | ((b - 16) % 16)) << (e - sub_bits);
	}
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
	void add_binned(std::uint64_t ns);	// the bin; add() keeps total, min, max
	friend void bin_into(std::vector<std::uint64_t> &bins, const duration_samples &d);

	// Those up to 2^32 - 1 ns: every block but the last full. The first
	// grows as a vector does, up to a block.
	std::vector<std::vector<std::uint32_t>> short_;
	std::uint64_t shorts_ = 0;
	std::vector<std::uint64_t> long_;	// the longer ones
	std::uint64_t total_ = 0;
	std::uint64_t min_ = UINT64_MAX, max_ = 0;
	bool bounded_ = false;
	std::uint64_t binned_ = 0;
	std::vector<std::uint64_t> bins_;	// bounded: counts by bin_of()
};

duration_stats summarise(std::span<duration_samples *const> sets);
// One set's.
duration_stats summarise(duration_samples &samples);

}  // namespace timersim::measured
