// `sorted-list` and `list`: Varghese & Lauck's schemes 2 and 1, one
// doubly linked list per base, linked through each timer (intrusive).
//
// sorted-list (scheme 2): kept in due order. A start walks from the tail
// (recent starts tend to expire last) to the last timer due no later, so
// timers due in the same jiffy stay in start order; the tick only looks at
// the head.
//
// list (scheme 1): unordered; a start appends. Every tick scans the whole
// list for timers due (PER_TICK_BOOKKEEPING). The scan's cost is counted
// for every tick the list is not empty; the simulator itself only scans
// at jiffies where something can be due (no earlier than the least due
// value seen, a lower bound kept on start and refreshed by each scan),
// and counts the ticks before it in one step - same expiries, same
// counts, less waiting.
//
// Neither list is linked here: both keep their order in a rank treap
// (below), and the walks and scans the model makes are counted from it,
// not made - thousands of nodes per start or scan on a real machine's
// trace, where the simulator would pay the model's price.
//
// Cost units:
//                    sorted-list                    list
//   insertions       starts                         starts
//   removals         cancels, re-arms, expiries     cancels, re-arms, expiries
//   relinks          0                              0
//   slot_visits      nodes passed by a start's      nodes scanned: the list's
//                    walk; one head look per        length, every tick it is
//                    jiffy with expiries            not empty
//   key_comparisons  due comparisons of the walk    one per node scanned
//                    and of the head look
//
// Ticks reported: sorted-list, each jiffy with expiries; list, each jiffy
// at which the list is not empty.
#include <algorithm>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "sim/scheme/factories.h"
#include "sim/scheme/params.h"
#include "sim/scheme/per_cpu_scheme.h"
#include "sim/scheme/rank_treap.h"

namespace timersim {

namespace {

// What a list's memory is in the model: two links and a flag per timer,
// a head, a tail and a count per base.
struct modelled_list {
	static constexpr std::size_t per_timer = 2 * sizeof(timer_id) + 1;
	static constexpr std::size_t per_base = 2 * sizeof(timer_id) + sizeof(std::uint64_t);
};

// Both lists' order is (due, start order) - the sorted list's by
// construction, and the unsorted list fires the due ones in the order
// they were appended - so both keep it in a rank_treap
// (sim/scheme/rank_treap.h), and count the walks and scans their model
// makes instead of making them: the model's O(n) is the simulator's
// O(log n) per timer.
class treap_list_scheme : public per_cpu_scheme {
public:
	using per_cpu_scheme::per_cpu_scheme;

	std::string check() const override
	{
		for (unsigned cpu = 0; cpu < roots_.size(); cpu++) {
			timer_id root = roots_[cpu];
			if (!order_.consistent(root))
				return "base " + std::to_string(cpu) + ": the list's order tree is broken";
			std::string why;
			timer_id prev = rank_treap::none;
			order_.each(root, [&](timer_id t) {
				const record &r = rec_of(t);
				if (!r.pending || r.cpu != cpu)
					why = "timer " + std::to_string(t) + " listed but not pending here";
				else if (order_.due(t) != r.due)
					why = "timer " + std::to_string(t) + " listed at another due";
				else if (prev != rank_treap::none && order_.due(prev) > r.due)
					why = "out of order at timer " + std::to_string(t);
				prev = t;
				return why.empty();
			});
			if (!why.empty())
				return why;
			if (order_.size(root) != pending_on(cpu))
				return "base " + std::to_string(cpu) + " lists " + std::to_string(order_.size(root)) +
				       " timers for " + std::to_string(pending_on(cpu)) + " pending";
		}
		return "";
	}

protected:
	void reset_bases(unsigned ncpus, jiffies_t) override
	{
		roots_.assign(ncpus, rank_treap::none);
		order_ = {};
		timers_ = 0;
	}

	void timers_grew(std::size_t n) override
	{
		order_.grow(n);
		timers_ = n;
	}

	void unlink(unsigned cpu, timer_id t) override { order_.erase(roots_[cpu], t); }

	std::uint64_t peak_structure_bytes() const override
	{
		return timers_ * modelled_list::per_timer + roots_.size() * modelled_list::per_base;
	}

	std::vector<timer_id> roots_;
	rank_treap order_;
	std::size_t timers_ = 0;
};

// The list's order is kept in a rank_treap (sim/scheme/rank_treap.h): the
// walk a start makes is counted, not made (the model's O(n) is the
// simulator's O(log n)); the head is the treap's first.
class sorted_list_scheme final : public treap_list_scheme {
public:
	explicit sorted_list_scheme(const scheme_options &opt) : treap_list_scheme("sorted-list", opt, {}) {}

	std::string superlinear_note() const override
	{
		return "a start walks the sorted list: O(n) in the timers pending";
	}

private:
	jiffies_t next_fire(unsigned cpu) const override
	{
		timer_id head = order_.first(roots_[cpu]);
		return head == rank_treap::none ? ~jiffies_t{0} : rec_of(head).due;
	}

	// The model walks from the tail past every timer due later, and
	// compares once more with the one it stops at (when there is one).
	void link(unsigned cpu, timer_id t, jiffies_t due, std::uint32_t) override
	{
		timer_id &root = roots_[cpu];
		std::uint64_t passed = order_.due_after(root, due);
		std::uint64_t walk = passed + (passed < order_.size(root) ? 1 : 0);
		costs_.slot_visits += walk;
		costs_.key_comparisons += walk;
		order_.insert(root, t, due);
		enqueued(t, 0);
	}

	// The tick looks at the head.
	void run(unsigned cpu, jiffies_t upto) override
	{
		timer_id &root = roots_[cpu];
		for (timer_id head; (head = order_.first(root)) != rank_treap::none && rec_of(head).due <= upto;) {
			jiffies_t jiffy = rec_of(head).due;
			tick(cpu, jiffy);
			costs_.slot_visits++;
			while ((head = order_.first(root)) != rank_treap::none) {
				costs_.key_comparisons++;
				if (rec_of(head).due != jiffy)
					break;
				order_.erase(root, head);
				fire(cpu, head, jiffy);
			}
		}
	}
};

class list_scheme final : public treap_list_scheme {
public:
	explicit list_scheme(const scheme_options &opt) : treap_list_scheme("list", opt, {}) {}

	std::string superlinear_note() const override
	{
		return "every jiffy at which a timer can be due scans the whole list: O(n) in the timers pending";
	}

private:
	jiffies_t next_fire(unsigned cpu) const override { return least_due_[cpu]; }

	void reset_bases(unsigned ncpus, jiffies_t start) override
	{
		treap_list_scheme::reset_bases(ncpus, start);
		least_due_.assign(ncpus, std::numeric_limits<jiffies_t>::max());
	}

	// Appended at the tail.
	void link(unsigned cpu, timer_id t, jiffies_t due, std::uint32_t) override
	{
		order_.insert(roots_[cpu], t, due);
		least_due_[cpu] = std::min(least_due_[cpu], due);
		enqueued(t, 0);
	}

	void run(unsigned cpu, jiffies_t upto) override
	{
		timer_id &root = roots_[cpu];
		jiffies_t jiffy = clock(cpu);

		while (jiffy <= upto && order_.size(root)) {
			const std::uint64_t n = order_.size(root);
			// Ticks before anything can be due: each scans the list,
			// which finds nothing: counted in one step.
			jiffies_t scan_at = std::min(std::max(least_due_[cpu], jiffy), upto);
			if (stepping()) {
				for (; jiffy < scan_at; jiffy++)
					quiet_tick(cpu, jiffy, n);
			} else if (jiffy < scan_at) {
				idle_ticks(cpu, jiffy, scan_at - jiffy);
				costs_.slot_visits += (scan_at - jiffy) * n;
				costs_.key_comparisons += (scan_at - jiffy) * n;
				costs_.skipped_idle += 2 * (scan_at - jiffy) * n;
				jiffy = scan_at;
			}
			// The scan: every timer due by now fires, in list (start)
			// order; the least due of the rest is where the next scan
			// can find something.
			quiet_tick(cpu, jiffy, n);
			due_now_.clear();
			for (timer_id t; (t = order_.first(root)) != rank_treap::none && order_.due(t) <= jiffy;) {
				order_.erase(root, t);
				due_now_.push_back(t);
			}
			std::sort(due_now_.begin(), due_now_.end(),
				  [this](timer_id a, timer_id b) { return order_.seq(a) < order_.seq(b); });
			for (timer_id t : due_now_)
				fire(cpu, t, jiffy);
			timer_id least = order_.first(root);
			least_due_[cpu] = least == rank_treap::none ? std::numeric_limits<jiffies_t>::max()
								    : order_.due(least);
			jiffy++;
		}
	}

	void quiet_tick(unsigned cpu, jiffies_t jiffy, std::uint64_t n)
	{
		tick(cpu, jiffy);
		costs_.slot_visits += n;
		costs_.key_comparisons += n;
	}

	std::vector<jiffies_t> least_due_;
	std::vector<timer_id> due_now_;
};

}  // namespace

std::unique_ptr<reported_scheme> make_sorted_list_scheme(const scheme_options &opt)
{
	resolve_params("sorted-list", {}, opt.params);
	return std::make_unique<sorted_list_scheme>(opt);
}

std::unique_ptr<reported_scheme> make_list_scheme(const scheme_options &opt)
{
	resolve_params("list", {}, opt.params);
	return std::make_unique<list_scheme>(opt);
}

}  // namespace timersim
