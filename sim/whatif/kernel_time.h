// Durations to jiffies the way the kernel converts them.
//
// include/linux/jiffies.h and kernel/time/time.c round UP in both
// directions: msecs_to_jiffies(m) is ceil(m * HZ / 1000) (written as
// (m + 1000/HZ - 1) / (1000/HZ) when HZ divides 1000, m * (HZ/1000) when
// 1000 divides HZ, and a 32-bit multiply-and-shift with a rounding-up
// adjustment otherwise); jiffies_to_msecs(j) is ceil(j * 1000 / HZ)
// (DIV_ROUND_UP on 64-bit kernels). A timeout asked for as a duration never
// becomes shorter in jiffies, and a timer never fires early.
//
// Both the workload generator (a duration drawn in nanoseconds becomes a
// timeout in jiffies) and the what-if HZ transform (a recorded timeout at
// one HZ becomes a timeout at another) use these, so there is one rule.
#pragma once

#include <cstdint>

namespace timersim {

// ceil(a * b / c) without overflow for the values timers use.
constexpr std::uint64_t mul_div_up(std::uint64_t a, std::uint64_t b, std::uint64_t c)
{
	unsigned __int128 p = static_cast<unsigned __int128>(a) * b;
	return static_cast<std::uint64_t>((p + c - 1) / c);
}

// floor(a * b / c).
constexpr std::uint64_t mul_div_down(std::uint64_t a, std::uint64_t b, std::uint64_t c)
{
	return static_cast<std::uint64_t>(static_cast<unsigned __int128>(a) * b / c);
}

constexpr std::uint64_t msecs_to_jiffies(std::uint64_t m, unsigned hz) { return mul_div_up(m, hz, 1000); }
constexpr std::uint64_t jiffies_to_msecs(std::uint64_t j, unsigned hz) { return mul_div_up(j, 1000, hz); }
// nsecs_to_jiffies() rounds down in the kernel, but callers that arm
// timers use the rounding-up conversions (msecs_to_jiffies,
// usecs_to_jiffies, timespec64_to_jiffies); a duration in nanoseconds is
// converted like those.
constexpr std::uint64_t duration_to_jiffies(std::uint64_t ns, unsigned hz)
{
	return mul_div_up(ns, hz, 1'000'000'000);
}

// A timeout of `t` jiffies recorded at `from_hz`, re-expressed at `to_hz`:
// the kernel's own round trip msecs_to_jiffies(jiffies_to_msecs(t)), both
// rounding up. For the HZ values kernels use (100, 250, 300, 1000) this is
// ceil(t * to_hz / from_hz) exactly (test_whatif checks it). The same HZ
// leaves every timeout as it is (the kernel's round trip would not: at HZ
// 300, 1 jiffy is 4 ms and 4 ms is 2 jiffies). Negative timeouts (expiries
// already past) keep their sign and are rounded the same way.
constexpr std::int64_t rescale_timeout(std::int64_t t, unsigned from_hz, unsigned to_hz)
{
	if (from_hz == to_hz || t == 0)
		return t;
	std::uint64_t mag = t < 0 ? static_cast<std::uint64_t>(-(t + 1)) + 1 : static_cast<std::uint64_t>(t);
	std::uint64_t out = msecs_to_jiffies(jiffies_to_msecs(mag, from_hz), to_hz);
	return t < 0 ? -static_cast<std::int64_t>(out) : static_cast<std::int64_t>(out);
}

}  // namespace timersim
