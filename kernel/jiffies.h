// Jiffies arithmetic of include/linux/jiffies.h, for either width of
// `unsigned long`: 32 bits (ARM and other 32-bit kernels, which wrap every
// 2^32 ticks) or 64 bits (x86-64). Word is std::uint32_t or std::uint64_t.
#pragma once

#include <cstdint>
#include <type_traits>

namespace kernel {

template <class Word>
using signed_word = std::make_signed_t<Word>;

// Wrap-safe ordering: a is after b when the signed difference b - a is
// negative, so the comparison survives the counter wrapping.
template <class Word>
constexpr bool time_after(Word a, Word b)
{
	return static_cast<signed_word<Word>>(static_cast<Word>(b - a)) < 0;
}

template <class Word>
constexpr bool time_after_eq(Word a, Word b)
{
	return static_cast<signed_word<Word>>(static_cast<Word>(a - b)) >= 0;
}

template <class Word>
constexpr bool time_before(Word a, Word b)
{
	return time_after(b, a);
}

template <class Word>
constexpr bool time_before_eq(Word a, Word b)
{
	return time_after_eq(b, a);
}

// Jiffies start five minutes before the 32-bit wrap so that wrap bugs show
// early: (unsigned long)(unsigned int)(-300*HZ). On 64-bit kernels the
// value is the same small-looking number, zero-extended.
template <class Word>
constexpr Word initial_jiffies(unsigned hz)
{
	return static_cast<Word>(static_cast<std::uint32_t>(-300 * static_cast<std::int64_t>(hz)));
}

// round_jiffies_common(): round an absolute jiffies value to a whole
// second so that timers of many subsystems fire in the same tick. Each CPU
// is skewed by 3 jiffies so that not all CPUs fire at once. The result is
// rounded down when that stays within a quarter second, else up; if it is
// not in the future (relative to `now`), the original is returned.
template <class Word>
constexpr Word round_jiffies_common(Word j, int cpu, bool force_up, unsigned hz, Word now)
{
	const Word original = j;
	const Word skew = static_cast<Word>(cpu * 3);

	j += skew;
	const Word rem = j % hz;
	if (rem < hz / 4 && !force_up)
		j = j - rem;
	else
		j = j - rem + hz;
	j -= skew;

	return time_after(j, now) ? j : original;
}

template <class Word>
constexpr Word __round_jiffies(Word j, int cpu, unsigned hz, Word now)
{
	return round_jiffies_common(j, cpu, false, hz, now);
}

template <class Word>
constexpr Word __round_jiffies_relative(Word j, int cpu, unsigned hz, Word now)
{
	return static_cast<Word>(round_jiffies_common<Word>(j + now, cpu, false, hz, now) - now);
}

template <class Word>
constexpr Word round_jiffies(Word j, unsigned hz, Word now)
{
	return round_jiffies_common(j, 0, false, hz, now);
}

template <class Word>
constexpr Word round_jiffies_relative(Word j, unsigned hz, Word now)
{
	return __round_jiffies_relative(j, 0, hz, now);
}

template <class Word>
constexpr Word __round_jiffies_up(Word j, int cpu, unsigned hz, Word now)
{
	return round_jiffies_common(j, cpu, true, hz, now);
}

template <class Word>
constexpr Word __round_jiffies_up_relative(Word j, int cpu, unsigned hz, Word now)
{
	return static_cast<Word>(round_jiffies_common<Word>(j + now, cpu, true, hz, now) - now);
}

template <class Word>
constexpr Word round_jiffies_up(Word j, unsigned hz, Word now)
{
	return round_jiffies_common(j, 0, true, hz, now);
}

template <class Word>
constexpr Word round_jiffies_up_relative(Word j, unsigned hz, Word now)
{
	return __round_jiffies_up_relative(j, 0, hz, now);
}

}  // namespace kernel
