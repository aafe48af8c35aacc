// timerqueue: timers ordered by expiry in a red-black tree with a cached
// leftmost node, as lib/timerqueue.c has it (2.6.36 on). The earliest timer
// is O(1); add and del are O(log n). A node whose expiry equals others'
// goes to their right (the walk turns left only when strictly earlier), so
// timers with equal expiries run in the order they were added.
//
// Each head counts what its operations cost: comparisons made on the way
// down, the depth reached, and (in the root) the rotations of rebalancing.
//
// The linked variant (timerqueue_linked_*) is the 2026 one ("rbtree:
// Provide rbtree with links", "hrtimer: Try to modify timers in place",
// Thomas Gleixner, February 2026): every node also links to its in-order
// neighbours, kept up by add and del at no extra walk, so a re-armed timer
// whose new expiry still lies between its neighbours' is updated in place
// without an erase and an insert (timerqueue_linked_can_update_in_place),
// and erasing the leftmost needs no rb_next. The leftmost node's prev and
// the rightmost's next are null.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernel/rbtree.h"

namespace kernel {

using ktime_t = std::int64_t;	// nanoseconds, as the kernel's ktime_t

struct timerqueue_costs {
	std::uint64_t adds = 0;
	std::uint64_t dels = 0;
	std::uint64_t comparisons = 0;	// expiry comparisons on the way down
	std::uint64_t depth_sum = 0;	// levels walked down, summed over adds
	std::uint64_t max_depth = 0;	// the deepest add so far (root = 0)
	std::uint64_t in_place = 0;	// linked re-arms that kept their node
};

// Adds `b` into `a`; rotations live in the roots, passed apart.
inline void add_costs(timerqueue_costs &a, const timerqueue_costs &b)
{
	a.adds += b.adds;
	a.dels += b.dels;
	a.comparisons += b.comparisons;
	a.depth_sum += b.depth_sum;
	if (b.max_depth > a.max_depth)
		a.max_depth = b.max_depth;
	a.in_place += b.in_place;
}

struct timerqueue_node {
	rb_node node;
	ktime_t expires;
};

struct timerqueue_head {
	rb_root_cached rb_root;
	timerqueue_costs costs;
};

inline void timerqueue_init_head(timerqueue_head *head)
{
	rb_root_cached_init(&head->rb_root);
	head->costs = timerqueue_costs{};
}

inline void timerqueue_init(timerqueue_node *node) { RB_CLEAR_NODE(&node->node); }
inline bool timerqueue_node_queued(const timerqueue_node *node) { return !RB_EMPTY_NODE(&node->node); }

inline timerqueue_node *timerqueue_node_of(rb_node *n)
{
	return n ? reinterpret_cast<timerqueue_node *>(reinterpret_cast<char *>(n) -
							offsetof(timerqueue_node, node))
		 : nullptr;
}

// Links `node` by node->expires. Returns true when it is the new earliest.
inline bool timerqueue_add(timerqueue_head *head, timerqueue_node *node)
{
	rb_node **link = &head->rb_root.root.node, *parent = nullptr;
	bool leftmost = true;
	std::uint64_t depth = 0;

	while (*link) {
		parent = *link;
		depth++;
		if (node->expires < timerqueue_node_of(parent)->expires) {
			link = &parent->left;
		} else {
			link = &parent->right;
			leftmost = false;
		}
	}
	head->costs.adds++;
	head->costs.comparisons += depth;
	head->costs.depth_sum += depth;
	if (depth > head->costs.max_depth)
		head->costs.max_depth = depth;
	rb_link_node(&node->node, parent, link);
	rb_insert_color_cached(&node->node, &head->rb_root, leftmost);
	return leftmost;
}

// Unlinks `node` and marks it out of any queue. Returns true when the
// queue still holds a timer.
inline bool timerqueue_del(timerqueue_head *head, timerqueue_node *node)
{
	rb_erase_cached(&node->node, &head->rb_root);
	RB_CLEAR_NODE(&node->node);
	head->costs.dels++;
	return !RB_EMPTY_ROOT(&head->rb_root.root);
}

inline timerqueue_node *timerqueue_getnext(const timerqueue_head *head)
{
	return timerqueue_node_of(rb_first_cached(&head->rb_root));
}

inline timerqueue_node *timerqueue_iterate_next(timerqueue_node *node)
{
	return timerqueue_node_of(rb_next(&node->node));
}

// ---- the linked variant (2026) -----------------------------------------------

struct timerqueue_linked_node {
	rb_node node;
	timerqueue_linked_node *prev;	// in-order neighbours; null at the ends
	timerqueue_linked_node *next;
	ktime_t expires;
};

struct timerqueue_linked_head {
	rb_root_cached rb_root;
	timerqueue_costs costs;
};

inline void timerqueue_linked_init_head(timerqueue_linked_head *head)
{
	rb_root_cached_init(&head->rb_root);
	head->costs = timerqueue_costs{};
}

inline void timerqueue_linked_init(timerqueue_linked_node *node)
{
	RB_CLEAR_NODE(&node->node);
	node->prev = node->next = nullptr;
}

inline bool timerqueue_linked_queued(const timerqueue_linked_node *node) { return !RB_EMPTY_NODE(&node->node); }

inline timerqueue_linked_node *timerqueue_linked_of(rb_node *n)
{
	return n ? reinterpret_cast<timerqueue_linked_node *>(reinterpret_cast<char *>(n) -
							       offsetof(timerqueue_linked_node, node))
		 : nullptr;
}

inline timerqueue_linked_node *timerqueue_linked_first(const timerqueue_linked_head *head)
{
	return timerqueue_linked_of(rb_first_cached(&head->rb_root));
}

// As timerqueue_add; the neighbours come from where the walk ended: a left
// child sits just before its parent, a right child just after it.
inline bool timerqueue_linked_add(timerqueue_linked_head *head, timerqueue_linked_node *node)
{
	rb_node **link = &head->rb_root.root.node, *parent = nullptr;
	bool leftmost = true, went_left = false;
	std::uint64_t depth = 0;

	while (*link) {
		parent = *link;
		depth++;
		went_left = node->expires < timerqueue_linked_of(parent)->expires;
		if (went_left) {
			link = &parent->left;
		} else {
			link = &parent->right;
			leftmost = false;
		}
	}
	head->costs.adds++;
	head->costs.comparisons += depth;
	head->costs.depth_sum += depth;
	if (depth > head->costs.max_depth)
		head->costs.max_depth = depth;

	timerqueue_linked_node *p = timerqueue_linked_of(parent);
	if (!p) {
		node->prev = node->next = nullptr;
	} else if (went_left) {
		node->next = p;
		node->prev = p->prev;
	} else {
		node->prev = p;
		node->next = p->next;
	}
	if (node->prev)
		node->prev->next = node;
	if (node->next)
		node->next->prev = node;
	rb_link_node(&node->node, parent, link);
	rb_insert_color_cached(&node->node, &head->rb_root, leftmost);
	return leftmost;
}

inline bool timerqueue_linked_del(timerqueue_linked_head *head, timerqueue_linked_node *node)
{
	// The leftmost's successor is its next link: no climb through the tree.
	if (head->rb_root.leftmost == &node->node)
		head->rb_root.leftmost = node->next ? &node->next->node : nullptr;
	rb_erase(&node->node, &head->rb_root.root);
	if (node->prev)
		node->prev->next = node->next;
	if (node->next)
		node->next->prev = node->prev;
	timerqueue_linked_init(node);
	head->costs.dels++;
	return !RB_EMPTY_ROOT(&head->rb_root.root);
}

// hrtimer_can_update_in_place() (2026): the new expiry keeps the node's
// place when it is not after the next node's and not before the previous
// node's. (Equal to the next one's: it stays in front of it, where an
// erase and insert would have put it behind.)
inline bool timerqueue_linked_can_update_in_place(const timerqueue_linked_node *node, ktime_t expires)
{
	if (node->next && expires > node->next->expires)
		return false;
	if (!node->prev)
		return true;
	return expires >= node->prev->expires;
}

}  // namespace kernel
