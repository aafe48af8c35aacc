// libFuzzer target: arbitrary bytes as a `timersim sweep` SPEC through the
// real parser and its expansion into cells (workload mixtures, schemes and
// their parameters included). input_error is the only way out; a spec that
// loads must be one whose cells are distinct, numbered in order and whose
// ids are what their keys hash to (the same spec loads to the same cells).
//
// Nothing is read or written on disk: parse_spec() takes the text.
// fuzz-sources: @sim
// fuzz-pkgs: zlib libzstd libtracecmd libtraceevent babeltrace babeltrace-ctf fmt libcrypto
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>

#include "sim/base/errors.h"
#include "sim/sweep/spec.h"
#include "sim/trace/reader.h"

using namespace timersim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
	std::string text(reinterpret_cast<const char *>(data), size);
	sweep::spec s;
	try {
		s = sweep::parse_spec(text, "fuzz/spec.sweep");
	} catch (const input_error &) {
		return 0;
	}
	if (s.cells.empty())
		__builtin_trap();	// a spec without cells must be refused
	std::set<std::string> ids;
	// find_cell() looks once per command, through every cell: asked here
	// of every 1/64th of them (and the last), not of each, which would be
	// quadratic in the cells (tens of seconds under ASan for 10,000).
	const std::size_t step = s.cells.size() / 64 + 1;
	for (std::size_t i = 0; i < s.cells.size(); i++) {
		const sweep::cell &c = s.cells[i];
		if (c.index != i || c.id.size() != 16 || !ids.insert(c.id).second)
			__builtin_trap();
		if ((i % step == 0 || i + 1 == s.cells.size()) && &sweep::find_cell(s, c.id) != &c)
			__builtin_trap();
	}
	sweep::spec again = sweep::parse_spec(text, "fuzz/spec.sweep");
	if (again.cells.size() != s.cells.size() || again.cells.back().id != s.cells.back().id)
		__builtin_trap();
	return 0;
}
