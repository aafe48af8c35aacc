// The machine a generated workload runs on: an ideal Linux 3.x kernel.
//
// Time runs jiffy by jiffy. Each jiffy begins with the timer softirq of
// every CPU (in CPU order), which fires each timer whose `expires` is this
// jiffy - exactly then, as the classic wheel does - and runs its callback;
// then the process-context actions the workloads scheduled inside the
// jiffy run in time order. Timers stay on the CPU they were created on
// (the CPU column is the base, as in 3.x traces).
//
// The machine emits the events a 3.x kernel traces (kernel/timer.c of
// Linux 3.10, include/trace/events/timer.h):
//   init_timer()        timer_init
//   mod_timer()         timer_cancel (if pending: detach_if_pending) then
//                       timer_start with expires and [timeout=]; nothing at
//                       all when the timer is pending with that very expiry
//                       (mod_timer's early return); `expires` after
//                       apply_slack() unless the workload asks for an exact
//                       expiry (slack 0)
//   del_timer()         timer_cancel, only when the timer was pending
//   expiry              timer_cancel (detach_expired_timer), then
//                       timer_expire_entry with now = the jiffy, the
//                       callback's own events, timer_expire_exit
// With expiries off (--no-expiries) the expiry's three events are left
// out: the trace holds what the callers did and every scheme fires the
// timers on its own.
//
// As a 6.x kernel (--kernel 6: the non-cascading wheel of 4.8+, the
// `v48` scheme) the machine has no slack, and a timer fires when its
// bucket does: at bucket_expiry, its expiry rounded up to its level's
// granularity by calc_wheel_index() of kernel/v48_wheel.h (the one the
// v48 scheme runs), from the base's clk - the jiffy, or the next one once
// the base ran this jiffy's softirq (an expiry on that CPU in this jiffy,
// or a callback), as the replay keeps each base. mod_timer() of a pending
// timer whose new expiry lands in the same bucket only updates `expires`
// and traces nothing. timer_start carries bucket_expiry, cpu=, idx= and
// flags=P (pinned: each timer stays on its CPU's local base);
// timer_expire_entry carries baseclk=. Every scheme that fires no later
// than v48 - all the exact ones, classic included - then fires each timer
// itself before its recorded expiry, so their costs compare fairly.
#pragma once

#include <cstdint>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/scheme/scheme.h"
#include "sim/trace/event.h"

namespace timersim::gen {

using timer_h = std::uint32_t;	// a timer object of the machine

// One event as the ideal kernel traces it.
struct gen_event {
	event_kind kind = event_kind::other;
	bool v6 = false;		// 6.x fields (bucket_expiry, cpu=, idx=, flags=P, baseclk=)
	bool softirq = false;		// raised in the timer softirq (expiries, callbacks)
	std::uint32_t cpu = 0;
	std::uint32_t task = 0;		// index into machine::tasks() (process context)
	std::uint64_t ts_ns = 0;	// trace timestamp, whole microseconds
	std::uint64_t timer = 0;	// the timer's address
	std::uint32_t function = 0;	// index into machine::functions()
	jiffies_t expires = 0;		// timer_start
	std::int64_t timeout = 0;	// timer_start
	jiffies_t now = 0;		// timer_expire_entry (also baseclk on 6.x)
	jiffies_t bucket_expiry = 0;	// timer_start, 6.x
	std::uint32_t idx = 0;		// timer_start, 6.x
};

// The kernel generation the machine is and traces.
enum class kernel_gen : std::uint8_t { linux3, linux6 };

class source;

struct task_name {
	std::string comm;
	unsigned pid_base = 0;		// the pid on CPU c is pid_base + c
};

struct machine_options {
	unsigned hz = 250;
	unsigned cpus = 1;
	jiffies_t start = 0;		// the first jiffy
	std::uint64_t uptime_ns = 0;	// trace timestamp of the first jiffy
	std::uint64_t duration_ns = 0;	// jiffies that begin before this are run
	bool slack = true;		// 3.x apply_slack() on mod_timer
	bool expiries = true;		// trace the expiries
	kernel_gen kernel = kernel_gen::linux3;
	// Bounds on the generator's memory, whatever the rates: timer objects
	// alive at once (each about 200 bytes here, more in a replay), and the
	// events of one jiffy (80 bytes each, held until the jiffy is written).
	// Past either, step() throws usage_error naming the time.
	std::size_t max_timers = 4'000'000;
	std::size_t max_events_per_jiffy = 8'000'000;
};

class machine {
public:
	// Longest timeout a workload may ask for: 2^30 - 1 jiffies (12 days at
	// HZ 1000), below the classic wheel's 2^32 - 1 cap on every width.
	static constexpr jiffies_t max_timeout = (jiffies_t{1} << 30) - 1;

	explicit machine(const machine_options &opt);

	unsigned hz() const { return opt_.hz; }
	unsigned cpus() const { return opt_.cpus; }
	std::uint64_t duration_ns() const { return opt_.duration_ns; }
	std::uint64_t now_ns() const { return now_ns_; }	// 0 at the first jiffy
	jiffies_t jiffies() const { return jiffies_; }
	jiffies_t start_jiffies() const { return opt_.start; }
	// When jiffy j begins, in simulation time.
	std::uint64_t jiffy_ns(jiffies_t j) const;
	// A duration as a timeout: rounded up like msecs_to_jiffies, at least
	// one jiffy, at most max_timeout.
	jiffies_t timeout_for(std::uint64_t ns) const;

	// Names and tasks the workloads use.
	std::uint32_t function(const std::string &name);
	std::uint32_t task(const std::string &comm);
	// An address range for timer objects: slots of `stride` bytes from
	// `base`; a freed slot is reused first, on the same CPU (as a per-CPU
	// slab or a task's stack is), so that an address never moves to
	// another CPU while the old one may still hold it.
	std::uint32_t pool(std::uint64_t base, std::uint64_t stride);

	// init_timer() of a new object on `cpu`; `cookie` is the owner's.
	timer_h new_timer(source *owner, std::uint32_t pool, std::uint32_t function, unsigned cpu,
			  std::uint64_t cookie);
	// The object is gone (its address may come back: from the next jiffy
	// on, so that a replay that only learns of an expiry from the next
	// jiffy's events - --no-expiries - never sees a new timer at the
	// address of one that has yet to fire). Not while pending.
	void free_timer(timer_h t);
	// mod_timer(t, jiffies + timeout); `exact`: slack 0.
	void mod_timer(timer_h t, jiffies_t timeout, bool exact = false);
	// mod_timer() to an absolute expiry, without slack.
	void mod_timer_at(timer_h t, jiffies_t expires);
	// del_timer(): true when t was pending.
	bool del_timer(timer_h t);
	bool pending(timer_h t) const { return timers_[t].pending; }
	jiffies_t expires(timer_h t) const { return timers_[t].expires; }
	unsigned cpu_of(timer_h t) const { return timers_[t].cpu; }
	std::uint64_t cookie(timer_h t) const { return timers_[t].cookie; }
	// Armings so far: a scheduled action that remembers it can tell
	// whether the timer was re-armed or fired since.
	std::uint32_t arming(timer_h t) const { return timers_[t].arming; }

	// `s->act(tag)` at simulation time t_ns (not before now).
	void at(std::uint64_t t_ns, source *s, std::uint64_t tag, std::uint32_t task);

	// Runs the next jiffy, appending its events; false once the duration
	// is over (nothing appended). Throws usage_error past the options'
	// max_timers or max_events_per_jiffy.
	bool step(std::vector<gen_event> &out);

	const std::vector<std::string> &functions() const { return functions_; }
	const std::vector<task_name> &tasks() const { return tasks_; }

private:
	struct timer_obj {
		source *owner = nullptr;
		std::uint64_t address = 0;
		std::uint64_t cookie = 0;
		jiffies_t expires = 0;
		jiffies_t fires = 0;	// the jiffy it fires in (6.x: its bucket's expiry)
		std::uint32_t idx = 0;	// 6.x: its wheel index
		std::uint32_t function = 0;
		std::uint32_t pool = 0;
		std::uint32_t slot = 0;
		std::uint32_t arming = 0;
		unsigned cpu = 0;
		bool pending = false;
		bool live = false;
	};
	struct address_pool {
		std::uint64_t base = 0, stride = 0;
		std::uint32_t next = 0;
		std::vector<std::vector<std::uint32_t>> free;	// per CPU
	};
	struct due {		// a timer's arming in the expiry queue
		jiffies_t fires;
		unsigned cpu;
		std::uint64_t seq;
		timer_h timer;
		std::uint32_t arming;
		bool operator>(const due &o) const
		{
			if (fires != o.fires)
				return fires > o.fires;
			if (cpu != o.cpu)
				return cpu > o.cpu;
			return seq > o.seq;
		}
	};
	struct action {
		std::uint64_t t_ns;
		std::uint64_t seq;
		source *s;
		std::uint64_t tag;
		std::uint32_t task;
		bool operator>(const action &o) const
		{
			return t_ns != o.t_ns ? t_ns > o.t_ns : seq > o.seq;
		}
	};

	void arm(timer_h t, jiffies_t expires);
	// 6.x: the base clk an arming on `cpu` now starts from.
	jiffies_t base_clk(unsigned cpu) const;
	void fire(timer_h t);
	gen_event &emit(event_kind kind, const timer_obj &o);
	[[noreturn]] void too_much(const std::string &what) const;

	machine_options opt_;
	std::uint64_t now_ns_ = 0;
	jiffies_t jiffies_ = 0;
	jiffies_t next_jiffy_ = 0;	// the jiffy step() runs next
	bool in_softirq_ = false;
	std::uint32_t current_task_ = 0;
	std::uint64_t seq_ = 0;
	std::uint64_t last_ts_ = 0;
	std::vector<gen_event> *out_ = nullptr;
	std::vector<jiffies_t> ran_softirq_;	// per CPU: the last jiffy an expiry ran there

	std::vector<timer_obj> timers_;
	std::vector<timer_h> free_timers_;
	struct freed_slot {
		std::uint32_t pool, cpu, slot;
	};
	std::vector<freed_slot> freed_this_jiffy_;
	std::vector<address_pool> pools_;
	std::vector<std::string> functions_;
	std::unordered_map<std::string, std::uint32_t> function_ids_;
	std::vector<task_name> tasks_;
	std::priority_queue<due, std::vector<due>, std::greater<due>> due_;
	std::priority_queue<action, std::vector<action>, std::greater<action>> actions_;
};

// A workload: schedules actions, arms timers, and is told when they fire.
class source {
public:
	virtual ~source() = default;
	// Called once before the first jiffy; schedules the first actions.
	virtual void begin(machine &m) = 0;
	// A scheduled action runs (process context).
	virtual void act(machine &m, std::uint64_t tag) = 0;
	// The callback of t runs (softirq); t is no longer pending.
	virtual void fired(machine &m, timer_h t) = 0;
};

}  // namespace timersim::gen
