// A small streaming JSON writer with fixed, two-space indentation (or, for
// a sweep's result lines, none: one line): the same report always
// serialises to the same bytes. The reports, the cost model file, the
// estimates and the sweep cells write their JSON through it, a report
// struct's keys through its field table (json_fields.h). Reading JSON
// (sweep cells and specs' results, calibrations, cost model files) is
// nlohmann's parser's job (parse_json_input, sim/trace/small_input.h): a
// full parser with its error positions is what input needs, and a writer
// of our own is what makes the bytes ours to fix.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace timersim {

class json_writer {
public:
	enum class layout {
		indented,	// a line per value, two spaces a level, a newline at the end
		one_line,	// no blank at all, no newline at the end
	};
	explicit json_writer(std::string &out, layout l = layout::indented)
		: out_(out), one_line_(l == layout::one_line)
	{
	}

	void begin_object() { open('{'); }
	void end_object() { close('}'); }
	void begin_array() { open('['); }
	void end_array() { close(']'); }

	void key(std::string_view k);
	void value(std::string_view s);
	void value(const char *s) { value(std::string_view(s)); }
	void value(std::uint64_t v);
	void value(unsigned v) { value(static_cast<std::uint64_t>(v)); }
	void value(bool v);
	void null();
	// Fixed-point with `decimals` digits: no locale, no exponent; null
	// for inf and NaN.
	void value_fixed(double v, int decimals);
	// Fixed-point with at most `decimals` digits, trailing zeros dropped
	// down to one ("2.0", "0.25"): a figure rounded to a decimal unit as
	// it reads, without the binary noise of its double; null for inf and
	// NaN.
	void value_decimal(double v, int decimals);

	template <class T>
	void field(std::string_view k, const T &v)
	{
		key(k);
		value(v);
	}
	// key(k), then value_fixed(v, decimals).
	void field_fixed(std::string_view k, double v, int decimals)
	{
		key(k);
		value_fixed(v, decimals);
	}

private:
	void open(char c);
	void close(char c);
	void separate();
	void indent();
	void write_string(std::string_view s);

	// V as "%.*f" with DECIMALS; false (nothing written) for inf and NaN.
	bool write_fixed(double v, int decimals);

	std::string &out_;
	bool one_line_ = false;
	std::vector<bool> first_;	// per open container: nothing written yet
	bool after_key_ = false;
};

}  // namespace timersim
