#include "sim/trace/symbols.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "sim/trace/line_source.h"
#include "sim/trace/reader.h"

namespace timersim {

namespace {

bool is_text_type(char t)
{
	return t == 't' || t == 'T' || t == 'w' || t == 'W';
}

// Hex digit values, 0xff for anything else: a table beats the branches
// over 100,000+ lines of kallsyms.
struct hex_table {
	unsigned char v[256];
	constexpr hex_table() : v()
	{
		for (int i = 0; i < 256; i++)
			v[i] = 0xff;
		for (int i = 0; i < 10; i++)
			v['0' + i] = static_cast<unsigned char>(i);
		for (int i = 0; i < 6; i++)
			v['a' + i] = v['A' + i] = static_cast<unsigned char>(10 + i);
	}
};
constexpr hex_table hex_digit;

bool parse_hex(std::string_view s, std::uint64_t &out)
{
	if (s.empty() || s.size() > 16)
		return false;
	std::uint64_t v = 0;
	unsigned bad = 0;
	for (char c : s) {
		unsigned d = hex_digit.v[static_cast<unsigned char>(c)];
		bad |= d;
		v = v << 4 | (d & 0xf);
	}
	if (bad & 0xf0)
		return false;
	out = v;
	return true;
}

}  // namespace

void symbol_table::load(const std::string &path)
{
	// Streamed line by line, so that memory follows the symbols kept and a
	// file that is no symbol list (/dev/zero, a binary, a huge log) is
	// refused at its first long line or past a size no kernel reaches.
	auto src = line_source::open_file(path, line_source::default_buffer, "symbol file");
	clear();
	std::string_view line;
	while (src->next(line)) {
		if (src->overlong() || line.size() > max_line)
			throw input_error(path, src->line_no(),
					  "line longer than " + std::to_string(max_line) +
					  " bytes: not a System.map or kallsyms file");
		if (src->bytes() > max_file)
			throw input_error(path, src->line_no(),
					  "larger than " + std::to_string(max_file >> 20) +
					  " MiB: not a System.map or kallsyms file");
		add_line(line, src->line_no(), path);
	}
	sort();
	if (syms_.empty())
		throw input_error(path, 0, "no text symbols (not a System.map or kallsyms file?)");
	origin_ = path;
}

std::size_t symbol_table::load_text(std::string_view text, const std::string &origin)
{
	clear();
	names_.reserve(text.size() / 2);
	syms_.reserve(text.size() / 32);	// kallsyms lines average 40 bytes
	std::uint64_t lineno = 0;
	const char *p = text.data(), *end = p + text.size();
	while (p < end) {
		const char *eol = static_cast<const char *>(std::memchr(p, '\n', end - p));
		if (!eol)
			eol = end;
		add_line(std::string_view(p, eol - p), ++lineno, origin);
		p = eol + 1;
	}
	sort();
	return syms_.size();
}

void symbol_table::clear()
{
	syms_.clear();
	names_.clear();
}

// One "ADDR TYPE NAME [module]" line, by hand: kallsyms has 100,000+.
void symbol_table::add_line(std::string_view l, std::uint64_t lineno, const std::string &origin)
{
	std::size_t a = l.find(' ');
	if (a == std::string_view::npos || a + 3 > l.size() || l[a + 2] != ' ')
		return;	// blank or foreign line: not a symbol
	std::uint64_t addr;
	if (!parse_hex(l.substr(0, a), addr))
		throw input_error(origin, lineno, "bad symbol address");
	if (!is_text_type(l[a + 1]))
		return;
	// The name ends before "\t[module]" (kallsyms), a blank, or a DOS
	// line end.
	std::size_t n = a + 3, e = l.size();
	for (char stop : {'\t', ' '})
		if (const void *at = std::memchr(l.data() + n, stop, e - n))
			e = static_cast<const char *>(at) - l.data();
	while (e > n && l[e - 1] == '\r')
		e--;
	if (e == n)
		return;
	if (names_.size() + (e - n) > UINT32_MAX)
		throw input_error(origin, lineno, "symbol names too large");
	syms_.push_back({addr, static_cast<std::uint32_t>(names_.size()),
			 static_cast<std::uint32_t>(e - n)});
	names_.append(l.data() + n, e - n);
}

void symbol_table::sort()
{
	// Stable: of equal addresses the first in the file stays first.
	auto before = [](const sym &x, const sym &y) { return x.addr < y.addr; };
	if (!std::is_sorted(syms_.begin(), syms_.end(), before))	// kallsyms mostly is
		std::stable_sort(syms_.begin(), syms_.end(), before);
}

std::string_view symbol_table::lookup(std::uint64_t addr) const
{
	// First symbol above addr; the one before it is at or below addr. Step
	// back over equal addresses so the first one in the file wins.
	auto it = std::upper_bound(syms_.begin(), syms_.end(), addr,
				   [](std::uint64_t a, const sym &s) { return a < s.addr; });
	if (it == syms_.begin())
		return {};
	--it;
	while (it != syms_.begin() && (it - 1)->addr == it->addr)
		--it;
	return std::string_view(names_).substr(it->name, it->len);
}

namespace {

// Symbols that mark where a section of kernel text ends (or the image
// does): an address that falls on or past one lies in no function of
// this map, as every callback of a trace recorded by another kernel
// whose text runs further does.
bool is_end_marker(std::string_view name)
{
	return name == "_etext" || name == "_einittext" || name == "_end" ||
	       name == "__end_rodata" || (name.starts_with("__") && name.ends_with("_end")) ||
	       (name.starts_with("__") && name.ends_with("_text_end"));
}

}  // namespace

symbol_table::placed symbol_table::place(std::uint64_t addr, std::string_view &name,
					 std::uint64_t &off) const
{
	auto it = std::upper_bound(syms_.begin(), syms_.end(), addr,
				   [](std::uint64_t a, const sym &s) { return a < s.addr; });
	if (it == syms_.begin())
		return placed::none;
	--it;
	while (it != syms_.begin() && (it - 1)->addr == it->addr)
		--it;
	name = std::string_view(names_).substr(it->name, it->len);
	off = addr - it->addr;
	if (is_end_marker(name) || off > max_offset)
		return placed::unfit;
	return off ? placed::inside : placed::start;
}

namespace {

std::string with_offset(std::string_view sym, std::uint64_t off)
{
	return off ? std::string(sym) + "+" + hex_address(off) : std::string(sym);
}

}  // namespace

std::string symbol_table::callback_name(std::uint64_t addr) const
{
	std::string_view name;
	std::uint64_t off = 0;
	placed p = place(addr, name, off);
	if (p == placed::none)
		return "";
	fit_counts &c = *counts_;	// null only in a moved-from table
	c.looked_up.fetch_add(1, std::memory_order_relaxed);
	std::atomic<std::uint64_t> &n = p == placed::start ? c.at_start
				       : p == placed::inside ? c.inside
							     : c.unfit;
	n.fetch_add(1, std::memory_order_relaxed);
	if (p != placed::start) {
		std::uint64_t none = 0;
		c.example.compare_exchange_strong(none, addr, std::memory_order_relaxed);
	}
	return p == placed::unfit ? "" : with_offset(name, off);
}

std::string symbol_table::describe(std::uint64_t addr) const
{
	std::string_view name;
	std::uint64_t off = 0;
	switch (place(addr, name, off)) {
	case placed::none:
		return hex_address(addr) + " is below every symbol";
	case placed::unfit:
		return hex_address(addr) + " falls " + hex_address(off) + " bytes past " +
		       std::string(name) + ", in no function";
	default:
		return hex_address(addr) + " falls at " + with_offset(name, off);
	}
}

symbol_fit symbol_table::fit() const
{
	symbol_fit f;
	f.file = origin_;
	if (counts_) {
		f.looked_up = counts_->looked_up.load(std::memory_order_relaxed);
		f.at_start = counts_->at_start.load(std::memory_order_relaxed);
		f.inside = counts_->inside.load(std::memory_order_relaxed);
		f.unfit = counts_->unfit.load(std::memory_order_relaxed);
		f.example = counts_->example.load(std::memory_order_relaxed);
	}
	if (f.example)
		f.example_text = describe(f.example);
	return f;
}

std::string hex_address(std::uint64_t addr)
{
	char buf[24];
	std::snprintf(buf, sizeof(buf), "0x%llx", static_cast<unsigned long long>(addr));
	return buf;
}

}  // namespace timersim
