// Shared pieces of the classic wheel's Check tests: a recording observer,
// a callback that logs which timer ran in which jiffy, a small harness that
// owns a base and its timers, and the wheel_check() assertion.
//
// Check forks each test into its own process, so the one global event log
// is private to a test; the harness clears it anyway (CK_FORK=no).
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "kernel/classic_check.h"
#include "kernel/classic_wheel.h"

// After the standard headers: check.h defines a macro `fail` that breaks
// <ios>; it is deprecated, so drop it for any header included later.
#include "tests/support/check_main.h"
#undef fail

namespace ctest {

struct fire_rec {
	unsigned long data;
	std::uint64_t jiffy;
	bool operator==(const fire_rec &) const = default;
};
struct cascade_rec {
	unsigned level;
	unsigned moved;
	std::uint64_t jiffy;
	bool operator==(const cascade_rec &) const = default;
};
struct move_rec {
	unsigned long data;
	unsigned from, to;
	std::uint64_t jiffy;
	bool operator==(const move_rec &) const = default;
};
struct enqueue_rec {
	unsigned long data;
	unsigned level;
	bool operator==(const enqueue_rec &) const = default;
};

struct event_log {
	std::vector<fire_rec> fired;
	std::vector<cascade_rec> cascades;
	std::vector<move_rec> moves;
	std::vector<enqueue_rec> enqueues;
	std::uint64_t ticks = 0;
	std::uint64_t current = 0;	// the jiffy being processed (from tick())
	// Extra work a test wants done inside on_fire(), after logging.
	std::function<void(unsigned long)> action;

	void clear() { *this = event_log(); }
};

inline event_log g_log;

template <class Timer>
struct recording_observer {
	void enqueued(const Timer &t, unsigned level) { g_log.enqueues.push_back({t.data, level}); }
	void moved(const Timer &t, unsigned from, unsigned to)
	{
		g_log.moves.push_back({t.data, from, to, g_log.current});
	}
	void cascaded(unsigned level, unsigned moved)
	{
		g_log.cascades.push_back({level, moved, g_log.current});
	}
	template <class Word> void tick(Word jiffy)
	{
		g_log.current = jiffy;
		g_log.ticks++;
	}
	template <class Word> void expiring(const Timer &, Word) {}
};

inline void on_fire(unsigned long data)
{
	g_log.fired.push_back({data, g_log.current});
	if (g_log.action)
		g_log.action(data);
}

template <class Geometry, class Word, kernel::slot_order Order = kernel::slot_order::fifo>
using rec_config = kernel::wheel_config<Geometry, Word, Order, recording_observer>;

using n64 = rec_config<kernel::geometry_normal, std::uint64_t>;
using n32 = rec_config<kernel::geometry_normal, std::uint32_t>;
using s64 = rec_config<kernel::geometry_small, std::uint64_t>;
using s32 = rec_config<kernel::geometry_small, std::uint32_t>;
using n64_lifo = rec_config<kernel::geometry_normal, std::uint64_t, kernel::slot_order::lifo>;

inline const char *fault_name(kernel::wheel_fault f)
{
	switch (f) {
	case kernel::wheel_fault::none: return "none";
	case kernel::wheel_fault::broken_list: return "broken_list";
	case kernel::wheel_fault::foreign_timer: return "foreign_timer";
	case kernel::wheel_fault::wrong_slot: return "wrong_slot";
	case kernel::wheel_fault::would_fire_late: return "would_fire_late";
	case kernel::wheel_fault::active_count: return "active_count";
	case kernel::wheel_fault::next_timer_late: return "next_timer_late";
	}
	return "?";
}

// wheel_check() must pass; on failure say which fault, where.
#define CK_WHEEL(base)                                                                      \
	do {                                                                                \
		auto r_ = kernel::wheel_check(base);                                         \
		ck_assert_msg(static_cast<bool>(r_), "wheel_check: %s at level %u slot %u", \
			      ctest::fault_name(r_.fault), r_.level, r_.slot);             \
	} while (0)

// Where a timer sits: {level, slot}, or {0, 0} if in no slot of `base`.
template <class Config>
std::pair<unsigned, unsigned> where(const kernel::tvec_base<Config> &base,
				    const kernel::timer_list<Config> *t)
{
	using base_t = kernel::tvec_base<Config>;
	for (unsigned level = 1; level <= base_t::G::LEVELS; level++)
		for (unsigned slot = 0; slot < base_t::slots_of(level); slot++) {
			const kernel::list_head *head = base.tv(level) + slot;
			for (const kernel::list_head *p = head->next; p != head; p = p->next)
				if (p == &t->entry)
					return {level, slot};
		}
	return {0, 0};
}

// A base plus the timers a test arms on it. Timers get slack 0 (exact
// expiry) unless a test sets it; data is the timer's index.
template <class Config>
struct harness {
	using word = typename Config::word;
	using base_t = kernel::tvec_base<Config>;
	using timer_t = kernel::timer_list<Config>;

	word jiffies;
	base_t base;
	std::vector<std::unique_ptr<timer_t>> timers;

	explicit harness(word start, unsigned cpu = 0)
	{
		g_log.clear();
		jiffies = static_cast<word>(start - 1);
		kernel::init_timer_base(base, &jiffies, cpu, start);
	}
	harness(const harness &) = delete;
	harness &operator=(const harness &) = delete;

	timer_t *make(unsigned flags = 0)
	{
		timers.push_back(std::make_unique<timer_t>());
		timer_t *t = timers.back().get();
		kernel::init_timer(t, on_fire, timers.size() - 1, flags);
		t->slack = 0;
		return t;
	}
	timer_t *arm(word expires, unsigned flags = 0)
	{
		timer_t *t = make(flags);
		kernel::mod_timer(base, t, expires);
		return t;
	}
	// Process every jiffy up to `upto`; the machine's jiffies follow.
	void run_to(word upto)
	{
		kernel::run_timers(base, upto);
		jiffies = upto;
	}
	std::pair<unsigned, unsigned> at(const timer_t *t) const { return where(base, t); }
};

using timersim::test::run_suite;

}  // namespace ctest
