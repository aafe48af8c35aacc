// The jiffies a replay has seen: the latest on any CPU (the replay's now,
// which every base runs up to), the last on each CPU (which must not go
// back), and the word a trace records them in (a 32-bit kernel's wrap).
//
// Values are kept unwrapped (jiffies_t, 64 bits): a 32-bit trace's values
// are placed nearest the latest seen, and reports narrow them back to the
// word, as the kernel's time_after() compares them.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/scheme/scheme.h"

namespace timersim {

// A trace whose jiffies leap further than this past everything seen before
// is corrupt (2^32 jiffies is 50 days at HZ 1000).
inline constexpr jiffies_t max_jiffies_leap = jiffies_t{1} << 32;

class jiffies_track {
public:
	// The word (32 or 64 bits), the CPUs and the trace's first jiffies
	// (raw). A 32-bit timeline starts one wrap up, so that unwrapping
	// never goes below zero.
	void begin(unsigned word_bits, unsigned cpus, std::uint64_t first_jiffies)
	{
		word_bits_ = word_bits;
		mask_ = word_bits == 32 ? 0xffffffffull : ~std::uint64_t{0};
		latest_ = first_jiffies & mask_;
		if (word_bits == 32)
			latest_ += jiffies_t{1} << 32;
		last_.assign(cpus, 0);
		seen_.assign(cpus, false);
	}
	// The replay starts at START (--start) when it is before the first
	// jiffies.
	void start_at(jiffies_t start) { latest_ = start < latest_ ? start : latest_; }

	// A raw value of the trace: a 32-bit one is taken as the nearest to
	// the latest jiffies.
	jiffies_t unwrap(std::uint64_t raw) const
	{
		if (word_bits_ == 64)
			return raw;
		auto delta = static_cast<std::int32_t>(static_cast<std::uint32_t>(raw) -
						       static_cast<std::uint32_t>(latest_));
		return latest_ + static_cast<std::int64_t>(delta);
	}
	std::uint64_t narrow(jiffies_t j) const { return j & mask_; }

	jiffies_t latest() const { return latest_; }
	unsigned word_bits() const { return word_bits_; }

	// J on CPU would go back on that CPU, or leap too far past the latest
	// (both corrupt): inline, every event with jiffies asks.
	[[gnu::always_inline]] bool fits(unsigned cpu, jiffies_t j) const
	{
		return !((seen_[cpu] && j < last_[cpu]) ||
			 (seen_any_ && j > latest_ && j - latest_ > max_jiffies_leap));
	}
	[[gnu::always_inline]] void note(unsigned cpu, jiffies_t j)
	{
		seen_any_ = true;
		seen_[cpu] = true;
		last_[cpu] = j;
		if (j > latest_)
			latest_ = j;
	}
	// For the message of a value that does not fit.
	bool goes_back(unsigned cpu, jiffies_t j) const { return seen_[cpu] && j < last_[cpu]; }
	jiffies_t last_on(unsigned cpu) const { return last_[cpu]; }

private:
	unsigned word_bits_ = 64;
	std::uint64_t mask_ = ~std::uint64_t{0};
	jiffies_t latest_ = 0;
	bool seen_any_ = false;
	std::vector<jiffies_t> last_;		// per CPU, for the monotonic check
	std::vector<std::uint8_t> seen_;	// per CPU: bytes, read at every event with jiffies
};

}  // namespace timersim
