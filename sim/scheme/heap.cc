// `heap` and `heap4`: a d-ary min-heap of timers per base, keyed by the
// jiffy each is due (ties by start order, so firing is FIFO within a
// jiffy). Every timer knows its position in the heap (libevent's
// min_heap_idx), so cancel and re-arm remove it in O(log n).
//
//   heap   binary heap: libevent, java.util.Timer / DelayQueue
//   heap4  4-ary heap: the Go runtime's per-P timer heap. Removal is real
//          (siftup/siftdown from the removed position, as Go 1.10-1.13's
//          deltimer did), not Go 1.14+'s lazy deletion (mark, skip at the
//          top): every scheme here keeps pending state exact at all times.
//
// Cost units:
//   insertions       starts (push)
//   removals         cancels, re-arms, expiries (pop or remove at index)
//   relinks          0
//   slot_visits      heap entries moved by a sift step
//   key_comparisons  (due, order) comparisons made by sifting
//
// A tick is reported for each jiffy at which timers fire: the heap's top
// says when the next one is, so no other jiffy is looked at.
#include <memory>
#include <string>
#include <vector>

#include "sim/scheme/factories.h"
#include "sim/scheme/params.h"
#include "sim/scheme/per_cpu_scheme.h"

namespace timersim {

namespace {

template <unsigned Arity>
class heap_scheme final : public per_cpu_scheme {
	struct entry {
		jiffies_t due;
		std::uint64_t order;
		timer_id t;
	};
	static constexpr std::uint32_t NOT_IN_HEAP = ~0u;

public:
	heap_scheme(const char *name, const scheme_options &opt)
		: per_cpu_scheme(name, opt, {integer_param("arity", Arity)})
	{
	}

private:
	void reset_bases(unsigned ncpus, jiffies_t) override
	{
		heaps_.assign(ncpus, {});
		pos_.clear();
		peak_entries_ = 0;
		order_ = 0;
	}

	void timers_grew(std::size_t n) override { pos_.resize(n, NOT_IN_HEAP); }

	void link(unsigned cpu, timer_id t, jiffies_t due, std::uint32_t) override
	{
		auto &h = heaps_[cpu];
		h.push_back({due, order_++, t});
		pos_[t] = static_cast<std::uint32_t>(h.size() - 1);
		sift_up(h, h.size() - 1);
		enqueued(t, 0);
		live_++;
		peak_entries_ = std::max(peak_entries_, live_);
	}

	void unlink(unsigned cpu, timer_id t) override
	{
		remove_at(heaps_[cpu], pos_[t]);
		live_--;
	}

	void run(unsigned cpu, jiffies_t upto) override
	{
		auto &h = heaps_[cpu];
		while (!h.empty() && h[0].due <= upto) {
			jiffies_t jiffy = h[0].due;
			tick(cpu, jiffy);
			while (!h.empty() && h[0].due == jiffy) {
				timer_id t = h[0].t;
				remove_at(h, 0);
				live_--;
				fire(cpu, t, jiffy);
			}
		}
	}

	std::uint64_t peak_structure_bytes() const override
	{
		return peak_entries_ * sizeof(entry) + pos_.size() * sizeof(std::uint32_t);
	}

	jiffies_t next_fire(unsigned cpu) const override
	{
		return heaps_[cpu].empty() ? ~jiffies_t{0} : heaps_[cpu][0].due;
	}

public:
	std::string check() const override
	{
		for (unsigned cpu = 0; cpu < heaps_.size(); cpu++) {
			const auto &h = heaps_[cpu];
			for (std::size_t i = 0; i < h.size(); i++) {
				const entry &e = h[i];
				if (pos_[e.t] != i)
					return "timer " + std::to_string(e.t) + " at " + std::to_string(i) +
					       " has index " + std::to_string(pos_[e.t]);
				if (!rec_of(e.t).pending || rec_of(e.t).cpu != cpu || rec_of(e.t).due != e.due)
					return "timer " + std::to_string(e.t) + " is not pending here at its due";
				if (i > 0) {
					const entry &p = h[(i - 1) / Arity];
					if (e.due < p.due || (e.due == p.due && e.order < p.order))
						return "heap order broken at " + std::to_string(i);
				}
			}
			if (h.size() != pending_on(cpu))
				return "base " + std::to_string(cpu) + " holds " + std::to_string(h.size()) +
				       " entries for " + std::to_string(pending_on(cpu)) + " pending timers";
		}
		for (std::size_t t = 0; t < timer_slots(); t++)
			if (!rec_of(static_cast<timer_id>(t)).pending && pos_[t] != NOT_IN_HEAP)
				return "timer " + std::to_string(t) + " not pending but indexed";
		return "";
	}

private:
	bool less(const entry &a, const entry &b)
	{
		costs_.key_comparisons++;
		return a.due < b.due || (a.due == b.due && a.order < b.order);
	}

	void place(std::vector<entry> &h, std::size_t i, const entry &e)
	{
		h[i] = e;
		pos_[e.t] = static_cast<std::uint32_t>(i);
		costs_.slot_visits++;
	}

	void sift_up(std::vector<entry> &h, std::size_t i)
	{
		entry e = h[i];
		while (i > 0) {
			std::size_t parent = (i - 1) / Arity;
			if (!less(e, h[parent]))
				break;
			place(h, i, h[parent]);
			i = parent;
		}
		place(h, i, e);
	}

	void sift_down(std::vector<entry> &h, std::size_t i)
	{
		entry e = h[i];
		for (;;) {
			std::size_t first = i * Arity + 1;
			if (first >= h.size())
				break;
			std::size_t best = first;
			for (std::size_t c = first + 1; c < first + Arity && c < h.size(); c++)
				if (less(h[c], h[best]))
					best = c;
			if (!less(h[best], e))
				break;
			place(h, i, h[best]);
			i = best;
		}
		place(h, i, e);
	}

	void remove_at(std::vector<entry> &h, std::size_t i)
	{
		pos_[h[i].t] = NOT_IN_HEAP;
		std::size_t last = h.size() - 1;
		if (i != last) {
			h[i] = h[last];
			pos_[h[i].t] = static_cast<std::uint32_t>(i);
			h.pop_back();
			if (i > 0 && less(h[i], h[(i - 1) / Arity]))
				sift_up(h, i);
			else
				sift_down(h, i);
		} else {
			h.pop_back();
		}
	}

	std::vector<std::vector<entry>> heaps_;
	std::vector<std::uint32_t> pos_;	// each timer's index in its base's heap
	std::uint64_t order_ = 0;
	std::uint64_t live_ = 0, peak_entries_ = 0;
};

}  // namespace

std::unique_ptr<reported_scheme> make_heap_scheme(const scheme_options &opt)
{
	resolve_params("heap", {}, opt.params);
	return std::make_unique<heap_scheme<2>>("heap", opt);
}

std::unique_ptr<reported_scheme> make_heap4_scheme(const scheme_options &opt)
{
	resolve_params("heap4", {}, opt.params);
	return std::make_unique<heap_scheme<4>>("heap4", opt);
}

}  // namespace timersim
