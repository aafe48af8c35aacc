// Scheme parameters (--param KEY=VALUE): one parser for every scheme, so
// that an unknown key is rejected the same way everywhere, naming the keys
// the scheme knows.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace timersim {

struct param_spec {
	const char *key;
	const char *value;	// default
	const char *help;	// "a power of two", "on|off", ...
};

// The effective parameters: every spec'd key with its default, overridden
// by `given` (later wins). Throws usage_error naming the known keys for an
// unknown one.
std::vector<std::pair<std::string, std::string>>
resolve_params(const std::string &scheme, const std::vector<param_spec> &specs,
	       const std::vector<std::pair<std::string, std::string>> &given);

// The value of `key` in resolved params.
const std::string &param_value(const std::vector<std::pair<std::string, std::string>> &params,
			       const std::string &key);

// Parses an unsigned value in [lo, hi]; throws usage_error naming scheme and key.
std::uint64_t param_unsigned(const std::string &scheme, const std::string &key,
			     const std::string &value, std::uint64_t lo, std::uint64_t hi);

// Parses on|off (also 1|0, true|false).
bool param_bool(const std::string &scheme, const std::string &key, const std::string &value);

}  // namespace timersim
