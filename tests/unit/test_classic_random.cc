// Randomised differential test of the classic wheel against a trivially
// correct reference: a set of (fire jiffy, timer) pairs on an unwrapped
// 64-bit clock. For each geometry (normal, small) and width (32, 64) at
// least a million operations: mod_timer / mod_timer_pending / del_timer /
// try_to_del_timer_sync and run_timers over random spans, long jumps across
// several cascade levels included; callbacks re-arm themselves and modify
// or delete other timers, also ones still on the work list. Two-CPU runs
// add migration between bases and bases that lag behind jiffies.
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
	unsigned cpus;		// 1, or 2 for migration between bases
};

template <class Config>
class diff_run {
public:
	using word = typename Config::word;
	using swor = kernel::signed_word<word>;
	using timer_t = kernel::timer_list<Config>;
	using G = typename Config::geometry;
	static constexpr unsigned MAX_CPUS = 2;

	diff_run(const char *name_, u64 seed_, u64 start_, const run_params &p)
		: name(name_), seed(seed_), rng(seed_), params(p), timers(p.timers), ref(p.timers)
	{
		start = start_;
		now_abs = start - 1;
		jiffies = static_cast<word>(now_abs);
		for (unsigned c = 0; c < p.cpus; c++) {
			abs_tj[c] = start;
			kernel::init_timer_base(bases[c], &jiffies, c, static_cast<word>(start));
		}
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
			const unsigned cpu = rng() % params.cpus;	// the calling CPU
			if (r < 350)
				do_mod(id, timeout(cpu), cpu);
			else if (r < 450)
				do_del(id, false);
			else if (r < 550)
				do_mod_pending(id, timeout(cpu), cpu);
			else if (r < 590)
				do_del(id, true);
			else if (r < 600 && ref[id].pending)
				do_mod(id, ref[id].expires - jiffies, cpu);	// same expiry again
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
		// Not vacuous: plenty fired, some mod_timer calls were no-ops, and
		// with two CPUs timers moved between bases, also while running.
		REQUIRE(fired > params.ops / 20, "only %" PRIu64 " fired", fired);
		REQUIRE(noops > 0, "no mod_timer no-op");
		REQUIRE(!g_moved_up, "a cascade moved a timer up a level");
		if (params.cpus > 1)
			REQUIRE(migrations > 0 && kept_running > 0, "%" PRIu64 " migrations, %" PRIu64
				" kept on the running base", migrations, kept_running);
		total_fired += fired;
		total_jiffies += now_abs - start;
	}

	static inline u64 total_fired, total_jiffies;

private:
	struct ref_timer {
		bool pending = false;
		int cpu = -1;	// base it was last queued on (timer->base)
		word expires = 0;
		u64 fire = 0;	// absolute jiffy it must fire in
		u64 seq = 0;	// enqueue order
		u64 arrival = 0;	// absolute jiffy it reached its tv1 slot
		bool direct = false;	// placed straight into tv1
	};
	struct order_state {
		u64 jiffy = ~0ull;
		int group = 0;
		u64 seq = 0;
	};

	const char *name;
	u64 seed;
	std::mt19937_64 rng;
	run_params params;
	word jiffies;	// the machine's, shared by the bases
	u64 now_abs;	// jiffies, unwrapped
	u64 start;
	kernel::tvec_base<Config> bases[MAX_CPUS];
	u64 abs_tj[MAX_CPUS];	// each base's timer_jiffies, unwrapped
	std::set<std::pair<u64, unsigned>> due[MAX_CPUS];	// (fire, id)
	order_state order[MAX_CPUS];	// order within the jiffy being run
	std::vector<timer_t> timers;
	std::vector<ref_timer> ref;
	int run_cpu = -1;	// base whose callbacks are running
	int running_id = -1;	// the timer whose callback is running
	u64 op = 0, seq = 0, fired = 0, noops = 0, migrations = 0, kept_running = 0;

	static inline diff_run *self;

	// A base's timer_jiffies right now, unwrapped: in a callback the
	// jiffy being run has already been counted.
	u64 now_tj(unsigned cpu) const { return run_cpu == static_cast<int>(cpu) ? g_cur_abs + 1 : abs_tj[cpu]; }

	word timeout(unsigned cpu)
	{
		const unsigned r = rng() % 100;
		if (r < 5)
			return static_cast<word>(-static_cast<swor>(rng() % 1000));
		if (r < 8)
			return next_cascade_slot(cpu);
		if (r < 50)
			return rng() % 300;	// retransmits and the like
		if (r < 80) {
			// One rng() call per statement: operands of one expression
			// are unsequenced, and the run must not depend on the build.
			const unsigned bits = 8 + rng() % 8;
			return rng() % (1u << bits);
		}
		const unsigned bits = rng() % (params.max_bits + 1);
		return static_cast<word>(rng() % (u64{1} << bits));
	}

	// A timeout that lands in the slot of tv2..tv5 cascaded next (within a
	// few million jiffies even for tv5): a far timer would rarely get
	// there in one run otherwise.
	word next_cascade_slot(unsigned cpu)
	{
		const unsigned level = 2 + rng() % 4;
		const unsigned shift = G::TVR_BITS + (level - 2) * G::TVN_BITS;
		const u64 tj = now_tj(cpu);
		const u64 next = ((tj >> shift) + 1) << shift;
		const u64 e = next + (u64{1} << shift) - 1 - rng() % (next - tj);
		return static_cast<word>(static_cast<word>(e) - jiffies);
	}

	// Independent slack: the value in (e, limit] with the most trailing
	// zero bits (wrap-safe; e if limit == e), limit from timer->slack or
	// 0.4% of the delta from jiffies (none under 256).
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

	// Where __mod_timer puts a timer re-armed from `cpu`: that CPU's base,
	// unless it is the running timer of its old base.
	unsigned target_cpu(unsigned id, unsigned cpu)
	{
		const ref_timer &r = ref[id];
		if (r.cpu >= 0 && r.cpu == run_cpu && running_id == static_cast<int>(id)) {
			kept_running += r.cpu != static_cast<int>(cpu);
			return r.cpu;
		}
		migrations += r.cpu >= 0 && r.cpu != static_cast<int>(cpu);
		return cpu;
	}

	void schedule(unsigned id, word expires, unsigned cpu)
	{
		ref_timer &r = ref[id];
		const u64 tj = now_tj(cpu);
		const swor ahead = static_cast<swor>(static_cast<word>(expires - static_cast<word>(tj)));
		r.pending = true;
		r.cpu = cpu;
		r.expires = expires;
		r.fire = ahead < 0 ? tj : tj + static_cast<u64>(ahead);
		r.direct = ahead < static_cast<swor>(G::TVR_SIZE);
		r.arrival = r.direct ? tj : r.fire & ~u64{G::TVR_MASK};
		r.seq = ++seq;
		due[cpu].insert({r.fire, id});
	}

	void unschedule(unsigned id)
	{
		due[ref[id].cpu].erase({ref[id].fire, id});
		ref[id].pending = false;
	}

	void do_mod(unsigned id, word ahead, unsigned cpu)
	{
		timer_t *t = &timers[id];
		const word e = jiffies + ahead;
		const word want = ref_slack(t->slack, e);
		const bool was = ref[id].pending;
		const int ret = kernel::mod_timer(bases[cpu], t, e);
		REQUIRE(ret == was, "mod_timer returned %d", ret);
		REQUIRE(t->expires == want, "expires %" PRIu64 " want %" PRIu64, (u64)t->expires, (u64)want);
		REQUIRE(kernel::timer_pending(t), "not pending after mod_timer");
		if (was && ref[id].expires == want) {
			noops++;	// same expiry: left where it was, on its base
			REQUIRE(t->base == &bases[ref[id].cpu], "no-op mod_timer moved timer %u", id);
			return;
		}
		const unsigned to = target_cpu(id, cpu);
		if (was)
			unschedule(id);
		schedule(id, want, to);
		REQUIRE(t->base == &bases[to], "timer %u on the wrong base", id);
	}

	void do_mod_pending(unsigned id, word ahead, unsigned cpu)
	{
		timer_t *t = &timers[id];
		const word e = jiffies + ahead;
		const bool was = ref[id].pending;
		const int ret = kernel::mod_timer_pending(bases[cpu], t, e);
		REQUIRE(ret == was, "mod_timer_pending returned %d", ret);
		REQUIRE(kernel::timer_pending(t) == was, "pending changed");
		if (!was)
			return;
		REQUIRE(t->expires == e, "mod_timer_pending applied slack");
		const unsigned to = target_cpu(id, cpu);
		unschedule(id);
		schedule(id, e, to);
		REQUIRE(t->base == &bases[to], "timer %u on the wrong base", id);
	}

	void do_del(unsigned id, bool try_sync)
	{
		timer_t *t = &timers[id];
		const bool was = ref[id].pending;
		const bool running = running_id == static_cast<int>(id) && ref[id].cpu == run_cpu;
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
		const unsigned cpu = static_cast<unsigned>(run_cpu);
		REQUIRE(r.pending, "timer %u fired at %" PRIu64 " but is not pending", id, g_cur_abs);
		REQUIRE(r.cpu == run_cpu, "timer %u of cpu %d fired on cpu %d", id, r.cpu, run_cpu);
		REQUIRE(r.fire == g_cur_abs, "timer %u fired at %" PRIu64 ", due %" PRIu64, id, g_cur_abs, r.fire);
		REQUIRE(!kernel::timer_pending(t) && bases[cpu].running_timer == t, "timer %u state in callback", id);
		unschedule(id);
		fired++;
		if constexpr (Config::order == kernel::slot_order::fifo)
			check_order(r, order[cpu]);

		// What callbacks do: re-arm themselves, touch others. They run
		// on this CPU, so this base is the local one.
		running_id = static_cast<int>(id);
		const unsigned a = rng() % 100;
		const unsigned other = rng() % params.timers;
		if (a < 20)
			do_mod(id, rng() % 4 ? rng() % 300 : timeout(cpu), cpu);
		else if (a < 25)
			do_del(other, false);
		else if (a < 30)
			do_mod(other, timeout(cpu), cpu);
		else if (a < 33)
			do_mod_pending(other, timeout(cpu), cpu);
		else if (a < 35)
			do_del(rng() % 2 ? id : other, true);
		else if (a < 40 && params.cpus > 1)
			do_mod(id, timeout(cpu), (cpu + 1) % params.cpus);	// re-armed "from" the other CPU
		running_id = -1;
	}

	void check_order(const ref_timer &r, order_state &o)
	{
		const u64 p = r.fire & ~u64{G::TVR_MASK};
		const int group = !r.direct ? 1 : r.arrival <= p ? 0 : 2;
		if (o.jiffy != r.fire) {
			o = {r.fire, group, r.seq};
			return;
		}
		REQUIRE(group > o.group || (group == o.group && (group == 1 || r.seq > o.seq)),
			"FIFO order at %" PRIu64 ": group %d seq %" PRIu64 " after group %d seq %" PRIu64,
			r.fire, group, r.seq, o.group, o.seq);
		o = {r.fire, group, r.seq};
	}

	// The machine's jiffies move on by `span`; each base catches up,
	// except that with two CPUs one sometimes stays behind for a while
	// (an idle CPU) and catches up later.
	void advance(u64 span)
	{
		now_abs += span;
		jiffies = static_cast<word>(now_abs);
		for (unsigned c = 0; c < params.cpus; c++)
			if (params.cpus == 1 || rng() % 8)
				run_base(c);
	}

	void run_base(unsigned c)
	{
		const u64 upto = now_abs;
		g_cur_abs = abs_tj[c] - 1;
		run_cpu = static_cast<int>(c);
		kernel::run_timers(bases[c], static_cast<word>(upto));
		run_cpu = -1;
		REQUIRE(g_cur_abs == upto, "cpu %u ran up to %" PRIu64 ", want %" PRIu64, c, g_cur_abs, upto);
		abs_tj[c] = upto + 1;
		REQUIRE(bases[c].timer_jiffies == static_cast<word>(abs_tj[c]), "timer_jiffies");
		REQUIRE(bases[c].running_timer == nullptr, "running_timer left set");
		REQUIRE(due[c].empty() || due[c].begin()->first > upto,
			"cpu %u: timer %u due at %" PRIu64 " not run by %" PRIu64, c, due[c].begin()->second,
			due[c].begin()->first, upto);
	}

	// Several thousand to a few million jiffies in one call: crosses tv2,
	// tv3 and (from a start near a boundary) tv4/tv5 cascades.
	void long_jump()
	{
		const unsigned bits = 12 + rng() % 10;
		advance((u64{1} << bits) + rng() % 4096);
		full_check();
	}

	void full_check()
	{
		unsigned long pending[MAX_CPUS] = {}, active[MAX_CPUS] = {};
		for (unsigned i = 0; i < params.timers; i++) {
			REQUIRE(kernel::timer_pending(&timers[i]) == ref[i].pending, "timer %u pending", i);
			if (!ref[i].pending)
				continue;
			REQUIRE(timers[i].expires == ref[i].expires, "timer %u expires", i);
			REQUIRE(timers[i].base == &bases[ref[i].cpu], "timer %u base", i);
			pending[ref[i].cpu]++;
			active[ref[i].cpu] += !(timers[i].flags & kernel::TIMER_DEFERRABLE);
		}
		for (unsigned c = 0; c < params.cpus; c++) {
			const auto w = kernel::wheel_check(bases[c]);
			REQUIRE(w, "cpu %u wheel_check: %s level %u slot %u", c, ctest::fault_name(w.fault), w.level,
				w.slot);
			REQUIRE(w.pending == pending[c], "cpu %u: %lu in the wheel, %lu in the reference", c,
				w.pending, pending[c]);
			REQUIRE(bases[c].active_timers == active[c], "cpu %u active_timers", c);
		}
	}
};

// Starts: every INITIAL_JIFFIES (the 32-bit wrap, where every level
// cascades, comes 300*HZ later), just before tv4/tv5 boundaries, and
// arbitrary values.
template <class Config>
void differential(const char *name, u64 total_ops, unsigned max_bits, unsigned cpus = 1)
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
		diff_run<Config> r(name, seed, starts[i], run_params{total_ops / n, 2000, max_bits, cpus});
		r.run();
	}
	std::printf("%s: %" PRIu64 " ops, %" PRIu64 " jiffies, %" PRIu64 " fired, moved from tv2..tv5: %" PRIu64
		     " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", name, total_ops, diff_run<Config>::total_jiffies,
		     diff_run<Config>::total_fired, g_moved_from[2], g_moved_from[3], g_moved_from[4], g_moved_from[5]);
	std::fflush(stdout);	// before Check's summary, from this forked test
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

// Two CPUs: re-arming from either CPU migrates a timer to that CPU's base,
// except while it is its base's running timer (re-armed from its own
// callback "from" the other CPU, it stays); bases sometimes lag behind
// jiffies and catch up later.
START_TEST(normal_64_two_cpus)
{
	differential<cfg<geometry_normal, std::uint64_t>>("normal_64_two_cpus", OPS / 4, 36, 2);
}
END_TEST

START_TEST(small_32_two_cpus)
{
	differential<cfg<geometry_small, std::uint32_t>>("small_32_two_cpus", OPS / 4, 29, 2);
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
	tcase_add_test(tc, normal_64_two_cpus);
	tcase_add_test(tc, small_32_two_cpus);
	suite_add_tcase(s, tc);
	return ctest::run_suite(s);
}
