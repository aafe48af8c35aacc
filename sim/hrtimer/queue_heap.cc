// `heap` and `heap4`: a d-ary min-heap keyed by (expiry, arm order), each
// timer knowing its index (libevent's min_heap_idx), so that remove and
// re-arm sift from the timer's own place: O(log n), no lazy deletion.
// The binary heap is libevent's and Java's DelayQueue's; the 4-ary one the
// Go runtime's per-P timer heap (shallower, more comparisons per level).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/hrtimer/queue_design.h"
#include "sim/hrtimer/queue_factories.h"

namespace timersim::hrq {

namespace {

constexpr std::uint32_t NOT_QUEUED = ~0u;

template <unsigned Arity>
class heap_design final : public queue_design {
	struct entry {
		ktime expires;
		std::uint64_t order;
		qid t;
	};
	std::vector<entry> heap_;
	std::vector<std::uint32_t> pos_;	// index in heap_, or NOT_QUEUED
	std::uint64_t order_ = 0;
	queue_costs costs_;

	bool before(const entry &a, const entry &b)
	{
		costs_.comparisons++;
		return a.expires < b.expires || (a.expires == b.expires && a.order < b.order);
	}
	void place(std::uint32_t i, const entry &e)
	{
		heap_[i] = e;
		pos_[e.t] = i;
		costs_.slot_visits++;
	}
	void sift_up(std::uint32_t i)
	{
		entry e = heap_[i];
		std::uint64_t levels = 0;
		while (i > 0) {
			const std::uint32_t parent = (i - 1) / Arity;
			if (!before(e, heap_[parent]))
				break;
			place(i, heap_[parent]);
			i = parent;
			levels++;
		}
		place(i, e);
		note_depth(levels);
	}
	void sift_down(std::uint32_t i)
	{
		entry e = heap_[i];
		const std::uint32_t n = static_cast<std::uint32_t>(heap_.size());
		std::uint64_t levels = 0;
		for (;;) {
			const std::uint64_t first_child = std::uint64_t{i} * Arity + 1;
			if (first_child >= n)
				break;
			std::uint32_t best = static_cast<std::uint32_t>(first_child);
			for (std::uint32_t c = best + 1; c < first_child + Arity && c < n; c++)
				if (before(heap_[c], heap_[best]))
					best = c;
			if (!before(heap_[best], e))
				break;
			place(i, heap_[best]);
			i = best;
			levels++;
		}
		place(i, e);
		note_depth(levels);
	}
	void note_depth(std::uint64_t levels)
	{
		costs_.depth += levels;
		if (levels > costs_.max_depth)
			costs_.max_depth = levels;
	}
	// Moves the entry at i up or down to where it belongs.
	void fix(std::uint32_t i)
	{
		if (i > 0 && before(heap_[i], heap_[(i - 1) / Arity]))
			sift_up(i);
		else
			sift_down(i);
	}

public:
	std::string name() const override { return Arity == 2 ? "heap" : "heap4"; }
	void reset(std::size_t capacity, ktime) override
	{
		heap_.clear();
		heap_.reserve(capacity);
		pos_.assign(capacity, NOT_QUEUED);
		order_ = 0;
		costs_ = queue_costs{};
	}
	bool arm(qid t, ktime expires) override
	{
		const entry e{expires, ++order_, t};
		if (pos_[t] != NOT_QUEUED) {
			// In place in the array, then sifted: one removal and one insertion.
			costs_.removals++;
			costs_.insertions++;
			heap_[pos_[t]] = e;
			fix(pos_[t]);
		} else {
			costs_.insertions++;
			heap_.push_back(e);
			pos_[t] = static_cast<std::uint32_t>(heap_.size() - 1);
			sift_up(pos_[t]);
		}
		return pos_[t] == 0;
	}
	bool remove(qid t) override
	{
		const std::uint32_t i = pos_[t];
		if (i == NOT_QUEUED)
			return false;
		costs_.removals++;
		pos_[t] = NOT_QUEUED;
		const entry last = heap_.back();
		heap_.pop_back();
		if (i < heap_.size()) {
			heap_[i] = last;
			pos_[last.t] = i;
			fix(i);
		}
		return true;
	}
	bool queued(qid t) const override { return pos_[t] != NOT_QUEUED; }
	bool first(qid *t, ktime *expires) override
	{
		if (heap_.empty())
			return false;
		*t = heap_[0].t;
		*expires = heap_[0].expires;
		return true;
	}
	std::size_t size() const override { return heap_.size(); }
	queue_costs costs() const override { return costs_; }
};

}  // namespace

std::unique_ptr<queue_design> make_heap_design(unsigned arity)
{
	if (arity == 4)
		return std::make_unique<heap_design<4>>();
	return std::make_unique<heap_design<2>>();
}

}  // namespace timersim::hrq
