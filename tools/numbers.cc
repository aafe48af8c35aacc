#include "tools/numbers.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace timersim::cli {

std::string unsigned_problem(const std::string &text, std::uint64_t max)
{
	std::string range = "a whole number from 0 to " + std::to_string(max);
	if (text.empty())
		return "empty value; expected " + range;
	if (text[0] == '-')
		return "'" + text + "' is negative; expected " + range;
	std::uint64_t v = 0;
	for (char c : text) {
		if (c < '0' || c > '9')
			return "'" + text + "' is not " + range + " (decimal digits only)";
		unsigned d = unsigned(c - '0');
		if (v > (max - d) / 10)
			return "'" + text + "' is out of range; expected " + range;
		v = v * 10 + d;
	}
	return "";
}

std::string real_problem(const std::string &text)
{
	if (text.empty())
		return "empty value; expected a number";
	// strtod skips leading blanks and reads "inf", "nan" and hex floats.
	char c = text[0];
	if (!(c >= '0' && c <= '9') && c != '.' && c != '-' && c != '+')
		return "'" + text + "' is not a number";
	errno = 0;
	char *end = nullptr;
	double v = std::strtod(text.c_str(), &end);
	if (end != text.c_str() + text.size() || text.find_first_of("xXnN") != std::string::npos)
		return "'" + text + "' is not a number";
	if (!std::isfinite(v) || errno == ERANGE)
		return "'" + text + "' is out of range";
	return "";
}

}  // namespace timersim::cli
