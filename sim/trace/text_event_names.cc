// The known events' names and payload layouts (text_event_names.h), found
// by a hash perfect on the table (checked at compile time).
#include "sim/trace/text_event_names.h"

#include <iterator>

#include "sim/trace/irq_events.h"
#include "sim/trace/text_fields.h"
#include "sim/trace/text_scan.h"

namespace timersim {

namespace event_names_detail {

namespace {

using el = event_layout;
using ek = event_kind;
using he = hrtimer_event;

}  // namespace

// The x86 vectors (irq_events.h); local_timer is the hardware timer's.
#define X86_VECTOR(v)                                                                         \
	{v "_entry", ek::irq_entry, he::none, std::string_view(v) == "local_timer", el::vector}, \
	{v "_exit", ek::irq_exit, he::none, std::string_view(v) == "local_timer", el::vector},

constexpr known_event_name events[] = {
	{"timer_init", ek::timer_init, he::none, false, el::timer_only},
	{"timer_start", ek::timer_start, he::none, false, el::timer_start},
	{"timer_cancel", ek::timer_cancel, he::none, false, el::timer_only},
	{"timer_expire_entry", ek::timer_expire_entry, he::none, false, el::timer_expire_entry},
	{"timer_expire_exit", ek::timer_expire_exit, he::none, false, el::timer_only},
	{"hrtimer_init", ek::hrtimer, he::init, false, el::hrtimer_init},
	{"hrtimer_setup", ek::hrtimer, he::init, false, el::hrtimer_init},
	{"hrtimer_start", ek::hrtimer, he::start, false, el::hrtimer_start},
	{"hrtimer_cancel", ek::hrtimer, he::cancel, false, el::hrtimer_only},
	{"hrtimer_expire_entry", ek::hrtimer, he::expire_entry, false, el::hrtimer_expire_entry},
	{"hrtimer_expire_exit", ek::hrtimer, he::expire_exit, false, el::hrtimer_only},
	{"softirq_entry", ek::softirq_entry, he::none, false, el::softirq},
	{"softirq_exit", ek::softirq_exit, he::none, false, el::softirq},
	{"softirq_raise", ek::softirq_raise, he::none, false, el::softirq},
	TIMERSIM_X86_VECTORS(X86_VECTOR)
};
#undef X86_VECTOR

static_assert(std::size(events) == known, "text_event_names.h counts the table");

constexpr name_index::name_index() : event(), padded()
{
	for (auto &e : event)
		e = -1;
	for (std::size_t i = 0; i < known; i++) {
		std::string_view n = events[i].name;
		perfect = perfect && n.size() >= shortest && n.size() < longest;
		if (n.size() < shortest)
			continue;
		std::size_t slot = name_slot(n.data(), n.size());
		perfect = perfect && event[slot] < 0;
		event[slot] = static_cast<signed char>(i);
		for (std::size_t c = 0; c < n.size(); c++)
			padded[i][c] = n[c];
	}
}

constexpr name_index index_of_events;
static_assert(index_of_events.perfect,
	      "two known events share a name_slot, or a name is too short or long: change name_slot()");

const known_event_name *token_by_bytes(const char *name, const char *end, const char *limit,
				       const char *&token_end)
{
	const char *p = find_blank(name, end, limit);
	if (p - name < 2 || p[-1] != ':')
		return nullptr;
	token_end = p;
	return known_event_named(name, std::size_t(p - 1 - name), limit);
}

namespace {

#if defined(__SSE2__)
// Bit i set: P[i] == Q[i], of the 16 bytes at each.
unsigned same_bytes(const char *p, const char *q)
{
	return unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(scan_detail::load16(p),
							 scan_detail::load16(q))));
}
#endif

}  // namespace

}  // namespace event_names_detail

const known_event_name *known_event_named(const char *name, std::size_t size, const char *limit)
{
	namespace d = event_names_detail;
	if (size < d::shortest || size >= d::longest)
		return nullptr;
	int i = d::index_of_events.event[d::name_slot(name, size)];
	if (i < 0 || d::events[i].name.size() != size)
		return nullptr;
	const char *want = d::index_of_events.padded[i];
#if defined(__SSE2__)
	if (limit && limit - name >= 32) {
		std::uint32_t same = d::same_bytes(name, want) | d::same_bytes(name + 16, want + 16) << 16;
		std::uint32_t mask = (1u << size) - 1;
		return (same & mask) == mask ? &d::events[i] : nullptr;
	}
#else
	(void)limit;
#endif
	for (std::size_t c = 0; c < size; c++)
		if (name[c] != want[c])
			return nullptr;
	return &d::events[i];
}

std::size_t known_event_count() { return event_names_detail::known; }
const known_event_name &known_event_at(std::size_t i) { return event_names_detail::events[i]; }

}  // namespace timersim
