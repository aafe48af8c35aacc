// The scanning primitives under the text readers: where the next blank,
// non-blank or '=' of a line is. A trace line is some ten blank-separated
// tokens of ~10-20 bytes, and a gigabyte holds ten million lines, so these
// look at 16 bytes at a time (SSE2, which every x86-64 has) and fall back
// to a byte loop for the last bytes of a line and on other machines. They
// never read outside [p, end).
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace timersim {

inline bool is_blank(char c) { return c == ' ' || c == '\t'; }
inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

namespace scan_detail {

#if defined(__SSE2__)
// Bit i set: P[i] is a blank (' ' or '\t'), for the 16 bytes at P.
inline unsigned blank_bits(__m128i v)
{
	__m128i sp = _mm_cmpeq_epi8(v, _mm_set1_epi8(' '));
	__m128i tab = _mm_cmpeq_epi8(v, _mm_set1_epi8('\t'));
	return unsigned(_mm_movemask_epi8(_mm_or_si128(sp, tab)));
}

inline __m128i load16(const char *p)
{
	return _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
}

// Byte by byte, 0xff where C is a digit '0'..'9' (DIGIT) and where
// LETTERS is a letter 'a'..'f' (LETTER), else 0. LETTERS is C itself for
// lower-case hex, or C folded to lower case.
struct hex_classes {
	__m128i digit, letter;
};
inline hex_classes classify_hex(__m128i c, __m128i letters)
{
	return {_mm_and_si128(_mm_cmpgt_epi8(c, _mm_set1_epi8('0' - 1)), _mm_cmplt_epi8(c, _mm_set1_epi8('9' + 1))),
		_mm_and_si128(_mm_cmpgt_epi8(letters, _mm_set1_epi8('a' - 1)),
			      _mm_cmplt_epi8(letters, _mm_set1_epi8('f' + 1)))};
}
#endif

}  // namespace scan_detail

// Each primitive may be given LIMIT: how far past END memory may be read
// (the reader's buffer, or the data, goes on after the line). Blocks then
// straddle END and the bytes beyond it are masked, so that the last token
// of a line costs one block, not a byte loop. Without LIMIT, no byte at or
// past END is read.

namespace scan_detail {

#if defined(__SSE2__)
// Bit i set: P[i] is at or past END, of the 16 bytes at P.
inline unsigned past(const char *p, const char *end)
{
	std::ptrdiff_t n = end - p;
	return n >= 16 ? 0u : (0xffffu << n) & 0xffffu;
}
#endif

}  // namespace scan_detail

// The first blank of [P, END), or END.
inline const char *find_blank(const char *p, const char *end, const char *limit = nullptr)
{
#if defined(__SSE2__)
	for (; end - p >= 16; p += 16)
		if (unsigned m = scan_detail::blank_bits(scan_detail::load16(p)))
			return p + __builtin_ctz(m);
	if (limit && p < end && limit - p >= 16)	// the last block, straddling END
		return p + __builtin_ctz(scan_detail::blank_bits(scan_detail::load16(p)) |
					 scan_detail::past(p, end));
#else
	(void)limit;
#endif
	while (p < end && !is_blank(*p))
		p++;
	return p;
}

// The first C in [P, END), or END. The text readers look for a '[' a few
// dozen bytes into a line: inline, this costs a fraction of a memchr call.
inline const char *find_byte(const char *p, const char *end, char c)
{
#if defined(__SSE2__)
	__m128i want = _mm_set1_epi8(c);
	for (; end - p >= 16; p += 16)
		if (unsigned m = unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(scan_detail::load16(p), want))))
			return p + __builtin_ctz(m);
#endif
	while (p < end && *p != c)
		p++;
	return p;
}

// The first non-blank of [P, END), or END.
inline const char *skip_blank(const char *p, const char *end, const char *limit = nullptr)
{
	// Most runs are none or one blank: look at two bytes before paying for
	// a block.
	if (p < end && !is_blank(*p))
		return p;
	if (end - p >= 2 && !is_blank(p[1]))
		return p + 1;
#if defined(__SSE2__)
	for (; end - p >= 16; p += 16)
		if (unsigned m = ~scan_detail::blank_bits(scan_detail::load16(p)) & 0xffffu)
			return p + __builtin_ctz(m);
	if (limit && p < end && limit - p >= 16)
		return p + __builtin_ctz((~scan_detail::blank_bits(scan_detail::load16(p)) & 0xffffu) |
					 scan_detail::past(p, end));
#else
	(void)limit;
#endif
	while (p < end && is_blank(*p))
		p++;
	return p;
}

// skip_blank where one ' ' stands at P nearly always (the kernel's ": "
// after the timestamp and after the event's name): that case tested here,
// inline, the others skip_blank's.
[[gnu::always_inline]] inline const char *skip_one_blank(const char *p, const char *end,
							  const char *limit)
{
	if (end - p >= 2 && p[0] == ' ' && !is_blank(p[1])) [[likely]]
		return p + 1;
	return skip_blank(p, end, limit);
}

// A blank-separated token and where its first '=' is.
struct token_scan {
	const char *end;	// the first blank after the token, or the line's end
	const char *eq;		// its first '=', or nullptr
};

namespace scan_detail {

#if defined(__SSE2__)
// One block of scan_token: STOPS are the blanks (and END), V the bytes.
inline bool token_block(const char *p, __m128i v, unsigned stops, token_scan &t)
{
	if (!t.eq) {
		unsigned eqs = unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('='))));
		// An '=' counts only before the token's end.
		eqs &= stops ? (stops & (0u - stops)) - 1 : 0xffffu;
		if (eqs)
			t.eq = p + __builtin_ctz(eqs);
	}
	if (!stops)
		return false;
	t.end = p + __builtin_ctz(stops);
	return true;
}
#endif

}  // namespace scan_detail

// The token that starts at P (not a blank).
inline token_scan scan_token(const char *p, const char *end, const char *limit = nullptr)
{
	token_scan t{end, nullptr};
#if defined(__SSE2__)
	for (; end - p >= 16; p += 16) {
		__m128i v = scan_detail::load16(p);
		if (scan_detail::token_block(p, v, scan_detail::blank_bits(v), t))
			return t;
	}
	if (limit && p < end && limit - p >= 16) {
		__m128i v = scan_detail::load16(p);
		scan_detail::token_block(p, v, scan_detail::blank_bits(v) | scan_detail::past(p, end), t);
		return t;
	}
#else
	(void)limit;
#endif
	for (; p < end && !is_blank(*p); p++)
		if (*p == '=' && !t.eq)
			t.eq = p;
	t.end = p;
	return t;
}

// Eight bytes at a time in a 64-bit word (SWAR), for the long numbers of
// a line: timestamps, hrtimer ns, jiffies. Little-endian only (the first
// byte is the word's low byte); elsewhere the callers' loops do it.
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define TIMERSIM_SWAR_DIGITS 1

namespace swar {

inline std::uint64_t load8(const char *p)
{
	std::uint64_t w;
	std::memcpy(&w, p, sizeof w);
	return w;
}

// How many of W's bytes, from the first, are digits '0'..'9' (0 to 8).
// A byte's high bit in the mask says "not a digit"; the borrow or carry
// of such a byte may mark the bytes after it, never one before.
inline unsigned leading_digits(std::uint64_t w)
{
	std::uint64_t not_digit = ((w + 0x4646464646464646u) | (w - 0x3030303030303030u)) &
				  0x8080808080808080u;
	return not_digit ? unsigned(__builtin_ctzll(not_digit)) >> 3 : 8;
}

// The value of W's first N bytes (1 to 8, all digits): the bytes after
// them are shifted out, zeros (leading zero digits) come in before them,
// and the digits are summed in pairs, fours, eights (fast_float's
// parse_eight_digits_unrolled).
[[gnu::always_inline]] inline std::uint32_t digits_value(std::uint64_t w, unsigned n)
{
	w -= 0x3030303030303030u;
	w <<= 8 * (8 - n);
	w = w * 10 + (w >> 8);
	w = (((w & 0x000000ff000000ffu) * 0x000f424000000064u) +
	     (((w >> 16) & 0x000000ff000000ffu) * 0x0000271000000001u)) >> 32;
	return std::uint32_t(w);
}

constexpr std::uint64_t pow10[9] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
				    100000000};

// The number of the N (1 to 19) digits whose words are W.
[[gnu::always_inline]] inline std::uint64_t digits_value(const std::uint64_t (&w)[3], unsigned n)
{
	if (n <= 8)
		return digits_value(w[0], n);
	std::uint64_t x = digits_value(w[0], 8);
	if (n <= 16)
		return x * pow10[n - 8] + digits_value(w[1], n - 8);
	x = x * pow10[8] + digits_value(w[1], 8);
	return x * pow10[n - 16] + digits_value(w[2], n - 16);
}

}  // namespace swar
#endif

// decimal_prefix without the word-at-a-time case: a plain loop for what
// cannot overflow T (up to digits10 digits, no sign), else the standard's
// answer (a sign, more digits, no digit).
template <class T>
std::from_chars_result decimal_prefix_loop(const char *p, const char *end, T &v)
{
	constexpr int safe = std::numeric_limits<T>::digits10;
	const char *stop = end - p > safe ? p + safe : end;
	const char *q = p;
	std::make_unsigned_t<T> x = 0;
	for (; q < stop; q++) {
		unsigned d = unsigned(static_cast<unsigned char>(*q)) - '0';
		if (d > 9)
			break;
		x = static_cast<std::make_unsigned_t<T>>(x * 10 + d);
	}
	if (q != p && (q == end || unsigned(static_cast<unsigned char>(*q)) - '0' > 9)) {
		v = static_cast<T>(x);
		return {q, std::errc()};
	}
	return std::from_chars(p, end, v);
}

// std::from_chars in base 10 for the number at the front of [P, END), in
// half the work (decimal_prefix_loop); with LIMIT (24 bytes readable at P)
// and 8 bytes or more to END, in words of eight digits (jiffies and ns are
// 10 to 16 digits). Inline: a line has several numbers, and a call would
// cost about as much as the word case's work.
template <class T>
[[gnu::always_inline]] inline std::from_chars_result decimal_prefix(const char *p, const char *end,
								     T &v, const char *limit = nullptr)
{
#ifdef TIMERSIM_SWAR_DIGITS
	constexpr int safe = std::numeric_limits<T>::digits10;
	if (limit && end - p >= 8 && limit - p >= 24) {	// shorter: the loop is cheaper
		std::uint64_t w[3] = {swar::load8(p), 0, 0};
		unsigned n = swar::leading_digits(w[0]);
		if (n == 8) {
			w[1] = swar::load8(p + 8);
			n += swar::leading_digits(w[1]);
			if (n == 16) {
				w[2] = swar::load8(p + 16);
				n += swar::leading_digits(w[2]);
			}
		}
		if (n > std::size_t(end - p))	// digits past END are not the number's
			n = unsigned(end - p);
		if (n && n <= unsigned(safe)) {
			v = static_cast<T>(swar::digits_value(w, n));
			return {p + n, std::errc()};
		}
	}
#else
	(void)limit;
#endif
	return decimal_prefix_loop(p, end, v);
}

#ifdef TIMERSIM_SWAR_DIGITS
// SECONDS.FRACTION at P (24 bytes readable there), 1 to 10 digits and 1 to
// 8: its value in ns and its length, or 0 when P holds none (or a longer
// fraction). Timestamps are 13 to 17 bytes: three words.
[[gnu::always_inline]] inline std::size_t seconds_fraction(const char *p, std::uint64_t &ns)
{
	std::uint64_t head = swar::load8(p);
	unsigned sec = swar::leading_digits(head);
	if (sec == 8)	// 11 here: too long
		sec += std::min(swar::leading_digits(swar::load8(p + 8)), 3u);
	if (sec == 0 || sec > 10 || p[sec] != '.')
		return 0;
	std::uint64_t tail = swar::load8(p + sec + 1);
	unsigned frac = swar::leading_digits(tail);
	if (frac == 0 || (frac == 8 && is_digit(p[sec + 9])))
		return 0;
	std::uint64_t seconds = sec <= 8 ? swar::digits_value(head, sec)
					 : std::uint64_t(swar::digits_value(head, sec - 8)) * 100000000u +
					   swar::digits_value(swar::load8(p + sec - 8), 8);
	ns = seconds * 1000000000u + std::uint64_t(swar::digits_value(tail, frac)) * swar::pow10[9 - frac];
	return sec + 1 + frac;
}
#endif

// The 16 hex digits at P as a number, or false when one is not a hex digit.
// Kernel pointers are 16 digits (%p on 64-bit): this is the hot case of
// parse_pointer, in a few SSE2 instructions instead of a loop per digit.
[[gnu::always_inline]] inline bool hex16(const char *p, std::uint64_t &v)
{
#if defined(__SSE2__)
	__m128i c = scan_detail::load16(p);
	__m128i lower = _mm_or_si128(c, _mm_set1_epi8(0x20));	// 'A' -> 'a'; digits unchanged
	const auto [digit, letter] = scan_detail::classify_hex(c, lower);
	if (_mm_movemask_epi8(_mm_or_si128(digit, letter)) != 0xffff)
		return false;
	// Digit values, then each pair of digits into one byte: the first
	// digit of a pair is the low byte of its 16-bit lane (little endian).
	__m128i val = _mm_or_si128(
		_mm_and_si128(digit, _mm_sub_epi8(c, _mm_set1_epi8('0'))),
		_mm_andnot_si128(digit, _mm_sub_epi8(lower, _mm_set1_epi8('a' - 10))));
	__m128i pairs = _mm_or_si128(_mm_slli_epi16(_mm_and_si128(val, _mm_set1_epi16(0xff)), 4),
				     _mm_srli_epi16(val, 8));
	__m128i bytes = _mm_packus_epi16(pairs, pairs);
	std::uint64_t be;
	_mm_storel_epi64(reinterpret_cast<__m128i *>(&be), bytes);
	v = __builtin_bswap64(be);	// the first pair is the most significant byte
	return true;
#else
	const char *end = p + 16;
	auto [stop, ec] = std::from_chars(p, end, v, 16);
	return ec == std::errc() && stop == end;
#endif
}

#if defined(__SSE2__)
// Bit i set: P[i] is a lower-case hex digit, of the 16 bytes at P (the
// kernel prints addresses so: kallsyms, %p).
inline unsigned lower_hex_bits(const char *p)
{
	__m128i c = scan_detail::load16(p);
	const auto [digit, letter] = scan_detail::classify_hex(c, c);
	return unsigned(_mm_movemask_epi8(_mm_or_si128(digit, letter)));
}
#endif

inline std::string_view skip_blanks(std::string_view s)
{
	const char *end = s.data() + s.size();
	const char *p = skip_blank(s.data(), end);
	return std::string_view(p, end - p);
}

}  // namespace timersim
