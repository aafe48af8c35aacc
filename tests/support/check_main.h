// The end of every Check test binary: run one suite, return main()'s status.
// Include after the standard headers: check.h defines macros that clash
// with <iostream> internals.
#pragma once

#include <check.h>

#include <string>

// ck_assert_msg() also records every check that passes (a write each);
// in a loop of millions of checks only a failure should cost a call.
#define CK_REQUIRE(cond, ...)                      \
	do {                                       \
		if (!(cond))                       \
			ck_abort_msg(__VA_ARGS__); \
	} while (0)

// ck_assert_str_eq() binds its arguments to const char * and compares
// after: the std::string a call returns (json's get<std::string>(), a
// field of a CSV) is gone by then, and ASan reports the read. This one
// copies them first.
#define ck_assert_string_eq(X, Y)                                          \
	do {                                                               \
		const std::string ck_string_x_(X), ck_string_y_(Y);        \
		ck_assert_str_eq(ck_string_x_.c_str(), ck_string_y_.c_str()); \
	} while (0)

namespace timersim::test {

inline int run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}

}  // namespace timersim::test
