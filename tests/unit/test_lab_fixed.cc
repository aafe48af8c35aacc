// The hand-worked cases of the classic-wheel notes (../shared/docs/
// classic-wheel.md) as fixed exercises F1, F2, ... with fixed answers,
// worked out by hand from the notes and written here literally: the level
// boundaries at 256, 2^14, 2^20, 2^26 and MAX_TVAL, a past expiry, the
// clamp beyond MAX_TVAL, slack 1000 -> 1008, FIFO and LIFO slots,
// round_jiffies(), INITIAL_JIFFIES (0xfffedb08 at HZ 250, 0xfffb6c20 at HZ
// 1000) and the wrap, the 4.8 wheel's granularity and 12.5%.
#include <string>

#include "sim/base/errors.h"
#include "sim/lab/exercise.h"

#include "tests/support/check_main.h"

using namespace timersim::lab;

namespace {

struct fixed_answer {
	lab_kind kind;
	const char *id;
	const char *answer;
};

// Default options: HZ 250, 64-bit jiffies, normal geometry.
const fixed_answer defaults[] = {
	{lab_kind::place, "F1", "tv1[255]"},	// idx 255: the last of tv1
	{lab_kind::place, "F2", "tv2[1]"},	// idx 256: (256 >> 8) & 63
	{lab_kind::place, "F3", "tv2[63]"},	// idx 2^14 - 1
	{lab_kind::place, "F4", "tv3[1]"},	// idx 2^14
	{lab_kind::place, "F5", "tv4[1]"},	// idx 2^20
	{lab_kind::place, "F6", "tv5[1]"},	// idx 2^26
	{lab_kind::place, "F7", "tv5[63]"},	// idx MAX_TVAL = 2^32 - 1
	{lab_kind::place, "F8", "tv5[0]"},	// clamped: (1000 + MAX_TVAL) >> 26 = 64, & 63
	{lab_kind::place, "F9", "tv1[232]"},	// past: timer_jiffies 1000 & 255
	{lab_kind::place, "F10", "tv2[1]"},	// tj 200, expires 456: idx 256, not tv1[200]
	{lab_kind::cascade, "F1", "cascade tv2[1] move A tv1[44]"},
	{lab_kind::cascade, "F2", "cascade tv2[0] tv3[1] move A tv1[116] B tv2[2] C tv1[255]"},
	{lab_kind::cascade, "F3", "cascade tv2[0] tv3[0] tv4[1] move A tv1[5] B tv3[1] C tv2[1]"},
	{lab_kind::fire, "F1", "A@1008"},			// slack 10: 1010 -> 1008
	{lab_kind::fire, "F2", "C@199 A@200 B@200"},		// FIFO
	{lab_kind::fire, "F3", "C@199 B@200 A@200"},		// LIFO
	{lab_kind::fire, "F4", "A@300 B@300"},			// LIFO twice: tv2, then the cascade
	{lab_kind::fire, "F5", "B@1000 A@1250"},		// 1130 % 250 = 130 >= 62: up; 1010: down
	{lab_kind::fire, "F6", "A@1008 B@1008"},		// mod to the same 1008: no work
	{lab_kind::fire, "F7", "B@200 A@25664"},		// 25600 + 100 -> bits below 6 cleared
	{lab_kind::next, "F1", "300"},
	{lab_kind::next, "F2", "5000"},				// the deferrable one does not count
	{lab_kind::next, "F3", "1073741823"},			// 0 + NEXT_TIMER_MAX_DELTA
	{lab_kind::next, "F4", "900"},				// stale next_timer recomputed
	{lab_kind::wrap, "F1", "initial=0xfffedb08 expires=0xfffedb6c naive=yes after=yes tv1[108] fires=0xfffedb6c"},
	{lab_kind::wrap, "F2", "initial=0xfffedb08 expires=0x00000064 naive=no after=yes tv1[100] fires=0x00000064"},
	{lab_kind::wrap, "F3", "initial=0xfffedb08 expires=0x000003d4 naive=no after=no tv1[232] fires=0x000003e8"},
	{lab_kind::wrap, "F4", "initial=0xfffedb08 expires=0x0000137e naive=no after=yes tv2[19] fires=0x0000137e"},
	{lab_kind::v48, "F1", "LVL1[13] gran=8 bucket_expiry=104 fires=104 late=4"},
	{lab_kind::v48, "F2", "LVL3[10] gran=512 bucket_expiry=5120 fires=5120 late=120"},
	{lab_kind::v48, "F3", "LVL1[8] gran=8 bucket_expiry=64 fires=64 late=1"},
	{lab_kind::v48, "F4", "LVL2[9] gran=64 bucket_expiry=576 fires=576 late=64"},	// 12.5%
	{lab_kind::v48, "F5", "LVL0[11] gran=1 bucket_expiry=11 fires=11 late=1"},
	// Beyond the cutoff 63 << 24: forced to clk + WHEEL_TIMEOUT_MAX, early.
	{lab_kind::v48, "F6", "LVL8[63] gran=16777216 bucket_expiry=1056964608 fires=1056964608 late=-1000"},
	{lab_kind::cost, "F1", "work=2415 moves=0"},	// re-armed every 10: never cascades; 201 + 201 + 2002 jiffies + 11 cascade calls
	{lab_kind::cost, "F2", "work=310 moves=1"},	// a 300-jiffy sleep cascades once; 1 + 1 + 1 + 302 jiffies + 5 calls
	// hrtimers: worked step by step in tests/unit/test_lab_coalesce.cc.
	{lab_kind::coalesce, "F1", "B@12000 A@12000 next=none"},	// A 10000..15000 runs in B's interrupt
	{lab_kind::coalesce, "F2", "A@10000 C@15000 B@15000 next=none"},	// the walk stops at C
	{lab_kind::coalesce, "F3", "H@9000 S@10000(softirq) next=20000"},	// softirq by S's expires
	{lab_kind::coalesce, "F4", "next=12000"},	// cancelled next_timer: force reprogram
	{lab_kind::coalesce, "F5", "T@4000 A@8000 T@8000 next=12000"},	// re-queued behind A
};

std::string answer(lab_kind kind, const char *id, lab_config cfg = {})
{
	exercise_ref ref;
	ref.kind = kind;
	ref.id = id;
	ref.cfg = cfg;
	return solve(make_exercise(ref)).answer;
}

void expect(lab_kind kind, const char *id, const lab_config &cfg, const std::string &want)
{
	const std::string got = answer(kind, id, cfg);
	ck_assert_msg(got == want, "%s %s: %s, expected %s", lab_kind_name(kind), id, got.c_str(), want.c_str());
}

}  // namespace

START_TEST(fixed_answers_at_the_defaults)
{
	unsigned per_kind[8] = {};
	for (const fixed_answer &f : defaults) {
		const std::string got = answer(f.kind, f.id);
		ck_assert_msg(got == f.answer, "%s %s: %s, expected %s", lab_kind_name(f.kind), f.id, got.c_str(),
			      f.answer);
		per_kind[static_cast<unsigned>(f.kind)]++;
	}
	// Every fixed exercise has its answer here.
	for (lab_kind k : lab_kinds())
		ck_assert_uint_eq(per_kind[static_cast<unsigned>(k)], fixed_ids(k).size());
}
END_TEST

// The same boundaries in other geometries and widths.
START_TEST(fixed_answers_elsewhere)
{
	lab_config small;
	small.base_small = true;
	expect(lab_kind::place, "F2", small, "tv2[1]");	// 64 >> 6
	expect(lab_kind::place, "F4", small, "tv3[1]");	// 2^10
	expect(lab_kind::place, "F7", small, "tv5[15]");	// 2^22 - 1 >> 18
	lab_config w32;
	w32.word_bits = 32;
	// 2^32 - 1 ahead is -1 as a 32-bit signed long: already past.
	expect(lab_kind::place, "F7", w32, "tv1[0]");
	lab_config hz1000;
	hz1000.hz = 1000;
	expect(lab_kind::wrap, "F1", hz1000, "initial=0xfffb6c20 expires=0xfffb6c84 naive=yes after=yes tv1[132] fires=0xfffb6c84");
	expect(lab_kind::fire, "F5", hz1000, "A@1000 B@1000");	// 130 < 250: both down
	lab_config hz100;
	hz100.hz = 100;
	// LVL_DEPTH 8 at HZ 100: the last level is LVL7.
	expect(lab_kind::v48, "F1", hz100, "LVL1[13] gran=8 bucket_expiry=104 fires=104 late=4");
	ck_assert(answer(lab_kind::v48, "F6", hz100).rfind("LVL7[", 0) == 0);
}
END_TEST

START_TEST(fixed_ids_are_checked)
{
	exercise_ref ref;
	ref.kind = lab_kind::place;
	for (const char *bad : {"F0", "F11", "F", "x", "-1", "1x", ""}) {
		ref.id = bad;
		bool threw = false;
		try {
			make_exercise(ref);
		} catch (const timersim::usage_error &) {
			threw = true;
		}
		ck_assert_msg(threw, "id '%s' accepted", bad);
	}
	ref.id = "f3";
	ck_assert(make_exercise(ref).ref.id == "F3");
	ref.id = "007";
	ck_assert(make_exercise(ref).ref.id == "7");
}
END_TEST

int main()
{
	Suite *s = suite_create("lab_fixed");
	TCase *tc = tcase_create("fixed");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, fixed_answers_at_the_defaults);
	tcase_add_test(tc, fixed_answers_elsewhere);
	tcase_add_test(tc, fixed_ids_are_checked);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
