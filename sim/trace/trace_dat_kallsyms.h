// Callback names from a trace.dat's own kallsyms, without loading all of it.
//
// A trace names a few dozen distinct callbacks; its kallsyms has 100,000+
// lines. /proc/kallsyms lists symbols by address, so when every line starts
// with an address of one width in ascending order (one pass that compares
// the address columns as text, nothing parsed), a name is found by binary
// search: the lines around the address, whole runs of equal addresses back
// to a text symbol, are loaded into a small symbol_table, whose lookup()
// applies its own rules (text symbols only, nearest at or below, the first
// of equal addresses). The search bisects the bytes and finds line starts
// by their newlines: no table of 200,000 line offsets (800 KB, 200 page
// faults on a virtual machine, on the way of the first callback name).
// Text that is not so ordered is loaded whole, the same way. Either way
// the names are those symbol_table::load_text() of the whole text would
// give.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/trace/symbols.h"
#include "sim/trace/trace_dat_file.h"

namespace timersim {

// Whether a kallsyms text is in address order (every line an address of
// one width, 8 or 16 hex digits, then a blank), checked as the text
// arrives: a trace.dat's is checked piece by piece as it inflates, each
// piece while it is still in the cache, so that the names can be looked up
// as soon as the last piece is out.
class kallsyms_order {
public:
	// Checks the whole lines of [P, END) (P where the last call stopped,
	// or the text's start); returns where the first line it did not check
	// starts. LAST: END is the end of the text (its last line may lack a
	// newline).
	const char *check(const char *p, const char *end, bool last);
	// After check(..., true): the text is ordered, so names are found by
	// search.
	bool ordered() const { return !broken_ && done_ && any_; }
	unsigned width() const { return width_; }

private:
	unsigned width_ = 0;		// hex digits of every address, once known
	bool started_ = false, broken_ = false, done_ = false, any_ = false;
	std::uint64_t prev_hi_ = 0, prev_lo_ = 0;
};

class tdat_kallsyms {
public:
	tdat_kallsyms() = default;
	// TEXT holds the kallsyms from byte SKIP on, LEN bytes; ORIGIN names
	// it in errors. ORDER: kallsyms_order over all of it already, or null
	// (then it is checked here).
	tdat_kallsyms(tdat_bytes text, std::size_t skip, std::size_t len, std::string origin,
		      const kallsyms_order *order = nullptr);

	// The symbol at ADDR or the nearest text symbol below it; empty when
	// there is none. Valid until the next call.
	std::string_view lookup(std::uint64_t addr);
	// Names are found by search (not the whole text loaded).
	bool searched() const { return ordered_; }

private:
	// Lines are found by their first byte's offset in body_.
	std::string_view address_of(std::size_t line) const { return body_.substr(line, width_); }
	std::size_t line_after(std::size_t at) const;	// the first line start past byte AT
	std::size_t line_holding(std::size_t at) const;	// the start of the line with byte AT
	std::string_view lines(std::size_t first, std::size_t last) const;

	tdat_bytes text_;
	std::string_view body_;
	std::string origin_;
	bool ordered_ = false;
	unsigned width_ = 0;			// hex digits of every address
	symbol_table table_;			// all of it, or the last window
};

}  // namespace timersim
