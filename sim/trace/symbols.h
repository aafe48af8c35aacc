// Kernel symbol table from a System.map or /proc/kallsyms file, to turn the
// callback addresses of binary traces into function names.
//
// Lines are "ADDR TYPE NAME [module]". Only text symbols (t, T, w, W) are
// kept: callbacks point into code, and data symbols at nearby addresses
// would only give wrong names. Names live in one buffer: a kallsyms of
// 150,000 lines loads in a few milliseconds.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace timersim {

class symbol_table {
public:
	// Longest line and largest file load() takes: kallsyms lines are under
	// 600 bytes (KSYM_NAME_LEN 512), a System.map of allyesconfig is tens
	// of MiB.
	static constexpr std::size_t max_line = 4096;
	static constexpr std::uint64_t max_file = std::uint64_t(256) << 20;

	// Loads PATH (plain or gzip); throws input_error when it cannot be read,
	// is a directory, has a longer line or is larger than the above, or
	// holds no text symbol at all (a wrong file is better refused than
	// ignored).
	void load(const std::string &path);
	// The same from TEXT already in memory (a trace.dat's own kallsyms);
	// ORIGIN names it in errors. Returns the number of text symbols, and
	// throws only for a malformed address.
	std::size_t load_text(std::string_view text, const std::string &origin);
	bool empty() const { return syms_.empty(); }
	std::size_t size() const { return syms_.size(); }
	// The symbol at ADDR, else the nearest one below it; empty when ADDR is
	// below every symbol. Of several symbols at one address, the first in
	// the file wins. Valid as long as the table.
	std::string_view lookup(std::uint64_t addr) const;

private:
	struct sym {		// 16 bytes: kallsyms has 100,000+
		std::uint64_t addr;
		std::uint32_t name;	// offset in names_
		std::uint32_t len;
	};
	void clear();
	void add_line(std::string_view line, std::uint64_t lineno, const std::string &origin);
	void sort();

	std::vector<sym> syms_;
	std::string names_;
};

// "0x" + lowercase hex, the way every reader prints an unresolved callback.
std::string hex_address(std::uint64_t addr);

}  // namespace timersim
