// The payload of the common tracefs line, key by key in the kernel's order
// (ftrace_fast_payload.h). Each test that fails returns false, and the
// general parse reads the line from its start: nothing here needs to word
// a message.
#include "sim/trace/ftrace_fast_payload.h"

#include <cstring>
#include <iterator>

#include "sim/trace/irq_events.h"

namespace timersim {

namespace {

// [P, END) starts with K's text. BLOCKS: 16 bytes are readable at P (at
// any P up to END: payload_as looks once a line), the text compared in
// one block.
template <bool Blocks>
[[gnu::always_inline]] inline bool key_at(const char *p, const char *end, const layout_key &k)
{
	if (end - p < k.size)
		return false;
#if defined(__SSE2__)
	if constexpr (Blocks) {
		__m128i same = _mm_cmpeq_epi8(scan_detail::load16(p), scan_detail::load16(k.text));
		unsigned want = (1u << k.size) - 1;
		return (unsigned(_mm_movemask_epi8(same)) & want) == want;
	}
#endif
	for (std::size_t i = 0; i < k.size; i++)
		if (p[i] != k.text[i])
			return false;
	return true;
}

// mode= as the kernel words it (4.16+): ABS or REL, then |PINNED, |SOFT,
// |HARD. Anything else (numbers, the enum's names) is parse_hrtimer_mode's.
bool kernel_hrtimer_mode(std::string_view v, std::uint8_t &mode)
{
	if (v.size() < 3 || (v[0] != 'A' && v[0] != 'R') ||
	    (v.substr(0, 3) != "ABS" && v.substr(0, 3) != "REL"))
		return false;
	std::uint32_t m = v[0] == 'R' ? std::uint32_t(HRM_REL) : 0;
	for (v.remove_prefix(3); !v.empty();) {
		if (v[0] != '|')
			return false;
		v.remove_prefix(1);
		if (v.starts_with("HARD"))
			m |= HRM_HARD, v.remove_prefix(4);
		else if (v.starts_with("SOFT"))
			m |= HRM_SOFT, v.remove_prefix(4);
		else if (v.starts_with("PINNED"))
			m |= HRM_PINNED, v.remove_prefix(6);
		else
			return false;
		if (!v.empty() && v[0] != '|')
			return false;
	}
	mode = static_cast<std::uint8_t>(m);
	return true;
}

// A decimal value at P that fills its token, P left after it.
template <class T>
[[gnu::always_inline]] inline bool take_decimal(const char *&p, const char *end, T &v,
						const char *limit)
{
	T x;
	auto [stop, ec] = decimal_prefix(p, end, x, limit);
	if (ec != std::errc() || !ends_token(stop, end))
		return false;
	v = x;
	p = stop;
	return true;
}

// A small decimal (a CPU, a wheel index, a vector) at P, P left after it:
// for up to four digits a byte loop, cheaper than decimal_prefix's words;
// past them, or with a sign, decimal_prefix_loop, whose answer it is.
template <class T>
[[gnu::always_inline]] inline bool take_small(const char *&p, const char *end, T &v)
{
	const char *q = p;
	unsigned x = 0;
	for (int n = 0; n < 4 && q < end && is_digit(*q); n++, q++)
		x = x * 10 + unsigned(*q - '0');
	if (q != p && ends_token(q, end)) {
		v = static_cast<T>(x);
		p = q;
		return true;
	}
	T y;
	auto [stop, ec] = decimal_prefix_loop(p, end, y);
	if (ec != std::errc() || !ends_token(stop, end))
		return false;
	v = y;
	p = stop;
	return true;
}

[[gnu::always_inline]] inline bool take_pointer(const char *&p, const char *end, trace_event &ev,
						const char *limit)
{
	// %p of a 64-bit kernel: 16 digits, no 0x, the case of nearly all.
	if (end - p >= 16 && ends_token(p + 16, end) && hex16(p, ev.timer)) {
		ev.timer_digits = 16;
		p += 16;
		return true;
	}
	const char *e = find_blank(p, end, limit);
	if (!parse_pointer(std::string_view(p, e - p), ev.timer, &ev.timer_digits))
		return false;
	p = e;
	return true;
}

// The value of K at P (just past "key="), P left at its token's end. The
// fields as parse_payload sets them when they read cleanly; false where it
// would find them bad or pass them over.
[[gnu::always_inline]] inline bool take_value(payload_order_key k, const char *&p, const char *end,
					      trace_event &ev, line_context &ctx)
{
	const char *limit = ctx.limit;
	switch (k) {
	case payload_order_key::timer:
	case payload_order_key::hrtimer:
		return take_pointer(p, end, ev, limit);
	case payload_order_key::expires:
		return take_decimal(p, end, ev.expires, limit);
	case payload_order_key::now:
		return take_decimal(p, end, ev.now, limit);
	case payload_order_key::baseclk:
		return take_decimal(p, end, ev.baseclk, limit);
	case payload_order_key::bucket_expiry:
		return take_decimal(p, end, ev.bucket_expiry, limit);
	case payload_order_key::cpu:
		return take_small(p, end, ev.target_cpu);
	case payload_order_key::idx:
		return take_small(p, end, ev.idx);
	case payload_order_key::softexpires:
		if (!take_decimal(p, end, ev.softexpires, limit))
			return false;
		ev.has |= EF_SOFTEXPIRES;
		return true;
	case payload_order_key::timeout: {	// "[timeout=%ld]", a few jiffies mostly
		const char *stop = p;
		std::int64_t t = 0;
		for (int n = 0; n < 4 && stop < end && is_digit(*stop); n++, stop++)
			t = t * 10 + (*stop - '0');
		std::errc ec{};
		if (stop == p || stop == end || *stop != ']') {
			auto r = decimal_prefix(p, end, t, limit);
			stop = r.ptr;
			ec = r.ec;
		}
		if (ec != std::errc() || stop == end || *stop != ']' || !ends_token(stop + 1, end))
			return false;
		ev.timeout = t;
		p = stop + 1;
		return true;
	}
	case payload_order_key::vec:
	case payload_order_key::vector: {
		std::int64_t n;
		if (!take_small(p, end, n) || n < 0 || n > 0xffffffffll)
			return false;
		ev.vec = std::uint32_t(n);
		ev.has |= EF_VEC;
		return true;
	}
	case payload_order_key::was_armed: {
		std::uint32_t armed;
		if (!take_small(p, end, armed))
			return false;
		ev.was_armed = armed != 0;
		ev.has |= EF_WAS_ARMED;
		return true;
	}
	default:
		break;
	}
	// Nearly every hrtimer's clock, known without looking for its end.
	if (k == payload_order_key::clockid && end - p >= 15 && ends_token(p + 15, end) &&
	    std::memcmp(p, "CLOCK_MONOTONIC", 15) == 0) {
		ev.clockid = 1;
		ev.has |= EF_CLOCKID;
		p += 15;
		return true;
	}
	// The values that are words: the whole token.
	const char *e = find_blank(p, end, limit);
	std::string_view v(p, e - p);
	p = e;
	switch (k) {
	case payload_order_key::function:
		if (v.empty())
			return false;
		// A symbol (its first letter no hex digit) as it stands: nearly
		// every callback; function_value judges the others.
		ev.function = !ctx.dialect.strip_function_offset && v.size() > 2 &&
					      !(is_digit(v[0]) || (v[0] >= 'a' && v[0] <= 'f') ||
						(v[0] >= 'A' && v[0] <= 'F'))
				      ? v
				      : function_value(v, ctx);
		return true;
	case payload_order_key::flags:
		return !read_timer_flags(v, ev, ctx.dialect);
	case payload_order_key::mode:
		if (!kernel_hrtimer_mode(v, ev.hrtimer_mode) &&
		    !parse_hrtimer_mode(v, ev.hrtimer_mode))
			return false;
		ev.has |= EF_HRTIMER_MODE;
		return true;
	case payload_order_key::clockid:
		if (!parse_clockid(v, ev.clockid))
			return false;
		ev.has |= EF_CLOCKID;
		return true;
	default:
		return false;
	}
}

// Keys I and on of layout L at P, each one blank apart, P left after the
// last one read. KEYS: their payload_key bits. Unrolled per layout (the
// keys' texts and value parsers known at compile time): a line has six.
// BLOCKS as for key_at.
template <event_layout L, std::size_t I, bool Blocks>
[[gnu::always_inline]] inline bool take_keys(const char *&p, const char *end, trace_event &ev,
					     line_context &ctx, std::uint32_t &keys)
{
	constexpr const payload_layout &layout = payload_layouts[std::size_t(L)];
	if constexpr (I == layout.size) {
		return true;
	} else {
		constexpr const layout_key &k = layout.keys[I];
		if (key_at<Blocks>(p, end, k)) {
			p += k.size;
			if (!take_value(k.key, p, end, ev, ctx))
				return false;
			keys |= k.bit;
			if constexpr (layout.rest_ignored)
				return true;
			// One blank; a second one fails the next key, or the
			// end (trailing blanks the general parse passes over too).
			if (p != end && *p++ != ' ')
				return false;
		} else if constexpr (!k.optional) {
			return false;
		}
		return take_keys<L, I + 1, Blocks>(p, end, ev, ctx, keys);
	}
}

// The payload at P as layout L lists its keys: none other, nothing after
// the last (but after the number of a softirq or vector event, which is
// all the general parse reads of those).
template <event_layout L>
bool payload_as(const char *p, const char *end, trace_event &ev, line_context &ctx)
{
	std::uint32_t keys = 0;
	// 16 bytes readable past END: at every key (the block parse's lines,
	// always), the keys compared in blocks without asking again.
	if (ctx.limit && ctx.limit - end >= 16 ? !take_keys<L, 0, true>(p, end, ev, ctx, keys)
					       : !take_keys<L, 0, false>(p, end, ev, ctx, keys))
		return false;
	if constexpr (L == event_layout::softirq) {
		// parse_irq_payload's rule: the next token is "[action=NAME]"
		// (a line cut inside it is the general parse's to word).
		if (end - p < 10 || p[0] != ' ' || std::memcmp(p + 1, "[action=", 8) != 0)
			return false;
		const char *e = find_blank(p + 1, end, ctx.limit);
		return e[-1] == ']';
	}
	if constexpr (payload_layouts[std::size_t(L)].rest_ignored)
		return true;
	if (p != end)
		return false;
	if (ev.kind == event_kind::hrtimer) {
		// parse_hrtimer_payload's rule: softexpires <= expires.
		if (ev.hrtimer == hrtimer_event::start && ev.expires < ev.softexpires)
			return false;
		ctx.keys = keys;
		return true;
	}
	if (!is_timer_event(ev.kind))
		return true;
	// check_keys's rule: 4.11+ prints cpu= idx= flags= together.
	constexpr std::uint32_t group = K_CPU | K_IDX | K_FLAGS;
	if ((keys & (K_CPU | K_IDX)) && (keys & group) != group)
		return false;
	ctx.keys = keys;
	ev.has |= keys & reported_payload_keys;
	return true;
}

}  // namespace

const payload_parser common_payload_parsers[] = {
	payload_as<event_layout::timer_only>,
	payload_as<event_layout::timer_start>,
	payload_as<event_layout::timer_expire_entry>,
	payload_as<event_layout::hrtimer_only>,
	payload_as<event_layout::hrtimer_init>,
	payload_as<event_layout::hrtimer_start>,
	payload_as<event_layout::hrtimer_expire_entry>,
	payload_as<event_layout::softirq>,
	payload_as<event_layout::vector>,
};
static_assert(std::size(common_payload_parsers) == std::size(payload_layouts));

}  // namespace timersim
