// Randomised differential test of the classic wheel against a trivially
// correct reference: a set of (fire jiffy, timer) pairs on an unwrapped
// 64-bit clock. For each geometry (normal, small) and width (32, 64) at
// least a million operations: mod_timer / mod_timer_pending / del_timer /
// try_to_del_timer_sync and run_timers over random spans, long jumps across
// several cascade levels included; callbacks re-arm themselves and modify
// or delete other timers, also ones still on the work list.
//
// The reference's one rule: a timer fires in jiffy max(expires, the base's
// timer_jiffies when it was enqueued) -- an expiry already past fires at the
// next processed jiffy. Every firing must be in exactly that jiffy, once;
// after each run nothing due may be left. Slack is recomputed independently:
// the value in (expires, limit] with the most trailing zero bits -- not
// [expires, limit]: 3.10 moves 64 with limit 70 to 68, though 64 itself is
// rounder.
//
// FIFO configs also check the order within a jiffy. A timer reaches its
// final tv1 slot either directly at enqueue (less than TVR_SIZE ahead, or
// past) or by the cascade at P = fire rounded down to TVR_SIZE. So within a
// jiffy: direct timers enqueued while timer_jiffies <= P come first in
// enqueue order, then the cascaded ones (their order depends on the path
// through the upper levels, so none is required), then direct timers
// enqueued after P, in enqueue order.
//
// Seeds are fixed; a failure names config, seed and operation.
#include "tests/support/classic_fixture.h"

#include <cinttypes>
#include <cstdint>
#include <random>
#include <set>
#include <utility>
#include <vector>

namespace {

using u64 = std::uint64_t;

// Absolute (unwrapped) jiffy being processed, kept from tick(); cascade
// moves per source level, and whether any move went up a level.
u64 g_cur_abs;
u64 g_moved_from[6];
bool g_moved_up;

template <class Timer>
struct tick_observer {
	void enqueued(const Timer &, unsigned) {}
	void moved(const Timer &, unsigned from, unsigned to)
	{
		g_moved_from[from]++;
		g_moved_up |= to > from;
	}
	void cascaded(unsigned, unsigned) {}
	template <class Word> void tick(Word j)
	{
		g_cur_abs += static_cast<Word>(j - static_cast<Word>(g_cur_abs));
	}
	template <class Word> void expiring(const Timer &, Word) {}
};

template <class G, class W, kernel::slot_order O = kernel::slot_order::fifo>
using cfg = kernel::wheel_config<G, W, O, tick_observer>;

// Hot-loop assertion: Check's ck_assert marks a point on every pass, far too
// slow for millions of operations; fail through it only.
#define REQUIRE(cond, ...)                                                                   \
	do {                                                                                 \
		if (!(cond)) {                                                               \
			char why_[256];                                                      \
			std::snprintf(why_, sizeof(why_), __VA_ARGS__);                     \
			ck_abort_msg("%s seed %" PRIu64 " op %" PRIu64 ": %s (%s)", name, seed, op, \
				     why_, #cond);                                           \
		}                                                                            \
	} while (0)

struct run_params {
	u64 ops;
	unsigned timers;	// pool size
	unsigned max_bits;	// timeouts up to 2^max_bits (log-uniform tail)
};

template <class Config>
class diff_run {
public:
	using word = typename Config::word;
	using swor = kernel::signed_word<word>;
	using timer_t = kernel::timer_list<Config>;
	using G = typename Config::geometry;

	diff_run(const char *name_, u64 seed_, u64 start, const run_params &p)
		: name(name_), seed(seed_), rng(seed_), params(p), timers(p.timers), ref(p.timers)
	{
		abs_tj = start;
		this->start = start;
		jiffies = static_cast<word>(start - 1);
		g_cur_abs = start - 1;
		kernel::init_timer_base(base, &jiffies, 0, static_cast<word>(start));
		for (unsigned i = 0; i < p.timers; i++) {
			unsigned flags = rng() % 100 < 15 ? unsigned{kernel::TIMER_DEFERRABLE} : 0u;
			kernel::init_timer(&timers[i], fire, i, flags);
			const unsigned r = rng() % 100;
			timers[i].slack = r < 60 ? 0 : r < 90 ? -1 : static_cast<int>(rng() % 50);
		}
	}

	void run()
	{
		self = this;
		for (op = 0; op < params.ops; op++) {
			const unsigned r = rng() % 1000;
			const unsigned id = rng() % params.timers;
			if (r < 350)
				do_mod(id, timeout());
			else if (r < 450)
				do_del(id, false);
			else if (r < 550)
				do_mod_pending(id, timeout());
			else if (r < 590)
				do_del(id, true);
			else if (r < 600 && ref[id].pending)
				do_mod(id, ref[id].expires - jiffies);	// same expiry again
			else if (r < 900)
				advance(1 + rng() % 64);
			else if (r < 999)
				advance(1 + rng() % 512);
			else if (rng() % 20 == 0)
				long_jump();
			else
				advance(1 + rng() % 4096);
			if (op % 1000 == 0)
				full_check();
		}
		full_check();
		// Not vacuous: plenty fired, some mod_timer calls were no-ops.
		REQUIRE(fired > params.ops / 20, "only %" PRIu64 " fired", fired);
		REQUIRE(noops > 0, "no mod_timer no-op");
		REQUIRE(!g_moved_up, "a cascade moved a timer up a level");
		total_fired += fired;
		total_jiffies += abs_tj - start;
	}

	static inline u64 total_fired, total_jiffies;

private:
	struct ref_timer {
		bool pending = false;
		word expires = 0;
		u64 fire = 0;	// absolute jiffy it must fire in
		u64 seq = 0;	// enqueue order
		u64 arrival = 0;	// absolute jiffy it reached its tv1 slot
		bool direct = false;	// placed straight into tv1
	};

	const char *name;
	u64 seed;
	std::mt19937_64 rng;
	run_params params;
	word jiffies;
	kernel::tvec_base<Config> base;
	std::vector<timer_t> timers;
	std::vector<ref_timer> ref;
	std::set<std::pair<u64, unsigned>> due;	// (fire, id)
	u64 abs_tj;	// base.timer_jiffies, unwrapped
	u64 start;
	bool in_run = false;
	u64 op = 0, seq = 0, fired = 0, noops = 0;
	// Order within the jiffy being run.
	u64 order_jiffy = ~0ull;
	int order_group = 0;
	u64 order_seq = 0;

	static inline diff_run *self;

	// The base's timer_jiffies right now, unwrapped: in a callback the
	// jiffy being run has already been counted.
	u64 now_tj() const { return in_run ? g_cur_abs + 1 : abs_tj; }

	word timeout()
	{
		const unsigned r = rng() % 100;
		if (r < 5)
			return static_cast<word>(-static_cast<swor>(rng() % 1000));
		if (r < 8)
			return next_cascade_slot();
		if (r < 50)
			return rng() % 300;	// retransmits and the like
		if (r < 80)
			return rng() % (1u << (8 + rng() % 8));
		const unsigned bits = rng() % (params.max_bits + 1);
		return static_cast<word>(rng() % (u64{1} << bits));
	}

	// A timeout that lands in the slot of tv2..tv5 cascaded next (within a
	// few million jiffies even for tv5): a far timer would rarely get
	// there in one run otherwise.
	word next_cascade_slot()
	{
		const unsigned level = 2 + rng() % 4;
		const unsigned shift = G::TVR_BITS + (level - 2) * G::TVN_BITS;
		const u64 tj = now_tj();
		const u64 next = ((tj >> shift) + 1) << shift;
		const u64 e = next + (u64{1} << shift) - 1 - rng() % (next - tj);
		return static_cast<word>(static_cast<word>(e) - jiffies);
	}

	// Independent slack: the value in (e, limit] with the most trailing
	// zero bits (wrap-safe; e if limit == e), limit from timer->slack or 0.4% of the delta
	// from jiffies (none under 256).
	word ref_slack(int slack, word e) const
	{
		word limit;
		if (slack >= 0) {
			limit = e + static_cast<word>(slack);
		} else {
			const swor delta = static_cast<swor>(static_cast<word>(e - jiffies));
			if (delta < 256)
				return e;
			limit = e + static_cast<word>(delta / 256);
		}
		if (limit == e)
			return e;
		for (int k = sizeof(word) * 8 - 1; k >= 0; k--) {
			const word v = limit & ~((word{1} << k) - 1);
			const word off = v - e;
			if (off != 0 && off <= static_cast<word>(limit - e))
				return v;
		}
		return e;
	}

	void schedule(unsigned id, word expires)
	{
		ref_timer &r = ref[id];
		const u64 tj = now_tj();
		const swor ahead = static_cast<swor>(static_cast<word>(expires - static_cast<word>(tj)));
		r.pending = true;
		r.expires = expires;
		r.fire = ahead < 0 ? tj : tj + static_cast<u64>(ahead);
		r.direct = ahead < static_cast<swor>(G::TVR_SIZE);
		r.arrival = r.direct ? tj : r.fire & ~u64{G::TVR_MASK};
		r.seq = ++seq;
		due.insert({r.fire, id});
	}

	void unschedule(unsigned id)
	{
		due.erase({ref[id].fire, id});
		ref[id].pending = false;
	}

	void do_mod(unsigned id, word ahead)
	{
		timer_t *t = &timers[id];
		const word e = jiffies + ahead;
		const word want = ref_slack(t->slack, e);
		const bool was = ref[id].pending;
		const int ret = kernel::mod_timer(base, t, e);
		REQUIRE(ret == was, "mod_timer returned %d", ret);
		REQUIRE(t->expires == want, "expires %" PRIu64 " want %" PRIu64, (u64)t->expires, (u64)want);
		REQUIRE(kernel::timer_pending(t), "not pending after mod_timer");
		if (was && ref[id].expires == want) {
			noops++;	// same expiry: left where it was
			return;
		}
		if (was)
			unschedule(id);
		schedule(id, want);
	}

	void do_mod_pending(unsigned id, word ahead)
	{
		timer_t *t = &timers[id];
		const word e = jiffies + ahead;
		const bool was = ref[id].pending;
		const int ret = kernel::mod_timer_pending(base, t, e);
		REQUIRE(ret == was, "mod_timer_pending returned %d", ret);
		REQUIRE(kernel::timer_pending(t) == was, "pending changed");
		if (!was)
			return;
		REQUIRE(t->expires == e, "mod_timer_pending applied slack");
		unschedule(id);
		schedule(id, e);
	}

	void do_del(unsigned id, bool try_sync)
	{
		timer_t *t = &timers[id];
		const bool was = ref[id].pending;
		const bool running = in_run && base.running_timer == t;
		const int ret = try_sync ? kernel::try_to_del_timer_sync(t) : kernel::del_timer(t);
		if (try_sync && running) {
			REQUIRE(ret == -1, "try_to_del_timer_sync on the running timer: %d", ret);
			return;
		}
		REQUIRE(ret == was, "del returned %d", ret);
		REQUIRE(!kernel::timer_pending(t), "pending after del");
		if (was)
			unschedule(id);
	}

	static void fire(unsigned long data) { self->on_fire(static_cast<unsigned>(data)); }

	void on_fire(unsigned id)
	{
		timer_t *t = &timers[id];
		ref_timer &r = ref[id];
		REQUIRE(r.pending, "timer %u fired at %" PRIu64 " but is not pending", id, g_cur_abs);
		REQUIRE(r.fire == g_cur_abs, "timer %u fired at %" PRIu64 ", due %" PRIu64, id, g_cur_abs, r.fire);
		REQUIRE(!kernel::timer_pending(t) && base.running_timer == t, "timer %u state in callback", id);
		unschedule(id);
		fired++;
		if constexpr (Config::order == kernel::slot_order::fifo)
			check_order(r);

		// What callbacks do: re-arm themselves, touch others.
		const unsigned a = rng() % 100;
		if (a < 20)
			do_mod(id, rng() % 4 ? rng() % 300 : timeout());
		else if (a < 25)
			do_del(rng() % params.timers, false);
		else if (a < 30)
			do_mod(rng() % params.timers, timeout());
		else if (a < 33)
			do_mod_pending(rng() % params.timers, timeout());
		else if (a < 35)
			do_del(rng() % 2 ? id : rng() % params.timers, true);
	}

	void check_order(const ref_timer &r)
	{
		const u64 p = r.fire & ~u64{G::TVR_MASK};
		const int group = !r.direct ? 1 : r.arrival <= p ? 0 : 2;
		if (order_jiffy != r.fire) {
			order_jiffy = r.fire;
			order_group = group;
			order_seq = r.seq;
			return;
		}
		REQUIRE(group > order_group || (group == order_group && (group == 1 || r.seq > order_seq)),
			"FIFO order at %" PRIu64 ": group %d seq %" PRIu64 " after group %d seq %" PRIu64,
			r.fire, group, r.seq, order_group, order_seq);
		order_group = group;
		order_seq = r.seq;
	}

	void advance(u64 span)
	{
		const u64 upto = abs_tj + span - 1;
		jiffies = static_cast<word>(upto);
		in_run = true;
		kernel::run_timers(base, static_cast<word>(upto));
		in_run = false;
		abs_tj = upto + 1;
		REQUIRE(g_cur_abs == upto, "ran up to %" PRIu64 ", want %" PRIu64, g_cur_abs, upto);
		REQUIRE(base.timer_jiffies == static_cast<word>(abs_tj), "timer_jiffies");
		REQUIRE(base.running_timer == nullptr, "running_timer left set");
		REQUIRE(due.empty() || due.begin()->first > upto, "timer %u due at %" PRIu64 " not run by %" PRIu64,
			due.begin()->second, due.begin()->first, upto);
	}

	// Several thousand to a few million jiffies in one call: crosses tv2,
	// tv3 and (from a start near a boundary) tv4/tv5 cascades.
	void long_jump()
	{
		advance((u64{1} << (12 + rng() % 10)) + rng() % 4096);
		full_check();
	}

	void full_check()
	{
		const auto c = kernel::wheel_check(base);
		REQUIRE(c, "wheel_check: %s level %u slot %u", ctest::fault_name(c.fault), c.level, c.slot);
		unsigned long pending = 0, active = 0;
		for (unsigned i = 0; i < params.timers; i++) {
			REQUIRE(kernel::timer_pending(&timers[i]) == ref[i].pending, "timer %u pending", i);
			if (!ref[i].pending)
				continue;
			REQUIRE(timers[i].expires == ref[i].expires, "timer %u expires", i);
			pending++;
			active += !(timers[i].flags & kernel::TIMER_DEFERRABLE);
		}
		REQUIRE(c.pending == pending, "%lu in the wheel, %lu in the reference", c.pending, pending);
		REQUIRE(base.active_timers == active, "active_timers");
	}
};

// Starts: every INITIAL_JIFFIES (the 32-bit wrap, where every level
// cascades, comes 300*HZ later), just before tv4/tv5 boundaries, and
// arbitrary values.
template <class Config>
void differential(const char *name, u64 total_ops, unsigned max_bits)
{
	using word = typename Config::word;
	const unsigned tv5_shift = Config::geometry::TVR_BITS + 3 * Config::geometry::TVN_BITS;
	const u64 starts[] = {
		kernel::initial_jiffies<word>(100),
		kernel::initial_jiffies<word>(250),
		kernel::initial_jiffies<word>(300),
		kernel::initial_jiffies<word>(1000),
		(u64{3} << tv5_shift) - 5000,
		(u64{7} << tv5_shift) - 300000,
		(u64{5} << (tv5_shift - 6)) - 20000,	// a tv4 boundary
		sizeof(word) == 8 ? 0x0123456789abcdefull : 0x89abcdefull,
	};
	const unsigned n = sizeof(starts) / sizeof(starts[0]);
	for (int i = 0; i < 6; i++)
		g_moved_from[i] = 0;
	g_moved_up = false;
	for (unsigned i = 0; i < n; i++) {
		const u64 seed = 0x5eed0000 + i * 7919 + total_ops;
		diff_run<Config> r(name, seed, starts[i], run_params{total_ops / n, 2000, max_bits});
		r.run();
	}
	std::fprintf(stderr, "%s: %" PRIu64 " ops, %" PRIu64 " jiffies, %" PRIu64 " fired, moved from tv2..tv5: %" PRIu64
		     " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", name, total_ops, diff_run<Config>::total_jiffies,
		     diff_run<Config>::total_fired, g_moved_from[2], g_moved_from[3], g_moved_from[4], g_moved_from[5]);
	// Every level cascaded timers down at some point.
	for (unsigned level = 2; level <= 5; level++)
		ck_assert_msg(g_moved_from[level] > 0, "%s: nothing cascaded from tv%u", name, level);
}

// A million per config: about a second in all optimised, a few under
// ASan+UBSan.
constexpr u64 OPS = 1000000;

}  // namespace

using kernel::geometry_normal;
using kernel::geometry_small;

// 32-bit timeouts stay below MAX_JIFFY_OFFSET (2^30 - 1); 64-bit ones go
// beyond MAX_TVAL (clamped, re-clamped at each tv5 cascade).
START_TEST(normal_64)
{
	differential<cfg<geometry_normal, std::uint64_t>>("normal_64", OPS, 36);
}
END_TEST

START_TEST(normal_32)
{
	differential<cfg<geometry_normal, std::uint32_t>>("normal_32", OPS, 29);
}
END_TEST

START_TEST(small_64)
{
	differential<cfg<geometry_small, std::uint64_t>>("small_64", OPS, 30);
}
END_TEST

START_TEST(small_32)
{
	differential<cfg<geometry_small, std::uint32_t>>("small_32", OPS, 29);
}
END_TEST

// LIFO slots: same firing rule (no order check).
START_TEST(normal_64_lifo)
{
	differential<cfg<geometry_normal, std::uint64_t, kernel::slot_order::lifo>>("normal_64_lifo",
										   OPS / 4, 36);
}
END_TEST

int main()
{
	Suite *s = suite_create("classic_random");
	TCase *tc = tcase_create("differential");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, normal_64);
	tcase_add_test(tc, normal_32);
	tcase_add_test(tc, small_64);
	tcase_add_test(tc, small_32);
	tcase_add_test(tc, normal_64_lifo);
	suite_add_tcase(s, tc);
	return ctest::run_suite(s);
}
