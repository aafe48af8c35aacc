// A JSON string literal for the outputs that write JSON compactly by hand
// (the Perfetto trace, the view's data): json_writer's escaping, so that
// every output escapes names the same way.
#pragma once

#include <string>
#include <string_view>

#include "sim/base/json_writer.h"

namespace timersim {

inline void append_json_string(std::string &out, std::string_view s)
{
	json_writer w(out);
	w.value(s);
}

inline std::string json_string(std::string_view s)
{
	std::string out;
	append_json_string(out, s);
	return out;
}

}  // namespace timersim
