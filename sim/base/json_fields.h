// A struct's JSON keys, described once: a table of fields per struct that
// json_writer writes in order. The table says each key, where its value
// is, and how it is written:
//
//   template <> struct json_fields<timer_counts> {
//       static constexpr auto fields = std::make_tuple(
//           json_field("distinct", &timer_counts::distinct),
//           json_fixed("exact_fraction", &fidelity_summary::fraction, 6),
//           json_object("symbols", &input_summary::symbols),	// its own table
//           json_array("levels", &cascade_summary::levels),	// an object per element
//           json_computed("compared", [](const function_fidelity &f) { return f.compared(); }),
//           json_custom("params", [](json_writer &w, const scheme_summary &s) { ... }));
//   };
//
// write_json_object(w, v) writes { the fields }, write_json_fields(w, v) the
// fields into an object already open. Values go through json_writer's own
// overloads (integers, bools, strings), as a hand-written w.field() would:
// a table writes the same bytes.
#pragma once

#include <string_view>
#include <tuple>
#include <vector>

#include "sim/base/json_writer.h"

namespace timersim {

// Specialised for each struct written through a table.
template <class T> struct json_fields;

template <class S, class M> struct json_member_field {
	std::string_view key;
	M S::*member;
};
template <class S, class M> struct json_fixed_field {
	std::string_view key;
	M S::*member;
	int decimals;
};
template <class S, class M> struct json_object_field {
	std::string_view key;
	M S::*member;
};
template <class S, class E> struct json_array_field {
	std::string_view key;
	std::vector<E> S::*member;
};
template <class S, class F> struct json_computed_field {
	std::string_view key;
	F value_of;	// const S & -> a value json_writer writes
};
template <class S, class F> struct json_computed_fixed_field {
	std::string_view key;
	F value_of;	// const S & -> double
	int decimals;
};
template <class S, class F> struct json_custom_field {
	F write;	// (json_writer &, const S &): its key(s) and value(s)
};

template <class S, class M> constexpr auto json_field(std::string_view k, M S::*m)
{
	return json_member_field<S, M>{k, m};
}
template <class S, class M> constexpr auto json_fixed(std::string_view k, M S::*m, int decimals)
{
	return json_fixed_field<S, M>{k, m, decimals};
}
template <class S, class M> constexpr auto json_object(std::string_view k, M S::*m)
{
	return json_object_field<S, M>{k, m};
}
template <class S, class E> constexpr auto json_array(std::string_view k, std::vector<E> S::*m)
{
	return json_array_field<S, E>{k, m};
}
template <class S, class F> constexpr auto json_computed(std::string_view k, F f)
{
	return json_computed_field<S, F>{k, f};
}
template <class S, class F> constexpr auto json_computed_fixed(std::string_view k, F f, int decimals)
{
	return json_computed_fixed_field<S, F>{k, f, decimals};
}
template <class S, class F> constexpr auto json_custom(F f)
{
	return json_custom_field<S, F>{f};
}

template <class T> void write_json_fields(json_writer &w, const T &v);

template <class T> void write_json_object(json_writer &w, const T &v)
{
	w.begin_object();
	write_json_fields(w, v);
	w.end_object();
}

template <class S, class M> void write_json_field(json_writer &w, const S &v, const json_member_field<S, M> &f)
{
	w.field(f.key, v.*f.member);
}
template <class S, class M> void write_json_field(json_writer &w, const S &v, const json_fixed_field<S, M> &f)
{
	w.field_fixed(f.key, v.*f.member, f.decimals);
}
template <class S, class M> void write_json_field(json_writer &w, const S &v, const json_object_field<S, M> &f)
{
	w.key(f.key);
	write_json_object(w, v.*f.member);
}
template <class S, class E> void write_json_field(json_writer &w, const S &v, const json_array_field<S, E> &f)
{
	w.key(f.key);
	w.begin_array();
	for (const E &e : v.*f.member)
		write_json_object(w, e);
	w.end_array();
}
template <class S, class F> void write_json_field(json_writer &w, const S &v, const json_computed_field<S, F> &f)
{
	w.field(f.key, f.value_of(v));
}
template <class S, class F>
void write_json_field(json_writer &w, const S &v, const json_computed_fixed_field<S, F> &f)
{
	w.field_fixed(f.key, f.value_of(v), f.decimals);
}
template <class S, class F> void write_json_field(json_writer &w, const S &v, const json_custom_field<S, F> &f)
{
	f.write(w, v);
}

template <class T> void write_json_fields(json_writer &w, const T &v)
{
	std::apply([&](const auto &...f) { (write_json_field(w, v, f), ...); }, json_fields<T>::fields);
}

}  // namespace timersim
