// The cascade chain: which cascade() calls run at which jiffy (every
// TVR_SIZE jiffies tv2; tv3 when tv2's index is 0 too; and so on), that
// they run on empty slots as well, how many timers each moves and where to,
// and that cascaded timers fire exactly at their expiry. Then the wrap at
// INITIAL_JIFFIES for both widths and every HZ.
#include "tests/support/classic_fixture.h"

#include <algorithm>
#include <cstdint>
#include <vector>

using namespace ctest;

namespace {

// Shifts of tv2..tv5 (bit position of their index), from the level table.
template <class Config>
constexpr unsigned shift(unsigned level)
{
	constexpr bool normal = Config::geometry::TVR_BITS == 8;
	constexpr unsigned n[] = {0, 0, 8, 14, 20, 26};
	constexpr unsigned s[] = {0, 0, 6, 10, 14, 18};
	return normal ? n[level] : s[level];
}

// The cascade calls one jiffy j is expected to make, from the rule: at a
// multiple of TVR_SIZE tv2 always; the next level only while the index
// just cascaded is 0.
template <class Config>
std::vector<unsigned> chain_at(std::uint64_t j)
{
	std::vector<unsigned> levels;
	if (j & ((1u << shift<Config>(2)) - 1))
		return levels;
	for (unsigned level = 2; level <= 5; level++) {
		levels.push_back(level);
		const unsigned bits = shift<Config>(3) - shift<Config>(2);
		if (level == 5 || ((j >> shift<Config>(level)) & ((1u << bits) - 1)))
			break;
	}
	return levels;
}

template <class Word>
std::vector<cascade_rec> cascades_at(Word j)
{
	std::vector<cascade_rec> r;
	for (const cascade_rec &c : g_log.cascades)
		if (c.jiffy == static_cast<std::uint64_t>(j))
			r.push_back(c);
	return r;
}

// M is a multiple of tv5's width, so at M every level cascades. Four timers
// armed 300 jiffies before M exercise each step of the chain:
//   A = M + 5                      tv2 -> tv1 at M
//   B = M + 2^s3 + 7               tv3 -> tv1 at M + 2^s3
//   C = M + 2^s4 + 2^s3 + 300      tv4 -> tv3 -> tv2 -> tv1
//   D = M + 2^s5 - 1               tv5 (slot due at M) -> tv4 at M
template <class Config>
void chain(typename Config::word m)
{
	using word = typename Config::word;
	const word s = static_cast<word>(m - 300);
	const word w3 = word{1} << shift<Config>(3), w4 = word{1} << shift<Config>(4);
	const word w5 = word{1} << shift<Config>(5);
	harness<Config> h(s);

	auto *a = h.arm(m + 5);
	auto *b = h.arm(m + w3 + 7);
	auto *c = h.arm(m + w4 + w3 + 300);
	auto *d = h.arm(m + w5 - 1);
	ck_assert_uint_eq(h.at(a).first, 2);
	ck_assert_uint_eq(h.at(b).first, 3);
	ck_assert_uint_eq(h.at(c).first, 4);
	ck_assert_uint_eq(h.at(d).first, 5);
	CK_WHEEL(h.base);

	h.run_to(m);
	ck_assert(h.at(a) == std::make_pair(1u, static_cast<unsigned>((m + 5) & Config::geometry::TVR_MASK)));
	ck_assert_uint_eq(h.at(d).first, 4);
	ck_assert_uint_eq(h.at(b).first, 3);
	CK_WHEEL(h.base);
	h.run_to(m + w3);
	ck_assert(h.at(b) == std::make_pair(1u, 7u));
	CK_WHEEL(h.base);
	h.run_to(c->expires);
	CK_WHEEL(h.base);

	// Fired exactly at expiry, in order; D still pending.
	const std::vector<fire_rec> want_fired = {
		{0, m + 5}, {1, static_cast<word>(m + w3 + 7)}, {2, static_cast<word>(m + w4 + w3 + 300)}};
	ck_assert(g_log.fired == want_fired);
	ck_assert(kernel::timer_pending(d));

	const std::vector<move_rec> want_moves = {
		{0, 2, 1, m},
		{3, 5, 4, m},
		{1, 3, 1, static_cast<word>(m + w3)},
		{2, 4, 3, static_cast<word>(m + w4)},
		{2, 3, 2, static_cast<word>(m + w4 + w3)},
		{2, 2, 1, static_cast<word>(m + w4 + w3 + 256)},
	};
	ck_assert_uint_eq(g_log.moves.size(), want_moves.size());
	for (std::size_t i = 0; i < want_moves.size(); i++)
		ck_assert_msg(g_log.moves[i] == want_moves[i], "move %zu: timer %lu %u->%u at %llu", i,
			      g_log.moves[i].data, g_log.moves[i].from, g_log.moves[i].to,
			      (unsigned long long)g_log.moves[i].jiffy);

	// The named points of the chain, moved counts included: empty slots
	// are cascaded too (moved 0).
	using cr = cascade_rec;
	ck_assert(cascades_at<word>(m - 256) == (std::vector<cr>{{2, 0, static_cast<word>(m - 256)}}));
	ck_assert(cascades_at<word>(m) == (std::vector<cr>{{2, 1, m}, {3, 0, m}, {4, 0, m}, {5, 1, m}}));
	ck_assert(cascades_at<word>(m + 1).empty());
	ck_assert(cascades_at<word>(m + 256) == (std::vector<cr>{{2, 0, static_cast<word>(m + 256)}}));
	const word j3 = m + w3, j4 = m + w4, j43 = m + w4 + w3;
	ck_assert(cascades_at<word>(j3) == (std::vector<cr>{{2, 0, j3}, {3, 1, j3}}));
	ck_assert(cascades_at<word>(j4) == (std::vector<cr>{{2, 0, j4}, {3, 0, j4}, {4, 1, j4}}));
	ck_assert(cascades_at<word>(j43) == (std::vector<cr>{{2, 0, j43}, {3, 1, j43}}));
	ck_assert(cascades_at<word>(static_cast<word>(j43 + 256)) ==
		  (std::vector<cr>{{2, 1, static_cast<word>(j43 + 256)}}));

	// And every other jiffy: exactly the chain the rule gives, nothing else.
	std::size_t k = 0;
	for (word j = s;; j++) {
		for (unsigned level : chain_at<Config>(j)) {
			ck_assert_msg(k < g_log.cascades.size(), "missing cascade of tv%u at %llu", level,
				      (unsigned long long)j);
			ck_assert_msg(g_log.cascades[k].level == level && g_log.cascades[k].jiffy == j,
				      "cascade %zu: tv%u at %llu, want tv%u at %llu", k,
				      g_log.cascades[k].level, (unsigned long long)g_log.cascades[k].jiffy,
				      level, (unsigned long long)j);
			k++;
		}
		if (j == c->expires)
			break;
	}
	ck_assert_uint_eq(k, g_log.cascades.size());
}

}  // namespace

START_TEST(chain_normal_64)
{
	chain<n64>(5ull << 26);
	chain<n64>(7ull << 32);	// tv5 index 0
}
END_TEST

START_TEST(chain_normal_32)
{
	chain<n32>(5u << 26);
	chain<n32>(0);	// across the 32-bit wrap: starts at 2^32 - 300
}
END_TEST

START_TEST(chain_small)
{
	chain<s64>(5ull << 18);
	chain<s64>(0x4000000000ull);
	chain<s32>(0);
	chain<s32>(9u << 18);
}
END_TEST

// Many timers in one slot: one cascade moves them all, each to its own tv1
// slot, in FIFO order, and each fires in its jiffy.
START_TEST(bulk_cascade)
{
	const std::uint64_t m = 3ull << 26;
	harness<n64> h(m - 300);
	for (unsigned i = 0; i < 200; i++)
		h.arm(m + 199 - i);	// reverse order of expiry
	ck_assert_uint_eq(h.base.active_timers, 200);
	h.run_to(m);
	const auto at_m = cascades_at<std::uint64_t>(m);
	ck_assert_uint_eq(at_m.size(), 4);
	ck_assert_uint_eq(at_m[0].moved, 200);
	ck_assert_uint_eq(g_log.moves.size(), 200);
	for (unsigned i = 0; i < 200; i++) {
		ck_assert_uint_eq(g_log.moves[i].data, i);	// slot order kept
		if (i < 199)	// timer 199 expires at m: already ran
			ck_assert(h.at(h.timers[i].get()) == std::make_pair(1u, static_cast<unsigned>((m + 199 - i) & 255)));
	}
	CK_WHEEL(h.base);
	h.run_to(m + 300);
	ck_assert_uint_eq(g_log.fired.size(), 200);
	for (unsigned i = 0; i < 200; i++) {
		ck_assert_uint_eq(g_log.fired[i].data, 199 - i);
		ck_assert_uint_eq(g_log.fired[i].jiffy, m + i);
	}
	ck_assert_uint_eq(h.base.active_timers, 0);
	CK_WHEEL(h.base);
}
END_TEST

// Jiffies start at INITIAL_JIFFIES, five minutes before the 32-bit wrap.
// Timers on both sides of the wrap, and across it from every level, fire
// exactly; at the wrap (jiffy 0 for 32 bits, 2^32 for 64) all four levels
// cascade, tv5 at index 0.
template <class Word>
void wrap(unsigned hz)
{
	using cfg = rec_config<kernel::geometry_normal, Word>;
	const Word start = kernel::initial_jiffies<Word>(hz);
	const Word wrap_at = static_cast<Word>(0x100000000ull);	// 0 for 32 bits
	ck_assert_uint_eq(static_cast<std::uint64_t>(start) + 300ull * hz, 0x100000000ull);
	harness<cfg> h(start);
	const Word offsets_from_wrap[] = {
		static_cast<Word>(-(1ll << 20) - 3), static_cast<Word>(-257), static_cast<Word>(-1), 0, 1, 255,
		256, 16383, 16384, (1u << 20) + 17};
	std::vector<Word> want;
	for (Word off : offsets_from_wrap) {
		const Word e = static_cast<Word>(wrap_at + off);
		if (kernel::time_before(e, start))
			continue;	// before INITIAL_JIFFIES at low HZ
		h.arm(e);
		want.push_back(e);
	}
	h.arm(static_cast<Word>(start + 1));	// the first tick
	want.push_back(static_cast<Word>(start + 1));
	CK_WHEEL(h.base);

	const Word end = static_cast<Word>(wrap_at + (1u << 20) + 17);
	for (Word j = start; j != end;) {
		const Word step = std::min<Word>(static_cast<Word>(end - j), 4096);
		j = static_cast<Word>(j + step);
		h.run_to(j);
		CK_WHEEL(h.base);
	}
	ck_assert_uint_eq(g_log.fired.size(), want.size());
	for (const fire_rec &f : g_log.fired)
		ck_assert_uint_eq(f.jiffy, static_cast<std::uint64_t>(want[f.data]));
	for (std::size_t i = 1; i < g_log.fired.size(); i++)
		ck_assert(kernel::time_after(static_cast<Word>(g_log.fired[i].jiffy),
					     static_cast<Word>(g_log.fired[i - 1].jiffy)) ||
			  g_log.fired[i].jiffy == g_log.fired[i - 1].jiffy);

	auto at_wrap = cascades_at<Word>(wrap_at);
	ck_assert_uint_eq(at_wrap.size(), 4);
	for (unsigned i = 0; i < 4; i++)
		ck_assert_uint_eq(at_wrap[i].level, i + 2);
	ck_assert_uint_eq(h.base.active_timers, 0);
}

START_TEST(wrap_32)
{
	for (unsigned hz : {100u, 250u, 300u, 1000u})
		wrap<std::uint32_t>(hz);
}
END_TEST

START_TEST(wrap_64)
{
	for (unsigned hz : {100u, 250u, 300u, 1000u})
		wrap<std::uint64_t>(hz);
}
END_TEST

// The INITIAL_JIFFIES values themselves (docs: 0xFFFEDB08 at 250, 0xFFFB6C20
// at 1000), and 64-bit keeps the same zero-extended number.
START_TEST(initial_jiffies_values)
{
	ck_assert_uint_eq(kernel::initial_jiffies<std::uint32_t>(250), 0xFFFEDB08u);
	ck_assert_uint_eq(kernel::initial_jiffies<std::uint32_t>(1000), 0xFFFB6C20u);
	ck_assert_uint_eq(kernel::initial_jiffies<std::uint32_t>(100), 0xFFFF8AD0u);
	ck_assert_uint_eq(kernel::initial_jiffies<std::uint32_t>(300), 0xFFFEA070u);
	ck_assert_uint_eq(kernel::initial_jiffies<std::uint64_t>(250), 0xFFFEDB08ull);
}
END_TEST

int main()
{
	Suite *s = suite_create("classic_cascade");
	TCase *tc = tcase_create("cascade");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, chain_normal_64);
	tcase_add_test(tc, chain_normal_32);
	tcase_add_test(tc, chain_small);
	tcase_add_test(tc, bulk_cascade);
	tcase_add_test(tc, wrap_32);
	tcase_add_test(tc, wrap_64);
	tcase_add_test(tc, initial_jiffies_values);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
