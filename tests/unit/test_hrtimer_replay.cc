// The hrtimer replay on real trace lines, each quirk of the tracepoints
// with its own test, the figures worked out by hand from the lines:
// a 6.18 window with the timer interrupt recorded; the 3.6 kernel's
// cancel before every expiry and periodic re-start after it; a re-arm
// logged as cancel + start where start has no was_armed; and on 6.18,
// whose start prints was_armed, a cancel before a start is a cancel.
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/check_main.h"
#include "tests/support/cli.h"
#include "tests/support/text_trace_util.h"

using namespace timersim::test;
using nlohmann::json;

namespace {

// Raw tracefs text headers of the two kernels.
const char header_6[] =
	"# tracer: nop\n"
	"#\n"
	"# entries-in-buffer/entries-written: 93864/93864   #P:2\n"
	"#\n"
	"#                                _-----=> irqs-off/BH-disabled\n"
	"#                               / _----=> need-resched\n"
	"#                              | / _---=> hardirq/softirq\n"
	"#                              || / _--=> preempt-depth\n"
	"#                              ||| / _-=> migrate-disable\n"
	"#                              |||| /     delay\n"
	"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
	"#              | |         |   |||||     |         |\n";
const char header_3[] =
	"# tracer: nop\n"
	"#\n"
	"# entries-in-buffer/entries-written: 63621/63621   #P:1\n"
	"#\n"
	"#                              _-----=> irqs-off\n"
	"#                             / _----=> need-resched\n"
	"#                            | / _---=> hardirq/softirq\n"
	"#                            || / _--=> preempt-depth\n"
	"#                            ||| /     delay\n"
	"#           TASK-PID   CPU#  ||||    TIMESTAMP  FUNCTION\n"
	"#              | |       |   ||||       |         |\n";

json hrtimers_of(const std::string &name, const std::string &text)
{
	std::string path = write_temp(name, text);
	cli_result r = run_timersim({"replay", "--json", "-", path});
	ck_assert_msg(r.status == 0, "replay failed: %s", r.err.c_str());
	return json::parse(r.out)["hrtimers"];
}

std::uint64_t u(const json &j, const char *k) { return j[k].get<std::uint64_t>(); }

}  // namespace

// tests/data/measured-idle.txt.gz, CPU 0 from 14472.006931 s: seven timer
// interrupts, each running one hrtimer. The first tick expiry and the last
// hrtimer_wakeup were armed before the window (never armed in the model);
// the tick re-armed after each expiry, and the sleeper started at
// 14472.011902, run in the interrupts that ran them. The device was
// programmed for the tick (or the sleeper) before five of the seven: the
// first came with the device stopped, the last for a timer armed before
// the window.
START_TEST(a_618_window_with_its_interrupts)
{
	std::string text = std::string(header_6) +
	"     rcu_preempt-15      [000] d..1. 14471.962981: timer_start: timer=00000000b5199443 function=process_timeout expires=4298510228 [timeout=1] bucket_expiry=4298510229 cpu=0 idx=21 flags=\n"
	"           sleep-22541   [000] d.h.. 14472.006931: local_timer_entry: vector=236\n"
	"           sleep-22541   [000] d.h.. 14472.006933: hrtimer_expire_entry: hrtimer=00000000046cd983 function=tick_nohz_handler now=14471984051998\n"
	"           sleep-22541   [000] d.h.. 14472.006940: hrtimer_expire_exit: hrtimer=00000000046cd983\n"
	"           sleep-22541   [000] d.h1. 14472.006940: hrtimer_start: hrtimer=00000000046cd983 function=tick_nohz_handler expires=14471988000000 softexpires=14471988000000 mode=ABS was_armed=0\n"
	"           sleep-22541   [000] d.h.. 14472.006944: local_timer_exit: vector=236\n"
	"           sleep-22541   [000] d.h1. 14472.010920: local_timer_entry: vector=236\n"
	"           sleep-22541   [000] d.h1. 14472.010922: hrtimer_expire_entry: hrtimer=00000000046cd983 function=tick_nohz_handler now=14471988041465\n"
	"           sleep-22541   [000] d.h1. 14472.010929: hrtimer_expire_exit: hrtimer=00000000046cd983\n"
	"           sleep-22541   [000] d.h2. 14472.010929: hrtimer_start: hrtimer=00000000046cd983 function=tick_nohz_handler expires=14471992000000 softexpires=14471992000000 mode=ABS was_armed=0\n"
	"           sleep-22541   [000] d.h1. 14472.010933: local_timer_exit: vector=236\n"
	"           sleep-22541   [000] d..1. 14472.011902: hrtimer_start: hrtimer=000000004efcf193 function=hrtimer_wakeup expires=14471999072213 softexpires=14471999022213 mode=REL was_armed=0\n"
	"            bash-22542   [000] d.h1. 14472.015034: local_timer_entry: vector=236\n"
	"            bash-22542   [000] d.h1. 14472.015036: hrtimer_expire_entry: hrtimer=00000000046cd983 function=tick_nohz_handler now=14471992155539\n"
	"            bash-22542   [000] d.h1. 14472.015043: hrtimer_expire_exit: hrtimer=00000000046cd983\n"
	"            bash-22542   [000] d.h2. 14472.015043: hrtimer_start: hrtimer=00000000046cd983 function=tick_nohz_handler expires=14471996000000 softexpires=14471996000000 mode=ABS was_armed=0\n"
	"            bash-22542   [000] d.h1. 14472.015047: local_timer_exit: vector=236\n"
	"            bash-22542   [000] d.h.. 14472.018930: local_timer_entry: vector=236\n"
	"            bash-22542   [000] d.h.. 14472.018931: hrtimer_expire_entry: hrtimer=00000000046cd983 function=tick_nohz_handler now=14471996050717\n"
	"            bash-22542   [000] d.h.. 14472.018937: hrtimer_expire_exit: hrtimer=00000000046cd983\n"
	"            bash-22542   [000] d.h1. 14472.018938: hrtimer_start: hrtimer=00000000046cd983 function=tick_nohz_handler expires=14472000000000 softexpires=14472000000000 mode=ABS was_armed=0\n"
	"            bash-22542   [000] d.h.. 14472.018942: local_timer_exit: vector=236\n"
	"            bash-22542   [000] d.h1. 14472.021992: local_timer_entry: vector=236\n"
	"            bash-22542   [000] d.h1. 14472.021994: hrtimer_expire_entry: hrtimer=000000004efcf193 function=hrtimer_wakeup now=14471999113460\n"
	"            bash-22542   [000] d.h1. 14472.022000: hrtimer_expire_exit: hrtimer=000000004efcf193\n"
	"            bash-22542   [000] d.h1. 14472.022004: local_timer_exit: vector=236\n"
	"            bash-22542   [000] d.h.. 14472.022929: local_timer_entry: vector=236\n"
	"            bash-22542   [000] d.h.. 14472.022930: hrtimer_expire_entry: hrtimer=00000000046cd983 function=tick_nohz_handler now=14472000049623\n"
	"            bash-22542   [000] dNh.. 14472.022936: hrtimer_expire_exit: hrtimer=00000000046cd983\n"
	"            bash-22542   [000] dNh1. 14472.022936: hrtimer_start: hrtimer=00000000046cd983 function=tick_nohz_handler expires=14472004000000 softexpires=14472004000000 mode=ABS was_armed=0\n"
	"            bash-22542   [000] dNh.. 14472.022940: local_timer_exit: vector=236\n"
	"            bash-22542   [000] d.h.. 14472.024881: local_timer_entry: vector=236\n"
	"            bash-22542   [000] d.h.. 14472.024882: hrtimer_expire_entry: hrtimer=000000006eadaafa function=hrtimer_wakeup now=14472002002481\n"
	"            bash-22542   [000] dNh.. 14472.024886: hrtimer_expire_exit: hrtimer=000000006eadaafa\n"
	"            bash-22542   [000] dNh.. 14472.024891: local_timer_exit: vector=236\n";
	json h = hrtimers_of("hr618.txt", text);
	ck_assert(h["irq_events"].get<bool>());
	ck_assert_uint_eq(u(h, "expiries"), 7);
	ck_assert_uint_eq(u(h, "same_interrupt"), 5);
	ck_assert_uint_eq(u(h, "not_armed"), 2);
	ck_assert_uint_eq(u(h, "other_interrupt"), 0);
	ck_assert_uint_eq(u(h, "late"), 0);
	const json &cpu0 = h["cpus"][0];
	ck_assert_uint_eq(u(cpu0, "recorded_interrupts"), 7);
	ck_assert_uint_eq(u(cpu0, "predicted_interrupts"), 5);
	ck_assert_uint_eq(u(cpu0, "both"), 5);
}
END_TEST

// linux-3.6-scp_dest: the tick's hrtimer, four periods. Each expiry is
// preceded by an hrtimer_cancel (__run_hrtimer's removal, traced) which is
// not a cancel, and followed by an hrtimer_start after expire_exit (the
// periodic re-arm). The first expiry's arming is before the trace.
START_TEST(the_36_cancel_before_each_expiry_and_periodic_restart)
{
	std::string text = std::string(header_3) +
	"     kworker/0:1-100   [000] ..s.  1000.000000: timer_init: timer=ffff88001d49b8c0\n"
	"     kworker/0:1-100   [000] ..s.  1000.000368: hrtimer_cancel: hrtimer=ffff88001fa0e980\n"
	"     kworker/0:1-100   [000] ..s.  1000.000369: hrtimer_expire_entry: hrtimer=ffff88001fa0e980 function=0xffffffff810ae0d0 now=10509628979865\n"
	"     kworker/0:1-100   [000] ..s.  1000.000374: hrtimer_expire_exit: hrtimer=ffff88001fa0e980\n"
	"     kworker/0:1-100   [000] ..s.  1000.000374: hrtimer_start: hrtimer=ffff88001fa0e980 function=0xffffffff810ae0d0 expires=10509632282370 softexpires=10509632282370\n"
	"     kworker/0:1-100   [000] ..s.  1000.003687: hrtimer_cancel: hrtimer=ffff88001fa0e980\n"
	"     kworker/0:1-100   [000] ..s.  1000.003688: hrtimer_expire_entry: hrtimer=ffff88001fa0e980 function=0xffffffff810ae0d0 now=10509632298760\n"
	"     kworker/0:1-100   [000] ..s.  1000.003695: hrtimer_expire_exit: hrtimer=ffff88001fa0e980\n"
	"     kworker/0:1-100   [000] ..s.  1000.003696: hrtimer_start: hrtimer=ffff88001fa0e980 function=0xffffffff810ae0d0 expires=10509635615703 softexpires=10509635615703\n"
	"     kworker/0:1-100   [000] ..s.  1000.007067: hrtimer_cancel: hrtimer=ffff88001fa0e980\n"
	"     kworker/0:1-100   [000] ..s.  1000.007069: hrtimer_expire_entry: hrtimer=ffff88001fa0e980 function=0xffffffff810ae0d0 now=10509635678040\n"
	"     kworker/0:1-100   [000] ..s.  1000.007082: hrtimer_expire_exit: hrtimer=ffff88001fa0e980\n"
	"     kworker/0:1-100   [000] ..s.  1000.007082: hrtimer_start: hrtimer=ffff88001fa0e980 function=0xffffffff810ae0d0 expires=10509638949036 softexpires=10509638949036\n"
	"     kworker/0:1-100   [000] ..s.  1000.010369: hrtimer_cancel: hrtimer=ffff88001fa0e980\n"
	"     kworker/0:1-100   [000] ..s.  1000.010371: hrtimer_expire_entry: hrtimer=ffff88001fa0e980 function=0xffffffff810ae0d0 now=10509638980390\n"
	"     kworker/0:1-100   [000] ..s.  1000.010377: hrtimer_expire_exit: hrtimer=ffff88001fa0e980\n"
	"     kworker/0:1-100   [000] ..s.  1000.010377: hrtimer_start: hrtimer=ffff88001fa0e980 function=0xffffffff810ae0d0 expires=10509642282369 softexpires=10509642282369\n";
	json h = hrtimers_of("hr36.txt", text);
	ck_assert_uint_eq(u(h, "starts"), 4);
	ck_assert_uint_eq(u(h, "cancels_in_expiry"), 4);
	ck_assert_uint_eq(u(h, "cancels"), 0);
	ck_assert_uint_eq(u(h, "expiries"), 4);
	ck_assert_uint_eq(u(h, "same_interrupt"), 3);
	ck_assert_uint_eq(u(h, "not_armed"), 1);
	ck_assert_uint_eq(u(h, "simulated_only"), 0);
	ck_assert_uint_eq(u(h["cpus"][0], "predicted_interrupts"), 3);
}
END_TEST

// linux-3.6-scp_dest at 1013.913 s: hrtimer_start of an armed timer logs a
// cancel, then the start (no was_armed in 3.6): one re-arm, no cancel.
START_TEST(a_36_rearm_is_logged_as_cancel_and_start)
{
	std::string text = std::string(header_3) + "     kworker/0:1-100   [000] ..s.  1000.000000: timer_init: timer=ffff88001d49b8c0\n" +
	"     kworker/0:1-100   [000] ..s.  1013.913101: hrtimer_cancel: hrtimer=ffff88001db89e38\n"
	"     kworker/0:1-100   [000] ..s.  1013.913264: hrtimer_start: hrtimer=ffff88001db89e38 function=0xffffffff8105ccf0 expires=10533541876389 softexpires=10533541876389\n";
	json h = hrtimers_of("hr36rearm.txt", text);
	ck_assert_uint_eq(u(h, "rearms"), 1);
	ck_assert_uint_eq(u(h, "cancels"), 0);
	ck_assert_uint_eq(u(h, "starts"), 1);
}
END_TEST

// tests/data/measured-network-quiet.txt.gz: a sleeper woken early cancels
// its hrtimer_wakeup (a cancel); dl_task_timer is canceled, then started
// again - on 6.18, whose start prints was_armed, that cancel is a cancel.
START_TEST(on_618_a_cancel_is_a_cancel)
{
	std::string text = std::string(header_6) +
	"     rcu_preempt-15      [001] d..1. 15129.995019: timer_start: timer=00000000b5199443 function=process_timeout expires=4298674736 [timeout=1] bucket_expiry=4298674737 cpu=1 idx=49 flags=\n"
	"           pkill-30257   [000] dN.3. 15130.053830: hrtimer_cancel: hrtimer=00000000283afc1d\n"
	"           pkill-30257   [000] dN.3. 15130.053831: hrtimer_start: hrtimer=00000000283afc1d function=dl_task_timer expires=15130980951389 softexpires=15130980951389 mode=ABS|HARD was_armed=0\n"
	"         python3-30255   [000] d..1. 15134.447181: hrtimer_start: hrtimer=000000006e1cfa17 function=hrtimer_wakeup expires=15134924797753 softexpires=15134924297755 mode=ABS was_armed=0\n"
	"         python3-30255   [000] d..1. 15134.476199: hrtimer_cancel: hrtimer=000000006e1cfa17\n";
	json h = hrtimers_of("hr618cancel.txt", text);
	ck_assert_uint_eq(u(h, "cancels"), 2);
	ck_assert_uint_eq(u(h, "rearms"), 0);
	ck_assert_uint_eq(u(h, "starts"), 2);
	ck_assert_uint_eq(u(h, "expiries"), 0);
}
END_TEST

// ../shared/traces/linux-6.18-http, `trace-cmd report` (whose hrtimer_start
// has no was_armed): CPU 0 goes idle at 949.572806, stops its tick (a
// cancel) and starts it again 6.4 ms later, 7 events after. A re-arm's
// cancel and start are microseconds apart (base lock held, interrupts
// off): so far apart they are a cancel, then a start.
START_TEST(a_stopped_tick_restarted_later_is_no_rearm)
{
	std::string text = "cpus=2\n"
	"          <idle>-0     [000]   949.572803: timer_base_idle:      is_idle=1 cpu=0\n"
	"          <idle>-0     [000]   949.572804: tick_stop:            success=1 dependency=NONE\n"
	"          <idle>-0     [000]   949.572806: hrtimer_cancel:       hrtimer=0xffff888627c1c6f8\n"
	"          <idle>-0     [001]   949.576779: hrtimer_expire_entry: hrtimer=0xffff888627d1c6f8 now=949552010166 function=tick_nohz_handler/0x0\n"
	"          <idle>-0     [001]   949.576785: hrtimer_expire_exit:  hrtimer=0xffff888627d1c6f8\n"
	"          <idle>-0     [001]   949.576786: hrtimer_start:        hrtimer=0xffff888627d1c6f8 function=tick_nohz_handler/0x0 expires=949556000000 softexpires=949556000000\n"
	"          <idle>-0     [000]   949.579175: hrtimer_start:        hrtimer=0xffff888627c1c6f8 function=tick_nohz_handler/0x0 expires=949556000000 softexpires=949556000000\n";
	json h = hrtimers_of("hrtickstop.txt", text);
	ck_assert_uint_eq(u(h, "cancels"), 1);
	ck_assert_uint_eq(u(h, "rearms"), 0);
	ck_assert_uint_eq(u(h, "starts"), 2);
}
END_TEST

int main()
{
	Suite *s = suite_create("hrtimer_replay");
	TCase *tc = tcase_create("hrtimer_replay");
	tcase_add_test(tc, a_618_window_with_its_interrupts);
	tcase_add_test(tc, the_36_cancel_before_each_expiry_and_periodic_restart);
	tcase_add_test(tc, a_36_rearm_is_logged_as_cancel_and_start);
	tcase_add_test(tc, on_618_a_cancel_is_a_cancel);
	tcase_add_test(tc, a_stopped_tick_restarted_later_is_no_rearm);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
