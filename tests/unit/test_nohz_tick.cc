// The NOHZ tick modelled from what the trace records of it
// (kernel/time/tick-sched.c, 6.18): tick_stop(1) when an idle CPU's tick
// is first stopped, the tick's cancel (no next event) or start (the next
// event, more than a tick away) after it, and the restart at the idle
// exit (the tick forwarded past now, at most a tick ahead). Real lines of
// tests/data/idle-nohz.txt.gz, CPU 1 (its hrtimer, idle and interrupt
// events, and its base going idle: a timer trace) from 12272.746877 s.
#include <string>

#include <nlohmann/json.hpp>

#include "sim/gen/tracefs_header.h"
#include "tests/support/cli.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"	// last: check.h defines a fail() macro

using namespace timersim::test;
using nlohmann::json;

namespace {

const std::string header = timersim::gen::tracefs_header(timersim::gen::kernel_gen::linux6, 33488, 2);

// Two ticks, then CPU 1 leaves its C-state, stops the tick (tick_stop,
// then the tick's hrtimer_cancel: no timer due) and idles 119 ms; a
// timerfd's interrupt (armed before the window) wakes it, the idle exit
// restarts the tick on its grid (12272844000000, 2.2 ms ahead), which
// expires in the same interrupt the model predicts for it.
const std::string excerpt =
	"          <idle>-0       [001] d.h1. 12272.746877: local_timer_entry: vector=236\n"
	"          <idle>-0       [001] d.h1. 12272.746879: hrtimer_expire_entry: hrtimer=0000000058ff9cc1 function=tick_nohz_handler now=12272720027054\n"
	"          <idle>-0       [001] d.h1. 12272.746883: hrtimer_expire_exit: hrtimer=0000000058ff9cc1\n"
	"          <idle>-0       [001] d.h2. 12272.746883: hrtimer_start: hrtimer=0000000058ff9cc1 function=tick_nohz_handler expires=12272724000000 softexpires=12272724000000 mode=ABS was_armed=0\n"
	"          <idle>-0       [001] d.h1. 12272.746887: local_timer_exit: vector=236\n"
	"          <idle>-0       [001] d..1. 12272.746888: cpu_idle: state=4294967295 cpu_id=1\n"
	"          <idle>-0       [001] d..1. 12272.746889: cpu_idle: state=1 cpu_id=1\n"
	"          <idle>-0       [001] d.h1. 12272.750876: local_timer_entry: vector=236\n"
	"          <idle>-0       [001] d.h1. 12272.750878: hrtimer_expire_entry: hrtimer=0000000058ff9cc1 function=tick_nohz_handler now=12272724025603\n"
	"          <idle>-0       [001] d.h1. 12272.750882: hrtimer_expire_exit: hrtimer=0000000058ff9cc1\n"
	"          <idle>-0       [001] d.h2. 12272.750882: hrtimer_start: hrtimer=0000000058ff9cc1 function=tick_nohz_handler expires=12272728000000 softexpires=12272728000000 mode=ABS was_armed=0\n"
	"          <idle>-0       [001] d.h1. 12272.750885: local_timer_exit: vector=236\n"
	"          <idle>-0       [001] d..1. 12272.750911: cpu_idle: state=4294967295 cpu_id=1\n"
	"          <idle>-0       [001] d..3. 12272.750916: timer_base_idle: is_idle=1 cpu=1\n"
	"          <idle>-0       [001] d..1. 12272.750917: tick_stop: success=1 dependency=NONE\n"
	"          <idle>-0       [001] d..2. 12272.750920: hrtimer_cancel: hrtimer=0000000058ff9cc1\n"
	"          <idle>-0       [001] d..1. 12272.750920: cpu_idle: state=1 cpu_id=1\n"
	"          <idle>-0       [001] d.h1. 12272.869672: local_timer_entry: vector=236\n"
	"          <idle>-0       [001] d.h1. 12272.869675: hrtimer_expire_entry: hrtimer=00000000d349a87a function=timerfd_tmrproc now=12272842821840\n"
	"          <idle>-0       [001] dNh1. 12272.869684: hrtimer_expire_exit: hrtimer=00000000d349a87a\n"
	"          <idle>-0       [001] dNh1. 12272.869688: local_timer_exit: vector=236\n"
	"          <idle>-0       [001] dN.1. 12272.869689: cpu_idle: state=4294967295 cpu_id=1\n"
	"          <idle>-0       [001] dN.2. 12272.869692: hrtimer_start: hrtimer=0000000058ff9cc1 function=tick_nohz_handler expires=12272844000000 softexpires=12272844000000 mode=ABS|PINNED|HARD was_armed=0\n"
	"          <idle>-0       [001] d..1. 12272.870170: cpu_idle: state=1 cpu_id=1\n"
	"          <idle>-0       [001] dN.1. 12272.870282: cpu_idle: state=4294967295 cpu_id=1\n"
	"          <idle>-0       [001] d..1. 12272.870297: cpu_idle: state=1 cpu_id=1\n"
	"          <idle>-0       [001] d.h1. 12272.870874: local_timer_entry: vector=236\n"
	"          <idle>-0       [001] d.h1. 12272.870877: hrtimer_expire_entry: hrtimer=0000000058ff9cc1 function=tick_nohz_handler now=12272844024406\n"
	"          <idle>-0       [001] d.h1. 12272.870887: hrtimer_expire_exit: hrtimer=0000000058ff9cc1\n"
	"          <idle>-0       [001] d.h2. 12272.870887: hrtimer_start: hrtimer=0000000058ff9cc1 function=tick_nohz_handler expires=12272848000000 softexpires=12272848000000 mode=ABS was_armed=0\n"
	"          <idle>-0       [001] d.h1. 12272.870893: local_timer_exit: vector=236\n";

const std::string cancel_line =
	"          <idle>-0       [001] d..2. 12272.750920: hrtimer_cancel: hrtimer=0000000058ff9cc1\n";

json hrtimers_of(const std::string &name, const std::string &text)
{
	return replay_json({write_temp(name, text)})["hrtimers"];
}

std::uint64_t u(const json &j, const char *k) { return j[k].get<std::uint64_t>(); }

}  // namespace

// The stop and restart as recorded: nothing inferred.
START_TEST(a_recorded_stop_and_restart)
{
	ck_assert(excerpt.find(cancel_line) != std::string::npos);
	json h = hrtimers_of("nohzstop.txt", header + excerpt);
	ck_assert_uint_eq(u(h, "tick_stops_recorded"), 1);
	ck_assert_uint_eq(u(h, "tick_restarts_recorded"), 1);
	ck_assert_uint_eq(u(h, "tick_stops_inferred"), 0);
	ck_assert_uint_eq(u(h, "tick_stops_applied"), 0);
	ck_assert_uint_eq(u(h, "idle_entries"), 4);	// the first exit: idle before the window
	ck_assert_uint_eq(u(h, "idle_exits"), 3);
	ck_assert(h["untraced_tick_cpus"].empty());
	// The two ticks armed in the window and the restarted one: same interrupt.
	ck_assert_uint_eq(u(h, "expiries"), 4);
	ck_assert_uint_eq(u(h, "same_interrupt"), 2);
}
END_TEST

// The tick's cancel after tick_stop lost: the stop is still the recorded
// one, applied when the model's tick comes due, not inferred (and the CPU
// is not listed as one whose tick stops untraced). Without tick_stop the
// model infers it, as before.
START_TEST(a_recorded_stop_whose_cancel_is_lost)
{
	std::string lost = excerpt;
	lost.erase(lost.find(cancel_line), cancel_line.size());
	json h = hrtimers_of("nohzlost.txt", header + lost);
	ck_assert_uint_eq(u(h, "tick_stops_recorded"), 1);
	ck_assert_uint_eq(u(h, "tick_stops_applied"), 1);
	ck_assert_uint_eq(u(h, "tick_stops_inferred"), 0);
	ck_assert(h["untraced_tick_cpus"].empty());
	ck_assert_uint_eq(u(h, "tick_restarts_recorded"), 1);

	const std::string stop_line =
		"          <idle>-0       [001] d..1. 12272.750917: tick_stop: success=1 dependency=NONE\n";
	lost.erase(lost.find(stop_line), stop_line.size());
	json g = hrtimers_of("nohzinferred.txt", header + lost);
	ck_assert_uint_eq(u(g, "tick_stops_recorded"), 0);
	ck_assert_uint_eq(u(g, "tick_stops_inferred"), 1);
	ck_assert(g["untraced_tick_cpus"] == json::array({1}));
	// The same verdicts either way: the stop is the same stop.
	ck_assert_uint_eq(u(g, "same_interrupt"), u(h, "same_interrupt"));
}
END_TEST

// tick_stop success=0: a dependency kept the tick (check_tick_dependency):
// no stop.
START_TEST(a_refused_stop_is_no_stop)
{
	std::string refused = excerpt;
	const std::string stop = "tick_stop: success=1 dependency=NONE";
	refused.replace(refused.find(stop), stop.size(), "tick_stop: success=0 dependency=SCHED");
	refused.erase(refused.find(cancel_line), cancel_line.size());
	json h = hrtimers_of("nohzrefused.txt", header + refused);
	ck_assert_uint_eq(u(h, "tick_stops_recorded"), 0);
	ck_assert_uint_eq(u(h, "tick_stops_refused"), 1);
	ck_assert_uint_eq(u(h, "tick_stops_applied"), 0);
	ck_assert_uint_eq(u(h, "tick_restarts_recorded"), 0);
}
END_TEST

// 6.19 (kernel/time/timer_migration.c): the CPU hotplug events of the
// migration hierarchy are tmigr_cpu_available/unavailable (its available
// mask, which leaves isolated CPUs out), of class tmigr_cpugroup
// ("cpu=%d parent=%p wakeup=%llu"); before, tmigr_cpu_online/offline. A
// line of each, written from that rule, in the 6.18 excerpt.
START_TEST(tmigr_hotplug_events_tell_the_generation)
{
	auto generation = [](const std::string &line) {
		std::string path = write_temp("nohzgen.txt", header + line + excerpt);
		cli_result r = run_timersim({"replay", "--json", "-", path});
		ck_assert_msg(r.status == 0, "replay failed: %s", r.err.c_str());
		return json::parse(r.out)["input"]["kernel_generation"];
	};
	json g = generation("");
	ck_assert_string_eq(g["range"].get<std::string>().c_str(), "6.18..7.0");
	ck_assert(!g["tmigr_available"].get<bool>());
	g = generation("         cpuhp/1-21      [001] d..1. 12272.746000: tmigr_cpu_available: cpu=1 parent=00000000b957d7c4 wakeup=9223372036854775807\n");
	ck_assert_string_eq(g["range"].get<std::string>().c_str(), "6.19..7.0");
	ck_assert(g["tmigr_available"].get<bool>());
	g = generation("         cpuhp/1-21      [001] d..1. 12272.746000: tmigr_cpu_online: cpu=1 parent=00000000b957d7c4 wakeup=9223372036854775807\n");
	ck_assert_string_eq(g["range"].get<std::string>().c_str(), "6.18");
	ck_assert(!g["tmigr_available"].get<bool>());
}
END_TEST

int main()
{
	Suite *s = suite_create("nohz_tick");
	TCase *tc = tcase_create("nohz_tick");
	tcase_add_test(tc, a_recorded_stop_and_restart);
	tcase_add_test(tc, a_recorded_stop_whose_cancel_is_lost);
	tcase_add_test(tc, a_refused_stop_is_no_stop);
	tcase_add_test(tc, tmigr_hotplug_events_tell_the_generation);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
