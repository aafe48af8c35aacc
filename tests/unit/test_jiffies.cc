// kernel/jiffies.h: wrap-safe ordering and the round_jiffies family, with
// examples worked out by hand from include/linux/jiffies.h and
// kernel/timer.c (3.10) for HZ 250 and 1000.
#include "tests/support/classic_fixture.h"

#include <cstdint>

#include "kernel/jiffies.h"

using namespace kernel;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

START_TEST(time_after_family)
{
	ck_assert(time_after<u64>(2, 1));
	ck_assert(!time_after<u64>(1, 1));
	ck_assert(!time_after<u64>(1, 2));
	ck_assert(time_after_eq<u64>(1, 1));
	ck_assert(time_before<u64>(1, 2));
	ck_assert(time_before_eq<u64>(2, 2));
	ck_assert(!time_before_eq<u64>(3, 2));
	// 32-bit: 5 is after 0xfffffff0 (21 ticks later, across the wrap)
	ck_assert(time_after<u32>(5, 0xfffffff0u));
	ck_assert(time_before<u32>(0xfffffff0u, 5));
	ck_assert(!time_after<u32>(0xfffffff0u, 5));
	// half the range apart: the signed difference flips
	ck_assert(time_after<u32>(0x7fffffffu, 0));
	ck_assert(!time_after<u32>(0x80000001u, 0));
	ck_assert(time_before<u32>(0x80000001u, 0));
	// exactly half apart both orders hold: (long)0x80000000 is negative
	ck_assert(time_after<u32>(0x80000000u, 0) && time_before<u32>(0x80000000u, 0));
	// 64-bit does not wrap at 2^32
	ck_assert(time_after<u64>(0x100000005ull, 0xfffffff0ull));
	ck_assert(!time_after<u64>(5, 0xfffffff0ull));
}
END_TEST

// rem = j % HZ; rem < HZ/4 rounds down, else up; HZ=250: HZ/4 = 62.
START_TEST(round_hz250)
{
	const unsigned hz = 250;
	ck_assert_uint_eq(round_jiffies<u64>(1010, hz, 0), 1000);	// rem 10
	ck_assert_uint_eq(round_jiffies<u64>(1061, hz, 0), 1000);	// rem 61
	ck_assert_uint_eq(round_jiffies<u64>(1062, hz, 0), 1250);	// rem 62: up
	ck_assert_uint_eq(round_jiffies<u64>(1070, hz, 0), 1250);
	ck_assert_uint_eq(round_jiffies<u64>(1000, hz, 0), 1000);	// already whole
	// cpu skew 3*cpu: cpu 2 -> +6, round, -6
	ck_assert_uint_eq(__round_jiffies<u64>(1010, 2, hz, 0), 994);	// 1016 -> 1000
	ck_assert_uint_eq(__round_jiffies<u64>(1060, 2, hz, 0), 1244);	// 1066 -> 1250
	ck_assert_uint_eq(__round_jiffies<u64>(1055, 2, hz, 0), 994);	// 1061 -> 1000
	ck_assert_uint_eq(__round_jiffies<u64>(1056, 2, hz, 0), 1244);	// 1062 -> 1250
	// _up always rounds up
	ck_assert_uint_eq(round_jiffies_up<u64>(1010, hz, 0), 1250);
	ck_assert_uint_eq(__round_jiffies_up<u64>(1010, 1, hz, 0), 1247);	// 1013 -> 1250
	// forced up, a whole second still moves on by HZ (j - 0 + HZ)
	ck_assert_uint_eq(round_jiffies_up<u64>(1000, hz, 0), 1250);
}
END_TEST

START_TEST(round_hz1000)
{
	const unsigned hz = 1000;
	ck_assert_uint_eq(round_jiffies<u64>(5240, hz, 0), 5000);	// rem 240 < 250
	ck_assert_uint_eq(round_jiffies<u64>(5250, hz, 0), 6000);
	ck_assert_uint_eq(__round_jiffies<u64>(5240, 3, hz, 0), 4991);	// 5249 -> 5000 - 9
	ck_assert_uint_eq(__round_jiffies<u64>(5241, 3, hz, 0), 5991);	// 5250 -> 6000 - 9
	ck_assert_uint_eq(round_jiffies_up<u64>(5001, hz, 0), 6000);
	ck_assert_uint_eq(__round_jiffies_up<u64>(5001, 3, hz, 0), 5991);
}
END_TEST

// Rounding that lands on or before now gives back the original.
START_TEST(round_not_in_future)
{
	const unsigned hz = 250;
	ck_assert_uint_eq(round_jiffies<u64>(1010, hz, 999), 1000);
	ck_assert_uint_eq(round_jiffies<u64>(1010, hz, 1000), 1010);	// not after now
	ck_assert_uint_eq(round_jiffies<u64>(1010, hz, 1005), 1010);
	ck_assert_uint_eq(__round_jiffies<u64>(1010, 2, hz, 994), 1010);
	ck_assert_uint_eq(__round_jiffies<u64>(1010, 2, hz, 993), 994);
	// rounding up always lands after j; if j itself is past, so be it
	ck_assert_uint_eq(round_jiffies_up<u64>(1010, hz, 2000), 1010);
}
END_TEST

// The _relative forms take and give a delta from now.
START_TEST(round_relative)
{
	const unsigned hz = 250;
	ck_assert_uint_eq(round_jiffies_relative<u64>(10, hz, 990), 10);	// 1000 -> 1000
	ck_assert_uint_eq(round_jiffies_relative<u64>(60, hz, 990), 10);	// 1050 -> 1000
	ck_assert_uint_eq(round_jiffies_relative<u64>(100, hz, 990), 260);	// 1090 -> 1250
	ck_assert_uint_eq(round_jiffies_up_relative<u64>(10, hz, 990), 260);	// 1000 -> 1250
	ck_assert_uint_eq(__round_jiffies_relative<u64>(20, 2, hz, 990), 4);	// 1016 -> 1000 - 6 = 994
	ck_assert_uint_eq(__round_jiffies_up_relative<u64>(20, 2, hz, 990), 254);	// 1244
	// 1004 rounds to 1000, not after now 1000 -> original delta 4
	ck_assert_uint_eq(round_jiffies_relative<u64>(4, hz, 1000), 4);
	ck_assert_uint_eq(round_jiffies_relative<u64>(3000, 1000, 1000), 3000);	// 4000 whole
	ck_assert_uint_eq(round_jiffies_relative<u64>(3300, 1000, 1000), 4000);	// 4300 -> 5000
}
END_TEST

// 32 bits across the wrap: 0xfffffff0 = 4294967280, % 250 = 30 (2^32 % 250
// = 46), so it rounds down to 4294967250, or up to 4294967500 - 2^32 = 204.
START_TEST(round_32_wrap)
{
	const unsigned hz = 250;
	ck_assert_uint_eq(round_jiffies<u32>(0xfffffff0u, hz, 4294967200u), 4294967250u);
	ck_assert_uint_eq(round_jiffies_up<u32>(0xfffffff0u, hz, 4294967200u), 204u);
	ck_assert_uint_eq(round_jiffies_up<u64>(0xfffffff0ull, hz, 4294967200ull), 4294967500ull);
	// relative from INITIAL_JIFFIES at HZ=1000 (0xfffb6c20 = 4294667296,
	// % 1000 = 296): +100 -> rem 396 -> up to +704 -> delta 704
	ck_assert_uint_eq(round_jiffies_relative<u32>(100, 1000, initial_jiffies<u32>(1000)), 704u);
	ck_assert_uint_eq(round_jiffies_relative<u64>(100, 1000, initial_jiffies<u64>(1000)), 704u);
}
END_TEST

int main()
{
	Suite *s = suite_create("jiffies");
	TCase *tc = tcase_create("jiffies");
	tcase_add_test(tc, time_after_family);
	tcase_add_test(tc, round_hz250);
	tcase_add_test(tc, round_hz1000);
	tcase_add_test(tc, round_not_in_future);
	tcase_add_test(tc, round_relative);
	tcase_add_test(tc, round_32_wrap);
	suite_add_tcase(s, tc);
	return ctest::run_suite(s);
}
