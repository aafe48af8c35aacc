#include "sim/scheme/params.h"

#include <cerrno>
#include <cstdlib>

#include "sim/base/errors.h"

namespace timersim {

std::vector<scheme_param> resolve_params(const std::string &scheme, const std::vector<param_spec> &specs,
					 const std::vector<std::pair<std::string, std::string>> &given)
{
	std::vector<scheme_param> out;
	for (const auto &s : specs)
		out.push_back({s.key, s.value, s.hi > 0});
	for (const auto &[key, value] : given) {
		bool found = false;
		for (auto &p : out)
			if (p.key == key) {
				p.value = value;
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
	for (std::size_t i = 0; i < specs.size(); i++)
		if (out[i].integer)
			out[i].value = std::to_string(
				param_unsigned(scheme, out[i].key, out[i].value, specs[i].lo, specs[i].hi));
	return out;
}

const std::string &param_value(const std::vector<scheme_param> &params, const std::string &key)
{
	for (const auto &p : params)
		if (p.key == key)
			return p.value;
	throw usage_error("internal: no parameter " + key);
}

std::uint64_t param_integer(const std::vector<scheme_param> &params, const std::string &key)
{
	// Resolved integers are canonical: the parse cannot fail.
	return std::strtoull(param_value(params, key).c_str(), nullptr, 10);
}

scheme_param integer_param(const char *key, std::uint64_t value)
{
	return {key, std::to_string(value), true};
}

std::uint64_t param_unsigned(const std::string &scheme, const std::string &key,
			     const std::string &value, std::uint64_t lo, std::uint64_t hi)
{
	const char *s = value.c_str();
	char *end = nullptr;
	errno = 0;
	unsigned long long v = std::strtoull(s, &end, 10);
	if (value.empty() || value[0] < '0' || value[0] > '9' || *end || errno || v < lo || v > hi)
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

unsigned param_choice(const std::string &scheme, const std::string &key, const std::string &value,
		      std::initializer_list<const char *> choices)
{
	unsigned i = 0;
	std::string known;
	for (const char *c : choices) {
		if (value == c)
			return i;
		known += std::string(i++ ? "|" : "") + c;
	}
	throw usage_error(scheme + ": parameter " + key + "=" + value + " must be " + known);
}

}  // namespace timersim
