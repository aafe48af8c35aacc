// The order of a sorted timer list, kept so that the walk a start makes
// down it can be counted without being made: a treap over timer ids,
// keyed by (due, start sequence), each node holding its subtree's size.
//
// sorted-list's model walks from the tail past every timer due later than
// the new one: O(n) per start, thousands of nodes on a real machine's
// trace. The count of that walk is a rank query here, O(log n), and the
// order (due, then start order) is the list's own: same expiries, same
// cost units, without the simulator paying the model's price.
//
// Intrusive like the lists: nodes are indexed by timer id (grow() as ids
// are given), priorities a fixed hash of the id (deterministic).
#pragma once

#include <cstdint>
#include <vector>

#include "sim/scheme/scheme.h"

namespace timersim {

class rank_treap {
public:
	static constexpr timer_id none = ~timer_id{0};

	void grow(std::size_t n) { node_.resize(n); }

	// T, due at DUE, after every timer already here (its start order).
	// Down the nodes of higher priority to where T belongs, then the
	// subtree there split around it: one descent, where a split of the
	// whole tree and two merges would make as many calls again.
	void insert(timer_id &root, timer_id t, jiffies_t due)
	{
		node &x = node_[t];
		x = node{};
		x.due = due;
		x.seq = ++seq_;
		x.prio = priority(t);
		timer_id *link = &root;
		while (*link != none && node_[*link].prio >= x.prio) {
			node &y = node_[*link];
			y.size++;
			link = before(y, x.due, x.seq) ? &y.right : &y.left;
		}
		split(*link, x.due, x.seq, x.left, x.right);
		update(t);
		*link = t;
	}

	// T, which must be here: down to it, and its two subtrees merged in
	// its place.
	void erase(timer_id &root, timer_id t)
	{
		const node &x = node_[t];
		timer_id *link = &root;
		while (*link != t) {
			node &y = node_[*link];
			y.size--;
			link = before(y, x.due, x.seq) ? &y.right : &y.left;
		}
		*link = merge(x.left, x.right);
	}

	// The first in order (the list's head), or none.
	timer_id first(timer_id root) const
	{
		if (root == none)
			return none;
		while (node_[root].left != none)
			root = node_[root].left;
		return root;
	}

	// How many are due later than DUE (the nodes a walk from the tail
	// passes before it stops).
	std::uint64_t due_after(timer_id root, jiffies_t due) const
	{
		std::uint64_t n = 0;
		while (root != none) {
			const node &x = node_[root];
			if (x.due > due) {
				n += 1 + size(x.right);
				root = x.left;
			} else {
				root = x.right;
			}
		}
		return n;
	}

	std::uint64_t size(timer_id root) const { return root == none ? 0 : node_[root].size; }
	jiffies_t due(timer_id t) const { return node_[t].due; }
	// Its place in the start order (later starts, larger).
	std::uint64_t seq(timer_id t) const { return node_[t].seq; }

	// In order, for the checker: F(t) for each, false from F stops.
	template <class F>
	bool each(timer_id root, F &&f) const
	{
		if (root == none)
			return true;
		return each(node_[root].left, f) && f(root) && each(node_[root].right, f);
	}

	// The subtree sizes and the heap order of priorities, for the checker.
	bool consistent(timer_id root) const
	{
		if (root == none)
			return true;
		const node &x = node_[root];
		for (timer_id c : {x.left, x.right})
			if (c != none && node_[c].prio > x.prio)
				return false;
		return x.size == 1 + size(x.left) + size(x.right) && consistent(x.left) &&
		       consistent(x.right);
	}

private:
	struct node {
		jiffies_t due = 0;
		std::uint64_t seq = 0;
		timer_id left = none, right = none;
		std::uint32_t size = 1;
		std::uint32_t prio = 0;
	};

	static std::uint32_t priority(timer_id t)
	{
		std::uint64_t k = (std::uint64_t(t) + 1) * 0x9e3779b97f4a7c15ull;
		return std::uint32_t(k >> 32);
	}

	bool before(const node &x, jiffies_t due, std::uint64_t seq) const
	{
		return x.due < due || (x.due == due && x.seq < seq);
	}

	void update(timer_id t)
	{
		node &x = node_[t];
		x.size = std::uint32_t(1 + size(x.left) + size(x.right));
	}

	// L: the nodes ordered before (DUE, SEQ); R: the rest.
	void split(timer_id t, jiffies_t due, std::uint64_t seq, timer_id &l, timer_id &r)
	{
		if (t == none) {
			l = r = none;
			return;
		}
		node &x = node_[t];
		if (before(x, due, seq)) {
			split(x.right, due, seq, x.right, r);
			l = t;
		} else {
			split(x.left, due, seq, l, x.left);
			r = t;
		}
		update(t);
	}

	// Every node of A is ordered before every node of B.
	timer_id merge(timer_id a, timer_id b)
	{
		if (a == none)
			return b;
		if (b == none)
			return a;
		if (node_[a].prio > node_[b].prio) {
			node_[a].right = merge(node_[a].right, b);
			update(a);
			return a;
		}
		node_[b].left = merge(a, node_[b].left);
		update(b);
		return b;
	}

	std::vector<node> node_;
	std::uint64_t seq_ = 0;
};

}  // namespace timersim
