#include "sim/trace/ctf_tsdl.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <algorithm>
#include <deque>

#include "sim/trace/reader.h"

namespace timersim::ctf {

namespace {

constexpr unsigned max_depth = 32;		// nesting of types and scopes
constexpr std::uint64_t max_array = 1u << 30;	// elements of a fixed array

// A token's text is a view into the metadata, or for a string into
// STRINGS (its escapes undone), and a token 24 bytes: 35 KB of metadata
// are some 10,000 tokens, and copied texts (48 bytes a token) would be
// fresh pages a small CTF replay faults in for nothing.
struct token {
	std::string_view text;
	unsigned line = 0;
	enum kind_t : std::uint8_t { ident, number, string, punct, end } kind = end;
};

// The character classes of the "C" locale's <cctype>, inline: a library
// call each there, for every byte of the metadata (a fifth of the time of
// parsing the 3.6 recording's 35 KB).
constexpr bool tsdl_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}
constexpr bool tsdl_digit(char c)
{
	return c >= '0' && c <= '9';
}
constexpr bool tsdl_alpha(char c)
{
	return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
}
constexpr bool tsdl_alnum(char c)
{
	return tsdl_alpha(c) || tsdl_digit(c);
}

std::vector<token> tokenize(const std::string &s, const std::string &origin,
			    std::deque<std::string> &strings)
{
	std::vector<token> out;
	// Some 3.5 bytes a token (a word and its blank, "= 8;"): the
	// vector grows at most once from there.
	out.reserve(s.size() / 2 + 1);
	unsigned line = 1;
	for (std::size_t i = 0; i < s.size();) {
		char c = s[i];
		if (c == '\n') {
			line++;
			i++;
		} else if (tsdl_space(c)) {
			i++;
		} else if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
			std::size_t e = s.find("*/", i + 2);
			if (e == std::string::npos)
				throw input_error(origin, line, "metadata ends inside a comment");
			for (std::size_t k = i; k < e; k++)
				line += s[k] == '\n';
			i = e + 2;
		} else if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
			while (i < s.size() && s[i] != '\n')
				i++;
		} else if (tsdl_alpha(c) || c == '_') {
			std::size_t b = i;
			while (i < s.size() && (tsdl_alnum(s[i]) || s[i] == '_'))
				i++;
			out.push_back({std::string_view(s).substr(b, i - b), line, token::ident});
		} else if (tsdl_digit(c)) {
			std::size_t b = i;
			while (i < s.size() && tsdl_alnum(s[i]))
				i++;
			out.push_back({std::string_view(s).substr(b, i - b), line, token::number});
		} else if (c == '"') {
			std::string v;
			for (i++; i < s.size() && s[i] != '"'; i++) {
				if (s[i] == '\\' && i + 1 < s.size())
					i++;
				line += s[i] == '\n';
				v += s[i];
			}
			if (i >= s.size())
				throw input_error(origin, line, "metadata ends inside a string");
			i++;
			out.push_back({strings.emplace_back(std::move(v)), line, token::string});
		} else if (s.compare(i, 2, ":=") == 0) {
			out.push_back({":=", line, token::punct});
			i += 2;
		} else if (s.compare(i, 3, "...") == 0) {
			out.push_back({"...", line, token::punct});
			i += 3;
		} else if (std::string_view("{}[]()<>;=,.:-+").find(c) != std::string_view::npos) {
			out.push_back({std::string_view(s).substr(i, 1), line, token::punct});
			i++;
		} else {
			throw input_error(origin, line, std::string("unexpected character '") + c +
							"' in the metadata");
		}
	}
	out.push_back({{}, line, token::end});
	return out;
}

bool power_of_two(std::uint64_t v)
{
	return v && !(v & (v - 1));
}

std::uint64_t align_up(std::uint64_t v, unsigned a)
{
	return (v + a - 1) & ~std::uint64_t(a - 1);
}

using mut_type = std::shared_ptr<type>;

class parser {
public:
	parser(const std::string &text, const std::string &origin)
		: toks_(tokenize(text, origin, strings_)), origin_(origin)
	{
	}

	trace_model run();

private:
	// ---- tokens ----
	const token &peek(std::size_t k = 0) const
	{
		return toks_[std::min(at_ + k, toks_.size() - 1)];
	}
	const token &take()
	{
		const token &t = peek();
		if (t.kind != token::end)
			at_++;
		return t;
	}
	// P: a literal, its length known where the call is inlined.
	bool is(std::string_view p, std::size_t k = 0) const
	{
		const token &t = peek(k);
		return t.kind != token::end && t.kind != token::string && t.text == p;
	}
	bool accept(std::string_view p)
	{
		if (!is(p))
			return false;
		at_++;
		return true;
	}
	[[noreturn]] void fail(const std::string &why) const
	{
		throw input_error(origin_, peek().line, why);
	}
	void expect(std::string_view p)
	{
		if (!accept(p))
			fail("metadata: expected '" + std::string(p) + "', found '" + std::string(peek().text) + "'");
	}
	std::string ident()
	{
		if (peek().kind != token::ident)
			fail("metadata: expected a name, found '" + std::string(peek().text) + "'");
		return std::string(take().text);
	}
	std::int64_t signed_number();
	std::uint64_t number();
	std::int64_t number_in(const std::string &key, const std::string &v) const;

	// ---- declarations ----
	void top_level();
	void typealias();
	void block(const std::string &what);
	void skip_block();
	std::string value();
	mut_type type_spec();
	mut_type integer_spec(bool floating);
	mut_type struct_spec();
	mut_type variant_spec();
	mut_type enum_spec();
	void field_list(std::vector<field> &fields, bool is_struct);
	type_ptr declarator_suffix(type_ptr t, std::string &name);
	field_ref resolve(const std::string &name, const field **found) const;
	mut_type bind_variant(const mut_type &v, const std::string &tag);
	static void finish(type &t);
	mut_type named(std::map<std::string, mut_type> &table, const std::string &name,
		       const char *what);

	std::deque<std::string> strings_;	// the string tokens' texts
	std::vector<token> toks_;
	std::size_t at_ = 0;
	std::string origin_;
	trace_model model_;
	std::map<std::string, mut_type> aliases_, structs_, variants_, enums_;
	std::vector<mut_type> numbers_;		// byte order resolved at the end
	std::vector<bool> native_;		// per numbers_: declared native
	std::vector<std::vector<field> *> scopes_;	// structs being parsed
	unsigned depth_ = 0;
	bool trace_big_endian_ = false;
	struct pending_event {
		event_class ev;
		unsigned line;
	};
	std::vector<pending_event> events_;	// put in their streams at the end
};

std::uint64_t parser::number()
{
	if (peek().kind != token::number)
		fail("metadata: expected a number, found '" + std::string(peek().text) + "'");
	const std::string s(take().text);
	errno = 0;
	char *end;
	std::uint64_t v = std::strtoull(s.c_str(), &end, 0);
	if (errno || *end)
		fail("metadata: bad number '" + s + "'");
	return v;
}

// The value V of KEY as a number (decimal, 0x hex, 0 octal; negative, or
// unsigned up to 2^64 - 1, returned with its bits).
std::int64_t parser::number_in(const std::string &key, const std::string &v) const
{
	char *end;
	errno = 0;
	std::int64_t n = !v.empty() && v[0] == '-'
				 ? std::strtoll(v.c_str(), &end, 0)
				 : static_cast<std::int64_t>(std::strtoull(v.c_str(), &end, 0));
	if (errno || *end || v.empty())
		fail("metadata: " + key + " = " + v + " is not a number");
	return n;
}

std::int64_t parser::signed_number()
{
	bool neg = accept("-");
	if (!neg)
		accept("+");
	std::uint64_t v = number();
	return neg ? -static_cast<std::int64_t>(v) : static_cast<std::int64_t>(v);
}

// A right-hand side: a number, a string, or words joined by dots.
std::string parser::value()
{
	if (peek().kind == token::string)
		return std::string(take().text);
	if (is("-") || is("+") || peek().kind == token::number) {
		bool neg = accept("-");
		if (!neg)
			accept("+");
		if (peek().kind != token::number)
			fail("metadata: expected a number");
		return (neg ? "-" : "") + std::string(take().text);
	}
	std::string v = ident();
	while (accept("."))
		v += "." + ident();
	return v;
}

mut_type parser::named(std::map<std::string, mut_type> &table, const std::string &name,
		       const char *what)
{
	auto it = table.find(name);
	if (it == table.end())
		fail(std::string("metadata: unknown ") + what + " '" + name + "'");
	return it->second;
}

mut_type parser::type_spec()
{
	if (++depth_ > max_depth)
		fail("metadata: types nested too deeply");
	mut_type t;
	if (accept("integer"))
		t = integer_spec(false);
	else if (accept("floating_point"))
		t = integer_spec(true);
	else if (accept("string")) {
		t = std::make_shared<type>();
		t->kind = type_kind::string;
		t->align = 8;
		if (accept("{")) {
			while (!accept("}")) {
				ident();
				expect("=");
				value();
				expect(";");
			}
		}
	} else if (accept("struct"))
		t = struct_spec();
	else if (accept("variant"))
		t = variant_spec();
	else if (accept("enum"))
		t = enum_spec();
	else {
		// An alias: the longest run of words that names one ("unsigned
		// long"); the word after it is the declarator's name.
		std::string name, words;
		std::size_t best = 0;
		for (std::size_t k = 0; peek(k).kind == token::ident; k++) {
			words += k ? " " : "";
			words += peek(k).text;
			if (aliases_.count(words)) {
				name = words;
				best = k + 1;
			}
		}
		if (!best)
			fail("metadata: unknown type '" + std::string(peek().text) + "'");
		at_ += best;
		t = named(aliases_, name, "type");
	}
	depth_--;
	return t;
}

mut_type parser::integer_spec(bool floating)
{
	auto t = std::make_shared<type>();
	t->kind = floating ? type_kind::floating : type_kind::integer;
	bool native = true;
	unsigned align = 0, exp_dig = 0, mant_dig = 0;
	expect("{");
	while (!accept("}")) {
		std::string key = ident();
		expect("=");
		std::string v = value();
		expect(";");
		auto num = [&] {
			if (!v.empty() && v[0] == '-')
				fail("metadata: " + key + " = " + v + " is negative");
			return static_cast<std::uint64_t>(number_in(key, v));
		};
		if (key == "size") {
			std::uint64_t n = num();
			if (n < 1 || n > 64)
				fail("metadata: integers of " + v + " bits are not supported");
			t->size = static_cast<unsigned>(n);
		} else if (key == "align") {
			std::uint64_t n = num();
			if (!power_of_two(n) || n > 4096)
				fail("metadata: bad alignment " + v);
			align = static_cast<unsigned>(n);
		} else if (key == "signed") {
			t->is_signed = v == "true" || v == "TRUE" || v == "1";
		} else if (key == "byte_order") {
			native = v == "native";
			if (v == "be" || v == "network" || v == "big")
				t->big_endian = true;
			else if (v == "le" || v == "little")
				t->big_endian = false;
			else if (!native)
				fail("metadata: unknown byte_order " + v);
		} else if (key == "map") {
			// clock.NAME.value
			if (v.rfind("clock.", 0) == 0 && v.size() > 12 &&
			    v.compare(v.size() - 6, 6, ".value") == 0)
				t->clock = v.substr(6, v.size() - 12);
		} else if (key == "exp_dig") {
			exp_dig = static_cast<unsigned>(std::min<std::uint64_t>(num(), 64));
		} else if (key == "mant_dig") {
			mant_dig = static_cast<unsigned>(std::min<std::uint64_t>(num(), 64));
		}
		// encoding, base: how to print, not how to read.
	}
	if (floating) {
		t->size = exp_dig + mant_dig;
		if (t->size != 32 && t->size != 64)
			fail("metadata: floating point of " + std::to_string(t->size) +
			     " bits is not supported");
	}
	if (!t->size)
		fail("metadata: integer without a size");
	t->align = align ? align : (t->size % 8 ? 1 : 8);
	finish(*t);
	numbers_.push_back(t);
	native_.push_back(native);
	return t;
}

// struct [NAME] [{ fields } [align(N)]]
mut_type parser::struct_spec()
{
	std::string name;
	if (peek().kind == token::ident)
		name = take().text;
	if (!is("{")) {
		if (name.empty())
			fail("metadata: struct without a name or a body");
		return named(structs_, name, "struct");
	}
	take();
	auto t = std::make_shared<type>();
	t->kind = type_kind::structure;
	t->align = 1;
	field_list(t->fields, true);
	if (accept("align")) {
		expect("(");
		std::uint64_t a = number();
		expect(")");
		if (!power_of_two(a) || a > 4096)
			fail("metadata: bad struct alignment");
		t->align = static_cast<unsigned>(a);
	}
	finish(*t);
	if (!name.empty())
		structs_[name] = t;
	return t;
}

// variant [NAME] [<TAG>] [{ options }]
mut_type parser::variant_spec()
{
	std::string name, tag;
	if (peek().kind == token::ident)
		name = take().text;
	if (accept("<")) {
		tag = value();
		expect(">");
	}
	mut_type t;
	if (accept("{")) {
		t = std::make_shared<type>();
		t->kind = type_kind::variant;
		t->align = 1;
		field_list(t->fields, false);
		finish(*t);
		if (!name.empty())
			variants_[name] = t;
	} else {
		if (name.empty())
			fail("metadata: variant without a name or a body");
		t = named(variants_, name, "variant");
	}
	return tag.empty() ? t : bind_variant(t, tag);
}

// enum [NAME] [: INTEGER] [{ LABEL [= V [... V]], ... }]
mut_type parser::enum_spec()
{
	std::string name;
	if (peek().kind == token::ident)
		name = take().text;
	mut_type base;
	if (accept(":"))
		base = type_spec();
	if (!is("{")) {
		if (name.empty())
			fail("metadata: enum without a name or a body");
		return named(enums_, name, "enum");
	}
	take();
	if (!base)
		base = named(aliases_, "int", "type");
	if (base->kind != type_kind::integer)
		fail("metadata: an enum needs an integer type");
	auto t = std::make_shared<type>(*base);
	t->labels.clear();
	std::int64_t next = 0;
	while (!accept("}")) {
		enum_range r;
		r.label = peek().kind == token::string ? std::string(take().text) : ident();
		r.lo = r.hi = next;
		if (accept("=")) {
			r.lo = r.hi = signed_number();
			if (accept("..."))
				r.hi = signed_number();
		}
		if (r.hi < r.lo)
			fail("metadata: enum range " + r.label + " ends before it starts");
		next = r.hi + 1;
		t->labels.push_back(std::move(r));
		if (!accept(",") && !is("}"))
			fail("metadata: expected ',' or '}' in an enum");
	}
	auto b = std::find(numbers_.begin(), numbers_.end(), base);
	bool native = b == numbers_.end() || native_[b - numbers_.begin()];
	numbers_.push_back(t);
	native_.push_back(native);
	if (!name.empty())
		enums_[name] = t;
	return t;
}

// Fields of a struct (IS_STRUCT: a scope for relative names) or options of
// a variant, up to the closing brace.
void parser::field_list(std::vector<field> &fields, bool is_struct)
{
	if (is_struct)
		scopes_.push_back(&fields);
	while (!accept("}")) {
		if (accept("typealias")) {
			typealias();
			continue;
		}
		type_ptr t = type_spec();
		for (;;) {
			std::string name = ident();
			type_ptr ft = declarator_suffix(t, name);
			if (ft->kind == type_kind::variant && !ft->tag)
				fail("metadata: variant " + name + " without a tag");
			field f;
			f.name = name;
			f.t = ft;
			std::string_view shown = display_name(name);
			f.role = shown == "id" ? field_role::id
				 : shown == "timestamp" ? field_role::timestamp
							: field_role::none;
			fields.push_back(std::move(f));
			if (!accept(","))
				break;
		}
		expect(";");
	}
	if (is_struct)
		scopes_.pop_back();
}

// NAME[4][len]: arrays and sequences around T.
type_ptr parser::declarator_suffix(type_ptr t, std::string &name)
{
	std::vector<std::string> dims;
	while (accept("[")) {
		dims.push_back(value());
		expect("]");
	}
	// The innermost dimension is the last one written.
	for (auto d = dims.rbegin(); d != dims.rend(); ++d) {
		if (t->min_bits == 0)
			fail("metadata: " + name + ": arrays of empty elements are not supported");
		auto a = std::make_shared<type>();
		a->element = t;
		a->align = t->align;
		if (std::isdigit(static_cast<unsigned char>((*d)[0]))) {
			a->kind = type_kind::array;
			char *end;
			a->length = std::strtoull(d->c_str(), &end, 0);
			if (*end || a->length > max_array)
				fail("metadata: " + name + ": bad array length " + *d);
		} else {
			a->kind = type_kind::sequence;
			const field *len = nullptr;
			a->ref = resolve(*d, &len);
			if (len->t->kind != type_kind::integer)
				fail("metadata: sequence length " + *d + " is not an integer");
		}
		finish(*a);
		t = a;
	}
	return t;
}

// A relative name, looked up in the structs being parsed, innermost first.
field_ref parser::resolve(const std::string &name, const field **found) const
{
	for (std::size_t s = scopes_.size(); s-- > 0;) {
		const std::vector<field> &fs = *scopes_[s];
		for (std::size_t i = fs.size(); i-- > 0;)
			if (fs[i].name == name) {
				*found = &fs[i];
				return {static_cast<unsigned>(scopes_.size() - 1 - s),
					static_cast<unsigned>(i)};
			}
	}
	fail("metadata: '" + name + "' names no field before it in its struct " +
	     "(references by absolute path are not supported)");
}

mut_type parser::bind_variant(const mut_type &v, const std::string &tag)
{
	const field *f = nullptr;
	auto t = std::make_shared<type>(*v);
	t->ref = resolve(tag, &f);
	t->tag = f->t;
	if (f->t->kind != type_kind::integer || f->t->labels.empty())
		fail("metadata: variant tag " + tag + " is not an enum");
	t->option_of_range.clear();
	for (const enum_range &r : f->t->labels) {
		int opt = -1;
		for (std::size_t i = 0; i < t->fields.size(); i++)
			if (display_name(t->fields[i].name) == display_name(r.label))
				opt = static_cast<int>(i);
		t->option_of_range.push_back(opt);
	}
	return t;
}

// Alignment and sizes of a composite, from its parts.
void parser::finish(type &t)
{
	switch (t.kind) {
	case type_kind::integer:
	case type_kind::floating:
		t.fixed_bits = t.size;
		t.min_bits = t.size;
		break;
	case type_kind::string:
		t.fixed_bits = -1;
		t.min_bits = 8;
		break;
	case type_kind::structure: {
		std::uint64_t pos = 0, min = 0;
		bool fixed = true, integers = true;
		for (field &f : t.fields) {
			if (f.t->kind != type_kind::variant)
				t.align = std::max(t.align, f.t->align);
			if (f.t->fixed_bits < 0) {
				fixed = false;
			} else {
				pos = align_up(pos, f.t->align);
				f.offset = pos;
				pos += f.t->fixed_bits;
			}
			integers &= f.t->kind == type_kind::integer;
			min += f.t->min_bits;
		}
		t.fixed_bits = fixed ? static_cast<std::int64_t>(pos) : -1;
		t.min_bits = min;
		t.flat = fixed && integers;
		break;
	}
	case type_kind::variant: {
		std::uint64_t min = ~std::uint64_t(0);
		for (const field &f : t.fields)
			min = std::min(min, f.t->min_bits);
		t.fixed_bits = -1;
		t.min_bits = t.fields.empty() ? 0 : min;
		break;
	}
	case type_kind::array: {
		const type &e = *t.element;
		t.min_bits = t.length * e.min_bits;
		t.fixed_bits = e.fixed_bits < 0 || !t.length
				       ? (t.length ? -1 : 0)
				       : static_cast<std::int64_t>(
						 (t.length - 1) * align_up(e.fixed_bits, e.align) +
						 e.fixed_bits);
		break;
	}
	case type_kind::sequence:
		t.fixed_bits = -1;
		t.min_bits = 0;
		break;
	}
}

// KEY[.KEY] = VALUE; or KEY[.KEY] := TYPE; up to the closing brace.
void parser::block(const std::string &what)
{
	expect("{");
	clock_class clock;
	std::string clock_name;
	event_class ev;
	bool ev_id = false;
	stream_class st;
	while (!accept("}")) {
		if (accept("typealias")) {
			typealias();
			continue;
		}
		std::string key = ident();
		while (accept("."))
			key += "." + ident();
		if (accept(":=")) {
			mut_type t = type_spec();
			if (t->kind != type_kind::structure)
				fail("metadata: " + what + " " + key + " is not a struct");
			if (what == "trace" && key == "packet.header")
				model_.packet_header = t;
			else if (what == "stream" && key == "packet.context")
				st.packet_context = t;
			else if (what == "stream" && key == "event.header")
				st.event_header = t;
			else if (what == "stream" && key == "event.context")
				st.event_context = t;
			else if (what == "event" && key == "context")
				ev.context = t;
			else if (what == "event" && key == "fields")
				ev.fields = t;
			expect(";");
			continue;
		}
		expect("=");
		std::string v = value();
		expect(";");
		auto num = [&] { return number_in(what + " " + key, v); };
		if (what == "trace") {
			if (key == "byte_order")
				trace_big_endian_ = v == "be" || v == "network";
			else if (key == "uuid")
				model_.uuid = v;
		} else if (what == "env") {
			model_.env[key] = v;
		} else if (what == "clock") {
			if (key == "name")
				clock_name = v;
			else if (key == "freq")
				clock.freq = static_cast<std::uint64_t>(num());
			else if (key == "offset")
				clock.offset = static_cast<std::uint64_t>(num());
			else if (key == "offset_s")
				clock.offset_s = num();
		} else if (what == "stream") {
			if (key == "id")
				st.id = static_cast<std::uint64_t>(num());
		} else if (what == "event") {
			if (key == "name")
				ev.name = v;
			else if (key == "id") {
				ev.id = static_cast<std::uint64_t>(num());
				ev_id = true;
			} else if (key == "stream_id") {
				ev.stream_id = static_cast<std::uint64_t>(num());
			}
		}
	}
	expect(";");
	if (what == "clock") {
		if (!clock.freq)
			fail("metadata: clock " + clock_name + " has frequency 0");
		model_.clocks[clock_name] = clock;
	} else if (what == "stream") {
		if (!model_.streams.emplace(st.id, std::move(st)).second)
			fail("metadata: stream id declared twice");
	} else if (what == "event") {
		if (!ev_id)
			fail("metadata: event " + ev.name + " without an id");
		events_.push_back({std::move(ev), peek().line});
	}
}

// typealias TYPE := NAME [NAME...]; (after the keyword)
void parser::typealias()
{
	mut_type t = type_spec();
	expect(":=");
	std::string alias = ident();
	while (!is(";"))
		alias += " " + ident();
	expect(";");
	aliases_[alias] = t;
}

void parser::skip_block()
{
	expect("{");
	for (unsigned depth = 1; depth;) {
		const token &t = take();
		if (t.kind == token::end)
			fail("metadata ends inside a block");
		if (t.kind == token::punct && t.text == "{")
			depth++;
		else if (t.kind == token::punct && t.text == "}")
			depth--;
	}
	expect(";");
}

void parser::top_level()
{
	if (accept("typealias")) {
		typealias();
	} else if (accept("typedef")) {
		type_ptr t = type_spec();
		std::string name = ident();
		while (peek().kind == token::ident)
			name += " " + std::string(take().text);
		t = declarator_suffix(t, name);
		expect(";");
		aliases_[name] = std::const_pointer_cast<type>(t);
	} else if (is("trace") || is("env") || is("clock") || is("stream") || is("event")) {
		std::string what(take().text);
		block(what);
	} else if (accept("callsite")) {
		skip_block();
	} else if (is("struct") || is("variant") || is("enum")) {
		type_spec();	// a named declaration
		expect(";");
	} else {
		fail("metadata: unexpected '" + std::string(peek().text) + "' at the top level");
	}
}

trace_model parser::run()
{
	while (peek().kind != token::end)
		top_level();
	model_.big_endian = trace_big_endian_;
	for (std::size_t i = 0; i < numbers_.size(); i++)
		if (native_[i])
			numbers_[i]->big_endian = trace_big_endian_;
	if (model_.streams.empty()) {
		// A trace without a stream block has one implicit stream.
		model_.streams.emplace(0, stream_class{});
	}
	for (pending_event &p : events_) {
		auto s = model_.streams.find(p.ev.stream_id);
		if (s == model_.streams.end())
			throw input_error(origin_, p.line, "metadata: event " + p.ev.name +
				" names stream " + std::to_string(p.ev.stream_id) +
				", which is not declared");
		if (!s->second.events.emplace(p.ev.id, p.ev).second)
			throw input_error(origin_, p.line, "metadata: event id " +
				std::to_string(p.ev.id) + " declared twice");
	}
	for (auto &[id, st] : model_.streams) {
		for (auto &[eid, ev] : st.events) {
			ev.index = model_.event_count++;
			if (eid < stream_class::dense_ids) {
				if (st.by_id.size() <= eid)
					st.by_id.resize(eid + 1, nullptr);
				st.by_id[eid] = &ev;
			}
		}
	}
	return std::move(model_);
}

}  // namespace

std::string_view display_name(std::string_view declared)
{
	return declared.starts_with('_') ? declared.substr(1) : declared;
}

trace_model parse_tsdl(const std::string &text, const std::string &origin)
{
	parser p(text, origin);
	return p.run();
}

}  // namespace timersim::ctf
