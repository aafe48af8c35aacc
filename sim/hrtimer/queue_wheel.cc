// `wheel`: a hierarchical timing wheel at nanosecond resolution (Varghese
// and Lauck's scheme 7; placement as in William Ahern's timeout.c). Eleven
// levels of 64 slots cover 64-bit time; level 0's slots are single
// nanoseconds. The wheel's cursor is the queue's clock (advance()). A timer
// goes to the level of the highest 6-bit digit in which its expiry differs
// from the cursor, in the slot of that digit, at the tail (so equal
// expiries stay in arm order). Every timer on level j is earlier than
// every timer on level j + 1, so the first timer is on the lowest occupied
// level: on level 0 the head of the lowest occupied slot; higher up the
// earliest of the lowest occupied slot, found by walking it (its cost).
//
// advance(now) moves the cursor: on each level whose higher digits stay
// the same but whose own digit moves, the slot of the new digit is
// cascaded (its timers now share that digit with the cursor and go lower);
// slots passed over are empty, their timers having expired. A timer armed
// before the cursor (already expired) goes to a sorted overdue list ahead
// of the wheel, run first.
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
	void reset(std::size_t capacity, ktime now) override
	{
		links_.assign(capacity, link{});
		for (list_head &h : lists_)
			h = list_head{};
		for (std::uint64_t &o : occupied_)
			o = 0;
		cursor_ = key_of(now);
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
		std::uint32_t best = lists_[OVERDUE].head;
		if (best == NIL) {
			unsigned level = 0;
			while (level < LEVELS && !occupied_[level]) {
				level++;
				costs_.slot_visits++;
			}
			if (level == LEVELS)
				return false;
			const unsigned slot = static_cast<unsigned>(__builtin_ctzll(occupied_[level]));
			best = lists_[level * SLOTS + slot].head;
			costs_.slot_visits++;
			// Level 0's slots hold one expiry; higher ones a range.
			if (level > 0)
				for (std::uint32_t n = links_[best].next; n != NIL; n = links_[n].next) {
					costs_.comparisons++;
					costs_.slot_visits++;
					if (links_[n].key < links_[best].key)
						best = n;
				}
		}
		*t = best;
		*expires = static_cast<ktime>(links_[best].key ^ (std::uint64_t{1} << 63));
		return true;
	}
	void advance(ktime now) override
	{
		const std::uint64_t to = key_of(now);
		if (to <= cursor_)
			return;
		const std::uint64_t from = cursor_;
		cursor_ = to;
		for (unsigned level = LEVELS - 1; level >= 1; level--) {
			const unsigned shift = level * BITS;
			const bool same_above = shift + BITS >= 64 || (from >> (shift + BITS)) == (to >> (shift + BITS));
			const unsigned digit = static_cast<unsigned>(to >> shift) & (SLOTS - 1);
			if (!same_above || digit == (static_cast<unsigned>(from >> shift) & (SLOTS - 1)))
				continue;
			const std::uint32_t list = level * SLOTS + digit;
			if (!(occupied_[level] & (std::uint64_t{1} << digit)))
				continue;
			std::uint32_t n = lists_[list].head;
			lists_[list] = list_head{};
			occupied_[level] &= ~(std::uint64_t{1} << digit);
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
