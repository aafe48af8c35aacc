// The events that measure what the timer code cost (softirq runs and hard
// interrupts) and the hrtimer_* events, as every reader names them, and the
// hrtimer field values the kernel prints as words (clock ids, modes).
//
// Names (include/trace/events/irq.h, arch/x86/include/asm/trace/
// irq_vectors.h; LTTng's in lttng-modules instrumentation/events/irq.h and
// arch/x86/irq_vectors.h):
//   softirq_entry/exit/raise      vec=%u [action=%s]   LTTng irq_softirq_*
//   irq_handler_entry             irq=%d name=%s       (the same in LTTng)
//   irq_handler_exit              irq=%d ret=%s        (LTTng: ret=%d)
//   <vector>_entry/_exit          vector=%d            LTTng x86_irq_vectors_<vector>_*
// with <vector> one of the x86 vectors below; local_timer is the local APIC
// timer, the hardware timer interrupt of x86.
#pragma once

#include <cstdint>
#include <string_view>

#include "sim/trace/event.h"

// The x86 vectors arch/x86/include/asm/trace/irq_vectors.h traces with
// <name>_entry/_exit (vector=%d), as of 6.18 and before: X(name) for each.
// One list for irq_event_kind and the one-pass parse's table of names
// (text_event_names.cc).
#define TIMERSIM_X86_VECTORS(X)                                                              \
	X("local_timer") X("reschedule") X("call_function") X("call_function_single")       \
	X("spurious_apic") X("error_apic") X("x86_platform_ipi") X("irq_work")              \
	X("deferred_error_apic") X("thermal_apic") X("threshold_apic") X("reboot")

namespace timersim {

// The kind of a softirq or hard-interrupt event named NAME (the kernel's
// name, without subsystem), or event_kind::other. TIMER_INTERRUPT: the
// name is the hardware timer's own vector (local_timer_entry/exit).
event_kind irq_event_kind(std::string_view name, bool &timer_interrupt);

// Whether an irq_handler_entry's name= is a hardware timer's: the irq
// action names the clockevent drivers request their interrupt with:
//   timer           x86 PIT/HPET legacy irq 0, many ARM SoC timers
//   arch_timer      ARM generic timer (arm64, ARMv7 with virt. ext.)
//   arch_mem_timer  its memory-mapped frame
//   riscv-timer     RISC-V SBI/Sstc timer
//   twd             ARM Cortex-A9 private (local) timer
//   local_timer     ARM local timers of 3.x kernels
//   gt              ARM Cortex-A9 global timer (arm_global_timer)
//   hpet, hpetN...  HPET channels used as per-CPU clockevents (hpet*)
//   loongarch-timer, csky_mp_timer, sp804, mct_tick*, exynos-mct
bool is_timer_irq_name(std::string_view name);

// Which irq numbers a trace's irq_handler_entry named as a hardware timer:
// irq_handler_exit carries no name, so each reader remembers them and
// marks the exits too (in the order it reads: an exit before any entry of
// its irq is not marked).
class timer_irq_memory {
public:
	// EV: a reader's irq_entry or irq_exit of irq_handler_* (EF_IRQ set);
	// an entry teaches, an exit is marked.
	template <class Event>
	void settle(Event &ev)
	{
		if (!(ev.has & EF_IRQ))
			return;
		if (ev.kind == event_kind::irq_entry)
			learn(ev.vec, ev.timer_interrupt);
		else if (ev.kind == event_kind::irq_exit)
			ev.timer_interrupt = knows(ev.vec);
	}
	void learn(std::uint32_t irq, bool timer);
	bool knows(std::uint32_t irq) const;

private:
	static constexpr std::uint32_t words = 64;	// irqs 0..4095; higher ones are kept in `more_`
	std::uint64_t bits_[words] = {};
	std::uint32_t more_[8] = {};
	unsigned n_more_ = 0;
};

// Which hrtimer_* event NAME is (hrtimer_init and hrtimer_setup are one).
hrtimer_event hrtimer_event_of(std::string_view name);

// clockid= of hrtimer_init/setup: CLOCK_REALTIME ... CLOCK_TAI (and the
// other posix clock names), or a number (decimal, or 0x.. where
// __print_symbolic had no name for it). Older kernels (before 4.16) print
// CLOCK_REALTIME for 0 and CLOCK_MONOTONIC for every other clock.
bool parse_clockid(std::string_view s, std::uint32_t &clockid);

// mode= of hrtimer_init/setup/start as hrtimer_mode_bit bits:
//   4.16+    ABS, REL, ABS|PINNED, REL|PINNED|SOFT, REL|HARD, ... (the
//            kernel's own rendering), 0x9 (libtraceevent, which cannot
//            resolve the HRTIMER_MODE_* names: trace-cmd report, perf)
//   <=4.15   HRTIMER_MODE_ABS, HRTIMER_MODE_REL (hrtimer_init: 0 or not 0:
//            a PINNED mode shows as HRTIMER_MODE_REL), also HRTIMER_MODE_PINNED
//            and _ABS_PINNED/_REL_PINNED where a tool spells the enum out
//   numbers  decimal or 0x..
bool parse_hrtimer_mode(std::string_view s, std::uint32_t &mode);

// The two into trace_event's byte-wide fields: their low byte, what the
// replay keeps (clock numbers stop at 11, mode bits at 8).
inline bool parse_clockid(std::string_view s, std::uint8_t &clockid)
{
	std::uint32_t v = clockid;
	bool ok = parse_clockid(s, v);
	clockid = static_cast<std::uint8_t>(v);
	return ok;
}
inline bool parse_hrtimer_mode(std::string_view s, std::uint8_t &mode)
{
	std::uint32_t v = mode;
	bool ok = parse_hrtimer_mode(s, v);
	mode = static_cast<std::uint8_t>(v);
	return ok;
}

}  // namespace timersim
