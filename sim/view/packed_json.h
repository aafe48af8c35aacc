// A compact JSON writer for the bulk of a view page's data (arrays of
// numbers), where json_writer's indentation would double the page. The
// caller keeps the nesting right; values are separated by commas.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sim/output/json_string.h"
#include "sim/output/number_text.h"

namespace timersim {

class packed {
public:
	// `first`: nothing written yet at this level (else the first value
	// gets a comma: a part of a list made apart and joined later).
	explicit packed(std::string &out, bool first = true) : out_(out), first_(first) {}
	packed &open(char c)
	{
		sep();
		out_ += c;
		first_ = true;
		return *this;
	}
	packed &close(char c)
	{
		out_ += c;
		first_ = false;
		return *this;
	}
	packed &key(const char *k)
	{
		sep();
		out_ += '"';
		out_ += k;
		out_ += "\":";
		first_ = true;
		return *this;
	}
	packed &num(std::uint64_t v)
	{
		sep();
		append_number(out_, v);
		return *this;
	}
	packed &fixed(double v, int decimals)
	{
		sep();
		append_fixed(out_, v, decimals);
		return *this;
	}
	packed &str(std::string_view s)
	{
		sep();
		append_json_string(out_, s);
		return *this;
	}
	// A line break between values, for a readable page source.
	packed &nl()
	{
		out_ += '\n';
		return *this;
	}
	packed &raw(std::string_view s)
	{
		sep();
		out_ += s;
		return *this;
	}
	// Values written apart by a packed that was told whether it came
	// first (see the constructor): they carry their own commas.
	packed &items(std::string_view s)
	{
		if (!s.empty()) {
			out_ += s;
			first_ = false;
		}
		return *this;
	}

private:
	void sep()
	{
		if (!first_)
			out_ += ',';
		first_ = false;
	}
	std::string &out_;
	bool first_ = true;
};

}  // namespace timersim
