#include "sim/report/json_writer.h"

#include <cmath>
#include <cstdio>

namespace timersim {

void json_writer::indent()
{
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
	if (first_.empty())
		out_ += '\n';
}

void json_writer::key(std::string_view k)
{
	separate();
	write_string(k);
	out_ += ": ";
	after_key_ = true;
}

void json_writer::value(std::string_view s)
{
	separate();
	write_string(s);
}

void json_writer::write_string(std::string_view s)
{
	out_ += '"';
	for (unsigned char ch : s) {
		switch (ch) {
		case '"': out_ += "\\\""; break;
		case '\\': out_ += "\\\\"; break;
		case '\n': out_ += "\\n"; break;
		case '\t': out_ += "\\t"; break;
		case '\r': out_ += "\\r"; break;
		default:
			if (ch < 0x20) {
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

void json_writer::value_fixed(double v, int decimals)
{
	separate();
	if (!std::isfinite(v))
		v = 0;
	char buf[64];
	std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
	out_ += buf;
}

}  // namespace timersim
