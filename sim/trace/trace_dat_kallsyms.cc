#include "sim/trace/trace_dat_kallsyms.h"

#include "sim/trace/text_scan.h"

#include <cstdio>
#include <algorithm>
#include <cstring>
#include <endian.h>

namespace timersim {

namespace {

constexpr bool lower_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

// 0 for a lower-case hex digit, 1 for anything else.
struct not_hex_table {
	unsigned char v[256];
	constexpr not_hex_table() : v()
	{
		for (int i = 0; i < 256; i++)
			v[i] = lower_hex(static_cast<char>(i)) ? 0 : 1;
	}
};
constexpr not_hex_table not_hex;

// Whether the N (at most 16) bytes at P are lower-case hex digits; END
// bounds what may be read. A block of 16 where the line allows: a 6.x
// kallsyms has 200,000 lines or more, each checked.
inline bool lower_hex_run(const char *p, unsigned n, const char *end)
{
#if defined(__SSE2__)
	if (end - p >= 16) {
		const unsigned want = (1u << n) - 1;
		return (lower_hex_bits(p) & want) == want;
	}
#endif
	unsigned bad = 0;
	for (unsigned i = 0; i < n; i++)
		bad |= not_hex.v[static_cast<unsigned char>(p[i])];
	return !bad;
}

// The address columns of two lines, as numbers would compare: the same
// width of hex digits compares as text.
inline std::uint64_t column(const char *p, unsigned at)
{
	std::uint64_t v;
	std::memcpy(&v, p + at, 8);
	return be64toh(v);
}

}  // namespace

tdat_kallsyms::tdat_kallsyms(tdat_bytes text, std::size_t skip, std::size_t len,
			     std::string origin)
	: text_(std::move(text)), origin_(std::move(origin))
{
	body_ = text_.view().substr(skip, len);
	const char *p = body_.data(), *end = p + body_.size();
	while (width_ < body_.size() && lower_hex(body_[width_]))
		width_++;
	ordered_ = (width_ == 8 || width_ == 16) && body_.size() < UINT32_MAX;
	starts_.reserve(body_.size() / 32);
	std::uint64_t prev_hi = 0, prev_lo = 0;
	while (ordered_ && p < end) {
		// Past the address, the type and a blank: a line is longer.
		const char *from = p + std::min<std::size_t>(width_ + 2, end - p);
		const char *eol = find_byte(from, end, '\n');
		if (static_cast<std::size_t>(eol - p) <= width_ || p[width_] != ' ' ||
		    !lower_hex_run(p, width_, end))
			break;
		std::uint64_t hi = column(p, 0), lo = width_ == 16 ? column(p, 8) : 0;
		if (hi < prev_hi || (hi == prev_hi && lo < prev_lo))
			break;
		prev_hi = hi;
		prev_lo = lo;
		starts_.push_back(static_cast<std::uint32_t>(p - body_.data()));
		p = eol + 1;
	}
	ordered_ = ordered_ && p >= end;
	if (!ordered_ || starts_.empty()) {
		ordered_ = false;
		starts_.clear();
		table_.load_text(body_, origin_);
	}
}

std::string_view tdat_kallsyms::address_of(std::size_t line) const
{
	return body_.substr(starts_[line], width_);
}

// Lines FIRST..LAST, whole.
std::string_view tdat_kallsyms::lines(std::size_t first, std::size_t last) const
{
	std::size_t end = last + 1 < starts_.size() ? starts_[last + 1] : body_.size();
	return body_.substr(starts_[first], end - starts_[first]);
}

std::string_view tdat_kallsyms::lookup(std::uint64_t addr)
{
	if (!ordered_)
		return table_.lookup(addr);
	char want[24];
	std::snprintf(want, sizeof(want), "%0*llx", static_cast<int>(width_),
		      static_cast<unsigned long long>(addr));
	std::string_view target(want);
	// The last line at or below ADDR (every line, when ADDR is wider).
	std::size_t lo = 0, hi = starts_.size();
	if (target.size() == width_) {
		while (lo < hi) {
			std::size_t mid = lo + (hi - lo) / 2;
			if (address_of(mid) <= target)
				lo = mid + 1;
			else
				hi = mid;
		}
	} else {
		lo = starts_.size();
	}
	if (!lo)
		return {};
	const std::size_t last = lo - 1;
	// Back to the start of its run of equal addresses, then by more runs
	// (twice as many lines each time) until the window holds a text
	// symbol.
	std::size_t first = last, span = 1;
	for (;;) {
		while (first > 0 && address_of(first - 1) == address_of(first))
			first--;
		if (table_.load_text(lines(first, last), origin_) || first == 0)
			break;
		first = first > span ? first - span : 0;
		span *= 2;
	}
	return table_.lookup(addr);
}

}  // namespace timersim
