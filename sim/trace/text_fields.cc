// Numbers, timestamps, pointers, timer flags and timer payloads of the text
// renderings. Hand-rolled: these run once or more per line of a trace that
// may be gigabytes long.
#include "sim/trace/text_fields.h"

#include <cstring>

#include "sim/trace/symbols.h"

namespace timersim {

bool parse_u64(std::string_view s, std::uint64_t &v)
{
	if (s.empty() || s.size() > 20)
		return false;
	std::uint64_t x = 0;
	for (char c : s) {
		if (!is_digit(c))
			return false;
		if (__builtin_mul_overflow(x, 10u, &x) ||
		    __builtin_add_overflow(x, unsigned(c - '0'), &x))
			return false;
	}
	v = x;
	return true;
}

bool parse_u32(std::string_view s, std::uint32_t &v)
{
	std::uint64_t x;
	if (!parse_u64(s, x) || x > 0xffffffffu)
		return false;
	v = std::uint32_t(x);
	return true;
}

bool parse_i64(std::string_view s, std::int64_t &v)
{
	bool neg = !s.empty() && s[0] == '-';
	std::uint64_t x;
	if (!parse_u64(neg ? s.substr(1) : s, x))
		return false;
	if (neg ? x > std::uint64_t(INT64_MAX) + 1 : x > std::uint64_t(INT64_MAX))
		return false;
	v = neg ? std::int64_t(0 - x) : std::int64_t(x);
	return true;
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

bool parse_pointer(std::string_view s, std::uint64_t &v, std::uint8_t *digits)
{
	if (s == "(null)" || s == "(nil)") {
		v = 0;
		if (digits)
			*digits = 0;
		return true;
	}
	if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s.remove_prefix(2);
	if (s.empty() || s.size() > 16)
		return false;
	std::uint64_t x = 0;
	for (char c : s) {
		int d = hex_value(c);
		if (d < 0)
			return false;
		x = x << 4 | unsigned(d);
	}
	v = x;
	if (digits)
		*digits = std::uint8_t(s.size());
	return true;
}

bool parse_timestamp(std::string_view s, std::uint64_t &ns)
{
	std::size_t dot = s.find('.');
	if (dot == std::string_view::npos)
		return parse_u64(s, ns);
	std::string_view frac = s.substr(dot + 1);
	std::uint64_t sec, part;
	if (!parse_u64(s.substr(0, dot), sec) || frac.empty() || frac.size() > 9 ||
	    !parse_u64(frac, part))
		return false;
	for (std::size_t i = frac.size(); i < 9; i++)
		part *= 10;
	std::uint64_t x;
	if (__builtin_mul_overflow(sec, 1000000000u, &x) || __builtin_add_overflow(x, part, &x))
		return false;
	ns = x;
	return true;
}

// timer->flags changed its layout twice while timer_start printed it as
// flags=0x%08x (4.2 to 4.10):
//   4.2-4.7: CPU in bits 0-18, MIGRATING 0x00080000, DEFERRABLE 0x00100000,
//            IRQSAFE 0x00200000.
//   4.8+:    CPU in bits 0-17, MIGRATING 0x00040000, DEFERRABLE 0x00080000,
//            PINNED 0x00100000, IRQSAFE 0x00200000, wheel index in bits 22+.
// The value does not say which kernel printed it. Bits 22 and up exist only
// in the 4.8 layout (a queued timer has its wheel index there), so any of
// them selects it; otherwise the value is read in the 4.2 layout. The one
// misreading left: a 4.8-4.10 timer queued in wheel slot 0 (index 0), whose
// D would read as M and P as D.
std::uint32_t normalise_raw_timer_flags(std::uint32_t raw)
{
	std::uint32_t f = 0;
	if (raw >> 22) {
		if (raw & 0x00040000u)
			f |= TF_MIGRATING;
		if (raw & 0x00080000u)
			f |= TF_DEFERRABLE;
		if (raw & 0x00100000u)
			f |= TF_PINNED;
	} else {
		if (raw & 0x00080000u)
			f |= TF_MIGRATING;
		if (raw & 0x00100000u)
			f |= TF_DEFERRABLE;
	}
	if (raw & 0x00200000u)
		f |= TF_IRQSAFE;
	return f;
}

bool parse_timer_flag_names(std::string_view s, std::uint32_t &flags)
{
	std::uint32_t f = 0;
	while (!s.empty()) {
		std::size_t bar = s.find('|');
		std::string_view name = s.substr(0, bar);
		std::uint64_t rest;
		if (name == "M")
			f |= TF_MIGRATING;
		else if (name == "D")
			f |= TF_DEFERRABLE;
		else if (name == "P")
			f |= TF_PINNED;
		else if (name == "I")
			f |= TF_IRQSAFE;
		else if (!(name.size() > 2 && name[1] == 'x' && parse_pointer(name, rest)))
			return false;	// __print_flags shows bits it has no name for as 0x..
		if (bar == std::string_view::npos)
			break;
		s.remove_prefix(bar + 1);
		if (s.empty())
			return false;
	}
	flags = f;
	return true;
}

event_kind kind_of_event(std::string_view name)
{
	if (name.empty() || (name[0] != 'h' && name[0] != 't'))
		return event_kind::other;
	if (name.starts_with("hrtimer_"))
		return event_kind::hrtimer;
	if (!name.starts_with("timer_"))
		return event_kind::other;
	std::string_view n = name.substr(6);
	if (n == "start")
		return event_kind::timer_start;
	if (n == "cancel")
		return event_kind::timer_cancel;
	if (n == "expire_entry")
		return event_kind::timer_expire_entry;
	if (n == "expire_exit")
		return event_kind::timer_expire_exit;
	if (n == "init")
		return event_kind::timer_init;
	if (n == "base_idle")
		return event_kind::timer_base_idle;
	return event_kind::other;
}

const char *payload_key_name(std::uint32_t key)
{
	switch (key) {
	case K_TIMER:		return "timer=";
	case K_FUNCTION:	return "function=";
	case K_EXPIRES:		return "expires=";
	case K_TIMEOUT:		return "[timeout=]";
	case K_NOW:		return "now=";
	case K_BASECLK:		return "baseclk=";
	case K_BUCKET_EXPIRY:	return "bucket_expiry=";
	case K_CPU:		return "cpu=";
	case K_IDX:		return "idx=";
	case K_FLAGS:		return "flags=";
	case K_IS_IDLE:		return "is_idle=";
	}
	return "?";
}

namespace {

// Quotes a bad value for a message, cut to a readable length.
std::string quoted(std::string_view v)
{
	if (v.size() > 40)
		return "'" + std::string(v.substr(0, 40)) + "...'";
	return "'" + std::string(v) + "'";
}

line_verdict bad_value(line_context &ctx, const trace_event &ev, std::string_view key,
		       const char *what, std::string_view value)
{
	ctx.reason.assign(ev.name);
	ctx.reason.append(": ").append(key).append(" is not ").append(what).append(": ");
	ctx.reason.append(quoted(value));
	return line_verdict::bad;
}

bool is_bare_hex_address(std::string_view s)
{
	if (s.size() < 8 || s.size() > 16)
		return false;
	for (char c : s)
		if (hex_value(c) < 0)
			return false;
	return true;
}

// The callback as given; a bare hex address gets its 0x so that an address
// reads the same from every rendering. With a symbol file, an address that
// the kernel could not name (%pf prints hex then) is named from it.
std::string_view function_value(std::string_view v, line_context &ctx)
{
	if (ctx.dialect.strip_function_offset) {
		std::size_t slash = v.find('/');
		if (slash != std::string_view::npos)
			v = v.substr(0, slash);
	}
	bool prefixed = v.size() > 2 && v[0] == '0' && v[1] == 'x';
	std::string_view digits = prefixed ? v.substr(2) : v;
	if (!prefixed && !is_bare_hex_address(v))
		return v;
	std::uint64_t addr;
	if (ctx.symbols && parse_pointer(digits, addr)) {
		std::string_view name = ctx.symbols->lookup(addr);
		if (!name.empty())
			return name;
	}
	if (prefixed)
		return v;
	ctx.function.assign("0x");
	ctx.function.append(v);
	return ctx.function;
}

line_verdict take_flags(std::string_view v, trace_event &ev, line_context &ctx)
{
	std::uint32_t f = 0;
	if (v.size() > 2 && v[0] == '0' && v[1] == 'x') {
		// 4.2-4.10: the raw value, printed by libtraceevent as exactly as
		// by the kernel (a plain %08x), so every rendering can trust it.
		std::uint64_t raw;
		if (!parse_pointer(v, raw) || raw > 0xffffffffu)
			return bad_value(ctx, ev, "flags", "a flag word", v);
		ev.flags = normalise_raw_timer_flags(std::uint32_t(raw));
		ev.has |= EF_FLAGS;
		return line_verdict::event;
	}
	if (!parse_timer_flag_names(v, f))
		return bad_value(ctx, ev, "flags", "M|D|P|I", v);
	if (ctx.dialect.trust_flag_names) {
		ev.flags = f;
		ev.has |= EF_FLAGS;
	}
	return line_verdict::event;
}

line_verdict take_u64(std::string_view key, std::string_view v, std::uint64_t &out,
		      trace_event &ev, line_context &ctx)
{
	if (!parse_u64(v, out))
		return bad_value(ctx, ev, key, "a number", v);
	return line_verdict::event;
}

line_verdict take_u32(std::string_view key, std::string_view v, std::uint32_t &out,
		      trace_event &ev, line_context &ctx)
{
	if (!parse_u32(v, out))
		return bad_value(ctx, ev, key, "a number", v);
	return line_verdict::event;
}

// "[timeout=%ld]"
line_verdict take_timeout(std::string_view tok, trace_event &ev, line_context &ctx)
{
	if (!tok.starts_with("[timeout=") || tok.back() != ']')
		return bad_value(ctx, ev, "[timeout=]", "closed by ']'", tok);
	std::string_view v = tok.substr(9, tok.size() - 10);
	if (!parse_i64(v, ev.timeout))
		return bad_value(ctx, ev, "timeout", "a number", v);
	ev.has |= EF_TIMEOUT;
	ctx.keys |= K_TIMEOUT;
	return line_verdict::event;
}

line_verdict take_field(std::string_view key, std::string_view v, trace_event &ev,
			line_context &ctx)
{
	std::uint64_t tmp;
	switch (key.size()) {
	case 3:
		if (key == "now") {
			ctx.keys |= K_NOW;
			return take_u64(key, v, ev.now, ev, ctx);
		}
		if (key == "cpu") {
			ctx.keys |= K_CPU;
			ev.has |= EF_TARGET_CPU;
			return take_u32(key, v, ev.target_cpu, ev, ctx);
		}
		if (key == "idx") {
			ctx.keys |= K_IDX;
			ev.has |= EF_IDX;
			return take_u32(key, v, ev.idx, ev, ctx);
		}
		break;
	case 5:
		if (key == "timer") {
			ctx.keys |= K_TIMER;
			if (!parse_pointer(v, ev.timer, &ev.timer_digits))
				return bad_value(ctx, ev, key, "a pointer", v);
			return line_verdict::event;
		}
		if (key == "flags") {
			ctx.keys |= K_FLAGS;
			return take_flags(v, ev, ctx);
		}
		break;
	case 7:
		if (key == "expires") {
			ctx.keys |= K_EXPIRES;
			return take_u64(key, v, ev.expires, ev, ctx);
		}
		if (key == "baseclk") {
			ctx.keys |= K_BASECLK;
			ev.has |= EF_BASECLK;
			return take_u64(key, v, ev.baseclk, ev, ctx);
		}
		if (key == "is_idle") {
			ctx.keys |= K_IS_IDLE;
			if (!parse_u64(v, tmp))
				return bad_value(ctx, ev, key, "a number", v);
			ev.is_idle = tmp != 0;
			return line_verdict::event;
		}
		break;
	case 8:
		if (key == "function") {
			ctx.keys |= K_FUNCTION;
			if (v.empty())
				return bad_value(ctx, ev, key, "a symbol or address", v);
			ev.function = function_value(v, ctx);
			return line_verdict::event;
		}
		break;
	case 13:
		if (key == "bucket_expiry") {
			ctx.keys |= K_BUCKET_EXPIRY;
			ev.has |= EF_BUCKET_EXPIRY;
			return take_u64(key, v, ev.bucket_expiry, ev, ctx);
		}
		break;
	}
	return line_verdict::event;	// a field of a newer kernel: not ours to judge
}

std::uint32_t required_keys(event_kind k)
{
	switch (k) {
	case event_kind::timer_start:
		return K_TIMER | K_FUNCTION | K_EXPIRES;
	case event_kind::timer_expire_entry:
		return K_TIMER | K_NOW;
	case event_kind::timer_base_idle:
		return K_IS_IDLE | K_CPU;
	case event_kind::timer_init:
	case event_kind::timer_cancel:
	case event_kind::timer_expire_exit:
		return K_TIMER;
	default:
		return 0;
	}
}

line_verdict check_keys(trace_event &ev, line_context &ctx)
{
	std::uint32_t need = required_keys(ev.kind);
	// 4.11+ prints cpu= idx= flags= together; one without the others is a
	// line cut short.
	constexpr std::uint32_t group = K_CPU | K_IDX | K_FLAGS;
	if (ev.kind == event_kind::timer_start && (ctx.keys & (K_CPU | K_IDX)))
		need |= group;
	std::uint32_t missing = need & ~ctx.keys;
	if (!missing)
		return line_verdict::event;
	ctx.reason.assign(ev.name);
	ctx.reason.append(": missing ").append(payload_key_name(missing & (0 - missing)));
	return line_verdict::bad;
}

// hrtimer events are only counted by the replay; their fields are kept
// when they read cleanly (the trace-cmd plugin reorders and rewrites them)
// and never make a line bad.
void parse_hrtimer_payload(std::string_view rest, trace_event &ev, line_context &ctx)
{
	while (!rest.empty()) {
		std::string_view tok = next_token(rest);
		std::size_t eq = tok.find('=');
		if (eq == std::string_view::npos)
			continue;
		std::string_view key = tok.substr(0, eq), v = tok.substr(eq + 1);
		if (key == "hrtimer")
			parse_pointer(v, ev.timer, &ev.timer_digits);
		else if (key == "function" && !v.empty())
			ev.function = function_value(v, ctx);
		else if (key == "expires")
			parse_u64(v, ev.expires);
		else if (key == "now")
			parse_u64(v, ev.now);
	}
}

}  // namespace

line_verdict parse_payload(std::string_view payload, trace_event &ev, line_context &ctx)
{
	ctx.keys = 0;
	if (ev.kind == event_kind::other)
		return line_verdict::event;
	if (ev.kind == event_kind::hrtimer) {
		parse_hrtimer_payload(payload, ev, ctx);
		return line_verdict::event;
	}
	std::string_view rest = skip_blanks(payload);
	if (rest.empty())
		return ctx.reject("line truncated: no event payload");
	while (!rest.empty()) {
		std::string_view tok = next_token(rest);
		line_verdict v;
		if (tok[0] == '[') {
			v = take_timeout(tok, ev, ctx);
		} else {
			std::size_t eq = tok.find('=');
			if (eq == std::string_view::npos || eq == 0) {
				ctx.reason.assign(ev.name).append(": not a key=value field: ");
				ctx.reason.append(quoted(tok));
				return line_verdict::bad;
			}
			v = take_field(tok.substr(0, eq), tok.substr(eq + 1), ev, ctx);
		}
		if (v != line_verdict::event)
			return v;
	}
	return check_keys(ev, ctx);
}

}  // namespace timersim
