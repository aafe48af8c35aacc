// The scheme layer: every timer scheme behind one small interface, so that a
// trace replays unchanged through each (after ns-3's Scheduler).
//
// The replay core drives `scheme`, the timer interface, and reads what the
// reports need from `scheme_reporting`; the registry makes objects that are
// both (`reported_scheme`). Time is the simulator's
// timeline: jiffies as 64-bit numbers that never wrap (the core unwraps a
// 32-bit kernel's jiffies). A scheme that models a 32-bit kernel narrows them
// itself.
//
//   scheme          start (add/re-arm)   cancel      advance per jiffy
//   classic         O(1)                 O(1)        O(1) + cascades
//   v48             O(1)                 O(1)        O(levels) bitmap search
//   hashed (Netty)  O(1)                 O(1) lazy   O(bucket) walk
//   kafka           O(1) + delay queue   O(1)        O(log buckets)
//   heap / heap4    O(log n)             O(log n)    O(log n) per expiry
//   sorted-list     O(n)                 O(1)        O(1)
//   list            O(1)                 O(1)        O(n) scan
//   wheel-overflow  O(1) / O(n) overflow O(1)        O(1) + migration
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace timersim {

using jiffies_t = std::uint64_t;	// unwrapped simulation time
using timer_id = std::uint32_t;		// dense id the core gives each traced timer

// The cost units every scheme counts, so that they compare side by side.
struct cost_counters {
	std::uint64_t insertions = 0;	// a timer linked into the structure by start
	std::uint64_t removals = 0;	// a timer unlinked by cancel, re-arm or expiry
	std::uint64_t relinks = 0;	// a timer moved inside the structure: cascade
					// re-inserts, Kafka re-adds, Netty round decrements
	std::uint64_t slot_visits = 0;	// buckets/slots/nodes looked at
	std::uint64_t key_comparisons = 0;	// expiry comparisons (heaps, lists, queues)
	// Of the units above, those counted in bulk for idle jiffies the replay
	// steps over (what the kernel would have done in them, which the
	// simulator does not do), less the simulator's own look for the
	// stretch's end: --max-cost guards the work done, without them.
	std::uint64_t skipped_idle = 0;

	std::uint64_t total() const
	{
		return insertions + removals + relinks + slot_visits + key_comparisons;
	}
	cost_counters &operator+=(const cost_counters &o)
	{
		insertions += o.insertions;
		removals += o.removals;
		relinks += o.relinks;
		slot_visits += o.slot_visits;
		key_comparisons += o.key_comparisons;
		skipped_idle += o.skipped_idle;
		return *this;
	}
	// The work done since `earlier` (counters only grow).
	cost_counters since(const cost_counters &earlier) const
	{
		return {insertions - earlier.insertions, removals - earlier.removals,
			relinks - earlier.relinks, slot_visits - earlier.slot_visits,
			key_comparisons - earlier.key_comparisons, skipped_idle - earlier.skipped_idle};
	}
	// The cost units alone: skipped_idle is the guard's note of how they
	// were counted (a scheme stepping idle jiffies one by one counts the
	// same units, none of them in bulk).
	bool operator==(const cost_counters &o) const
	{
		return insertions == o.insertions && removals == o.removals && relinks == o.relinks &&
		       slot_visits == o.slot_visits && key_comparisons == o.key_comparisons;
	}
};

// Where a scheme's work runs in the kernel it models. Process context:
// start (mod_timer, add_timer), cancel (del_timer) and re-arm, with what
// they sift, search or relink. Softirq: the timer softirq's run (expiry,
// cascades, slot and bucket visits, next-expiry searches), and whatever a
// base does when it catches up after idle.
enum class work_context : std::uint8_t { process, softirq };

// What a scheme reports to the cost accounting as it works. Levels are
// 1-based wheel levels (tv1..tv5 are 1..5; v48's level 0 is 1), 0 where a
// scheme has no levels.
class scheme_observer {
public:
	virtual ~scheme_observer() = default;
	// start/re-arm placed t on `level`; only for an observer that
	// wants_enqueues() (when reset() is called). The replay takes the
	// level from scheme::placed_level() instead: a load, not a virtual
	// call on every start (a re-arm is the commonest event).
	virtual void enqueued(timer_id t, unsigned level) { (void)t; (void)level; }
	virtual bool wants_enqueues() const { return true; }
	// A cascade (or another relink between levels) re-inserted t, taken from `from_level`.
	virtual void moved(timer_id t, unsigned from_level) = 0;
	// One cascade call on `level` that moved `count` timers (counted when empty too).
	virtual void cascaded(unsigned level, std::uint32_t count) = 0;
	// Base `cpu` begins processing `jiffy`.
	virtual void tick(unsigned cpu, jiffies_t jiffy) = 0;
	// t fired on base `cpu` while it processed `jiffy`.
	virtual void expired(timer_id t, unsigned cpu, jiffies_t jiffy) = 0;
	// The same, from a wheel that knows the bucket it collected t from
	// (v48: the base clk of __run_timers(), which the kernel prints as
	// timer_expire_entry's baseclk); `jiffy` may be later (a tick-driven
	// run catches an idle base up in one run, or runs an old deferrable
	// bucket).
	virtual void expired_from(timer_id t, unsigned cpu, jiffies_t jiffy, jiffies_t bucket)
	{
		(void)bucket;
		expired(t, cpu, jiffy);
	}
	// Base `cpu` processed `count` jiffies from `first` on in which nothing
	// fired or moved: each is a tick with no moves. (A scheme that ticks
	// less often than every jiffy - hashed with tick=N - reports `count`
	// of its ticks, the first at jiffy `first`.)
	virtual void idle_ticks(unsigned cpu, jiffies_t first, std::uint64_t count) = 0;
	// `calls` cascade() calls on `level` that found their slot empty, made
	// during such a stretch.
	virtual void empty_cascades(unsigned level, std::uint64_t calls) = 0;
};

// One parameter of a scheme as the reports give it ("hz" = 250, "order" =
// "fifo"); integer values are numbers in the JSON report.
struct scheme_param {
	std::string key, value;
	bool integer = false;
};

// The timer interface: all that the replay core drives. A new scheme
// implements these (next_event, set_idle and the tick-driven replay's
// calls have defaults).
//
// advance() skips a stretch of jiffies in which nothing fires or moves in
// one step, as the kernel forwards an idle base, and reports it with
// idle_ticks() and empty_cascades(): its time follows the work the timers
// describe, not the length of the gaps between them.
class scheme {
public:
	virtual ~scheme() = default;

	// Empties the scheme: `ncpus` bases, each about to process jiffy `start`.
	// obs receives every enqueue, move, cascade, tick and expiry from now on.
	virtual void reset(unsigned ncpus, jiffies_t start, scheme_observer *obs) = 0;

	// mod_timer: (re)arm t on base `cpu` to expire at `expires`, with
	// `flags` (timer_flag bits of sim/trace/event.h). A pending t is detached
	// first, from whatever base holds it. Returns true when t was pending.
	virtual bool start(timer_id t, unsigned cpu, jiffies_t expires, std::uint32_t flags) = 0;
	// start() of a timer re-armed by its own callback in a late catch-up
	// run (the recorded expiry ran a bucket older than jiffies). The
	// kernel runs such a run bucket by bucket, so the callback re-arms
	// with the base clock just past its bucket; a wheel that ran the whole
	// run at once places it as the kernel did. Default: start().
	virtual bool start_in_catch_up(timer_id t, unsigned cpu, jiffies_t expires, std::uint32_t flags)
	{
		return start(t, cpu, expires, flags);
	}
	// Where the last start() placed its timer: the level enqueued() was
	// given, 0 when it enqueued nothing (v48's same-bucket re-arm) or the
	// scheme has no levels.
	unsigned placed_level() const { return placed_level_; }
	// del_timer: returns true when t was pending (and is now detached).
	virtual bool cancel(timer_id t) = 0;
	virtual bool pending(timer_id t) const = 0;

	// Base `cpu` processes every jiffy up to and including `upto`; a no-op
	// when it is already past it. Expiries go to the observer, in firing order.
	virtual void advance(unsigned cpu, jiffies_t upto) = 0;
	// The next jiffy base `cpu` will process.
	virtual jiffies_t clock(unsigned cpu) const = 0;
	// Timers pending on base `cpu`.
	virtual std::uint64_t pending_on(unsigned cpu) const = 0;
	// A jiffy >= clock(cpu) before which base `cpu` fires nothing, so that
	// a drain can go from one such jiffy to the next instead of jiffy by
	// jiffy. The default, clock(cpu), is always right.
	virtual jiffies_t next_event(unsigned cpu) const { return clock(cpu); }

	// The base went idle (NOHZ) or woke, at `now`. Schemes that model
	// deferrable timers use it; the default ignores it.
	virtual void set_idle(unsigned cpu, bool idle, jiffies_t now)
	{
		(void)cpu; (void)idle; (void)now;
	}

	// Tick-driven replay (sim/ticks/tick_model.h): the core advances a
	// base only when its CPU ticked, to the jiffies that tick's softirq
	// saw, so a scheme must not model NOHZ idle itself (set_idle is then
	// not called) and advance() is one softirq run: every timer due by
	// `upto` fires. Off again for --drain.
	virtual void set_tick_driven(bool on) { (void)on; }
	// The kernel's jiffies when the next start() is made. A scheme whose
	// enqueue catches an idle base's clock up (v48's forward_timer_base)
	// uses it in tick-driven replay, where base clocks lag; others ignore it.
	virtual void set_now(jiffies_t now) { (void)now; }
	// 6.9+ timer migration, tick-driven replay: another CPU's softirq runs
	// the timers of base `cpu` that any CPU may expire (its global ones)
	// up to `upto`, as timer_expire_remote() does for an idle CPU. Schemes
	// without such timers ignore it.
	virtual void advance_remote(unsigned cpu, jiffies_t upto) { (void)cpu; (void)upto; }
	// 6.19 timer migration's available mask (kernel/time/timer_migration.c
	// tmigr_set_cpu_available / tmigr_clear_cpu_available): a CPU that is
	// not available takes no part in the hierarchy. Its global timers are
	// expired by itself alone, never remotely, and it expires no other
	// CPU's. Every CPU is available after reset(). Schemes without global
	// timers ignore it.
	virtual void set_tmigr_available(unsigned cpu, bool available) { (void)cpu; (void)available; }
	virtual bool tmigr_available(unsigned cpu) const { (void)cpu; return true; }

protected:
	// start() sets it (0 first, then the level of its enqueue).
	unsigned placed_level_ = 0;
};

// What the reports say about a scheme beside what it did: its name and
// parameters, its levels, and what its work cost in the common units.
// Read only: whatever drives the scheme is the timer interface's.
class scheme_reporting {
public:
	virtual ~scheme_reporting() = default;
	virtual std::string name() const = 0;
	// Parameters in a fixed order, for the report (hz first).
	virtual std::vector<scheme_param> params() const = 0;

	// Levels the scheme reports enqueues and cascades on (1..levels()),
	// 0 for schemes without levels, and their names ("tv1", "LVL0", ...).
	virtual unsigned levels() const { return 0; }
	virtual std::string level_name(unsigned level) const
	{
		return "level" + std::to_string(level);
	}

	virtual const cost_counters &costs() const = 0;
	// The share of costs() that base `cpu` accounts for, for a scheme
	// whose costs() adds up every base (v48): the replay's work meter then
	// reads only the bases an operation touched. The shares add up to
	// costs(). False: the scheme keeps no such shares (costs() is cheap).
	virtual bool costs_on(unsigned cpu, cost_counters &out) const
	{
		(void)cpu; (void)out;
		return false;
	}
	// The counters costs() returns, where they are kept current as the
	// scheme works (not summed when asked): the replay's work meter reads
	// them after nearly every event of every scheme of a compare, through
	// this pointer rather than a call. nullptr: ask costs().
	virtual const cost_counters *live_costs() const { return nullptr; }
	// Peak bytes held by the scheme's own structures (not the core's).
	virtual std::uint64_t peak_memory_bytes() const = 0;

	// Why the scheme's running time grows faster than the work replayed
	// (e.g. "a start walks the sorted list: O(n) per start"), so that
	// `compare` can say so before it starts; "" when it does not.
	virtual std::string superlinear_note() const { return ""; }
};

// A scheme of the registry: the timer interface and its reporting.
class reported_scheme : public scheme, public scheme_reporting {};

struct scheme_options {
	unsigned hz = 250;
	unsigned word_bits = 64;	// 32: a 32-bit kernel's unsigned long jiffies
	bool base_small = false;	// CONFIG_BASE_SMALL geometry (classic)
	// Scheme parameters from --param KEY=VALUE, in command-line order.
	std::vector<std::pair<std::string, std::string>> params;
	// For tests: process idle stretches jiffy by jiffy instead of
	// skipping them, the reference the skipping must agree with.
	bool stepping = false;
};

// Builds a scheme by name; throws usage_error for an unknown name or parameter.
std::unique_ptr<reported_scheme> make_scheme(const std::string &name, const scheme_options &opt);
// All scheme names, in the order `compare` lists them by default.
const std::vector<std::string> &scheme_names();

}  // namespace timersim
