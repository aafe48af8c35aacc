// The events a timer trace is made of, known by name in one look-up, each
// with the keys its payload prints in the kernel's order
// (include/trace/events/timer.h, irq.h, arch/x86/include/asm/trace/
// irq_vectors.h; ../shared/docs/trace-formats.md):
//
//   timer_init, timer_cancel, timer_expire_exit   timer=
//   timer_start        timer= function= expires= [[timeout=]] [bucket_expiry=]
//                      [cpu= idx= flags=]            (4.11+, 6.8+, 6.2+)
//   timer_expire_entry timer= function= now= [baseclk=]     (5.2+)
//   hrtimer_init/setup hrtimer= clockid= mode=
//   hrtimer_start      hrtimer= function= expires= softexpires= mode= [was_armed=] (6.18+)
//   hrtimer_expire_entry  hrtimer= function= now=
//   hrtimer_cancel, hrtimer_expire_exit   hrtimer=
//   softirq_*          vec= ...            <vector>_entry/_exit   vector=
//
// ftrace_fast.cc reads the common lines by it; kind_of_event and the
// general payload parse stay the definition (a test holds the two equal).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "sim/trace/event.h"
#include "sim/trace/text_fields.h"
#include "sim/trace/text_scan.h"

namespace timersim {

// The payload keys, as printed with their '=' ("[timeout=" with its '[').
enum class payload_order_key : std::uint8_t {
	timer, hrtimer, function, expires, timeout, now, baseclk, bucket_expiry, cpu, idx,
	flags, softexpires, mode, was_armed, clockid, vec, vector,
};

// One key of a layout, with what reading it needs at hand (a line has
// six of them: no look-ups).
struct layout_key {
	payload_order_key key;
	bool optional;		// may be left out
	std::uint8_t size;	// of text
	std::uint32_t bit;	// its payload_key (text_fields.h); 0 for the cost events' keys
	char text[16];		// "key=", zero-padded to one SSE2 block
};

// The keys of one event's payload, in order.
struct payload_layout {
	layout_key keys[8];
	std::size_t size;
	bool rest_ignored;	// after the first key: the general parse reads no further
};

// The layouts of the table above.
enum class event_layout : std::uint8_t {
	timer_only, timer_start, timer_expire_entry, hrtimer_only, hrtimer_init, hrtimer_start,
	hrtimer_expire_entry, softirq, vector,
};

namespace layout_detail {

using pk = payload_order_key;

struct key_info {
	std::string_view text;
	std::uint32_t bit;
};
// In payload_order_key's order.
inline constexpr key_info key_infos[] = {
	{"timer=", K_TIMER}, {"hrtimer=", K_HRTIMER}, {"function=", K_FUNCTION},
	{"expires=", K_EXPIRES}, {"[timeout=", K_TIMEOUT}, {"now=", K_NOW},
	{"baseclk=", K_BASECLK}, {"bucket_expiry=", K_BUCKET_EXPIRY}, {"cpu=", K_CPU},
	{"idx=", K_IDX}, {"flags=", K_FLAGS}, {"softexpires=", K_SOFTEXPIRES}, {"mode=", K_MODE},
	{"was_armed=", K_WAS_ARMED}, {"clockid=", K_CLOCKID}, {"vec=", 0}, {"vector=", 0},
};

constexpr layout_key key_of(pk k, bool optional = false)
{
	layout_key l{k, optional, 0, key_infos[std::size_t(k)].bit, {}};
	std::string_view text = key_infos[std::size_t(k)].text;
	l.size = static_cast<std::uint8_t>(text.size());
	for (std::size_t c = 0; c < text.size() && c < 16; c++)
		l.text[c] = text[c];
	return l;
}
constexpr layout_key maybe(pk k) { return key_of(k, true); }

constexpr bool keys_fit()
{
	for (const key_info &k : key_infos)
		if (k.text.size() >= 16)
			return false;
	return true;
}
static_assert(keys_fit(), "a payload key of 16 bytes or more: a key is compared in one block");

}  // namespace layout_detail

// In event_layout's order.
inline constexpr payload_layout payload_layouts[] = {
	// timer_only
	{{layout_detail::key_of(layout_detail::pk::timer)}, 1, false},
	// timer_start
	{{layout_detail::key_of(layout_detail::pk::timer),
	  layout_detail::key_of(layout_detail::pk::function),
	  layout_detail::key_of(layout_detail::pk::expires),
	  layout_detail::maybe(layout_detail::pk::timeout),
	  layout_detail::maybe(layout_detail::pk::bucket_expiry),
	  layout_detail::maybe(layout_detail::pk::cpu), layout_detail::maybe(layout_detail::pk::idx),
	  layout_detail::maybe(layout_detail::pk::flags)},
	 8, false},
	// timer_expire_entry
	{{layout_detail::key_of(layout_detail::pk::timer),
	  layout_detail::key_of(layout_detail::pk::function),
	  layout_detail::key_of(layout_detail::pk::now),
	  layout_detail::maybe(layout_detail::pk::baseclk)},
	 4, false},
	// hrtimer_only
	{{layout_detail::key_of(layout_detail::pk::hrtimer)}, 1, false},
	// hrtimer_init
	{{layout_detail::key_of(layout_detail::pk::hrtimer),
	  layout_detail::key_of(layout_detail::pk::clockid),
	  layout_detail::key_of(layout_detail::pk::mode)},
	 3, false},
	// hrtimer_start
	{{layout_detail::key_of(layout_detail::pk::hrtimer),
	  layout_detail::key_of(layout_detail::pk::function),
	  layout_detail::key_of(layout_detail::pk::expires),
	  layout_detail::key_of(layout_detail::pk::softexpires),
	  layout_detail::key_of(layout_detail::pk::mode),
	  layout_detail::maybe(layout_detail::pk::was_armed)},
	 6, false},
	// hrtimer_expire_entry
	{{layout_detail::key_of(layout_detail::pk::hrtimer),
	  layout_detail::key_of(layout_detail::pk::function),
	  layout_detail::key_of(layout_detail::pk::now)},
	 3, false},
	// softirq
	{{layout_detail::key_of(layout_detail::pk::vec)}, 1, true},
	// vector
	{{layout_detail::key_of(layout_detail::pk::vector)}, 1, true},
};

struct known_event_name {
	std::string_view name;
	event_kind kind;
	hrtimer_event hrtimer;		// hrtimer_event_of(name)
	bool timer_interrupt;		// local_timer_entry/exit
	event_layout layout;
};

// The event NAME (SIZE bytes at NAME) is, or null. LIMIT as for the
// scanners (text_scan.h): with 32 bytes readable at NAME, compared in
// blocks.
const known_event_name *known_event_named(const char *name, std::size_t size,
					  const char *limit);

// How the names are found: a hash of the length and two letters, perfect
// on the table (text_event_names.cc checks it at compile time), and each
// name padded to LONGEST bytes for a compare in two blocks. Here for
// known_event_token, which the one-pass parse inlines (once a line).
namespace event_names_detail {

constexpr std::size_t shortest = 10, longest = 32;	// names outside are not known
constexpr std::size_t name_slots = 64;
constexpr std::size_t known = 38;			// events in the table
// Length, second and last-but-one letters: perfect on the table.
constexpr std::size_t name_slot(const char *name, std::size_t size)
{
	return (size * 4 + unsigned(static_cast<unsigned char>(name[1])) * 18 +
		unsigned(static_cast<unsigned char>(name[size - 2])) * 25) % name_slots;
}

struct name_index {
	signed char event[name_slots];	// the table's index, or -1
	char padded[known][longest];
	bool perfect = true;
	constexpr name_index();
};
extern const known_event_name events[known];
extern const name_index index_of_events;

// The general way: the token's end found first, then the name.
const known_event_name *token_by_bytes(const char *name, const char *end, const char *limit,
				       const char *&token_end);

}  // namespace event_names_detail

// The event token at NAME, "name:" up to a blank or END, as find_blank
// and known_event_named read it: the known event, its token's end in
// TOKEN_END; or null. With 33 bytes readable at NAME (LIMIT) the ':' is
// found and the name compared in the same two blocks, the token's end not
// looked for first.
[[gnu::always_inline]] inline const known_event_name *
known_event_token(const char *name, const char *end, const char *limit, const char *&token_end)
{
	namespace d = event_names_detail;
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
			if ((after != end && !is_blank(*after)) || size < d::shortest)
				return nullptr;
			int i = d::index_of_events.event[d::name_slot(name, size)];
			if (i < 0 || d::events[i].name.size() != size)
				return nullptr;
			const char *want = d::index_of_events.padded[i];
			std::uint32_t same =
				unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(lo, scan_detail::load16(want)))) |
				unsigned(_mm_movemask_epi8(
					_mm_cmpeq_epi8(hi, scan_detail::load16(want + 16)))) << 16;
			std::uint32_t mask = (1u << size) - 1;
			if ((same & mask) != mask)
				return nullptr;
			token_end = after;
			return &d::events[i];
		}
	}
#endif
	return d::token_by_bytes(name, end, limit, token_end);
}

// Every known name, for tests.
std::size_t known_event_count();
const known_event_name &known_event_at(std::size_t i);

}  // namespace timersim
