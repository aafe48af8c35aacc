// Numbers as text for the outputs that stream rows (CSV, trace JSON):
// locale-free, no allocation beyond the string they append to.
#pragma once

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cmath>
#include <cstdint>
#include <string>

namespace timersim {

inline void append_number(std::string &out, std::uint64_t v)
{
	char buf[24];
	auto res = std::to_chars(buf, buf + sizeof buf, v);
	out.append(buf, res.ptr);
}

inline void append_hex(std::string &out, std::uint64_t v)
{
	char buf[24];
	auto res = std::to_chars(buf, buf + sizeof buf, v, 16);
	out += "0x";
	out.append(buf, res.ptr);
}

// Fixed-point with `decimals` digits (no exponent); 0 for NaN and infinities.
inline void append_fixed(std::string &out, double v, int decimals)
{
	char buf[64];
	if (!std::isfinite(v))
		v = 0;
#if defined(__EMSCRIPTEN__)
	// The browser lab's libc++ (LLVM 14) has no floating-point to_chars;
	// its C library's printf rounds exactly as well, in the "C" locale.
	const int n = std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
	out.append(buf, n < 0 ? 0 : std::min<std::size_t>(std::size_t(n), sizeof buf - 1));
#else
	auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, decimals);
	out.append(buf, res.ptr);
#endif
}

}  // namespace timersim
