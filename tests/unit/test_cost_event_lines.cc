// The softirq, hard-interrupt and hrtimer events in the three text
// renderings: real lines of each kernel generation (6.18 tracefs, trace-cmd
// report and perf script of this machine's recordings in tests/data and
// ../shared/traces; the 3.6 trace.txt of ../shared/traces/linux-3.6-scp_dest)
// parsed into the exact kind and fields.
#include <string>
#include <vector>

#include "sim/trace/binary_names.h"
#include "sim/trace/irq_events.h"
#include "sim/trace/reader.h"
#include "sim/trace/text_reader.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"	// last: check.h defines a fail() macro

using namespace timersim;
using timersim::test::owned_event;
using timersim::test::error_of;

namespace {

// Every line but HEADERS header lines is an event: none is skipped.
std::vector<owned_event> parse(const std::string &text, trace_format fmt, unsigned headers = 0)
{
	reader_options opt;
	auto r = make_text_reader_from_memory(text, "mem", fmt, opt);
	auto evs = test::read_all(*r);
	ck_assert_uint_eq(r->stats().skipped, headers);
	return evs;
}


void expect_irq(const owned_event &e, event_kind kind, std::uint32_t vec, bool timer,
		bool irq_number)
{
	ck_assert_int_eq(int(e.kind), int(kind));
	ck_assert_uint_eq(e.vec, vec);
	ck_assert(e.carries(EF_VEC));
	ck_assert_int_eq(e.timer_interrupt, timer);
	ck_assert_int_eq(e.carries(EF_IRQ), irq_number);
}

}  // namespace

#define expect_error(text, expected, ...)                                          \
	do {                                                                       \
		std::string got_ = error_of(text, ##__VA_ARGS__);                  \
		ck_assert_str_eq(got_.c_str(), expected);                          \
	} while (0)

// tests/data/measured-network.txt.gz and sleep-net.txt.gz (Linux 6.18).
START_TEST(tracefs_softirq_and_interrupt_lines)
{
	std::string text =
		"           <...>-32223   [001] d.h..  2125.890933: softirq_raise: vec=1 [action=TIMER]\n"
		"           <...>-32223   [001] .Ns..  2125.890944: softirq_entry: vec=1 [action=TIMER]\n"
		"           <...>-32223   [001] .Ns..  2125.890949: softirq_exit: vec=1 [action=TIMER]\n"
		"         python3-5830    [001] d.H4.  2154.528714: softirq_raise: vec=8 [action=HRTIMER]\n"
		"            bash-5802    [000] d.h2.  2125.854928: local_timer_entry: vector=236\n"
		"            bash-5802    [000] dNh2.  2125.854951: local_timer_exit: vector=236\n"
		"     rcu_preempt-15      [001] d.h1.  2126.004401: reschedule_entry: vector=253\n"
		"     rcu_preempt-15      [001] d.h1.  2126.004401: reschedule_exit: vector=253\n"
		"              as-5785    [001] d.h..  2126.073299: irq_handler_entry: irq=42 name=virtio3-tx\n"
		"              as-5785    [001] d.h..  2126.073305: irq_handler_exit: irq=42 ret=handled\n";
	auto evs = parse(text, trace_format::ftrace);
	ck_assert_uint_eq(evs.size(), 10);
	expect_irq(evs[0], event_kind::softirq_raise, TIMER_SOFTIRQ, false, false);
	expect_irq(evs[1], event_kind::softirq_entry, TIMER_SOFTIRQ, false, false);
	expect_irq(evs[2], event_kind::softirq_exit, TIMER_SOFTIRQ, false, false);
	expect_irq(evs[3], event_kind::softirq_raise, HRTIMER_SOFTIRQ, false, false);
	expect_irq(evs[4], event_kind::irq_entry, 236, true, false);
	expect_irq(evs[5], event_kind::irq_exit, 236, true, false);
	expect_irq(evs[6], event_kind::irq_entry, 253, false, false);
	expect_irq(evs[7], event_kind::irq_exit, 253, false, false);
	expect_irq(evs[8], event_kind::irq_entry, 42, false, true);
	expect_irq(evs[9], event_kind::irq_exit, 42, false, true);
	ck_assert_uint_eq(evs[1].ts_ns, 2125890944000ull);
	ck_assert_uint_eq(evs[1].cpu, 1);
	ck_assert_str_eq(evs[1].name.c_str(), "softirq_entry");
}
END_TEST

// An arm64 kernel's timer interrupt is an irq_handler_entry of the arch
// timer (these lines are built, in the 6.18 tracefs shape: this machine is
// x86); its exit names no handler, the reader remembers which irq it was.
// A name with blanks runs to the end of the line.
START_TEST(irq_handler_exit_of_a_timer_irq_is_marked)
{
	std::string text =
		"          <idle>-0       [001] d.h1.   100.000100: irq_handler_exit: irq=11 ret=handled\n"
		"          <idle>-0       [001] d.h1.   100.000200: irq_handler_entry: irq=11 name=arch_timer\n"
		"          <idle>-0       [001] d.h1.   100.000300: irq_handler_exit: irq=11 ret=handled\n"
		"          <idle>-0       [000] d.h1.   100.000400: irq_handler_entry: irq=31 name=PCIe PME\n"
		"          <idle>-0       [000] d.h1.   100.000500: irq_handler_exit: irq=31 ret=unhandled\n"
		"          <idle>-0       [000] d.h1.   100.000600: irq_handler_exit: irq=11 ret=handled\n"
		"          <idle>-0       [000] d.h1.   100.000700: irq_handler_entry: irq=2 name=hpet2\n";
	auto evs = parse(text, trace_format::ftrace);
	ck_assert_uint_eq(evs.size(), 7);
	expect_irq(evs[0], event_kind::irq_exit, 11, false, true);	// before any entry of irq 11
	expect_irq(evs[1], event_kind::irq_entry, 11, true, true);
	expect_irq(evs[2], event_kind::irq_exit, 11, true, true);
	expect_irq(evs[3], event_kind::irq_entry, 31, false, true);
	expect_irq(evs[4], event_kind::irq_exit, 31, false, true);
	expect_irq(evs[5], event_kind::irq_exit, 11, true, true);	// on another CPU too
	expect_irq(evs[6], event_kind::irq_entry, 2, true, true);
	ck_assert(is_timer_irq_name("riscv-timer"));
	ck_assert(is_timer_irq_name("timer"));
	ck_assert(!is_timer_irq_name("virtio1-req.0"));
	ck_assert(!is_timer_irq_name("timers"));
}
END_TEST

START_TEST(irq_lines_without_their_number_are_bad)
{
	expect_error("  a-1 [000] d.h1. 1.000001: softirq_entry: [action=TIMER]\n",
		     "t.txt:1: softirq_entry: missing vec=");
	expect_error("  a-1 [000] d.h1. 1.000001: local_timer_entry: vector=x\n",
		     "t.txt:1: local_timer_entry: vector is not a number: 'x'");
	expect_error("  a-1 [000] d.h1. 1.000001: irq_handler_exit: ret=handled\n",
		     "t.txt:1: irq_handler_exit: missing irq=");
	// An event of another subsystem with a vector-like name is not ours.
	auto evs = parse("  a-1 [000] d.h1. 1.000001: vector_update: irq=1 vector=33\n",
			 trace_format::ftrace);
	ck_assert_int_eq(int(evs[0].kind), int(event_kind::other));
}
END_TEST

// 6.18 tracefs: hrtimer_setup, hrtimer_start with was_armed (the second
// line from ../shared/traces/linux-6.18-http/trace.txt), softexpires below
// expires (a sleeper's slack), a SOFT timer, the expiry and the cancel.
START_TEST(tracefs_618_hrtimer_fields)
{
	std::string text =
		"            bash-5802    [000] .....  2125.852932: hrtimer_setup: hrtimer=00000000e1682c94 clockid=CLOCK_MONOTONIC mode=REL|HARD\n"
		"          <idle>-0       [000] d..2.   949.460797: hrtimer_start: hrtimer=00000000313ac2bd function=tick_nohz_handler expires=1390231315155 softexpires=1390231315155 mode=ABS|PINNED|HARD was_armed=1\n"
		" memfd:sealed-91-6111    [000] d..1. 14028.717811: hrtimer_start: hrtimer=00000000e1c9656d function=hrtimer_wakeup expires=14028744975978 softexpires=14028744925978 mode=ABS was_armed=0\n"
		"         python3-5830    [001] d.s3.  2154.528699: hrtimer_start: hrtimer=000000001ffedf8a function=tcp_pace_kick expires=2154505817555 softexpires=2154505817555 mode=ABS|PINNED|SOFT was_armed=0\n"
		"            bash-5802    [000] d.h2.  2125.854931: hrtimer_expire_entry: hrtimer=00000000046cd983 function=tick_nohz_handler now=2125832049956\n"
		"            bash-5802    [000] dNh2.  2125.854945: hrtimer_expire_exit: hrtimer=00000000046cd983\n"
		"              as-5763    [001] dN.3.  2125.886163: hrtimer_cancel: hrtimer=000000005c38f80c\n"
		"            bash-5802    [000] .....  2125.852932: hrtimer_setup: hrtimer=00000000e1682c95 clockid=CLOCK_REALTIME mode=ABS\n";
	auto evs = parse(text, trace_format::ftrace);
	ck_assert_uint_eq(evs.size(), 8);
	for (const owned_event &e : evs)
		ck_assert_int_eq(int(e.kind), int(event_kind::hrtimer));
	ck_assert_int_eq(int(evs[0].hrtimer), int(hrtimer_event::init));
	ck_assert_uint_eq(evs[0].clockid, 1);
	ck_assert_uint_eq(evs[0].hrtimer_mode, HRM_REL | HRM_HARD);
	ck_assert(evs[0].carries(EF_CLOCKID) && evs[0].carries(EF_HRTIMER_MODE));
	ck_assert_uint_eq(evs[0].timer, 0xe1682c94ull);

	ck_assert_int_eq(int(evs[1].hrtimer), int(hrtimer_event::start));
	ck_assert(evs[1].carries(EF_WAS_ARMED) && evs[1].was_armed);
	ck_assert_uint_eq(evs[1].hrtimer_mode, HRM_PINNED | HRM_HARD);
	ck_assert_uint_eq(evs[1].expires, 1390231315155ull);
	ck_assert_uint_eq(evs[1].softexpires, 1390231315155ull);
	ck_assert(evs[1].carries(EF_SOFTEXPIRES));

	ck_assert(evs[2].carries(EF_WAS_ARMED) && !evs[2].was_armed);
	ck_assert_uint_eq(evs[2].expires, 14028744975978ull);
	ck_assert_uint_eq(evs[2].softexpires, 14028744925978ull);
	ck_assert_uint_eq(evs[2].hrtimer_mode, 0);
	ck_assert(evs[2].carries(EF_HRTIMER_MODE));
	ck_assert_str_eq(evs[2].function.c_str(), "hrtimer_wakeup");
	ck_assert_uint_eq(evs[3].hrtimer_mode, HRM_PINNED | HRM_SOFT);

	ck_assert_int_eq(int(evs[4].hrtimer), int(hrtimer_event::expire_entry));
	ck_assert_uint_eq(evs[4].now, 2125832049956ull);
	ck_assert_int_eq(int(evs[5].hrtimer), int(hrtimer_event::expire_exit));
	ck_assert_int_eq(int(evs[6].hrtimer), int(hrtimer_event::cancel));
	ck_assert(!evs[6].carries(EF_WAS_ARMED) && !evs[6].carries(EF_HRTIMER_MODE));
	ck_assert_uint_eq(evs[7].clockid, 0);
	ck_assert(evs[7].carries(EF_CLOCKID));
}
END_TEST

// Linux 3.6 (../shared/traces/linux-3.6-scp_dest/trace.txt): hrtimer_init
// with the enum spelt out, hrtimer_start without mode= or was_armed=.
START_TEST(tracefs_36_hrtimer_fields)
{
	std::string text =
		"     kworker/0:1-100   [000] ..s.  1005.621457: hrtimer_init: hrtimer=ffff88001db899f8 clockid=CLOCK_MONOTONIC mode=HRTIMER_MODE_ABS\n"
		"     kworker/0:1-100   [000] ..s.  1000.000374: hrtimer_start: hrtimer=ffff88001fa0e980 function=0xffffffff810ae0d0 expires=10509632282370 softexpires=10509632282370\n"
		"     kworker/0:1-100   [000] ..s.  1000.000369: hrtimer_expire_entry: hrtimer=ffff88001fa0e980 function=0xffffffff810ae0d0 now=10509628979865\n"
		"     kworker/0:1-100   [000] ..s.  1005.621457: hrtimer_init: hrtimer=ffff88001db899f8 clockid=CLOCK_REALTIME mode=HRTIMER_MODE_REL\n";
	auto evs = parse(text, trace_format::ftrace);
	ck_assert_int_eq(int(evs[0].hrtimer), int(hrtimer_event::init));
	ck_assert_uint_eq(evs[0].clockid, 1);
	ck_assert_uint_eq(evs[0].hrtimer_mode, 0);
	ck_assert(evs[0].carries(EF_HRTIMER_MODE));
	ck_assert_uint_eq(evs[0].timer, 0xffff88001db899f8ull);
	ck_assert_int_eq(int(evs[1].hrtimer), int(hrtimer_event::start));
	ck_assert(!evs[1].carries(EF_HRTIMER_MODE) && !evs[1].carries(EF_WAS_ARMED));
	ck_assert(evs[1].carries(EF_SOFTEXPIRES));
	ck_assert_uint_eq(evs[1].softexpires, 10509632282370ull);
	ck_assert_str_eq(evs[1].function.c_str(), "0xffffffff810ae0d0");
	ck_assert_uint_eq(evs[2].now, 10509628979865ull);
	ck_assert_uint_eq(evs[3].clockid, 0);
	ck_assert_uint_eq(evs[3].hrtimer_mode, HRM_REL);
}
END_TEST

// trace-cmd report -t of tests/data/sleep-net.dat (an instance's buffer:
// each line starts with its name), and its hrtimer plugin's rewriting:
// hrtimer_start without mode= and was_armed=, function=sym/0x0;
// libtraceevent prints the modes as numbers.
START_TEST(trace_cmd_report_cost_and_hrtimer_lines)
{
	std::string text =
		"cpus=2\n"
		"timersim-12642:             dpkg-13204 [001] 14028.706933374: softirq_entry:        vec=1 [action=TIMER]\n"
		"timersim-12642:            sleep-13560 [001] 14028.848330824: irq_handler_entry:    irq=36 name=virtio1-req.0\n"
		"timersim-12642:            sleep-13560 [001] 14028.848338780: irq_handler_exit:     irq=36 ret=handled\n"
		"timersim-12642:             bash-12642 [001] 14028.702939348: local_timer_exit:     vector=236\n"
		"timersim-12642:             bash-12642 [001] 14028.702935220: hrtimer_start:        hrtimer=0xffff888627d1c6f8 function=tick_nohz_handler/0x0 expires=14028684000000 softexpires=14028684000000\n"
		"timersim-12642:             bash-12642 [001] 14028.699374: hrtimer_setup:        hrtimer=0xffff88811ab4afa0 clockid=CLOCK_MONOTONIC mode=0x9\n";
	auto evs = parse(text, trace_format::trace_cmd_report, 1);
	ck_assert_uint_eq(evs.size(), 6);
	expect_irq(evs[0], event_kind::softirq_entry, 1, false, false);
	ck_assert_uint_eq(evs[0].ts_ns, 14028706933374ull);
	expect_irq(evs[1], event_kind::irq_entry, 36, false, true);
	expect_irq(evs[2], event_kind::irq_exit, 36, false, true);
	expect_irq(evs[3], event_kind::irq_exit, 236, true, false);
	ck_assert_int_eq(int(evs[4].hrtimer), int(hrtimer_event::start));
	ck_assert(!evs[4].carries(EF_HRTIMER_MODE) && !evs[4].carries(EF_WAS_ARMED));
	ck_assert_str_eq(evs[4].function.c_str(), "tick_nohz_handler");
	ck_assert_uint_eq(evs[4].softexpires, 14028684000000ull);
	ck_assert_uint_eq(evs[5].hrtimer_mode, HRM_REL | HRM_HARD);
	ck_assert_uint_eq(evs[5].clockid, 1);
}
END_TEST

// perf script --ns of tests/data/sleep-net.perf-script.txt.gz and
// ../shared/traces/linux-6.18-tcp/perf-script.txt.
START_TEST(perf_script_cost_and_hrtimer_lines)
{
	std::string text =
		"            dpkg 13204 [000] 14027.965791669:                      irq:softirq_raise: vec=1 [action=TIMER]\n"
		"         cc1plus 13427 [001] 14028.077660278:                  irq:irq_handler_entry: irq=36 name=virtio1-req.0\n"
		"         cc1plus 13427 [001] 14028.077670988:                   irq:irq_handler_exit: irq=36 ret=handled\n"
		"         cc1plus 13421 [000] 14028.699807314:          irq_vectors:local_timer_entry: vector=236\n"
		"    workload2.sh 14385 [001]   975.992244:        timer:hrtimer_start: hrtimer=0xffff888627d1c6f8 function=tick_nohz_handler expires=975996000000 softexpires=975996000000 mode=0x0 was_armed=0\n"
		" memfd:sealed-91  8702 [000] 14027.965239667:                    timer:hrtimer_setup: hrtimer=0xffffc90007177b38 clockid=CLOCK_MONOTONIC mode=0x0\n";
	auto evs = parse(text, trace_format::perf_script);
	ck_assert_uint_eq(evs.size(), 6);
	expect_irq(evs[0], event_kind::softirq_raise, 1, false, false);
	ck_assert_uint_eq(evs[0].ts_ns, 14027965791669ull);
	expect_irq(evs[1], event_kind::irq_entry, 36, false, true);
	expect_irq(evs[2], event_kind::irq_exit, 36, false, true);
	expect_irq(evs[3], event_kind::irq_entry, 236, true, false);
	ck_assert(evs[4].carries(EF_HRTIMER_MODE) && evs[4].carries(EF_WAS_ARMED));
	ck_assert_uint_eq(evs[4].hrtimer_mode, 0);
	ck_assert_int_eq(int(evs[5].hrtimer), int(hrtimer_event::init));
}
END_TEST

START_TEST(mode_and_clock_words)
{
	std::uint32_t m = 99, c = 99;
	ck_assert(parse_hrtimer_mode("ABS", m) && m == 0);
	ck_assert(parse_hrtimer_mode("REL|PINNED|SOFT", m) && m == (HRM_REL | HRM_PINNED | HRM_SOFT));
	ck_assert(parse_hrtimer_mode("HRTIMER_MODE_REL_PINNED", m) && m == (HRM_REL | HRM_PINNED));
	ck_assert(parse_hrtimer_mode("HRTIMER_MODE_ABS", m) && m == 0);
	ck_assert(parse_hrtimer_mode("0xa", m) && m == (HRM_PINNED | HRM_HARD));
	ck_assert(parse_hrtimer_mode("5", m) && m == (HRM_REL | HRM_SOFT));
	ck_assert(!parse_hrtimer_mode("RELATIVE", m));
	ck_assert(!parse_hrtimer_mode("", m));
	ck_assert(parse_clockid("CLOCK_BOOTTIME", c) && c == 7);
	ck_assert(parse_clockid("CLOCK_TAI", c) && c == 11);
	ck_assert(parse_clockid("0xb", c) && c == 11);
	ck_assert(!parse_clockid("CLOCK_SOMETIME", c));
	ck_assert_int_eq(int(hrtimer_event_of("hrtimer_rearm")), int(hrtimer_event::rearm));
	ck_assert_int_eq(int(hrtimer_event_of("hrtimer_start_expired")),
			 int(hrtimer_event::start_expired));
	ck_assert_int_eq(int(hrtimer_event_of("hrtimer_init")), int(hrtimer_event::init));
}
END_TEST

// The binary formats' names: trace.dat's are the kernel's; LTTng's own
// (lttng-modules instrumentation/events/irq.h, arch/x86/irq_vectors.h,
// timer.h) map onto them.
START_TEST(binary_and_lttng_names)
{
	auto kind = [](std::string_view n) { return event_kind_of(kernel_event_name(n)); };
	ck_assert_int_eq(int(kind("irq_softirq_entry")), int(event_kind::softirq_entry));
	ck_assert_int_eq(int(kind("irq_softirq_raise")), int(event_kind::softirq_raise));
	ck_assert_int_eq(int(kind("softirq_exit")), int(event_kind::softirq_exit));	// LTTng 2.1
	ck_assert_int_eq(int(kind("irq_handler_entry")), int(event_kind::irq_entry));
	ck_assert_int_eq(int(kind("x86_irq_vectors_local_timer_exit")), int(event_kind::irq_exit));
	std::string ipi(kernel_event_name("x86_irq_vectors_ipi_entry"));	// named: Check reads it twice
	ck_assert_str_eq(ipi.c_str(), "x86_platform_ipi_entry");
	ck_assert_int_eq(int(kind("x86_irq_vectors_ipi_entry")), int(event_kind::irq_entry));
	ck_assert_int_eq(int(kind("timer_hrtimer_start")), int(event_kind::hrtimer));
	ck_assert_int_eq(int(kind("x86_exceptions_page_fault_user")), int(event_kind::other));
	bool timer = false;
	ck_assert_int_eq(int(irq_event_kind("local_timer_entry", timer)), int(event_kind::irq_entry));
	ck_assert(timer);
	ck_assert_int_eq(int(irq_event_kind("call_function_single_exit", timer)),
			 int(event_kind::irq_exit));
	ck_assert(!timer);
	ck_assert_int_eq(int(irq_event_kind("tasklet_entry", timer)), int(event_kind::other));
}
END_TEST

Suite *cost_event_lines_suite()
{
	Suite *s = suite_create("cost_event_lines");
	TCase *t = tcase_create("text");
	tcase_add_test(t, tracefs_softirq_and_interrupt_lines);
	tcase_add_test(t, irq_handler_exit_of_a_timer_irq_is_marked);
	tcase_add_test(t, irq_lines_without_their_number_are_bad);
	tcase_add_test(t, tracefs_618_hrtimer_fields);
	tcase_add_test(t, tracefs_36_hrtimer_fields);
	tcase_add_test(t, trace_cmd_report_cost_and_hrtimer_lines);
	tcase_add_test(t, perf_script_cost_and_hrtimer_lines);
	tcase_add_test(t, mode_and_clock_words);
	tcase_add_test(t, binary_and_lttng_names);
	suite_add_tcase(s, t);
	return s;
}

int main()
{
	return timersim::test::run_suite(cost_event_lines_suite());
}
