// sim/base/json_writer: the bytes it writes (indentation or one line,
// commas, fixed and trimmed decimals, escapes) and that a figure that is no
// number (inf, NaN) is written as null, never as a plausible 0, in a
// document nlohmann parses.
#include <cmath>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/base/json_writer.h"
#include "tests/support/check_main.h"

using timersim::json_writer;

namespace {

START_TEST(fixed_layout_and_escapes)
{
	std::string out;
	json_writer w(out);
	w.begin_object();
	w.field("n", std::uint64_t{18446744073709551615ull});
	w.field_fixed("x", 2.5, 3);
	w.field("s", std::string_view("a\"b\\\n\x01\xff"));
	w.key("list");
	w.begin_array();
	w.value(true);
	w.null();
	w.end_array();
	w.key("empty");
	w.begin_object();
	w.end_object();
	w.end_object();
	ck_assert_str_eq(out.c_str(), "{\n"
				      "  \"n\": 18446744073709551615,\n"
				      "  \"x\": 2.500,\n"
				      "  \"s\": \"a\\\"b\\\\\\n\\u0001\\u00ff\",\n"
				      "  \"list\": [\n"
				      "    true,\n"
				      "    null\n"
				      "  ],\n"
				      "  \"empty\": {}\n"
				      "}\n");
}
END_TEST

START_TEST(non_finite_is_null)
{
	const double inf = std::numeric_limits<double>::infinity();
	const double nan = std::numeric_limits<double>::quiet_NaN();
	std::string out;
	json_writer w(out);
	w.begin_object();
	w.field_fixed("inf", inf, 1);
	w.field_fixed("minus_inf", -inf, 6);
	w.field_fixed("nan", nan, 0);
	w.field_fixed("huge", 1e300 * 1e10, 2);	// overflowed arithmetic
	w.field_fixed("zero", 0.0, 2);
	w.key("list");
	w.begin_array();
	w.value_fixed(nan, 3);
	w.value_fixed(1.25, 2);
	w.end_array();
	w.end_object();
	ck_assert_str_eq(out.c_str(), "{\n"
				      "  \"inf\": null,\n"
				      "  \"minus_inf\": null,\n"
				      "  \"nan\": null,\n"
				      "  \"huge\": null,\n"
				      "  \"zero\": 0.00,\n"
				      "  \"list\": [\n"
				      "    null,\n"
				      "    1.25\n"
				      "  ]\n"
				      "}\n");
	nlohmann::json j = nlohmann::json::parse(out);
	ck_assert(j["inf"].is_null());
	ck_assert(j["nan"].is_null());
	ck_assert(j["list"][0].is_null());
	ck_assert(j["zero"].get<double>() == 0.0);
}
END_TEST

START_TEST(one_line_and_trimmed_decimals)
{
	std::string out;
	json_writer w(out, json_writer::layout::one_line);
	w.begin_object();
	w.field("id", "a b");
	w.key("seconds");
	w.value_decimal(2.4680779999999998, 6);	// rounded to 1e-6, as a double has it
	w.key("us");
	w.value_decimal(44.111000000000004, 3);
	w.key("whole");
	w.value_decimal(1977202.0, 1);
	w.key("zero");
	w.value_decimal(0.0, 4);
	w.key("scale");
	w.value_decimal(2.5, 9);
	w.key("nan");
	w.value_decimal(std::nan(""), 3);
	w.key("of");
	w.begin_object();
	w.field("n", std::uint64_t{3});
	w.end_object();
	w.key("empty");
	w.begin_array();
	w.end_array();
	w.end_object();
	ck_assert_str_eq(out.c_str(), "{\"id\":\"a b\",\"seconds\":2.468078,\"us\":44.111,\"whole\":1977202.0,"
				      "\"zero\":0.0,\"scale\":2.5,\"nan\":null,\"of\":{\"n\":3},\"empty\":[]}");
	nlohmann::json j = nlohmann::json::parse(out);
	ck_assert(j["seconds"].get<double>() == 2.468078);
	ck_assert(j["whole"].is_number_float());
}
END_TEST

// A double's every integer digit: a huge finite figure is written whole,
// not cut at a buffer's end into another number.
START_TEST(huge_finite_is_whole)
{
	std::string out;
	json_writer w(out, json_writer::layout::one_line);
	w.begin_array();
	w.value_fixed(1e300, 2);
	w.end_array();
	nlohmann::json j = nlohmann::json::parse(out);
	ck_assert_double_eq_tol(j[0].get<double>() / 1e300, 1.0, 1e-12);
}
END_TEST

}  // namespace

int main()
{
	Suite *s = suite_create("json_writer");
	TCase *tc = tcase_create("json_writer");
	tcase_add_test(tc, fixed_layout_and_escapes);
	tcase_add_test(tc, non_finite_is_null);
	tcase_add_test(tc, one_line_and_trimmed_decimals);
	tcase_add_test(tc, huge_finite_is_whole);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
