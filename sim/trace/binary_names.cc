#include "sim/trace/binary_names.h"

namespace timersim {

std::string_view kernel_event_name(std::string_view name)
{
	for (std::string_view sub : {"timer_hrtimer_", "timer_itimer_"})
		if (name.starts_with(sub))
			return name.substr(6);	// drop "timer_"
	return name;
}

event_kind event_kind_of(std::string_view name)
{
	struct named {
		std::string_view name;
		event_kind kind;
	};
	static constexpr named kinds[] = {
		{"timer_init", event_kind::timer_init},
		{"timer_start", event_kind::timer_start},
		{"timer_cancel", event_kind::timer_cancel},
		{"timer_expire_entry", event_kind::timer_expire_entry},
		{"timer_expire_exit", event_kind::timer_expire_exit},
		{"timer_base_idle", event_kind::timer_base_idle},
	};
	for (const auto &k : kinds)
		if (name == k.name)
			return k.kind;
	return name.starts_with("hrtimer_") ? event_kind::hrtimer : event_kind::other;
}

}  // namespace timersim
