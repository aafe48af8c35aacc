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
// for every tick the list is not empty; the simulator itself only walks
// the list at jiffies where something can be due (no earlier than the
// least due value seen, a lower bound kept on start and refreshed by each
// walk), and counts the ticks before it in one step - same expiries, same
// counts, less waiting.
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

constexpr timer_id NIL = std::numeric_limits<timer_id>::max();

// Intrusive list links, indexed by timer id; each base has a head and tail.
class list_links {
public:
	struct base_list {
		timer_id head = NIL, tail = NIL;
		std::uint64_t size = 0;
	};

	void grow(std::size_t n)
	{
		next_.resize(n, NIL);
		prev_.resize(n, NIL);
		linked_.resize(n, false);
	}

	timer_id next(timer_id t) const { return next_[t]; }
	timer_id prev(timer_id t) const { return prev_[t]; }
	bool linked(timer_id t) const { return linked_[t]; }

	// Insert t after `at` (NIL: at the head).
	void insert_after(base_list &l, timer_id at, timer_id t)
	{
		timer_id n = at == NIL ? l.head : next_[at];
		prev_[t] = at;
		next_[t] = n;
		if (at == NIL)
			l.head = t;
		else
			next_[at] = t;
		if (n == NIL)
			l.tail = t;
		else
			prev_[n] = t;
		linked_[t] = true;
		l.size++;
	}

	void remove(base_list &l, timer_id t)
	{
		timer_id p = prev_[t], n = next_[t];
		if (p == NIL)
			l.head = n;
		else
			next_[p] = n;
		if (n == NIL)
			l.tail = p;
		else
			prev_[n] = p;
		next_[t] = prev_[t] = NIL;
		linked_[t] = false;
		l.size--;
	}

	std::uint64_t bytes() const { return next_.size() * (2 * sizeof(timer_id) + 1); }

private:
	std::vector<timer_id> next_, prev_;
	std::vector<bool> linked_;
};

class list_scheme_base : public per_cpu_scheme {
public:
	using per_cpu_scheme::per_cpu_scheme;

	std::string check() const override
	{
		for (unsigned cpu = 0; cpu < lists_.size(); cpu++) {
			const auto &l = lists_[cpu];
			std::uint64_t n = 0;
			timer_id prev = NIL;
			for (timer_id t = l.head; t != NIL; prev = t, t = links_.next(t), n++) {
				if (links_.prev(t) != prev)
					return "broken back link at timer " + std::to_string(t);
				const record &r = rec_of(t);
				if (!r.pending || r.cpu != cpu)
					return "timer " + std::to_string(t) + " listed but not pending here";
				if (sorted() && prev != NIL && rec_of(prev).due > r.due)
					return "out of order at timer " + std::to_string(t);
				if (n > l.size)
					return "list longer than its count";
			}
			if (l.tail != prev || n != l.size || n != pending_on(cpu))
				return "base " + std::to_string(cpu) + " lists " + std::to_string(n) +
				       " timers for " + std::to_string(pending_on(cpu)) + " pending";
		}
		return "";
	}

protected:
	virtual bool sorted() const = 0;

	void reset_bases(unsigned ncpus, jiffies_t) override
	{
		lists_.assign(ncpus, {});
		links_ = {};
		live_ = peak_ = 0;
	}

	void timers_grew(std::size_t n) override { links_.grow(n); }

	void unlink(unsigned cpu, timer_id t) override
	{
		links_.remove(lists_[cpu], t);
		live_--;
	}

	void counted_link() { peak_ = std::max(peak_, ++live_); }

	std::uint64_t peak_structure_bytes() const override
	{
		return links_.bytes() + lists_.size() * sizeof(list_links::base_list);
	}

	std::vector<list_links::base_list> lists_;
	list_links links_;
	std::uint64_t live_ = 0, peak_ = 0;
};

// The list's order is kept in a rank_treap (sim/scheme/rank_treap.h): the
// walk a start makes is counted, not made (the model's O(n) is the
// simulator's O(log n)); the head is the treap's first.
class sorted_list_scheme final : public per_cpu_scheme {
public:
	explicit sorted_list_scheme(const scheme_options &opt) : per_cpu_scheme("sorted-list", opt, {}) {}

	std::string superlinear_note() const override
	{
		return "a start walks the sorted list: O(n) in the timers pending";
	}

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

private:
	void reset_bases(unsigned ncpus, jiffies_t) override
	{
		roots_.assign(ncpus, rank_treap::none);
		order_ = {};
		timers_ = 0;
		live_ = peak_ = 0;
	}

	void timers_grew(std::size_t n) override
	{
		order_.grow(n);
		timers_ = n;
	}

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
		peak_ = std::max(peak_, ++live_);
		enqueued(t, 0);
	}

	void unlink(unsigned cpu, timer_id t) override
	{
		order_.erase(roots_[cpu], t);
		live_--;
	}

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
				live_--;
				fire(cpu, head, jiffy);
			}
		}
	}

	// The modelled list's memory: two links and a flag per timer, and a
	// head, tail and count per base (list_links's own figure).
	std::uint64_t peak_structure_bytes() const override
	{
		return timers_ * (2 * sizeof(timer_id) + 1) + roots_.size() * sizeof(list_links::base_list);
	}

	std::vector<timer_id> roots_;
	rank_treap order_;
	std::size_t timers_ = 0;
	std::uint64_t live_ = 0, peak_ = 0;
};

class list_scheme final : public list_scheme_base {
public:
	explicit list_scheme(const scheme_options &opt) : list_scheme_base("list", opt, {}) {}

	std::string superlinear_note() const override
	{
		return "every jiffy at which a timer can be due scans the whole list: O(n) in the timers pending";
	}

private:
	bool sorted() const override { return false; }

	jiffies_t next_fire(unsigned cpu) const override { return least_due_[cpu]; }

	void reset_bases(unsigned ncpus, jiffies_t start) override
	{
		list_scheme_base::reset_bases(ncpus, start);
		least_due_.assign(ncpus, std::numeric_limits<jiffies_t>::max());
	}

	void link(unsigned cpu, timer_id t, jiffies_t due, std::uint32_t) override
	{
		links_.insert_after(lists_[cpu], lists_[cpu].tail, t);
		least_due_[cpu] = std::min(least_due_[cpu], due);
		counted_link();
		enqueued(t, 0);
	}

	void run(unsigned cpu, jiffies_t upto) override
	{
		auto &l = lists_[cpu];
		jiffies_t jiffy = clock(cpu);

		while (jiffy <= upto && l.size) {
			// Ticks before anything can be due: each scans the list,
			// which finds nothing: counted in one step.
			jiffies_t scan_at = std::min(std::max(least_due_[cpu], jiffy), upto);
			if (stepping()) {
				for (; jiffy < scan_at; jiffy++)
					quiet_tick(cpu, jiffy, l.size);
			} else if (jiffy < scan_at) {
				idle_ticks(cpu, jiffy, scan_at - jiffy);
				costs_.slot_visits += (scan_at - jiffy) * l.size;
				costs_.key_comparisons += (scan_at - jiffy) * l.size;
				costs_.skipped_idle += 2 * (scan_at - jiffy) * l.size;
				jiffy = scan_at;
			}
			quiet_tick(cpu, jiffy, l.size);
			jiffies_t least = std::numeric_limits<jiffies_t>::max();
			for (timer_id t = l.head, n; t != NIL; t = n) {
				n = links_.next(t);
				jiffies_t due = rec_of(t).due;
				if (due <= jiffy) {
					links_.remove(l, t);
					live_--;
					fire(cpu, t, jiffy);
				} else if (due < least) {
					least = due;
				}
			}
			least_due_[cpu] = least;
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
