// Scheme parameters (--param KEY=VALUE): one parser for every scheme, so
// that an unknown key or a bad number is rejected the same way everywhere,
// naming the keys the scheme knows.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "sim/scheme/scheme.h"

namespace timersim {

struct param_spec {
	const char *key;
	const char *value;	// default
	const char *help;	// "a power of two", "on|off", ...
	// hi > 0: the value is an integer in [lo, hi] (a number in the JSON
	// report); else a word the scheme checks (param_bool, param_choice).
	std::uint64_t lo = 0, hi = 0;
};

// The effective parameters: every spec'd key with its default, overridden
// by `given` (later wins), integers checked against their range and
// written canonically. Throws usage_error naming the known keys for an
// unknown one, and the range for a bad integer.
std::vector<scheme_param> resolve_params(const std::string &scheme, const std::vector<param_spec> &specs,
					 const std::vector<std::pair<std::string, std::string>> &given);

// The value of `key` in resolved params.
const std::string &param_value(const std::vector<scheme_param> &params, const std::string &key);
// The value of an integer `key` in resolved params.
std::uint64_t param_integer(const std::vector<scheme_param> &params, const std::string &key);

// An integer parameter the scheme states itself (hz, word_bits, ...).
scheme_param integer_param(const char *key, std::uint64_t value);

// Parses an unsigned value in [lo, hi]; throws usage_error naming scheme and key.
std::uint64_t param_unsigned(const std::string &scheme, const std::string &key,
			     const std::string &value, std::uint64_t lo, std::uint64_t hi);

// Parses on|off (also 1|0, true|false).
bool param_bool(const std::string &scheme, const std::string &key, const std::string &value);

// The index of `value` among `choices`; throws usage_error listing them.
unsigned param_choice(const std::string &scheme, const std::string &key, const std::string &value,
		      std::initializer_list<const char *> choices);

}  // namespace timersim
