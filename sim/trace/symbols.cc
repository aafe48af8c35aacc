#include "sim/trace/symbols.h"

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "sim/trace/reader.h"

namespace timersim {

namespace {

bool is_text_type(char t)
{
	return t == 't' || t == 'T' || t == 'w' || t == 'W';
}

bool parse_hex(std::string_view s, std::uint64_t &out)
{
	if (s.empty() || s.size() > 16)
		return false;
	std::uint64_t v = 0;
	for (char c : s) {
		unsigned d;
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return false;
		v = v << 4 | d;
	}
	out = v;
	return true;
}

}  // namespace

void symbol_table::load(const std::string &path)
{
	std::ifstream in(path);
	if (!in)
		throw input_error(path, 0, "cannot open symbol file");
	syms_.clear();
	std::string line;
	std::uint64_t lineno = 0;
	while (std::getline(in, line)) {
		lineno++;
		std::string_view l(line);
		std::size_t a = l.find(' ');
		if (a == std::string_view::npos || a + 3 > l.size() || l[a + 2] != ' ')
			continue;	// blank or foreign line: not a symbol
		std::uint64_t addr;
		if (!parse_hex(l.substr(0, a), addr))
			throw input_error(path, lineno, "bad symbol address");
		if (!is_text_type(l[a + 1]))
			continue;
		std::string_view name = l.substr(a + 3);
		name = name.substr(0, name.find_first_of(" \t"));	// drop "[module]"
		if (name.empty())
			continue;
		syms_.push_back({addr, static_cast<std::uint32_t>(syms_.size()),
				 std::string(name)});
	}
	if (in.bad())
		throw input_error(path, lineno, "read error");
	if (syms_.empty())
		throw input_error(path, 0, "no text symbols (not a System.map or kallsyms file?)");
	std::sort(syms_.begin(), syms_.end(), [](const sym &x, const sym &y) {
		return x.addr != y.addr ? x.addr < y.addr : x.order < y.order;
	});
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
	return it->name;
}

std::string hex_address(std::uint64_t addr)
{
	char buf[24];
	std::snprintf(buf, sizeof(buf), "0x%llx", static_cast<unsigned long long>(addr));
	return buf;
}

}  // namespace timersim
