// The lab's random numbers: splitmix64, seeded explicitly, so that a seed
// gives the same exercise on every machine and standard library (the
// std:: distributions differ between libraries; these are plain integer
// arithmetic). One call per value, in statement order.
#pragma once

#include <cstdint>

namespace timersim::lab {

class lab_rng {
public:
	explicit lab_rng(std::uint64_t seed) : state_(seed) {}

	std::uint64_t next()
	{
		std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		return z ^ (z >> 31);
	}

	// Uniform in [lo, hi] (hi >= lo), by rejection: no modulo bias.
	std::uint64_t between(std::uint64_t lo, std::uint64_t hi)
	{
		const std::uint64_t span = hi - lo;
		if (span == ~std::uint64_t{0})
			return next();
		const std::uint64_t n = span + 1;
		const std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % n);
		std::uint64_t v;
		do
			v = next();
		while (v >= limit);
		return lo + v % n;
	}

	// One of n choices, 0 .. n-1.
	unsigned pick(unsigned n) { return static_cast<unsigned>(between(0, n - 1)); }
	// True with probability num/den.
	bool chance(unsigned num, unsigned den) { return between(1, den) <= num; }

private:
	std::uint64_t state_;
};

}  // namespace timersim::lab
