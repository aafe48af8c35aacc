// The non-cascading Linux timer wheel (4.8 and later). Semantics follow
// Linux 6.x kernel/time/timer.c (as of 6.1 .. 6.18): clk jumps straight to
// next_expiry when timers run, forward_timer_base() catches an idle base's
// clk up at enqueue, and bucket_expiry is what 6.8+ traces print.
//
// Each level has 64 buckets and is 8x coarser than the one below. A timer
// goes to the level whose range holds `expires - clk` and to the bucket
// that holds its expiry rounded UP to the level's granularity (never early,
// up to 12.5% late). Timers never move: there is no cascading.
//
// HZ 1000 (LVL_DEPTH 9)
//   Level Offset  Granularity            Range
//    0      0         1 ms                0 ms -         63 ms
//    1     64         8 ms               64 ms -        511 ms
//    2    128        64 ms              512 ms -       4095 ms (512ms - ~4s)
//    3    192       512 ms             4096 ms -      32767 ms (~4s - ~32s)
//    4    256      4096 ms (~4s)      32768 ms -     262143 ms (~32s - ~4m)
//    5    320     32768 ms (~32s)    262144 ms -    2097151 ms (~4m - ~34m)
//    6    384    262144 ms (~4m)    2097152 ms -   16777215 ms (~34m - ~4h)
//    7    448   2097152 ms (~34m)  16777216 ms -  134217727 ms (~4h - ~1d)
//    8    512  16777216 ms (~4h)  134217728 ms - 1073741822 ms (~1d - ~12d)
//
// HZ 250 (LVL_DEPTH 9)
//   Level Offset  Granularity            Range
//    0      0         4 ms                0 ms -        255 ms
//    1     64        32 ms              256 ms -       2047 ms (256ms - ~2s)
//    2    128       256 ms             2048 ms -      16383 ms (~2s - ~16s)
//    3    192      2048 ms (~2s)      16384 ms -     131071 ms (~16s - ~2m)
//    4    256     16384 ms (~16s)    131072 ms -    1048575 ms (~2m - ~17m)
//    5    320    131072 ms (~2m)    1048576 ms -    8388607 ms (~17m - ~2h)
//    6    384   1048576 ms (~17m)   8388608 ms -   67108863 ms (~2h - ~18h)
//    7    448   8388608 ms (~2h)   67108864 ms -  536870911 ms (~18h - ~6d)
//    8    512  67108864 ms (~18h) 536870912 ms - 4294967288 ms (~6d - ~49d)
//
// HZ 100 (LVL_DEPTH 8)
//   Level Offset  Granularity            Range
//    0      0         10 ms               0 ms -        630 ms
//    1     64         80 ms             640 ms -       5110 ms (640ms - ~5s)
//    2    128        640 ms            5120 ms -      40950 ms (~5s - ~40s)
//    3    192       5120 ms (~5s)     40960 ms -     327670 ms (~40s - ~5m)
//    4    256      40960 ms (~40s)   327680 ms -    2621430 ms (~5m - ~43m)
//    5    320     327680 ms (~5m)   2621440 ms -   20971510 ms (~43m - ~5h)
//    6    384    2621440 ms (~43m) 20971520 ms -  167772150 ms (~5h - ~1d)
//    7    448   20971520 ms (~5h) 167772160 ms - 1342177270 ms (~1d - ~15d)
//
// In jiffies: level n has granularity 8^n and starts at LVL_START(n) =
// 63 << 3(n-1) (63, 504, 4032, ...). Beyond LVL_START(LVL_DEPTH) a timer is
// force-expired at clk + WHEEL_TIMEOUT_MAX.
//
// A CPU has three bases, as since 6.9: BASE_LOCAL for pinned timers,
// BASE_GLOBAL for the others, which the timer migration hierarchy lets any
// active CPU expire while this one is idle, and BASE_DEF for deferrable
// timers, which do not wake an idle CPU. (4.8 .. 6.8 had BASE_STD and
// BASE_DEF: pin every non-deferrable timer to get that layout.)
//
// Freestanding, like kernel/classic_wheel.h: no allocation, no exceptions,
// nothing hosted. A Config bundles the depth, the width of `unsigned long`
// and an Observer that sees every enqueue, bucket visit and expiry
// (v48_null_observer compiles to nothing).
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernel/jiffies.h"

namespace kernel::v48 {

// ---- geometry ------------------------------------------------------------------

template <unsigned Depth>
struct wheel_geometry {
	static constexpr unsigned LVL_CLK_SHIFT = 3;
	static constexpr unsigned LVL_CLK_DIV = 1u << LVL_CLK_SHIFT;
	static constexpr unsigned LVL_CLK_MASK = LVL_CLK_DIV - 1;
	static constexpr unsigned LVL_BITS = 6;
	static constexpr unsigned LVL_SIZE = 1u << LVL_BITS;
	static constexpr unsigned LVL_MASK = LVL_SIZE - 1;
	static constexpr unsigned LVL_DEPTH = Depth;
	static constexpr unsigned WHEEL_SIZE = LVL_SIZE * LVL_DEPTH;

	static constexpr unsigned LVL_SHIFT(unsigned n) { return n * LVL_CLK_SHIFT; }
	static constexpr std::uint64_t LVL_GRAN(unsigned n) { return std::uint64_t{1} << LVL_SHIFT(n); }
	static constexpr unsigned LVL_OFFS(unsigned n) { return n * LVL_SIZE; }
	// Starting from the last delta of the previous level leaves room for
	// calc_index()'s extra granule.
	static constexpr std::uint64_t LVL_START(unsigned n)
	{
		return std::uint64_t{LVL_SIZE - 1} << ((n - 1) * LVL_CLK_SHIFT);
	}
	static constexpr std::uint64_t WHEEL_TIMEOUT_CUTOFF = LVL_START(LVL_DEPTH);
	static constexpr std::uint64_t WHEEL_TIMEOUT_MAX = WHEEL_TIMEOUT_CUTOFF - LVL_GRAN(LVL_DEPTH - 1);
	static_assert(Depth == 8 || Depth == 9, "LVL_DEPTH is 9 for HZ > 100, else 8");
	static_assert(LVL_START(Depth) < (std::uint64_t{1} << 31), "the cutoff must fit a 32-bit long");
};

using geometry_hz_gt_100 = wheel_geometry<9>;	// HZ 250, 300, 1000
using geometry_hz_le_100 = wheel_geometry<8>;	// HZ 100

constexpr unsigned lvl_depth_for_hz(unsigned hz) { return hz > 100 ? 9 : 8; }

// NOHZ: how far next_expiry looks when the base is empty.
constexpr unsigned long NEXT_TIMER_MAX_DELTA = (1ul << 30) - 1;

enum : unsigned {
	TIMER_DEFERRABLE = 1u << 0,	// BASE_DEF: does not wake an idle CPU
	TIMER_PINNED = 1u << 1,
	TIMER_IRQSAFE = 1u << 2,
};

enum : unsigned { BASE_LOCAL = 0, BASE_GLOBAL = 1, BASE_DEF = 2, NR_BASES = 3 };

// ---- hlist: the kernel's singly headed bucket lists -----------------------------

struct hlist_node {
	hlist_node *next;
	hlist_node **pprev;	// nullptr: not linked
};

struct hlist_head {
	hlist_node *first;
};

inline bool hlist_empty(const hlist_head *h) { return h->first == nullptr; }

inline void hlist_add_head(hlist_node *n, hlist_head *h)
{
	hlist_node *first = h->first;

	n->next = first;
	if (first)
		first->pprev = &n->next;
	h->first = n;
	n->pprev = &h->first;
}

inline void __hlist_del(hlist_node *n)
{
	*n->pprev = n->next;
	if (n->next)
		n->next->pprev = n->pprev;
}

inline bool hlist_is_singular_node(const hlist_node *n, const hlist_head *h)
{
	return !n->next && n->pprev == &h->first;
}

// Move every node of `old` onto `fresh` and leave `old` empty.
inline void hlist_move_list(hlist_head *old, hlist_head *fresh)
{
	fresh->first = old->first;
	if (fresh->first)
		fresh->first->pprev = &fresh->first;
	old->first = nullptr;
}

// ---- types -----------------------------------------------------------------------

template <class Timer>
struct null_observer {
	// start/re-arm linked t into a bucket of `level` (0-based) that runs
	// at `bucket_expiry`, and compared that with next_expiry: one
	// comparison, which compared() leaves to this (an observer that
	// counts both pays one increment per enqueue, not two).
	template <class Word> void enqueued(const Timer &, unsigned /*level*/, Word /*bucket_expiry*/) {}
	// Buckets tested or bitmap words searched.
	void visited(unsigned /*buckets*/) {}
	// Expiry comparisons against next_expiry, except an enqueue's own
	// (enqueued() stands for that one).
	void compared(unsigned /*count*/) {}
	// __run_timers() collects at `clk` for jiffies `jiffy`.
	template <class Word> void collecting(Word /*clk*/, Word /*jiffy*/) {}
	template <class Word> void expiring(const Timer &, Word /*jiffy*/) {}
};

template <class Config> struct timer_base;

template <class Config>
struct timer_list {
	using word = typename Config::word;

	hlist_node entry;	// entry.pprev == nullptr: not pending
	word expires;
	unsigned flags;		// TIMER_DEFERRABLE, TIMER_PINNED, TIMER_IRQSAFE
	unsigned idx;		// wheel index (the kernel keeps it in flags)
	timer_base<Config> *base;	// the base it was last queued on
	unsigned long data;
};

template <class Geometry, class Word, template <class> class Observer = null_observer>
struct wheel_config {
	using geometry = Geometry;
	using word = Word;
	using observer = Observer<timer_list<wheel_config>>;
};

template <class Config>
struct timer_base {
	using G = typename Config::geometry;
	using word = typename Config::word;
	static constexpr unsigned MAP_WORDS = G::WHEEL_SIZE / 64;

	const timer_list<Config> *running_timer;
	word clk;		// next jiffy to collect; 1 ahead of jiffies while expiring
	word next_expiry;	// earliest bucket_expiry; stale (early) while next_expiry_recalc
	unsigned cpu;
	unsigned index;		// BASE_LOCAL, BASE_GLOBAL or BASE_DEF
	bool next_expiry_recalc;
	bool is_idle;
	bool timers_pending;
	std::uint64_t pending_map[MAP_WORDS];
	hlist_head vectors[G::WHEEL_SIZE];
	[[no_unique_address]] typename Config::observer observer;
};

// The bases of one CPU.
template <class Config>
struct cpu_bases {
	timer_base<Config> base[NR_BASES];
};

template <class Config>
inline timer_list<Config> *timer_of(hlist_node *n)
{
	return reinterpret_cast<timer_list<Config> *>(reinterpret_cast<char *>(n) -
						      offsetof(timer_list<Config>, entry));
}

template <class Config>
inline bool timer_pending(const timer_list<Config> *timer)
{
	return timer->entry.pprev != nullptr;
}

// ---- bitmap ------------------------------------------------------------------------

inline void set_bit(unsigned nr, std::uint64_t *map) { map[nr / 64] |= std::uint64_t{1} << (nr % 64); }
inline void clear_bit(unsigned nr, std::uint64_t *map) { map[nr / 64] &= ~(std::uint64_t{1} << (nr % 64)); }
inline bool test_bit(unsigned nr, const std::uint64_t *map) { return (map[nr / 64] >> (nr % 64)) & 1; }

inline bool test_and_clear_bit(unsigned nr, std::uint64_t *map)
{
	bool was = test_bit(nr, map);
	clear_bit(nr, map);
	return was;
}

// find_next_bit(): first set bit in [start, end), or end. Levels are 64
// buckets, so a level is exactly one word of the map.
inline unsigned find_next_bit(const std::uint64_t *map, unsigned end, unsigned start)
{
	while (start < end) {
		std::uint64_t w = map[start / 64] >> (start % 64);
		if (w) {
			unsigned pos = start + static_cast<unsigned>(__builtin_ctzll(w));
			return pos < end ? pos : end;
		}
		start = (start / 64 + 1) * 64;
	}
	return end;
}

// ---- set-up --------------------------------------------------------------------------

// init_timer_cpu(): an empty base whose clk is `start`.
template <class Config>
void init_timer_base(timer_base<Config> &base, unsigned cpu, unsigned index, typename Config::word start)
{
	using G = typename Config::geometry;
	for (unsigned i = 0; i < G::WHEEL_SIZE; i++)
		base.vectors[i].first = nullptr;
	for (unsigned i = 0; i < timer_base<Config>::MAP_WORDS; i++)
		base.pending_map[i] = 0;
	base.running_timer = nullptr;
	base.clk = start;
	base.next_expiry = start + static_cast<typename Config::word>(NEXT_TIMER_MAX_DELTA);
	base.cpu = cpu;
	base.index = index;
	base.next_expiry_recalc = false;
	base.is_idle = false;
	base.timers_pending = false;
}

template <class Config>
void init_cpu_bases(cpu_bases<Config> &cb, unsigned cpu, typename Config::word start)
{
	for (unsigned i = 0; i < NR_BASES; i++)
		init_timer_base(cb.base[i], cpu, i, start);
}

template <class Config>
void init_timer(timer_list<Config> *timer, unsigned long data, unsigned flags = 0)
{
	timer->entry.next = nullptr;
	timer->entry.pprev = nullptr;
	timer->expires = 0;
	timer->flags = flags;
	timer->idx = 0;
	timer->base = nullptr;
	timer->data = data;
}

// ---- placement ---------------------------------------------------------------------

// calc_index(): round the expiry up to the level's granularity (a timer
// armed at the edge of a tick, or truncated by a coarse level, must not
// fire early) and return the wheel index; the rounded value is the
// bucket's expiry.
template <class G, class Word>
[[gnu::always_inline]] inline unsigned calc_index(Word expires, unsigned lvl, Word *bucket_expiry)
{
	expires = (expires >> G::LVL_SHIFT(lvl)) + 1;
	*bucket_expiry = static_cast<Word>(expires << G::LVL_SHIFT(lvl));
	return G::LVL_OFFS(lvl) + static_cast<unsigned>(expires & G::LVL_MASK);
}

// The level of a distance below WHEEL_TIMEOUT_CUTOFF, as the kernel's
// loop over LVL_START() finds it, by one bit-scan: LVL_START(n) = 63 << 3(n-1)
// lies just below a power of two, so the top bit of the distance names
// the level up to one compare with the next level's start, which the
// table holds too (no level above: a start no distance reaches).
template <class G>
struct level_by_top_bit {
	std::uint64_t next_start[64];
	unsigned char level[64];
	constexpr level_by_top_bit() : next_start(), level()
	{
		for (unsigned top = 0; top < 64; top++) {
			// The level of 2^top: the last n with LVL_START(n) <= 2^top.
			unsigned l = 0;
			while (l + 1 < G::LVL_DEPTH && top < 63 && G::LVL_START(l + 1) <= (std::uint64_t{1} << top))
				l++;
			level[top] = static_cast<unsigned char>(l);
			next_start[top] = l + 1 < G::LVL_DEPTH ? G::LVL_START(l + 1) : ~std::uint64_t{0};
		}
	}
};

template <class G>
inline constexpr level_by_top_bit<G> levels_by_top_bit{};

// calc_wheel_index(): the level is chosen by the distance from clk.
// Forced inline (with calc_index()): the scheme layer's start() called it
// out of line. (Forcing every detach and enqueue inline as well made short
// timers slower; only mod_timer_on_base() has them inline.)
template <class G, class Word>
[[gnu::always_inline]] inline unsigned calc_wheel_index(Word expires, Word clk, Word *bucket_expiry)
{
	Word delta = expires - clk;

	// Already expired (negative), or an obscene timeout: one test.
	if (delta >= G::WHEEL_TIMEOUT_CUTOFF) [[unlikely]] {
		if (static_cast<signed_word<Word>>(delta) < 0) {
			// Already expired: the bucket collected next.
			*bucket_expiry = clk;
			return static_cast<unsigned>(clk & G::LVL_MASK);
		}
		// Force expire obscene timeouts at the capacity of the wheel.
		expires = clk + static_cast<Word>(G::WHEEL_TIMEOUT_MAX);
		return calc_index<G>(expires, G::LVL_DEPTH - 1, bucket_expiry);
	}
	const unsigned top = sizeof(Word) * 8 - 1 -
			     (sizeof(Word) == 8 ? __builtin_clzll(delta | 1) : __builtin_clz(static_cast<unsigned>(delta | 1)));
	const unsigned lvl = levels_by_top_bit<G>.level[top] + (delta >= levels_by_top_bit<G>.next_start[top]);
	return calc_index<G>(expires, lvl, bucket_expiry);
}

// enqueue_timer(): link, mark the bucket pending, and lower next_expiry
// (by the bucket's expiry, not the timer's). This is the inline body, for
// the re-arm of mod_timer_on_base(); enqueue_timer() is the call.
template <class Config>
[[gnu::always_inline]] inline void __enqueue_timer(timer_base<Config> &base, timer_list<Config> *timer, unsigned idx,
						   typename Config::word bucket_expiry)
{
	using G = typename Config::geometry;

	hlist_add_head(&timer->entry, base.vectors + idx);
	set_bit(idx, base.pending_map);
	timer->idx = idx;
	timer->base = &base;
	base.observer.enqueued(*timer, idx / G::LVL_SIZE, bucket_expiry);

	// One comparison, counted by enqueued().
	if (time_before(bucket_expiry, base.next_expiry)) {
		base.next_expiry = bucket_expiry;
		base.timers_pending = true;
		base.next_expiry_recalc = false;
	}
}

template <class Config>
void enqueue_timer(timer_base<Config> &base, timer_list<Config> *timer, unsigned idx,
		   typename Config::word bucket_expiry)
{
	__enqueue_timer(base, timer, idx, bucket_expiry);
}

// internal_add_timer(): place by `expires` against clk and enqueue. The
// inline body, for add_timer_on_base() (the scheme layer's start of a
// timer that is not pending: no call); internal_add_timer() is the call.
template <class Config>
[[gnu::always_inline]] inline void __internal_add_timer(timer_base<Config> &base, timer_list<Config> *timer)
{
	typename Config::word bucket_expiry;
	unsigned idx = calc_wheel_index<typename Config::geometry>(timer->expires, base.clk, &bucket_expiry);
	__enqueue_timer(base, timer, idx, bucket_expiry);
}

template <class Config>
void internal_add_timer(timer_base<Config> &base, timer_list<Config> *timer)
{
	__internal_add_timer(base, timer);
}

template <class Config>
inline void detach_timer(timer_list<Config> *timer, bool clear_pending)
{
	__hlist_del(&timer->entry);
	if (clear_pending)
		timer->entry.pprev = nullptr;
	timer->entry.next = nullptr;
}

// Emptying a bucket clears its bit and marks next_expiry for recalculation.
template <class Config>
[[gnu::always_inline]] inline int detach_if_pending(timer_list<Config> *timer, timer_base<Config> &base, bool clear_pending)
{
	if (!timer_pending(timer))
		return 0;
	if (hlist_is_singular_node(&timer->entry, base.vectors + timer->idx)) {
		clear_bit(timer->idx, base.pending_map);
		base.next_expiry_recalc = true;
	}
	detach_timer(timer, clear_pending);
	return 1;
}

// forward_timer_base(): an idle base's clk lags jiffies; catch it up before
// placing a timer, but never past a bucket that is already due.
template <class Config>
void forward_timer_base(timer_base<Config> &base, typename Config::word jiffies)
{
	if (time_before_eq(jiffies, base.clk))
		return;
	if (time_after(base.next_expiry, jiffies))
		base.clk = jiffies;
	else if (!time_before(base.next_expiry, base.clk))
		base.clk = base.next_expiry;
}

// ---- the API ---------------------------------------------------------------------------

enum : unsigned {
	MOD_TIMER_PENDING_ONLY = 0x01,
	MOD_TIMER_NOTPENDING = 0x04,	// skip the same-bucket shortcut (add_timer)
};

template <class Config>
inline timer_base<Config> &base_for(cpu_bases<Config> &cb, unsigned flags)
{
	if (flags & TIMER_DEFERRABLE)
		return cb.base[BASE_DEF];
	return cb.base[(flags & TIMER_PINNED) ? BASE_LOCAL : BASE_GLOBAL];
}

// __mod_timer()'s shortcut for a timer pending on `base`: an unchanged
// expiry, or one that maps to the same bucket against the forwarded clk,
// only updates `expires` (no enqueue, no trace event). Returns true when
// that is all; else *idx and *bucket_expiry say where the timer goes.
template <class Config>
[[gnu::always_inline]] inline bool mod_timer_same_bucket(timer_base<Config> &base, timer_list<Config> *timer,
							 typename Config::word expires, typename Config::word jiffies,
							 unsigned *idx, typename Config::word *bucket_expiry)
{
	if (timer->expires == expires)
		return true;
	forward_timer_base(base, jiffies);
	*idx = calc_wheel_index<typename Config::geometry>(expires, base.clk, bucket_expiry);
	if (*idx == timer->idx) {
		timer->expires = expires;
		return true;
	}
	return false;
}

// Where __mod_timer() enqueues a detached timer: `local`'s base of its
// kind, forwarded, unless the timer is running on its old base.
template <class Config>
[[gnu::always_inline]] inline timer_base<Config> *mod_timer_target(cpu_bases<Config> &local, timer_base<Config> *base,
								   timer_list<Config> *timer,
								   typename Config::word jiffies)
{
	timer_base<Config> *new_base = &base_for(local, timer->flags);
	if (base != new_base && base->running_timer != timer) {
		forward_timer_base(*new_base, jiffies);
		return new_base;
	}
	return base;
}

// __mod_timer(): on a pending timer, an unchanged expiry or one that maps
// to the same bucket of its current base only updates `expires` (no
// enqueue, no trace event). Otherwise detach, move to `local`'s base of
// the right kind unless the timer is running on its old base, and enqueue.
// `jiffies` is the current time. Returns 1 if the timer was pending.
// Out of line: mod_timer() does the common re-arm itself, and this one's
// registers would cost it a frame. The two cases each end on their own,
// so that a timer that is not pending tests nothing of the other's.
template <class Config>
[[gnu::noinline]] int __mod_timer(cpu_bases<Config> &local, timer_list<Config> *timer, typename Config::word expires,
				  typename Config::word jiffies, unsigned options)
{
	using word = typename Config::word;
	timer_base<Config> *base;

	if (!(options & MOD_TIMER_NOTPENDING) && timer_pending(timer)) {
		word bucket_expiry;
		unsigned idx;

		base = timer->base;
		if (mod_timer_same_bucket(*base, timer, expires, jiffies, &idx, &bucket_expiry))
			return 1;
		const word clk = base->clk;
		detach_if_pending(timer, *base, false);
		base = mod_timer_target(local, base, timer, jiffies);
		timer->expires = expires;
		// Placed against this clk: still right unless it moved.
		if (clk == base->clk)
			enqueue_timer(*base, timer, idx, bucket_expiry);
		else
			internal_add_timer(*base, timer);
		return 1;
	}

	base = timer->base ? timer->base : &base_for(local, timer->flags);
	forward_timer_base(*base, jiffies);
	const int ret = detach_if_pending(timer, *base, false);
	if (!ret && (options & MOD_TIMER_PENDING_ONLY))
		return 0;
	base = mod_timer_target(local, base, timer, jiffies);
	timer->expires = expires;
	internal_add_timer(*base, timer);
	return ret;
}

// __mod_timer() of a timer pending on `base` that stays there: base_for()
// of its flags on the calling CPU is `base`, so there is nothing to
// migrate and clk cannot change between the bucket's choice and the
// enqueue. The same steps: the same-bucket shortcut, else detach and
// enqueue, inline. Returns whether it enqueued.
template <class Config>
[[gnu::always_inline]] inline bool mod_timer_on_base(timer_base<Config> &base, timer_list<Config> *timer,
						     typename Config::word expires, typename Config::word jiffies)
{
	typename Config::word bucket_expiry;
	unsigned idx;

	if (mod_timer_same_bucket(base, timer, expires, jiffies, &idx, &bucket_expiry))
		return false;
	// expires before the detach, which does not read it: one value
	// fewer held across it (no callee-saved register for it).
	timer->expires = expires;
	detach_if_pending(timer, base, false);
	__enqueue_timer(base, timer, idx, bucket_expiry);
	return true;
}

template <class Config>
int mod_timer_pending(cpu_bases<Config> &local, timer_list<Config> *timer,
		      typename Config::word expires, typename Config::word jiffies)
{
	return __mod_timer(local, timer, expires, jiffies, MOD_TIMER_PENDING_ONLY);
}

// add_timer(): arm a timer that is not pending (BUG otherwise).
template <class Config>
void add_timer(cpu_bases<Config> &local, timer_list<Config> *timer, typename Config::word jiffies)
{
	if (timer_pending(timer))
		__builtin_trap();
	__mod_timer(local, timer, timer->expires, jiffies, MOD_TIMER_NOTPENDING);
}

// add_timer_on() once the base is chosen (base_for() of the timer's flags
// on the target CPU), for a timer known not to be pending.
template <class Config>
[[gnu::always_inline]] inline void add_timer_on_base(timer_base<Config> &base, timer_list<Config> *timer,
						     typename Config::word jiffies)
{
	forward_timer_base(base, jiffies);
	timer->base = &base;
	__internal_add_timer(base, timer);
}

// mod_timer(): most calls re-arm a timer pending on the base that
// base_for() of its flags names again: nothing can migrate and clk moves
// only by the forward, so __mod_timer() comes down to
// mod_timer_on_base(), inline. Anything else (a timer that is not
// pending, or one that may migrate) takes __mod_timer().
template <class Config>
int mod_timer(cpu_bases<Config> &local, timer_list<Config> *timer, typename Config::word expires,
	      typename Config::word jiffies)
{
	if (timer_pending(timer) && timer->base == &base_for(local, timer->flags)) [[likely]] {
		mod_timer_on_base(*timer->base, timer, expires, jiffies);
		return 1;
	}
	return __mod_timer(local, timer, expires, jiffies, 0);
}

// add_timer_on(): arm a non-pending timer on a given CPU's base.
template <class Config>
void add_timer_on(cpu_bases<Config> &target, timer_list<Config> *timer, typename Config::word jiffies)
{
	if (timer_pending(timer))
		__builtin_trap();
	add_timer_on_base(base_for(target, timer->flags), timer, jiffies);
}

// del_timer() / timer_delete(): 1 if the timer was pending (now detached).
template <class Config>
int del_timer(timer_list<Config> *timer)
{
	if (!timer_pending(timer))
		return 0;
	return detach_if_pending(timer, *timer->base, true);
}

// ---- next expiry -----------------------------------------------------------------------

// next_pending_bucket(): distance from `clk` (a bucket of the level at
// `offset`) to the next pending bucket of that level, wrapping; -1 if none.
template <class Config>
int next_pending_bucket(const timer_base<Config> &base, unsigned offset, unsigned clk)
{
	using G = typename Config::geometry;
	unsigned pos, start = offset + clk;
	unsigned end = offset + G::LVL_SIZE;

	pos = find_next_bit(base.pending_map, end, start);
	if (pos < end)
		return static_cast<int>(pos - start);
	pos = find_next_bit(base.pending_map, start, offset);
	return pos < start ? static_cast<int>(pos + G::LVL_SIZE - start) : -1;
}

// timer_recalc_next_expiry() (__next_timer_interrupt() before 6.13): the
// earliest bucket expiry, level by level. A level is only looked at from
// the bucket the clock reaches next at that level's granularity, and the
// search stops once a found bucket comes before the next level could.
template <class Config>
void timer_recalc_next_expiry(timer_base<Config> &base)
{
	using G = typename Config::geometry;
	using word = typename Config::word;
	word clk = base.clk;
	word next = base.clk + static_cast<word>(NEXT_TIMER_MAX_DELTA);
	unsigned offset = 0, searched = 0, compared = 0;

	for (unsigned lvl = 0; lvl < G::LVL_DEPTH; lvl++, offset += G::LVL_SIZE) {
		int pos = next_pending_bucket(base, offset, static_cast<unsigned>(clk & G::LVL_MASK));
		unsigned lvl_clk = static_cast<unsigned>(clk & G::LVL_CLK_MASK);

		searched++;
		if (pos >= 0) {
			word tmp = static_cast<word>((clk + static_cast<word>(pos)) << G::LVL_SHIFT(lvl));

			compared++;
			if (time_before(tmp, next))
				next = tmp;
			// Found before the next level's clock ticks over: done.
			if (static_cast<unsigned>(pos) <= ((G::LVL_CLK_DIV - lvl_clk) & G::LVL_CLK_MASK))
				break;
		}
		// The next level's next bucket is one further on unless this
		// level's clock sits on a boundary.
		clk >>= G::LVL_CLK_SHIFT;
		clk += lvl_clk ? 1 : 0;
	}
	base.observer.visited(searched);
	base.observer.compared(compared);
	base.next_expiry = next;
	base.next_expiry_recalc = false;
	base.timers_pending = next != base.clk + static_cast<word>(NEXT_TIMER_MAX_DELTA);
}

// get_next_timer_interrupt() of one base: when it must run next.
template <class Config>
typename Config::word next_timer_interrupt(timer_base<Config> &base)
{
	if (base.next_expiry_recalc)
		timer_recalc_next_expiry(base);
	return base.next_expiry;
}

// ---- running ---------------------------------------------------------------------------

// collect_expired_timers(): jump clk to next_expiry and take the due bucket
// of each level whose granularity clk is a multiple of. Returns the number
// of bucket lists moved to `heads`.
template <class Config>
unsigned collect_expired_timers(timer_base<Config> &base, hlist_head *heads)
{
	using G = typename Config::geometry;
	using word = typename Config::word;
	word clk = base.clk = base.next_expiry;
	unsigned levels = 0, tested = 0;

	for (unsigned i = 0; i < G::LVL_DEPTH; i++) {
		unsigned idx = static_cast<unsigned>(clk & G::LVL_MASK) + i * G::LVL_SIZE;

		tested++;
		if (test_and_clear_bit(idx, base.pending_map))
			hlist_move_list(base.vectors + idx, heads + levels++);
		if (clk & G::LVL_CLK_MASK)
			break;
		clk >>= G::LVL_CLK_SHIFT;
	}
	base.observer.visited(tested);
	return levels;
}

// expire_timers(): detach and "run" each timer of one collected bucket,
// head first (hlist buckets are LIFO). The kernel clears running_timer
// after each callback; nothing runs between one timer and the next, so
// clearing it once the bucket is done is the same to every observer.
template <class Config>
void expire_timers(timer_base<Config> &base, hlist_head *head, typename Config::word jiffies)
{
	while (!hlist_empty(head)) {
		timer_list<Config> *timer = timer_of<Config>(head->first);

		base.running_timer = timer;
		detach_timer(timer, true);
		base.observer.expiring(*timer, jiffies);
	}
	base.running_timer = nullptr;
}

// __run_timers(): expire every bucket due by `jiffies`. While expiring,
// clk is one ahead so that a timer re-armed for now goes to the next jiffy.
template <class Config>
void __run_timers(timer_base<Config> &base, typename Config::word jiffies)
{
	using G = typename Config::geometry;
	hlist_head heads[G::LVL_DEPTH];

	while (time_after_eq(jiffies, base.clk) && time_after_eq(jiffies, base.next_expiry)) {
		base.observer.collecting(base.next_expiry, jiffies);
		unsigned levels = collect_expired_timers(base, heads);
		base.clk++;
		timer_recalc_next_expiry(base);
		while (levels--)
			expire_timers(base, heads + levels, jiffies);
	}
}

// __run_timer_base(): the softirq only touches a base that is due.
template <class Config>
bool run_timer_base(timer_base<Config> &base, typename Config::word jiffies)
{
	if (time_before(jiffies, base.next_expiry))
		return false;
	__run_timers(base, jiffies);
	return true;
}

// run_timer_softirq() at `jiffies`: the local base, the global one, then
// the deferrable one. An idle CPU's tick only comes for its local base (its
// global timers are another CPU's business); when it does, deferrable
// timers that are due run with it.
template <class Config>
void run_timers(cpu_bases<Config> &cb, typename Config::word jiffies)
{
	run_timer_base(cb.base[BASE_LOCAL], jiffies);
	run_timer_base(cb.base[BASE_GLOBAL], jiffies);
	run_timer_base(cb.base[BASE_DEF], jiffies);
}

}  // namespace kernel::v48
