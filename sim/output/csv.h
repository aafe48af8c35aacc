// CSV fields per RFC 4180: a field holding a comma, a double quote, CR or
// LF is quoted, its quotes doubled. Callback names are the trace's words and
// may hold any of them.
#pragma once

#include <string>
#include <string_view>

namespace timersim {

inline void append_csv_field(std::string &out, std::string_view s)
{
	if (s.find_first_of(",\"\r\n") == std::string_view::npos) {
		out += s;
		return;
	}
	out += '"';
	for (char c : s) {
		if (c == '"')
			out += '"';
		out += c;
	}
	out += '"';
}

}  // namespace timersim
