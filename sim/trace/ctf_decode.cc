#include "sim/trace/ctf_decode.h"

#include <cstring>
#include <endian.h>
#include <vector>

#include "sim/trace/reader.h"

namespace timersim::ctf {

void bit_cursor::fail(const std::string &why) const
{
	throw input_error::at_offset(*file, file_offset + pos / 8, why);
}

namespace {

// Values of the struct being read, for the tags and lengths inside it.
struct frame {
	const frame *up;
	const std::uint64_t *vals;
};

inline std::uint64_t load_le(const std::uint8_t *p)
{
	std::uint64_t v;
	std::memcpy(&v, p, 8);
	return le64toh(v);
}

inline std::uint64_t load_be(const std::uint8_t *p)
{
	std::uint64_t v;
	std::memcpy(&v, p, 8);
	return be64toh(v);
}

// LEN bits at bit POS. Little-endian data counts bits from the least
// significant bit of each byte, big-endian from the most significant.
inline std::uint64_t load_bits(const std::uint8_t *base, std::uint64_t pos, unsigned len, bool be)
{
	const std::uint8_t *p = base + (pos >> 3);
	unsigned shift = pos & 7;
	std::uint64_t v;
	if (!be) {
		v = load_le(p) >> shift;
		if (shift + len > 64)
			v |= std::uint64_t(p[8]) << (64 - shift);
		return len == 64 ? v : v & ((std::uint64_t(1) << len) - 1);
	}
	v = load_be(p);
	if (shift + len <= 64)
		return (v << shift) >> (64 - len);
	unsigned __int128 w = (static_cast<unsigned __int128>(v) << 8) | p[8];
	return static_cast<std::uint64_t>((w << (56 + shift)) >> (128 - len));
}

inline void align_to(bit_cursor &c, unsigned align)
{
	c.pos = (c.pos + align - 1) & ~std::uint64_t(align - 1);
	if (c.pos > c.end)
		c.fail("event data runs past the end of its packet's content");
}

inline void need(const bit_cursor &c, std::uint64_t bits)
{
	if (bits > c.end - c.pos)
		c.fail("event data runs past the end of its packet's content");
}

inline std::uint64_t extend(std::uint64_t v, const type &t)
{
	if (t.is_signed && t.size < 64) {
		unsigned s = 64 - t.size;
		v = static_cast<std::uint64_t>(static_cast<std::int64_t>(v << s) >> s);
	}
	return v;
}

inline std::uint64_t read_number(const type &t, bit_cursor &c)
{
	align_to(c, t.align);
	need(c, t.size);
	std::uint64_t v = load_bits(c.base, c.pos, t.size, t.big_endian);
	c.pos += t.size;
	return extend(v, t);
}

void walk(const type &t, bit_cursor &c, const frame *up, header_fields *header);
void walk_struct(const type &t, bit_cursor &c, const frame *up, std::uint64_t *vals,
		 std::uint64_t *starts, header_fields *header);

std::uint64_t referenced(const frame *f, const field_ref &r)
{
	for (unsigned k = 0; k < r.levels && f; k++)
		f = f->up;
	return f ? f->vals[r.index] : 0;
}

void walk_variant(const type &t, bit_cursor &c, const frame *up, header_fields *header)
{
	std::int64_t tag = static_cast<std::int64_t>(referenced(up, t.ref));
	std::size_t n = t.option_of_range.size();
	for (std::size_t i = 0; i < n; i++) {
		// option_of_range has one entry per range of the tag's enum;
		// the ranges themselves are the tag type's.
		const enum_range &r = t.tag->labels[i];
		if (tag < r.lo || tag > r.hi)
			continue;
		int opt = t.option_of_range[i];
		if (opt < 0)
			break;
		walk(*t.fields[opt].t, c, up, header);
		return;
	}
	c.fail("variant tag value " + std::to_string(tag) + " selects no option: damaged data");
}

void walk_elements(const type &t, std::uint64_t n, bit_cursor &c, const frame *up,
		   header_fields *header)
{
	const type &e = *t.element;
	if (n && e.min_bits > (c.end - c.pos) / n)
		c.fail("array or sequence of " + std::to_string(n) +
		       " elements runs past the end of its packet's content");
	if (e.fixed_bits >= 0 && !header) {
		if (!n)
			return;
		align_to(c, e.align);
		std::uint64_t stride = (e.fixed_bits + e.align - 1) & ~std::uint64_t(e.align - 1);
		if (n - 1 > (c.end - c.pos) / (stride ? stride : 1))
			c.fail("array or sequence runs past the end of its packet's content");
		std::uint64_t bits = (n - 1) * stride + e.fixed_bits;
		need(c, bits);
		c.pos += bits;
		return;
	}
	for (std::uint64_t i = 0; i < n; i++)
		walk(e, c, up, header);
}

void walk(const type &t, bit_cursor &c, const frame *up, header_fields *header)
{
	switch (t.kind) {
	case type_kind::integer:
	case type_kind::floating:
		read_number(t, c);
		break;
	case type_kind::string: {
		align_to(c, 8);
		const std::uint8_t *p = c.base + c.pos / 8;
		std::uint64_t left = (c.end - c.pos) / 8;
		const void *nul = std::memchr(p, 0, left);
		if (!nul)
			c.fail("string without its terminating NUL in the packet's content");
		c.pos += 8 * (static_cast<const std::uint8_t *>(nul) - p + 1);
		break;
	}
	case type_kind::structure: {
		if (t.fixed_bits >= 0 && !header) {
			align_to(c, t.align);
			need(c, t.fixed_bits);
			c.pos += t.fixed_bits;
			break;
		}
		std::vector<std::uint64_t> heap;
		std::uint64_t local[16];
		std::uint64_t *vals = local;
		if (t.fields.size() > 16) {
			heap.resize(t.fields.size());
			vals = heap.data();
		}
		walk_struct(t, c, up, vals, nullptr, header);
		break;
	}
	case type_kind::variant:
		walk_variant(t, c, up, header);
		break;
	case type_kind::array:
		walk_elements(t, t.length, c, up, header);
		break;
	case type_kind::sequence:
		walk_elements(t, referenced(up, t.ref), c, up, header);
		break;
	}
}

// An id or timestamp field of the event header.
inline void capture(header_fields &h, const field &f, std::uint64_t v)
{
	if (f.role == field_role::id) {
		h.id = v;
		h.has_id = true;
	} else {
		h.ts = v;
		h.ts_bits = f.t->size;
		h.ts_type = f.t.get();
		h.has_ts = true;
	}
}

void walk_struct(const type &t, bit_cursor &c, const frame *up, std::uint64_t *vals,
		 std::uint64_t *starts, header_fields *header)
{
	align_to(c, t.align);
	if (t.flat) {
		need(c, t.fixed_bits);
		const std::uint64_t at = c.pos;
		for (std::size_t i = 0; i < t.fields.size(); i++) {
			const field &f = t.fields[i];
			const type &ft = *f.t;
			if (starts)
				starts[i] = at + f.offset;
			vals[i] = extend(load_bits(c.base, at + f.offset, ft.size, ft.big_endian), ft);
			if (header && f.role != field_role::none)
				capture(*header, f, vals[i]);
		}
		c.pos = at + t.fixed_bits;
		return;
	}
	frame self{up, vals};
	const std::size_t n = t.fields.size();
	for (std::size_t i = 0; i < n; i++) {
		const field &f = t.fields[i];
		const type &ft = *f.t;
		if (starts)
			starts[i] = c.pos;
		if (ft.kind == type_kind::integer) {
			vals[i] = read_number(ft, c);
			if (header && f.role != field_role::none)
				capture(*header, f, vals[i]);
			continue;
		}
		vals[i] = 0;
		walk(ft, c, &self, header);
	}
}

}  // namespace

header_plan plan_header(const type &t)
{
	if (t.kind != type_kind::structure || t.flat || t.fields.size() != 2)
		return {};
	const type &id = *t.fields[0].t, &v = *t.fields[1].t;
	if (id.kind != type_kind::integer || v.kind != type_kind::variant || v.ref.levels ||
	    v.ref.index || !v.tag || v.option_of_range.size() > v.tag->labels.size())
		return {};
	for (const field &o : v.fields)
		if (o.t->kind != type_kind::structure || !o.t->flat)
			return {};
	return {&t};
}

void read_header(const header_plan &p, bit_cursor &c, std::uint64_t *vals, header_fields &header)
{
	const type &t = *p.t;
	align_to(c, t.align);
	const field &idf = t.fields[0];
	vals[0] = read_number(*idf.t, c);
	if (idf.role != field_role::none)
		capture(header, idf, vals[0]);
	vals[1] = 0;
	// walk_variant(), the tag being this struct's first field.
	const type &v = *t.fields[1].t;
	const auto tag = static_cast<std::int64_t>(vals[0]);
	const std::size_t n = v.option_of_range.size();
	for (std::size_t i = 0; i < n; i++) {
		const enum_range &r = v.tag->labels[i];
		if (tag < r.lo || tag > r.hi)
			continue;
		int opt = v.option_of_range[i];
		if (opt < 0)
			break;
		// walk_struct() of a flat struct.
		const type &o = *v.fields[opt].t;
		align_to(c, o.align);
		need(c, o.fixed_bits);
		const std::uint64_t at = c.pos;
		for (const field &f : o.fields)
			if (f.role != field_role::none)
				capture(header, f, extend(load_bits(c.base, at + f.offset, f.t->size,
								    f.t->big_endian), *f.t));
		c.pos = at + o.fixed_bits;
		return;
	}
	c.fail("variant tag value " + std::to_string(tag) + " selects no option: damaged data");
}

void read_struct(const type &t, bit_cursor &c, std::uint64_t *vals, std::uint64_t *starts,
		 header_fields *header)
{
	walk_struct(t, c, nullptr, vals, starts, header);
}

}  // namespace timersim::ctf
