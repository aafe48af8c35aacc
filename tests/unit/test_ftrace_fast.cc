// The one-pass parse of the common tracefs line (ftrace_fast.h) against
// the general parse it stands in for: the same event wherever it takes a
// line, the general parse's verdicts and messages wherever it does not.
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "sim/trace/ftrace_fast.h"
#include "sim/trace/irq_events.h"
#include "sim/trace/text_columns.h"
#include "sim/trace/text_event_names.h"
#include "sim/trace/text_fields.h"
#include "sim/trace/text_reader.h"

#include "tests/support/check_main.h"	// last: check.h defines a fail() macro

using namespace timersim;

namespace {

// One line of each layout, as a 6.18 kernel (and older ones) print them.
const char *const common_lines[] = {
	"rcu_preempt-15      [001] d..1. 15129.995019: timer_start: timer=00000000b5199443 "
	"function=process_timeout expires=4298674736 [timeout=1] bucket_expiry=4298674737 "
	"cpu=1 idx=49 flags=",
	"kworker/0:1-10   [000] d.s2. 15129.995019: timer_start: timer=ffff888003a4b0c0 "
	"function=delayed_work_timer_fn expires=4298674999 [timeout=-3] bucket_expiry=4298675000 "
	"cpu=0 idx=100 flags=D|P|I",
	"bash-1 [002] d..1. 99.000001: timer_start: timer=00000000b5199443 function=f "
	"expires=10 [timeout=2] cpu=2 idx=3 flags=0x00400001",	// 4.11-6.7
	"bash-1 [002] d..1 99.5: timer_start: timer=00000000b5199443 function=f expires=10 "
	"[timeout=2]",	// before 4.11
	"bash-1 [003] ..... 1.000000001: timer_init: timer=00000000b5199443",
	"bash-1 [003] ..... 1.000001: timer_cancel: timer=00000000b5199443",
	"bash-1 [003] ..s1. 1.000001: timer_expire_entry: timer=00000000b5199443 "
	"function=process_timeout now=4298674735 baseclk=4298674735",
	"bash-1 [003] ..s1. 1.000001: timer_expire_entry: timer=00000000b5199443 "
	"function=0xffffffff81065e80 now=4298674735",
	"bash-1 [003] ..s1. 1.000001: timer_expire_exit: timer=00000000b5199443",
	"bash-30251   [001] ..... 15129.988533: hrtimer_setup: hrtimer=000000001dbbabc8 "
	"clockid=CLOCK_MONOTONIC mode=REL|HARD",
	"bash-30251   [001] ..... 15129.988533: hrtimer_setup: hrtimer=000000001dbbabc8 "
	"clockid=CLOCK_BOOTTIME mode=ABS|PINNED|SOFT",
	"bash-30251   [001] ..... 15129.988533: hrtimer_init: hrtimer=000000001dbbabc8 "
	"clockid=CLOCK_REALTIME mode=HRTIMER_MODE_ABS",
	"bash-30251   [001] dNh1. 15129.991000: hrtimer_start: hrtimer=00000000326470d6 "
	"function=tick_nohz_handler expires=15129972000000 softexpires=15129972000000 mode=ABS "
	"was_armed=0",
	"bash-30251   [001] dNh1. 15129.991000: hrtimer_start: hrtimer=00000000326470d6 "
	"function=hrtimer_wakeup expires=15129972000000 softexpires=15129971950000 mode=REL",
	"bash-30251   [001] d.h.. 15129.990963: hrtimer_expire_entry: hrtimer=00000000326470d6 "
	"function=tick_nohz_handler now=15129968082369",
	"bash-30251   [001] dNh.. 15129.991000: hrtimer_expire_exit: hrtimer=00000000326470d6",
	"bash-30251   [001] dNh.. 15129.991000: hrtimer_cancel: hrtimer=00000000326470d6",
	"python3-30255   [001] dnh1. 15129.994938: softirq_raise: vec=1 [action=TIMER]",
	"python3-30255   [001] .Ns1. 15129.995005: softirq_entry: vec=8 [action=HRTIMER]",
	"python3-30255   [001] .Ns1. 15129.995009: softirq_exit: vec=1 [action=TIMER]",
	"pkill-30254   [000] d.h1. 15129.990997: local_timer_entry: vector=236",
	"pkill-30254   [000] dNh1. 15129.991006: local_timer_exit: vector=236",
	"python3-30255   [001] dnH1. 15129.995004: reschedule_entry: vector=253",
	"python3-30255   [001] dNH1. 15129.995004: call_function_single_exit: vector=251",
	"<idle>-0 [000] 15129.995004: irq_work_entry: vector=246",	// irq-info off
	"bash-1 [001] ..... 123456789: timer_cancel: timer=00000000b5199443",	// x86-tsc clock
	"            bash-30251   [001] ..... 1.000001: timer_cancel: timer=00000000b5199443",
	"b                      [001] ..... 1.000001: timer_cancel: timer=00000000b5199443",
	"bash-1 [001] d..1. 1.000001: timer_start: timer=00000000b5199443 function=f "
	"expires=10 [timeout=123456] bucket_expiry=11 cpu=123456 idx=7 flags=",
};

// Lines only the general parse reads: a '[' in the task name, two blanks between keys.
const char *const general_lines[] = {
	"a [b] c-1 [001] ..... 1.000001: timer_cancel: timer=00000000b5199443",
	"a [7] c-1 [001] ..... 1.000001: timer_cancel: timer=00000000b5199443",
	"   [7] c-1 [001] ..... 1.000001: timer_cancel: timer=00000000b5199443",
	"bash-1 [001] ..... 1.000001: timer_expire_entry: timer=00000000b5199443  "
	"function=f now=5",
};

// Every field of two events, names and callbacks by content.
void expect_same_event(const trace_event &a, const trace_event &b, const char *line)
{
	CK_REQUIRE(a.kind == b.kind, "kind: %s", line);
	CK_REQUIRE(a.name == b.name, "name: %s", line);
	CK_REQUIRE(a.function == b.function, "function: %s", line);
	CK_REQUIRE(a.cpu == b.cpu && a.ts_ns == b.ts_ns && a.line == b.line && a.idle_task == b.idle_task,
		   "head: %s", line);
	CK_REQUIRE(a.timer == b.timer && a.timer_digits == b.timer_digits, "timer: %s", line);
	CK_REQUIRE(a.expires == b.expires && a.timeout == b.timeout && a.now == b.now &&
			   a.baseclk == b.baseclk && a.bucket_expiry == b.bucket_expiry,
		   "times: %s", line);
	CK_REQUIRE(a.target_cpu == b.target_cpu && a.idx == b.idx && a.flags == b.flags &&
			   a.is_idle == b.is_idle && a.has == b.has,
		   "fields: %s (has %x, %x)", line, a.has, b.has);
	CK_REQUIRE(a.hrtimer == b.hrtimer && a.softexpires == b.softexpires &&
			   a.clockid == b.clockid && a.hrtimer_mode == b.hrtimer_mode &&
			   a.was_armed == b.was_armed,
		   "hrtimer: %s", line);
	CK_REQUIRE(a.vec == b.vec && a.timer_interrupt == b.timer_interrupt, "irq: %s", line);
}

// LINE as the two parses read it, the line's memory followed by zeros as
// in the readers' buffers (LIMIT may reach past it).
struct both_parses {
	std::vector<char> buf;		// the line: the events' views point into it
	trace_event fast, general;
	bool fast_took = false;
	line_verdict general_verdict = line_verdict::skip;
	std::uint32_t fast_keys = 0, general_keys = 0;
	std::string reason;
};

both_parses parse_both(const std::string &line, bool with_limit = true)
{
	both_parses r;
	std::vector<char> &buf = r.buf;
	buf.assign(line.begin(), line.end());
	buf.resize(line.size() + 64, '\0');
	std::string_view s(buf.data(), line.size());
	const char *limit = with_limit ? buf.data() + buf.size() : nullptr;
	line_context fast_ctx, general_ctx;
	fast_ctx.limit = general_ctx.limit = limit;
	r.fast_took = parse_common_ftrace_line(s, r.fast, fast_ctx);
	r.fast_keys = fast_ctx.keys;
	// As the ftrace reader's parse_line hands a line to parse_event_line.
	std::string_view from_task = skip_blanks(s);
	r.general_verdict = from_task.empty() || s[0] == '#'
				    ? line_verdict::skip
				    : parse_event_line(from_task, r.general, name_style::bare, general_ctx);
	r.general_keys = general_ctx.keys;
	r.reason = general_ctx.reason;
	return r;
}

// Where the fast parse takes LINE, the general one gives the same event.
void expect_agreement(const std::string &line, bool with_limit = true)
{
	both_parses r = parse_both(line, with_limit);
	if (!r.fast_took)
		return;
	CK_REQUIRE(r.general_verdict == line_verdict::event,
		   "fast took a line the general parse finds bad (%s): %s", r.reason.c_str(),
		   line.c_str());
	expect_same_event(r.fast, r.general, line.c_str());
	CK_REQUIRE(r.fast_keys == r.general_keys, "keys %x, %x: %s", r.fast_keys, r.general_keys,
		   line.c_str());
}

// The ftrace reader's verdict of LINE and, when bad, why. EV's views
// point into BUF.
line_verdict ftrace_verdict(const std::string &line, trace_event &ev, std::string &reason,
			    std::vector<char> &buf)
{
	buf.assign(line.begin(), line.end());
	buf.resize(line.size() + 64, '\0');
	line_context ctx;
	ctx.dialect = ftrace_rendering.dialect;
	ctx.limit = buf.data() + buf.size();
	line_verdict v = ftrace_rendering.parse(std::string_view(buf.data(), line.size()), ev, ctx);
	reason = ctx.reason;
	return v;
}

}  // namespace

START_TEST(known_names_are_the_general_kinds)
{
	for (std::size_t i = 0; i < known_event_count(); i++) {
		const known_event_name &k = known_event_at(i);
		std::string name(k.name);
		ck_assert_msg(kind_of_event(k.name) == k.kind, "%s", name.c_str());
		ck_assert_msg(hrtimer_event_of(k.name) == k.hrtimer, "%s", name.c_str());
		bool timer_interrupt = false;
		if (is_cost_event(k.kind))
			irq_event_kind(k.name, timer_interrupt);
		ck_assert_msg(timer_interrupt == k.timer_interrupt, "%s", name.c_str());
		// Found by its own name, with and without room for the block compare.
		std::string padded = name + std::string(40, '\0');
		ck_assert_ptr_eq(known_event_named(padded.data(), name.size(), padded.data() + 40), &k);
		ck_assert_ptr_eq(known_event_named(name.data(), name.size(), nullptr), &k);
		// Not by a name one letter off, nor by its prefix.
		std::string off = name;
		off[off.size() / 2] ^= 1;
		ck_assert_ptr_null(known_event_named(off.data(), off.size(), nullptr));
		ck_assert_ptr_null(known_event_named(name.data(), name.size() - 1, nullptr));
	}
	ck_assert_ptr_null(known_event_named("sched_switch", 12, nullptr));
	ck_assert_ptr_null(known_event_named("irq_handler_entry", 17, nullptr));
}
END_TEST

// known_event_token(TEXT) as find_blank and known_event_named read it, with
// room for its two blocks and without.
void expect_token_as_named(const std::string &text)
{
	std::string padded = text + std::string(40, '\0');
	const char *name = padded.data(), *end = name + text.size();
	const char *blank = find_blank(name, end);
	const known_event_name *want =
		blank - name >= 2 && blank[-1] == ':'
			? known_event_named(name, std::size_t(blank - 1 - name), nullptr)
			: nullptr;
	for (const char *limit : {name + padded.size(), static_cast<const char *>(nullptr)}) {
		const char *token_end = nullptr;
		const known_event_name *k = known_event_token(name, end, limit, token_end);
		CK_REQUIRE(k == want, "'%s' %s: %s, want %s", text.c_str(), limit ? "blocks" : "bytes",
			   k ? std::string(k->name).c_str() : "none",
			   want ? std::string(want->name).c_str() : "none");
		CK_REQUIRE(!k || token_end == blank, "'%s': token end", text.c_str());
	}
}

START_TEST(event_tokens_are_the_named_events)
{
	for (std::size_t i = 0; i < known_event_count(); i++) {
		std::string name(known_event_at(i).name);
		for (const char *tail : {": x", ":", ":\tx", ":x", "::", " : x", "", "x: y"})
			expect_token_as_named(name + tail);
		for (std::size_t n = 0; n < name.size(); n++) {
			std::string changed = name + ": x";
			for (char c : {':', ' ', '\t', '\0'}) {
				changed[n] = c;
				expect_token_as_named(changed);
			}
			expect_token_as_named(name.substr(0, n) + ": x");
		}
	}
	expect_token_as_named("an_event_name_of_thirty_two_byte: x");
	expect_token_as_named("an_event_name_of_thirty_one_byt: x");
	expect_token_as_named(": x");
	expect_token_as_named("");
}
END_TEST

START_TEST(common_lines_parse_as_the_general_parse_does)
{
	for (const char *line : common_lines) {
		for (bool with_limit : {true, false}) {
			both_parses r = parse_both(line, with_limit);
			ck_assert_msg(r.fast_took, "not taken: %s", line);
			expect_agreement(line, with_limit);
		}
	}
}
END_TEST

// Every cut of every common line, and every line with one byte changed:
// taken or not, never read otherwise than the general parse reads it.
START_TEST(cut_and_changed_lines_agree_or_are_left)
{
	const char changes[] = {' ', '\t', ':', '=', '[', ']', '|', '0', '9', 'x', 'a', '-', '\0'};
	std::vector<std::string> lines(std::begin(common_lines), std::end(common_lines));
	lines.insert(lines.end(), std::begin(general_lines), std::end(general_lines));
	for (const std::string &line : lines) {
		for (std::size_t n = 0; n <= line.size(); n++)
			expect_agreement(line.substr(0, n));
		for (std::size_t at = 0; at < line.size(); at++)
			for (char c : changes) {
				std::string changed = line;
				changed[at] = c;
				expect_agreement(changed);
				expect_agreement(changed, false);
			}
	}
}
END_TEST

START_TEST(odd_heads_go_the_general_way)
{
	for (const char *line : general_lines) {
		both_parses r = parse_both(line);
		ck_assert_msg(!r.fast_took, "taken: %s", line);
		ck_assert_msg(r.general_verdict == line_verdict::event, "%s", line);
		trace_event ev;
		std::string reason;
		std::vector<char> buf;
		ck_assert_msg(ftrace_verdict(line, ev, reason, buf) == line_verdict::event, "%s", line);
		expect_same_event(ev, r.general, line);
	}
}
END_TEST

// The seconds of one timestamp are kept for the next (line_context): a
// change of seconds, of their width, of the fraction's, is read afresh.
START_TEST(timestamps_in_a_row_read_as_alone)
{
	const char *const stamps[] = {"15129.988533", "15129.988534", "15129.5", "15130.988534",
				      "15131.0", "5131.0", "1.000000001", "1.000001", "2.99999999",
				      "1234567.1", "12345678.1", "1234567890.123456", "1234567.1"};
	std::string text;
	for (const char *ts : stamps)
		text += std::string("bash-1 [001] ..... ") + ts +
			": timer_cancel: timer=00000000b5199443\n";
	text.append(64, '\0');
	line_context ctx;
	ctx.limit = text.data() + text.size();
	std::size_t at = 0;
	for (const char *ts : stamps) {
		std::size_t nl = text.find('\n', at);
		trace_event ev;
		ck_assert(parse_common_ftrace_line(std::string_view(text.data() + at, nl - at), ev, ctx));
		std::uint64_t want;
		ck_assert(parse_timestamp(ts, want));
		ck_assert_msg(ev.ts_ns == want, "%s: %llu", ts, (unsigned long long)ev.ts_ns);
		at = nl + 1;
	}
}
END_TEST

START_TEST(keys_out_of_order_go_the_general_way)
{
	const std::string in_order =
		"bash-1 [003] ..s1. 1.000001: timer_expire_entry: timer=00000000b5199443 "
		"function=process_timeout now=4298674735 baseclk=4298674736";
	const std::string swapped =
		"bash-1 [003] ..s1. 1.000001: timer_expire_entry: timer=00000000b5199443 "
		"function=process_timeout baseclk=4298674736 now=4298674735";
	both_parses a = parse_both(in_order), b = parse_both(swapped);
	ck_assert(a.fast_took);
	ck_assert(!b.fast_took);
	trace_event ev;
	std::string reason;
	std::vector<char> buf;
	ck_assert(ftrace_verdict(swapped, ev, reason, buf) == line_verdict::event);
	ck_assert_uint_eq(ev.now, 4298674735u);
	ck_assert_uint_eq(ev.baseclk, 4298674736u);
	// A key of a newer kernel, in the middle: the general parse passes over it.
	const std::string newer =
		"bash-1 [003] ..s1. 1.000001: hrtimer_start: hrtimer=00000000326470d6 "
		"function=f expires=10 softexpires=9 shiny=1 mode=ABS";
	ck_assert(!parse_both(newer).fast_took);
	ck_assert(ftrace_verdict(newer, ev, reason, buf) == line_verdict::event);
	ck_assert(ev.carries(EF_HRTIMER_MODE));
	ck_assert_uint_eq(ev.softexpires, 9);
}
END_TEST

// expires and now share their place in an event, as timeout, softexpires
// and baseclk do (sim/trace/event.h): a key of another kind in a line is
// read and not kept, and the fields of the line's own kind stand.
START_TEST(keys_of_another_kind_are_not_kept)
{
	trace_event ev;
	std::string reason;
	std::vector<char> buf;
	const std::string start =
		"bash-1 [003] ..s1. 1.000001: timer_start: timer=00000000b5199443 "
		"function=f expires=4298674740 [timeout=4] now=4298674700 baseclk=9";
	ck_assert(!parse_both(start).fast_took);
	ck_assert(ftrace_verdict(start, ev, reason, buf) == line_verdict::event);
	ck_assert_uint_eq(ev.expires, 4298674740u);
	ck_assert_int_eq(ev.timeout, 4);
	const std::string expiry =
		"bash-1 [003] ..s1. 1.000001: timer_expire_entry: timer=00000000b5199443 "
		"function=f now=4298674735 [timeout=7] expires=1 baseclk=4298674736";
	ck_assert(ftrace_verdict(expiry, ev, reason, buf) == line_verdict::event);
	ck_assert_uint_eq(ev.now, 4298674735u);
	ck_assert_uint_eq(ev.baseclk, 4298674736u);
	const std::string hr_start =
		"bash-1 [003] ..s1. 1.000001: hrtimer_start: hrtimer=00000000326470d6 "
		"function=f expires=10 softexpires=9 now=3 mode=ABS";
	ck_assert(ftrace_verdict(hr_start, ev, reason, buf) == line_verdict::event);
	ck_assert_uint_eq(ev.expires, 10);
	ck_assert_uint_eq(ev.softexpires, 9);
	const std::string hr_expiry =
		"bash-1 [003] ..s1. 1.000001: hrtimer_expire_entry: hrtimer=00000000326470d6 "
		"function=f now=15129972043862 expires=10 next_event=11";
	ck_assert(ftrace_verdict(hr_expiry, ev, reason, buf) == line_verdict::event);
	ck_assert_uint_eq(ev.now, 15129972043862u);
	// A bad value is bad in any kind's line.
	const std::string bad =
		"bash-1 [003] ..s1. 1.000001: timer_start: timer=00000000b5199443 "
		"function=f expires=4298674740 [timeout=4] baseclk=x";
	ck_assert(ftrace_verdict(bad, ev, reason, buf) == line_verdict::bad);
}
END_TEST

START_TEST(cut_payloads_keep_the_general_messages)
{
	struct {
		const char *line, *reason;
	} cases[] = {
		{"bash-1 [001] d..1. 1.000001: timer_start: timer=00000000b5199443 function=f",
		 "timer_start: missing expires="},
		{"bash-1 [001] d..1. 1.000001: timer_start: timer=00000000b5199443 function=f "
		 "expires=10 [timeout=1] bucket_expiry=11 cpu=1",
		 "timer_start: missing idx="},
		{"bash-1 [001] d..1. 1.000001: timer_start: timer=00000000b5199443 function=f "
		 "expires=1x0",
		 "timer_start: expires is not a number: '1x0'"},
		{"bash-1 [001] d..1. 1.000001: timer_start: timer=00000000b5199443 function=f "
		 "expires=10 [timeout=1",
		 "timer_start: [timeout=] is not closed by ']': '[timeout=1'"},
		{"bash-1 [001] d..1. 1.000001: timer_cancel:", "line truncated: no event payload"},
		{"bash-1 [001] d..1. 1.000001: timer_cancel: timer=zz",
		 "timer_cancel: timer is not a pointer: 'zz'"},
		{"bash-1 [001] d..1. 1.000001: softirq_raise: vec=", "softirq_raise: vec is not a number: ''"},
		{"bash-1 [001] d..1. 1.000001", "timestamp missing"},
	};
	for (const auto &c : cases) {
		ck_assert_msg(!parse_both(c.line).fast_took, "taken: %s", c.line);
		trace_event ev;
		std::string reason;
		std::vector<char> buf;
		ck_assert_msg(ftrace_verdict(c.line, ev, reason, buf) == line_verdict::bad, "%s", c.line);
		ck_assert_str_eq(reason.c_str(), c.reason);
	}
}
END_TEST

static Suite *ftrace_fast_suite()
{
	Suite *s = suite_create("ftrace_fast");
	TCase *t = tcase_create("agreement");
	tcase_set_timeout(t, 60);
	tcase_add_test(t, known_names_are_the_general_kinds);
	tcase_add_test(t, event_tokens_are_the_named_events);
	tcase_add_test(t, common_lines_parse_as_the_general_parse_does);
	tcase_add_test(t, cut_and_changed_lines_agree_or_are_left);
	tcase_add_test(t, odd_heads_go_the_general_way);
	tcase_add_test(t, timestamps_in_a_row_read_as_alone);
	tcase_add_test(t, keys_out_of_order_go_the_general_way);
	tcase_add_test(t, keys_of_another_kind_are_not_kept);
	tcase_add_test(t, cut_payloads_keep_the_general_messages);
	suite_add_tcase(s, t);
	return s;
}

int main()
{
	return timersim::test::run_suite(ftrace_fast_suite());
}
