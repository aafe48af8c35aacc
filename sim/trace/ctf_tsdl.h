// The layouts a CTF trace's metadata (TSDL, CTF 1.8) declares, as our own
// CTF reader needs them to walk the stream files.
//
// parse_tsdl() reads the declarations LTTng writes: typealias and typedef,
// named and inline struct, variant and enum, integer, floating_point and
// string, fixed arrays and sequences; the trace, env, clock, stream and
// event blocks. What the decoder needs is computed once here: every type's
// alignment and fixed size, every variant tag and sequence length resolved
// to the field it names (a relative name, found in the enclosing structs),
// every field's role (the header's id and timestamp). Anything else (a
// reference by absolute path, a zero-size array element, nesting deeper
// than 32) is refused as an input_error, never half read.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace timersim::ctf {

enum class type_kind : std::uint8_t { integer, floating, string, structure, variant, array, sequence };

// The fields the decoder looks for by role instead of by name.
enum class field_role : std::uint8_t { none, id, timestamp };

struct type;
using type_ptr = std::shared_ptr<const type>;

struct field {
	std::string name;	// as declared ("_timer")
	type_ptr t;
	field_role role = field_role::none;
	std::uint64_t offset = 0;	// bits from the struct's start, when it is flat
};

// Where a variant's tag or a sequence's length is: LEVELS enclosing
// structs up from the one holding the variant or sequence, field INDEX.
struct field_ref {
	unsigned levels = 0;
	unsigned index = 0;
};

struct enum_range {
	std::int64_t lo, hi;	// as the tag's integer, sign-extended
	std::string label;
};

struct type {
	type_kind kind = type_kind::integer;
	unsigned align = 8;		// bits, a power of two
	// integer, floating, enum (an integer with labels)
	unsigned size = 0;		// bits, 1..64
	bool is_signed = false;
	bool big_endian = false;	// resolved against the trace's byte order
	std::string clock;		// integer mapped to clock.NAME.value
	std::vector<enum_range> labels;
	// structure and variant
	std::vector<field> fields;
	// variant: the tag and, per tag range, the option it selects (-1: none)
	field_ref ref;			// also: a sequence's length
	type_ptr tag;			// the tag's enum type
	std::vector<int> option_of_range;
	// array, sequence
	std::uint64_t length = 0;	// array
	type_ptr element;
	// Bits this type takes when it starts aligned to ALIGN; -1 when that
	// depends on the data (strings, sequences, variants).
	std::int64_t fixed_bits = -1;
	std::uint64_t min_bits = 0;	// at least, whatever the data
	// A struct of integers only, of fixed size: its fields are read at
	// their offsets, with one bounds check for all.
	bool flat = false;
};

struct clock_class {
	std::uint64_t freq = 1000000000;
	std::uint64_t offset = 0;	// cycles
	std::int64_t offset_s = 0;
};

struct event_class {
	std::string name;
	std::uint32_t index = 0;	// dense, over every stream class
	std::uint64_t id = 0;
	std::uint64_t stream_id = 0;
	type_ptr context;	// may be null
	type_ptr fields;	// may be null
};

struct stream_class {
	std::uint64_t id = 0;
	type_ptr packet_context;
	type_ptr event_header;
	type_ptr event_context;
	std::map<std::uint64_t, event_class> events;	// by id
	// The same by id, for ids up to dense_ids (pointers into EVENTS).
	static constexpr std::uint64_t dense_ids = 1 << 16;
	std::vector<const event_class *> by_id;
	const event_class *find(std::uint64_t id) const
	{
		if (id < by_id.size())
			return by_id[id];
		auto it = events.find(id);
		return it == events.end() ? nullptr : &it->second;
	}
};

struct trace_model {
	bool big_endian = false;
	std::string uuid;		// 16 bytes, empty when not declared
	type_ptr packet_header;
	std::map<std::string, clock_class> clocks;
	std::map<std::uint64_t, stream_class> streams;	// by id
	std::map<std::string, std::string> env;		// values unquoted
	std::uint32_t event_count = 0;			// over every stream class
};

// Parses TEXT (the metadata without its packet framing, as
// read_ctf_metadata() gives it). ORIGIN names the metadata file in errors.
// Throws input_error naming the line of what it cannot read.
trace_model parse_tsdl(const std::string &text, const std::string &origin);

// A field name the way babeltrace shows it: one leading underscore dropped.
std::string_view display_name(std::string_view declared);

}  // namespace timersim::ctf
