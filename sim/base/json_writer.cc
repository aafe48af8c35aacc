#include "sim/base/json_writer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace timersim {

void json_writer::indent()
{
	if (one_line_)
		return;
	out_ += '\n';
	out_.append(2 * first_.size(), ' ');
}

// Before a value or key: a comma after a sibling, and a fresh line.
void json_writer::separate()
{
	if (after_key_) {
		after_key_ = false;
		return;
	}
	if (first_.empty())
		return;
	if (!first_.back())
		out_ += ',';
	first_.back() = false;
	indent();
}

void json_writer::open(char c)
{
	separate();
	out_ += c;
	first_.push_back(true);
}

void json_writer::close(char c)
{
	bool empty = first_.back();
	first_.pop_back();
	if (!empty)
		indent();
	out_ += c;
	if (first_.empty() && !one_line_)
		out_ += '\n';
}

void json_writer::key(std::string_view k)
{
	separate();
	write_string(k);
	out_ += one_line_ ? ":" : ": ";
	after_key_ = true;
}

void json_writer::value(std::string_view s)
{
	separate();
	write_string(s);
}

namespace {

// Length of the well-formed UTF-8 sequence at s[i] (RFC 3629: no overlong
// forms, no surrogates, nothing past U+10FFFF), or 0 if it is not one.
std::size_t utf8_sequence(std::string_view s, std::size_t i)
{
	auto at = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
	auto cont = [&](std::size_t k) { return k < s.size() && (at(k) & 0xc0) == 0x80; };
	unsigned char c = at(i);
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		return cont(i + 1) ? 2 : 0;
	if (c >= 0xe0 && c <= 0xef) {
		if (!cont(i + 1) || !cont(i + 2))
			return 0;
		unsigned char c1 = at(i + 1);
		if ((c == 0xe0 && c1 < 0xa0) || (c == 0xed && c1 > 0x9f))
			return 0;
		return 3;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		if (!cont(i + 1) || !cont(i + 2) || !cont(i + 3))
			return 0;
		unsigned char c1 = at(i + 1);
		if ((c == 0xf0 && c1 < 0x90) || (c == 0xf4 && c1 > 0x8f))
			return 0;
		return 4;
	}
	return 0;
}

}  // namespace

// Callback and path names are the trace's bytes: a byte that is not part of
// well-formed UTF-8 is written as the escape \u00XX of its value, so that
// the document is always valid JSON.
void json_writer::write_string(std::string_view s)
{
	out_ += '"';
	for (std::size_t i = 0; i < s.size();) {
		unsigned char ch = static_cast<unsigned char>(s[i]);
		std::size_t n = utf8_sequence(s, i);
		if (n > 1) {
			out_.append(s.substr(i, n));
			i += n;
			continue;
		}
		i++;
		switch (ch) {
		case '"': out_ += "\\\""; break;
		case '\\': out_ += "\\\\"; break;
		case '\n': out_ += "\\n"; break;
		case '\t': out_ += "\\t"; break;
		case '\r': out_ += "\\r"; break;
		default:
			if (ch < 0x20 || n == 0) {
				char buf[8];
				std::snprintf(buf, sizeof buf, "\\u%04x", ch);
				out_ += buf;
			} else {
				out_ += static_cast<char>(ch);
			}
		}
	}
	out_ += '"';
}

void json_writer::value(std::uint64_t v)
{
	separate();
	out_ += std::to_string(v);
}

void json_writer::value(bool v)
{
	separate();
	out_ += v ? "true" : "false";
}

void json_writer::null()
{
	separate();
	out_ += "null";
}

// A figure that overflowed or was never defined is no number at all:
// null (valid JSON) and not a plausible 0 a reader would take for a
// result. The figures' sources refuse or saturate most of them first.
bool json_writer::write_fixed(double v, int decimals)
{
	if (!std::isfinite(v)) {
		out_ += "null";
		return false;
	}
	// Room for a double's 309 integer digits and the decimals.
	char buf[400];
	std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
	out_ += buf;
	return true;
}

void json_writer::value_fixed(double v, int decimals)
{
	separate();
	write_fixed(v, decimals);
}

void json_writer::value_decimal(double v, int decimals)
{
	separate();
	if (!write_fixed(v, decimals < 1 ? 1 : decimals))
		return;
	std::size_t point = out_.rfind('.');
	std::size_t last = out_.find_last_not_of('0');
	out_.resize(std::max(last, point + 1) + 1);
}

}  // namespace timersim
