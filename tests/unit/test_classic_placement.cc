// Placement (__internal_add_timer) at every level boundary, for both
// geometries and widths: the level AND the slot, then that each timer
// fires in exactly the jiffy it expires (an expiry in the past: the next
// processed jiffy). Beyond MAX_TVAL the slot is clamped, expires kept, and
// the timer re-clamps at each tv5 cascade until it comes in range.
//
// The expected slots are written out from the placement table of
// docs/classic-wheel.md with literal shifts (8/14/20/26 and 6/10/14/18),
// not from the kernel's own constants.
#include "tests/support/classic_fixture.h"

#include <cstdint>
#include <vector>

using namespace ctest;

namespace {

// Index bits of tv1 and shifts of tv2..tv5, per geometry, from the table.
struct layout {
	unsigned tv1_bits, tvn_bits;
	unsigned shift[6];	// shift[level], level 2..5
	std::uint64_t max_tval;
};
constexpr layout normal_layout{8, 6, {0, 0, 8, 14, 20, 26}, 0xffffffffull};
constexpr layout small_layout{6, 4, {0, 0, 6, 10, 14, 18}, (1ull << 22) - 1};

template <class Config>
constexpr layout layout_of()
{
	return Config::geometry::TVR_BITS == 8 ? normal_layout : small_layout;
}

template <class Word>
unsigned slot_for(const layout &l, unsigned level, Word expires)
{
	if (level == 1)
		return expires & ((1u << l.tv1_bits) - 1);
	return (expires >> l.shift[level]) & ((1u << l.tvn_bits) - 1);
}

struct place_case {
	std::int64_t idx;	// expires - timer_jiffies (may be negative)
	unsigned level;
	bool past = false;	// "in the past": slot processed next, fires at once
};

// The ladder's boundaries for a layout: one below, at and one above each.
// With a 32-bit word an idx of 2^31 or more is negative as a signed long:
// the kernel takes it as already past.
std::vector<place_case> boundary_cases(const layout &l, unsigned word_bits)
{
	const std::int64_t tv1 = 1ll << l.tv1_bits;
	std::vector<place_case> c = {
		{0, 1}, {1, 1}, {tv1 - 1, 1}, {tv1, 2}, {tv1 + 1, 2},
	};
	for (unsigned level = 3; level <= 5; level++) {
		const std::int64_t edge = 1ll << l.shift[level];
		c.push_back({edge - 1, level - 1});
		c.push_back({edge, level});
		c.push_back({edge + 1, level});
	}
	const std::int64_t half = 1ll << 31;
	if (word_bits == 64 || static_cast<std::int64_t>(l.max_tval) < half) {
		c.push_back({static_cast<std::int64_t>(l.max_tval), 5});
	} else {
		c.push_back({half - 1, 5});
		c.push_back({half, 1, true});
		c.push_back({static_cast<std::int64_t>(l.max_tval), 1, true});
	}
	c.push_back({-1, 1, true});
	c.push_back({-1000, 1, true});
	return c;
}

// Place every boundary case on a fresh base at `start`, check level, slot
// and that expires is untouched, then run up to `run_span` and check that
// each timer within reach fired exactly once in its jiffy.
template <class Config>
void place_and_fire(typename Config::word start, std::uint64_t run_span)
{
	using word = typename Config::word;
	const layout l = layout_of<Config>();
	harness<Config> h(start);
	std::vector<place_case> cases = boundary_cases(l, sizeof(word) * 8);

	for (const place_case &c : cases) {
		auto *t = h.make();
		t->expires = static_cast<word>(start + static_cast<word>(c.idx));
		kernel::add_timer_on(h.base, t);
		const word want_expires = static_cast<word>(start + static_cast<word>(c.idx));
		const unsigned want_slot = c.past ? slot_for(l, 1, start) : slot_for(l, c.level, want_expires);
		auto [level, slot] = h.at(t);
		ck_assert_msg(level == c.level && slot == want_slot,
			      "idx %lld at start %llu: level %u slot %u, want level %u slot %u",
			      (long long)c.idx, (unsigned long long)start, level, slot, c.level, want_slot);
		ck_assert_uint_eq(g_log.enqueues.back().level, c.level);
		ck_assert_uint_eq(t->expires, want_expires);
		CK_WHEEL(h.base);
	}

	h.run_to(static_cast<word>(start + run_span));
	CK_WHEEL(h.base);
	std::vector<unsigned> times_fired(cases.size());
	for (const fire_rec &f : g_log.fired) {
		const place_case &c = cases[f.data];
		times_fired[f.data]++;
		const word want = c.past ? start : static_cast<word>(start + static_cast<word>(c.idx));
		ck_assert_msg(f.jiffy == want, "idx %lld fired at %llu, want %llu", (long long)c.idx,
			      (unsigned long long)f.jiffy, (unsigned long long)want);
	}
	for (std::size_t i = 0; i < cases.size(); i++) {
		const bool reach = cases[i].past || cases[i].idx <= static_cast<std::int64_t>(run_span);
		ck_assert_msg(times_fired[i] == (reach ? 1u : 0u), "idx %lld fired %u times",
			      (long long)cases[i].idx, times_fired[i]);
		ck_assert(kernel::timer_pending(h.timers[i].get()) == !reach);
	}
}

}  // namespace

// Normal geometry: fire-check up to 2^20 + 1 (2^26 would take 67M ticks).
START_TEST(normal_64_boundaries)
{
	place_and_fire<n64>(0, (1u << 20) + 1);
	place_and_fire<n64>(0x12345678, (1u << 20) + 1);
	place_and_fire<n64>(kernel::initial_jiffies<std::uint64_t>(250), 1u << 14);
	place_and_fire<n64>(0xfffffffffff00000ull, 1u << 14);	// 64-bit wrap
}
END_TEST

START_TEST(normal_32_boundaries)
{
	place_and_fire<n32>(0, (1u << 20) + 1);
	place_and_fire<n32>(kernel::initial_jiffies<std::uint32_t>(1000), (1u << 20) + 1);
	place_and_fire<n32>(0x80000000u - 300, 1u << 14);
}
END_TEST

// BASE_SMALL: the whole range up to MAX_TVAL = 2^22 - 1 is cheap to run.
START_TEST(small_boundaries)
{
	place_and_fire<s64>(0, 1u << 22);
	place_and_fire<s64>(0x123456789ull, 1u << 22);
	place_and_fire<s32>(kernel::initial_jiffies<std::uint32_t>(250), 1u << 22);
	place_and_fire<s32>(0xffffffffu - 5, 1u << 22);
}
END_TEST

// Normal geometry, the top two levels for real: timers 2^26 - 1 (tv4) and
// 2^26, 2^26 + 1, 2^26 + 2^20 + 5 (tv5) ahead fire exactly, through every
// cascade down (67M jiffies, a fraction of a second).
START_TEST(normal_64_tv5_fires)
{
	const std::uint64_t start = 0xabcdef;
	harness<n64> h(start);
	const std::uint64_t ahead[] = {(1u << 26) - 1, 1u << 26, (1u << 26) + 1, (1u << 26) + (1u << 20) + 5};
	for (std::uint64_t a : ahead)
		h.arm(start + a);
	ck_assert_uint_eq(h.at(h.timers[0].get()).first, 4);
	for (int i = 1; i < 4; i++)
		ck_assert_uint_eq(h.at(h.timers[i].get()).first, 5);
	h.run_to(start + ahead[3]);
	CK_WHEEL(h.base);
	ck_assert_uint_eq(g_log.fired.size(), 4);
	for (int i = 0; i < 4; i++)
		ck_assert(g_log.fired[i] == (fire_rec{static_cast<unsigned long>(i), start + ahead[i]}));
	unsigned from5 = 0;
	for (const move_rec &m : g_log.moves)
		from5 += m.from == 5;
	ck_assert_uint_eq(from5, 3);	// each tv5 timer cascaded once from tv5
}
END_TEST

// Literal spot checks, computed by hand, at timer_jiffies 0x12345678.
START_TEST(hand_computed_slots)
{
	harness<n64> h(0x12345678);
	auto *a = h.arm(0x12345678 + 255);	// 0x12345777 -> tv1 slot 0x77
	auto *b = h.arm(0x12345678 + 256);	// 0x12345778 -> tv2 slot 0x57 & 63 = 23
	auto *c = h.arm(0x12345678 + 16384);	// 0x12349678 -> tv3 (0x48d2 & 63) = 18
	auto *d = h.arm(0x12345678 + (1 << 20));	// 0x12445678 -> tv4 (0x124 & 63) = 36
	auto *e = h.arm(0x12345678 + (1 << 26));	// 0x16345678 -> tv5 (0x5 & 63) = 5
	auto *f = h.arm(0x12345678 - 3);	// past -> tv1 slot 0x78
	ck_assert(h.at(a) == std::make_pair(1u, 0x77u));
	ck_assert(h.at(b) == std::make_pair(2u, 23u));
	ck_assert(h.at(c) == std::make_pair(3u, 18u));
	ck_assert(h.at(d) == std::make_pair(4u, 36u));
	ck_assert(h.at(e) == std::make_pair(5u, 5u));
	ck_assert(h.at(f) == std::make_pair(1u, 0x78u));
	CK_WHEEL(h.base);
}
END_TEST

// 64-bit beyond MAX_TVAL: the slot is that of timer_jiffies + MAX_TVAL,
// expires itself unchanged.
START_TEST(beyond_max_tval_normal_64)
{
	const std::uint64_t start = 0x12345678;
	harness<n64> h(start);
	const std::uint64_t far[] = {start + 0xffffffffull + 1, start + (1ull << 40), start + (1ull << 62)};
	for (std::uint64_t e : far) {
		auto *t = h.arm(e);
		ck_assert_uint_eq(t->expires, e);
		// (0x12345678 + 0xffffffff) >> 26 = 0x112345677 >> 26 = 0x44, & 63 = 4
		ck_assert(h.at(t) == std::make_pair(5u, 4u));
		CK_WHEEL(h.base);
	}
	// At timer_jiffies 1 the clamp point 1 + MAX_TVAL is 2^32 exactly:
	// slot 0, where 2^32 - 1 would give 63.
	harness<n64> one(1);
	auto *t = one.arm(1ull << 36);
	ck_assert(one.at(t) == std::make_pair(5u, 0u));
	harness<s64> small(1);	// 1 + 2^22 - 1 = 2^22: slot 16 & 15 = 0
	auto *u = small.arm(1ull << 36);
	ck_assert(small.at(u) == std::make_pair(5u, 0u));
}
END_TEST

// 32-bit normal geometry: an idx of 2^31 or more is "in the past" (signed),
// so it goes to the slot processed next and fires right away.
START_TEST(normal_32_half_range_is_past)
{
	const std::uint32_t start = 1000;
	harness<n32> h(start);
	auto *t = h.arm(start + 0x80000005u);
	ck_assert(h.at(t) == std::make_pair(1u, start & 255u));
	h.run_to(start);
	ck_assert_uint_eq(g_log.fired.size(), 1);
	ck_assert_uint_eq(g_log.fired[0].jiffy, start);
	CK_WHEEL(h.base);
}
END_TEST

// Clamped timers re-clamp into tv5 at each cascade of their slot until the
// expiry is within MAX_TVAL, then cascade down and fire exactly at expires.
template <class Config>
void reclamp(typename Config::word start, typename Config::word ahead)
{
	using word = typename Config::word;
	harness<Config> h(start);
	const word expires = static_cast<word>(start + ahead);
	auto *t = h.arm(expires);
	// small: slot of start + 2^22 - 1, shift 18
	ck_assert(h.at(t) == std::make_pair(5u, static_cast<unsigned>(((start + (1u << 22) - 1) >> 18) & 15)));
	ck_assert_uint_eq(t->expires, expires);

	word now = start;
	while (kernel::timer_pending(t)) {
		const word step = 1u << 18;
		now = static_cast<word>(now + step);
		h.run_to(now);
		CK_WHEEL(h.base);
		ck_assert_uint_eq(t->expires, expires);
		if (kernel::timer_pending(t) && static_cast<word>(expires - now) > (1u << 22)) {
			// Still beyond MAX_TVAL: must still sit in tv5.
			ck_assert_uint_eq(h.at(t).first, 5);
		}
	}
	ck_assert_uint_eq(g_log.fired.size(), 1);
	ck_assert_uint_eq(g_log.fired[0].jiffy, expires);

	unsigned reclamps = 0;
	for (const move_rec &m : g_log.moves) {
		ck_assert(m.to <= m.from);	// never moves up a level
		reclamps += m.from == 5 && m.to == 5;
	}
	// From 3 * 2^22 ahead, the slot comes round about every 2^22 jiffies.
	ck_assert_uint_ge(reclamps, 2);
	ck_assert_uint_eq(g_log.moves.back().to, 1);
}

START_TEST(small_64_reclamp_then_fire)
{
	reclamp<s64>(1000, 3 * (1u << 22) + 12345);
	reclamp<s64>(0x123456789ull, 2 * (1u << 22) + 777);
}
END_TEST

START_TEST(small_32_reclamp_across_wrap)
{
	reclamp<s32>(0xffffffffu - 5000, 2 * (1u << 22) + 99);
}
END_TEST

// A 64-bit timer far beyond MAX_TVAL keeps re-clamping: after one cascade
// of its slot it is in tv5 again, in the slot of the new timer_jiffies +
// MAX_TVAL (small geometry, so the cascade comes after ~2^22 jiffies).
START_TEST(small_64_far_stays_in_tv5)
{
	harness<s64> h(0);
	auto *t = h.arm(1ull << 40);
	ck_assert(h.at(t) == std::make_pair(5u, 15u));	// (2^22 - 1) >> 18 = 15
	h.run_to(1u << 22);	// slot 15 cascades at 15 * 2^18
	ck_assert_uint_eq(g_log.moves.size(), 1);
	ck_assert(g_log.moves[0] == (move_rec{0, 5, 5, 15u << 18}));
	// Re-placed from 15 * 2^18: slot of 15 * 2^18 + 2^22 - 1 -> 30 & 15 = 14.
	ck_assert(h.at(t) == std::make_pair(5u, 14u));
	ck_assert_uint_eq(t->expires, 1ull << 40);
	CK_WHEEL(h.base);
}
END_TEST

int main()
{
	Suite *s = suite_create("classic_placement");
	TCase *tc = tcase_create("placement");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, normal_64_boundaries);
	tcase_add_test(tc, normal_32_boundaries);
	tcase_add_test(tc, small_boundaries);
	tcase_add_test(tc, normal_64_tv5_fires);
	tcase_add_test(tc, hand_computed_slots);
	tcase_add_test(tc, beyond_max_tval_normal_64);
	tcase_add_test(tc, normal_32_half_range_is_past);
	tcase_add_test(tc, small_64_reclamp_then_fire);
	tcase_add_test(tc, small_32_reclamp_across_wrap);
	tcase_add_test(tc, small_64_far_stays_in_tv5);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
