// Kernel symbol table from a System.map or /proc/kallsyms file, to turn the
// callback addresses of binary traces into function names.
//
// Lines are "ADDR TYPE NAME [module]". Only text symbols (t, T, w, W) are
// kept: callbacks point into code, and data symbols at nearby addresses
// would only give wrong names. Names live in one buffer: a kallsyms of
// 150,000 lines loads in a few milliseconds.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace timersim {

// How the callback addresses of a trace fitted a symbol file (--symbols).
// A callback is a function: its address is a symbol's start in the map of
// the kernel that recorded the trace. Inside a symbol, or past the end of
// kernel text (a section marker such as _etext, __entry_text_end,
// _einittext), or far from any symbol, the map is another kernel's.
struct symbol_fit {
	std::string file;		// the symbol file
	std::uint64_t looked_up = 0;	// callback addresses named from the file
	std::uint64_t at_start = 0;	// a symbol's first byte
	std::uint64_t inside = 0;	// within a symbol: shown as sym+0xoff
	std::uint64_t unfit = 0;	// no symbol fits: left in hex
	std::uint64_t example = 0;	// one address that was not a start (0: none)
	std::string example_text;	// where it fell, in words
};

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

	// Farther than this past the nearest symbol, an address is in no
	// symbol of the file: kernel functions are rarely longer.
	static constexpr std::uint64_t max_offset = 8 << 10;
	// The name of a callback at ADDR, counted in fit(): "sym" at a
	// symbol's start, "sym+0x1c" inside one, "" when none fits (below
	// every symbol, past a marker of the end of kernel text, or more than
	// max_offset past the nearest). Safe from several threads.
	std::string callback_name(std::uint64_t addr) const;
	// The same, not counted (for messages).
	std::string describe(std::uint64_t addr) const;
	symbol_fit fit() const;

private:
	enum class placed { none, start, inside, unfit };
	// Where ADDR falls: NAME, the symbol at or below it, OFF past its start.
	placed place(std::uint64_t addr, std::string_view &name, std::uint64_t &off) const;

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
	std::string origin_;	// the file load() read
	// fit(), counted by callback_name() on the parsing threads (held
	// apart so that the table stays movable).
	struct fit_counts {
		std::atomic<std::uint64_t> looked_up{0}, at_start{0}, inside{0}, unfit{0};
		std::atomic<std::uint64_t> example{0};
	};
	std::unique_ptr<fit_counts> counts_ = std::make_unique<fit_counts>();
};

// "0x" + lowercase hex, the way every reader prints an unresolved callback.
std::string hex_address(std::uint64_t addr);

}  // namespace timersim
