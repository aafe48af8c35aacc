// hrtimer queue designs: what a clock base could keep its timers in, behind
// one small interface (after ns-3's Scheduler, like sim/scheme/scheme.h), so
// that the same hrtimer stream replays through each and their costs compare
// side by side. The key is the hard expiry (the kernel's tree key); ranges
// (softexpires) stay with the hrtimer model (kernel/hrtimer.h), which only
// ever asks its queue for the first timer.
//
//   design        arm (new / re-arm)          remove     first
//   timerqueue    O(log n) rbtree, erase+add  O(log n)   O(1) cached leftmost
//   linked        O(1) in place when the      O(log n)   O(1)
//                 order holds, else as above
//   heap          O(log n) binary heap        O(log n)   O(1)
//   heap4         O(log n) 4-ary heap         O(log n)   O(1)
//   wheel         O(1) ns-resolution wheel,   O(1)       O(levels + slot);
//                 64 slots x 11 levels                   advance cascades
//
// Order: by expiry; equal expiries in the order they were armed (a re-arm
// counts as armed again) - what the kernel's tree gives, since an insert
// goes right of equal keys. One exception, the 2026 kernel's own: the
// linked timerqueue's in-place re-arm keeps the timer's place among equal
// expiries (it moves only when strictly past a neighbour).
//
// Cost units (queue_costs): insertions and removals of the structure,
// in-place re-arms, expiry comparisons, levels walked (depth), rotations
// (rbtrees), slots and bitmap words looked at, timers moved by cascades.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace timersim::hrq {

using ktime = std::int64_t;
using qid = std::uint32_t;	// dense timer number, 0 .. capacity - 1

struct queue_costs {
	std::uint64_t insertions = 0;
	std::uint64_t removals = 0;
	std::uint64_t in_place = 0;	// re-arms that moved nothing
	std::uint64_t comparisons = 0;
	std::uint64_t depth = 0;	// tree levels or heap levels walked
	std::uint64_t max_depth = 0;
	std::uint64_t rotations = 0;
	std::uint64_t slot_visits = 0;
	std::uint64_t cascades = 0;	// timers moved to a lower wheel level
};

class queue_design {
public:
	virtual ~queue_design() = default;
	virtual std::string name() const = 0;
	// Empties the queue for timers 0 .. capacity - 1, its clock at `now`.
	virtual void reset(std::size_t capacity, ktime now) = 0;
	// (Re)arms t to expire at `expires`: a queued t is moved. Returns true
	// when t is now the first timer (hrtimer's "reprogram" question).
	virtual bool arm(qid t, ktime expires) = 0;
	// Removes t; returns true if it was queued.
	virtual bool remove(qid t) = 0;
	virtual bool queued(qid t) const = 0;
	// The first timer and its expiry; false when empty.
	virtual bool first(qid *t, ktime *expires) = 0;
	// The queue's clock moves on to `now`; nothing due by then is queued
	// any more (expire_due() removed it). A wheel cascades here.
	virtual void advance(ktime now) { (void)now; }
	virtual std::size_t size() const = 0;
	virtual queue_costs costs() const = 0;
};

// Removes and hands to `expired(t, expires)` every timer due by `now`, in
// order, then moves the queue's clock to `now`.
template <class Fn>
std::size_t expire_due(queue_design &q, ktime now, Fn &&expired)
{
	std::size_t n = 0;
	qid t;
	ktime e;
	while (q.first(&t, &e) && e <= now) {
		q.remove(t);
		expired(t, e);
		n++;
	}
	q.advance(now);
	return n;
}

// The designs by name (queue_design_names()); null for an unknown name.
std::unique_ptr<queue_design> make_queue_design(const std::string &name);
const std::vector<std::string> &queue_design_names();

}  // namespace timersim::hrq
