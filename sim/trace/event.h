// One recorded timer event, as every trace reader hands it to the simulator.
//
// The readers (raw tracefs text, trace-cmd report, perf script, trace.dat,
// LTTng CTF) all map their rendering onto this one record, so the replay
// core never knows which format it is reading. Field meanings follow
// include/trace/events/timer.h; see ../shared/docs/trace-formats.md.
#pragma once

#include <cstdint>
#include <string_view>

namespace timersim {

enum class event_kind : std::uint8_t {
	timer_init,
	timer_start,
	timer_cancel,
	timer_expire_entry,
	timer_expire_exit,
	timer_base_idle,	// 6.8+: is_idle=%d cpu=%d
	hrtimer,		// any hrtimer_* event (which one: trace_event::hrtimer)
	// What the timer code cost, measured (include/trace/events/irq.h,
	// irq_vectors.h): a softirq handler's run and its raise (vec=%u), and
	// any hard interrupt's entry and exit; the hardware timer's own
	// interrupt is marked by trace_event::timer_interrupt.
	softirq_entry,
	softirq_exit,
	softirq_raise,
	irq_entry,		// irq_vectors:*_entry vector=%d, irq:irq_handler_entry irq=%d name=%s
	irq_exit,		// irq_vectors:*_exit, irq:irq_handler_exit irq=%d ret=%s
	// What the NOHZ idle code did (include/trace/events/timer.h,
	// power.h, timer_migration.h): the hrtimer model stops and restarts
	// a CPU's tick by them where the trace has them (docs/ticks.md).
	tick_stop,		// timer:tick_stop success=%d dependency=%s
	cpu_idle,		// power:cpu_idle state=%lu cpu_id=%lu
	tmigr,			// any timer_migration:tmigr_* event (which one: trace_event::tmigr)
	other,			// any other event (itimer_*, sched_*, ...)
};

// Which tmigr_* event an event_kind::tmigr record is
// (include/trace/events/timer_migration.h; the fields each prints in
// text_fields.cc's tmigr_required_keys).
enum class tmigr_event : std::uint8_t {
	none,
	// class tmigr_cpugroup: cpu=%d parent=%p wakeup=%llu
	cpu_new_timer, cpu_active, cpu_online, cpu_offline, handle_remote_cpu,
	cpu_available, cpu_unavailable,		// 6.19: the available mask
	// class tmigr_idle: cpu=%d parent=%p nextevt=%llu wakeup=%llu
	cpu_idle, cpu_new_timer_idle,
	// the groups': group=%p lvl=%d ...
	group_set, connect_child_parent, group_set_cpu_inactive, group_set_cpu_active,
	handle_remote,
	connect_cpu_parent,			// cpu=%d groupmask=... parent=%p ...
	update_events,				// child=%p group=%p ... nextevt=%llu ...
	other,
};

// Which hrtimer_* event an event_kind::hrtimer record is.
enum class hrtimer_event : std::uint8_t {
	none,
	init,		// hrtimer_init (before 6.13) or hrtimer_setup: clockid, mode
	start,		// expires, softexpires, mode; was_armed on kernels that print it
	cancel,
	expire_entry,	// now
	expire_exit,
	rearm,		// 2026 kernels: hrtimer_rearm
	start_expired,	// 2026 kernels: hrtimer_start_expired
	other,
};

// HRTIMER_MODE_* bits as include/linux/hrtimer.h numbers them (ABS is 0).
enum hrtimer_mode_bit : std::uint32_t {
	HRM_REL    = 1u << 0,
	HRM_PINNED = 1u << 1,
	HRM_SOFT   = 1u << 2,
	HRM_HARD   = 1u << 3,
	HRM_LAZY_REARM = 1u << 4,	// 7.1: the HRTICK's (printed as a number: no name)
};

// Softirq vectors of the timer code (include/linux/interrupt.h).
constexpr std::uint32_t TIMER_SOFTIRQ = 1;
constexpr std::uint32_t HRTIMER_SOFTIRQ = 8;

// Timer flags, normalised across kernel versions (the raw bit layout of
// timer->flags changed in 4.2, 4.8 and later; readers translate).
enum timer_flag : std::uint32_t {
	TF_MIGRATING  = 1u << 0,	// M
	TF_DEFERRABLE = 1u << 1,	// D
	TF_PINNED     = 1u << 2,	// P
	TF_IRQSAFE    = 1u << 3,	// I
};

// Which optional fields a record carries (bit set in trace_event::has).
enum event_field : std::uint32_t {
	EF_TIMEOUT       = 1u << 0,	// [timeout=%ld]
	EF_FLAGS         = 1u << 1,	// flags=0x%08x (4.2-4.10) or flags=M|D|P|I (4.11+)
	EF_TARGET_CPU    = 1u << 2,	// cpu=%u of timer_start (4.11+)
	EF_IDX           = 1u << 3,	// idx=%u (4.11+)
	EF_BASECLK       = 1u << 4,	// baseclk=%lu of timer_expire_entry (5.2+)
	EF_BUCKET_EXPIRY = 1u << 5,	// bucket_expiry=%lu (6.8+)
	EF_TIMESTAMP     = 1u << 6,	// ts_ns is meaningful
	// The tracer lost events on this event's CPU just before it (a ring
	// buffer overrun; CTF: a packet's discarded events): what happened
	// to the timers in the gap is unknown.
	EF_AFTER_LOSS    = 1u << 7,
	EF_SOFTEXPIRES   = 1u << 8,	// hrtimer_start softexpires=%llu
	EF_CLOCKID       = 1u << 9,	// hrtimer_init/setup clockid=
	EF_HRTIMER_MODE  = 1u << 10,	// hrtimer_init/setup/start mode=
	// hrtimer_start was_armed=%d (6.18+); hrtimer_rearm deferred=%d (7.1+)
	EF_WAS_ARMED     = 1u << 11,
	EF_VEC           = 1u << 12,	// softirq_* vec=, irq_vectors vector=, irq_handler irq=
	// vec is irq=%d of irq_handler_entry/exit (a Linux irq number), not
	// an x86 vector (irq_vectors:*): the two number spaces overlap.
	EF_IRQ           = 1u << 13,
	// For the measurement only: a recorded event the schemes must not see
	// (--own-expiries keeps the recorded expiries from them, while what the
	// recording measured stays the recording's; sim/whatif/own_expiries.h).
	EF_MEASURE_ONLY  = 1u << 14,
};

struct trace_event {
	// The fields the replay keeps come first, in the order, types and
	// places of sim_event's (sim/stream/event_stream.h, whose static_asserts
	// hold the two in step): an event goes there in one copy of a block.
	event_kind kind = event_kind::other;
	// hrtimer_* events (kind hrtimer); times are in the timer's own clock.
	hrtimer_event hrtimer = hrtimer_event::none;
	bool is_idle = false;		// timer_base_idle
	// Hex digits the pointer was printed with, without 0x (8: a 32-bit
	// kernel, 16: 64-bit); for binary formats 2 * the trace's long size;
	// 0 when unknown.
	std::uint8_t timer_digits = 0;
	std::uint32_t cpu = 0;		// CPU column: where the event was recorded
	// A field only some kinds carry shares its place with fields of
	// kinds that never carry it: a reader sets only the fields of the
	// event's kind (a key of another kind in a line is not kept).
	union {
		std::uint32_t target_cpu = 0;	// timer_start cpu= (4.11+); timer_base_idle cpu=
		// softirq_* (the vector) and irq_* (x86 vector or irq number) events.
		std::uint32_t vec;
		std::uint32_t cpu_id;		// cpu_idle cpu_id=; tmigr_* cpu=
		std::uint32_t dependency;	// tick_stop: TICK_DEP_MASK_* bits (0: NONE)
	};
	std::uint32_t function_id = 0;	// sim_event's interned callback: 0 here, always
	std::uint16_t has = 0;		// event_field bits
	std::uint8_t flags = 0;		// timer_flag bits
	// irq_entry/irq_exit: this is the hardware timer's interrupt
	// (local_timer_*, or irq_handler_* of an irq the trace names a timer).
	bool timer_interrupt = false;
	// CLOCK_* number (CLOCK_MONOTONIC 1, REALTIME 0, BOOTTIME 7, TAI 11),
	// its low byte (the numbers stop at 11).
	std::uint8_t clockid = 0;
	std::uint8_t hrtimer_mode = 0;	// hrtimer_mode_bit bits
	union {
		bool was_armed = false;	// hrtimer_start
		// hrtimer_rearm: programmed on the way out of the interrupt
		// (7.1's __hrtimer_rearm_deferred()), not at a start or removal.
		bool deferred;
		tmigr_event tmigr;	// kind tmigr: which
	};
	// Recorded in the idle task (pid 0: "<idle>-0", perf's "swapper 0"):
	// the CPU idle, or an interrupt taken from idle. Text renderings only
	// (trace.dat and CTF leave it false).
	bool idle_task = false;
	std::uint64_t line = 0;		// 1-based line (text) or record number (binary)
	std::uint64_t ts_ns = 0;	// timestamp, nanoseconds
	std::uint64_t timer = 0;	// timer=%p (or hrtimer=%p) as an integer
	union {
		std::uint64_t expires = 0;	// timer_start: jiffies (hrtimer_start: ns)
		std::uint64_t now;		// timer_expire_entry: jiffies (hrtimer: ns)
		// cpu_idle state=: the C-state entered, or 4294967295
		// (PWR_EVENT_EXIT, (u32)-1) when the CPU leaves idle.
		std::uint64_t idle_state;
		std::uint64_t nextevt;		// tmigr_cpu_idle, _new_timer_idle, update_events nextevt=
		std::uint64_t stop_success;	// tick_stop success=: 1 stopped, 0 kept by a dependency
	};
	union {
		std::int64_t timeout = 0;	// timer_start: expires - jiffies at the call
		std::uint64_t softexpires;	// hrtimer_start: ns
		std::uint64_t baseclk;		// timer_expire_entry 5.2+
		std::uint64_t wakeup;		// tmigr cpu events wakeup=
	};

	// Event name as recorded, without a "timer:" prefix ("timer_start",
	// "hrtimer_start", "sched_switch", ...). Valid until the reader's next().
	std::string_view name;
	// Callback: a symbol ("process_timeout") or a hex address ("0xffffffff81065e80",
	// always with 0x). Valid until the reader's next().
	std::string_view function;
	std::uint64_t bucket_expiry = 0;	// timer_start 6.8+
	std::uint32_t idx = 0;		// timer_start idx= (4.11+)

	bool carries(event_field f) const { return (has & f) != 0; }
};

const char *event_kind_name(event_kind k);

// cpu_idle state= of a CPU leaving idle (PWR_EVENT_EXIT: (u32)-1).
constexpr std::uint64_t idle_exit_state = 4294967295u;

// The NOHZ idle events (tick_stop, cpu_idle, tmigr_*).
constexpr bool is_nohz_event(event_kind k)
{
	return k >= event_kind::tick_stop && k <= event_kind::tmigr;
}

// The events of the timer wheel itself (timer_*), as opposed to hrtimer,
// softirq, interrupt and other events.
constexpr bool is_timer_event(event_kind k)
{
	return k <= event_kind::timer_base_idle;
}

// The events that measure what the timer code cost (softirq and hard
// interrupt entry, exit and raise).
constexpr bool is_cost_event(event_kind k)
{
	return k >= event_kind::softirq_entry && k <= event_kind::irq_exit;
}

}  // namespace timersim
