// `hashed`: Netty's HashedWheelTimer (Varghese & Lauck's scheme 6), one per
// base. A wheel of ticks_per_wheel buckets (a power of two), each tick
// `tick` jiffies long. As in Netty (io.netty.util.HashedWheelTimer):
//
// - A start creates a new timeout and queues it; the worker moves queued
//   timeouts into buckets at the next tick (transferTimeoutsToBuckets):
//   calculated = deadline / tick, remainingRounds = (calculated - tick
//   count) / wheel length, bucket = max(calculated, tick count) & mask. So
//   a timeout already past at insertion fires at the next tick.
// - Each tick walks its whole bucket: a timeout with no rounds left fires,
//   any other has its remainingRounds decremented.
// - Cancel marks the timeout cancelled and queues it; it is unlinked at the
//   next tick (processCancelledTasks). A re-arm is cancel + new timeout,
//   so the old one lingers until then.
//
// Time: base start s; tick k covers jiffies [s + k*tick, s + (k+1)*tick)
// and runs at its last jiffy; a timeout due at jiffy d has deadline d - s.
// With tick=1 every timer fires in the jiffy it is due; with a longer tick
// up to tick-1 jiffies late.
//
// Parameters: ticks_per_wheel=512, tick=1 (jiffies).
//
// Cost units:
//   insertions       starts (newTimeout)
//   removals         cancels, re-arms, expiries (logical, when they happen)
//   relinks          remainingRounds decrements
//   slot_visits      one per bucket walked, one per timeout the walk
//                    visits, one per cancelled timeout unlinked
//   key_comparisons  remainingRounds tests of the walk
//
// A tick is reported for every tick the base runs while it holds timeouts
// (queued, linked or cancelled-but-linked); an empty base does no work.
// Ticks before the next timeout fires are counted in one step: each
// timeout keeps the tick it fires in, which makes remainingRounds a count
// of the walks between.
#include <algorithm>
#include <deque>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "sim/base/errors.h"
#include "sim/scheme/factories.h"
#include "sim/scheme/params.h"
#include "sim/scheme/per_cpu_scheme.h"

namespace timersim {

namespace {

using node_id = std::uint32_t;
constexpr node_id NONE = std::numeric_limits<node_id>::max();

class hashed_scheme final : public per_cpu_scheme {
	// HashedWheelTimeout
	struct timeout {
		timer_id t = 0;
		jiffies_t deadline = 0;		// jiffies since the base's start
		// The tick whose walk fires it: Netty's remainingRounds is the
		// number of walks of its bucket left before it.
		std::uint64_t fire_tick = 0;
		node_id next = NONE, prev = NONE;
		std::uint32_t bucket = NONE;	// NONE: not in a bucket
		bool cancelled = false;
		bool queued = false;		// in the new-timeouts queue
		bool cancel_queued = false;	// in the cancelled queue
	};
	struct bucket {
		node_id head = NONE, tail = NONE;
	};
	// The skipping's own index of a bucket (not part of Netty's memory):
	// how many timeouts it holds, and the earliest tick one of them fires
	// (recomputed when the earliest is unlinked).
	struct bucket_index {
		std::uint64_t count = 0;
		std::uint64_t min_fire = ~std::uint64_t{0};
		bool stale = false;
	};
	struct base {
		std::vector<bucket> wheel;
		mutable std::vector<bucket_index> index;	// min_fire refreshed by const look-ups
		std::uint64_t linked = 0;	// timeouts in buckets
		std::deque<node_id> timeouts;	// started, not yet in a bucket
		std::deque<node_id> cancelled;	// cancelled, not yet unlinked
		jiffies_t start = 0;
		std::uint64_t tick = 0;		// next tick to run
		std::uint64_t held = 0;		// timeouts queued or linked
	};

public:
	hashed_scheme(const scheme_options &opt, std::vector<scheme_param> p,
		      unsigned wheel_len, unsigned tick_len)
		: per_cpu_scheme("hashed", opt, std::move(p)), wheel_len_(wheel_len), mask_(wheel_len - 1),
		  tick_len_(tick_len)
	{
	}

	std::string check() const override
	{
		for (unsigned cpu = 0; cpu < bases_.size(); cpu++) {
			const base &b = bases_[cpu];
			std::uint64_t active = 0;
			for (unsigned i = 0; i < wheel_len_; i++) {
				node_id prev = NONE;
				for (node_id n = b.wheel[i].head; n != NONE; prev = n, n = nodes_[n].next) {
					const timeout &to = nodes_[n];
					if (to.prev != prev || to.bucket != i)
						return "broken bucket " + std::to_string(i);
					if (to.cancelled)
						continue;
					if (current_[to.t] != n || !rec_of(to.t).pending || rec_of(to.t).cpu != cpu)
						return "live timeout of timer " + std::to_string(to.t) + " not current";
					// It fires when its bucket comes round with no rounds left.
					if ((to.fire_tick & mask_) != i || to.fire_tick < b.tick)
						return "timer " + std::to_string(to.t) + " fires in tick " +
						       std::to_string(to.fire_tick) + " from bucket " + std::to_string(i) +
						       " at tick " + std::to_string(b.tick);
					if (to.deadline / tick_len_ != to.fire_tick && to.deadline / tick_len_ >= b.tick)
						return "timer " + std::to_string(to.t) + " would fire in tick " +
						       std::to_string(to.fire_tick) + ", due in " +
						       std::to_string(to.deadline / tick_len_);
					active++;
				}
				if (b.wheel[i].tail != prev)
					return "bucket tail wrong";
			}
			for (node_id n : b.timeouts)
				if (!nodes_[n].cancelled)
					active++;
			if (active != pending_on(cpu))
				return "base " + std::to_string(cpu) + " has " + std::to_string(active) +
				       " live timeouts for " + std::to_string(pending_on(cpu)) + " pending";
		}
		return "";
	}

private:
	void reset_bases(unsigned ncpus, jiffies_t start) override
	{
		bases_.assign(ncpus, base{});
		for (auto &b : bases_) {
			b.wheel.assign(wheel_len_, bucket{});
			b.index.assign(wheel_len_, bucket_index{});
			b.start = start;
		}
		nodes_.clear();
		free_.clear();
		current_.clear();
		peak_nodes_ = 0;
	}

	void timers_grew(std::size_t n) override { current_.resize(n, NONE); }

	void link(unsigned cpu, timer_id t, jiffies_t due, std::uint32_t) override
	{
		base &b = bases_[cpu];
		node_id n = alloc();
		timeout &to = nodes_[n];
		to = timeout{};
		to.t = t;
		to.deadline = due - b.start;
		to.queued = true;
		b.timeouts.push_back(n);
		b.held++;
		current_[t] = n;
		enqueued(t, 0);
	}

	void unlink(unsigned cpu, timer_id t) override
	{
		node_id n = current_[t];
		current_[t] = NONE;
		nodes_[n].cancelled = true;
		nodes_[n].cancel_queued = true;
		bases_[cpu].cancelled.push_back(n);
	}

	// The last jiffy of tick k, when it runs.
	jiffies_t tick_jiffy(const base &b, std::uint64_t k) const { return b.start + (k + 1) * tick_len_ - 1; }

	// Ticks in which nothing fires are walked in one step when at least a
	// revolution of them is ahead; after a walk the base steps a
	// revolution before looking again, so the look (O(ticks_per_wheel))
	// costs no more than the ticks it could save.
	void run(unsigned cpu, jiffies_t upto) override
	{
		base &b = bases_[cpu];
		std::uint64_t look_from = b.tick;
		for (;;) {
			jiffies_t at = tick_jiffy(b, b.tick);
			if (at > upto)
				return;
			if (!b.held && b.cancelled.empty()) {
				// Nothing to do until upto: skip the empty ticks.
				b.tick = (upto + 1 - b.start) / tick_len_;
				return;
			}
			std::uint64_t end = (upto + 1 - b.start) / tick_len_;	// first tick past upto
			if (!stepping() && b.tick >= look_from && end - b.tick >= wheel_len_ &&
			    b.timeouts.empty() && b.cancelled.empty()) {
				std::uint64_t n = std::min(next_fire_tick(b), end) - b.tick;
				if (n)
					walk_idle(cpu, b, n);
				look_from = b.tick + wheel_len_;
				continue;
			}
			tick(cpu, at);
			run_tick(cpu, b, at);
			b.tick++;
		}
	}

	// `n` ticks from b.tick on in which no timeout fires (the queues are
	// empty): each walks its bucket and counts a round off every timeout
	// in it. Buckets come round n / wheel_len times, the first n % wheel_len
	// of them once more.
	void walk_idle(unsigned cpu, base &b, std::uint64_t n)
	{
		std::uint64_t walked = n / wheel_len_ * b.linked;
		for (std::uint64_t k = 0; k < n % wheel_len_; k++)
			walked += b.index[(b.tick + k) & mask_].count;
		idle_ticks(cpu, tick_jiffy(b, b.tick), n);
		costs_.slot_visits += n + walked;
		costs_.key_comparisons += walked;
		costs_.relinks += walked;
		// The simulator's own work was the look for the next tick that
		// fires (a bucket each) and the buckets of the last part-turn:
		// that much the guard counts; the rest was skipped.
		const std::uint64_t bulk = n + 3 * walked, looked = wheel_len_ + n % wheel_len_;
		costs_.skipped_idle += bulk > looked ? bulk - looked : 0;
		b.tick += n;
	}

	// The first tick at which a linked timeout fires.
	std::uint64_t next_fire_tick(const base &b) const
	{
		std::uint64_t first = ~std::uint64_t{0};
		for (std::uint32_t i = 0; i < wheel_len_; i++) {
			bucket_index &x = b.index[i];
			if (!x.count)
				continue;
			if (x.stale) {
				x.min_fire = ~std::uint64_t{0};
				for (node_id n = b.wheel[i].head; n != NONE; n = nodes_[n].next)
					x.min_fire = std::min(x.min_fire, nodes_[n].fire_tick);
				x.stale = false;
			}
			first = std::min(first, x.min_fire);
		}
		return first;
	}

	jiffies_t next_fire(unsigned cpu) const override
	{
		const base &b = bases_[cpu];
		if (!b.timeouts.empty() || !b.cancelled.empty())
			return tick_jiffy(b, b.tick);
		std::uint64_t k = next_fire_tick(b);
		return k == ~std::uint64_t{0} ? ~jiffies_t{0} : tick_jiffy(b, k);
	}

	void run_tick(unsigned cpu, base &b, jiffies_t at)
	{
		// processCancelledTasks()
		while (!b.cancelled.empty()) {
			node_id n = b.cancelled.front();
			b.cancelled.pop_front();
			timeout &to = nodes_[n];
			to.cancel_queued = false;
			if (to.bucket != NONE) {
				bucket_remove(b, n);
				costs_.slot_visits++;
				b.held--;
			}
			maybe_free(n);
		}
		// transferTimeoutsToBuckets()
		while (!b.timeouts.empty()) {
			node_id n = b.timeouts.front();
			b.timeouts.pop_front();
			timeout &to = nodes_[n];
			to.queued = false;
			if (to.cancelled) {
				b.held--;
				maybe_free(n);
				continue;
			}
			// remainingRounds = (calculated - tick) / wheelLength: walks
			// of bucket max(calculated, tick) & mask before it fires.
			std::uint64_t calculated = to.deadline / tick_len_;
			to.fire_tick = std::max(calculated, b.tick);
			bucket_append(b, n, static_cast<std::uint32_t>(to.fire_tick & mask_));
		}
		// expireTimeouts()
		bucket &bk = b.wheel[b.tick & mask_];
		costs_.slot_visits++;
		for (node_id n = bk.head, next; n != NONE; n = next) {
			timeout &to = nodes_[n];
			next = to.next;
			costs_.slot_visits++;
			costs_.key_comparisons++;
			if (to.fire_tick <= b.tick) {
				bucket_remove(b, n);
				b.held--;
				if (!to.cancelled) {
					current_[to.t] = NONE;
					fire(cpu, to.t, at);
				}
				maybe_free(n);
			} else if (to.cancelled) {
				bucket_remove(b, n);
				b.held--;
				maybe_free(n);
			} else {
				costs_.relinks++;	// remainingRounds--
			}
		}
	}

	void bucket_append(base &b, node_id n, std::uint32_t i)
	{
		bucket &bk = b.wheel[i];
		timeout &to = nodes_[n];
		to.bucket = i;
		to.prev = bk.tail;
		to.next = NONE;
		(bk.tail == NONE ? bk.head : nodes_[bk.tail].next) = n;
		bk.tail = n;
		bucket_index &x = b.index[i];
		x.count++;
		x.min_fire = std::min(x.min_fire, to.fire_tick);
		b.linked++;
	}

	void bucket_remove(base &b, node_id n)
	{
		timeout &to = nodes_[n];
		bucket &bk = b.wheel[to.bucket];
		bucket_index &x = b.index[to.bucket];
		if (--x.count == 0) {
			x.min_fire = ~std::uint64_t{0};
			x.stale = false;
		} else if (to.fire_tick == x.min_fire) {
			x.stale = true;
		}
		b.linked--;
		(to.prev == NONE ? bk.head : nodes_[to.prev].next) = to.next;
		(to.next == NONE ? bk.tail : nodes_[to.next].prev) = to.prev;
		to.next = to.prev = NONE;
		to.bucket = NONE;
	}

	node_id alloc()
	{
		if (!free_.empty()) {
			node_id n = free_.back();
			free_.pop_back();
			return n;
		}
		nodes_.emplace_back();
		peak_nodes_ = std::max<std::uint64_t>(peak_nodes_, nodes_.size());
		return static_cast<node_id>(nodes_.size() - 1);
	}

	void maybe_free(node_id n)
	{
		const timeout &to = nodes_[n];
		if (to.bucket == NONE && !to.queued && !to.cancel_queued && current_[to.t] != n)
			free_.push_back(n);
	}

	std::uint64_t peak_structure_bytes() const override
	{
		return peak_nodes_ * sizeof(timeout) + bases_.size() * wheel_len_ * sizeof(bucket) +
		       current_.size() * sizeof(node_id);
	}

	unsigned wheel_len_, mask_, tick_len_;
	std::vector<base> bases_;
	std::vector<timeout> nodes_;
	std::vector<node_id> free_;
	std::vector<node_id> current_;	// each timer's live timeout
	std::uint64_t peak_nodes_ = 0;
};

}  // namespace

std::unique_ptr<reported_scheme> make_hashed_scheme(const scheme_options &opt)
{
	auto p = resolve_params("hashed",
				{{"ticks_per_wheel", "512", "a power of two (buckets)", 1, 1u << 30},
				 {"tick", "1", "jiffies per tick, >= 1", 1, 1u << 20}},
				opt.params);
	auto n = param_integer(p, "ticks_per_wheel");
	if (n & (n - 1))
		throw usage_error("hashed: ticks_per_wheel=" + std::to_string(n) + " must be a power of two");
	auto tick = param_integer(p, "tick");
	return std::make_unique<hashed_scheme>(opt, std::move(p), static_cast<unsigned>(n),
					       static_cast<unsigned>(tick));
}

}  // namespace timersim
