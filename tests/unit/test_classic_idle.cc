// idle_jiffies() and forward_idle() (kernel/classic_idle.h) against
// run_timers() jiffy by jiffy: two bases with the same timers, one stepping,
// one forwarding. The stretch idle_jiffies() reports must be exactly the
// jiffies before the next one that fires or moves a timer, forwarding over
// it must leave the base as stepping does and count the cascade() calls
// stepping made (all on empty slots), and the busy jiffy after it must then
// do the same on both. Both geometries, both widths, near the 32-bit wrap,
// with timeouts reaching tv5 and beyond MAX_TVAL (small geometry).
#include <cstdint>
#include <map>
#include <random>

#include "kernel/classic_idle.h"
#include "tests/support/classic_fixture.h"

using namespace ctest;

namespace {

template <class Config>
void idle_matches_stepping(std::uint64_t seed, unsigned max_bits)
{
	using word = typename Config::word;
	const word start = static_cast<word>(4294967296ull - 75000 + seed * 977);
	harness<Config> a(start), b(start);
	std::mt19937_64 rng(seed);
	auto timeout = [&] { return static_cast<word>(rng() % (word{1} << (rng() % (max_bits + 1)))); };

	for (unsigned i = 0; i < 40; i++) {
		word e = static_cast<word>(start + timeout());
		a.arm(e);
		b.arm(e);
	}
	unsigned stretches = 0, long_ones = 0;
	for (unsigned round = 0; round < 400; round++) {
		std::uint64_t idle = kernel::idle_jiffies(a.base);
		ck_assert_uint_eq(idle, kernel::idle_jiffies(b.base));
		if (idle == kernel::IDLE_FOREVER) {
			ck_assert_uint_eq(kernel::wheel_check(a.base).pending, 0);
			break;
		}
		const word from = a.base.timer_jiffies;
		g_log.clear();
		if (idle)
			a.run_to(static_cast<word>(from + idle - 1));
		ck_assert_msg(g_log.fired.empty() && g_log.moves.empty(), "seed %llu: %zu fired, %zu moved within %llu idle jiffies",
			      (unsigned long long)seed, g_log.fired.size(), g_log.moves.size(), (unsigned long long)idle);
		ck_assert_uint_eq(g_log.ticks, idle);
		std::map<unsigned, std::uint64_t> calls;
		for (const cascade_rec &c : g_log.cascades)
			calls[c.level]++;
		kernel::idle_cascades c = kernel::forward_idle(b.base, idle);
		for (unsigned level = 2; level <= 5; level++)
			ck_assert_msg(c.calls[level] == calls[level], "seed %llu level %u: %llu calls forwarded, %llu stepped",
				      (unsigned long long)seed, level, (unsigned long long)c.calls[level],
				      (unsigned long long)calls[level]);
		ck_assert(a.base.timer_jiffies == b.base.timer_jiffies);
		b.jiffies = a.jiffies;
		CK_WHEEL(b.base);
		stretches++;
		long_ones += idle > 1000;

		// The next jiffy is busy, and the same on both.
		const word busy = a.base.timer_jiffies;
		g_log.clear();
		a.run_to(busy);
		event_log stepped = g_log;
		ck_assert_msg(!stepped.fired.empty() || !stepped.moves.empty(), "seed %llu: jiffy %llu after the idle stretch is idle too",
			      (unsigned long long)seed, (unsigned long long)busy);
		g_log.clear();
		b.run_to(busy);
		ck_assert(g_log.fired == stepped.fired);
		ck_assert(g_log.moves == stepped.moves);
		CK_WHEEL(a.base);

		// Keep it going: re-arm what fired, further out.
		for (const fire_rec &f : stepped.fired) {
			word e = static_cast<word>(busy + 1 + timeout());
			kernel::mod_timer(a.base, a.timers[f.data].get(), e);
			kernel::mod_timer(b.base, b.timers[f.data].get(), e);
		}
	}
	ck_assert_msg(stretches > 100 && long_ones > 10, "seed %llu: %u stretches, %u long", (unsigned long long)seed,
		      stretches, long_ones);
}

}  // namespace

START_TEST(idle_normal_64) { idle_matches_stepping<n64>(1 + _i, 24); }
END_TEST
START_TEST(idle_normal_32) { idle_matches_stepping<n32>(11 + _i, 22); }
END_TEST
START_TEST(idle_small_64) { idle_matches_stepping<s64>(21 + _i, 24); }
END_TEST
START_TEST(idle_small_32) { idle_matches_stepping<s32>(31 + _i, 23); }
END_TEST

// An empty wheel is idle for ever; a timer in the slot processed next
// makes the current jiffy busy; a cascade point with a non-empty slot is
// busy although tv1 is empty.
START_TEST(idle_edges)
{
	harness<n64> h(1000);
	ck_assert_uint_eq(kernel::idle_jiffies(h.base), kernel::IDLE_FOREVER);
	auto *t = h.arm(1000);
	ck_assert_uint_eq(kernel::idle_jiffies(h.base), 0);
	kernel::del_timer(t);
	h.arm(1000 + 255);
	ck_assert_uint_eq(kernel::idle_jiffies(h.base), 255);
	harness<n64> g(1000);
	g.arm(6000);	// tv2 slot 23, cascaded at 23 * 256 = 5888
	ck_assert_uint_eq(kernel::idle_jiffies(g.base), 5888 - 1000);
	kernel::idle_cascades c = kernel::forward_idle(g.base, 5888 - 1000);
	ck_assert_uint_eq(c.calls[2], (5888 - 1024) / 256);	// 1024, 1280, ... 5632
	ck_assert_uint_eq(c.calls[3], 0);
	ck_assert_uint_eq(g.base.timer_jiffies, 5888);
}
END_TEST

int main()
{
	Suite *s = suite_create("classic_idle");
	TCase *tc = tcase_create("idle");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, idle_normal_64, 0, 3);
	tcase_add_loop_test(tc, idle_normal_32, 0, 3);
	tcase_add_loop_test(tc, idle_small_64, 0, 3);
	tcase_add_loop_test(tc, idle_small_32, 0, 3);
	tcase_add_test(tc, idle_edges);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
