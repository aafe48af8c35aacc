// Deterministic random numbers for the workload generator.
//
// The standard library's engines are specified bit for bit, but its
// distributions (normal, exponential, ...) are not: two standard libraries
// may turn the same seed into different traces. So the generator draws
// from xoshiro256** (seeded through splitmix64) and makes every
// distribution itself, from uniform doubles with 53 random bits: the same
// seed gives the same trace bytes wherever the C library's log/exp/cos are
// the same.
#pragma once

#include <cmath>
#include <cstdint>

namespace timersim::gen {

// splitmix64: seeds the generator, and derives one independent stream per
// workload of a mixture from the run's seed.
constexpr std::uint64_t splitmix64(std::uint64_t &state)
{
	std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

class rng {
public:
	explicit rng(std::uint64_t seed)
	{
		for (std::uint64_t &w : s_)
			w = splitmix64(seed);
	}

	std::uint64_t next()
	{
		const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
		const std::uint64_t t = s_[1] << 17;
		s_[2] ^= s_[0];
		s_[3] ^= s_[1];
		s_[1] ^= s_[2];
		s_[0] ^= s_[3];
		s_[2] ^= t;
		s_[3] = rotl(s_[3], 45);
		return result;
	}

	// Uniform in [0, 1).
	double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
	// Uniform in [0, n), n > 0 (Lemire's multiply-shift; the bias is
	// below 2^-40 for the n a workload uses).
	std::uint64_t below(std::uint64_t n)
	{
		return static_cast<std::uint64_t>((static_cast<unsigned __int128>(next()) * n) >> 64);
	}
	bool chance(double p) { return uniform() < p; }
	// Exponential with the given mean.
	double exponential(double mean) { return -mean * std::log1p(-uniform()); }
	// Standard normal (Box-Muller, one value per call: simpler to keep
	// deterministic than caching the second).
	double normal()
	{
		double u1 = 1.0 - uniform();	// (0, 1]
		double u2 = uniform();
		return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
	}
	// Log-normal with median exp(mu) = `median` and shape sigma.
	double lognormal(double median, double sigma) { return median * std::exp(sigma * normal()); }
	// Geometric on {1, 2, ...} with the given mean (>= 1).
	std::uint64_t geometric(double mean)
	{
		if (mean <= 1.0)
			return 1;
		double p = 1.0 / mean;
		return 1 + static_cast<std::uint64_t>(std::floor(std::log1p(-uniform()) / std::log1p(-p)));
	}

private:
	static constexpr std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
	std::uint64_t s_[4];
};

}  // namespace timersim::gen
