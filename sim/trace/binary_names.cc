#include "sim/trace/binary_names.h"

#include "sim/trace/irq_events.h"
#include "sim/trace/nohz_events.h"

namespace timersim {

std::string_view kernel_event_name(std::string_view name)
{
	for (std::string_view sub : {"timer_hrtimer_", "timer_itimer_"})
		if (name.starts_with(sub))
			return name.substr(6);	// drop "timer_"
	if (name == "power_cpu_idle")	// lttng-modules' power:cpu_idle
		return name.substr(6);
	if (name.starts_with("irq_softirq_"))
		return name.substr(4);		// drop "irq_"
	if (name.starts_with("x86_irq_vectors_")) {
		std::string_view v = name.substr(16);
		// lttng-modules maps x86_platform_ipi_* to x86_irq_vectors_ipi_*.
		if (v == "ipi_entry")
			return "x86_platform_ipi_entry";
		if (v == "ipi_exit")
			return "x86_platform_ipi_exit";
		return v;
	}
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
	if (name.starts_with("hrtimer_"))
		return event_kind::hrtimer;
	if (event_kind k = nohz_event_kind(name); k != event_kind::other)
		return k;
	bool timer_interrupt;
	return irq_event_kind(name, timer_interrupt);
}

unsigned kernel_release(std::string_view r)
{
	unsigned part[2] = {0, 0};
	std::size_t i = 0;
	for (unsigned k = 0; k < 2; k++) {
		std::size_t digits = 0;
		while (i < r.size() && r[i] >= '0' && r[i] <= '9' && digits < 3) {
			part[k] = part[k] * 10 + (r[i++] - '0');
			digits++;
		}
		if (!digits || (k == 0 && (i >= r.size() || r[i++] != '.')))
			return 0;
	}
	return part[1] > 99 ? 0 : part[0] * 100 + part[1];
}

timer_flag_word decode_timer_flags(std::uint32_t raw, unsigned release)
{
	timer_flag_word w;
	const bool old = release && release < 408;
	const std::uint32_t migrating = old ? 0x00080000 : 0x00040000;
	const std::uint32_t deferrable = old ? 0x00100000 : 0x00080000;
	const std::uint32_t pinned = old ? 0 : 0x00100000;
	const std::uint32_t irqsafe = 0x00200000;
	if (raw & migrating)
		w.flags |= TF_MIGRATING;
	if (raw & deferrable)
		w.flags |= TF_DEFERRABLE;
	if (raw & pinned)
		w.flags |= TF_PINNED;
	if (raw & irqsafe)
		w.flags |= TF_IRQSAFE;
	w.cpu = raw & (old ? 0x0007ffff : 0x0003ffff);
	if (!old) {
		w.idx = raw >> 22;	// TIMER_ARRAYSHIFT
		w.has_idx = true;
	}
	return w;
}

}  // namespace timersim
