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

const char *kallsyms_order::check(const char *p, const char *end, bool last)
{
	if (!started_) {
		// The width: the first line's leading hex digits (the whole
		// first line is needed to know them).
		const char *eol = find_byte(p, end, '\n');
		if (eol == end && !last)
			return p;
		while (width_ < static_cast<std::size_t>(end - p) && lower_hex(p[width_]))
			width_++;
		started_ = true;
		broken_ = width_ != 8 && width_ != 16;
	}
	while (!broken_ && p < end) {
		// Past the address, the type and a blank: a line is longer.
		const char *from = p + std::min<std::size_t>(width_ + 2, end - p);
		const char *eol = find_byte(from, end, '\n');
		if (eol == end && !last)
			return p;	// the line goes on in the next piece
		if (static_cast<std::size_t>(eol - p) <= width_ || p[width_] != ' ' ||
		    !lower_hex_run(p, width_, end)) {
			broken_ = true;
			break;
		}
		std::uint64_t hi = column(p, 0), lo = width_ == 16 ? column(p, 8) : 0;
		if (hi < prev_hi_ || (hi == prev_hi_ && lo < prev_lo_)) {
			broken_ = true;
			break;
		}
		prev_hi_ = hi;
		prev_lo_ = lo;
		any_ = true;
		p = eol + 1;
	}
	done_ = done_ || last;
	return p;
}

tdat_kallsyms::tdat_kallsyms(tdat_bytes text, std::size_t skip, std::size_t len,
			     std::string origin, const kallsyms_order *order)
	: text_(std::move(text)), origin_(std::move(origin))
{
	body_ = text_.view().substr(skip, len);
	kallsyms_order here;
	if (!order) {
		here.check(body_.data(), body_.data() + body_.size(), true);
		order = &here;
	}
	ordered_ = order->ordered();
	width_ = order->width();
	if (!ordered_)
		table_.load_text(body_, origin_);
}

std::size_t tdat_kallsyms::line_after(std::size_t at) const
{
	std::size_t nl = body_.find('\n', at);
	return nl == body_.npos ? body_.size() : nl + 1;
}

std::size_t tdat_kallsyms::line_holding(std::size_t at) const
{
	std::size_t nl = at ? body_.rfind('\n', at - 1) : body_.npos;
	return nl == body_.npos ? 0 : nl + 1;
}

// Lines FIRST..LAST, whole.
std::string_view tdat_kallsyms::lines(std::size_t first, std::size_t last) const
{
	return body_.substr(first, line_after(last) - first);
}

std::string_view tdat_kallsyms::lookup(std::uint64_t addr)
{
	if (!ordered_)
		return table_.lookup(addr);
	char want[24];
	std::snprintf(want, sizeof(want), "%0*llx", static_cast<int>(width_),
		      static_cast<unsigned long long>(addr));
	std::string_view target(want);
	// The last line at or below ADDR (the last line of all, when ADDR is
	// wider). LO starts a line at or below it; no line starting at HI or
	// after is.
	std::size_t last;
	if (target.size() != width_) {
		last = line_holding(body_.size() - 1);
	} else {
		if (address_of(0) > target)
			return {};
		std::size_t lo = 0, hi = body_.size();
		while (line_after(lo) < hi) {
			std::size_t mid = lo + (hi - lo) / 2;
			std::size_t at = line_after(mid - 1);	// the first line start from MID on
			if (at >= hi)
				hi = mid;
			else if (address_of(at) <= target)
				lo = at;
			else
				hi = at;
		}
		last = lo;
	}
	// Back to the start of its run of equal addresses, then by more runs
	// (twice as many lines each time) until the window holds a text
	// symbol.
	std::size_t first = last, span = 1;
	for (;;) {
		while (first > 0 && address_of(line_holding(first - 1)) == address_of(first))
			first = line_holding(first - 1);
		if (table_.load_text(lines(first, last), origin_) || first == 0)
			break;
		for (std::size_t i = 0; i < span && first > 0; i++)
			first = line_holding(first - 1);
		span *= 2;
	}
	return table_.lookup(addr);
}

}  // namespace timersim
