// One pass over the common tracefs line (ftrace_fast.h). Each test that
// fails returns false, and the general parse reads the line from its start:
// nothing here needs to word a message.
#include "sim/trace/ftrace_fast.h"

#include "sim/trace/ftrace_fast_payload.h"
#include "sim/trace/text_columns.h"
#include "sim/trace/text_event_names.h"

namespace timersim {

namespace {

// ---- the head: [CPU] FLAGS SECONDS.FRACTION:

// Whether a non-blank stands in [BEGIN, LB - 1): the general parse starts
// at the first non-blank, and a '[' there is no CPU column (the task name
// must stand before it). The task's "-PID" is padded to eight columns
// ("%-7d "): a non-blank is in the 16 bytes before LB - 1 but for odd lines.
[[gnu::always_inline]] inline bool stands_after_task(const char *begin, const char *lb)
{
	const char *before = lb - 1;
#if defined(__SSE2__)
	if (before - begin >= 16 && scan_detail::blank_bits(scan_detail::load16(before - 16)) != 0xffffu)
		return true;
#endif
	while (before > begin && is_blank(before[-1]))
		before--;
	return before != begin;
}

// The CPU column "[NNN] " at LB (the line's first '['): tracefs prints
// "[%03d]", three digits below a thousand CPUs. The byte after it, or null:
// any other column (four digits and more) is split_line_head's.
const char *cpu_column(const char *lb, const char *end, std::uint32_t &cpu)
{
	if (end - lb < 6 || !is_digit(lb[1]) || !is_digit(lb[2]) || !is_digit(lb[3]) ||
	    lb[4] != ']' || !is_blank(lb[5]))
		return nullptr;
	cpu = unsigned(lb[1] - '0') * 100 + unsigned(lb[2] - '0') * 10 + unsigned(lb[3] - '0');
	return lb + 5;
}

#ifdef TIMERSIM_SWAR_DIGITS
// SECONDS.FRACTION at P (24 bytes readable there) with up to 7 digits of
// seconds, as seconds_fraction reads it, the seconds from CTX's last
// timestamp when they are the same text. Its length, or 0.
[[gnu::always_inline]] inline std::size_t cached_seconds_fraction(const char *p, std::uint64_t &ns,
								  line_context &ctx)
{
	std::uint64_t head = swar::load8(p);
	unsigned sec = swar::leading_digits(head);
	if (sec == 0 || sec > 7 || p[sec] != '.')
		return seconds_fraction(p, ns);
	std::uint64_t text = head & (~std::uint64_t(0) >> (8 * (7 - sec)));	// with its '.'
	if (text != ctx.seconds_text) {
		ctx.seconds_text = text;
		ctx.seconds_ns = std::uint64_t(swar::digits_value(head, sec)) * 1000000000u;
	}
	std::uint64_t tail = swar::load8(p + sec + 1);
	unsigned frac = swar::leading_digits(tail);
	if (frac == 0 || (frac == 8 && is_digit(p[sec + 9])))
		return 0;
	ns = ctx.seconds_ns + std::uint64_t(swar::digits_value(tail, frac)) * swar::pow10[9 - frac];
	return sec + 1 + frac;
}
#endif

// The timestamp token at P, a SECONDS.FRACTION: as parse_timestamp reads
// it. Its end, or null.
[[gnu::always_inline]] inline const char *timestamp_at(const char *p, const char *end,
						       std::uint64_t &ts, line_context &ctx)
{
	const char *limit = ctx.limit;
#ifdef TIMERSIM_SWAR_DIGITS
	if (limit && limit - p >= 24) {
		std::size_t n = cached_seconds_fraction(p, ts, ctx);
		if (n && std::size_t(end - p) > n && p[n] == ':' && ends_token(p + n + 1, end))
			return p + n + 1;
	}
#endif
	const char *e = find_blank(p, end, limit);
	if (e == p || e[-1] != ':')
		return nullptr;
	return parse_timestamp(std::string_view(p, e - 1 - p), ts, limit) ? e : nullptr;
}

// " FFFFF T" at P (8 bytes there): a blank, five bytes of flags, one
// blank, the timestamp's first byte. Not a flag block: a ':' last (the
// five bytes are the timestamp) or a '[' first in a token (a CPU column
// that timestamp_token leaves to split_line_head). With 16 bytes readable
// (LIMIT) the eight tests are three compares of one block.
[[gnu::always_inline]] inline bool flag_block_at(const char *p, const char *limit)
{
#if defined(__SSE2__)
	if (limit && limit - p >= 16) {
		__m128i v = scan_detail::load16(p);
		unsigned blanks = scan_detail::blank_bits(v) & 0xffu;
		unsigned brackets = unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('['))));
		unsigned colons = unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(':'))));
		// A blank at 0 and 6 of the eight, a ' ' (not a tab) there.
		return blanks == 0x41u && p[0] == ' ' && p[6] == ' ' && !(brackets & 0x82u) &&
		       !(colons & 0x20u);
	}
#else
	(void)limit;
#endif
	return p[0] == ' ' && !is_blank(p[1]) && p[1] != '[' && !is_blank(p[2]) &&
	       !is_blank(p[3]) && !is_blank(p[4]) && !is_blank(p[5]) && p[5] != ':' &&
	       p[6] == ' ' && !is_blank(p[7]) && p[7] != '[';
}

// The timestamp token after the CPU column: the first token, or the second
// when the first is the flag block (none with options/irq-info off). Sets
// TS; returns the token's end, or null. A token that could be a later CPU
// column ('[' first) is left to split_line_head, which judges task names
// holding "[NNN]".
const char *timestamp_token(const char *p, const char *end, std::uint64_t &ts, line_context &ctx)
{
	const char *limit = ctx.limit;
	// The flag block of 5.15+ ("d.h1."), one blank apart: at once.
	if (end - p >= 8 && flag_block_at(p, limit)) {
		p += 7;
	} else {
		p = skip_blank(p, end, limit);
		const char *e = find_blank(p, end, limit);
		if (e == p || *p == '[')
			return nullptr;
		if (e[-1] == ':')	// no flag block
			return timestamp_at(p, end, ts, ctx);
		p = skip_blank(e, end, limit);
		if (p == end || *p == '[')
			return nullptr;
	}
	return timestamp_at(p, end, ts, ctx);
}

}  // namespace

bool parse_common_ftrace_line(std::string_view line, trace_event &ev, line_context &ctx)
{
	const char *begin = line.data(), *end = begin + line.size(), *limit = ctx.limit;
	const char *lb = find_byte(begin, end, '[');
	if (lb == begin || lb == end || !is_blank(lb[-1]))
		return false;
	// The general parse starts at the first non-blank, and a '[' there is
	// no CPU column: the task name must stand before it.
	if (!stands_after_task(begin, lb))
		return false;
	std::uint32_t cpu;
	const char *p = cpu_column(lb, end, cpu);
	if (!p || !(p = timestamp_token(p, end, ev.ts_ns, ctx)))
		return false;
	const char *name = skip_one_blank(p, end, limit);
	const known_event_name *k = known_event_token(name, end, limit, p);
	if (!k)
		return false;
	ev.name = std::string_view(name, k->name.size());
	ev.kind = k->kind;
	ev.hrtimer = k->hrtimer;
	ev.timer_interrupt = k->timer_interrupt;
	ev.cpu = cpu;
	ev.idle_task = is_idle_task(std::string_view(begin, std::size_t(lb - begin)));
	ev.has |= EF_TIMESTAMP;
	ctx.keys = 0;
	return common_payload_parsers[std::size_t(k->layout)](skip_one_blank(p, end, limit), end, ev, ctx);
}

}  // namespace timersim
