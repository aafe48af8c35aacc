// The known events' names and payload layouts (text_event_names.h), found
// by a hash perfect on the table (checked at compile time).
#include "sim/trace/text_event_names.h"

#include <iterator>

#include "sim/trace/text_fields.h"
#include "sim/trace/text_scan.h"

namespace timersim {

namespace {

using el = event_layout;
using ek = event_kind;
using he = hrtimer_event;

// The x86 vectors as irq_events.cc lists them.
#define X86_VECTOR(v) {v "_entry", ek::irq_entry, he::none, false, el::vector}, \
		      {v "_exit", ek::irq_exit, he::none, false, el::vector}

constexpr known_event_name known_events[] = {
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
	{"local_timer_entry", ek::irq_entry, he::none, true, el::vector},
	{"local_timer_exit", ek::irq_exit, he::none, true, el::vector},
	X86_VECTOR("reschedule"),
	X86_VECTOR("call_function"),
	X86_VECTOR("call_function_single"),
	X86_VECTOR("spurious_apic"),
	X86_VECTOR("error_apic"),
	X86_VECTOR("x86_platform_ipi"),
	X86_VECTOR("irq_work"),
	X86_VECTOR("deferred_error_apic"),
	X86_VECTOR("thermal_apic"),
	X86_VECTOR("threshold_apic"),
	X86_VECTOR("reboot"),
};
#undef X86_VECTOR

constexpr std::size_t shortest = 10, longest = 32;	// names outside are not known
constexpr std::size_t name_slots = 64;
// Length, second and last-but-one letters: perfect on the table.
constexpr std::size_t name_slot(const char *name, std::size_t size)
{
	return (size * 4 + unsigned(static_cast<unsigned char>(name[1])) * 18 +
		unsigned(static_cast<unsigned char>(name[size - 2])) * 25) % name_slots;
}

struct name_index {
	signed char event[name_slots];
	char padded[std::size(known_events)][longest];
	bool perfect = true;
	constexpr name_index() : event(), padded()
	{
		for (auto &e : event)
			e = -1;
		for (std::size_t i = 0; i < std::size(known_events); i++) {
			std::string_view n = known_events[i].name;
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
};
constexpr name_index name_index_of_table;
static_assert(name_index_of_table.perfect,
	      "two known events share a name_slot, or a name is too short or long: change name_slot()");

#if defined(__SSE2__)
// Bit i set: P[i] == Q[i], of the 16 bytes at each.
unsigned same_bytes(const char *p, const char *q)
{
	return unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(scan_detail::load16(p),
							 scan_detail::load16(q))));
}
#endif

}  // namespace

const known_event_name *known_event_named(const char *name, std::size_t size, const char *limit)
{
	if (size < shortest || size >= longest)
		return nullptr;
	int i = name_index_of_table.event[name_slot(name, size)];
	if (i < 0 || known_events[i].name.size() != size)
		return nullptr;
	const char *want = name_index_of_table.padded[i];
#if defined(__SSE2__)
	if (limit && limit - name >= 32) {
		std::uint32_t same = same_bytes(name, want) | same_bytes(name + 16, want + 16) << 16;
		std::uint32_t mask = (1u << size) - 1;
		return (same & mask) == mask ? &known_events[i] : nullptr;
	}
#else
	(void)limit;
#endif
	for (std::size_t c = 0; c < size; c++)
		if (name[c] != want[c])
			return nullptr;
	return &known_events[i];
}

const known_event_name *known_event_token(const char *name, const char *end,
					  const char *limit, const char *&token_end)
{
#if defined(__SSE2__)
	if (limit && limit - name > 32) {
		__m128i lo = scan_detail::load16(name), hi = scan_detail::load16(name + 16);
		__m128i colon = _mm_set1_epi8(':');
		std::uint32_t colons = unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(lo, colon))) |
				       unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(hi, colon))) << 16;
		std::size_t size = colons ? std::size_t(__builtin_ctz(colons)) : 32;
		// No ':' in reach, or past END: the general way below.
		if (size < 32 && std::ptrdiff_t(size) < end - name) {
			// The token goes on past its first ':' (or holds a blank
			// before it): a name with ':' or a blank, none of ours.
			const char *after = name + size + 1;
			if ((after != end && !is_blank(*after)) || size < shortest)
				return nullptr;
			int i = name_index_of_table.event[name_slot(name, size)];
			if (i < 0 || known_events[i].name.size() != size)
				return nullptr;
			const char *want = name_index_of_table.padded[i];
			std::uint32_t same = same_bytes(name, want) | same_bytes(name + 16, want + 16) << 16;
			std::uint32_t mask = (1u << size) - 1;
			if ((same & mask) != mask)
				return nullptr;
			token_end = after;
			return &known_events[i];
		}
	}
#endif
	const char *p = find_blank(name, end, limit);
	if (p - name < 2 || p[-1] != ':')
		return nullptr;
	token_end = p;
	return known_event_named(name, std::size_t(p - 1 - name), limit);
}

std::size_t known_event_count() { return std::size(known_events); }
const known_event_name &known_event_at(std::size_t i) { return known_events[i]; }

}  // namespace timersim
