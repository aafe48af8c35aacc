// The NOHZ idle events, as every reader names them, and the values their
// payloads print as words:
//   timer:tick_stop            success=%d dependency=%s   (include/trace/events/timer.h)
//   power:cpu_idle             state=%lu cpu_id=%lu       (include/trace/events/power.h;
//                              LTTng power_cpu_idle)
//   timer_migration:tmigr_*    (include/trace/events/timer_migration.h): the
//                              per-CPU ones cpu=%d parent=%p [nextevt=%llu] wakeup=%llu,
//                              the groups' group=%p lvl=%d ..., update_events child=%p
//                              group=%p ... nextevt=%llu ...
#pragma once

#include <cstdint>
#include <string_view>

#include "sim/trace/event.h"

namespace timersim {

// tick_stop, cpu_idle or tmigr for those names (the kernel's, without
// subsystem), else event_kind::other.
event_kind nohz_event_kind(std::string_view name);

// Which tmigr_* event NAME is (other for a tmigr_ name not listed).
tmigr_event tmigr_event_of(std::string_view name);

// The tmigr events that print cpu= (the per-CPU classes and
// connect_cpu_parent) and those whose nextevt= is kept.
constexpr bool tmigr_has_cpu(tmigr_event e)
{
	return (e >= tmigr_event::cpu_new_timer && e <= tmigr_event::cpu_new_timer_idle) ||
	       e == tmigr_event::connect_cpu_parent;
}
constexpr bool tmigr_has_nextevt(tmigr_event e)
{
	return e == tmigr_event::cpu_idle || e == tmigr_event::cpu_new_timer_idle ||
	       e == tmigr_event::update_events;
}
constexpr bool tmigr_has_wakeup(tmigr_event e)
{
	return e >= tmigr_event::cpu_new_timer && e <= tmigr_event::cpu_new_timer_idle;
}

// tick_stop dependency=: TICK_DEP_MASK_* (include/linux/tick.h) by the
// names __print_symbolic prints (NONE, POSIX_TIMER, PERF_EVENTS, SCHED,
// CLOCK_UNSTABLE, RCU, RCU_EXP), or a number (decimal or 0x..) where a
// tool had no name for it.
bool parse_tick_dependency(std::string_view s, std::uint32_t &mask);

}  // namespace timersim
