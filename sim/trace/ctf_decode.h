// Walks CTF data by the layouts parse_tsdl() built: a packet's bits in,
// the integer values of a struct's fields out.
//
// Every read is checked against the end of the packet's content before it
// happens, a sequence's length against the bits left before its elements
// are walked, a string's terminator is searched within the content only,
// and a variant tag that selects no option is an error: damaged data gives
// an input_error with the file's byte offset, never a read out of bounds or
// a long loop.
#pragma once

#include <cstdint>
#include <string>

#include "sim/trace/ctf_tsdl.h"

namespace timersim::ctf {

// The packet being read. BASE holds its bytes followed by at least
// bit_cursor::padding zero bytes; positions are in bits from BASE.
struct bit_cursor {
	static constexpr unsigned padding = 16;
	const std::uint8_t *base = nullptr;
	std::uint64_t pos = 0;
	std::uint64_t end = 0;		// the content's end
	const std::string *file = nullptr;
	std::uint64_t file_offset = 0;	// of BASE in the file

	[[noreturn]] void fail(const std::string &why) const;
};

// The event header's id and timestamp, wherever they sit in it (the
// compact and large LTTng headers put them in a variant).
struct header_fields {
	bool has_id = false, has_ts = false;
	std::uint64_t id = 0;
	std::uint64_t ts = 0;
	unsigned ts_bits = 0;
	const type *ts_type = nullptr;
};

// Reads the struct T at C (aligning C first) and stores each field's
// integer value (sign-extended; 0 for a field that is not an integer) in
// VALS, which has room for T.fields.size(); STARTS, when not null, gets
// each field's first bit. HEADER, when not null, collects id and
// timestamp fields at any depth.
void read_struct(const type &t, bit_cursor &c, std::uint64_t *vals, std::uint64_t *starts = nullptr,
		 header_fields *header = nullptr);

// LTTng's event headers (compact and large): an id integer, then a variant
// on it whose options are flat structs. Once an event, such a header is
// read without the general walk (its dispatch, frames and variant lookup
// would be paid at every event for a shape known once); the values,
// positions, captures and errors are read_struct()'s.
struct header_plan {
	const type *t = nullptr;	// null: not of that shape, use read_struct()
};
header_plan plan_header(const type &t);
void read_header(const header_plan &p, bit_cursor &c, std::uint64_t *vals, header_fields &header);

}  // namespace timersim::ctf
