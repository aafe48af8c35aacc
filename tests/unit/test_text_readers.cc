// Text trace readers: every kernel generation of the timer events in each
// rendering, parsed into the exact fields; gzip; bad input.
#include <algorithm>
#include <charconv>
#include <cstring>
#include <string>
#include <vector>

#include "sim/trace/line_source.h"
#include "sim/trace/reader.h"
#include "sim/trace/text_fields.h"
#include "sim/trace/text_reader.h"
#include "tests/support/scan_reference.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"	// last: check.h defines a fail() macro

using namespace timersim;
using timersim::test::owned_event;
using timersim::test::error_of;

namespace {

std::vector<owned_event> parse(const std::string &text, trace_format fmt,
			       std::size_t buffer = 0)
{
	reader_options opt;
	auto r = make_text_reader_from_memory(text, "mem", fmt, opt, buffer);
	auto evs = test::read_all(*r);
	ck_assert_uint_eq(r->stats().lines, r->stats().events + r->stats().skipped);
	return evs;
}

owned_event parse_one(const std::string &line, trace_format fmt = trace_format::ftrace)
{
	auto evs = parse(line + "\n", fmt);
	ck_assert_uint_eq(evs.size(), 1);
	return evs[0];
}

// The what() of the input_error that reading TEXT throws, "" if none.

}  // namespace

// Check's string asserts evaluate their arguments twice: keep the string.
#define expect_error(text, expected, ...)                                          \
	do {                                                                       \
		std::string got_ = error_of(text, ##__VA_ARGS__);                  \
		ck_assert_str_eq(got_.c_str(), expected);                          \
	} while (0)

// ---- numbers and timestamps ----------------------------------------------

START_TEST(timestamps_are_exact)
{
	std::uint64_t ns = 0;
	ck_assert(parse_timestamp("781.248872", ns));
	ck_assert_uint_eq(ns, 781248872000ull);
	ck_assert(parse_timestamp("975.992062123", ns));
	ck_assert_uint_eq(ns, 975992062123ull);
	ck_assert(parse_timestamp("1.5", ns));
	ck_assert_uint_eq(ns, 1500000000ull);
	// Beyond what a double holds exactly.
	ck_assert(parse_timestamp("9007199.254740993", ns));
	ck_assert_uint_eq(ns, 9007199254740993ull);
	ck_assert(parse_timestamp("123456", ns));	// counter clock, as is
	ck_assert_uint_eq(ns, 123456);
	ck_assert(!parse_timestamp("1.1234567890", ns));
	ck_assert(!parse_timestamp("1.", ns));
	ck_assert(!parse_timestamp(".5", ns));
	ck_assert(!parse_timestamp("1.x", ns));
	ck_assert(!parse_timestamp("99999999999999999999.0", ns));
	// Past the one-pass parse of the common ones: the general rules.
	ck_assert(parse_timestamp("12345678901.5", ns));
	ck_assert_uint_eq(ns, 12345678901500000000ull);
	ck_assert(parse_timestamp("00000000001.000000001", ns));
	ck_assert_uint_eq(ns, 1000000001ull);
	ck_assert(parse_timestamp("18446744073709551615", ns));	// a 20-digit counter
	ck_assert_uint_eq(ns, 18446744073709551615ull);
	ck_assert(!parse_timestamp("18446744074.0", ns));	// overflows in ns
	ck_assert(!parse_timestamp("1.2.3", ns));
	ck_assert(!parse_timestamp("", ns));
}
END_TEST

START_TEST(numbers_and_pointers)
{
	std::uint64_t v;
	std::int64_t s;
	std::uint8_t digits = 0;
	ck_assert(parse_u64("18446744073709551615", v));
	ck_assert_uint_eq(v, 18446744073709551615ull);
	ck_assert(!parse_u64("18446744073709551616", v));
	ck_assert(!parse_u64("12a", v));
	ck_assert(!parse_u64("", v));
	ck_assert(parse_i64("-5", s));
	ck_assert_int_eq(s, -5);
	ck_assert(parse_i64("-9223372036854775808", s));
	ck_assert(!parse_i64("9223372036854775808", s));
	ck_assert(parse_pointer("00000000315ef0ae", v, &digits));
	ck_assert_uint_eq(v, 0x315ef0aeull);
	ck_assert_uint_eq(digits, 16);
	ck_assert(parse_pointer("0xffffc9000007fdf8", v, &digits));
	ck_assert_uint_eq(v, 0xffffc9000007fdf8ull);
	ck_assert_uint_eq(digits, 16);
	ck_assert(parse_pointer("c1a2b3c4", v, &digits));
	ck_assert_uint_eq(digits, 8);
	ck_assert(parse_pointer("(null)", v) && v == 0);
	ck_assert(!parse_pointer("ffff88001d49b8c0a", v));
	ck_assert(!parse_pointer("0x", v));
	ck_assert(!parse_pointer("zz", v));
}
END_TEST

// parse_timestamp's rules, spelled with std::from_chars alone.
bool reference_timestamp(std::string_view s, std::uint64_t &ns)
{
	const char *end = s.data() + s.size();
	std::uint64_t sec;
	auto [sec_end, ec] = std::from_chars(s.data(), end, sec);
	if (ec != std::errc())
		return false;
	if (sec_end == end) {
		ns = sec;
		return true;
	}
	std::string_view frac(sec_end + 1, end - sec_end - 1);
	std::uint32_t part = 0;
	if (*sec_end != '.' || frac.empty() || frac.size() > 9 ||
	    std::from_chars(frac.data(), end, part).ptr != end)
		return false;
	std::uint64_t x, scale = 1;
	for (std::size_t i = frac.size(); i < 9; i++)
		scale *= 10;
	if (__builtin_mul_overflow(sec, 1000000000u, &x) ||
	    __builtin_add_overflow(x, part * scale, &x))
		return false;
	ns = x;
	return true;
}

// The fast paths in front of std::from_chars (text_scan.h) and the block
// scanners give what the standard and a byte loop give, on random strings
// near the edges: lengths 0-22, digits, hex letters, signs, blanks, '='.
template <class T>
bool reference_number(std::string_view s, T &v, int base = 10)
{
	T x;
	auto [stop, ec] = std::from_chars(s.data(), s.data() + s.size(), x, base);
	if (ec != std::errc() || stop != s.data() + s.size())
		return false;	// V untouched
	v = x;
	return true;
}

START_TEST(fast_paths_agree_with_the_standard)
{
	const char alphabet[] = "0123456789000999abcdefABCDEF-+ \t=x.";
	std::uint64_t seed = 88172645463325252ull;
	auto next = [&seed] {
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		return seed;
	};
	// Check's asserts are slow in a loop: the first disagreement is kept.
	std::string bad;
	auto expect = [&bad](bool same, const char *what, const std::string &s) {
		if (!same && bad.empty())
			bad = std::string(what) + " '" + s + "'";
	};
	for (int i = 0; i < 100000 && bad.empty(); i++) {
		// Decimal digits, hex digits, or anything of the alphabet.
		std::size_t letters[] = {10, 28, sizeof(alphabet) - 1};
		std::size_t n = letters[next() % 3];
		std::string s(next() % 23, ' ');
		for (char &c : s)
			c = alphabet[next() % n];
		std::uint64_t a = 7, b = 7;
		expect(parse_u64(s, a) == reference_number(s, b) && a == b, "u64", s);
		std::uint32_t c = 7, d = 7;
		expect(parse_u32(s, c) == reference_number(s, d) && c == d, "u32", s);
		std::int64_t e = 7, f = 7;
		expect(parse_i64(s, e) == reference_number(s, f) && e == f, "i64", s);
		a = b = 7;
		expect(parse_timestamp(s, a) == reference_timestamp(s, b) && a == b, "timestamp", s);
		std::string ts(next() % 23, '0');	// digits with a '.' or two
		for (char &c : ts)
			c = "0123456789.9"[next() % 12];
		a = b = 7;
		expect(parse_timestamp(ts, a) == reference_timestamp(ts, b) && a == b, "timestamp", ts);
		// SECONDS.FRACTION of every width around the word-at-a-time
		// parse's (up to 10 and 8 digits), with room to read past it
		// that holds digits (the worst case for it).
		std::string st(next() % 13, '0');
		for (char &c : st)
			c = char('0' + next() % 10);
		st += '.';
		st += std::to_string(next() % 10000000000ull).substr(0, next() % 11);
		// Numbers read in words of eight digits, with digits past their
		// end: the same as the byte loops'.
		std::string digits = std::to_string(next()).substr(0, next() % 21) + s;
		for (const std::string &t : {s, digits}) {
			std::string room = t + std::string(24, '9');
			const char *b = room.data(), *e = b + t.size(), *limit = b + room.size();
			std::uint64_t u = 7, u2 = 7;
			std::int64_t i = 7, i2 = 7;
			std::uint32_t w = 7, w2 = 7;
			auto r1 = decimal_prefix(b, e, u, limit), r2 = decimal_prefix(b, e, u2);
			auto r3 = decimal_prefix(b, e, i, limit), r4 = decimal_prefix(b, e, i2);
			auto r5 = decimal_prefix(b, e, w, limit), r6 = decimal_prefix(b, e, w2);
			expect(r1.ptr == r2.ptr && r1.ec == r2.ec && u == u2 && r3.ptr == r4.ptr &&
				       r3.ec == r4.ec && i == i2 && r5.ptr == r6.ptr && r5.ec == r6.ec &&
				       w == w2,
			       "decimal read past its end", t);
		}
		for (const std::string &t : {s, ts, st}) {
			std::string room = t + std::string(24, '9');
			a = b = 7;
			expect(parse_timestamp(std::string_view(room.data(), t.size()), a,
					       room.data() + room.size()) == reference_timestamp(t, b) &&
				       a == b, "timestamp read past its end", t);
		}
		if (s.size() == 16) {
			a = b = 7;
			expect(parse_pointer(s, a) == reference_number(s, b, 16) && a == b, "pointer", s);
		}
		// Scanners, without and with reading past the end.
		std::string padded = s + "x = y\t";
		expect(test::scanners_agree(padded.data(), padded.data() + s.size(),
					    padded.data() + padded.size()), "scanners", s);
	}
	ck_assert_msg(bad.empty(), "fast path differs: %s", bad.c_str());
}
END_TEST

START_TEST(flag_layouts)
{
	// 4.2-4.7: no bit >= 22; MIGRATING 0x80000, DEFERRABLE 0x100000.
	ck_assert_uint_eq(normalise_raw_timer_flags(0x00100001), TF_DEFERRABLE);
	ck_assert_uint_eq(normalise_raw_timer_flags(0x00280003), TF_MIGRATING | TF_IRQSAFE);
	ck_assert_uint_eq(normalise_raw_timer_flags(0x00000002), 0);
	// 4.8+: wheel index in bits 22+; M 0x40000, D 0x80000, P 0x100000.
	ck_assert_uint_eq(normalise_raw_timer_flags(0x0a480000), TF_DEFERRABLE);
	ck_assert_uint_eq(normalise_raw_timer_flags(0x01340001),
			  TF_MIGRATING | TF_PINNED | TF_IRQSAFE);
	std::uint32_t f = 99;
	ck_assert(parse_timer_flag_names("", f) && f == 0);
	ck_assert(parse_timer_flag_names("D|P|I", f));
	ck_assert_uint_eq(f, TF_DEFERRABLE | TF_PINNED | TF_IRQSAFE);
	ck_assert(parse_timer_flag_names("M", f) && f == TF_MIGRATING);
	ck_assert(!parse_timer_flag_names("D|X", f));
	ck_assert(!parse_timer_flag_names("D|", f));
}
END_TEST

START_TEST(event_kinds)
{
	ck_assert(kind_of_event("timer_init") == event_kind::timer_init);
	ck_assert(kind_of_event("timer_start") == event_kind::timer_start);
	ck_assert(kind_of_event("timer_cancel") == event_kind::timer_cancel);
	ck_assert(kind_of_event("timer_expire_entry") == event_kind::timer_expire_entry);
	ck_assert(kind_of_event("timer_expire_exit") == event_kind::timer_expire_exit);
	ck_assert(kind_of_event("timer_base_idle") == event_kind::timer_base_idle);
	ck_assert(kind_of_event("hrtimer_setup") == event_kind::hrtimer);
	ck_assert(kind_of_event("hrtimer_expire_entry") == event_kind::hrtimer);
	ck_assert(kind_of_event("itimer_state") == event_kind::other);
	ck_assert(kind_of_event("tick_stop") == event_kind::tick_stop);
	ck_assert(kind_of_event("cpu_idle") == event_kind::cpu_idle);
	ck_assert(kind_of_event("tmigr_cpu_idle") == event_kind::tmigr);
	ck_assert(kind_of_event("cpu_frequency") == event_kind::other);
	ck_assert(kind_of_event("timer_starts") == event_kind::other);
	ck_assert(kind_of_event("sched_switch") == event_kind::other);
}
END_TEST

// ---- raw ftrace, by kernel generation ------------------------------------

START_TEST(ftrace_3x)
{
	std::string text =
		"# tracer: nop\n"
		"#\n"
		"# entries-in-buffer/entries-written: 3/3   #P:4\n"
		"#\n"
		"#           TASK-PID   CPU#  ||||    TIMESTAMP  FUNCTION\n"
		"#              | |       |   ||||       |         |\n"
		"     kworker/0:1-100   [000] ..s.  1000.000002: timer_start: timer=ffff88001d49b8c0 function=0xffffffff81065e80 expires=4298033184 [timeout=3000]\n"
		"     kworker/0:1-100   [000] ..s.  1000.000386: timer_expire_entry: timer=ffff88001fa1b0f8 function=ffffffffa02314a0 now=4298030185\n"
		"          <idle>-0     [003] d.h.  1000.000400: timer_cancel: timer=ffff88001fa1b0f8\n";
	reader_options opt;
	auto r = make_text_reader_from_memory(text, "mem", trace_format::ftrace, opt);
	ck_assert_uint_eq(r->declared_cpus(), 4);	// known before the first event
	auto evs = test::read_all(*r);
	ck_assert_uint_eq(evs.size(), 3);
	const owned_event &s = evs[0];
	ck_assert(s.kind == event_kind::timer_start);
	ck_assert_str_eq(s.name.c_str(), "timer_start");
	ck_assert_uint_eq(s.cpu, 0);
	ck_assert_uint_eq(s.ts_ns, 1000000002000ull);
	ck_assert_uint_eq(s.line, 7);
	ck_assert_uint_eq(s.timer, 0xffff88001d49b8c0ull);
	ck_assert_uint_eq(s.timer_digits, 16);
	ck_assert_str_eq(s.function.c_str(), "0xffffffff81065e80");
	ck_assert_uint_eq(s.expires, 4298033184ull);
	ck_assert_int_eq(s.timeout, 3000);
	ck_assert_uint_eq(s.has, EF_TIMEOUT | EF_TIMESTAMP);
	const owned_event &e = evs[1];
	ck_assert(e.kind == event_kind::timer_expire_entry);
	ck_assert_str_eq(e.function.c_str(), "0xffffffffa02314a0");	// bare hex gets 0x
	ck_assert_uint_eq(e.now, 4298030185ull);
	ck_assert_uint_eq(e.has, EF_TIMESTAMP);
	ck_assert(evs[2].kind == event_kind::timer_cancel);
	ck_assert_uint_eq(evs[2].cpu, 3);
	ck_assert_uint_eq(evs[2].timer, 0xffff88001fa1b0f8ull);
	const reader_stats &st = r->stats();
	ck_assert_uint_eq(st.lines, 9);
	ck_assert_uint_eq(st.events, 3);
	ck_assert_uint_eq(st.skipped, 6);
	ck_assert_uint_eq(st.malformed, 0);
	ck_assert_uint_eq(st.bytes, text.size());
}
END_TEST

START_TEST(ftrace_42_numeric_flags_both_layouts)
{
	const char *pre = "     swapper/1-0     [001] ..s.   52.000100: timer_start: "
			  "timer=ffff88003fc8e2a0 function=delayed_work_timer_fn expires=4294952000 [timeout=250] ";
	// 4.2-4.7 layout: 0x00100001 = CPU 1, DEFERRABLE.
	owned_event a = parse_one(std::string(pre) + "flags=0x00100001");
	ck_assert_uint_eq(a.flags, TF_DEFERRABLE);
	ck_assert_uint_eq(a.has, EF_TIMEOUT | EF_FLAGS | EF_TIMESTAMP);
	ck_assert_str_eq(a.function.c_str(), "delayed_work_timer_fn");
	ck_assert_uint_eq(a.expires, 4294952000ull);
	ck_assert_int_eq(a.timeout, 250);
	// 4.8-4.10 layout: wheel index 0x29 in bits 22+, 0x00080000 = DEFERRABLE.
	owned_event b = parse_one(std::string(pre) + "flags=0x0a480001");
	ck_assert_uint_eq(b.flags, TF_DEFERRABLE);
	owned_event c = parse_one(std::string(pre) + "flags=0x00280000");
	ck_assert_uint_eq(c.flags, TF_MIGRATING | TF_IRQSAFE);
	owned_event d = parse_one(std::string(pre) + "flags=0x01340000");
	ck_assert_uint_eq(d.flags, TF_MIGRATING | TF_PINNED | TF_IRQSAFE);
}
END_TEST

START_TEST(ftrace_411_cpu_idx_flags)
{
	owned_event s = parse_one(
		"          <idle>-0     [001] d.s.   300.123456: timer_start: timer=ffff8800b9c1e3e8 "
		"function=tcp_keepalive_timer expires=4295000100 [timeout=7500] cpu=1 idx=135 flags=D|I");
	ck_assert_uint_eq(s.cpu, 1);
	ck_assert_uint_eq(s.target_cpu, 1);
	ck_assert_uint_eq(s.idx, 135);
	ck_assert_uint_eq(s.flags, TF_DEFERRABLE | TF_IRQSAFE);
	ck_assert_int_eq(s.timeout, 7500);
	ck_assert_uint_eq(s.has, EF_TIMEOUT | EF_TARGET_CPU | EF_IDX | EF_FLAGS | EF_TIMESTAMP);
	// Empty flags: known to be none.
	owned_event e = parse_one(
		"     rcu_preempt-15    [000] d..1   301.000001: timer_start: timer=000000004ec021c9 "
		"function=process_timeout expires=4295000101 [timeout=1] cpu=0 idx=1 flags=");
	ck_assert_uint_eq(e.flags, 0);
	ck_assert(e.carries(EF_FLAGS));
	ck_assert_uint_eq(e.timer, 0x4ec021c9ull);
	ck_assert_uint_eq(e.ts_ns, 301000001000ull);
}
END_TEST

START_TEST(ftrace_52_baseclk_and_68_bucket_expiry)
{
	owned_event x = parse_one(
		"          <idle>-0     [000] ..s1.  949.461203: timer_expire_entry: timer=000000002c6d7a5b "
		"function=delayed_work_timer_fn now=4295129628 baseclk=4295129627");
	ck_assert(x.kind == event_kind::timer_expire_entry);
	ck_assert_uint_eq(x.now, 4295129628ull);
	ck_assert_uint_eq(x.baseclk, 4295129627ull);
	ck_assert_uint_eq(x.has, EF_BASECLK | EF_TIMESTAMP);
	owned_event s = parse_one(
		"     rcu_preempt-15      [001] d..1.   949.460791: timer_start: timer=00000000315ef0ae "
		"function=process_timeout expires=4295129626 [timeout=1] bucket_expiry=4295129627 cpu=1 idx=27 flags=P");
	ck_assert_uint_eq(s.bucket_expiry, 4295129627ull);
	ck_assert_uint_eq(s.expires, 4295129626ull);
	ck_assert_uint_eq(s.idx, 27);
	ck_assert_uint_eq(s.flags, TF_PINNED);
	ck_assert_uint_eq(s.has, EF_TIMEOUT | EF_BUCKET_EXPIRY | EF_TARGET_CPU | EF_IDX |
				 EF_FLAGS | EF_TIMESTAMP);
	owned_event i = parse_one(
		"          <idle>-0       [000] d..3.   949.460796: timer_base_idle: is_idle=1 cpu=0");
	ck_assert(i.kind == event_kind::timer_base_idle);
	ck_assert(i.is_idle);
	ck_assert_uint_eq(i.target_cpu, 0);
	ck_assert(i.carries(EF_TARGET_CPU));
	owned_event j = parse_one(
		"          <idle>-0       [001] dN.1.   949.461197: timer_base_idle: is_idle=0 cpu=1");
	ck_assert(!j.is_idle);
	ck_assert_uint_eq(j.target_cpu, 1);
}
END_TEST

START_TEST(ftrace_columns_and_task_names)
{
	struct {
		const char *line;
		std::uint32_t cpu;
		std::uint64_t ts;
	} cases[] = {
		// PREEMPT_RT's wider flag block.
		{"     irq/9-acpi-54      [002] d..2.1.   12.000001: timer_cancel: timer=00000000315ef0ae", 2, 12000001000},
		// Task names with blanks and dashes; the PID after the last dash.
		{"  my worker-thread-1234 [003] d..1.   12.000002: timer_cancel: timer=00000000315ef0ae", 3, 12000002000},
		// options/record-tgid.
		{"            bash-1234    (   1234) [001] d..1.   12.000003: timer_cancel: timer=00000000315ef0ae", 1, 12000003000},
		// options/irq-info off: no flag column.
		{"            bash-1234  [001]   12.000004: timer_cancel: timer=00000000315ef0ae", 1, 12000004000},
		// Brackets in the task name before the CPU column.
		{"       foo [7] x-77     [005] ....   12.000005: timer_cancel: timer=00000000315ef0ae", 5, 12000005000},
		// A task name starting with '#' is not a comment.
		{"            #bad-12     [000] ....   12.000006: timer_cancel: timer=00000000315ef0ae", 0, 12000006000},
		// 4-column flags, a raw pointer, big CPU number.
		{"     kworker/0:1-100   [127] ..s.  12.000007: timer_cancel: timer=ffff88001fa1b0f8", 127, 12000007000},
		// A 0x pointer, 9-decimal timestamp.
		{"            bash-1    [000] d..1.  12.000000008: timer_cancel: timer=0xffff88001fa1b0f8", 0, 12000000008},
	};
	for (const auto &c : cases) {
		owned_event ev = parse_one(c.line);
		ck_assert_msg(ev.kind == event_kind::timer_cancel, "%s", c.line);
		ck_assert_msg(ev.cpu == c.cpu, "cpu %u in %s", ev.cpu, c.line);
		ck_assert_msg(ev.ts_ns == c.ts, "ts %llu in %s", (unsigned long long)ev.ts_ns, c.line);
		ck_assert_msg(ev.timer != 0, "%s", c.line);
	}
}
END_TEST

START_TEST(ftrace_other_and_hrtimer_events)
{
	std::string text =
		"            bash-13823   [000] .....   949.458480: hrtimer_setup: hrtimer=00000000d4448b79 clockid=CLOCK_MONOTONIC mode=REL|HARD\n"
		"     workload.sh-13825   [001] d.h1.   949.460777: hrtimer_start: hrtimer=00000000d8040f62 function=tick_nohz_handler expires=949440000000 softexpires=949440000000 mode=ABS was_armed=0\n"
		"          <idle>-0       [000] d..3.   949.460797: tick_stop: success=1 dependency=NONE\n"
		"            bash-1       [000] d..3.   949.460798: itimer_state: which=0 expires=0 it_value=0.000000 it_interval=0.000000\n"
		"            bash-1       [000] d..3.   949.460799: sched_wakeup: comm=foo pid=3 prio=120 target_cpu=000\n";
	auto evs = parse(text, trace_format::ftrace);
	ck_assert_uint_eq(evs.size(), 5);
	ck_assert(evs[0].kind == event_kind::hrtimer);
	ck_assert_str_eq(evs[0].name.c_str(), "hrtimer_setup");
	ck_assert(evs[1].kind == event_kind::hrtimer);
	ck_assert_uint_eq(evs[1].timer, 0xd8040f62ull);
	ck_assert_uint_eq(evs[1].expires, 949440000000ull);
	ck_assert_str_eq(evs[1].function.c_str(), "tick_nohz_handler");
	ck_assert(evs[2].kind == event_kind::tick_stop);
	ck_assert_str_eq(evs[2].name.c_str(), "tick_stop");
	ck_assert_uint_eq(evs[2].stop_success, 1);
	ck_assert(evs[3].kind == event_kind::other);
	ck_assert_str_eq(evs[3].name.c_str(), "itimer_state");
	ck_assert_str_eq(evs[4].name.c_str(), "sched_wakeup");
}
END_TEST

// ---- trace-cmd report and perf script ------------------------------------

START_TEST(trace_cmd_report_lines)
{
	std::string text =
		"cpus=2\n"
		"CPU 1 is empty\n"
		"     rcu_preempt-15    [001]   949.460791: timer_start:          timer=0xffffc9000007fdf8 function=process_timeout expires=4295129626 [timeout=1] bucket_expiry=4295129627 cpu=1 idx=27 flags=D|P|I\n"
		"     workload.sh-13825 [001]   949.460770: hrtimer_expire_entry: hrtimer=0xffff888627d1c6f8 now=949436001722 function=tick_nohz_handler/0x0\n"
		"          <idle>-0     [000]   949.461203: timer_expire_entry:   timer=0xffff888627c28f50 function=mix_interrupt_randomness now=4295129628 baseclk=4295129627\n";
	reader_options opt;
	auto r = make_text_reader_from_memory(text, "mem", trace_format::trace_cmd_report, opt);
	ck_assert_uint_eq(r->declared_cpus(), 2);
	auto evs = test::read_all(*r);
	ck_assert_uint_eq(evs.size(), 3);
	ck_assert_uint_eq(r->stats().skipped, 2);
	const owned_event &s = evs[0];
	ck_assert(s.kind == event_kind::timer_start);
	ck_assert_uint_eq(s.timer, 0xffffc9000007fdf8ull);
	ck_assert_uint_eq(s.bucket_expiry, 4295129627ull);
	ck_assert_uint_eq(s.target_cpu, 1);
	// libtraceevent's D|P|I is not the kernel's value: not recorded.
	ck_assert(!s.carries(EF_FLAGS));
	ck_assert_uint_eq(s.flags, 0);
	ck_assert_uint_eq(s.has, EF_TIMEOUT | EF_BUCKET_EXPIRY | EF_TARGET_CPU | EF_IDX | EF_TIMESTAMP);
	// The hrtimer plugin's reordered fields and sym/0x0.
	ck_assert(evs[1].kind == event_kind::hrtimer);
	ck_assert_str_eq(evs[1].name.c_str(), "hrtimer_expire_entry");
	ck_assert_str_eq(evs[1].function.c_str(), "tick_nohz_handler");
	ck_assert_uint_eq(evs[1].now, 949436001722ull);
	ck_assert_uint_eq(evs[2].baseclk, 4295129627ull);
	ck_assert_uint_eq(evs[2].cpu, 0);
	// A raw 0x%08x word (4.2-4.10) prints the same through libtraceevent: kept.
	owned_event old = parse_one(
		"   old kernel-9        [000]    52.000100: timer_start:          timer=0xffff88003fc8e2a0 "
		"function=delayed_work_timer_fn expires=4294952000 [timeout=250] flags=0x00100001",
		trace_format::trace_cmd_report);
	ck_assert(old.carries(EF_FLAGS));
	ck_assert_uint_eq(old.flags, TF_DEFERRABLE);
	// Bogus flag names are still an error.
	expect_error("cpus=1\n  a-1 [000] 1.000001: timer_start: timer=0x1 function=f expires=5 [timeout=1] cpu=0 idx=1 flags=Q\n",
		     "t.txt:2: timer_start: flags is not M|D|P|I: 'Q'", trace_format::trace_cmd_report);
}
END_TEST

START_TEST(perf_script_lines)
{
	std::string text =
		"     rcu_preempt    15 [001]   563.988448:        timer:timer_start: timer=0xffffc9000007fdf8 function=process_timeout expires=4295033264 [timeout=1] bucket_expiry=4295033265 cpu=1 idx=49 flags=D|P|I\n"
		"  Web Content  4242/4250 [000]   563.988449123:    timer:timer_cancel: timer=0xffffc9000007fdf8\n"
		"    workload2.sh 14385 [001]   975.992250:          1 timer:timer_expire_entry: timer=0xffff888627d28f50 function=mix_interrupt_randomness now=4295136264 baseclk=4295136264\n"
		"    workload2.sh 14385 [001]   975.992251:  sched:sched_switch: prev_comm=a prev_pid=1\n"
		"    workload2.sh 14385 [001]   975.992252:  timer:hrtimer_start: hrtimer=0xffff888627d1c6f8 function=tick_nohz_handler expires=975996000000 softexpires=975996000000 mode=0x0 was_armed=0\n"
		// perf's own notes and records, when asked for or when stderr came along.
		"            perf 14385 [001]   975.992253: PERF_RECORD_COMM: workload2.sh:14385/14385\n"
		"            perf 14385 [001]   975.992254: PERF_RECORD_LOST lost 12\n"
		"Warning:\n"
		"Processed 48955 events and lost 3 chunks!\n";
	std::string with_header = "# ========\n# nrcpus online : 2\n# nrcpus avail : 4\n# ========\n#\n" + text;
	reader_options opt;
	auto r = make_text_reader_from_memory(with_header, "mem", trace_format::perf_script, opt);
	ck_assert_uint_eq(r->declared_cpus(), 4);
	auto evs = test::read_all(*r);
	ck_assert_uint_eq(evs.size(), 5);
	ck_assert_uint_eq(r->stats().skipped, 9);
	ck_assert_uint_eq(r->stats().malformed, 0);
	const owned_event &s = evs[0];
	ck_assert(s.kind == event_kind::timer_start);
	ck_assert_str_eq(s.name.c_str(), "timer_start");
	ck_assert_uint_eq(s.cpu, 1);
	ck_assert_uint_eq(s.ts_ns, 563988448000ull);
	ck_assert_uint_eq(s.expires, 4295033264ull);
	ck_assert_uint_eq(s.bucket_expiry, 4295033265ull);
	ck_assert_uint_eq(s.idx, 49);
	ck_assert(!s.carries(EF_FLAGS));
	// A comm with a blank, pid/tid, --ns timestamp.
	ck_assert(evs[1].kind == event_kind::timer_cancel);
	ck_assert_uint_eq(evs[1].cpu, 0);
	ck_assert_uint_eq(evs[1].ts_ns, 563988449123ull);
	// -F ...,period: a count before the event.
	ck_assert(evs[2].kind == event_kind::timer_expire_entry);
	ck_assert_uint_eq(evs[2].now, 4295136264ull);
	ck_assert_str_eq(evs[2].function.c_str(), "mix_interrupt_randomness");
	ck_assert(evs[3].kind == event_kind::other);
	ck_assert_str_eq(evs[3].name.c_str(), "sched_switch");
	ck_assert(evs[4].kind == event_kind::hrtimer);
	ck_assert_str_eq(evs[4].name.c_str(), "hrtimer_start");
}
END_TEST

START_TEST(same_event_in_three_renderings)
{
	owned_event f = parse_one(
		"     rcu_preempt-15      [001] d..1.   949.460791: timer_start: timer=00000000315ef0ae "
		"function=process_timeout expires=4295129626 [timeout=1] bucket_expiry=4295129627 cpu=1 idx=27 flags=", trace_format::ftrace);
	owned_event t = parse_one(
		"     rcu_preempt-15    [001]   949.460791: timer_start:          timer=0x00000000315ef0ae "
		"function=process_timeout expires=4295129626 [timeout=1] bucket_expiry=4295129627 cpu=1 idx=27 flags=D|P|I", trace_format::trace_cmd_report);
	owned_event p = parse_one(
		"     rcu_preempt    15 [001]   949.460791:        timer:timer_start: timer=0x00000000315ef0ae "
		"function=process_timeout expires=4295129626 [timeout=1] bucket_expiry=4295129627 cpu=1 idx=27 flags=D|P|I", trace_format::perf_script);
	f.has &= ~EF_FLAGS;
	ck_assert(f == t);
	ck_assert(t == p);
}
END_TEST

// ---- line source: buffers, gzip, line endings -----------------------------

static const char *sample_trace =
	"# tracer: nop\n"
	"#\n"
	"     kworker/0:1-100   [000] ..s.  1000.000002: timer_start: timer=ffff88001d49b8c0 function=0xffffffff81065e80 expires=4298033184 [timeout=3000]\n"
	"     kworker/0:1-100   [000] ..s.  1000.000386: timer_expire_entry: timer=ffff88001fa1b0f8 function=ffffffffa02314a0 now=4298030185\n"
	"\n"
	"          <idle>-0     [003] d.h.  1000.000400: timer_cancel: timer=ffff88001fa1b0f8\n"
	"CPU:1 [LOST 1234 EVENTS]\n"
	"          <idle>-0     [003] d.h.  1000.000401: hrtimer_cancel: hrtimer=ffff88001fa0e980\n"
	"     kworker/0:1-100   [000] ..s.  1000.000402: timer_start: timer=ffff88001d49b8c0 function=0xffffffff81065e80 expires=4298033185 [timeout=3001]\n";

// Every line of SRC as "text|terminated|overlong", and the bytes at the end.
static std::string lines_of(line_source &src)
{
	std::string out;
	std::string_view line;
	while (src.next(line)) {
		out += std::string(line) + (src.terminated() ? "|t" : "|u") +
		       (src.overlong() ? "|long" : "") + "\n";
		ck_assert_uint_eq(src.line_no(), std::count(out.begin(), out.end(), '\n'));
	}
	return out + "bytes=" + std::to_string(src.bytes());
}

START_TEST(line_source_edges)
{
	struct {
		const char *in;
		const char *want;
	} cases[] = {
		{"", "bytes=0"},
		{"\n", "|t\nbytes=1"},
		{"a", "a|u\nbytes=1"},
		{"a\n\nb", "a|t\n|t\nb|u\nbytes=4"},
		{"a\r\nb\r\n", "a|t\nb|t\nbytes=6"},
		{"abc\n", "abc|t\nbytes=4"},
	};
	for (const auto &c : cases)
		// A buffer holds lines of up to its size - 1 bytes (with the '\n').
		for (std::size_t buf : {0, 4, 5, 7, 64}) {
			auto src = line_source::from_memory(c.in, "m", buf);
			std::string got = lines_of(*src);
			ck_assert_msg(got == c.want, "buffer %zu on '%s': %s", buf, c.in, got.c_str());
		}
	// Lines longer than the buffer: cut, flagged, the rest dropped.
	auto src = line_source::from_memory("0123456789\nab\n0123456789", "m", 4);
	std::string got = lines_of(*src);
	ck_assert_str_eq(got.c_str(), "0123|u|long\nab|t\n0123|u|long\nbytes=24");
	src = line_source::from_memory("abcd\nabc\n", "m", 4);
	got = lines_of(*src);
	ck_assert_str_eq(got.c_str(), "abcd|u|long\nabc|t\nbytes=9");
	// head() does not consume.
	src = line_source::from_memory("xy\nz\n", "m", 16);
	ck_assert(src->head(100) == "xy\nz\n");
	ck_assert(src->head(2) == "xy");
	got = lines_of(*src);
	ck_assert_str_eq(got.c_str(), "xy|t\nz|t\nbytes=5");
}
END_TEST

START_TEST(small_buffers_give_the_same_events)
{
	auto ref = parse(sample_trace, trace_format::ftrace);
	ck_assert_uint_eq(ref.size(), 5);
	// Every buffer size that holds the longest line: refills land everywhere.
	for (std::size_t buf = 160; buf < 400; buf += 7) {
		auto got = parse(sample_trace, trace_format::ftrace, buf);
		ck_assert_msg(got == ref, "buffer %zu", buf);
	}
}
END_TEST

START_TEST(overlong_line_is_malformed_and_skipped)
{
	std::string text = std::string("     kworker/0:1-100   [000] ..s.  1000.000386: timer_cancel: timer=1 ") +
			   std::string(500, 'x') + "\n" + sample_trace;
	reader_options opt;
	opt.lenient = true;
	auto r = make_text_reader_from_memory(text, "mem", trace_format::ftrace, opt, 200);
	auto evs = test::read_all(*r);
	ck_assert_uint_eq(evs.size(), 5);
	ck_assert_uint_eq(r->stats().malformed, 1);
	ck_assert_uint_eq(r->stats().lines, 10);
	ck_assert_uint_eq(r->stats().bytes, text.size());
	ck_assert_uint_eq(evs[0].line, 4);	// the long line still counts as one
	opt.lenient = false;
	r = make_text_reader_from_memory(text, "mem", trace_format::ftrace, opt, 200);
	trace_event ev;
	try {
		r->next(ev);
		ck_abort_msg("an overlong line must not pass");
	} catch (const input_error &e) {
		ck_assert_uint_eq(e.line(), 1);
		ck_assert_msg(e.reason().find("longer than") != std::string::npos, "%s", e.what());
	}
}
END_TEST

START_TEST(crlf_lines)
{
	std::string text = sample_trace;
	std::string crlf;
	for (char c : text)
		crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
	auto a = parse(text, trace_format::ftrace);
	auto b = parse(crlf, trace_format::ftrace);
	ck_assert(a == b);
}
END_TEST

START_TEST(gzip_round_trip)
{
	std::string text;
	for (int i = 0; i < 3000; i++)	// bigger than one read buffer of zlib
		text += sample_trace;
	std::string plain = test::write_temp("t.txt", text);
	std::string gz = test::write_temp_gzip("t.txt.gz", text);
	reader_options opt;
	auto rp = open_trace(plain, trace_format::auto_detect, opt);
	auto rg = open_trace(gz, trace_format::auto_detect, opt);
	ck_assert(rg->format() == trace_format::ftrace);
	auto ep = test::read_all(*rp);
	auto eg = test::read_all(*rg);
	ck_assert_uint_eq(ep.size(), 5 * 3000);
	ck_assert(ep == eg);
	ck_assert_uint_eq(rg->stats().bytes, text.size());
	ck_assert_uint_eq(rg->stats().lines, rp->stats().lines);
}
END_TEST

START_TEST(gzip_truncated_is_an_error)
{
	std::string text;
	for (int i = 0; i < 2000; i++)
		text += sample_trace;
	std::string gz = test::read_whole_file(test::write_temp_gzip("full.gz", text));
	std::string cut = test::write_temp("cut.gz", std::string_view(gz).substr(0, gz.size() / 2));
	reader_options opt;
	auto r = open_trace(cut, trace_format::ftrace, opt);
	try {
		test::read_all(*r);
		ck_abort_msg("a truncated gzip stream must not read as complete");
	} catch (const input_error &e) {
		ck_assert_msg(e.reason().find("gzip") != std::string::npos, "%s", e.what());
		ck_assert_string_eq(e.file().c_str(), cut.c_str());
	}
}
END_TEST

// ---- bad input ------------------------------------------------------------

static const char *good_start =
	"     rcu_preempt-15      [001] d..1.   949.460791: timer_start: timer=00000000315ef0ae "
	"function=process_timeout expires=4295129626 [timeout=1] bucket_expiry=4295129627 cpu=1 idx=27 flags=\n";

START_TEST(non_numeric_field)
{
	std::string text = std::string("# tracer: nop\n") +
		"     kworker/0:1-100   [000] ..s.  1000.000002: timer_start: timer=ffff88001d49b8c0 function=f expires=x12 [timeout=3]\n";
	expect_error(text,
			 "t.txt:2: timer_start: expires is not a number: 'x12'");
	expect_error("  a-1 [000] .... 1.000001: timer_cancel: timer=zz\n",
			 "t.txt:1: timer_cancel: timer is not a pointer: 'zz'");
	expect_error("  a-1 [000] .... 1.000001: timer_start: timer=1 function=f expires=1 [timeout=x]\n",
			 "t.txt:1: timer_start: timeout is not a number: 'x'");
	expect_error("  a-1 [000] .... 1.000001: timer_expire_entry: timer=1 function=f now=-3\n",
			 "t.txt:1: timer_expire_entry: now is not a number: '-3'");
	expect_error("  a-1 [000] .... 1.000001: timer_base_idle: is_idle=yes cpu=0\n",
			 "t.txt:1: timer_base_idle: is_idle is not a number: 'yes'");
}
END_TEST

START_TEST(structural_errors)
{
	expect_error("  a-1 [000] d..1. timer_init: timer=1\n",
			 "t.txt:1: timestamp missing");
	expect_error("just some words\n", "t.txt:1: no [CPU] column");
	expect_error("  a-1 [000] d..1. 1.000001:\n",
			 "t.txt:1: line truncated: no event name");
	expect_error("  a-1 [000] d..1. 1.000001: timer_cancel:\n",
			 "t.txt:1: line truncated: no event payload");
	expect_error("  a-1 [000] d..1. 1.000001: timer_start: timer=1 function=f\n",
			 "t.txt:1: timer_start: missing expires=");
	expect_error("  a-1 [000] d..1. 1.000001: timer_expire_entry: timer=1 function=f\n",
			 "t.txt:1: timer_expire_entry: missing now=");
	expect_error("  a-1 [000] d..1. 1.000001: timer_start: timer=1 function=f expires=2 [timeout=1 cpu=0\n",
			 "t.txt:1: timer_start: [timeout=] is not closed by ']': '[timeout=1'");
	// 4.11+ prints cpu= idx= flags= together.
	expect_error("  a-1 [000] d..1. 1.000001: timer_start: timer=1 function=f expires=2 [timeout=1] cpu=0 idx=3\n",
			 "t.txt:1: timer_start: missing flags=");
	// A later timer_start without a field the first one had was cut.
	std::string text = std::string(good_start) +
		"     rcu_preempt-15      [001] d..1.   949.460795: timer_start: timer=00000000315ef0ae "
		"function=process_timeout expires=4295129626 [timeout=1] cpu=1 idx=27 flags=\n";
	expect_error(text,
			 "t.txt:2: timer_start: missing bucket_expiry= (the first timer_start, line 1, has it)");
}
END_TEST

START_TEST(truncated_last_line)
{
	// Cut inside the payload, no newline.
	std::string cut = std::string(good_start) + std::string(good_start).substr(0, 150);
	std::string err = error_of(cut);
	ck_assert_msg(err.starts_with("t.txt:2: last line cut short (no newline at the end): timer_start: "),
		      "%s", err.c_str());
	// Cut after a whole number: caught by the fields the first line had.
	std::string cut2 = std::string(good_start) +
		"     rcu_preempt-15      [001] d..1.   949.460795: timer_start: timer=00000000315ef0ae "
		"function=process_timeout expires=4295129626 [timeout=1] bucket_expiry=42951";
	expect_error(cut2,
			 "t.txt:2: last line cut short (no newline at the end): timer_start: missing cpu= "
			 "(the first timer_start, line 1, has it)");
	// Complete but without its newline: an event.
	std::string whole = std::string(good_start) + std::string(good_start, std::strlen(good_start) - 1);
	auto evs = parse(whole, trace_format::ftrace);
	ck_assert_uint_eq(evs.size(), 2);
}
END_TEST

START_TEST(lenient_counts_and_goes_on)
{
	std::string text = std::string("# tracer: nop\n") +
		good_start +
		"     kworker/0:1-100   [000] ..s.  1000.000002: timer_start: timer=ffff88001d49b8c0 function=f expires=x12 [timeout=3]\n" +
		"garbage line\n" +
		"\n" +
		good_start +
		"  a-1 [000] d..1. 1.000001: timer_cancel:\n" +
		std::string(good_start).substr(0, 100);
	reader_options opt;
	opt.lenient = true;
	auto r = make_text_reader_from_memory(text, "mem", trace_format::ftrace, opt);
	auto evs = test::read_all(*r);
	const reader_stats &st = r->stats();
	ck_assert_uint_eq(evs.size(), 2);
	ck_assert_uint_eq(evs[0].line, 2);
	ck_assert_uint_eq(evs[1].line, 6);
	ck_assert_uint_eq(st.lines, 8);
	ck_assert_uint_eq(st.events, 2);
	ck_assert_uint_eq(st.skipped, 6);
	ck_assert_uint_eq(st.malformed, 4);
	ck_assert_uint_eq(st.lines, st.events + st.skipped);
	ck_assert_uint_eq(st.bytes, text.size());
	// Not lenient: the first bad line stops the reader.
	expect_error(text, "t.txt:3: timer_start: expires is not a number: 'x12'");
}
END_TEST

START_TEST(bad_files)
{
	reader_options opt;
	std::string missing = test::write_temp("x", "") + ".does-not-exist";
	try {
		open_trace(missing, trace_format::ftrace, opt);
		ck_abort_msg("missing file opened");
	} catch (const input_error &e) {
		ck_assert_string_eq(e.file().c_str(), missing.c_str());
		ck_assert_msg(std::string(e.what()).starts_with(missing + ": cannot open: "), "%s", e.what());
	}
	std::string bin("\x7f" "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0", 20);
	std::string binpath = test::write_temp("bin", bin);
	try {
		open_trace(binpath, trace_format::ftrace, opt);	// even with a format given
		ck_abort_msg("binary file opened as text");
	} catch (const input_error &e) {
		ck_assert_msg(std::string(e.what()).starts_with(binpath + ": binary data"), "%s", e.what());
	}
	std::string empty = test::write_temp("empty", "");
	try {
		open_trace(empty, trace_format::perf_script, opt);
		ck_abort_msg("empty file opened");
	} catch (const input_error &e) {
		std::string want = empty + ": empty file";
		ck_assert_str_eq(e.what(), want.c_str());
	}
}
END_TEST

START_TEST(symbols_name_hex_callbacks)
{
	std::string map = test::write_temp("System.map",
		"ffffffff81065e00 T process_timeout\n"
		"ffffffff81065f00 t delayed_work_timer_fn\n");
	reader_options opt;
	opt.symbols = map;
	auto r = make_text_reader_from_memory(sample_trace, "mem", trace_format::ftrace, opt);
	auto evs = test::read_all(*r);
	// 0xffffffff81065e80: inside process_timeout, named with its offset.
	ck_assert_str_eq(evs[0].function.c_str(), "process_timeout+0x80");
	// 0xffffffffa02314a0 is far past the last symbol: no symbol's, left in hex.
	ck_assert_str_eq(evs[1].function.c_str(), "0xffffffffa02314a0");
}
END_TEST

static Suite *text_reader_suite()
{
	Suite *s = suite_create("text_readers");
	TCase *fields = tcase_create("fields");
	tcase_add_test(fields, timestamps_are_exact);
	tcase_add_test(fields, numbers_and_pointers);
	tcase_add_test(fields, fast_paths_agree_with_the_standard);
	tcase_add_test(fields, flag_layouts);
	tcase_add_test(fields, event_kinds);
	suite_add_tcase(s, fields);
	TCase *gens = tcase_create("generations");
	tcase_add_test(gens, ftrace_3x);
	tcase_add_test(gens, ftrace_42_numeric_flags_both_layouts);
	tcase_add_test(gens, ftrace_411_cpu_idx_flags);
	tcase_add_test(gens, ftrace_52_baseclk_and_68_bucket_expiry);
	tcase_add_test(gens, ftrace_columns_and_task_names);
	tcase_add_test(gens, ftrace_other_and_hrtimer_events);
	tcase_add_test(gens, trace_cmd_report_lines);
	tcase_add_test(gens, perf_script_lines);
	tcase_add_test(gens, same_event_in_three_renderings);
	suite_add_tcase(s, gens);
	TCase *src = tcase_create("line_source");
	tcase_add_test(src, line_source_edges);
	tcase_add_test(src, small_buffers_give_the_same_events);
	tcase_add_test(src, overlong_line_is_malformed_and_skipped);
	tcase_add_test(src, crlf_lines);
	tcase_add_test(src, gzip_round_trip);
	tcase_add_test(src, gzip_truncated_is_an_error);
	suite_add_tcase(s, src);
	TCase *bad = tcase_create("bad_input");
	tcase_add_test(bad, non_numeric_field);
	tcase_add_test(bad, structural_errors);
	tcase_add_test(bad, truncated_last_line);
	tcase_add_test(bad, lenient_counts_and_goes_on);
	tcase_add_test(bad, bad_files);
	tcase_add_test(bad, symbols_name_hex_callbacks);
	suite_add_tcase(s, bad);
	return s;
}

int main()
{
	return timersim::test::run_suite(text_reader_suite());
}
