#include "sim/trace/irq_events.h"

#include <charconv>

namespace timersim {

namespace {

#define X86_VECTOR_NAME(v) v,
constexpr std::string_view x86_vectors[] = {TIMERSIM_X86_VECTORS(X86_VECTOR_NAME)};
#undef X86_VECTOR_NAME

bool is_x86_vector(std::string_view v)
{
	for (std::string_view x : x86_vectors)
		if (v == x)
			return true;
	return false;
}

template <class T>
bool whole_number(std::string_view s, T &v)
{
	int base = 10;
	if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s.remove_prefix(2);
		base = 16;
	}
	if (s.empty())
		return false;
	auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
	return ec == std::errc() && end == s.data() + s.size();
}

}  // namespace

event_kind irq_event_kind(std::string_view name, bool &timer_interrupt)
{
	timer_interrupt = false;
	if (name.starts_with("softirq_")) {
		std::string_view n = name.substr(8);
		return n == "entry" ? event_kind::softirq_entry
		     : n == "exit"  ? event_kind::softirq_exit
		     : n == "raise" ? event_kind::softirq_raise
				    : event_kind::other;
	}
	if (name == "irq_handler_entry")
		return event_kind::irq_entry;
	if (name == "irq_handler_exit")
		return event_kind::irq_exit;
	event_kind k;
	std::string_view vector;
	if (name.ends_with("_entry")) {
		k = event_kind::irq_entry;
		vector = name.substr(0, name.size() - 6);
	} else if (name.ends_with("_exit")) {
		k = event_kind::irq_exit;
		vector = name.substr(0, name.size() - 5);
	} else {
		return event_kind::other;
	}
	if (!is_x86_vector(vector))
		return event_kind::other;
	timer_interrupt = vector == "local_timer";
	return k;
}

bool is_timer_irq_name(std::string_view n)
{
	constexpr std::string_view exact[] = {
		"timer", "arch_timer", "arch_mem_timer", "riscv-timer", "twd", "local_timer", "gt",
		"loongarch-timer", "csky_mp_timer", "sp804", "exynos-mct",
	};
	for (std::string_view e : exact)
		if (n == e)
			return true;
	return n.starts_with("hpet") || n.starts_with("mct_tick");
}

void timer_irq_memory::learn(std::uint32_t irq, bool timer)
{
	if (irq < 64 * words) {
		std::uint64_t bit = std::uint64_t(1) << (irq % 64);
		bits_[irq / 64] = timer ? bits_[irq / 64] | bit : bits_[irq / 64] & ~bit;
		return;
	}
	for (unsigned i = 0; i < n_more_; i++)
		if (more_[i] == irq) {
			if (!timer)
				more_[i] = more_[--n_more_];
			return;
		}
	if (timer && n_more_ < std::size(more_))
		more_[n_more_++] = irq;
}

bool timer_irq_memory::knows(std::uint32_t irq) const
{
	if (irq < 64 * words)
		return bits_[irq / 64] >> (irq % 64) & 1;
	for (unsigned i = 0; i < n_more_; i++)
		if (more_[i] == irq)
			return true;
	return false;
}

hrtimer_event hrtimer_event_of(std::string_view name)
{
	if (!name.starts_with("hrtimer_"))
		return hrtimer_event::none;
	std::string_view n = name.substr(8);
	switch (n.size()) {	// one compare for most: every name but two has a length of its own
	case 4:
		return n == "init" ? hrtimer_event::init : hrtimer_event::other;
	case 5:
		return n == "start" ? hrtimer_event::start
		     : n == "setup" ? hrtimer_event::init
		     : n == "rearm" ? hrtimer_event::rearm
				    : hrtimer_event::other;
	case 6:
		return n == "cancel" ? hrtimer_event::cancel : hrtimer_event::other;
	case 11:
		return n == "expire_exit" ? hrtimer_event::expire_exit : hrtimer_event::other;
	case 12:
		return n == "expire_entry" ? hrtimer_event::expire_entry : hrtimer_event::other;
	case 13:
		return n == "start_expired" ? hrtimer_event::start_expired : hrtimer_event::other;
	}
	return hrtimer_event::other;
}

bool parse_clockid(std::string_view s, std::uint32_t &clockid)
{
	// include/uapi/linux/time.h
	struct named {
		std::string_view name;
		std::uint32_t id;
	};
	static constexpr named clocks[] = {
		{"CLOCK_REALTIME", 0}, {"CLOCK_MONOTONIC", 1}, {"CLOCK_PROCESS_CPUTIME_ID", 2},
		{"CLOCK_THREAD_CPUTIME_ID", 3}, {"CLOCK_MONOTONIC_RAW", 4},
		{"CLOCK_REALTIME_COARSE", 5}, {"CLOCK_MONOTONIC_COARSE", 6},
		{"CLOCK_BOOTTIME", 7}, {"CLOCK_REALTIME_ALARM", 8}, {"CLOCK_BOOTTIME_ALARM", 9},
		{"CLOCK_TAI", 11},
	};
	for (const named &c : clocks)
		if (s == c.name) {
			clockid = c.id;
			return true;
		}
	return whole_number(s, clockid);
}

bool parse_hrtimer_mode(std::string_view s, std::uint32_t &mode)
{
	if (s.empty())
		return false;
	if (s[0] >= '0' && s[0] <= '9')
		return whole_number(s, mode);
	std::uint32_t m = 0;
	while (true) {
		std::size_t bar = s.find('|');
		std::string_view w = s.substr(0, bar);
		// The enum's own names (HRTIMER_MODE_REL_PINNED...) are the
		// same words joined by '_'.
		if (w.starts_with("HRTIMER_MODE_"))
			w.remove_prefix(13);
		// An empty word ("REL|", "HRTIMER_MODE_", "REL_") is a value
		// cut short, not ABS.
		if (w.empty())
			return false;
		while (true) {
			std::size_t us = w.find('_');
			std::string_view part = w.substr(0, us);
			if (part == "REL")
				m |= HRM_REL;
			else if (part == "PINNED")
				m |= HRM_PINNED;
			else if (part == "SOFT")
				m |= HRM_SOFT;
			else if (part == "HARD")
				m |= HRM_HARD;
			else if (part == "LAZY" && w.substr(us + 1).starts_with("REARM"))
				m |= HRM_LAZY_REARM, us = w.find('_', us + 1);
			else if (part != "ABS")
				return false;
			if (us == std::string_view::npos)
				break;
			w.remove_prefix(us + 1);
		}
		if (bar == std::string_view::npos)
			break;
		s.remove_prefix(bar + 1);
	}
	mode = m;
	return true;
}

}  // namespace timersim
