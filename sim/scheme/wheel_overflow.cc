// `wheel-overflow`: a basic single-level wheel of N slots per base (Varghese
// & Lauck's scheme 4, bounded to N jiffies ahead) with a sorted overflow
// list for timers beyond its range. Each tick first moves the overflow's
// head timers that have come within range into their slots (a relink),
// then runs the slot of the jiffy: every timer in it is due then, as a slot
// only ever holds timers less than N jiffies ahead.
//
// Parameter: slots=N (default 256).
// Levels: 1 the wheel, 2 the overflow list.
//
// Cost units:
//   insertions       starts (into a slot, or into the overflow list)
//   removals         cancels, re-arms, expiries
//   relinks          overflow timers moved into the wheel (moved from level 2)
//   slot_visits      one slot per tick; overflow nodes passed by a start's
//                    walk
//   key_comparisons  due comparisons: the overflow walk, and the overflow
//                    head looked at each tick
//
// A tick is reported for every jiffy while the base holds timers; a base
// with none does no work (it would find its slots empty). Jiffies before the
// next non-empty slot and the overflow head's migration are counted in one
// step.
//
// The overflow list is not linked here: its order (due, then start order)
// is kept in a rank treap (sim/scheme/rank_treap.h), as sorted-list's is,
// and the walk a start makes from its tail is counted, not made. With a
// million long timers re-armed every second the walk passes hundreds of
// thousands of nodes a start; the model pays that, the simulator pays
// O(log n) and counts the same units.
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

constexpr timer_id NIL = std::numeric_limits<timer_id>::max();
constexpr std::uint32_t IN_OVERFLOW = std::numeric_limits<std::uint32_t>::max();

class wheel_overflow_scheme final : public per_cpu_scheme {
	struct list {
		timer_id head = NIL, tail = NIL;
		std::uint64_t size = 0;
	};
	struct base {
		std::vector<list> slots;
		timer_id overflow = rank_treap::none;	// the root of its order
		std::uint64_t count = 0;
	};
	// The model's base, whose overflow is a list: what its memory is.
	struct modelled_base {
		std::vector<list> slots;
		list overflow;
		std::uint64_t count = 0;
	};

public:
	wheel_overflow_scheme(const scheme_options &opt, std::vector<scheme_param> p,
			      unsigned slots)
		: per_cpu_scheme("wheel-overflow", opt, std::move(p)), nslots_(slots)
	{
	}

	unsigned levels() const override { return 2; }
	std::string superlinear_note() const override
	{
		return "a start beyond the wheel walks the sorted overflow list: O(n) in the timers there";
	}
	std::string level_name(unsigned level) const override { return level == 1 ? "wheel" : "overflow"; }

	std::string check() const override
	{
		for (unsigned cpu = 0; cpu < bases_.size(); cpu++) {
			const base &b = bases_[cpu];
			std::uint64_t n = 0;
			for (unsigned s = 0; s < nslots_; s++) {
				std::string e = check_list(b.slots[s], cpu, s, n);
				if (!e.empty())
					return e;
			}
			std::string e = check_overflow(b.overflow, cpu, n);
			if (!e.empty())
				return e;
			if (n != b.count || n != pending_on(cpu))
				return "base " + std::to_string(cpu) + " holds " + std::to_string(n) + " for " +
				       std::to_string(pending_on(cpu)) + " pending";
		}
		return "";
	}

private:
	std::string check_list(const list &l, unsigned cpu, std::uint32_t slot, std::uint64_t &n) const
	{
		timer_id prev = NIL;
		std::uint64_t here = 0;
		for (timer_id t = l.head; t != NIL; prev = t, t = next_[t], here++) {
			const record &r = rec_of(t);
			if (prev_[t] != prev || where_[t] != slot)
				return "broken links at timer " + std::to_string(t);
			if (!r.pending || r.cpu != cpu)
				return "timer " + std::to_string(t) + " linked but not pending here";
			jiffies_t c = clock(cpu);
			if (r.due % nslots_ != slot || r.due < c || r.due - c >= nslots_) {
				return "timer " + std::to_string(t) + " due " + std::to_string(r.due) +
				       " in slot " + std::to_string(slot) + " at clock " + std::to_string(c);
			}
		}
		if (prev != l.tail || here != l.size)
			return "list count or tail wrong";
		n += here;
		return "";
	}

	std::string check_overflow(timer_id root, unsigned cpu, std::uint64_t &n) const
	{
		if (!overflow_.consistent(root))
			return "base " + std::to_string(cpu) + ": the overflow's order tree is broken";
		std::string why;
		timer_id prev = NIL;
		overflow_.each(root, [&](timer_id t) {
			const record &r = rec_of(t);
			if (where_[t] != IN_OVERFLOW)
				why = "timer " + std::to_string(t) + " in the overflow's order but not marked there";
			else if (!r.pending || r.cpu != cpu)
				why = "timer " + std::to_string(t) + " in the overflow but not pending here";
			else if (overflow_.due(t) != r.due)
				why = "timer " + std::to_string(t) + " in the overflow at another due";
			else if (prev != NIL && rec_of(prev).due > r.due)
				why = "overflow out of order at timer " + std::to_string(t);
			prev = t;
			return why.empty();
		});
		n += overflow_.size(root);
		return why;
	}

	void reset_bases(unsigned ncpus, jiffies_t) override
	{
		bases_.assign(ncpus, base{});
		for (auto &b : bases_)
			b.slots.assign(nslots_, list{});
		next_.clear();
		prev_.clear();
		where_.clear();
		overflow_ = {};
	}

	void timers_grew(std::size_t n) override
	{
		next_.resize(n, NIL);
		prev_.resize(n, NIL);
		where_.resize(n, 0);
		overflow_.grow(n);
	}

	void insert_after(list &l, timer_id at, timer_id t, std::uint32_t where)
	{
		timer_id n = at == NIL ? l.head : next_[at];
		prev_[t] = at;
		next_[t] = n;
		(at == NIL ? l.head : next_[at]) = t;
		(n == NIL ? l.tail : prev_[n]) = t;
		where_[t] = where;
		l.size++;
	}

	void remove(list &l, timer_id t)
	{
		timer_id p = prev_[t], n = next_[t];
		(p == NIL ? l.head : next_[p]) = n;
		(n == NIL ? l.tail : prev_[n]) = p;
		next_[t] = prev_[t] = NIL;
		l.size--;
	}

	// The overflow's head: its first in (due, start order).
	timer_id overflow_head(const base &b) const { return overflow_.first(b.overflow); }

	// Into the slot of its jiffy when within range of `now`, the next
	// jiffy the base processes; else into the overflow, in due order.
	void place(base &b, timer_id t, jiffies_t due, jiffies_t now)
	{
		if (due - now < nslots_) {
			list &s = b.slots[due % nslots_];
			insert_after(s, s.tail, t, static_cast<std::uint32_t>(due % nslots_));
			return;
		}
		// The model walks from the tail past every timer due later,
		// and compares once more with the one it stops at (when there
		// is one): it links T after every timer due no later.
		const std::uint64_t passed = overflow_.due_after(b.overflow, due);
		const std::uint64_t walk = passed + (passed < overflow_.size(b.overflow) ? 1 : 0);
		costs_.slot_visits += walk;
		costs_.key_comparisons += walk;
		overflow_.insert(b.overflow, t, due);
		where_[t] = IN_OVERFLOW;
	}

	void link(unsigned cpu, timer_id t, jiffies_t due, std::uint32_t) override
	{
		base &b = bases_[cpu];
		place(b, t, due, clock(cpu));
		b.count++;
		total_++;
		peak_ = std::max(peak_, total_);
		enqueued(t, where_[t] == IN_OVERFLOW ? 2 : 1);
	}

	void unlink(unsigned cpu, timer_id t) override
	{
		base &b = bases_[cpu];
		if (where_[t] == IN_OVERFLOW)
			overflow_.erase(b.overflow, t);
		else
			remove(b.slots[where_[t]], t);
		b.count--;
		total_--;
	}

	// The jiffies from `jiffy` on at which nothing happens but a tick, a
	// slot visit and a look at the overflow head: before the first
	// non-empty slot and before the head comes within range.
	std::uint64_t idle_jiffies(const base &b, jiffies_t jiffy) const
	{
		std::uint64_t idle = ~std::uint64_t{0};
		if (const timer_id head = overflow_head(b); head != NIL) {
			jiffies_t due = rec_of(head).due;
			idle = due - jiffy < nslots_ ? 0 : due - jiffy - nslots_ + 1;
		}
		// Wheel timers are due within nslots_ of jiffy: the first
		// non-empty slot from jiffy's on is the next to fire.
		if (b.count > overflow_.size(b.overflow))
			for (std::uint64_t k = 0; k < idle && k < nslots_; k++)
				if (b.slots[(jiffy + k) % nslots_].head != NIL)
					return k;
		return idle;
	}

	jiffies_t next_fire(unsigned cpu) const override
	{
		jiffies_t c = clock(cpu);
		std::uint64_t idle = idle_jiffies(bases_[cpu], c);
		return idle >= ~jiffies_t{0} - c ? ~jiffies_t{0} : c + idle;
	}

	void run(unsigned cpu, jiffies_t upto) override
	{
		base &b = bases_[cpu];
		for (jiffies_t jiffy = clock(cpu); jiffy <= upto && b.count; jiffy++) {
			if (!stepping() && upto - jiffy >= 16) {
				std::uint64_t n = std::min<std::uint64_t>(idle_jiffies(b, jiffy), upto - jiffy + 1);
				if (n) {
					idle_ticks(cpu, jiffy, n);
					costs_.slot_visits += n;
					const bool overflowing = b.overflow != rank_treap::none;
					costs_.key_comparisons += overflowing ? n : 0;
					// Finding the stretch looked at up to a slot a
					// jiffy: that much is work done, the rest skipped.
					const std::uint64_t bulk = overflowing ? 2 * n : n;
					costs_.skipped_idle += bulk - std::min<std::uint64_t>(n, nslots_);
					jiffy += n;
					if (jiffy > upto)
						break;
				}
			}
			tick(cpu, jiffy);
			std::uint32_t moved_now = 0;
			for (timer_id t; (t = overflow_head(b)) != NIL;) {
				costs_.key_comparisons++;
				if (rec_of(t).due - jiffy >= nslots_)
					break;
				overflow_.erase(b.overflow, t);
				place(b, t, rec_of(t).due, jiffy);
				moved(t, 2);
				moved_now++;
			}
			if (moved_now)
				cascaded(2, moved_now);
			costs_.slot_visits++;
			list &s = b.slots[jiffy % nslots_];
			while (s.head != NIL) {
				timer_id t = s.head;
				remove(s, t);
				b.count--;
				total_--;
				fire(cpu, t, jiffy);
			}
		}
	}

	std::uint64_t peak_structure_bytes() const override
	{
		return bases_.size() * (sizeof(modelled_base) + nslots_ * sizeof(list)) +
		       next_.size() * (2 * sizeof(timer_id) + sizeof(std::uint32_t));
	}

	unsigned nslots_;
	std::vector<base> bases_;
	std::vector<timer_id> next_, prev_;
	std::vector<std::uint32_t> where_;	// slot, or IN_OVERFLOW
	rank_treap overflow_;			// every base's overflow order
	std::uint64_t total_ = 0, peak_ = 0;
};

}  // namespace

std::unique_ptr<reported_scheme> make_wheel_overflow_scheme(const scheme_options &opt)
{
	auto p = resolve_params("wheel-overflow", {{"slots", "256", "N >= 1 (slots of the wheel)", 1, 1u << 24}},
				opt.params);
	unsigned slots = static_cast<unsigned>(param_integer(p, "slots"));
	return std::make_unique<wheel_overflow_scheme>(opt, std::move(p), slots);
}

}  // namespace timersim
