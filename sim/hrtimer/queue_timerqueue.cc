// `timerqueue` and `linked`: the kernel's own queues (kernel/timerqueue.h)
// behind the design interface. A re-arm of a queued timer is an erase and
// an insert in `timerqueue` (as hrtimer_start_range_ns() does up to 2026);
// `linked` first asks whether the new expiry still lies between the timer's
// neighbours and then only writes it (2026).
#include <memory>
#include <vector>

#include "kernel/timerqueue.h"
#include "sim/hrtimer/queue_design.h"
#include "sim/hrtimer/queue_factories.h"

namespace timersim::hrq {

namespace {

queue_costs from_kernel(const kernel::timerqueue_costs &k, std::uint64_t rotations)
{
	queue_costs c;
	c.insertions = k.adds;
	c.removals = k.dels;
	c.in_place = k.in_place;
	c.comparisons = k.comparisons;
	c.depth = k.depth_sum;
	c.max_depth = k.max_depth;
	c.rotations = rotations;
	return c;
}

class timerqueue_design final : public queue_design {
	kernel::timerqueue_head head_;
	std::vector<kernel::timerqueue_node> nodes_;
	std::size_t size_ = 0;

public:
	std::string name() const override { return "timerqueue"; }
	void reset(std::size_t capacity, ktime) override
	{
		kernel::timerqueue_init_head(&head_);
		nodes_.assign(capacity, kernel::timerqueue_node{});
		for (auto &n : nodes_)
			kernel::timerqueue_init(&n);
		size_ = 0;
	}
	bool arm(qid t, ktime expires) override
	{
		remove(t);
		nodes_[t].expires = expires;
		size_++;
		return kernel::timerqueue_add(&head_, &nodes_[t]);
	}
	bool remove(qid t) override
	{
		if (!queued(t))
			return false;
		kernel::timerqueue_del(&head_, &nodes_[t]);
		size_--;
		return true;
	}
	bool queued(qid t) const override { return kernel::timerqueue_node_queued(&nodes_[t]); }
	bool first(qid *t, ktime *expires) override
	{
		kernel::timerqueue_node *n = kernel::timerqueue_getnext(&head_);
		if (!n)
			return false;
		*t = static_cast<qid>(n - nodes_.data());
		*expires = n->expires;
		return true;
	}
	std::size_t size() const override { return size_; }
	queue_costs costs() const override { return from_kernel(head_.costs, head_.rb_root.root.rotations); }
};

class linked_design final : public queue_design {
	kernel::timerqueue_linked_head head_;
	std::vector<kernel::timerqueue_linked_node> nodes_;
	std::size_t size_ = 0;

public:
	std::string name() const override { return "linked"; }
	void reset(std::size_t capacity, ktime) override
	{
		kernel::timerqueue_linked_init_head(&head_);
		nodes_.assign(capacity, kernel::timerqueue_linked_node{});
		for (auto &n : nodes_)
			kernel::timerqueue_linked_init(&n);
		size_ = 0;
	}
	bool arm(qid t, ktime expires) override
	{
		kernel::timerqueue_linked_node *n = &nodes_[t];
		if (queued(t)) {
			// Two neighbour comparisons, at most, decide it.
			head_.costs.comparisons += (n->next ? 1 : 0) + (n->prev ? 1 : 0);
			if (kernel::timerqueue_linked_can_update_in_place(n, expires)) {
				n->expires = expires;
				head_.costs.in_place++;
				return n->prev == nullptr;
			}
			remove(t);
		}
		n->expires = expires;
		size_++;
		return kernel::timerqueue_linked_add(&head_, n);
	}
	bool remove(qid t) override
	{
		if (!queued(t))
			return false;
		kernel::timerqueue_linked_del(&head_, &nodes_[t]);
		size_--;
		return true;
	}
	bool queued(qid t) const override { return kernel::timerqueue_linked_queued(&nodes_[t]); }
	bool first(qid *t, ktime *expires) override
	{
		kernel::timerqueue_linked_node *n = kernel::timerqueue_linked_first(&head_);
		if (!n)
			return false;
		*t = static_cast<qid>(n - nodes_.data());
		*expires = n->expires;
		return true;
	}
	std::size_t size() const override { return size_; }
	queue_costs costs() const override { return from_kernel(head_.costs, head_.rb_root.root.rotations); }
};

}  // namespace

std::unique_ptr<queue_design> make_timerqueue_design() { return std::make_unique<timerqueue_design>(); }
std::unique_ptr<queue_design> make_linked_design() { return std::make_unique<linked_design>(); }

}  // namespace timersim::hrq
