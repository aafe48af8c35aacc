#include "sim/scheme/params.h"

#include <cerrno>
#include <cstdlib>

#include "sim/core/errors.h"

namespace timersim {

std::vector<std::pair<std::string, std::string>>
resolve_params(const std::string &scheme, const std::vector<param_spec> &specs,
	       const std::vector<std::pair<std::string, std::string>> &given)
{
	std::vector<std::pair<std::string, std::string>> out;
	for (const auto &s : specs)
		out.emplace_back(s.key, s.value);
	for (const auto &[key, value] : given) {
		bool found = false;
		for (auto &p : out)
			if (p.first == key) {
				p.second = value;
				found = true;
			}
		if (found)
			continue;
		std::string known;
		for (const auto &s : specs)
			known += std::string(known.empty() ? "" : ", ") + s.key + "=" + s.help;
		throw usage_error(scheme + ": unknown parameter " + key + "=" + value + " (known: " +
				  (known.empty() ? std::string("none") : known) + ")");
	}
	return out;
}

const std::string &param_value(const std::vector<std::pair<std::string, std::string>> &params,
			       const std::string &key)
{
	for (const auto &p : params)
		if (p.first == key)
			return p.second;
	throw usage_error("internal: no parameter " + key);
}

std::uint64_t param_unsigned(const std::string &scheme, const std::string &key,
			     const std::string &value, std::uint64_t lo, std::uint64_t hi)
{
	const char *s = value.c_str();
	char *end = nullptr;
	errno = 0;
	unsigned long long v = std::strtoull(s, &end, 10);
	if (value.empty() || value[0] == '-' || *end || errno || v < lo || v > hi)
		throw usage_error(scheme + ": parameter " + key + "=" + value + " must be an integer in [" +
				  std::to_string(lo) + ", " + std::to_string(hi) + "]");
	return v;
}

bool param_bool(const std::string &scheme, const std::string &key, const std::string &value)
{
	if (value == "on" || value == "1" || value == "true")
		return true;
	if (value == "off" || value == "0" || value == "false")
		return false;
	throw usage_error(scheme + ": parameter " + key + "=" + value + " must be on or off");
}

}  // namespace timersim
