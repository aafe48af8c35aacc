// What the two kernel-wheel adapters (classic.cc, v48.cc) share: the timer
// table of kernel timer_lists (their `data` is the timer_id), the per-base
// forwarding from the wheel's observer to the simulator's accounting, the
// pending counts, cancel, and the choice of the `unsigned long` width.
//
// The wheels run on `unsigned long` jiffies of the modelled width; the
// simulator's timeline is 64-bit and never wraps. Values are narrowed on the
// way in and widened again, relative to a clock the adapter keeps, on the
// way out; an adapter advances a 32-bit wheel in steps below 2^31 so that
// wrap-safe comparisons stay meaningful.
#pragma once

#include <cstdint>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "kernel/jiffies.h"
#include "sim/base/errors.h"
#include "sim/scheme/scheme.h"

namespace timersim {

// Long advances of a wheel go in steps of at most this many jiffies: the
// wrap-safe comparisons of a 32-bit wheel need them below 2^31.
template <class Word>
constexpr jiffies_t wheel_step = sizeof(Word) == 4 ? jiffies_t{1} << 30 : jiffies_t{1} << 62;

// A wheel value as simulation time: the one within 2^(bits-1) of `ref`.
template <class Word>
jiffies_t widen(jiffies_t ref, Word w)
{
	using sword = kernel::signed_word<Word>;
	return ref + static_cast<jiffies_t>(static_cast<std::int64_t>(
			     static_cast<sword>(static_cast<Word>(w - static_cast<Word>(ref)))));
}

// Per-base forwarding state, reached from the wheel's observer.
struct kernel_hooks {
	scheme_observer *sink = nullptr;
	cost_counters *costs = nullptr;
	unsigned *placed = nullptr;		// the scheme's placed_level_
	unsigned cpu = 0;
	jiffies_t jiffy = 0;	// simulation time of the jiffy being processed
	// The bucket being expired (the base clk it was collected at), where
	// the wheel tells it apart from `jiffy` (v48's collecting()); else
	// the wheel keeps it equal to `jiffy`.
	jiffies_t bucket = 0;
	// Timers fired on this base: each is a removal and leaves the
	// pending count. One count here, read by kernel_adapter, is one
	// increment per expiry where there were two through pointers.
	std::uint64_t fired = 0;

	// start/re-arm linked a timer on `level` (1-based). An observer that
	// wants every enqueue hears of it when start() is done
	// (kernel_adapter::report_enqueue): nothing else happens in between.
	void enqueued(unsigned level) { *placed = level; }
	// The timer with `data` fires in the jiffy being processed.
	void expiring(unsigned long data)
	{
		fired++;
		sink->expired_from(static_cast<timer_id>(data), cpu, jiffy, bucket);
	}
};

// The kernel timers of the traced timer_ids, made on first use. Timers
// never move once made (the wheels link them intrusively).
template <class Timer>
class kernel_timer_table {
public:
	// Makes every timer up to `id` with init(timer, id) and returns it.
	template <class Init>
	Timer *get(timer_id id, Init init)
	{
		if (id >= size_) [[unlikely]]
			grow(id, init);
		return at(id);
	}
	// The timer of `id`, which was made.
	Timer *made(timer_id id) const { return at(id); }
	// The timer of `id`, or nullptr if none was made.
	Timer *find(timer_id id) const { return id < size_ ? at(id) : nullptr; }

	std::uint64_t size() const { return size_; }
	void clear()
	{
		chunks_.clear();
		size_ = 0;
	}

private:
	static constexpr std::size_t chunk = 4096;
	static_assert(std::is_trivially_destructible_v<Timer>, "chunks are freed without destroying their timers");

	// A chunk is storage, not 4,096 timers: each is made when its id is
	// first used. Made all at once (make_unique<Timer[]>), every chunk
	// would be zeroed whole, 256 KB of fresh pages (64 faults of some
	// microseconds each on a VM) for a trace of a few hundred timers.
	struct chunk_free {
		void operator()(Timer *p) const { std::allocator<Timer>().deallocate(p, chunk); }
	};

	Timer *at(timer_id id) const { return &chunks_[id / chunk][id % chunk]; }

	template <class Init>
	[[gnu::noinline]] void grow(timer_id id, Init init)
	{
		while (size_ <= id) {
			if (size_ % chunk == 0)
				chunks_.emplace_back(std::allocator<Timer>().allocate(chunk));
			Timer *t = ::new (static_cast<void *>(at(static_cast<timer_id>(size_)))) Timer();
			init(t, size_);
			size_++;
		}
	}

	std::vector<std::unique_ptr<Timer[], chunk_free>> chunks_;
	std::uint64_t size_ = 0;
};

// The part of a kernel-wheel scheme that does not depend on the wheel:
// timers, pending counts, costs, cancel. Timer is the wheel's timer_list;
// its base must say its `cpu`.
template <class Timer>
class kernel_adapter : public reported_scheme {
public:
	explicit kernel_adapter(const scheme_options &opt) : opt_(opt) {}

	bool cancel(timer_id id) override
	{
		Timer *t = timers_.find(id);
		if (!t || !timer_pending(t))
			return false;
		pending_[t->base->cpu]--;
		costs_.removals++;
		return del_timer(t) == 1;
	}

	bool pending(timer_id id) const override
	{
		const Timer *t = timers_.find(id);
		return t && timer_pending(t);
	}

	std::uint64_t pending_on(unsigned cpu) const override { return pending_.at(cpu) - hooks_.at(cpu).fired; }
	const cost_counters &costs() const override
	{
		reported_ = costs_;
		reported_.insertions += adds_ + restarts_;
		reported_.removals += restarts_ + fired();
		return reported_;
	}

protected:
	// Empties the table and the counts, and sets up one hooks per base.
	void reset_common(unsigned ncpus, jiffies_t start, scheme_observer *obs)
	{
		timers_.clear();
		costs_ = {};
		adds_ = restarts_ = 0;
		ncpus_ = ncpus;
		pending_.assign(ncpus, 0);
		hooks_.assign(ncpus, kernel_hooks{});
		enqueue_sink_ = obs && obs->wants_enqueues() ? obs : nullptr;
		for (unsigned cpu = 0; cpu < ncpus; cpu++)
			hooks_[cpu] = {obs, &costs_, &this->placed_level_, cpu, start};
	}

	// Timers fired on every base (kernel_hooks::fired).
	std::uint64_t fired() const
	{
		std::uint64_t n = 0;
		for (const kernel_hooks &h : hooks_)
			n += h.fired;
		return n;
	}

	// Whether start() must be followed by report_enqueue().
	bool reports_enqueues() const { return enqueue_sink_ != nullptr; }
	// Tells an observer that wants every enqueue where start() placed
	// timer id (if it enqueued it), and returns `was` for start() to
	// return: a tail call, out of line, so that the common start saves
	// no registers.
	[[gnu::noinline]] bool report_enqueue(timer_id id, bool was)
	{
		if (this->placed_level_)
			enqueue_sink_->enqueued(id, this->placed_level_);
		return was;
	}

	void check_cpu(unsigned cpu) const
	{
		if (cpu >= ncpus_) [[unlikely]]
			bad_cpu(cpu);
	}
	[[noreturn, gnu::noinline, gnu::cold]] void bad_cpu(unsigned cpu) const
	{
		throw std::out_of_range("CPU " + std::to_string(cpu) + " of " + std::to_string(ncpus_));
	}

	// The pending counts and costs of a start() that found the timer
	// pending on base `was` (NONE: not pending) and left it on `now`.
	// A start that always enqueues (classic) counts it here, not per
	// enqueue: one insertion per start, one removal per re-arm.
	static constexpr unsigned NONE = ~0u;
	void started(unsigned was, unsigned now)
	{
		if (was != now) {
			if (was != NONE)
				pending_[was]--;
			pending_[now]++;
		}
		if (was == NONE)
			adds_++;
		else
			restarts_++;
	}
	// started(cpu, cpu): a pending timer re-armed on the base it stays on.
	void restarted() { restarts_++; }

	// Bytes of the bases and of every timer made (the kernel's timer_list:
	// what the scheme keeps beside it is the simulator's).
	std::uint64_t memory_bytes(std::uint64_t base_bytes, std::uint64_t timer_bytes = sizeof(Timer)) const
	{
		return pending_.size() * base_bytes + timers_.size() * timer_bytes;
	}

	scheme_options opt_;
	kernel_timer_table<Timer> timers_;
	unsigned ncpus_ = 0;
	std::vector<std::uint64_t> pending_;	// less hooks_[cpu].fired: the pending count
	std::vector<kernel_hooks> hooks_;
	scheme_observer *enqueue_sink_ = nullptr;	// the observer if it wants_enqueues()
	cost_counters costs_;		// all but what started() and the hooks count
	// Starts of a timer that was not pending, and of one that was (also
	// a removal): one increment per start.
	std::uint64_t adds_ = 0, restarts_ = 0;
	mutable cost_counters reported_;
};

// Calls make(Word{}) with the `unsigned long` of the modelled width.
template <class Make>
std::unique_ptr<reported_scheme> for_word_width(const char *scheme, const scheme_options &opt, Make make)
{
	if (opt.word_bits == 32)
		return make(std::uint32_t{});
	if (opt.word_bits == 64)
		return make(std::uint64_t{});
	throw usage_error(std::string(scheme) + ": word bits must be 32 or 64");
}

}  // namespace timersim
