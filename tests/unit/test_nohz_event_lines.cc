// The NOHZ idle events (timer:tick_stop, power:cpu_idle,
// timer_migration:tmigr_*) in every format: real lines of this machine's
// 6.18 recordings (tests/data/idle-nohz.txt.gz, raw tracefs; the
// trace-cmd report and perf script of a recording made like it) parsed
// into their kind and fields, each counted as an event, malformed ones
// refused as a timer event's are; the binary formats' names and fields.
#include <string>
#include <vector>

#include "sim/trace/binary_fields.h"
#include "sim/trace/binary_names.h"
#include "sim/trace/nohz_events.h"
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
	ck_assert_uint_eq(r->stats().events, evs.size());
	return evs;
}


// tests/data/idle-nohz.txt.gz: CPU 1 goes idle (tmigr, base idle, the
// tick stopped, its hrtimer canceled, C-state 1), CPU 0 wakes.
const char *tracefs_lines =
	"          <idle>-0       [001] d..4. 12272.750915: tmigr_cpu_idle: cpu=1 parent=00000000b957d7c4 nextevt=12272972000000 wakeup=9223372036854775807\n"
	"          <idle>-0       [001] d..3. 12272.750916: timer_base_idle: is_idle=1 cpu=1\n"
	"          <idle>-0       [001] d..1. 12272.750917: tick_stop: success=1 dependency=NONE\n"
	"          <idle>-0       [001] d..2. 12272.750920: hrtimer_cancel: hrtimer=0000000058ff9cc1\n"
	"          <idle>-0       [001] d..1. 12272.750920: cpu_idle: state=1 cpu_id=1\n"
	"          <idle>-0       [001] d..1. 12272.728685: cpu_idle: state=4294967295 cpu_id=1\n"
	"          <idle>-0       [000] dN.2. 12272.807366: tmigr_cpu_active: cpu=0 parent=00000000b957d7c4 wakeup=12272872000000\n"
	"          <idle>-0       [000] dN.2. 12272.807367: tmigr_group_set_cpu_active: group=00000000b957d7c4 lvl=0 numa=0 active=1 migrator=1 parent=0000000000000000 childmask=1\n"
	"          <idle>-0       [001] d..5. 12272.750915: tmigr_update_events: child=0000000000000000 group=00000000b957d7c4 group_lvl=0 child_active=0 group_active=1 nextevt=12272972000000 next_expiry=12272972000000 child_evt_expiry=0 child_evtcpu=0\n"
	"          <idle>-0       [000] ..s1. 12272.730893: tmigr_handle_remote: group=00000000b957d7c4 lvl=0\n"
	"          <idle>-0       [000] d.s2. 12272.794932: tmigr_handle_remote_cpu: cpu=0 parent=00000000b957d7c4 wakeup=12272768000000\n"
	"          <idle>-0       [000] d..4. 12272.794945: tmigr_cpu_new_timer_idle: cpu=0 parent=00000000b957d7c4 nextevt=12272872000000 wakeup=12272872000000\n"
	"          <idle>-0       [000] d..4. 12274.334935: tmigr_cpu_new_timer: cpu=0 parent=00000000b957d7c4 wakeup=12274316000000\n";

void expect_nohz_sequence(const std::vector<owned_event> &evs)
{
	ck_assert_uint_eq(evs.size(), 13);
	ck_assert_int_eq(int(evs[0].kind), int(event_kind::tmigr));
	ck_assert_int_eq(int(evs[0].tmigr), int(tmigr_event::cpu_idle));
	ck_assert_uint_eq(evs[0].cpu_id, 1);
	ck_assert_uint_eq(evs[0].nextevt, 12272972000000ull);
	ck_assert_uint_eq(evs[0].wakeup, 9223372036854775807ull);
	ck_assert_int_eq(int(evs[2].kind), int(event_kind::tick_stop));
	ck_assert_uint_eq(evs[2].stop_success, 1);
	ck_assert_uint_eq(evs[2].dependency, 0);
	ck_assert_uint_eq(evs[2].cpu, 1);
	ck_assert_uint_eq(evs[2].ts_ns, 12272750917000ull);
	ck_assert_int_eq(int(evs[4].kind), int(event_kind::cpu_idle));
	ck_assert_uint_eq(evs[4].idle_state, 1);
	ck_assert_uint_eq(evs[4].cpu_id, 1);
	ck_assert_uint_eq(evs[5].idle_state, idle_exit_state);
	ck_assert_int_eq(int(evs[6].tmigr), int(tmigr_event::cpu_active));
	ck_assert_uint_eq(evs[6].cpu_id, 0);
	ck_assert_uint_eq(evs[6].wakeup, 12272872000000ull);
	ck_assert_int_eq(int(evs[7].tmigr), int(tmigr_event::group_set_cpu_active));
	ck_assert_int_eq(int(evs[8].tmigr), int(tmigr_event::update_events));
	ck_assert_uint_eq(evs[8].nextevt, 12272972000000ull);
	ck_assert_int_eq(int(evs[9].tmigr), int(tmigr_event::handle_remote));
	ck_assert_int_eq(int(evs[10].tmigr), int(tmigr_event::handle_remote_cpu));
	ck_assert_int_eq(int(evs[11].tmigr), int(tmigr_event::cpu_new_timer_idle));
	ck_assert_uint_eq(evs[11].nextevt, 12272872000000ull);
	ck_assert_int_eq(int(evs[12].tmigr), int(tmigr_event::cpu_new_timer));
	ck_assert_uint_eq(evs[12].cpu_id, 0);
}

}  // namespace

#define expect_error(text, expected, ...)                                          \
	do {                                                                       \
		std::string got_ = error_of(text, ##__VA_ARGS__);                  \
		ck_assert_str_eq(got_.c_str(), expected);                          \
	} while (0)

START_TEST(tracefs_nohz_lines)
{
	expect_nohz_sequence(parse(tracefs_lines, trace_format::ftrace));
}
END_TEST

// trace-cmd report -t of a trace.dat extracted from an instance, and perf
// script --ns of a concurrent perf record (this machine, 6.18.44, under
// load: its CPUs did not stop their ticks, and the tmigr events it shows
// are the remote handling of the global timers).
START_TEST(trace_cmd_report_and_perf_script_tmigr_lines)
{
	auto report = parse("cpus=2\n"
			    "timersim-25928:          cc1plus-25915 [000] 24571.859475058: timer_expire_exit:    timer=0xffffc9000007fde8\n"
			    "timersim-25928:          cc1plus-25915 [000] 24571.859477132: tmigr_handle_remote:  group=0xffff8881003d5080 lvl=0\n",
			    trace_format::trace_cmd_report, 1);
	ck_assert_uint_eq(report.size(), 2);
	ck_assert_int_eq(int(report[1].kind), int(event_kind::tmigr));
	ck_assert_int_eq(int(report[1].tmigr), int(tmigr_event::handle_remote));
	ck_assert_uint_eq(report[1].ts_ns, 24571859477132ull);
	auto perf = parse("         cc1plus 24467 [000] 24623.658122150:          timer_migration:tmigr_handle_remote: group=0xffff8881003d5080 lvl=0\n"
			  "         cc1plus 26824 [000] 24623.742123755:          timer_migration:tmigr_handle_remote: group=0xffff8881003d5080 lvl=0\n",
			  trace_format::perf_script);
	ck_assert_uint_eq(perf.size(), 2);
	ck_assert_int_eq(int(perf[0].kind), int(event_kind::tmigr));
	ck_assert_int_eq(int(perf[0].tmigr), int(tmigr_event::handle_remote));
	ck_assert_uint_eq(perf[1].ts_ns, 24623742123755ull);
	// Recorded too (perf record -a -e power:cpu_idle, a second capture
	// under the same load): CPU 1 enters C1 and leaves it.
	auto recorded = parse("         swapper     0 [001] 27175.166478732:                 power:cpu_idle: state=1 cpu_id=1\n"
			      "         swapper     0 [001] 27175.170548685:                 power:cpu_idle: state=4294967295 cpu_id=1\n",
			      trace_format::perf_script);
	ck_assert_int_eq(int(recorded[0].kind), int(event_kind::cpu_idle));
	ck_assert_uint_eq(recorded[0].idle_state, 1);
	ck_assert_uint_eq(recorded[0].cpu_id, 1);
	ck_assert_uint_eq(recorded[1].idle_state, idle_exit_state);
	ck_assert_uint_eq(recorded[1].ts_ns, 27175170548685ull);
	// tick_stop and tmigr_cpu_idle in perf's rendering (none of them in
	// the captures: the CPUs did not stop their ticks under the load):
	// the subsystem before the name, the payload the kernel's print fmt.
	auto idle = parse("          swapper     0 [001] 12272.750917000:                     timer:tick_stop: success=1 dependency=NONE\n"
			  "         swapper     0 [001] 27175.166478732:                 power:cpu_idle: state=1 cpu_id=1\n"
			  "          swapper     0 [001] 12272.750915000:  timer_migration:tmigr_cpu_idle: cpu=1 parent=0xffff8881003d5080 nextevt=12272972000000 wakeup=9223372036854775807\n",
			  trace_format::perf_script);
	ck_assert_int_eq(int(idle[0].kind), int(event_kind::tick_stop));
	ck_assert_int_eq(int(idle[1].kind), int(event_kind::cpu_idle));
	ck_assert_int_eq(int(idle[2].tmigr), int(tmigr_event::cpu_idle));
	ck_assert_uint_eq(idle[2].nextevt, 12272972000000ull);
}
END_TEST

START_TEST(nohz_lines_without_their_fields_are_bad)
{
	const std::string head = "          <idle>-0       [001] d..1. 12272.750917: ";
	expect_error(head + "tick_stop: success=1\n", "t.txt:1: tick_stop: missing dependency=");
	expect_error(head + "tick_stop: success=2 dependency=NONE\n",
		     "t.txt:1: tick_stop: success is not 0 or 1: '2'");
	expect_error(head + "tick_stop: success=0 dependency=BOGUS\n",
		     "t.txt:1: tick_stop: dependency is not a tick dependency: 'BOGUS'");
	expect_error(head + "cpu_idle: state=1\n", "t.txt:1: cpu_idle: missing cpu_id=");
	expect_error(head + "cpu_idle: state=x cpu_id=1\n",
		     "t.txt:1: cpu_idle: state is not a C-state: 'x'");
	expect_error(head + "tmigr_cpu_idle: cpu=1 parent=00000000b957d7c4 wakeup=5\n",
		     "t.txt:1: tmigr_cpu_idle: missing nextevt=");
	expect_error(head + "tmigr_cpu_active: cpu=z parent=00000000b957d7c4 wakeup=5\n",
		     "t.txt:1: tmigr_cpu_active: cpu is not a CPU: 'z'");
	expect_error(head + "tmigr_handle_remote: lvl=0\n", "t.txt:1: tmigr_handle_remote: missing group=");
	expect_error(head + "tmigr_handle_remote: group=xyz lvl=0\n",
		     "t.txt:1: tmigr_handle_remote: group is not a pointer: 'xyz'");
	// Lenient: counted as malformed, not dropped unseen.
	reader_options opt;
	opt.lenient = true;
	auto r = make_text_reader_from_memory(head + "tick_stop: success=1\n" + head +
						      "tick_stop: success=0 dependency=SCHED\n",
					      "t.txt", trace_format::ftrace, opt);
	auto evs = test::read_all(*r);
	ck_assert_uint_eq(evs.size(), 1);
	ck_assert_uint_eq(evs[0].dependency, 1u << 2);
	ck_assert_uint_eq(evs[0].stop_success, 0);
	ck_assert_uint_eq(r->stats().malformed, 1);
}
END_TEST

START_TEST(tick_dependency_names)
{
	std::uint32_t m = 99;
	ck_assert(parse_tick_dependency("NONE", m) && m == 0);
	ck_assert(parse_tick_dependency("POSIX_TIMER", m) && m == 1);
	ck_assert(parse_tick_dependency("RCU_EXP", m) && m == 32);
	ck_assert(parse_tick_dependency("0x4", m) && m == 4);
	ck_assert(parse_tick_dependency("8", m) && m == 8);
	ck_assert(!parse_tick_dependency("RCU_", m));
	ck_assert(!parse_tick_dependency("", m));
}
END_TEST

// trace.dat and LTTng: the kernel's names (LTTng's power_cpu_idle), the
// fields as the kernel stored them.
START_TEST(binary_nohz_names_and_fields)
{
	auto kind = [](std::string_view n) { return event_kind_of(kernel_event_name(n)); };
	ck_assert_int_eq(int(kind("tick_stop")), int(event_kind::tick_stop));
	ck_assert_int_eq(int(kind("cpu_idle")), int(event_kind::cpu_idle));
	ck_assert_int_eq(int(kind("power_cpu_idle")), int(event_kind::cpu_idle));
	ck_assert_int_eq(int(kind("tmigr_cpu_available")), int(event_kind::tmigr));
	ck_assert_int_eq(int(kind("cpu_frequency")), int(event_kind::other));
	callback_names names({});
	struct one {
		const char *name;
		event_kind kind;
	};
	for (bool by_class : {false, true}) {
		binary_slot_values v;
		v.set(BS_STATE, 0xffffffffull);
		v.set(BS_CPU_ID, 3);
		trace_event ev;
		ev.name = "cpu_idle";
		ev.kind = event_kind::cpu_idle;
		binary_event_name facts = binary_event_name::of(ev.name);
		if (by_class)
			v.named = &facts;
		apply_binary_slots(v, 618, names, ev);
		ck_assert_uint_eq(ev.idle_state, idle_exit_state);
		ck_assert_uint_eq(ev.cpu_id, 3);

		binary_slot_values t;
		t.set(BS_SUCCESS, 0);
		t.set(BS_DEPENDENCY, 4);
		trace_event stop;
		stop.name = "tick_stop";
		stop.kind = event_kind::tick_stop;
		apply_binary_slots(t, 618, names, stop);
		ck_assert_uint_eq(stop.stop_success, 0);
		ck_assert_uint_eq(stop.dependency, 4);

		binary_slot_values m;
		m.set(BS_CPU, 1);
		m.set(BS_NEXTEVT, 77);
		m.set(BS_WAKEUP, 88);
		trace_event mig;
		mig.name = "tmigr_cpu_unavailable";
		mig.kind = event_kind::tmigr;
		binary_event_name mf = binary_event_name::of(mig.name);
		if (by_class)
			m.named = &mf;
		apply_binary_slots(m, 619, names, mig);
		ck_assert_int_eq(int(mig.tmigr), int(tmigr_event::cpu_unavailable));
		ck_assert_uint_eq(mig.cpu_id, 1);
		ck_assert_uint_eq(mig.nextevt, 77);
		ck_assert_uint_eq(mig.wakeup, 88);
	}
	// A slot of another kind is not read for them.
	ck_assert(!binary_slot_read(event_kind::cpu_idle, BS_EXPIRES));
	ck_assert(binary_slot_read(event_kind::tmigr, BS_CPU));
	ck_assert(!binary_slot_read(event_kind::irq_entry, BS_STATE));
}
END_TEST

Suite *nohz_event_lines_suite()
{
	Suite *s = suite_create("nohz_event_lines");
	TCase *t = tcase_create("text");
	tcase_add_test(t, tracefs_nohz_lines);
	tcase_add_test(t, trace_cmd_report_and_perf_script_tmigr_lines);
	tcase_add_test(t, nohz_lines_without_their_fields_are_bad);
	tcase_add_test(t, tick_dependency_names);
	tcase_add_test(t, binary_nohz_names_and_fields);
	suite_add_tcase(s, t);
	return s;
}

int main()
{
	return timersim::test::run_suite(nohz_event_lines_suite());
}
