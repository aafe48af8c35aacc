// Numbers, timestamps, pointers, timer flags and timer payloads of the text
// renderings. These run once or more per line of a trace that may be
// gigabytes long: string_views in, no allocation, std::from_chars's rules
// for the digits (with the fast paths of text_scan.h in front).
#include "sim/trace/text_fields.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <type_traits>

#include "sim/trace/irq_events.h"
#include "sim/trace/nohz_events.h"
#include "sim/trace/symbols.h"

namespace timersim {

namespace {

// All of S as one number in BASE, or false with V untouched (from_chars
// alone would leave the value of a leading part in it). LIMIT as for the
// scanners (text_scan.h).
template <class T>
bool parse_whole(std::string_view s, T &v, int base = 10, const char *limit = nullptr)
{
	const char *end = s.data() + s.size();
	T x;
	auto [stop, ec] = base == 10 ? decimal_prefix(s.data(), end, x, limit)
				     : std::from_chars(s.data(), end, x, base);
	if (ec != std::errc() || stop != end)
		return false;
	v = x;
	return true;
}

}  // namespace

bool parse_u64(std::string_view s, std::uint64_t &v) { return parse_whole(s, v); }
bool parse_u32(std::string_view s, std::uint32_t &v) { return parse_whole(s, v); }
bool parse_i64(std::string_view s, std::int64_t &v) { return parse_whole(s, v); }

bool parse_pointer(std::string_view s, std::uint64_t &v, std::uint8_t *digits)
{
	// The common case first: 16 hex digits, no 0x (which hex16 refuses).
	if (s.size() == 16 && hex16(s.data(), v)) {
		if (digits)
			*digits = 16;
		return true;
	}
	if (s == "(null)" || s == "(nil)") {
		v = 0;
		if (digits)
			*digits = 0;
		return true;
	}
	if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s.remove_prefix(2);
	// The digit count says how wide the kernel's pointers are: leading
	// zeros count, so more than 16 is not a pointer even when its value is.
	if (s.size() == 16 ? !hex16(s.data(), v) : s.size() > 16 || !parse_whole(s, v, 16))
		return false;
	if (digits)
		*digits = std::uint8_t(s.size());
	return true;
}

namespace {

constexpr std::uint32_t pow10_down[10] = {1000000000, 100000000, 10000000, 1000000,
					  100000, 10000, 1000, 100, 10, 1};

// The common timestamps in one pass over the digits: up to 10 digits of
// seconds (which cannot overflow in ns) and 1 to 9 of fraction, or a bare
// counter of up to 19 digits. False for anything else, which the general
// parse below judges.
bool short_timestamp(std::string_view s, std::uint64_t &ns)
{
	const char *p = s.data(), *end = p + s.size(), *q = p;
	std::uint64_t x = 0;	// all the digits, as if there were no '.'
	unsigned d;
	while (q < end && (d = unsigned(static_cast<unsigned char>(*q)) - '0') <= 9) {
		x = x * 10 + d;
		q++;
	}
	std::ptrdiff_t sec = q - p;
	if (q == end) {	// a bare counter
		if (sec == 0 || sec > 19)
			return false;
		ns = x;
		return true;
	}
	if (sec == 0 || sec > 10 || *q != '.')
		return false;
	const char *dot = q++;
	while (q < end && (d = unsigned(static_cast<unsigned char>(*q)) - '0') <= 9) {
		x = x * 10 + d;
		q++;
	}
	std::ptrdiff_t frac = q - dot - 1;
	if (q != end || frac == 0 || frac > 9)
		return false;
	ns = x * pow10_down[frac];	// SECONDS.FRACTION * 10^9
	return true;
}

#ifdef TIMERSIM_SWAR_DIGITS
// SECONDS.FRACTION, 1 to 10 digits and 1 to 8, from words of eight bytes
// read at S (24 bytes readable there). False for anything else, which the
// byte loops judge: the same value whenever this one is true.
bool swar_timestamp(std::string_view s, std::uint64_t &ns)
{
	std::uint64_t v;
	std::size_t n = seconds_fraction(s.data(), v);
	if (!n || n != s.size())
		return false;
	ns = v;
	return true;
}
#endif

}  // namespace

bool parse_timestamp(std::string_view s, std::uint64_t &ns, const char *limit)
{
#ifdef TIMERSIM_SWAR_DIGITS
	if (limit && limit - s.data() >= 24 && swar_timestamp(s, ns))
		return true;
#else
	(void)limit;
#endif
	return parse_timestamp(s, ns);
}

bool parse_timestamp(std::string_view s, std::uint64_t &ns)
{
	if (short_timestamp(s, ns))
		return true;
	const auto &scale = pow10_down;
	const char *end = s.data() + s.size();
	std::uint64_t sec;
	auto [sec_end, ec] = decimal_prefix(s.data(), end, sec);
	if (ec != std::errc())
		return false;
	if (sec_end == end) {	// a bare counter
		ns = sec;
		return true;
	}
	std::string_view frac(sec_end + 1, end - sec_end - 1);
	std::uint32_t part;
	if (*sec_end != '.' || frac.empty() || frac.size() > 9 || !parse_whole(frac, part))
		return false;
	std::uint64_t x;
	if (__builtin_mul_overflow(sec, 1000000000u, &x) ||
	    __builtin_add_overflow(x, std::uint64_t(part) * scale[frac.size()], &x))
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

const char *read_timer_flags(std::string_view v, trace_event &ev, const payload_dialect &dialect)
{
	if (v.size() > 2 && v[0] == '0' && v[1] == 'x') {
		// 4.2-4.10: the raw value, printed by libtraceevent as exactly as
		// by the kernel (a plain %08x), so every rendering can trust it.
		std::uint64_t raw;
		if (!parse_pointer(v, raw) || raw > 0xffffffffu)
			return "a flag word";
		ev.flags = normalise_raw_timer_flags(std::uint32_t(raw));
		ev.has |= EF_FLAGS;
		return nullptr;
	}
	std::uint32_t names = 0;	// "flags=": none, 6.8+'s most timers
	if (!v.empty() && !parse_timer_flag_names(v, names))
		return "M|D|P|I";
	if (dialect.trust_flag_names) {
		ev.flags = names;
		ev.has |= EF_FLAGS;
	}
	return nullptr;
}

event_kind kind_of_event(std::string_view name)
{
	if (name.empty())
		return event_kind::other;
	if (name[0] == 'h')
		return name.starts_with("hrtimer_") ? event_kind::hrtimer : event_kind::other;
	if (name.starts_with("timer_")) {
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
	// tick_stop, cpu_idle, tmigr_*.
	if (name[0] == 't' || name[0] == 'c')
		if (event_kind k = nohz_event_kind(name); k != event_kind::other)
			return k;
	// softirq_*, irq_handler_*, the x86 vectors' *_entry/_exit: all end
	// in 'y', 't' or 'e'; most other events are turned away here.
	char last = name.back();
	if (last != 'y' && last != 't' && last != 'e')
		return event_kind::other;
	bool timer_interrupt;
	return irq_event_kind(name, timer_interrupt);
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

bool is_hex_digit(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

bool is_bare_hex_address(std::string_view s)
{
	if (s.size() < 8 || s.size() > 16)
		return false;
	for (char c : s)
		if (!is_hex_digit(c))
			return false;
	return true;
}

}  // namespace

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
		ctx.function = ctx.symbols->callback_name(addr);
		if (!ctx.function.empty())
			return ctx.function;
	}
	if (prefixed)
		return v;
	ctx.function.assign("0x");
	ctx.function.append(v);
	return ctx.function;
}

namespace {

struct payload_field;
using take_value = line_verdict (*)(const payload_field &f, std::string_view v,
				    trace_event &ev, line_context &ctx);

// One payload key of the timer events: how it is printed, its bit, which
// events always carry it, and how its value is read.
struct payload_field {
	std::string_view key;	// before the '='
	const char *shown;	// in messages
	std::uint32_t bit;	// payload_key
	std::uint32_t needed_by;	// event kinds (kind_bit) that must carry it
	take_value take;
};

constexpr std::uint32_t kind_bit(event_kind k) { return 1u << unsigned(k); }

constexpr std::uint32_t any_timer_event =
	kind_bit(event_kind::timer_init) | kind_bit(event_kind::timer_start) |
	kind_bit(event_kind::timer_cancel) | kind_bit(event_kind::timer_expire_entry) |
	kind_bit(event_kind::timer_expire_exit);


template <auto member>
line_verdict take_number(const payload_field &f, std::string_view v, trace_event &ev,
			 line_context &ctx)
{
	if (!parse_whole(v, ev.*member, 10, ctx.limit))
		return bad_value(ctx, ev, f.key, "a number", v);
	return line_verdict::event;
}

// A number that only events of kind K keep: expires, now, timeout and
// baseclk share their places in trace_event with each other (by kind), so
// the key in another kind's line is read (a bad value is bad there too)
// and not kept.
template <auto member, event_kind K>
line_verdict take_number_of(const payload_field &f, std::string_view v, trace_event &ev,
			    line_context &ctx)
{
	std::remove_reference_t<decltype(ev.*member)> n;
	if (!parse_whole(v, n, 10, ctx.limit))
		return bad_value(ctx, ev, f.key, "a number", v);
	if (ev.kind == K)
		ev.*member = n;
	return line_verdict::event;
}

line_verdict take_timer(const payload_field &f, std::string_view v, trace_event &ev,
			line_context &ctx)
{
	if (!parse_pointer(v, ev.timer, &ev.timer_digits))
		return bad_value(ctx, ev, f.key, "a pointer", v);
	return line_verdict::event;
}

line_verdict take_function(const payload_field &f, std::string_view v, trace_event &ev,
			   line_context &ctx)
{
	if (v.empty())
		return bad_value(ctx, ev, f.key, "a symbol or address", v);
	ev.function = function_value(v, ctx);
	return line_verdict::event;
}

line_verdict take_is_idle(const payload_field &f, std::string_view v, trace_event &ev,
			  line_context &ctx)
{
	std::uint64_t idle;
	if (!parse_u64(v, idle))
		return bad_value(ctx, ev, f.key, "a number", v);
	ev.is_idle = idle != 0;
	return line_verdict::event;
}

line_verdict take_flags(const payload_field &f, std::string_view v, trace_event &ev,
			line_context &ctx)
{
	if (const char *want = read_timer_flags(v, ev, ctx.dialect))
		return bad_value(ctx, ev, f.key, want, v);
	return line_verdict::event;
}

// "[timeout=%ld]": the whole token, brackets included.
line_verdict take_timeout(const payload_field &f, std::string_view tok, trace_event &ev,
			  line_context &ctx)
{
	if (!tok.starts_with("[timeout=") || tok.back() != ']')
		return bad_value(ctx, ev, f.shown, "closed by ']'", tok);
	return take_number_of<&trace_event::timeout, event_kind::timer_start>(
		f, tok.substr(9, tok.size() - 10), ev, ctx);
}

// The one key table: parsing, the names in messages and the keys each
// event must carry all come from it. In the order a kernel prints them,
// which is also the order a missing key is named in.
constexpr payload_field payload_fields[] = {
	{"timer", "timer=", K_TIMER, any_timer_event, take_timer},
	{"function", "function=", K_FUNCTION,
	 kind_bit(event_kind::timer_start), take_function},
	{"expires", "expires=", K_EXPIRES,
	 kind_bit(event_kind::timer_start),
	 take_number_of<&trace_event::expires, event_kind::timer_start>},
	{"timeout", "[timeout=]", K_TIMEOUT, 0, take_timeout},
	{"now", "now=", K_NOW,
	 kind_bit(event_kind::timer_expire_entry),
	 take_number_of<&trace_event::now, event_kind::timer_expire_entry>},
	{"baseclk", "baseclk=", K_BASECLK, 0,
	 take_number_of<&trace_event::baseclk, event_kind::timer_expire_entry>},
	{"bucket_expiry", "bucket_expiry=", K_BUCKET_EXPIRY, 0,
	 take_number<&trace_event::bucket_expiry>},
	{"cpu", "cpu=", K_CPU,
	 kind_bit(event_kind::timer_base_idle), take_number<&trace_event::target_cpu>},
	{"idx", "idx=", K_IDX, 0, take_number<&trace_event::idx>},
	{"flags", "flags=", K_FLAGS, 0, take_flags},
	{"is_idle", "is_idle=", K_IS_IDLE,
	 kind_bit(event_kind::timer_base_idle), take_is_idle},
};
constexpr const payload_field &timeout_field = payload_fields[3];

// Keys are looked up by a hash of their length and end letters, perfect on
// the table (checked at compile time), then compared.
constexpr std::size_t key_slots = 32;
constexpr std::size_t key_slot(std::string_view key)
{
	return (key.size() + 3u * unsigned(key.front()) + unsigned(key.back())) % key_slots;
}

struct key_index {
	signed char field[key_slots];
	// Each key, zero-padded to 16 bytes: compared in one SSE2 block.
	char padded[std::size(payload_fields)][16];
	bool perfect = true;
	constexpr key_index() : field(), padded()
	{
		for (auto &f : field)
			f = -1;
		for (std::size_t i = 0; i < std::size(payload_fields); i++) {
			std::size_t slot = key_slot(payload_fields[i].key);
			perfect = perfect && field[slot] < 0 && payload_fields[i].key.size() < 16;
			field[slot] = static_cast<signed char>(i);
			for (std::size_t c = 0; c < payload_fields[i].key.size(); c++)
				padded[i][c] = payload_fields[i].key[c];
		}
	}
};
constexpr key_index key_index_of_table;
static_assert(key_index_of_table.perfect,
	      "two payload keys share a key_slot, or one is 16 bytes: change key_slot()");

// KEY's field, or null. LIMIT as for the scanners (text_scan.h): with 16
// bytes readable at the key, its bytes are compared in one block.
const payload_field *field_of_key(std::string_view key, [[maybe_unused]] const char *limit)
{
	int i = key_index_of_table.field[key_slot(key)];
	if (i < 0)
		return nullptr;
	const payload_field &f = payload_fields[i];
	if (f.key.size() != key.size())
		return nullptr;	// a field of a newer kernel: not ours to judge
#if defined(__SSE2__)
	if (limit && limit - key.data() >= 16) {
		__m128i same = _mm_cmpeq_epi8(scan_detail::load16(key.data()),
					      scan_detail::load16(key_index_of_table.padded[i]));
		unsigned want = (1u << key.size()) - 1;
		return (unsigned(_mm_movemask_epi8(same)) & want) == want ? &f : nullptr;
	}
#endif
	for (std::size_t c = 0; c < key.size(); c++)	// a few bytes: no memcmp call
		if (f.key[c] != key[c])
			return nullptr;
	return &f;
}

// The keys each event kind must carry, from the table, once.
struct required_keys_table {
	std::uint32_t of[std::size_t(event_kind::other) + 1] = {};
	constexpr required_keys_table()
	{
		for (std::size_t k = 0; k < std::size(of); k++)
			for (const payload_field &f : payload_fields)
				if (f.needed_by & kind_bit(event_kind(k)))
					of[k] |= f.bit;
	}
};
constexpr required_keys_table required_keys_of_kind;

std::uint32_t required_keys(event_kind k)
{
	return required_keys_of_kind.of[std::size_t(k)];
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
	ctx.reason.append(": missing ").append(payload_key_name(missing));
	return line_verdict::bad;
}

// One blank-separated token of a payload, its '=' found in the same pass.
struct payload_token {
	std::string_view text;	// the whole token
	std::size_t eq;		// index of its first '=', npos when none
};

// The token at P (not a blank), P left on the next one (or END).
payload_token take_token(const char *&p, const char *end, const char *limit)
{
	token_scan t = scan_token(p, end, limit);
	payload_token tok{std::string_view(p, t.end - p),
			  t.eq ? std::size_t(t.eq - p) : std::string_view::npos};
	p = skip_blank(t.end, end, limit);
	return tok;
}

// The keys each hrtimer event carries in every rendering (the trace-cmd
// plugin reorders them and leaves mode= and was_armed= off hrtimer_start;
// those two are held to the first hrtimer_start's, as timer_start's
// optional keys are). In hrtimer_event's order.
constexpr std::uint32_t hrtimer_required_keys[] = {
	0,						// none
	K_HRTIMER | K_CLOCKID | K_MODE,			// init, setup
	K_HRTIMER | K_FUNCTION | K_EXPIRES | K_SOFTEXPIRES,	// start
	K_HRTIMER,					// cancel
	K_HRTIMER | K_FUNCTION | K_NOW,			// expire_entry
	K_HRTIMER,					// expire_exit
	K_NEXT_EVENT | K_DEFERRED,			// rearm
	K_HRTIMER,					// start_expired
	0,						// other: not known
};
static_assert(std::size(hrtimer_required_keys) == std::size_t(hrtimer_event::other) + 1);

// A number of an hrtimer payload into INTO (when given), BIT into the
// line's keys; a value that is no number makes the line bad.
template <class T>
bool take_hr_number(std::string_view key, std::string_view v, T *into, std::uint32_t bit,
		    const trace_event &ev, line_context &ctx)
{
	T n;
	if (!parse_whole(v, n, 10, ctx.limit)) {
		bad_value(ctx, ev, key, "a number", v);
		return false;
	}
	if (into)
		*into = n;
	ctx.keys |= bit;
	return true;
}

// hrtimer payloads are held to the keys of their event, as the timer
// events are: a key the event carries must read (a mode of the kernel's
// words or libtraceevent's numbers, a clock by name or number), and the
// keys in hrtimer_required_keys must be there. Keys of other events and
// of newer kernels are passed over.
line_verdict parse_hrtimer_payload(std::string_view rest, trace_event &ev, line_context &ctx)
{
	ev.hrtimer = hrtimer_event_of(ev.name);
	const bool entry = ev.hrtimer == hrtimer_event::expire_entry;
	const char *p = skip_blanks(rest).data(), *end = rest.data() + rest.size();
	while (p < end) {
		payload_token t = take_token(p, end, ctx.limit);
		if (t.eq == std::string_view::npos || t.eq == 0) {
			ctx.reason.assign(ev.name).append(": not a key=value field: ");
			ctx.reason.append(quoted(t.text));
			return line_verdict::bad;
		}
		std::string_view key = t.text.substr(0, t.eq), v = t.text.substr(t.eq + 1);
		bool ok = true;
		switch (key.size()) {	// by length first: most keys are none of these
		case 3:
			if (key == "now")
				ok = take_hr_number(key, v, entry ? &ev.now : nullptr,
						    entry ? K_NOW : 0u, ev, ctx);
			break;
		case 4:
			if (key == "mode") {
				// "ABS": two starts in three (a 6.18 recording's).
				if (!(v == "ABS" || parse_hrtimer_mode(v, ev.hrtimer_mode)))
					return bad_value(ctx, ev, key, "a mode", v);
				ev.has |= EF_HRTIMER_MODE;
				ctx.keys |= K_MODE;
			}
			break;
		case 7:
			if (key == "hrtimer") {
				if (!parse_pointer(v, ev.timer, &ev.timer_digits))
					return bad_value(ctx, ev, key, "a pointer", v);
				ctx.keys |= K_HRTIMER;
			} else if (key == "expires") {
				ok = take_hr_number(key, v, entry ? nullptr : &ev.expires,
						    entry ? 0u : K_EXPIRES, ev, ctx);
			} else if (key == "clockid") {
				if (!parse_clockid(v, ev.clockid))
					return bad_value(ctx, ev, key, "a clock", v);
				ev.has |= EF_CLOCKID;
				ctx.keys |= K_CLOCKID;
			}
			break;
		case 8:
			if (key == "function") {
				if (v.empty())
					return bad_value(ctx, ev, key, "a symbol or address", v);
				ev.function = function_value(v, ctx);
				ctx.keys |= K_FUNCTION;
			} else if (key == "deferred") {	// hrtimer_rearm: 0 or 1
				if (v != "0" && v != "1")
					return bad_value(ctx, ev, key, "0 or 1", v);
				ev.deferred = v == "1";
				ev.has |= EF_WAS_ARMED;
				ctx.keys |= K_DEFERRED;
			}
			break;
		case 9:
			if (key == "was_armed") {
				std::uint32_t armed;
				if (!parse_u32(v, armed))
					return bad_value(ctx, ev, key, "a number", v);
				ev.was_armed = armed != 0;
				ev.has |= EF_WAS_ARMED;
				ctx.keys |= K_WAS_ARMED;
			}
			break;
		case 10:	// hrtimer_rearm: the device's next event, CLOCK_MONOTONIC ns
			if (key == "next_event")
				ok = take_hr_number(key, v, entry ? nullptr : &ev.expires,
						    K_NEXT_EVENT, ev, ctx);
			break;
		case 11:
			if (key == "softexpires") {
				ok = take_hr_number(key, v, &ev.softexpires, K_SOFTEXPIRES, ev, ctx);
				ev.has |= EF_SOFTEXPIRES;
			}
			break;
		}
		if (!ok)
			return line_verdict::bad;
	}
	std::uint32_t missing = hrtimer_required_keys[std::size_t(ev.hrtimer)] & ~ctx.keys;
	if (missing) {
		ctx.reason.assign(ev.name);
		ctx.reason.append(": missing ").append(payload_key_name(missing));
		return line_verdict::bad;
	}
	// The kernel sets softexpires = time, expires = time + slack: an
	// expires before it is a number cut or changed.
	if (ev.hrtimer == hrtimer_event::start && ev.expires < ev.softexpires)
		return ctx.reject(std::string(ev.name) + ": expires=" + std::to_string(ev.expires) +
				  " is before softexpires=" + std::to_string(ev.softexpires));
	return line_verdict::event;
}

// softirq_* (vec=%u [action=%s]), irq_handler_entry (irq=%d name=%s: the
// name is the rest of the line, it may hold blanks), irq_handler_exit
// (irq=%d ret=%s) and the x86 vectors (vector=%d). Each key is required:
// a line without one is bad, as a timer event's without its timer.
line_verdict parse_irq_payload(std::string_view rest, trace_event &ev, line_context &ctx)
{
	// The kind says it is one of the three; the name says which.
	bool softirq = ev.name.starts_with("softirq_");
	bool vector_event = !softirq && !ev.name.starts_with("irq_handler_");
	ev.timer_interrupt = vector_event && ev.name.starts_with("local_timer_");
	std::string_view want = softirq ? "vec" : vector_event ? "vector" : "irq";
	// The key after the number: none for a vector.
	const char *then = softirq ? "[action=]" : vector_event ? nullptr
			 : ev.kind == event_kind::irq_entry ? "name=" : "ret=";
	bool had_then = !then;
	const char *p = skip_blanks(rest).data(), *end = rest.data() + rest.size();
	while (p < end && !(had_then && (ev.has & EF_VEC))) {
		const char *at = p;
		payload_token t = take_token(p, end, ctx.limit);
		if (softirq && t.text.starts_with("[action=") && t.text.back() == ']') {
			had_then = true;	// not kept
			continue;
		}
		if (t.eq == std::string_view::npos)
			continue;
		std::string_view key = t.text.substr(0, t.eq), v = t.text.substr(t.eq + 1);
		if (key == want) {
			std::int64_t n;
			if (!parse_whole(v, n, 10, ctx.limit) || n < 0 || n > 0xffffffffll)
				return bad_value(ctx, ev, key, "a number", v);
			ev.vec = std::uint32_t(n);
			ev.has |= EF_VEC;
		} else if (key == "name" && ev.kind == event_kind::irq_entry && !vector_event) {
			std::string_view name = trim_right(std::string_view(
				at + t.eq + 1, std::size_t(end - at) - t.eq - 1));
			ev.timer_interrupt = is_timer_irq_name(name);
			had_then = true;
			break;	// the rest of the line is the name
		} else if (key == "ret" && ev.kind == event_kind::irq_exit && !vector_event) {
			had_then = true;	// not kept
		}
	}
	if (!(ev.has & EF_VEC)) {
		ctx.reason.assign(ev.name).append(": missing ").append(want).append("=");
		return line_verdict::bad;
	}
	if (!had_then) {
		ctx.reason.assign(ev.name).append(": missing ").append(then);
		return line_verdict::bad;
	}
	if (!vector_event && !softirq)
		ev.has |= EF_IRQ;
	return line_verdict::event;
}
// The NOHZ idle events (nohz_events.h). Each key the event carries must
// read (a number, a pointer, a dependency's name), and the keys that
// identify it must be there: tick_stop success= and dependency=, cpu_idle
// state= and cpu_id=, a tmigr CPU event cpu= and parent= (the idle ones
// nextevt= too), a group's group=, update_events child= and group=. Keys
// of newer kernels are passed over, as an hrtimer event's are.
line_verdict parse_nohz_payload(std::string_view rest, trace_event &ev, line_context &ctx)
{
	enum : std::uint32_t {
		N_SUCCESS = 1u << 0, N_DEPENDENCY = 1u << 1, N_STATE = 1u << 2, N_CPU_ID = 1u << 3,
		N_CPU = 1u << 4, N_PARENT = 1u << 5, N_NEXTEVT = 1u << 6, N_WAKEUP = 1u << 7,
		N_GROUP = 1u << 8, N_CHILD = 1u << 9,
	};
	static constexpr std::string_view key_names[] = {"success=", "dependency=", "state=", "cpu_id=",
							 "cpu=", "parent=", "nextevt=", "wakeup=",
							 "group=", "child="};
	std::uint32_t need = 0;
	if (ev.kind == event_kind::tick_stop) {
		need = N_SUCCESS | N_DEPENDENCY;
	} else if (ev.kind == event_kind::cpu_idle) {
		need = N_STATE | N_CPU_ID;
	} else {
		ev.tmigr = tmigr_event_of(ev.name);
		if (tmigr_has_wakeup(ev.tmigr))
			need = N_CPU | N_PARENT | N_WAKEUP;
		if (tmigr_has_nextevt(ev.tmigr) && ev.tmigr != tmigr_event::update_events)
			need |= N_NEXTEVT;
		if (ev.tmigr >= tmigr_event::group_set && ev.tmigr <= tmigr_event::handle_remote)
			need = N_GROUP;
		if (ev.tmigr == tmigr_event::update_events)
			need = N_GROUP | N_CHILD | N_NEXTEVT;
	}
	std::uint32_t got = 0;
	const char *p = skip_blanks(rest).data(), *end = rest.data() + rest.size();
	while (p < end) {
		payload_token t = take_token(p, end, ctx.limit);
		if (t.eq == std::string_view::npos || t.eq == 0) {
			ctx.reason.assign(ev.name).append(": not a key=value field: ");
			ctx.reason.append(quoted(t.text));
			return line_verdict::bad;
		}
		std::string_view key = t.text.substr(0, t.eq), v = t.text.substr(t.eq + 1);
		std::uint64_t n = 0, ptr = 0;
		auto number = [&](std::uint32_t bit) {
			if (!parse_u64(v, n))
				return false;
			got |= bit;
			return true;
		};
		auto pointer = [&](std::uint32_t bit) {
			if (!parse_pointer(v, ptr))
				return false;
			got |= bit;
			return true;
		};
		if (ev.kind == event_kind::tick_stop) {
			if (key == "success") {
				if (!number(N_SUCCESS) || n > 1)
					return bad_value(ctx, ev, key, "0 or 1", v);
				ev.stop_success = n;
			} else if (key == "dependency") {
				if (!parse_tick_dependency(v, ev.dependency))
					return bad_value(ctx, ev, key, "a tick dependency", v);
				got |= N_DEPENDENCY;
			}
		} else if (ev.kind == event_kind::cpu_idle) {
			if (key == "state") {
				if (!number(N_STATE) || n > idle_exit_state)
					return bad_value(ctx, ev, key, "a C-state", v);
				ev.idle_state = n;
			} else if (key == "cpu_id") {
				if (!number(N_CPU_ID) || n > 0xffffffffu)
					return bad_value(ctx, ev, key, "a CPU", v);
				ev.cpu_id = std::uint32_t(n);
			}
		} else if (key == "cpu") {
			if (!number(N_CPU) || n > 0xffffffffu)
				return bad_value(ctx, ev, key, "a CPU", v);
			ev.cpu_id = std::uint32_t(n);
		} else if (key == "nextevt" || key == "wakeup") {
			if (!number(key == "wakeup" ? N_WAKEUP : N_NEXTEVT))
				return bad_value(ctx, ev, key, "a number", v);
			if (key == "wakeup")
				ev.wakeup = n;
			else
				ev.nextevt = n;
		} else if (key == "parent" || key == "group" || key == "child") {
			if (!pointer(key == "parent" ? N_PARENT : key == "group" ? N_GROUP : N_CHILD))
				return bad_value(ctx, ev, key, "a pointer", v);
		}
	}
	if (std::uint32_t missing = need & ~got) {
		ctx.reason.assign(ev.name).append(": missing ");
		ctx.reason.append(key_names[__builtin_ctz(missing)]);
		return line_verdict::bad;
	}
	return line_verdict::event;
}

}  // namespace

const char *payload_key_name(std::uint32_t keys)
{
	if (keys & K_HRTIMER)
		return "hrtimer=";
	for (const payload_field &f : payload_fields)
		if (f.bit & keys)
			return f.shown;
	// The hrtimer events' own, in the order the kernel prints them.
	constexpr struct {
		std::uint32_t bit;
		const char *shown;
	} hrtimer_keys[] = {
		{K_CLOCKID, "clockid="}, {K_SOFTEXPIRES, "softexpires="}, {K_MODE, "mode="},
		{K_WAS_ARMED, "was_armed="}, {K_NEXT_EVENT, "next_event="}, {K_DEFERRED, "deferred="},
	};
	for (const auto &k : hrtimer_keys)
		if (k.bit & keys)
			return k.shown;
	return "?";
}

line_verdict parse_payload(std::string_view payload, trace_event &ev, line_context &ctx)
{
	ctx.keys = 0;
	if (ev.kind == event_kind::other)
		return line_verdict::event;
	if (ev.kind == event_kind::hrtimer)
		return parse_hrtimer_payload(payload, ev, ctx);
	if (is_cost_event(ev.kind))
		return parse_irq_payload(payload, ev, ctx);
	if (is_nohz_event(ev.kind))
		return parse_nohz_payload(payload, ev, ctx);
	const char *p = skip_blanks(payload).data(), *end = payload.data() + payload.size();
	if (p == end)
		return ctx.reject("line truncated: no event payload");
	while (p < end) {
		payload_token t = take_token(p, end, ctx.limit);
		const payload_field *f;
		std::string_view value;
		if (t.text[0] == '[') {
			f = &timeout_field;
			value = t.text;
		} else {
			if (t.eq == std::string_view::npos || t.eq == 0) {
				ctx.reason.assign(ev.name).append(": not a key=value field: ");
				ctx.reason.append(quoted(t.text));
				return line_verdict::bad;
			}
			f = field_of_key(t.text.substr(0, t.eq), ctx.limit);
			if (!f)
				continue;
			value = t.text.substr(t.eq + 1);
		}
		ctx.keys |= f->bit;
		if (f->take(*f, value, ev, ctx) != line_verdict::event)
			return line_verdict::bad;
	}
	ev.has |= ctx.keys & reported_payload_keys;
	return check_keys(ev, ctx);
}

}  // namespace timersim
