// Lines of the lab's text set in under a heading (the why of a step, of an
// hrtimer statement).
#pragma once

#include <string>

namespace timersim::lab {

// Appends every line of TEXT to OUT after PREFIX, each ended by a newline
// (a last line without one gets one).
inline void indent_lines(std::string &out, const std::string &text, const char *prefix)
{
	std::size_t pos = 0;
	while (pos < text.size()) {
		std::size_t end = text.find('\n', pos);
		if (end == std::string::npos)
			end = text.size();
		out += prefix;
		out.append(text, pos, end - pos);
		out += '\n';
		pos = end + 1;
	}
}

}  // namespace timersim::lab
