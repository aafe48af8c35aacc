#include "sim/trace/nohz_events.h"

#include <charconv>

namespace timersim {

event_kind nohz_event_kind(std::string_view name)
{
	if (name == "tick_stop")
		return event_kind::tick_stop;
	if (name == "cpu_idle")
		return event_kind::cpu_idle;
	if (name.starts_with("tmigr_"))
		return event_kind::tmigr;
	return event_kind::other;
}

tmigr_event tmigr_event_of(std::string_view name)
{
	struct named {
		std::string_view name;
		tmigr_event event;
	};
	static constexpr named events[] = {
		{"tmigr_cpu_new_timer", tmigr_event::cpu_new_timer},
		{"tmigr_cpu_active", tmigr_event::cpu_active},
		{"tmigr_cpu_online", tmigr_event::cpu_online},
		{"tmigr_cpu_offline", tmigr_event::cpu_offline},
		{"tmigr_handle_remote_cpu", tmigr_event::handle_remote_cpu},
		{"tmigr_cpu_available", tmigr_event::cpu_available},
		{"tmigr_cpu_unavailable", tmigr_event::cpu_unavailable},
		{"tmigr_cpu_idle", tmigr_event::cpu_idle},
		{"tmigr_cpu_new_timer_idle", tmigr_event::cpu_new_timer_idle},
		{"tmigr_group_set", tmigr_event::group_set},
		{"tmigr_connect_child_parent", tmigr_event::connect_child_parent},
		{"tmigr_group_set_cpu_inactive", tmigr_event::group_set_cpu_inactive},
		{"tmigr_group_set_cpu_active", tmigr_event::group_set_cpu_active},
		{"tmigr_handle_remote", tmigr_event::handle_remote},
		{"tmigr_connect_cpu_parent", tmigr_event::connect_cpu_parent},
		{"tmigr_update_events", tmigr_event::update_events},
	};
	for (const named &n : events)
		if (n.name == name)
			return n.event;
	return name.starts_with("tmigr_") ? tmigr_event::other : tmigr_event::none;
}

bool parse_tick_dependency(std::string_view s, std::uint32_t &mask)
{
	// include/linux/tick.h: TICK_DEP_BIT_POSIX_TIMER 0, PERF_EVENTS 1,
	// SCHED 2, CLOCK_UNSTABLE 3, RCU 4, RCU_EXP 5.
	static constexpr std::string_view names[] = {"POSIX_TIMER", "PERF_EVENTS", "SCHED",
						     "CLOCK_UNSTABLE", "RCU", "RCU_EXP"};
	if (s == "NONE") {
		mask = 0;
		return true;
	}
	for (std::uint32_t bit = 0; bit < std::size(names); bit++)
		if (s == names[bit]) {
			mask = 1u << bit;
			return true;
		}
	int base = 10;
	if (s.starts_with("0x") || s.starts_with("0X")) {
		s.remove_prefix(2);
		base = 16;
	}
	if (s.empty())
		return false;
	auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), mask, base);
	return ec == std::errc() && end == s.data() + s.size();
}

}  // namespace timersim
