// `wheel`: a hierarchical timing wheel at nanosecond resolution (Varghese
// and Lauck's scheme 7; placement as in William Ahern's timeout.c). Eleven
// levels of 64 slots cover 64-bit time; level 0's slots are single
// nanoseconds. A timer goes to the level of the highest 6-bit digit in
// which its expiry differs from the wheel's cursor, in the slot of that
// digit, at the tail (so equal expiries stay in arm order). Every timer on
// level j is earlier than every timer on level j + 1, so the first timer is
// on the lowest non-empty level: on level 0 it is the head of the lowest
// occupied slot; on a higher level the cursor moves to the start of that
// level's lowest occupied slot and the slot is cascaded (its timers placed
// again, landing lower), until level 0 holds it. The cursor only moves to
// the first timer's region, never past a queued timer; a timer armed before
// the cursor (already expired, or earlier than everything) goes to a sorted
// overdue list ahead of the wheel. That list is the design's weak spot:
// the cursor sits at the first timer's slot, so a timer armed between now
// and it is walked into the list (counted as comparisons and slot visits).
//
// Occupied slots are found with one 64-bit bitmap per level.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/hrtimer/queue_design.h"
#include "sim/hrtimer/queue_factories.h"

namespace timersim::hrq {

namespace {

constexpr unsigned BITS = 6;
constexpr unsigned SLOTS = 1u << BITS;
constexpr unsigned LEVELS = (64 + BITS - 1) / BITS;	// 11
constexpr std::uint32_t NIL = ~0u;
constexpr std::uint32_t OVERDUE = LEVELS * SLOTS;	// the overdue list's number

// Signed expiries as unsigned keys in the same order.
inline std::uint64_t key_of(ktime e) { return static_cast<std::uint64_t>(e) ^ (std::uint64_t{1} << 63); }

class wheel_design final : public queue_design {
	struct link {
		std::uint32_t prev = NIL, next = NIL;
		std::uint32_t list = NIL;	// slot number (level * 64 + slot), OVERDUE, NIL: not queued
		std::uint64_t key = 0;
	};
	struct list_head {
		std::uint32_t head = NIL, tail = NIL;
	};
	std::vector<link> links_;
	list_head lists_[LEVELS * SLOTS + 1];
	std::uint64_t occupied_[LEVELS] = {};
	std::uint64_t cursor_ = 0;
	std::size_t size_ = 0;
	queue_costs costs_;

	void unlink(qid t)
	{
		link &l = links_[t];
		list_head &h = lists_[l.list];
		if (l.prev != NIL)
			links_[l.prev].next = l.next;
		else
			h.head = l.next;
		if (l.next != NIL)
			links_[l.next].prev = l.prev;
		else
			h.tail = l.prev;
		if (h.head == NIL && l.list != OVERDUE)
			occupied_[l.list / SLOTS] &= ~(std::uint64_t{1} << (l.list % SLOTS));
		l.list = NIL;
	}
	void append(qid t, std::uint32_t list)
	{
		link &l = links_[t];
		list_head &h = lists_[list];
		l.list = list;
		l.next = NIL;
		l.prev = h.tail;
		if (h.tail != NIL)
			links_[h.tail].next = t;
		else
			h.head = t;
		h.tail = t;
		if (list != OVERDUE)
			occupied_[list / SLOTS] |= std::uint64_t{1} << (list % SLOTS);
	}
	// Overdue: sorted, after every equal key; searched from the tail (a
	// new timer is usually the latest of the overdue ones).
	void insert_overdue(qid t)
	{
		link &l = links_[t];
		list_head &h = lists_[OVERDUE];
		std::uint32_t after = h.tail;
		while (after != NIL) {
			costs_.comparisons++;
			costs_.slot_visits++;
			if (links_[after].key <= l.key)
				break;
			after = links_[after].prev;
		}
		l.list = OVERDUE;
		l.prev = after;
		l.next = after == NIL ? h.head : links_[after].next;
		if (l.prev != NIL)
			links_[l.prev].next = t;
		else
			h.head = t;
		if (l.next != NIL)
			links_[l.next].prev = t;
		else
			h.tail = t;
	}
	void place(qid t)
	{
		const std::uint64_t key = links_[t].key;
		costs_.comparisons++;
		if (key < cursor_) {
			insert_overdue(t);
			return;
		}
		const std::uint64_t diff = key ^ cursor_;
		const unsigned level = diff ? (63 - static_cast<unsigned>(__builtin_clzll(diff))) / BITS : 0;
		const unsigned slot = static_cast<unsigned>(key >> (level * BITS)) & (SLOTS - 1);
		append(t, level * SLOTS + slot);
		costs_.slot_visits++;
	}

public:
	std::string name() const override { return "wheel"; }
	void reset(std::size_t capacity) override
	{
		links_.assign(capacity, link{});
		for (list_head &h : lists_)
			h = list_head{};
		for (std::uint64_t &o : occupied_)
			o = 0;
		cursor_ = 0;
		size_ = 0;
		costs_ = queue_costs{};
	}
	bool arm(qid t, ktime expires) override
	{
		remove(t);
		links_[t].key = key_of(expires);
		costs_.insertions++;
		size_++;
		place(t);
		qid f;
		ktime e;
		return first(&f, &e) && f == t;
	}
	bool remove(qid t) override
	{
		if (links_[t].list == NIL)
			return false;
		unlink(t);
		costs_.removals++;
		size_--;
		return true;
	}
	bool queued(qid t) const override { return links_[t].list != NIL; }
	bool first(qid *t, ktime *expires) override
	{
		if (lists_[OVERDUE].head != NIL) {
			*t = lists_[OVERDUE].head;
			*expires = static_cast<ktime>(links_[*t].key ^ (std::uint64_t{1} << 63));
			return true;
		}
		for (;;) {
			unsigned level = 0;
			while (level < LEVELS && !occupied_[level]) {
				level++;
				costs_.slot_visits++;
			}
			if (level == LEVELS)
				return false;
			const unsigned slot = static_cast<unsigned>(__builtin_ctzll(occupied_[level]));
			costs_.slot_visits++;
			const std::uint32_t list = level * SLOTS + slot;
			if (level == 0) {
				*t = lists_[list].head;
				*expires = static_cast<ktime>(links_[*t].key ^ (std::uint64_t{1} << 63));
				return true;
			}
			// Move the cursor to the slot's start; every timer is at or
			// after it, so the slot's timers all land lower.
			const unsigned shift = level * BITS;
			const std::uint64_t above = shift + BITS >= 64 ? 0 : cursor_ >> (shift + BITS) << (shift + BITS);
			cursor_ = above | (std::uint64_t{slot} << shift);
			std::uint32_t n = lists_[list].head;
			lists_[list] = list_head{};
			occupied_[level] &= ~(std::uint64_t{1} << slot);
			while (n != NIL) {
				const std::uint32_t next = links_[n].next;
				links_[n].list = NIL;
				place(n);
				costs_.cascades++;
				n = next;
			}
		}
	}
	std::size_t size() const override { return size_; }
	queue_costs costs() const override { return costs_; }
};

}  // namespace

std::unique_ptr<queue_design> make_wheel_design() { return std::make_unique<wheel_design>(); }

}  // namespace timersim::hrq
