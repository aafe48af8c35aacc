// The high-resolution timer subsystem of kernel/time/hrtimer.c (6.x), per
// CPU: an hrtimer_cpu_base holding one clock base per clock, each a
// timerqueue (kernel/timerqueue.h) of the timers on that clock, and a
// programmable clockevent device that raises the CPU's timer interrupt.
//
//   generation          clock bases, in the order the interrupt walks them
//   two_bases           REALTIME, MONOTONIC        (2.6.16 .. 2.6.38: the
//                                                    array indexed by clockid)
//   four_bases          MONOTONIC, REALTIME, BOOTTIME, TAI        (.. 4.15)
//   soft_bases          the four, then MONOTONIC_SOFT .. TAI_SOFT (4.16 on)
//
// A timer has a range: it may run once now >= softexpires, and the device
// is programmed from expires (the tree's key). The interrupt runs, base by
// base, every timer from the left of the tree whose softexpires has passed,
// stopping at the first that has not: so a timer runs early, inside an
// interrupt some other timer caused, instead of waking the CPU itself.
//
// Expiries are in the timer's own clock; a base's offset turns them into
// CLOCK_MONOTONIC (REALTIME: the epoch; BOOTTIME: time suspended; TAI:
// REALTIME + leap seconds). expires_next, the device and `now` are
// CLOCK_MONOTONIC.
//
// Time: every cpu base reads the machine's CLOCK_MONOTONIC and offsets from
// one hrtimer_machine the caller owns and moves (a callback may move it
// too: that is how a long callback, and a hang, are modelled). There are
// no threads: the caller says which CPU does each operation (this_cpu), as
// the kernel's this_cpu_ptr() would. Callbacks are the caller's function
// and context; nothing is allocated.
//
// The reprogramming rules are the kernel's, each counted:
//   hrtimer_reprogram()      after an enqueue that made a new first timer:
//                            skip when not earlier than expires_next, when
//                            the interrupt is running (it re-evaluates at
//                            its end), when the base is another CPU's (no
//                            remote device), and do nothing to the device
//                            while a hang is being sat out;
//   hrtimer_force_reprogram() re-evaluates every base: after removing the
//                            timer the device was programmed for
//                            (next_timer) on this CPU, and when the
//                            next_timer is re-armed; skip_equal spares the
//                            device when the first expiry did not change.
//
// 7.1 (the hrtimer rework, CONFIG_HRTIMER_REARM_DEFERRED; set
// rearm_deferred on a base after hrtimer_cpu_base_init()):
//   the interrupt leaves the device unprogrammed and caches its next
//   expiry (hrtimer_interrupt_rearm()); until the return from the
//   interrupt programs it (hrtimer_rearm_deferred(): before the softirqs
//   run, at the return to the interrupted context, or at the end of the
//   schedule() the return made), starts and removals on this CPU touch
//   no device and only mark the cache stale (deferred_needs_update); the
//   rearm then programs once, always (hrtimer_rearm_event() has no
//   skip_equal), a hang by min(100 ms, the longest interrupt) ahead;
//   a LAZY_REARM timer (the scheduler's HRTICK) that is the device's
//   next_timer and moves later, or is removed, leaves the device armed
//   for the earlier time (a pointless interrupt is cheaper than the
//   write).
//
// Freestanding, like the wheels: no allocation, no exceptions, nothing
// hosted.
#pragma once

#include <cstdint>

#include "kernel/timerqueue.h"

namespace kernel::hr {

using kernel::ktime_t;
using kernel::timerqueue_costs;

constexpr ktime_t KTIME_MAX = INT64_MAX;
constexpr ktime_t NSEC_PER_USEC = 1000;
constexpr ktime_t NSEC_PER_MSEC = 1000000;
constexpr ktime_t NSEC_PER_SEC = 1000000000;

// The hang rule's cap: after a hang the device is programmed `time spent in
// the interrupt` ahead, at most this far.
constexpr ktime_t HANG_MAX_DELTA = 100 * NSEC_PER_MSEC;
// The interrupt gives up reprogramming a past expiry after this many tries.
constexpr unsigned HRTIMER_MAX_RETRIES = 3;

// The clockids (uapi/linux/time.h values), prefixed: <time.h> defines
// CLOCK_REALTIME and the others as macros in every hosted program.
enum clockid : int {
	HR_CLOCK_REALTIME = 0,
	HR_CLOCK_MONOTONIC = 1,
	HR_CLOCK_BOOTTIME = 7,
	HR_CLOCK_TAI = 11,
};

enum hrtimer_base_type : unsigned {
	HRTIMER_BASE_MONOTONIC,
	HRTIMER_BASE_REALTIME,
	HRTIMER_BASE_BOOTTIME,
	HRTIMER_BASE_TAI,
	HRTIMER_BASE_MONOTONIC_SOFT,
	HRTIMER_BASE_REALTIME_SOFT,
	HRTIMER_BASE_BOOTTIME_SOFT,
	HRTIMER_BASE_TAI_SOFT,
	HRTIMER_MAX_CLOCK_BASES,
};

constexpr unsigned HRTIMER_ACTIVE_HARD = (1u << HRTIMER_BASE_MONOTONIC_SOFT) - 1;
constexpr unsigned HRTIMER_ACTIVE_SOFT = HRTIMER_ACTIVE_HARD << HRTIMER_BASE_MONOTONIC_SOFT;
constexpr unsigned HRTIMER_ACTIVE_ALL = HRTIMER_ACTIVE_SOFT | HRTIMER_ACTIVE_HARD;

// enum hrtimer_mode's bits, as the trace's mode= prints them.
enum : unsigned {
	HRTIMER_MODE_ABS = 0x00,
	HRTIMER_MODE_REL = 0x01,
	HRTIMER_MODE_PINNED = 0x02,
	HRTIMER_MODE_SOFT = 0x04,
	HRTIMER_MODE_HARD = 0x08,
	HRTIMER_MODE_LAZY_REARM = 0x10,	// 7.1: the HRTICK's (see the rules above)
};

enum hrtimer_restart { HRTIMER_NORESTART, HRTIMER_RESTART };

enum : std::uint8_t { HRTIMER_STATE_INACTIVE = 0, HRTIMER_STATE_ENQUEUED = 1 };

enum class hrtimer_generation { two_bases, four_bases, soft_bases };

struct hrtimer;
struct hrtimer_clock_base;
struct hrtimer_cpu_base;

using hrtimer_fn = hrtimer_restart (*)(hrtimer *timer, void *context);

// What every CPU reads: CLOCK_MONOTONIC now, and the offsets of the other
// clocks from it (timekeeping's offs_real, offs_boot, offs_tai).
struct hrtimer_machine {
	ktime_t now = 0;
	ktime_t offs_real = 0;
	ktime_t offs_boot = 0;
	ktime_t offs_tai = 0;
	// hrtimer_resolution: 1 ns in high resolution mode, a jiffy without.
	ktime_t resolution = 1;
};

struct hrtimer {
	timerqueue_node node;		// node.expires: the hard expiry, the key
	ktime_t softexpires;		// may run from here on
	hrtimer_clock_base *base;
	hrtimer_fn function;
	void *context;
	std::uint8_t state;		// HRTIMER_STATE_*
	bool is_soft;			// expires in HRTIMER_SOFTIRQ
	bool is_hard;
	bool is_lazy;			// HRTIMER_MODE_LAZY_REARM (7.1 rules only)
};

struct hrtimer_clock_base {
	hrtimer_cpu_base *cpu_base;
	unsigned index;			// hrtimer_base_type
	int clockid;
	hrtimer *running;		// whose callback runs now
	timerqueue_head active;
	ktime_t offset;			// this clock minus CLOCK_MONOTONIC
};

// A per-CPU oneshot clockevent device (tick_program_event() and
// clockevents_program_event()): programmed for an absolute CLOCK_MONOTONIC
// time; a delta beyond max_delta_ns fires early (at the limit), one below
// min_delta_ns late; an expiry not in the future is refused (-ETIME)
// unless forced, which programs the minimum delta.
struct clock_event_device {
	ktime_t next_event = KTIME_MAX;	// what was asked for (KTIME_MAX: stopped)
	ktime_t fires_at = KTIME_MAX;	// when the interrupt is raised
	ktime_t min_delta_ns = 1000;
	ktime_t max_delta_ns = 4 * NSEC_PER_SEC;
	bool stopped = true;		// CLOCK_EVT_STATE_ONESHOT_STOPPED
	std::uint64_t programs = 0;	// set_next_event() calls
	std::uint64_t min_delta_programs = 0;	// of them, forced to the minimum
	std::uint64_t refused = 0;	// -ETIME: the expiry had passed
	std::uint64_t stops = 0;	// programmed to KTIME_MAX
};

// Why a reprogram did not touch the device (each counted in hrtimer_costs).
enum hrtimer_skip : unsigned {
	SKIP_NOT_EARLIER,	// hrtimer_reprogram: not before expires_next
	SKIP_IN_HRTIRQ,		// hrtimer_reprogram: the interrupt re-evaluates
	SKIP_REMOTE,		// hrtimer_reprogram: another CPU's base
	SKIP_SOFTIRQ_ACTIVATED,	// hrtimer_reprogram: soft timer, softirq raised
	SKIP_EQUAL,		// hrtimer_force_reprogram(skip_equal): no change
	SKIP_HANG,		// __hrtimer_reprogram: sitting out a hang
	SKIP_LOWRES,		// __hrtimer_reprogram: not in high resolution mode
	SKIP_DEFERRED,		// 7.1: a deferred rearm is pending; it re-evaluates
	SKIP_LAZY,		// 7.1: a LAZY_REARM next_timer moved later or removed
	SKIP_REASONS,
};

struct hrtimer_costs {
	std::uint64_t enqueues = 0;
	std::uint64_t removals = 0;	// cancels and re-arms of queued timers
	std::uint64_t expiries_hard = 0;
	std::uint64_t expiries_soft = 0;
	std::uint64_t restarts = 0;	// callbacks that returned HRTIMER_RESTART
	std::uint64_t reprograms = 0;	// __hrtimer_reprogram() calls
	std::uint64_t force_reprograms = 0;	// hrtimer_force_reprogram() calls
	std::uint64_t skips[SKIP_REASONS] = {};
	std::uint64_t softirqs_raised = 0;
	std::uint64_t softirq_runs = 0;
	std::uint64_t tick_runs = 0;	// hrtimer_run_queues() (low resolution)
	std::uint64_t bases_scanned = 0;	// clock bases looked at for the next event
	// 7.1: rearms made on the return from the interrupt, and of them
	// those that re-evaluated the bases (a timer added or removed meanwhile).
	std::uint64_t deferred_rearms = 0;
	std::uint64_t deferred_updates = 0;
};

struct hrtimer_cpu_base {
	hrtimer_machine *machine;
	unsigned cpu;
	hrtimer_generation generation;
	unsigned active_bases;		// bit per base holding a timer
	bool hres_active;		// high resolution mode (highres=on)
	bool in_hrtirq;
	// 7.1 rules (CONFIG_HRTIMER_REARM_DEFERRED): the interrupt defers its
	// rearm (set by the caller after init). deferred_rearm: one is
	// pending (in_hrtirq stays set meanwhile: the kernel renamed it so);
	// deferred_needs_update: a timer was added or removed since the
	// interrupt cached deferred_expires_next.
	bool rearm_deferred;
	bool deferred_rearm;
	bool deferred_needs_update;
	ktime_t deferred_expires_next;
	bool hang_detected;
	bool softirq_activated;		// HRTIMER_SOFTIRQ raised, not yet run
	bool softirq_pending;		// for the caller: run hrtimer_run_softirq()
	unsigned nr_events;		// interrupts
	unsigned nr_retries;
	unsigned nr_hangs;
	ktime_t max_hang_time;
	ktime_t expires_next;		// what the device was last set up for
	hrtimer *next_timer;		// the timer expires_next came from
	ktime_t softirq_expires_next;
	hrtimer *softirq_next_timer;
	hrtimer_clock_base clock_base[HRTIMER_MAX_CLOCK_BASES];
	// The bases of this generation in the order the interrupt walks them.
	unsigned char order[HRTIMER_MAX_CLOCK_BASES];
	unsigned nr_bases;
	clock_event_device dev;
	hrtimer_costs costs;
};

// ---- set-up -------------------------------------------------------------------

// hrtimers_prepare_cpu(): an empty base of `generation`. hres: in high
// resolution mode (the device runs the timers; else the tick does, through
// hrtimer_run_queues()). The device starts stopped with `dev`'s limits.
void hrtimer_cpu_base_init(hrtimer_cpu_base *cpu_base, hrtimer_machine *machine, unsigned cpu,
			   hrtimer_generation generation, bool hres, const clock_event_device &dev = {});

// hrtimer_setup(): ties `timer` to `clockid` on `this_cpu` (REALTIME with
// HRTIMER_MODE_REL becomes MONOTONIC, as POSIX wants; SOFT picks the _SOFT
// base). Returns false when the generation has no such clock (the kernel
// warns and uses MONOTONIC, as does this) or no soft bases for SOFT (the
// timer is then a hard one).
bool hrtimer_setup(hrtimer *timer, hrtimer_fn function, void *context, int clockid, unsigned mode,
		   hrtimer_cpu_base *this_cpu);

// ---- the API --------------------------------------------------------------------

inline bool hrtimer_is_queued(const hrtimer *timer) { return timer->state & HRTIMER_STATE_ENQUEUED; }
inline bool hrtimer_callback_running(const hrtimer *timer) { return timer->base->running == timer; }
inline bool hrtimer_active(const hrtimer *timer)
{
	return timer->state != HRTIMER_STATE_INACTIVE || hrtimer_callback_running(timer);
}
inline ktime_t hrtimer_get_expires(const hrtimer *timer) { return timer->node.expires; }
inline ktime_t hrtimer_get_softexpires(const hrtimer *timer) { return timer->softexpires; }

// The timer's clock now, from timekeeping (ktime_get_real() and the like).
ktime_t hrtimer_cb_get_time(const hrtimer *timer);

// hrtimer_start_range_ns(): (re)arms `timer` from `this_cpu` to run from
// `tim` (its clock; relative to now with HRTIMER_MODE_REL) to tim +
// delta_ns. `target` is where the caller would have it queued (the
// kernel's get_nohz_timer_target(); null or PINNED: this_cpu); the kernel's
// rules may keep it where it is (callback running, or it is this CPU's
// next_timer) or bring it back here (it would be the first timer of the
// remote CPU, whose device this CPU cannot program).
void hrtimer_start_range_ns(hrtimer_cpu_base *this_cpu, hrtimer *timer, ktime_t tim, ktime_t delta_ns,
			    unsigned mode, hrtimer_cpu_base *target = nullptr);

inline void hrtimer_start(hrtimer_cpu_base *this_cpu, hrtimer *timer, ktime_t tim, unsigned mode,
			  hrtimer_cpu_base *target = nullptr)
{
	hrtimer_start_range_ns(this_cpu, timer, tim, 0, mode, target);
}

// hrtimer_try_to_cancel() from `this_cpu`: 1 if it was queued (now
// removed), 0 if not active, -1 if its callback runs now.
int hrtimer_try_to_cancel(hrtimer_cpu_base *this_cpu, hrtimer *timer);

// hrtimer_forward(): moves expires (and softexpires) on by whole intervals
// past `now`; returns the number of intervals (overruns). For callbacks that
// return HRTIMER_RESTART. The timer must not be queued.
std::uint64_t hrtimer_forward(hrtimer *timer, ktime_t now, ktime_t interval);
inline std::uint64_t hrtimer_forward_now(hrtimer *timer, ktime_t interval)
{
	return hrtimer_forward(timer, hrtimer_cb_get_time(timer), interval);
}

// hrtimer_interrupt(): the device of `cpu_base` fired at machine->now. Runs
// every due hard timer, raises HRTIMER_SOFTIRQ (softirq_pending) when the
// first soft expiry has passed, reprograms the device from the first
// expiry left, retrying when that has passed meanwhile, and after
// HRTIMER_MAX_RETRIES declares a hang.
void hrtimer_interrupt(hrtimer_cpu_base *cpu_base);

// hrtimer_rearm_deferred(): 7.1's __hrtimer_rearm_deferred(), called on the
// way out of the interrupt: programs the device once for the first expiry
// (re-evaluated if a timer was added or removed since the interrupt).
// False when no rearm was pending (nothing done).
bool hrtimer_rearm_deferred(hrtimer_cpu_base *cpu_base);

// hrtimer_run_softirq(): HRTIMER_SOFTIRQ on this CPU: runs the due soft
// timers, then programs for the next soft expiry.
void hrtimer_run_softirq(hrtimer_cpu_base *cpu_base);

// hrtimer_run_queues(): the tick's call in low resolution mode (highres=off
// or before the switch): runs the due hard timers, raises the softirq.
void hrtimer_run_queues(hrtimer_cpu_base *cpu_base);

// The first expiry over every base (soft ones unless the softirq is
// raised), CLOCK_MONOTONIC; KTIME_MAX when none: __hrtimer_get_next_event
// without touching next_timer.
ktime_t hrtimer_next_event(const hrtimer_cpu_base *cpu_base);

// Every timer queue's costs of `cpu_base`, summed, and its rotations.
timerqueue_costs hrtimer_queue_costs(const hrtimer_cpu_base *cpu_base, std::uint64_t *rotations);

}  // namespace kernel::hr
