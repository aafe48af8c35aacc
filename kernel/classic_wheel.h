// The classic Linux timer wheel (2.6 .. 4.7): five levels, tv1..tv5, that
// cascade. Semantics follow Linux 3.10 kernel/timer.c.
//
// A per-CPU base keeps timer_jiffies, the next jiffy it will process, and
// places each timer by how far ahead of timer_jiffies it expires:
//
//   level  slots        expires - timer_jiffies   slot index          width
//   tv1    256 (64)     [0, 2^8)      ([0, 2^6))    expires & 255        1
//   tv2     64 (16)     [2^8, 2^14)   (.. 2^10)     (expires >> 8) & 63  2^8
//   tv3     64 (16)     [2^14, 2^20)  (.. 2^14)     (expires >> 14) & 63 2^14
//   tv4     64 (16)     [2^20, 2^26)  (.. 2^18)     (expires >> 20) & 63 2^20
//   tv5     64 (16)     [2^26, MAX_TVAL]            (expires >> 26) & 63 2^26
//   (CONFIG_BASE_SMALL geometry in parentheses: TVR_BITS 6, TVN_BITS 4)
//
// Expiries already in the past go to the tv1 slot processed next; beyond
// MAX_TVAL the slot is computed from timer_jiffies + MAX_TVAL but expires is
// kept, so the timer re-clamps at each cascade until it comes in range.
// Every 256 jiffies (when tv1's index wraps to 0) one tv2 slot is cascaded:
// its timers are re-placed, now landing in tv1; when tv2's index is 0 too,
// a tv3 slot is cascaded, and so on up to tv5.
//
// Re-arming a pending timer into the slot it already sits in (the common
// case: a timeout pushed back by a little) unlinks and relinks it at the
// slot's tail in the kernel (head, LIFO). Here it stays where it is and
// takes a new enqueue number instead; a slot that saw such a re-arm is put
// in enqueue-number order when it is cascaded or run, and the NOHZ scan
// reads it in that order. What runs, moves and in which order is exactly
// the kernel's; a re-arm touches one timer instead of three (its list
// neighbours), which is what a re-arm costs on a large wheel.
//
// Everything here is freestanding: no allocation, no exceptions, no RTTI,
// nothing from a hosted library. A Config bundles the geometry, the width of
// `unsigned long`, the slot order and an Observer that sees every enqueue,
// cascade and expiry (null_observer compiles to nothing).
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernel/jiffies.h"
#include "kernel/list.h"

namespace kernel {

template <unsigned TvrBits, unsigned TvnBits>
struct wheel_geometry {
	static constexpr unsigned TVR_BITS = TvrBits;
	static constexpr unsigned TVN_BITS = TvnBits;
	static constexpr unsigned TVR_SIZE = 1u << TVR_BITS;
	static constexpr unsigned TVN_SIZE = 1u << TVN_BITS;
	static constexpr unsigned TVR_MASK = TVR_SIZE - 1;
	static constexpr unsigned TVN_MASK = TVN_SIZE - 1;
	static constexpr unsigned LEVELS = 5;
	static constexpr unsigned SLOTS = TVR_SIZE + 4 * TVN_SIZE;
	static constexpr std::uint64_t MAX_TVAL = (std::uint64_t{1} << (TVR_BITS + 4 * TVN_BITS)) - 1;
	static_assert(TVR_BITS + 4 * TVN_BITS <= 32, "MAX_TVAL must fit a 32-bit unsigned long");
};

using geometry_normal = wheel_geometry<8, 6>;	// CONFIG_BASE_SMALL=0
using geometry_small = wheel_geometry<6, 4>;	// CONFIG_BASE_SMALL=1

// Order of timers within one slot: FIFO up to Linux 4.1, LIFO from 4.2
// ("timer: Remove FIFO guarantee", then hlist buckets).
enum class slot_order { fifo, lifo };

// Timer flags of this wheel (3.x kept them in the low bits of timer->base).
enum : unsigned {
	TIMER_DEFERRABLE = 1u << 0,	// does not wake an idle CPU
	TIMER_IRQSAFE = 1u << 1,
};

// NOHZ: how far next_timer_interrupt() looks when nothing is pending.
constexpr unsigned long NEXT_TIMER_MAX_DELTA = (1ul << 30) - 1;

template <class Timer>
struct null_observer {
	void enqueued(const Timer &, unsigned /*level*/) {}
	void moved(const Timer &, unsigned /*from_level*/, unsigned /*to_level*/) {}
	void cascaded(unsigned /*level*/, unsigned /*moved*/) {}
	template <class Word> void tick(Word /*jiffy*/) {}
	template <class Word> void expiring(const Timer &, Word /*jiffy*/) {}
};

// Whether the wheel calls an expiring timer's function: yes, unless the
// observer says `static constexpr bool calls_functions = false` (the
// simulator's timers have no work to do, and an indirect call per expiry
// would be most of what the scheme layer adds to a short timer).
template <class Observer>
constexpr bool calls_functions()
{
	if constexpr (requires { Observer::calls_functions; })
		return Observer::calls_functions;
	else
		return true;
}

template <class Config> struct tvec_base;

// No slot: never linked in one.
constexpr std::uint16_t NO_SLOT = 0xffff;

// One cache line: a re-arm touches no other line of this timer.
template <class Config>
struct alignas(64) timer_list {
	using word = typename Config::word;

	list_head entry;	// entry.next == nullptr: not pending
	word expires;
	tvec_base<Config> *base;	// the base it was last queued on
	void (*function)(unsigned long);
	unsigned long data;
	int slack;		// -1: default 0.4% slack (3.x)
	std::uint16_t flags;	// TIMER_DEFERRABLE, TIMER_IRQSAFE
	std::uint16_t slot;	// flat index of the slot it was last linked in, or NO_SLOT
	std::uint64_t seq;	// base's enqueue number when last enqueued: its place in the slot
};

// Geometry, width of jiffies, slot order and observer, bundled.
// Observer is a class template over the timer type.
template <class Geometry, class Word, slot_order Order = slot_order::fifo,
	  template <class> class Observer = null_observer>
struct wheel_config {
	using geometry = Geometry;
	using word = Word;
	static constexpr slot_order order = Order;
	using observer = Observer<timer_list<wheel_config>>;
};

template <class Config>
struct tvec_base {
	using G = typename Config::geometry;
	using word = typename Config::word;
	using timer = timer_list<Config>;

	const timer *running_timer;
	word timer_jiffies;	// next jiffy this base processes
	word next_timer;	// cached earliest non-deferrable expiry (may be stale)
	unsigned long active_timers;	// non-deferrable timers pending
	const word *jiffies;	// the machine's global jiffies
	unsigned cpu;
	std::uint64_t seq;	// enqueues so far: the slot order
	unsigned running_slot;	// tv1 slot whose timers run now (NO_SLOT: none)
	// Per slot (flat index): a same-slot re-arm left it out of enqueue order.
	unsigned char unsorted[G::SLOTS];
	list_head tv1[G::TVR_SIZE];
	list_head tv2[G::TVN_SIZE];
	list_head tv3[G::TVN_SIZE];
	list_head tv4[G::TVN_SIZE];
	list_head tv5[G::TVN_SIZE];
	[[no_unique_address]] typename Config::observer observer;

	// The slots of level 1..5 (tv1..tv5), for code that walks all levels.
	list_head *tv(unsigned level)
	{
		switch (level) {
		case 1: return tv1;
		case 2: return tv2;
		case 3: return tv3;
		case 4: return tv4;
		default: return tv5;
		}
	}
	const list_head *tv(unsigned level) const
	{
		return const_cast<tvec_base *>(this)->tv(level);
	}
	static constexpr unsigned slots_of(unsigned level)
	{
		return level == 1 ? G::TVR_SIZE : G::TVN_SIZE;
	}
	// Bit position of level's slot index within expires: 0, 8, 14, 20, 26.
	static constexpr unsigned shift_of(unsigned level)
	{
		return level == 1 ? 0 : G::TVR_BITS + (level - 2) * G::TVN_BITS;
	}
	// The slots of all levels as one array: tv1 at 0, tv2 at TVR_SIZE, ...
	static constexpr unsigned first_slot_of(unsigned level)
	{
		return level == 1 ? 0 : G::TVR_SIZE + (level - 2) * G::TVN_SIZE;
	}
	// From the start of tv1 as a plain pointer, not tv1[flat]: indexing
	// the 256-slot array past its end is undefined (UBSan's bounds check
	// stops there), a pointer into the slots laid back to back is not.
	list_head *slot(unsigned flat)
	{
		return reinterpret_cast<list_head *>(reinterpret_cast<unsigned char *>(this) +
						     offsetof(tvec_base, tv1)) + flat;
	}
	const list_head *slot(unsigned flat) const { return const_cast<tvec_base *>(this)->slot(flat); }
};

template <class Config>
inline timer_list<Config> *timer_of(list_head *entry)
{
	return list_entry_at<timer_list<Config>>(entry, offsetof(timer_list<Config>, entry));
}

// slot(): tv1..tv5 lie back to back, so a flat index reaches any of them.
template <class Config>
constexpr bool slots_are_flat()
{
	using base_t = tvec_base<Config>;
	return offsetof(base_t, tv2) == offsetof(base_t, tv1) + sizeof(list_head) * base_t::first_slot_of(2) &&
	       offsetof(base_t, tv3) == offsetof(base_t, tv1) + sizeof(list_head) * base_t::first_slot_of(3) &&
	       offsetof(base_t, tv4) == offsetof(base_t, tv1) + sizeof(list_head) * base_t::first_slot_of(4) &&
	       offsetof(base_t, tv5) == offsetof(base_t, tv1) + sizeof(list_head) * base_t::first_slot_of(5);
}

// Takes slot `flat` off the wheel onto `list`, in the order the kernel's
// list would have: by enqueue number, oldest first (FIFO) or newest first
// (LIFO). Only a slot a same-slot re-arm left out of order needs sorting.
template <class Config>
void take_slot(tvec_base<Config> &base, unsigned flat, list_head *list)
{
	list_replace_init(base.slot(flat), list);
	if (!base.unsorted[flat])
		return;
	base.unsorted[flat] = 0;
	list_sort(list, [](list_head *a, list_head *b) {
		std::uint64_t sa = timer_of<Config>(a)->seq, sb = timer_of<Config>(b)->seq;
		return Config::order == slot_order::fifo ? sa < sb : sa > sb;
	});
}

// ---- set-up ----------------------------------------------------------------

// init_timers_cpu(): an empty base about to process jiffy `start`. `jiffies`
// is the machine's global counter, shared by all bases.
template <class Config>
void init_timer_base(tvec_base<Config> &base, const typename Config::word *jiffies, unsigned cpu,
		     typename Config::word start)
{
	using base_t = tvec_base<Config>;
	for (unsigned level = 1; level <= base_t::G::LEVELS; level++)
		for (unsigned i = 0; i < base_t::slots_of(level); i++)
			INIT_LIST_HEAD(base.tv(level) + i);
	base.running_timer = nullptr;
	base.timer_jiffies = start;
	base.next_timer = start;
	base.active_timers = 0;
	base.jiffies = jiffies;
	base.cpu = cpu;
	base.seq = 0;
	base.running_slot = NO_SLOT;
	for (unsigned char &u : base.unsorted)
		u = 0;
}

template <class Config>
void init_timer(timer_list<Config> *timer, void (*function)(unsigned long), unsigned long data,
		unsigned flags = 0)
{
	timer->entry.next = nullptr;
	timer->entry.prev = nullptr;
	timer->expires = 0;
	timer->base = nullptr;
	timer->function = function;
	timer->data = data;
	timer->slack = -1;
	timer->flags = static_cast<std::uint16_t>(flags);
	timer->slot = NO_SLOT;
	timer->seq = 0;
}

template <class Config>
inline bool timer_pending(const timer_list<Config> *timer)
{
	return timer->entry.next != nullptr;
}

// ---- placement ---------------------------------------------------------------

// Index of the highest set bit of a non-zero word (find_last_bit()).
template <class Word>
constexpr unsigned find_last_bit(Word w)
{
	return sizeof(Word) * 8 - 1 -
	       (sizeof(Word) == 8 ? __builtin_clzll(w) : __builtin_clz(static_cast<unsigned>(w)));
}

// Where a timer expiring at `expires` goes, relative to timer_jiffies:
// its level (1..5) and slot (flat index).
struct placement {
	unsigned level;
	unsigned slot;
};

// The levels by the top bit of idx = expires - timer_jiffies: the kernel's
// if/else ladder (idx < 2^8 -> tv1, < 2^14 -> tv2, < 2^20 -> tv3, < 2^26
// -> tv4, else tv5) as one bit-scan and a table look-up. place() takes tv1
// before the look-up, so every level looked up has TVN_SIZE slots.
template <class G>
struct level_table {
	unsigned char level[32];
	unsigned char shift[32];
	unsigned short first[32];	// flat index of the level's slot 0
	constexpr level_table() : level(), shift(), first()
	{
		for (unsigned top = 0; top < 32; top++) {
			unsigned l = top < G::TVR_BITS ? 1 : 2 + (top - G::TVR_BITS) / G::TVN_BITS;
			if (l > G::LEVELS)
				l = G::LEVELS;
			level[top] = static_cast<unsigned char>(l);
			shift[top] = static_cast<unsigned char>(l == 1 ? 0 : G::TVR_BITS + (l - 2) * G::TVN_BITS);
			first[top] = static_cast<unsigned short>(l == 1 ? 0 : G::TVR_SIZE + (l - 2) * G::TVN_SIZE);
		}
	}
};

template <class G>
inline constexpr level_table<G> levels_by_top_bit{};

// Expires now or in the past: the tv1 slot processed next. Too far ahead:
// the slot of timer_jiffies + MAX_TVAL (expires itself is kept).
template <class Config>
[[gnu::always_inline]] inline placement place(const tvec_base<Config> &base, typename Config::word expires)
{
	using G = typename Config::geometry;
	using word = typename Config::word;
	constexpr const level_table<G> &t = levels_by_top_bit<G>;

	// Past (negative as a signed word) or beyond MAX_TVAL: one test.
	constexpr word in_range = G::MAX_TVAL < (~word{0} >> 1) ? static_cast<word>(G::MAX_TVAL) : ~word{0} >> 1;
	word idx = expires - base.timer_jiffies;
	// tv1 (most short timers): its slot is the expiry's low bits.
	if (idx < G::TVR_SIZE)
		return {1, static_cast<unsigned>(expires & G::TVR_MASK)};
	if (idx > in_range) [[unlikely]] {
		if (static_cast<signed_word<word>>(idx) < 0)
			return {1, static_cast<unsigned>(base.timer_jiffies & G::TVR_MASK)};
		idx = static_cast<word>(G::MAX_TVAL);
		expires = idx + base.timer_jiffies;
	}
	// idx >= TVR_SIZE here: tv2..tv5.
	const unsigned top = find_last_bit(idx);
	return {t.level[top], t.first[top] + static_cast<unsigned>((expires >> t.shift[top]) & G::TVN_MASK)};
}

// Links the timer into `p.slot`, as the newest of its slot.
template <class Config>
[[gnu::always_inline]] inline void link_timer(tvec_base<Config> &base, timer_list<Config> *timer, placement p)
{
	static_assert(slots_are_flat<Config>(), "tv1..tv5 must be one array");
	list_head *vec = base.slot(p.slot);
	if constexpr (Config::order == slot_order::fifo)
		list_add_tail(&timer->entry, vec);
	else
		list_add(&timer->entry, vec);
	timer->slot = static_cast<std::uint16_t>(p.slot);
	timer->seq = ++base.seq;
}

// __internal_add_timer(): link the timer into the slot its expiry implies,
// relative to base->timer_jiffies. Returns the level (1..5) it landed on.
template <class Config>
inline unsigned __internal_add_timer(tvec_base<Config> &base, timer_list<Config> *timer)
{
	placement p = place(base, timer->expires);
	link_timer(base, timer, p);
	return p.level;
}

// internal_add_timer() (enqueue_at(), when the placement is known): place,
// then account the timer in active_timers and next_timer (deferrable
// timers are not, so they never wake an idle CPU).
// This is the 3.10 form: next_timer only ever moves earlier here; 3.17
// also reset it on the first timer of an empty base.
template <class Config>
[[gnu::always_inline]] inline void enqueue_at(tvec_base<Config> &base, timer_list<Config> *timer, placement p)
{
	link_timer(base, timer, p);
	if (!(timer->flags & TIMER_DEFERRABLE)) {
		if (time_before(timer->expires, base.next_timer))
			base.next_timer = timer->expires;
		base.active_timers++;
	}
	base.observer.enqueued(*timer, p.level);
}

template <class Config>
inline void internal_add_timer(tvec_base<Config> &base, timer_list<Config> *timer)
{
	enqueue_at(base, timer, place(base, timer->expires));
}

template <class Config>
inline void detach_timer(timer_list<Config> *timer, bool clear_pending)
{
	list_head *entry = &timer->entry;

	__list_del(entry->prev, entry->next);
	if (clear_pending)
		entry->next = nullptr;
	entry->prev = nullptr;
}

template <class Config>
inline void detach_expired_timer(timer_list<Config> *timer, tvec_base<Config> &base)
{
	detach_timer(timer, true);
	if (!(timer->flags & TIMER_DEFERRABLE))
		base.active_timers--;
}

// Removing the earliest timer leaves next_timer stale; mark it so (set it to
// timer_jiffies) and let next_timer_interrupt() recompute it lazily.
template <class Config>
inline int detach_if_pending(timer_list<Config> *timer, tvec_base<Config> &base, bool clear_pending)
{
	if (!timer_pending(timer))
		return 0;

	detach_timer(timer, clear_pending);
	if (!(timer->flags & TIMER_DEFERRABLE)) {
		base.active_timers--;
		if (timer->expires == base.next_timer)
			base.next_timer = base.timer_jiffies;
	}
	return 1;
}

// ---- the API -----------------------------------------------------------------

// Slack (3.x, removed in 4.8): let the expiry move later by up to
// timer->slack jiffies (default: 0.4% of the timeout, none under 256
// jiffies) to the value with the most low bits clear, so that timers
// coalesce. E.g. expires 1000 with slack 10 -> 1008.
template <class Config>
typename Config::word apply_slack(const timer_list<Config> *timer, typename Config::word expires,
				  typename Config::word jiffies)
{
	using word = typename Config::word;
	word expires_limit;

	if (timer->slack >= 0) {
		expires_limit = expires + static_cast<word>(timer->slack);
	} else {
		signed_word<word> delta = static_cast<signed_word<word>>(static_cast<word>(expires - jiffies));
		if (delta < 256)
			return expires;
		expires_limit = expires + static_cast<word>(delta / 256);
	}
	word mask = expires ^ expires_limit;
	if (mask == 0)
		return expires;

	mask = (word{1} << find_last_bit(mask)) - 1;
	return expires_limit & ~mask;
}

// __mod_timer() as the kernel has it: detach if pending, move to `local`
// unless the timer is running right now on its old base (its callback may
// still touch it there), set the expiry and enqueue. Returns 1 if it was
// pending.
template <class Config>
[[gnu::noinline]] int __mod_timer_general(tvec_base<Config> &local, timer_list<Config> *timer,
					  typename Config::word expires, bool pending_only)
{
	tvec_base<Config> *base = timer->base ? timer->base : &local;

	int ret = detach_if_pending(timer, *base, false);
	if (!ret && pending_only)
		return 0;

	if (base != &local && base->running_timer != timer)
		base = &local;
	timer->base = base;
	timer->expires = expires;
	internal_add_timer(*base, timer);
	return ret;
}

// A pending timer re-armed on its own base (the re-arm of a live timeout):
// what the kernel's detach_if_pending() and internal_add_timer() do to the
// base's accounting, in one step (active_timers is unchanged), then the
// timer moves to its new slot, or, when that is the slot it already sits
// in, stays and takes its new place in the slot's order (see the top of
// this file). The work list being run is not that slot: a callback's
// re-arm of a timer still waiting on it must unlink it.
template <class Config>
[[gnu::always_inline]] inline void requeue_pending(tvec_base<Config> &base, timer_list<Config> *timer,
						   typename Config::word expires)
{
	if (!(timer->flags & TIMER_DEFERRABLE)) {
		if (timer->expires == base.next_timer)
			base.next_timer = base.timer_jiffies;
		if (time_before(expires, base.next_timer))
			base.next_timer = expires;
	}
	timer->expires = expires;
	// Placed after the accounting, not before the timer is read: fewer
	// values live at once, so an inlining caller saves no registers.
	const placement p = place(base, expires);
	if (p.slot == timer->slot && p.slot != base.running_slot) {
		timer->seq = ++base.seq;
		if (!base.unsorted[p.slot])	// a store less in the common case
			base.unsorted[p.slot] = 1;
	} else {
		detach_timer(timer, false);
		link_timer(base, timer, p);
	}
	base.observer.enqueued(*timer, p.level);
}

// The common cases of __mod_timer(), inline, so that a re-arm costs no
// call: a pending timer re-armed on `local`, or a timer that is not pending
// (and not running on another base) enqueued there. Returns 1 or 0 as
// __mod_timer() does, or -1, having done nothing, for the rest (a timer on
// another base), which __mod_timer_general() handles.
template <class Config>
[[gnu::always_inline]] inline int __mod_timer_local(tvec_base<Config> &local, timer_list<Config> *timer,
						    typename Config::word expires, bool pending_only)
{
	tvec_base<Config> *base = timer->base;

	if (timer_pending(timer)) {
		if (base == &local) [[likely]] {
			requeue_pending(local, timer, expires);
			return 1;
		}
	} else if (!pending_only && (base == &local || !base || base->running_timer != timer)) {
		// Not pending, and not running on another base: enqueued here.
		// The timer's own base is tested first: once armed there, that
		// is the answer, and one compare settles it (not a null test too).
		const placement p = place(local, expires);
		timer->base = &local;
		timer->expires = expires;
		enqueue_at(local, timer, p);
		return 0;
	}
	return -1;
}

template <class Config>
[[gnu::always_inline]] inline int __mod_timer(tvec_base<Config> &local, timer_list<Config> *timer,
					      typename Config::word expires, bool pending_only)
{
	const int ret = __mod_timer_local(local, timer, expires, pending_only);
	if (ret >= 0) [[likely]]
		return ret;
	return __mod_timer_general(local, timer, expires, pending_only);
}

// mod_timer(): the common way to (re)arm a timer, on the calling CPU's base
// `local`. With slack applied, re-arming a pending timer to the expiry it
// already has is a no-op that returns 1.
template <class Config>
[[gnu::always_inline]] inline int mod_timer(tvec_base<Config> &local, timer_list<Config> *timer,
					    typename Config::word expires)
{
	if (timer->slack)
		expires = apply_slack(timer, expires, *local.jiffies);
	if (timer_pending(timer) && timer->expires == expires)
		return 1;
	return __mod_timer(local, timer, expires, false);
}

// mod_timer_pending(): re-arm only a pending timer; no slack.
template <class Config>
int mod_timer_pending(tvec_base<Config> &local, timer_list<Config> *timer,
		      typename Config::word expires)
{
	return __mod_timer(local, timer, expires, true);
}

// add_timer(): arm a timer that is not pending (BUG otherwise).
template <class Config>
void add_timer(tvec_base<Config> &local, timer_list<Config> *timer)
{
	if (timer_pending(timer))
		__builtin_trap();
	mod_timer(local, timer, timer->expires);
}

// add_timer_on(): arm a non-pending timer on a given CPU's base; no slack.
template <class Config>
void add_timer_on(tvec_base<Config> &target, timer_list<Config> *timer)
{
	if (timer_pending(timer) || !timer->function)
		__builtin_trap();
	timer->base = &target;
	internal_add_timer(target, timer);
}

// del_timer(): 1 if the timer was pending (now detached), else 0.
template <class Config>
int del_timer(timer_list<Config> *timer)
{
	if (!timer_pending(timer))
		return 0;
	return detach_if_pending(timer, *timer->base, true);
}

// try_to_del_timer_sync(): like del_timer(), but -1 while the timer's
// callback is running on its base (del_timer_sync() spins on that).
template <class Config>
int try_to_del_timer_sync(timer_list<Config> *timer)
{
	tvec_base<Config> *base = timer->base;

	if (base && base->running_timer == timer)
		return -1;
	if (!base)
		return 0;
	return detach_if_pending(timer, *base, true);
}

// ---- running -----------------------------------------------------------------

// cascade(): detach slot `index` of `level` and re-place each of its
// timers relative to the current timer_jiffies. Returns the index, so the
// caller chains to the next level only when this one wrapped to 0.
template <class Config>
unsigned cascade(tvec_base<Config> &base, unsigned level, unsigned index)
{
	list_head tv_list;
	unsigned moved = 0;

	take_slot(base, tvec_base<Config>::first_slot_of(level) + index, &tv_list);
	for (list_head *pos = tv_list.next, *n = pos->next; pos != &tv_list; pos = n, n = pos->next) {
		timer_list<Config> *timer = timer_of<Config>(pos);
		unsigned to = __internal_add_timer(base, timer);
		base.observer.moved(*timer, level, to);
		moved++;
	}
	base.observer.cascaded(level, moved);
	return index;
}

// INDEX(N): the slot of tv(N+2) that is due, from the not yet incremented
// timer_jiffies.
template <class Config>
inline unsigned cascade_index(const tvec_base<Config> &base, unsigned n)
{
	using G = typename Config::geometry;
	return (base.timer_jiffies >> (G::TVR_BITS + n * G::TVN_BITS)) & G::TVN_MASK;
}

// __run_timers(): process every jiffy up to and including `upto`. Each jiffy
// first cascades (every TVR_SIZE jiffies), then runs its tv1 slot as a
// detached work list; a callback may add, modify or delete any timer,
// including ones still on the work list, which then do not run.
template <class Config>
void run_timers(tvec_base<Config> &base, typename Config::word upto)
{
	using G = typename Config::geometry;

	while (time_after_eq(upto, base.timer_jiffies)) {
		list_head work_list;
		unsigned index = base.timer_jiffies & G::TVR_MASK;

		base.observer.tick(base.timer_jiffies);
		if (!index &&
		    !cascade(base, 2, cascade_index(base, 0)) &&
		    !cascade(base, 3, cascade_index(base, 1)) &&
		    !cascade(base, 4, cascade_index(base, 2)))
			cascade(base, 5, cascade_index(base, 3));
		++base.timer_jiffies;

		take_slot(base, index, &work_list);
		// A callback's re-arm of a timer still waiting on the work list
		// must unlink it, not take the same-slot shortcut.
		base.running_slot = index;
		while (!list_empty(&work_list)) {
			timer_list<Config> *timer = timer_of<Config>(work_list.next);
			void (*fn)(unsigned long) = timer->function;
			unsigned long data = timer->data;

			base.running_timer = timer;
			detach_expired_timer(timer, base);
			base.observer.expiring(*timer, base.timer_jiffies - 1);
			if constexpr (calls_functions<typename Config::observer>())
				fn(data);
		}
		base.running_slot = NO_SLOT;
	}
	base.running_timer = nullptr;
}

// run_timer_softirq(): catch the base up with the global jiffies.
template <class Config>
void run_timers(tvec_base<Config> &base)
{
	run_timers(base, *base.jiffies);
}

// ---- NOHZ: when must this CPU wake? --------------------------------------------

// __next_timer_interrupt(): the earliest non-deferrable expiry. tv1 is
// scanned slot by slot from the current index; the upper levels are
// scanned from their next cascade point, and a found slot's timers are
// compared by expiry, since a slot spans many jiffies.
template <class Config>
typename Config::word __next_timer_interrupt(const tvec_base<Config> &base)
{
	using G = typename Config::geometry;
	using word = typename Config::word;

	word timer_jiffies = base.timer_jiffies;
	word expires = timer_jiffies + static_cast<word>(NEXT_TIMER_MAX_DELTA);
	bool found = false;
	unsigned index, slot;

	index = slot = timer_jiffies & G::TVR_MASK;
	do {
		const list_head *head = base.tv1 + slot;
		// The first non-deferrable timer in the kernel's slot order.
		const timer_list<Config> *first = nullptr;
		for (const list_head *pos = head->next; pos != head; pos = pos->next) {
			const timer_list<Config> *nte = timer_of<Config>(const_cast<list_head *>(pos));
			if (nte->flags & TIMER_DEFERRABLE)
				continue;
			if (!first || (Config::order == slot_order::fifo ? nte->seq < first->seq : nte->seq > first->seq))
				first = nte;
			if (!base.unsorted[slot])
				break;
		}
		if (first) {
			found = true;
			expires = first->expires;
			// A cascade comes before this slot: look at it too.
			if (!index || slot < index)
				goto cascade;
			return expires;
		}
		slot = (slot + 1) & G::TVR_MASK;
	} while (slot != index);

cascade:
	// The next cascade event, in units of the next level.
	if (index)
		timer_jiffies += G::TVR_SIZE - index;
	timer_jiffies >>= G::TVR_BITS;

	for (unsigned level = 2; level <= G::LEVELS; level++) {
		const list_head *varp = base.tv(level);

		index = slot = timer_jiffies & G::TVN_MASK;
		do {
			const list_head *head = varp + slot;
			for (const list_head *pos = head->next; pos != head; pos = pos->next) {
				const timer_list<Config> *nte =
					timer_of<Config>(const_cast<list_head *>(pos));
				if (nte->flags & TIMER_DEFERRABLE)
					continue;
				found = true;
				if (time_before(nte->expires, expires))
					expires = nte->expires;
			}
			if (found) {
				// Still a cascade ahead of this slot? Look above.
				if (!index || slot < index)
					break;
				return expires;
			}
			slot = (slot + 1) & G::TVN_MASK;
		} while (slot != index);

		if (index)
			timer_jiffies += G::TVN_SIZE - index;
		timer_jiffies >>= G::TVN_BITS;
	}
	return expires;
}

// get_next_timer_interrupt(): when the CPU must wake, as seen at `now`:
// the cached next_timer, recomputed when stale; `now` if that has passed;
// now + NEXT_TIMER_MAX_DELTA when nothing non-deferrable is pending.
template <class Config>
typename Config::word get_next_timer_interrupt(tvec_base<Config> &base, typename Config::word now)
{
	using word = typename Config::word;
	word expires = now + static_cast<word>(NEXT_TIMER_MAX_DELTA);

	if (base.active_timers) {
		if (time_before_eq(base.next_timer, base.timer_jiffies))
			base.next_timer = __next_timer_interrupt(base);
		expires = base.next_timer;
	}
	if (time_before_eq(expires, now))
		return now;
	return expires;
}

}  // namespace kernel
