// Numbers and paths on the command line, read one strict way by every
// subcommand. CLI11 reads integers with strtoull (base 0): "-1" wraps to
// 2^64-1, "2^64" saturates, "010" is octal and " 5" passes; an empty value
// of a string option looks like one not given. These checks run on the
// text before CLI11 converts it, so that none of that reaches a command.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include <CLI/CLI.hpp>

namespace timersim::cli {

// Why TEXT is not a decimal whole number from 0 to MAX ("" when it is one).
std::string unsigned_problem(const std::string &text, std::uint64_t max);
// Why TEXT is not a finite decimal number ("" when it is one).
std::string real_problem(const std::string &text);

// A check for an option holding a T: digits only, within T's range, for
// an unsigned T; a finite number for a floating T.
template <typename T>
CLI::Validator number_check()
{
	static_assert(std::is_unsigned_v<T> || std::is_floating_point_v<T>,
		      "the command line has no signed numbers");
	return CLI::Validator(
		[](std::string &text) -> std::string {
			if constexpr (std::is_floating_point_v<T>)
				return real_problem(text);
			else
				return unsigned_problem(text, std::numeric_limits<T>::max());
		},
		"");
}

// The same, the type taken from the option's variable.
template <typename T>
CLI::Validator number_check(const T &)
{
	return number_check<T>();
}

// A check for a path or a word that must not be empty: '' would read as
// "not given" (an output that is never written, a sweep cell that is all
// of them).
// WHAT names it in the message: "empty path", "empty value".
inline CLI::Validator non_empty(const char *what = "value")
{
	return CLI::Validator(
		[what](std::string &text) -> std::string { return text.empty() ? std::string("empty ") + what : ""; },
		"");
}

}  // namespace timersim::cli
