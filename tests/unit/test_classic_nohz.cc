// NOHZ: __next_timer_interrupt() and get_next_timer_interrupt() against a
// brute-force minimum over the pending non-deferrable timers, randomised
// over many seeds, both geometries and both widths, timers on every level.
//
// What is compared. A timer's fire jiffy is max(expires, timer_jiffies).
// __next_timer_interrupt returns an expiry, possibly an overdue one (the
// first timer in the slot processed next), so it is compared clamped to
// timer_jiffies: max(R, tj) == min(first fire, tj + NEXT_TIMER_MAX_DELTA).
//
// Where it legitimately differs (64-bit, or BASE_SMALL): a timer clamped
// beyond MAX_TVAL sits in a tv5 slot that comes round long before its
// expiry. The upper-level scan stops at the first slot holding any
// non-deferrable timer and returns the minimum of that slot (and the cap).
// Proof that this can miss an earlier timer: clamp X (expires far beyond
// MAX_TVAL) into tv5 slot k; let timer_jiffies advance until slot k is the
// next-but-few to cascade; add Y into a tv5 slot k' scanned after k with
// Y < tj + NEXT_TIMER_MAX_DELTA. Nothing is in tv1..tv4, the scan reaches
// tv5, finds slot k first (k >= index: no wrap, so it returns), and
// returns min(cap, X) = cap > Y. (displaced_clamped_timer below does
// exactly this.) Without such "displaced" timers every slot's timers
// expire within the slot's span, slots are scanned in cascade order and
// spans do not overlap, so the first slot found holds the minimum. So the
// exact comparison runs when no non-deferrable timer is displaced; with one
// present only the bounds hold: min <= R <= cap.
//
// get_next_timer_interrupt() adds the cached next_timer. Cached values are
// the exact minimum, or stale (not after timer_jiffies; recomputed), or a
// cap from an earlier recompute. The exact phase keeps every timeout below
// NEXT_TIMER_MAX_DELTA and MAX_TVAL, so no cap and no displacement occur:
// then, with `now` anywhere from tj - 1 on, max(g, tj, now) == max(first
// fire, now) and g >= now.
#include "tests/support/classic_fixture.h"

#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <random>
#include <vector>

using namespace ctest;
using kernel::NEXT_TIMER_MAX_DELTA;

namespace {

using u64 = std::uint64_t;

template <class G, class W>
using cfg = kernel::wheel_config<G, W>;

#define REQUIRE(cond, ...)                                                                    \
	do {                                                                                  \
		if (!(cond)) {                                                                \
			char why_[256];                                                       \
			std::snprintf(why_, sizeof(why_), __VA_ARGS__);                      \
			ck_abort_msg("%s seed %" PRIu64 " op %u: %s (%s)", name, seed, op, why_, #cond); \
		}                                                                             \
	} while (0)

void nop(unsigned long) {}

template <class Config>
struct nohz_run {
	using word = typename Config::word;
	using swor = kernel::signed_word<word>;
	using G = typename Config::geometry;
	using base_t = kernel::tvec_base<Config>;

	const char *name;
	u64 seed;
	unsigned op = 0;
	std::mt19937_64 rng;
	word jiffies;
	base_t base;
	std::vector<kernel::timer_list<Config>> timers;
	u64 max_timeout;	// exclusive
	bool exact;	// no clamping or capping possible
	unsigned exact_checks = 0;

	nohz_run(const char *n, u64 s, word start, u64 max_to, bool ex)
		: name(n), seed(s), rng(s), timers(400), max_timeout(max_to), exact(ex)
	{
		jiffies = static_cast<word>(start - 1);
		kernel::init_timer_base(base, &jiffies, 0, start);
		for (unsigned i = 0; i < timers.size(); i++) {
			kernel::init_timer(&timers[i], nop, i, rng() % 4 ? 0u : unsigned{kernel::TIMER_DEFERRABLE});
			timers[i].slack = 0;
		}
	}

	word timeout()
	{
		const unsigned r = rng() % 10;
		if (r == 0)
			return static_cast<word>(-static_cast<swor>(rng() % 100));
		if (r < 4)
			return static_cast<word>(rng() % 300);
		// log-uniform over [0, max_timeout)
		const unsigned bits = 1 + rng() % 63;
		return static_cast<word>(rng() % std::min<u64>(max_timeout, u64{1} << std::min(bits, 63u)));
	}

	// A non-deferrable timer in tv5 whose expiry lies beyond the span of
	// its slot at that slot's next cascade (clamped beyond MAX_TVAL).
	bool displaced() const
	{
		const unsigned shift = base_t::shift_of(5);
		const word tj = base.timer_jiffies;
		for (unsigned k = 0; k < G::TVN_SIZE; k++) {
			word unit = (tj >> shift) + ((tj & ((word{1} << shift) - 1)) != 0);
			unit += (k - unit) & G::TVN_MASK;
			const word cascade_at = static_cast<word>(unit << shift);
			const kernel::list_head *head = base.tv5 + k;
			for (const kernel::list_head *p = head->next; p != head; p = p->next) {
				auto *t = kernel::timer_of<Config>(const_cast<kernel::list_head *>(p));
				if (!(t->flags & kernel::TIMER_DEFERRABLE) &&
				    static_cast<word>(t->expires - cascade_at) >> shift)
					return true;
			}
		}
		return false;
	}

	void check()
	{
		const word tj = base.timer_jiffies;
		bool any = false;
		u64 first = 0;	// offset of the first fire from tj
		for (auto &t : timers) {
			if (!kernel::timer_pending(&t) || (t.flags & kernel::TIMER_DEFERRABLE))
				continue;
			const swor d = static_cast<swor>(static_cast<word>(t.expires - tj));
			const u64 off = d < 0 ? 0 : static_cast<u64>(d);
			first = any ? std::min(first, off) : off;
			any = true;
		}

		const word r = kernel::__next_timer_interrupt(base);
		const swor r_off = static_cast<swor>(static_cast<word>(r - tj));
		if (!any) {
			REQUIRE(r == static_cast<word>(tj + NEXT_TIMER_MAX_DELTA), "nothing pending: %" PRIu64, (u64)r);
		} else {
			const u64 want = std::min<u64>(first, NEXT_TIMER_MAX_DELTA);
			const u64 got = r_off < 0 ? 0 : static_cast<u64>(r_off);
			if (!displaced()) {
				REQUIRE(got == want, "__next_timer_interrupt %+" PRId64 " from tj, want %" PRIu64,
					(std::int64_t)r_off, want);
				exact_checks++;
			} else {
				REQUIRE(!exact, "displaced timer in the exact phase");
				REQUIRE(got >= want && got <= NEXT_TIMER_MAX_DELTA, "__next_timer_interrupt %+" PRId64
					" out of [%" PRIu64 ", cap]", (std::int64_t)r_off, want);
			}
		}

		// Now: caught up (tj - 1) or lagging a little behind jiffies.
		const word now = static_cast<word>(tj - 1 + (rng() % 4 ? 0 : rng() % 300));
		const swor n_off = static_cast<swor>(static_cast<word>(now - tj));
		const word g = kernel::get_next_timer_interrupt(base, now);
		const swor g_off = static_cast<swor>(static_cast<word>(g - tj));
		if (!any) {
			REQUIRE(g == static_cast<word>(now + NEXT_TIMER_MAX_DELTA), "nothing pending: get_next");
			return;
		}
		REQUIRE(g_off >= n_off, "get_next %+" PRId64 " before now %+" PRId64, (std::int64_t)g_off,
			(std::int64_t)n_off);
		if (exact) {
			const swor lhs = std::max<swor>({g_off, 0, n_off});
			const swor rhs = std::max<swor>(static_cast<swor>(first), n_off);
			REQUIRE(lhs == rhs, "get_next %+" PRId64 " (now %+" PRId64 "), first fire %" PRIu64,
				(std::int64_t)g_off, (std::int64_t)n_off, first);
		}
		// Far phase: no upper bound. A first timer added to an empty base
		// sets next_timer to its expiry, however far (the 3.17+ form of
		// internal_add_timer this wheel uses), so get_next may exceed
		// now + NEXT_TIMER_MAX_DELTA there.
	}

	void run(unsigned ops)
	{
		for (op = 0; op < ops; op++) {
			const unsigned r = rng() % 100;
			auto *t = &timers[rng() % timers.size()];
			if (r < 45) {
				kernel::mod_timer(base, t, static_cast<word>(jiffies + timeout()));
			} else if (r < 65) {
				kernel::del_timer(t);
			} else {
				const u64 span = r < 98 ? 1 + rng() % 300
					: r < 99 || rng() % 2 ? 1 + rng() % (1u << 14)
							      : (u64{1} << (15 + rng() % 5));
				jiffies = static_cast<word>(base.timer_jiffies + span - 1);
				kernel::run_timers(base, jiffies);
			}
			check();
			if (op % 256 == 0) {
				// Far phase: a next_timer cached while a displaced timer
				// was present may outlive it (see displaced_clamped_timer).
				const auto c = kernel::wheel_check(base);
				REQUIRE(c || (!exact && c.fault == kernel::wheel_fault::next_timer_late),
					"wheel_check: %s", fault_name(c.fault));
			}
		}
		REQUIRE(!exact || exact_checks > ops / 2, "only %u exact comparisons", exact_checks);
	}
};

template <class Config>
void randomised(const char *name, unsigned seeds, unsigned ops)
{
	using word = typename Config::word;
	const u64 max_tval = Config::geometry::MAX_TVAL;
	// Exact phase: below both MAX_TVAL and the cap (2^30 - 1), less what
	// jiffies can lag timer_jiffies.
	const u64 exact_max = std::min<u64>(max_tval, NEXT_TIMER_MAX_DELTA) - 512;
	const unsigned tv5_shift = Config::geometry::TVR_BITS + 3 * Config::geometry::TVN_BITS;
	for (unsigned i = 0; i < seeds; i++) {
		const u64 seed = 0x40a0 + i;
		const word start = i % 3 == 0 ? kernel::initial_jiffies<word>(i % 2 ? 1000 : 250)
			: i % 3 == 1 ? static_cast<word>((u64{i} << tv5_shift) - 1000)
				     : static_cast<word>(seed * 0x9e3779b97f4a7c15ull);
		nohz_run<Config>(name, seed, start, exact_max, true).run(ops);
		// Far phase: 32-bit stays below MAX_JIFFY_OFFSET; 64-bit goes
		// far beyond MAX_TVAL.
		const u64 far_max = sizeof(word) == 4 ? (u64{1} << 30) - 512 : u64{1} << 40;
		if (far_max > exact_max)
			nohz_run<Config>(name, seed + 1000, start, far_max, false).run(ops);
	}
}

constexpr unsigned OPS = 3000;	// per seed and phase

}  // namespace

using kernel::geometry_normal;
using kernel::geometry_small;

START_TEST(random_normal_64) { randomised<cfg<geometry_normal, std::uint64_t>>("normal_64", 8, OPS); }
END_TEST
START_TEST(random_normal_32) { randomised<cfg<geometry_normal, std::uint32_t>>("normal_32", 8, OPS); }
END_TEST
START_TEST(random_small_64) { randomised<cfg<geometry_small, std::uint64_t>>("small_64", 8, OPS); }
END_TEST
START_TEST(random_small_32) { randomised<cfg<geometry_small, std::uint32_t>>("small_32", 8, OPS); }
END_TEST

// ---- fixed cases ---------------------------------------------------------------

START_TEST(nothing_pending)
{
	harness<n64> h(5000);
	ck_assert_uint_eq(kernel::get_next_timer_interrupt(h.base, 4999), 4999 + NEXT_TIMER_MAX_DELTA);
	ck_assert_uint_eq(kernel::__next_timer_interrupt(h.base), 5000 + NEXT_TIMER_MAX_DELTA);
	// Deferrable timers do not count.
	h.arm(5010, kernel::TIMER_DEFERRABLE);
	h.arm(6000, kernel::TIMER_DEFERRABLE);
	ck_assert_uint_eq(kernel::get_next_timer_interrupt(h.base, 4999), 4999 + NEXT_TIMER_MAX_DELTA);
	ck_assert_uint_eq(kernel::__next_timer_interrupt(h.base), 5000 + NEXT_TIMER_MAX_DELTA);
	auto *t = h.arm(7000);
	ck_assert_uint_eq(kernel::get_next_timer_interrupt(h.base, 4999), 7000);
	ck_assert_uint_eq(kernel::__next_timer_interrupt(h.base), 7000);
	kernel::del_timer(t);
	ck_assert_uint_eq(kernel::get_next_timer_interrupt(h.base, 4999), 4999 + NEXT_TIMER_MAX_DELTA);
}
END_TEST

// An expiry already past: wake now.
START_TEST(overdue_is_now)
{
	harness<n64> h(5000);
	h.arm(4990);
	ck_assert_uint_eq(kernel::get_next_timer_interrupt(h.base, 4999), 4999);
	ck_assert_uint_eq(kernel::get_next_timer_interrupt(h.base, 5100), 5100);
	// A base lagging behind jiffies: its earliest timer at 5050 is past.
	harness<n64> l(5000);
	l.arm(5050);
	ck_assert_uint_eq(kernel::get_next_timer_interrupt(l.base, 5200), 5200);
	ck_assert_uint_eq(kernel::get_next_timer_interrupt(l.base, 4999), 5050);
}
END_TEST

// Deleting the earliest timer marks next_timer stale; the next call
// recomputes it from the wheel, here from tv3 behind an empty tv1/tv2.
START_TEST(stale_next_timer_recomputed)
{
	harness<n64> h(5000);
	auto *a = h.arm(5100);
	h.arm(5000 + 20000);
	h.arm(5000 + 30000, kernel::TIMER_DEFERRABLE);
	ck_assert_uint_eq(kernel::get_next_timer_interrupt(h.base, 4999), 5100);
	kernel::del_timer(a);
	ck_assert_uint_eq(h.base.next_timer, h.base.timer_jiffies);
	ck_assert_uint_eq(kernel::get_next_timer_interrupt(h.base, 4999), 25000);
	ck_assert_uint_eq(h.base.next_timer, 25000);
	CK_WHEEL(h.base);
}
END_TEST

// The tv1 scan wraps past the next cascade: a timer 250 ahead in tv1 (slot
// before the current index) is compared with the tv2 slot cascaded first,
// whose timer is earlier.
START_TEST(tv1_wrap_looks_at_cascade)
{
	harness<n64> h(1000);	// index 1000 & 255 = 232; cascade at 1024
	h.arm(1000 + 250);	// tv1 slot 226, after the cascade at 1024
	h.arm(1030);	// 30 ahead: tv1 slot 6
	ck_assert_uint_eq(kernel::__next_timer_interrupt(h.base), 1030);
	harness<n64> g(1000);
	g.arm(1000 + 250);	// tv1, slot 226 (wrapped)
	g.run_to(1010);	// now tj 1011: 1250 - 1011 = 239, still tv1
	auto *b = g.arm(1011 + 13);	// 1024: slot 0, scanned after the wrap
	ck_assert_uint_eq(kernel::__next_timer_interrupt(g.base), 1024);
	kernel::del_timer(b);
	ck_assert_uint_eq(kernel::__next_timer_interrupt(g.base), 1250);
	CK_WHEEL(g.base);
}
END_TEST

// The case the header's proof describes: BASE_SMALL, 64-bit. X is clamped
// into tv5 slot 15 (of timer_jiffies 0 + MAX_TVAL); at tj = 11 * 2^18 the
// tv5 scan starts at slot 11 and finds X's slot before Y's (slot 3, after
// the wrap of tv5's index), so it returns the cap although Y is earlier.
// This is 3.10's algorithm, not a bug of ours: asserted as the behaviour.
START_TEST(displaced_clamped_timer)
{
	harness<s64> h(0);
	h.arm(1ull << 40);	// X
	ck_assert(h.at(h.timers[0].get()) == std::make_pair(5u, 15u));
	const std::uint64_t tj = 11ull << 18;
	h.run_to(tj - 1);
	ck_assert_uint_eq(h.at(h.timers[0].get()).first, 5);
	auto *y = h.arm(tj + (1u << 21));	// Y: 8 * 2^18 ahead -> tv5 slot 19 & 15 = 3
	ck_assert(h.at(y) == std::make_pair(5u, 3u));
	CK_WHEEL(h.base);
	ck_assert_uint_eq(kernel::__next_timer_interrupt(h.base), tj + NEXT_TIMER_MAX_DELTA);
	ck_assert_uint_gt(tj + NEXT_TIMER_MAX_DELTA, y->expires);
	// get_next_timer_interrupt() caches that value once next_timer is
	// stale (here: the earliest timer Z deleted), so next_timer is later
	// than Y -- the real algorithm's state, which wheel_check() accepts.
	auto *z = h.arm(tj + 5);
	kernel::del_timer(z);
	// Stale: 3.10's adds never raised it from the fresh base's mark.
	ck_assert(kernel::time_before_eq(h.base.next_timer, h.base.timer_jiffies));
	ck_assert_uint_eq(kernel::get_next_timer_interrupt(h.base, tj - 1), tj + NEXT_TIMER_MAX_DELTA);
	ck_assert_uint_eq(h.base.next_timer, tj + NEXT_TIMER_MAX_DELTA);
	CK_WHEEL(h.base);
	// Without X the scan finds Y, but the cached next_timer stays late
	// until it is made stale or lowered. wheel_check() cannot tell that
	// value from a broken cache (it does not know a displaced timer was
	// there when it was computed) and reports it: a known limit.
	kernel::del_timer(h.timers[0].get());
	ck_assert_uint_eq(kernel::__next_timer_interrupt(h.base), y->expires);
	ck_assert_uint_eq(h.base.next_timer, tj + NEXT_TIMER_MAX_DELTA);
	ck_assert(kernel::wheel_check(h.base).fault == kernel::wheel_fault::next_timer_late);
	auto *w = h.arm(y->expires);	// lowers it again
	ck_assert_uint_eq(h.base.next_timer, y->expires);
	CK_WHEEL(h.base);
	kernel::del_timer(w);
	ck_assert_uint_eq(kernel::get_next_timer_interrupt(h.base, tj - 1), y->expires);
	CK_WHEEL(h.base);
}
END_TEST

int main()
{
	Suite *s = suite_create("classic_nohz");
	TCase *tc = tcase_create("nohz");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, random_normal_64);
	tcase_add_test(tc, random_normal_32);
	tcase_add_test(tc, random_small_64);
	tcase_add_test(tc, random_small_32);
	tcase_add_test(tc, nothing_pending);
	tcase_add_test(tc, overdue_is_now);
	tcase_add_test(tc, stale_next_timer_recomputed);
	tcase_add_test(tc, tv1_wrap_looks_at_cascade);
	tcase_add_test(tc, displaced_clamped_timer);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
