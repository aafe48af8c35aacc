// sim/replay/jiffies_track.h: the replay's jiffies, unwrapped from the
// trace's word, checked per CPU (never back) and against leaps, narrowed
// back for the reports. Values worked out by hand.
#include <cstdint>

#include "sim/replay/jiffies_track.h"

#include "tests/support/check_main.h"

using timersim::jiffies_t;
using timersim::jiffies_track;
using timersim::max_jiffies_leap;

constexpr jiffies_t wrap = jiffies_t{1} << 32;

// A 32-bit trace starts one wrap up: 0xfffffff0 is 2^32 + 0xfffffff0; a
// value past the wrap (5) is the nearest one, 21 jiffies later, and one
// just before (0xffffffe0) 16 earlier; narrowing gives the raw values back.
START_TEST(a_32_bit_word_unwraps_to_the_nearest)
{
	jiffies_track j;
	j.begin(32, 2, 0xfffffff0u);
	ck_assert_uint_eq(j.latest(), wrap + 0xfffffff0u);
	ck_assert_uint_eq(j.unwrap(5), 2 * wrap + 5);
	ck_assert_uint_eq(j.unwrap(0xffffffe0u), wrap + 0xffffffe0u);
	ck_assert_uint_eq(j.narrow(j.unwrap(5)), 5);
	j.note(0, j.unwrap(5));
	ck_assert_uint_eq(j.latest(), 2 * wrap + 5);
	// From there 0xfffffff0 is 21 back, not 2^32 - 21 ahead.
	ck_assert_uint_eq(j.unwrap(0xfffffff0u), wrap + 0xfffffff0u);
}
END_TEST

// A 64-bit word takes values as they are.
START_TEST(a_64_bit_word_is_as_recorded)
{
	jiffies_track j;
	j.begin(64, 1, 0x100000005ull);
	ck_assert_uint_eq(j.latest(), 0x100000005ull);
	ck_assert_uint_eq(j.unwrap(5), 5);
	ck_assert_uint_eq(j.narrow(0x100000005ull), 0x100000005ull);
}
END_TEST

// Each CPU's jiffies must not go back; another CPU's earlier value is
// fine (CPUs log out of step), and the latest is the greatest seen.
START_TEST(a_cpu_never_goes_back)
{
	jiffies_track j;
	j.begin(64, 2, 1000);
	ck_assert(j.fits(0, 1000));
	j.note(0, 1010);
	ck_assert(!j.fits(0, 1009));
	ck_assert(j.goes_back(0, 1009));
	ck_assert_uint_eq(j.last_on(0), 1010);
	ck_assert(j.fits(1, 1005));
	j.note(1, 1005);
	ck_assert_uint_eq(j.latest(), 1010);
	ck_assert(j.fits(0, 1010));
}
END_TEST

// A value more than 2^32 past the latest is corrupt, once anything was
// seen; exactly 2^32 is not.
START_TEST(a_leap_past_2_to_the_32_is_refused)
{
	jiffies_track j;
	j.begin(64, 1, 100);
	ck_assert(j.fits(0, 100 + max_jiffies_leap + 1));	// nothing seen yet
	j.note(0, 100);
	ck_assert(j.fits(0, 100 + max_jiffies_leap));
	ck_assert(!j.fits(0, 100 + max_jiffies_leap + 1));
	ck_assert(!j.goes_back(0, 100 + max_jiffies_leap + 1));
}
END_TEST

// --start before the first jiffies moves the latest back to it; one after
// them does not move it forward.
START_TEST(start_at_only_goes_back)
{
	jiffies_track j;
	j.begin(64, 1, 500);
	j.start_at(600);
	ck_assert_uint_eq(j.latest(), 500);
	j.start_at(400);
	ck_assert_uint_eq(j.latest(), 400);
}
END_TEST

int main()
{
	Suite *s = suite_create("jiffies_track");
	TCase *tc = tcase_create("jiffies_track");
	tcase_add_test(tc, a_32_bit_word_unwraps_to_the_nearest);
	tcase_add_test(tc, a_64_bit_word_is_as_recorded);
	tcase_add_test(tc, a_cpu_never_goes_back);
	tcase_add_test(tc, a_leap_past_2_to_the_32_is_refused);
	tcase_add_test(tc, start_at_only_goes_back);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
