// The hrtimer model's invariants, for tests to call after any operation
// (after William Ahern's timeouts_check(), like kernel/classic_check.h):
//
// - Each clock base's tree is a red-black tree: parent links agree with
//   child links, the root is black, no red node has a red child, every
//   path has the same black height, and an in-order walk never goes back
//   in expiry. The cached leftmost is the tree's first node.
// - Every node in a base's tree is a timer in state ENQUEUED whose base is
//   this one, with softexpires <= expires, soft exactly on the _SOFT bases;
//   a base's bit in active_bases is set exactly when its tree holds a timer.
// - expires_next is no later than the first expiry over the bases (the
//   soft ones too unless their softirq is raised): a timer the device does
//   not wait for would run late. (It may be earlier: a timer removed on
//   another CPU leaves it so, and that CPU's interrupt finds nothing.)
//   softirq_expires_next likewise for the soft bases.
// - In high resolution mode, outside a hang, the device was last asked for
//   expires_next (stopped when that is KTIME_MAX).
// Call it outside the interrupt and the softirq.
#pragma once

#include <cstdint>

#include "kernel/hrtimer.h"

namespace kernel::hr {

enum class hrtimer_fault {
	none,
	broken_links,		// a child's parent pointer is not its parent
	red_root,
	red_red,		// a red node with a red child
	black_height,		// two paths with different black counts
	out_of_order,		// in-order expiries go back
	stale_leftmost,		// the cached leftmost is not the first node
	bad_state,		// a queued timer not ENQUEUED, or on another base
	bad_range,		// softexpires after expires
	wrong_kind,		// a soft timer on a hard base or the other way
	active_bits,		// active_bases disagrees with the trees
	expires_next_late,	// after a queued timer's expiry
	softirq_next_late,	// after a queued soft timer's expiry
	device_mismatch,	// the device is not set for expires_next
};

struct hrtimer_check_result {
	hrtimer_fault fault = hrtimer_fault::none;
	unsigned base = 0;			// the clock base where it was found
	const hrtimer *timer = nullptr;
	std::uint64_t queued = 0;		// timers found over every base
	unsigned max_depth = 0;			// the deepest node (root = 0)
	explicit operator bool() const { return fault == hrtimer_fault::none; }
};

namespace check_detail {

inline const hrtimer *timer_at(const rb_node *n)
{
	return reinterpret_cast<const hrtimer *>(reinterpret_cast<const char *>(n) - offsetof(hrtimer, node) -
						 offsetof(timerqueue_node, node));
}

// Black height of the subtree at `n` (nil leaves count 1), or -1 with
// r.fault set. Walks recursively: depth is bounded by 2 log2(n + 1).
inline int subtree_check(const rb_node *n, const rb_node *parent, unsigned depth, hrtimer_check_result &r)
{
	if (!n)
		return 1;
	if (n->parent != parent) {
		r.fault = hrtimer_fault::broken_links;
		r.timer = timer_at(n);
		return -1;
	}
	if (depth > r.max_depth)
		r.max_depth = depth;
	if (n->colour == RB_RED && ((n->left && n->left->colour == RB_RED) ||
				    (n->right && n->right->colour == RB_RED))) {
		r.fault = hrtimer_fault::red_red;
		r.timer = timer_at(n);
		return -1;
	}
	const int lh = subtree_check(n->left, n, depth + 1, r);
	if (lh < 0)
		return -1;
	const int rh = subtree_check(n->right, n, depth + 1, r);
	if (rh < 0)
		return -1;
	if (lh != rh) {
		r.fault = hrtimer_fault::black_height;
		r.timer = timer_at(n);
		return -1;
	}
	return lh + (n->colour == RB_BLACK ? 1 : 0);
}

}  // namespace check_detail

// The red-black rules and order of one timerqueue (no hrtimer rules): for
// the rbtree's own tests. The nodes must be timerqueue_nodes.
inline hrtimer_fault timerqueue_check(const timerqueue_head &head, std::uint64_t *count = nullptr,
				      unsigned *max_depth = nullptr)
{
	hrtimer_check_result r;
	const rb_node *root = head.rb_root.root.node;
	std::uint64_t n = 0;

	if (root && root->colour != RB_BLACK)
		return hrtimer_fault::red_root;
	if (check_detail::subtree_check(root, nullptr, 0, r) < 0)
		return r.fault;
	if (head.rb_root.leftmost != rb_first(&head.rb_root.root))
		return hrtimer_fault::stale_leftmost;
	const rb_node *prev = nullptr;
	for (const rb_node *it = rb_first(&head.rb_root.root); it; prev = it, it = rb_next(it), n++) {
		const timerqueue_node *tn = timerqueue_node_of(const_cast<rb_node *>(it));
		if (prev && tn->expires < timerqueue_node_of(const_cast<rb_node *>(prev))->expires)
			return hrtimer_fault::out_of_order;
	}
	if (count)
		*count = n;
	if (max_depth)
		*max_depth = r.max_depth;
	return hrtimer_fault::none;
}

inline hrtimer_check_result hrtimer_check(const hrtimer_cpu_base &cpu_base)
{
	hrtimer_check_result r;
	ktime_t min_all = KTIME_MAX, min_soft = KTIME_MAX;

	for (unsigned idx = 0; idx < HRTIMER_MAX_CLOCK_BASES; idx++) {
		const hrtimer_clock_base &base = cpu_base.clock_base[idx];
		const rb_node *root = base.active.rb_root.root.node;
		r.base = idx;
		if (root && root->colour != RB_BLACK) {
			r.fault = hrtimer_fault::red_root;
			return r;
		}
		if (check_detail::subtree_check(root, nullptr, 0, r) < 0)
			return r;
		if (base.active.rb_root.leftmost != rb_first(&base.active.rb_root.root)) {
			r.fault = hrtimer_fault::stale_leftmost;
			return r;
		}
		if (((cpu_base.active_bases >> idx) & 1u) != (root != nullptr)) {
			r.fault = hrtimer_fault::active_bits;
			return r;
		}
		const hrtimer *prev = nullptr;
		for (const rb_node *it = rb_first(&base.active.rb_root.root); it; it = rb_next(it)) {
			const hrtimer *t = check_detail::timer_at(it);
			r.timer = t;
			if (prev && hrtimer_get_expires(t) < hrtimer_get_expires(prev)) {
				r.fault = hrtimer_fault::out_of_order;
				return r;
			}
			if (t->state != HRTIMER_STATE_ENQUEUED || t->base != &base) {
				r.fault = hrtimer_fault::bad_state;
				return r;
			}
			if (t->softexpires > hrtimer_get_expires(t)) {
				r.fault = hrtimer_fault::bad_range;
				return r;
			}
			if (t->is_soft != (idx >= HRTIMER_BASE_MONOTONIC_SOFT)) {
				r.fault = hrtimer_fault::wrong_kind;
				return r;
			}
			prev = t;
			r.queued++;
		}
		r.timer = nullptr;
		if (!root)
			continue;
		ktime_t first = hrtimer_get_expires(check_detail::timer_at(rb_first(&base.active.rb_root.root))) -
				base.offset;
		if (first < 0)
			first = 0;
		if (idx >= HRTIMER_BASE_MONOTONIC_SOFT) {
			if (first < min_soft)
				min_soft = first;
			if (cpu_base.softirq_activated)
				continue;
		}
		if (first < min_all)
			min_all = first;
	}
	r.base = 0;
	if (cpu_base.expires_next > min_all) {
		r.fault = hrtimer_fault::expires_next_late;
		return r;
	}
	if (!cpu_base.softirq_activated && cpu_base.softirq_expires_next > min_soft) {
		r.fault = hrtimer_fault::softirq_next_late;
		return r;
	}
	if (cpu_base.hres_active && !cpu_base.hang_detected) {
		const clock_event_device &dev = cpu_base.dev;
		const bool stopped_ok = cpu_base.expires_next == KTIME_MAX && dev.stopped && dev.next_event == KTIME_MAX;
		// Set for it, or (it had passed) forced to the minimum delta.
		const bool set_ok = cpu_base.expires_next != KTIME_MAX && !dev.stopped &&
				    (dev.next_event == cpu_base.expires_next ||
				     (dev.min_delta_programs && dev.next_event > cpu_base.expires_next));
		if (!stopped_ok && !set_ok && !(cpu_base.expires_next == KTIME_MAX && dev.programs == 0))
			r.fault = hrtimer_fault::device_mismatch;
	}
	return r;
}

inline const char *hrtimer_fault_name(hrtimer_fault f)
{
	switch (f) {
	case hrtimer_fault::none: return "none";
	case hrtimer_fault::broken_links: return "broken_links";
	case hrtimer_fault::red_root: return "red_root";
	case hrtimer_fault::red_red: return "red_red";
	case hrtimer_fault::black_height: return "black_height";
	case hrtimer_fault::out_of_order: return "out_of_order";
	case hrtimer_fault::stale_leftmost: return "stale_leftmost";
	case hrtimer_fault::bad_state: return "bad_state";
	case hrtimer_fault::bad_range: return "bad_range";
	case hrtimer_fault::wrong_kind: return "wrong_kind";
	case hrtimer_fault::active_bits: return "active_bits";
	case hrtimer_fault::expires_next_late: return "expires_next_late";
	case hrtimer_fault::softirq_next_late: return "softirq_next_late";
	case hrtimer_fault::device_mismatch: return "device_mismatch";
	}
	return "?";
}

}  // namespace kernel::hr
