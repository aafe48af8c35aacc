// 7.1's hrtimer_rearm (include/trace/events/timer.h: TP_printk("next_event=%llu
// deferred=%d")) read in every format: the raw tracefs text, `trace-cmd
// report` and `perf script` (both print the kernel's format through
// libtraceevent), and the binary formats' fields (trace.dat and CTF map
// them through apply_binary_slots). Both keys are required, deferred= is 0
// or 1; a line short of either is an error (strict) or skipped (--lenient).
// Also the HRTICK's mode: 7.1's decode_hrtimer_mode() has no name for
// HRTIMER_MODE_LAZY_REARM, so __print_symbolic() prints the number.
#include <string>
#include <vector>

#include "sim/trace/binary_fields.h"
#include "sim/trace/reader.h"
#include "sim/trace/text_reader.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"	// last: check.h defines a fail() macro

using namespace timersim;
using timersim::test::owned_event;

namespace {

std::vector<owned_event> parse(const std::string &text, trace_format fmt, bool lenient = false,
			       std::uint64_t *skipped = nullptr)
{
	reader_options opt;
	opt.lenient = lenient;
	auto r = make_text_reader_from_memory(text, "t.txt", fmt, opt);
	auto evs = test::read_all(*r);
	if (skipped)
		*skipped = r->stats().skipped;
	return evs;
}

std::string error_of(const std::string &text, trace_format fmt)
{
	try {
		parse(text, fmt);
	} catch (const input_error &e) {
		return e.what();
	}
	return "";
}

// The same two events, as each text rendering prints them.
const char *const tracefs =
	"# tracer: nop\n"
	"          <idle>-0       [000] d.h1.   100.000018: hrtimer_rearm: next_event=100004000000 deferred=1\n"
	"           sleep-22541   [000] d..1.   100.001002: hrtimer_rearm: next_event=100002000000 deferred=0\n";
const char *const report =
	"cpus=2\n"
	"          <idle>-0     [000]   100.000018: hrtimer_rearm:        next_event=100004000000 deferred=1\n"
	"           sleep-22541 [000]   100.001002: hrtimer_rearm:        next_event=100002000000 deferred=0\n";
const char *const perf =
	"         swapper     0 [000]   100.000018: timer:hrtimer_rearm: next_event=100004000000 deferred=1\n"
	"           sleep 22541 [000]   100.001002: timer:hrtimer_rearm: next_event=100002000000 deferred=0\n";

void expect_the_two(const std::vector<owned_event> &evs)
{
	ck_assert_uint_eq(evs.size(), 2);
	for (const owned_event &e : evs) {
		ck_assert(e.kind == event_kind::hrtimer);
		ck_assert(e.hrtimer == hrtimer_event::rearm);
		ck_assert(e.carries(EF_WAS_ARMED));	// deferred= was printed
	}
	ck_assert_uint_eq(evs[0].expires, 100004000000ull);
	ck_assert(evs[0].was_armed);		// deferred=1 (the field's place)
	ck_assert_uint_eq(evs[1].expires, 100002000000ull);
	ck_assert(!evs[1].was_armed);
}

}  // namespace

START_TEST(every_text_rendering_reads_next_event_and_deferred)
{
	expect_the_two(parse(tracefs, trace_format::ftrace));
	expect_the_two(parse(report, trace_format::trace_cmd_report));
	expect_the_two(parse(perf, trace_format::perf_script));
}
END_TEST

START_TEST(binary_fields_read_next_event_and_deferred)
{
	callback_names names({[](std::uint64_t) { return std::string(); }});
	binary_slot_values v;
	v.set(BS_NEXT_EVENT, 100004000000ull);
	v.set(BS_DEFERRED, 1);
	trace_event ev;
	ev.name = "hrtimer_rearm";
	ev.kind = event_kind::hrtimer;
	ck_assert(binary_slot_read(event_kind::hrtimer, BS_DEFERRED));
	apply_binary_slots(v, 701, names, ev);
	ck_assert(ev.hrtimer == hrtimer_event::rearm);
	ck_assert_uint_eq(ev.expires, 100004000000ull);
	ck_assert(ev.deferred);
	ck_assert(ev.carries(EF_WAS_ARMED));
	ck_assert_str_eq(binary_slot_names[BS_DEFERRED], "deferred");
}
END_TEST

START_TEST(a_rearm_short_of_a_field_is_an_error)
{
	const std::string head = "# tracer: nop\n";
	const std::string line = "          <idle>-0       [000] d.h1.   100.000018: hrtimer_rearm: ";
	std::string e = error_of(head + line + "next_event=100004000000\n", trace_format::ftrace);
	ck_assert_msg(e.find("t.txt:2") != std::string::npos && e.find("missing deferred=") != std::string::npos,
		      "%s", e.c_str());
	e = error_of(head + line + "deferred=1\n", trace_format::ftrace);
	ck_assert_msg(e.find("missing next_event=") != std::string::npos, "%s", e.c_str());
	e = error_of(head + line + "next_event=100004000000 deferred=2\n", trace_format::ftrace);
	ck_assert_msg(e.find("deferred") != std::string::npos && e.find("'2'") != std::string::npos, "%s",
		      e.c_str());
	e = error_of(std::string(
			     "         swapper     0 [000]   100.000018: timer:hrtimer_rearm: next_event=100004000000\n"),
		     trace_format::perf_script);
	ck_assert_msg(e.find("missing deferred=") != std::string::npos, "%s", e.c_str());
	// --lenient: counted as skipped, the good line kept.
	std::uint64_t skipped = 0;
	auto evs = parse(head + line + "next_event=1\n" + line + "next_event=2 deferred=0\n", trace_format::ftrace,
			 true, &skipped);
	ck_assert_uint_eq(evs.size(), 1);
	ck_assert_uint_eq(skipped, 2);	// the header and the bad line
}
END_TEST

START_TEST(the_hrtick_mode_is_a_number)
{
	auto evs = parse("# tracer: nop\n"
			 "          <idle>-0       [000] .....     0.100000: hrtimer_setup: hrtimer=ffff88803ec2a2e8 "
			 "clockid=CLOCK_MONOTONIC mode=0x19\n",
			 trace_format::ftrace);
	ck_assert_uint_eq(evs.size(), 1);
	ck_assert_uint_eq(evs[0].hrtimer_mode, HRM_REL | HRM_HARD | HRM_LAZY_REARM);
}
END_TEST

int main()
{
	Suite *s = suite_create("hrtimer_rearm_lines");
	TCase *tc = tcase_create("formats");
	tcase_add_test(tc, every_text_rendering_reads_next_event_and_deferred);
	tcase_add_test(tc, binary_fields_read_next_event_and_deferred);
	tcase_add_test(tc, a_rearm_short_of_a_field_is_an_error);
	tcase_add_test(tc, the_hrtick_mode_is_a_number);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
