// Field parsing shared by the three text renderings (raw tracefs text,
// trace-cmd report, perf script): numbers, timestamps, pointers, timer flags
// and the key=value payloads of the timer and hrtimer events.
//
// Everything works on string_views into the reader's line buffer and never
// allocates, except to word the reason of a bad line.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sim/trace/event.h"
#include "sim/trace/text_scan.h"

namespace timersim {

class symbol_table;

// What one text line turned out to be.
enum class line_verdict { event, skip, bad };

// Payload keys a line carried (line_context::keys); the reader checks that
// every timer_start (every event of a timer or hrtimer kind) of a trace
// carries the keys of the first one, which is how a line cut short inside
// its payload is caught. One set of bits with
// event_field: an optional field's key is its event_field bit (what
// trace_event::has reports); the fields every kernel prints have bits of
// their own above those.
enum payload_key : std::uint32_t {
	K_TIMEOUT = EF_TIMEOUT,
	K_FLAGS = EF_FLAGS,
	K_CPU = EF_TARGET_CPU,
	K_IDX = EF_IDX,
	K_BASECLK = EF_BASECLK,
	K_BUCKET_EXPIRY = EF_BUCKET_EXPIRY,
	K_TIMER = 1u << 8,
	K_FUNCTION = 1u << 9,
	K_EXPIRES = 1u << 10,
	K_NOW = 1u << 11,
	K_IS_IDLE = 1u << 12,
	// The hrtimer events' own (function=, expires=, now= are shared).
	K_HRTIMER = 1u << 13,
	K_SOFTEXPIRES = 1u << 14,
	K_CLOCKID = 1u << 15,
	K_MODE = 1u << 16,
	K_WAS_ARMED = 1u << 17,
	K_NEXT_EVENT = 1u << 18,
	K_DEFERRED = 1u << 19,		// hrtimer_rearm (7.1)
};
// The optional keys whose presence trace_event::has reports (flags=: only
// where the rendering's names are the kernel's own, see take_flags).
constexpr std::uint32_t reported_payload_keys = K_TIMEOUT | K_CPU | K_IDX | K_BASECLK |
						K_BUCKET_EXPIRY;
// "expires=", "[timeout=]", ...: the name of KEYS' first key in the order
// the kernel prints them.
const char *payload_key_name(std::uint32_t keys);

// How a rendering prints the timer payloads.
struct payload_dialect {
	// Whether flags=M|D|P|I is the kernel's own value. libtraceevent
	// (trace-cmd report, perf script) prints D|P|I for every timer, so
	// there the names are checked and dropped; see trace_cmd_report.cc.
	bool trust_flag_names = true;
	// trace-cmd's hrtimer plugin prints function=sym/0xADDR.
	bool strip_function_offset = false;
};

// Per-reader scratch, reused line after line.
struct line_context {
	payload_dialect dialect;
	// reader_options::symbols, loaded: names hex callbacks. May be null.
	const symbol_table *symbols = nullptr;
	// How far past the line its memory may be read (text_scan.h); null:
	// not at all.
	const char *limit = nullptr;
	std::string reason;		// why the last line was bad
	std::string function;		// a bare hex function, given its 0x
	std::uint32_t keys = 0;		// payload_key bits of the last line
	unsigned cpus = 0;		// CPUs a header line declared
	// The line (skipped) was the tracer's note that events were lost on
	// lost_cpu: lost_events of them, 0 when the note gives no count.
	// The reader takes the note and clears lost_note.
	bool lost_note = false;
	std::uint32_t lost_cpu = 0;
	std::uint64_t lost_events = 0;
	// ftrace_fast.cc: the seconds of the last timestamp read, as text (its
	// first word up to the '.', the rest zeroed) and in ns. A trace's
	// timestamps share them for a second at a time.
	std::uint64_t seconds_text = 0, seconds_ns = 0;

	line_verdict reject(std::string_view why)
	{
		reason.assign(why);
		return line_verdict::bad;
	}
};

inline std::string_view trim_right(std::string_view s)
{
	while (!s.empty() && is_blank(s.back()))
		s.remove_suffix(1);
	return s;
}

// The next blank-separated token of S; S is left after it (blanks skipped).
inline std::string_view next_token(std::string_view &s)
{
	const char *end = s.data() + s.size();
	const char *start = skip_blank(s.data(), end);
	const char *stop = find_blank(start, end);
	const char *next = skip_blank(stop, end);
	s = std::string_view(next, end - next);
	return std::string_view(start, stop - start);
}

// The number parsers take the whole of S or fail (std::from_chars inside).
// Decimal, no sign, no overflow.
bool parse_u64(std::string_view s, std::uint64_t &v);
bool parse_u32(std::string_view s, std::uint32_t &v);
// Optional '-', then decimal; within int64_t.
bool parse_i64(std::string_view s, std::int64_t &v);
// Hex with or without 0x, at most 16 digits ("%p" hashed, raw or 0x); also
// "(null)" and "(nil)" as 0. DIGITS, when given: how many hex digits were
// printed (0 for the null forms).
bool parse_pointer(std::string_view s, std::uint64_t &v, std::uint8_t *digits = nullptr);
// "SECONDS.FRACTION" with 1 to 9 decimals (6 by default, 9 with perf --ns),
// exactly, in ns. A bare integer (trace_clock counter, x86-tsc) is taken as is.
bool parse_timestamp(std::string_view s, std::uint64_t &ns);
// The same, LIMIT as for the scanners (text_scan.h): where 24 bytes are
// readable from S's start, SECONDS.FRACTION with up to 8 decimals is read
// eight digits at a time.
bool parse_timestamp(std::string_view s, std::uint64_t &ns, const char *limit);

// timer_flag bits of a raw timer->flags value (flags=0x%08x, 4.2-4.10).
std::uint32_t normalise_raw_timer_flags(std::uint32_t raw);
// timer_flag bits of "M|D|P|I" (any subset, possibly empty). False for an
// unknown name.
bool parse_timer_flag_names(std::string_view s, std::uint32_t &flags);
// timer_start's flags= value V into EV: the raw word (4.2-4.10) or the
// names (kept where DIALECT trusts them). Null when it read; else the form
// the value should have had ("a flag word", "M|D|P|I").
const char *read_timer_flags(std::string_view v, trace_event &ev, const payload_dialect &dialect);

// A function= value as trace_event::function holds it: a bare hex address
// gets its 0x, and with ctx.symbols an address is named from them. May be
// a view of ctx.function.
std::string_view function_value(std::string_view v, line_context &ctx);

// Event name -> kind: the timer_* events, any hrtimer_*, the softirq and
// hard-interrupt events (irq_events.h), else other.
event_kind kind_of_event(std::string_view name);

// Parses the payload of EV (kind and name set) into its fields and checks
// the fields its kind needs. Other events are not looked into.
line_verdict parse_payload(std::string_view payload, trace_event &ev, line_context &ctx);

}  // namespace timersim
