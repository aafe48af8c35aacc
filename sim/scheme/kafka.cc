// `kafka`: Kafka's hierarchical TimingWheel with its DelayQueue
// (org.apache.kafka.server.util.timer: SystemTimer, TimingWheel,
// TimerTaskList), one per base.
//
// - Wheel 1 has wheel_size buckets of `tick` jiffies; an overflow wheel,
//   whose tick is the lower wheel's interval (tick * wheel_size), is created
//   the first time a timer does not fit, and so on upwards.
// - add(): an entry due before currentTime + tick is already expired (the
//   caller runs it); one within currentTime + interval goes to bucket
//   (due / tick) % wheel_size, whose expiration becomes (due / tick) * tick;
//   when that changes, the bucket is offered to the DelayQueue (a binary
//   heap of buckets keyed by expiration); else it goes to the overflow wheel.
// - The clock only moves when the DelayQueue yields a bucket whose
//   expiration has come: advanceClock(bucket expiration) rounds each
//   wheel's currentTime down to its tick, then the bucket is flushed and its
//   entries re-added: those now due fire, the others drop into a finer
//   wheel (a relink, reported as moved from the bucket's wheel).
// - Cancel unlinks the entry from its bucket at once; the bucket stays in
//   the DelayQueue until its expiration.
//
// Time: currentTime starts at the jiffy before the base's start (the last
// one processed); a flush at jiffy j fires its due entries in jiffy j. With
// tick=1 every timer fires in the jiffy it is due. With a longer tick a
// timer fires in the tick that contains its expiry (Kafka rounds down: up
// to tick-1 jiffies early); one added within the current tick fires in the
// next jiffy the base processes.
//
// Parameters: wheel_size=20, tick=1 (jiffies; Kafka's tickMs).
// Levels: the wheel, 1 for the finest.
//
// Cost units:
//   insertions       starts
//   removals         cancels, re-arms, expiries
//   relinks          flushed entries re-added into a wheel (cascades)
//   slot_visits      buckets flushed, plus entries visited by the flush
//   key_comparisons  bucket expiration comparisons of the DelayQueue heap
//
// A tick is reported for each jiffy at which the DelayQueue yields buckets.
#include <algorithm>
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

constexpr std::uint32_t NONE = std::numeric_limits<std::uint32_t>::max();
using ktime = std::int64_t;	// Kafka's long ms; here jiffies, may start at -1

ktime floor_to(ktime x, ktime unit)
{
	ktime q = x / unit;
	if (x % unit != 0 && x < 0)
		q--;
	return q * unit;
}

class kafka_scheme final : public per_cpu_scheme {
	struct bucket {			// TimerTaskList
		timer_id head = NIL, tail = NIL;
		ktime expiration = -1;	// -1: none
		bool has_expiration = false;
		std::uint32_t heap_pos = NONE;
		unsigned level = 0;	// 1-based wheel
	};
	struct wheel {			// TimingWheel
		ktime tick, interval, current;
		std::uint32_t first_bucket;	// index into buckets_ of this base
	};
	struct base {
		std::vector<wheel> wheels;
		std::vector<bucket> buckets;
		std::vector<std::uint32_t> queue;	// DelayQueue: heap of bucket indices
		std::vector<timer_id> ready;		// expired at add: fire next jiffy
	};
	static constexpr timer_id NIL = std::numeric_limits<timer_id>::max();

public:
	kafka_scheme(const scheme_options &opt, std::vector<scheme_param> p,
		     unsigned wheel_size, unsigned tick)
		: per_cpu_scheme("kafka", opt, std::move(p)), size_(wheel_size), tick_(tick)
	{
		// Wheels enough to cover 2^64 jiffies.
		long double span = tick;
		levels_ = 1;
		while ((span *= wheel_size) < 18446744073709551616.0L)
			levels_++;
	}

	unsigned levels() const override { return levels_; }
	std::string level_name(unsigned level) const override { return "wheel" + std::to_string(level); }

	std::string check() const override
	{
		for (unsigned cpu = 0; cpu < bases_.size(); cpu++) {
			const base &b = bases_[cpu];
			std::uint64_t n = b.ready.size();
			for (std::size_t i = 0; i < b.queue.size(); i++) {
				const bucket &bk = b.buckets[b.queue[i]];
				if (bk.heap_pos != i)
					return "DelayQueue index broken";
				if (i && b.buckets[b.queue[(i - 1) / 2]].expiration > bk.expiration)
					return "DelayQueue order broken";
			}
			for (std::uint32_t bi = 0; bi < b.buckets.size(); bi++) {
				const bucket &bk = b.buckets[bi];
				if (bk.head != NIL && bk.heap_pos == NONE)
					return "a non-empty bucket is not in the DelayQueue";
				timer_id prev = NIL;
				for (timer_id t = bk.head; t != NIL; prev = t, t = next_[t], n++) {
					if (prev_[t] != prev || bucket_of_[t] != bi)
						return "broken bucket list at timer " + std::to_string(t);
					const record &r = rec_of(t);
					if (!r.pending || r.cpu != cpu)
						return "timer " + std::to_string(t) + " in a bucket but not pending here";
					ktime due = static_cast<ktime>(r.due);
					const wheel &w = b.wheels[bk.level - 1];
					if (floor_to(due, w.tick) != bk.expiration)
						return "timer " + std::to_string(t) + " due " + std::to_string(due) +
						       " in a bucket expiring " + std::to_string(bk.expiration);
				}
				if (prev != bk.tail)
					return "bucket tail wrong";
			}
			if (n != pending_on(cpu))
				return "base " + std::to_string(cpu) + " holds " + std::to_string(n) + " for " +
				       std::to_string(pending_on(cpu)) + " pending";
		}
		return "";
	}

private:
	void reset_bases(unsigned ncpus, jiffies_t start) override
	{
		bases_.assign(ncpus, base{});
		for (auto &b : bases_)
			add_wheel(b, tick_, static_cast<ktime>(start) - 1);
		next_.clear();
		prev_.clear();
		bucket_of_.clear();
		peak_bytes_ = 0;
	}

	void timers_grew(std::size_t n) override
	{
		next_.resize(n, NIL);
		prev_.resize(n, NIL);
		bucket_of_.resize(n, NONE);
	}

	void add_wheel(base &b, ktime tick, ktime start)
	{
		wheel w;
		w.tick = tick;
		// Saturate: wheels past 2^63 jiffies only need to hold everything.
		const ktime max = std::numeric_limits<ktime>::max();
		w.interval = tick > max / static_cast<ktime>(size_) ? max : tick * static_cast<ktime>(size_);
		w.current = floor_to(start, tick);
		w.first_bucket = static_cast<std::uint32_t>(b.buckets.size());
		unsigned level = static_cast<unsigned>(b.wheels.size()) + 1;
		for (unsigned i = 0; i < size_; i++) {
			b.buckets.emplace_back();
			b.buckets.back().level = level;
		}
		b.wheels.push_back(w);
		note_memory();
	}

	// TimingWheel.add(), from wheel `level` up. Returns the 1-based wheel
	// it landed on, or 0 when the entry is already expired.
	unsigned add(base &b, timer_id t, ktime due)
	{
		for (unsigned level = 1;; level++) {
			if (level > b.wheels.size()) {
				const wheel &below = b.wheels.back();
				add_wheel(b, below.interval, below.current);
			}
			wheel &w = b.wheels[level - 1];
			// As differences: due is never before the wheel's current time
			// by more than a tick, and sums could overflow.
			if (due - w.current < w.tick)
				return 0;
			if (due - w.current < w.interval) {
				ktime virtual_id = due / w.tick;
				std::uint32_t bi = w.first_bucket + static_cast<std::uint32_t>(virtual_id % size_);
				bucket_append(b, bi, t);
				ktime expiration = virtual_id * w.tick;
				bucket &bk = b.buckets[bi];
				if (!bk.has_expiration || bk.expiration != expiration) {
					bk.expiration = expiration;
					bk.has_expiration = true;
					offer(b, bi);
				}
				return level;
			}
		}
	}

	void advance_clock(base &b, ktime time)
	{
		for (wheel &w : b.wheels) {
			if (time - w.current < w.tick)
				return;
			w.current = floor_to(time, w.tick);
			time = w.current;
		}
	}

	void link(unsigned cpu, timer_id t, jiffies_t due, std::uint32_t) override
	{
		base &b = bases_[cpu];
		unsigned level = add(b, t, static_cast<ktime>(due));
		if (!level) {
			bucket_of_[t] = NONE;
			b.ready.push_back(t);
		}
		enqueued(t, level ? level : 1);
		note_memory();
	}

	void unlink(unsigned cpu, timer_id t) override
	{
		base &b = bases_[cpu];
		if (bucket_of_[t] != NONE) {
			bucket_remove(b, t);
			return;
		}
		for (auto it = b.ready.begin(); it != b.ready.end(); ++it)
			if (*it == t) {
				b.ready.erase(it);
				return;
			}
	}

	void run(unsigned cpu, jiffies_t upto) override
	{
		base &b = bases_[cpu];
		jiffies_t now = clock(cpu);

		if (!b.ready.empty()) {
			tick(cpu, now);
			std::vector<timer_id> ready;
			ready.swap(b.ready);
			for (timer_id t : ready)
				fire(cpu, t, now);
		}
		while (!b.queue.empty()) {
			ktime first = b.buckets[b.queue[0]].expiration;
			jiffies_t jiffy = std::max(now, static_cast<jiffies_t>(std::max<ktime>(first, 0)));
			if (jiffy > upto)
				return;
			tick(cpu, jiffy);
			// SystemTimer.advanceClock(): every bucket due by now.
			while (!b.queue.empty() && b.buckets[b.queue[0]].expiration <= static_cast<ktime>(jiffy)) {
				std::uint32_t bi = poll(b);
				advance_clock(b, b.buckets[bi].expiration);
				flush(cpu, b, bi, jiffy);
			}
			now = jiffy + 1;
		}
	}

	// Nothing fires before the DelayQueue's first bucket expires (entries
	// that were due at their add fire at the next jiffy processed).
	jiffies_t next_fire(unsigned cpu) const override
	{
		const base &b = bases_[cpu];
		if (!b.ready.empty())
			return clock(cpu);
		if (b.queue.empty())
			return ~jiffies_t{0};
		return static_cast<jiffies_t>(std::max<ktime>(b.buckets[b.queue[0]].expiration, 0));
	}

	// TimerTaskList.flush(): empty the bucket, then re-add each entry.
	void flush(unsigned cpu, base &b, std::uint32_t bi, jiffies_t jiffy)
	{
		bucket &bk = b.buckets[bi];
		unsigned from = bk.level;
		std::vector<timer_id> entries;
		costs_.slot_visits++;
		while (bk.head != NIL) {
			timer_id t = bk.head;
			bucket_remove(b, t);
			entries.push_back(t);
		}
		bk.has_expiration = false;
		bk.expiration = -1;
		std::uint32_t relinked = 0;
		for (timer_id t : entries) {
			costs_.slot_visits++;
			if (add(b, t, static_cast<ktime>(rec_of(t).due))) {
				moved(t, from);
				relinked++;
			} else {
				fire(cpu, t, jiffy);
			}
		}
		if (from > 1)
			cascaded(from, relinked);
	}

	void bucket_append(base &b, std::uint32_t bi, timer_id t)
	{
		bucket &bk = b.buckets[bi];
		prev_[t] = bk.tail;
		next_[t] = NIL;
		(bk.tail == NIL ? bk.head : next_[bk.tail]) = t;
		bk.tail = t;
		bucket_of_[t] = bi;
	}

	void bucket_remove(base &b, timer_id t)
	{
		bucket &bk = b.buckets[bucket_of_[t]];
		(prev_[t] == NIL ? bk.head : next_[prev_[t]]) = next_[t];
		(next_[t] == NIL ? bk.tail : prev_[next_[t]]) = prev_[t];
		next_[t] = prev_[t] = NIL;
		bucket_of_[t] = NONE;
	}

	// ---- DelayQueue: binary heap of buckets by expiration ----

	bool earlier(const base &b, std::uint32_t x, std::uint32_t y)
	{
		costs_.key_comparisons++;
		const bucket &p = b.buckets[x], &q = b.buckets[y];
		return p.expiration < q.expiration || (p.expiration == q.expiration && x < y);
	}

	void heap_set(base &b, std::size_t i, std::uint32_t bi)
	{
		b.queue[i] = bi;
		b.buckets[bi].heap_pos = static_cast<std::uint32_t>(i);
	}

	void sift_up(base &b, std::size_t i)
	{
		std::uint32_t bi = b.queue[i];
		while (i > 0 && earlier(b, bi, b.queue[(i - 1) / 2])) {
			heap_set(b, i, b.queue[(i - 1) / 2]);
			i = (i - 1) / 2;
		}
		heap_set(b, i, bi);
	}

	void sift_down(base &b, std::size_t i)
	{
		std::uint32_t bi = b.queue[i];
		for (;;) {
			std::size_t c = 2 * i + 1;
			if (c >= b.queue.size())
				break;
			if (c + 1 < b.queue.size() && earlier(b, b.queue[c + 1], b.queue[c]))
				c++;
			if (!earlier(b, b.queue[c], bi))
				break;
			heap_set(b, i, b.queue[c]);
			i = c;
		}
		heap_set(b, i, bi);
	}

	// offer(): a bucket already queued (its expiration changed before it
	// was polled) is moved instead of queued twice.
	void offer(base &b, std::uint32_t bi)
	{
		bucket &bk = b.buckets[bi];
		if (bk.heap_pos != NONE) {
			sift_up(b, bk.heap_pos);
			sift_down(b, bk.heap_pos);
			return;
		}
		b.queue.push_back(bi);
		bk.heap_pos = static_cast<std::uint32_t>(b.queue.size() - 1);
		sift_up(b, b.queue.size() - 1);
	}

	std::uint32_t poll(base &b)
	{
		std::uint32_t top = b.queue[0];
		b.buckets[top].heap_pos = NONE;
		std::uint32_t last = b.queue.back();
		b.queue.pop_back();
		if (!b.queue.empty()) {
			heap_set(b, 0, last);
			sift_down(b, 0);
		}
		return top;
	}

	void note_memory()
	{
		std::uint64_t bytes = next_.size() * (2 * sizeof(timer_id) + sizeof(std::uint32_t));
		for (const auto &b : bases_)
			bytes += b.wheels.capacity() * sizeof(wheel) + b.buckets.capacity() * sizeof(bucket) +
				 b.queue.capacity() * sizeof(std::uint32_t) + b.ready.capacity() * sizeof(timer_id);
		peak_bytes_ = std::max(peak_bytes_, bytes);
	}

	std::uint64_t peak_structure_bytes() const override { return peak_bytes_; }

	unsigned size_, tick_, levels_ = 1;
	std::vector<base> bases_;
	std::vector<timer_id> next_, prev_;
	std::vector<std::uint32_t> bucket_of_;
	std::uint64_t peak_bytes_ = 0;
};

}  // namespace

std::unique_ptr<reported_scheme> make_kafka_scheme(const scheme_options &opt)
{
	auto p = resolve_params("kafka",
				{{"wheel_size", "20", "buckets per wheel, >= 2", 2, 1u << 20},
				 {"tick", "1", "jiffies per tick of the finest wheel (tickMs), >= 1", 1, 1u << 20}},
				opt.params);
	auto size = param_integer(p, "wheel_size");
	auto tick = param_integer(p, "tick");
	return std::make_unique<kafka_scheme>(opt, std::move(p), static_cast<unsigned>(size),
					      static_cast<unsigned>(tick));
}

}  // namespace timersim
