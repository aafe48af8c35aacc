// The non-cascading wheel of kernel/v48_wheel.h, at kernel level.
//
// - calc_wheel_index() at every level boundary for HZ 100 (LVL_DEPTH 8) and
//   HZ 250/1000 (LVL_DEPTH 9): level, bucket and bucket_expiry (the expiry
//   rounded up to the level's granularity), from the literal LVL_START
//   table of docs/classic-wheel.md (63 << 3(n-1)), not the header's macros.
// - The cutoff: beyond LVL_START(LVL_DEPTH) a timer goes to the last level
//   at clk + WHEEL_TIMEOUT_MAX; an expired one to the bucket collected next.
// - mod_timer()'s same-bucket shortcut: expires changes, nothing enqueued.
// - mod_timer_on_base() against mod_timer() on random work: after every
//   step the same wheels (timers, buckets and their order, bases) and the
//   same enqueues, and it says it enqueued exactly when mod_timer() did.
// - mod_timer(), mod_timer_pending() and add_timer() against __mod_timer()
//   as the kernel writes it (one path for every case), on random work
//   with migrations, wraps and expiries: the same returns and wheels.
// - timer_recalc_next_expiry() against a brute-force search over every
//   bucket, and wheel_check() after every operation of random workloads
//   (both depths, 64- and 32-bit jiffies starting near the 32-bit wrap);
//   the checker itself must catch a corrupted wheel.
// - Agreement with a real 6.18 trace: every timer_start line's
//   bucket_expiry= and idx= from its start jiffies and expires.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "kernel/v48_check.h"
#include "kernel/v48_wheel.h"
#include "tests/support/paths.h"

#include "tests/support/check_main.h"

using namespace kernel::v48;

namespace {

// Counts what the wheel reports.
template <class Timer>
struct counting_observer {
	unsigned long enqueues = 0, expiries = 0;
	unsigned last_level = 0;
	template <class Word> void enqueued(const Timer &, unsigned level, Word) { enqueues++; last_level = level; }
	void visited(unsigned) {}
	void compared(unsigned) {}
	template <class Word> void collecting(Word, Word) {}
	template <class Word> void expiring(const Timer &, Word) { expiries++; }
};

using cfg9_64 = wheel_config<geometry_hz_gt_100, std::uint64_t, counting_observer>;
using cfg8_64 = wheel_config<geometry_hz_le_100, std::uint64_t, counting_observer>;
using cfg9_32 = wheel_config<geometry_hz_gt_100, std::uint32_t, counting_observer>;
using cfg8_32 = wheel_config<geometry_hz_le_100, std::uint32_t, counting_observer>;

template <class Config>
struct config_tag {
	using type = Config;
};

// f(config_tag, seed, start) for each config: both depths, 64-bit
// jiffies, then 32-bit ones that wrap during the run; seeds from `seed` on.
template <class F>
void each_config(std::uint64_t seed, F f)
{
	f(config_tag<cfg9_64>{}, seed, std::uint64_t{4294892296ull});
	f(config_tag<cfg8_64>{}, seed + 1, std::uint64_t{4294937296ull});
	f(config_tag<cfg9_32>{}, seed + 2, static_cast<std::uint32_t>(-300 * 250));
	f(config_tag<cfg8_32>{}, seed + 3, static_cast<std::uint32_t>(-300 * 100));
}

// LVL_START(1..9), literally.
const std::uint64_t lvl_start[10] = {0, 63, 504, 4032, 32256, 258048, 2064384, 16515072, 132120576, 1056964608};

template <class G, class Word>
void check_boundaries(unsigned depth, Word clk)
{
	ck_assert_uint_eq(G::LVL_DEPTH, depth);
	for (unsigned n = 1; n < depth; n++) {
		for (std::int64_t d : {-1, 0, 1}) {
			std::uint64_t delta = lvl_start[n] + d;
			Word expires = static_cast<Word>(clk + delta);
			unsigned want_lvl = delta < lvl_start[n] ? n - 1 : n;
			unsigned shift = 3 * want_lvl;
			Word want_be = static_cast<Word>(((expires >> shift) + 1) << shift);
			unsigned want_idx = 64 * want_lvl + static_cast<unsigned>(((expires >> shift) + 1) & 63);
			Word be = 0;
			unsigned idx = calc_wheel_index<G>(expires, clk, &be);
			ck_assert_msg(idx == want_idx && be == want_be,
				      "depth %u delta %llu: idx %u be %llu, want idx %u be %llu", depth,
				      (unsigned long long)delta, idx, (unsigned long long)be, want_idx,
				      (unsigned long long)want_be);
			// Never early, and late by less than one granule.
			ck_assert(be > expires && be - expires <= (Word{1} << shift));
		}
	}
	// delta 0 at level 0: the next jiffy (rounded up by one).
	Word be = 0;
	ck_assert_uint_eq(calc_wheel_index<G>(clk, clk, &be), static_cast<unsigned>((clk + 1) & 63));
	ck_assert(be == static_cast<Word>(clk + 1));
}

}  // namespace

START_TEST(level_boundaries_by_hz)
{
	for (unsigned hz : {100u, 250u, 300u, 1000u}) {
		unsigned depth = lvl_depth_for_hz(hz);
		ck_assert_uint_eq(depth, hz > 100 ? 9u : 8u);
		std::uint32_t clk32 = static_cast<std::uint32_t>(-300 * static_cast<std::int64_t>(hz));
		if (depth == 9) {
			check_boundaries<geometry_hz_gt_100, std::uint64_t>(9, 4294892296ull);
			check_boundaries<geometry_hz_gt_100, std::uint32_t>(9, clk32);
		} else {
			check_boundaries<geometry_hz_le_100, std::uint64_t>(8, 4294937296ull);
			check_boundaries<geometry_hz_le_100, std::uint32_t>(8, clk32);
		}
	}
}
END_TEST

START_TEST(cutoff_and_expired)
{
	using G9 = geometry_hz_gt_100;
	using G8 = geometry_hz_le_100;
	ck_assert_uint_eq(G9::WHEEL_TIMEOUT_CUTOFF, lvl_start[9]);
	ck_assert_uint_eq(G9::WHEEL_TIMEOUT_MAX, lvl_start[9] - (1ull << 24));
	ck_assert_uint_eq(G8::WHEEL_TIMEOUT_CUTOFF, lvl_start[8]);
	ck_assert_uint_eq(G8::WHEEL_TIMEOUT_MAX, lvl_start[8] - (1ull << 21));

	const std::uint64_t clk = 1000000;
	std::uint64_t be = 0;
	// The last level holds up to the cutoff as is...
	std::uint64_t e = clk + lvl_start[9] - 1;
	unsigned idx = calc_wheel_index<G9>(e, clk, &be);
	ck_assert_uint_eq(idx / 64, 8u);
	ck_assert_uint_eq(be, ((e >> 24) + 1) << 24);
	// ...and anything further is forced to clk + WHEEL_TIMEOUT_MAX.
	for (std::uint64_t far : {lvl_start[9], lvl_start[9] + 1, std::uint64_t{1} << 40}) {
		idx = calc_wheel_index<G9>(clk + far, clk, &be);
		std::uint64_t capped = clk + lvl_start[9] - (1ull << 24);
		ck_assert_uint_eq(idx, 512 + (((capped >> 24) + 1) & 63));
		ck_assert_uint_eq(be, ((capped >> 24) + 1) << 24);
		ck_assert(be < clk + far);	// force-expired early, by design
	}
	// HZ 100: level 7 is the last.
	idx = calc_wheel_index<G8>(clk + (std::uint64_t{1} << 35), clk, &be);
	ck_assert_uint_eq(idx / 64, 7u);
	// Already expired: the bucket collected next, clk itself.
	idx = calc_wheel_index<G9>(clk - 5, clk, &be);
	ck_assert_uint_eq(idx, clk & 63);
	ck_assert_uint_eq(be, clk);
}
END_TEST

START_TEST(same_bucket_shortcut)
{
	static cpu_bases<cfg9_64> cb;
	init_cpu_bases(cb, 0, 5000);
	timer_list<cfg9_64> t;
	init_timer(&t, 7, TIMER_PINNED);
	auto &b = cb.base[BASE_LOCAL];

	// 1000 jiffies ahead: level 2, granularity 64. 1000..1023 share a bucket.
	ck_assert_int_eq(mod_timer(cb, &t, 6000, 5000), 0);
	ck_assert_uint_eq(b.observer.enqueues, 1);
	ck_assert_uint_eq(b.observer.last_level, 2);
	unsigned idx = t.idx;
	ck_assert_int_eq(mod_timer(cb, &t, 6010, 5000), 1);
	ck_assert_uint_eq(b.observer.enqueues, 1);	// no enqueue: the shortcut
	ck_assert_uint_eq(t.expires, 6010);
	ck_assert_uint_eq(t.idx, idx);
	ck_assert(wheel_check(b));
	// The same expiry: returns at once.
	ck_assert_int_eq(mod_timer(cb, &t, 6010, 5000), 1);
	ck_assert_uint_eq(b.observer.enqueues, 1);
	// Another bucket: a real re-arm.
	ck_assert_int_eq(mod_timer(cb, &t, 6100, 5000), 1);
	ck_assert_uint_eq(b.observer.enqueues, 2);
	ck_assert(t.idx != idx);
	ck_assert(wheel_check(b));
	// It fires at the bucket's rounded expiry, 6144, not before.
	run_timers(cb, 6143);
	ck_assert_uint_eq(b.observer.expiries, 0);
	run_timers(cb, 6144);
	ck_assert_uint_eq(b.observer.expiries, 1);
	ck_assert(!timer_pending(&t));
}
END_TEST

namespace {

// Random operations on one CPU's bases; after each: wheel_check() on every
// base, and next_expiry (when not marked stale) equal to the brute force.
template <class Config>
void random_wheel(std::uint64_t seed, typename Config::word start, unsigned ops)
{
	using word = typename Config::word;
	static cpu_bases<Config> cb;
	init_cpu_bases(cb, 0, start);
	std::vector<timer_list<Config>> timers(400);
	std::mt19937_64 rng(seed);
	for (unsigned i = 0; i < timers.size(); i++)
		init_timer(&timers[i], i, (i % 3 == 0 ? unsigned{TIMER_PINNED} : 0u) | (i % 7 == 0 ? unsigned{TIMER_DEFERRABLE} : 0u));
	word now = start;
	unsigned long recalcs = 0, fired = 0;

	for (unsigned op = 0; op < ops; op++) {
		timer_list<Config> *t = &timers[rng() % timers.size()];
		unsigned r = rng() % 100;
		if (r < 50) {
			std::uint64_t span = rng() % 4 == 0 ? rng() % 3000000 : rng() % 600;
			if (rng() % 500 == 0)
				span = lvl_start[Config::geometry::LVL_DEPTH] + rng() % 100000;	// beyond the cutoff
			mod_timer(cb, t, static_cast<word>(now + span), now);
		} else if (r < 70) {
			del_timer(t);
		} else {
			now += static_cast<word>(rng() % 8 == 0 ? rng() % 20000 : rng() % 40);
			for (auto &b : cb.base)
				fired += run_timer_base(b, now);
			now++;
		}
		for (auto &b : cb.base) {
			auto res = wheel_check(b);
			ck_assert_msg(res, "seed %llu op %u base %u: fault %d at idx %u", (unsigned long long)seed, op,
				      b.index, static_cast<int>(res.fault), res.idx);
			if (!b.next_expiry_recalc && b.timers_pending)
				ck_assert_msg(b.next_expiry == brute_next_expiry(b), "op %u: cached next_expiry wrong", op);
			if (op % 7 == 0) {
				timer_recalc_next_expiry(b);
				recalcs++;
				ck_assert_msg(b.next_expiry == brute_next_expiry(b),
					      "seed %llu op %u: recalculated %llu, brute force %llu", (unsigned long long)seed,
					      op, (unsigned long long)b.next_expiry,
					      (unsigned long long)brute_next_expiry(b));
			}
		}
	}
	ck_assert(recalcs > 1000 && fired > 100);
}

}  // namespace

START_TEST(next_expiry_and_invariants_random)
{
	each_config(1, [](auto cfg, std::uint64_t seed, auto start) {
		random_wheel<typename decltype(cfg)::type>(seed, start, 60000);
	});
}
END_TEST

START_TEST(next_pending_bucket_brute_force)
{
	static cpu_bases<cfg9_64> cb;
	init_cpu_bases(cb, 0, 0);
	auto &b = cb.base[BASE_LOCAL];
	std::mt19937_64 rng(5);
	for (int round = 0; round < 20000; round++) {
		unsigned lvl = rng() % 9, offset = lvl * 64;
		b.pending_map[lvl] = rng() % 5 == 0 ? 0 : (rng() & rng() & rng());
		unsigned clk = rng() % 64;
		int want = -1;
		for (unsigned d = 0; d < 64; d++)
			if (test_bit(offset + (clk + d) % 64, b.pending_map)) {
				want = static_cast<int>(d);
				break;
			}
		ck_assert_int_eq(next_pending_bucket(b, offset, clk), want);
	}
}
END_TEST

START_TEST(checker_catches_corruption)
{
	static cpu_bases<cfg9_64> cb;
	init_cpu_bases(cb, 0, 100);
	timer_list<cfg9_64> a, c;
	init_timer(&a, 1, TIMER_PINNED);
	init_timer(&c, 2, TIMER_PINNED);
	auto &b = cb.base[BASE_LOCAL];
	mod_timer(cb, &a, 150, 100);
	mod_timer(cb, &c, 900, 100);
	ck_assert(wheel_check(b));

	unsigned idx = a.idx;
	clear_bit(idx, b.pending_map);
	ck_assert(wheel_check(b).fault == wheel_fault::bitmap);
	set_bit(idx, b.pending_map);

	a.expires = 170;	// no longer the bucket's expiry
	ck_assert(wheel_check(b).fault == wheel_fault::wrong_bucket);
	a.expires = 150;

	a.idx = idx + 1;
	ck_assert(wheel_check(b).fault == wheel_fault::foreign_timer);
	a.idx = idx;

	b.next_expiry = 500;	// later than a's bucket, and not marked stale
	ck_assert(wheel_check(b).fault == wheel_fault::next_expiry_late);
	b.next_expiry = 151;
	ck_assert(wheel_check(b));
}
END_TEST

namespace {

// Two CPUs' bases and their timers, in two copies for mod_timer_on_base()
// against mod_timer(): one copy re-arms with mod_timer() only, the other
// with mod_timer_on_base() wherever a pending timer's base is the one
// base_for() picks on the calling CPU.
template <class Config>
struct machine {
	cpu_bases<Config> cpu[2];
	std::vector<timer_list<Config>> timers;

	void init(typename Config::word start, unsigned n)
	{
		for (unsigned c = 0; c < 2; c++)
			init_cpu_bases(cpu[c], c, start);
		timers.resize(n);
		for (unsigned i = 0; i < n; i++)
			init_timer(&timers[i], i,
				   (i % 3 == 0 ? unsigned{TIMER_PINNED} : 0u) | (i % 7 == 0 ? unsigned{TIMER_DEFERRABLE} : 0u));
	}
	unsigned long enqueues() const
	{
		unsigned long n = 0;
		for (auto &c : cpu)
			for (auto &b : c.base)
				n += b.observer.enqueues;
		return n;
	}
	// Where a timer is, as an index that means the same in both copies.
	int base_of(const timer_list<Config> &t) const
	{
		for (unsigned c = 0; c < 2; c++)
			for (unsigned b = 0; b < NR_BASES; b++)
				if (t.base == &cpu[c].base[b])
					return static_cast<int>(c * NR_BASES + b);
		return -1;
	}
	long timer_index(const hlist_node *n) const
	{
		return static_cast<long>(timer_of<Config>(const_cast<hlist_node *>(n)) - timers.data());
	}
};

// Whether both copies are the same wheel.
template <class Config>
bool same_wheel(const machine<Config> &a, const machine<Config> &b)
{
	for (std::size_t i = 0; i < a.timers.size(); i++) {
		const auto &x = a.timers[i], &y = b.timers[i];
		if (timer_pending(&x) != timer_pending(&y) || x.expires != y.expires || a.base_of(x) != b.base_of(y) ||
		    (timer_pending(&x) && x.idx != y.idx))
			return false;
	}
	for (unsigned c = 0; c < 2; c++)
		for (unsigned k = 0; k < NR_BASES; k++) {
			const auto &x = a.cpu[c].base[k], &y = b.cpu[c].base[k];
			if (x.clk != y.clk || x.next_expiry != y.next_expiry ||
			    x.next_expiry_recalc != y.next_expiry_recalc || x.timers_pending != y.timers_pending ||
			    !wheel_check(y))
				return false;
			for (unsigned w = 0; w < timer_base<Config>::MAP_WORDS; w++)
				if (x.pending_map[w] != y.pending_map[w])
					return false;
			for (unsigned i = 0; i < Config::geometry::WHEEL_SIZE; i++) {
				const hlist_node *p = x.vectors[i].first, *q = y.vectors[i].first;
				for (; p && q; p = p->next, q = q->next)
					if (a.timer_index(p) != b.timer_index(q))
						return false;
				if (p || q)
					return false;
			}
		}
	return true;
}

// A re-arm's expiry: mostly near, some far, a few past the cutoff, and
// one in ten unchanged (the same expiry, and so the same bucket, too).
template <class Config>
typename Config::word draw_expires(std::mt19937_64 &rng, typename Config::word now, typename Config::word current)
{
	std::uint64_t span = rng() % 4 == 0 ? rng() % 3000000 : rng() % 3000;
	if (rng() % 500 == 0)
		span = Config::geometry::WHEEL_TIMEOUT_CUTOFF + rng() % 100000;
	return rng() % 10 == 0 ? current : static_cast<typename Config::word>(now + span);
}

// In both copies: timer i deleted, or else time moving on and the due
// timers running.
template <class Config>
void del_or_run(machine<Config> &a, machine<Config> &b, unsigned i, bool del, std::mt19937_64 &rng,
		typename Config::word &now)
{
	if (del) {
		del_timer(&a.timers[i]);
		del_timer(&b.timers[i]);
		return;
	}
	now += static_cast<typename Config::word>(rng() % 16 == 0 ? rng() % 2000 : rng() % 10);
	for (machine<Config> *m : {&a, &b})
		for (auto &cb : m->cpu)
			run_timers(cb, now);
	now++;
}

// One step of random work on both copies: timer i, CPU c, a roll r
// below 100.
template <class Config>
struct random_step {
	machine<Config> &a, &b;
	std::mt19937_64 &rng;
	typename Config::word now;
	unsigned op, i, c, r;

	typename Config::word expires() { return draw_expires<Config>(rng, now, a.timers[i].expires); }
};

// Random work on two copies from `seed`: rolls below `arms` are arm()'s,
// those below `dels` delete the timer, the rest move time on. After every
// step both copies must be the same wheel, with the same enqueues.
template <class Config, class Arm>
void random_work(std::uint64_t seed, typename Config::word start, unsigned ops, unsigned arms, unsigned dels, Arm arm)
{
	static machine<Config> a, b;
	a.init(start, 40);
	b.init(start, 40);
	std::mt19937_64 rng(seed);
	typename Config::word now = start;

	for (unsigned op = 0; op < ops; op++) {
		unsigned i = static_cast<unsigned>(rng() % a.timers.size());
		unsigned c = rng() % 4 == 0 ? 1 : 0;
		unsigned r = rng() % 100;
		if (r < arms)
			arm(random_step<Config>{a, b, rng, now, op, i, c, r});
		else
			del_or_run(a, b, i, r < dels, rng, now);
		CK_REQUIRE(a.enqueues() == b.enqueues() && same_wheel(a, b), "seed %llu op %u: the wheels differ",
			   (unsigned long long)seed, op);
	}
}

template <class Config>
void against_mod_timer(std::uint64_t seed, typename Config::word start, unsigned ops)
{
	unsigned long on_base = 0, moved = 0, shortcuts = 0;

	random_work<Config>(seed, start, ops, 70, 80, [&](random_step<Config> s) {
		const typename Config::word expires = s.expires();
		unsigned long before = s.a.enqueues();
		int was = mod_timer(s.a.cpu[s.c], &s.a.timers[s.i], expires, s.now);
		bool enqueued = s.a.enqueues() != before;
		timer_list<Config> *t = &s.b.timers[s.i];
		if (timer_pending(t) && t->base == &base_for(s.b.cpu[s.c], t->flags)) {
			const bool on_base_enqueued = mod_timer_on_base(*t->base, t, expires, s.now);
			CK_REQUIRE(was == 1 && on_base_enqueued == enqueued, "seed %llu op %u: enqueued %d, mod_timer() %d",
				   (unsigned long long)seed, s.op, on_base_enqueued, enqueued);
			on_base++;
			shortcuts += !enqueued;
		} else {
			CK_REQUIRE(mod_timer(s.b.cpu[s.c], t, expires, s.now) == was, "seed %llu op %u",
				   (unsigned long long)seed, s.op);
			moved += was;
		}
	});
	// Each path was taken often enough to mean something.
	ck_assert_msg(on_base > ops / 4 && shortcuts > ops / 50 && moved > ops / 100,
		      "on base %lu (same bucket %lu), elsewhere %lu", on_base, shortcuts, moved);
}

// __mod_timer() as kernel/time/timer.c writes it, one path for every
// case: the reference for mod_timer()'s inline re-arm and for the
// split __mod_timer().
template <class Config>
int reference_mod_timer(cpu_bases<Config> &local, timer_list<Config> *timer, typename Config::word expires,
			typename Config::word jiffies, unsigned options)
{
	using word = typename Config::word;
	timer_base<Config> *base;
	word clk = 0, bucket_expiry = 0;
	unsigned idx = ~0u;

	if (!(options & MOD_TIMER_NOTPENDING) && timer_pending(timer)) {
		base = timer->base;
		if (timer->expires == expires)
			return 1;
		forward_timer_base(*base, jiffies);
		idx = calc_wheel_index<typename Config::geometry>(expires, base->clk, &bucket_expiry);
		if (idx == timer->idx) {
			timer->expires = expires;
			return 1;
		}
		clk = base->clk;
	} else {
		base = timer->base ? timer->base : &base_for(local, timer->flags);
		forward_timer_base(*base, jiffies);
	}
	const int ret = detach_if_pending(timer, *base, false);
	if (!ret && (options & MOD_TIMER_PENDING_ONLY))
		return 0;
	timer_base<Config> *new_base = &base_for(local, timer->flags);
	if (base != new_base && base->running_timer != timer) {
		base = new_base;
		forward_timer_base(*base, jiffies);
	}
	timer->expires = expires;
	if (idx != ~0u && clk == base->clk)
		enqueue_timer(*base, timer, idx, bucket_expiry);
	else
		internal_add_timer(*base, timer);
	return ret;
}

// mod_timer(), mod_timer_pending() and add_timer() against the reference
// on random work over two CPUs: the same return values, enqueues and
// wheels after every step.
template <class Config>
void against_reference(std::uint64_t seed, typename Config::word start, unsigned ops)
{
	unsigned long rearmed = 0, added = 0, moved = 0;

	random_work<Config>(seed, start, ops, 80, 88, [&](random_step<Config> s) {
		timer_list<Config> *ta = &s.a.timers[s.i], *tb = &s.b.timers[s.i];
		const typename Config::word expires = s.expires();
		int want, got;
		if (s.r < 70) {
			if (tb->base != &base_for(s.b.cpu[s.c], tb->flags))
				moved++;
			else if (timer_pending(tb))
				rearmed++;
			else
				added++;
			want = reference_mod_timer(s.a.cpu[s.c], ta, expires, s.now, 0);
			got = mod_timer(s.b.cpu[s.c], tb, expires, s.now);
		} else if (s.r < 75) {
			want = reference_mod_timer(s.a.cpu[s.c], ta, expires, s.now, MOD_TIMER_PENDING_ONLY);
			got = mod_timer_pending(s.b.cpu[s.c], tb, expires, s.now);
		} else {
			if (timer_pending(tb))
				return;
			ta->expires = tb->expires = expires;
			want = reference_mod_timer(s.a.cpu[s.c], ta, expires, s.now, MOD_TIMER_NOTPENDING);
			add_timer(s.b.cpu[s.c], tb, s.now);
			got = 0;
		}
		CK_REQUIRE(got == want, "seed %llu op %u (roll %u): %d, want %d", (unsigned long long)seed, s.op, s.r,
			   got, want);
	});
	// Each of mod_timer()'s cases was taken often enough to mean something.
	ck_assert_msg(rearmed > ops / 5 && added > ops / 50 && moved > ops / 50,
		      "re-armed in place %lu, added in place %lu, elsewhere %lu", rearmed, added, moved);
}

}  // namespace

START_TEST(mod_timer_is_reference)
{
	each_config(21, [](auto cfg, std::uint64_t seed, auto start) {
		against_reference<typename decltype(cfg)::type>(seed, start, 20000);
	});
}
END_TEST

START_TEST(mod_timer_on_base_is_mod_timer_64)
{
	against_mod_timer<cfg9_64>(11, 4294892296ull, 20000);
	against_mod_timer<cfg8_64>(12, 4294937296ull, 20000);
}
END_TEST

// 32-bit jiffies that wrap during the run.
START_TEST(mod_timer_on_base_is_mod_timer_32)
{
	against_mod_timer<cfg9_32>(
		13, static_cast<std::uint32_t>(-300 * 250), 20000);
	against_mod_timer<cfg8_32>(
		14, static_cast<std::uint32_t>(-300 * 100), 20000);
}
END_TEST


namespace {

bool field(const std::string &line, const char *name, std::uint64_t &out)
{
	std::size_t p = line.find(name);
	if (p == std::string::npos)
		return false;
	p += std::char_traits<char>::length(name);
	bool neg = line[p] == '-';
	p += neg;
	std::uint64_t v = 0;
	bool any = false;
	while (p < line.size() && line[p] >= '0' && line[p] <= '9') {
		v = v * 10 + static_cast<std::uint64_t>(line[p++] - '0');
		any = true;
	}
	out = neg ? static_cast<std::uint64_t>(-static_cast<std::int64_t>(v)) : v;
	return any;
}

}  // namespace

// bucket_expiry= and idx= of every timer_start of a 6.18 (HZ 250) trace
// must follow from the start jiffies (expires - timeout) as the base's clk.
// Exception, checked to be the kernel's own: a deferrable timer on a base
// whose clk lagged (an idle CPU's deferrable base is not forwarded past a
// bucket that is due) lands on a higher level than from jiffies; the
// printed bucket must then be exactly calc_index() of that level.
START_TEST(bucket_expiry_matches_real_trace)
{
	std::string path = timersim::test::shared_trace("linux-6.18-http/trace.txt");
	if (path.empty()) {
		timersim::test::skip_note("../shared/traces/linux-6.18-http/trace.txt not found: "
					  "bucket_expiry agreement not checked");
		return;
	}
	std::ifstream in(path);
	ck_assert(in.good());
	std::string line;
	unsigned long starts = 0, same = 0, lagged = 0;
	while (std::getline(in, line)) {
		if (line.find(" timer_start: ") == std::string::npos)
			continue;
		std::uint64_t expires, timeout, be_trace, idx_trace;
		ck_assert_msg(field(line, "expires=", expires) && field(line, "[timeout=", timeout) &&
				      field(line, "bucket_expiry=", be_trace) && field(line, " idx=", idx_trace),
			      "unparsed: %s", line.c_str());
		starts++;
		std::uint64_t jiffies = expires - timeout, be = 0;
		unsigned idx = calc_wheel_index<geometry_hz_gt_100>(expires, jiffies, &be);
		if (be == be_trace && idx == idx_trace) {
			same++;
			continue;
		}
		bool deferrable = line.find("flags=D") != std::string::npos;
		unsigned lvl = static_cast<unsigned>(idx_trace / 64);
		std::uint64_t be_lvl = 0;
		unsigned idx_lvl = calc_index<geometry_hz_gt_100>(expires, lvl, &be_lvl);
		ck_assert_msg(deferrable && lvl > idx / 64 && idx_lvl == idx_trace && be_lvl == be_trace,
			      "bucket differs: computed idx %u bucket_expiry %llu for: %s", idx,
			      (unsigned long long)be, line.c_str());
		lagged++;
	}
	std::fprintf(stderr, "trace: %lu timer_start lines, %lu match from jiffies, %lu deferrable on a lagging base\n",
		     starts, same, lagged);
	ck_assert_uint_eq(starts, 3529);
	ck_assert(lagged * 100 <= starts);
}
END_TEST

int main()
{
	Suite *s = suite_create("v48_wheel");
	TCase *tc = tcase_create("v48");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, level_boundaries_by_hz);
	tcase_add_test(tc, cutoff_and_expired);
	tcase_add_test(tc, same_bucket_shortcut);
	tcase_add_test(tc, next_expiry_and_invariants_random);
	tcase_add_test(tc, next_pending_bucket_brute_force);
	tcase_add_test(tc, checker_catches_corruption);
	tcase_add_test(tc, mod_timer_on_base_is_mod_timer_64);
	tcase_add_test(tc, mod_timer_on_base_is_mod_timer_32);
	tcase_add_test(tc, mod_timer_is_reference);
	tcase_add_test(tc, bucket_expiry_matches_real_trace);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
