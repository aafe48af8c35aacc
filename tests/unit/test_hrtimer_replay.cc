// The hrtimer replay on real trace lines, each quirk of the tracepoints
// with its own test, the figures worked out by hand from the lines:
// a 6.18 window with the timer interrupt recorded; the 3.6 kernel's
// cancel before every expiry and periodic re-start after it; a re-arm
// logged as cancel + start where start has no was_armed; and on 6.18,
// whose start prints was_armed, a cancel before a start is a cancel.
#include <string>

#include <nlohmann/json.hpp>

#include "sim/gen/tracefs_header.h"
#include "tests/support/check_main.h"
#include "tests/support/cli.h"
#include "tests/support/text_trace_util.h"

using namespace timersim::test;
using nlohmann::json;

namespace {

// Raw tracefs text headers of the two kernels, counts as in the recordings
// these lines come from.
const std::string header_6 = timersim::gen::tracefs_header(timersim::gen::kernel_gen::linux6, 93864, 2);
const std::string header_3 = timersim::gen::tracefs_header(timersim::gen::kernel_gen::linux3, 63621, 1);

json hrtimers_of(const std::string &name, const std::string &text)
{
	return replay_json({write_temp(name, text)})["hrtimers"];
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

// ../shared/traces/linux-6.18-http, CPU 1 from 949.624628 s (its hrtimer
// lines, and one wheel timer_start): CPU 1 logs no hrtimer_start when its
// idle stops or restarts the tick. Worked by hand:
//   949.636792  tick, first seen at an expiry: armed before the window;
//   949.640793, 949.872804  armed by the traced starts: same interrupt
//               (no event on CPU 1 in between: the model's tick waits);
//   949.876795  expired at 949.872804 without a re-start, expires again:
//               re-armed untraced, told to the model at the expiry, on the
//               tick's grid (949852000000); CPU 1's tick is known so;
//   949.968804  armed by the start at 949.876804: same interrupt;
//   949.972798  re-armed untraced again;
//   950.125168  the sleeper's interrupt, though the model's tick was due at
//               949952000000 before it: the kernel would have run the tick
//               first, so it had moved it: the first stop inferred;
//   950.128798  re-armed untraced (after the inferred stop);
//   950.464187  an event on CPU 1 long after the tick's 950108000000: the
//               second stop inferred; 950.464798 re-armed untraced.
// Nine expiries: eight in the same interrupt, four of them re-armed
// untraced; one armed before the window. The model's device came due for
// all eight.
START_TEST(a_tick_stopped_and_restarted_untraced_is_inferred)
{
	std::string text = std::string(header_6) +
	"         python3-13826   [001] d..1.   949.624628: hrtimer_start: hrtimer=0000000024e3d7eb function=hrtimer_wakeup expires=950100358915 softexpires=950099858916 mode=ABS was_armed=0\n"
	"          <idle>-0       [001] d.h1.   949.636792: hrtimer_expire_entry: hrtimer=00000000d8040f62 function=tick_nohz_handler now=949612022611\n"
	"          <idle>-0       [001] d.h1.   949.636799: hrtimer_expire_exit: hrtimer=00000000d8040f62\n"
	"          <idle>-0       [001] d.h2.   949.636799: hrtimer_start: hrtimer=00000000d8040f62 function=tick_nohz_handler expires=949616000000 softexpires=949616000000 mode=ABS was_armed=0\n"
	"          <idle>-0       [001] d.h1.   949.640793: hrtimer_expire_entry: hrtimer=00000000d8040f62 function=tick_nohz_handler now=949616022103\n"
	"          <idle>-0       [001] d.h1.   949.640801: hrtimer_expire_exit: hrtimer=00000000d8040f62\n"
	"          <idle>-0       [001] d.h2.   949.640801: hrtimer_start: hrtimer=00000000d8040f62 function=tick_nohz_handler expires=949620000000 softexpires=949620000000 mode=ABS was_armed=0\n"
	"          <idle>-0       [001] d.h1.   949.872804: hrtimer_expire_entry: hrtimer=00000000d8040f62 function=tick_nohz_handler now=949848033692\n"
	"          <idle>-0       [001] d.h1.   949.872810: hrtimer_expire_exit: hrtimer=00000000d8040f62\n"
	"          <idle>-0       [001] d.h1.   949.876795: hrtimer_expire_entry: hrtimer=00000000d8040f62 function=tick_nohz_handler now=949852026889\n"
	"          <idle>-0       [001] d.h1.   949.876803: hrtimer_expire_exit: hrtimer=00000000d8040f62\n"
	"          <idle>-0       [001] d.h2.   949.876804: hrtimer_start: hrtimer=00000000d8040f62 function=tick_nohz_handler expires=949856000000 softexpires=949856000000 mode=ABS was_armed=0\n"
	"          <idle>-0       [001] d.h1.   949.968804: hrtimer_expire_entry: hrtimer=00000000d8040f62 function=tick_nohz_handler now=949944036935\n"
	"          <idle>-0       [001] d.h1.   949.968809: hrtimer_expire_exit: hrtimer=00000000d8040f62\n"
	"     kworker/1:1-41      [001] d..3.   949.968843: hrtimer_cancel: hrtimer=00000000fde7be39\n"
	"     kworker/1:1-41      [001] d..3.   949.968843: hrtimer_start: hrtimer=00000000fde7be39 function=dl_task_timer expires=950894077959 softexpires=950894077959 mode=ABS|HARD was_armed=0\n"
	"          <idle>-0       [001] d.h1.   949.972798: hrtimer_expire_entry: hrtimer=00000000d8040f62 function=tick_nohz_handler now=949948026632\n"
	"          <idle>-0       [001] d.h1.   949.972803: hrtimer_expire_exit: hrtimer=00000000d8040f62\n"
	"          <idle>-0       [001] d.h2.   949.972804: hrtimer_start: hrtimer=00000000d8040f62 function=tick_nohz_handler expires=949952000000 softexpires=949952000000 mode=ABS was_armed=0\n"
	"          <idle>-0       [001] d.h1.   950.125168: hrtimer_expire_entry: hrtimer=0000000024e3d7eb function=hrtimer_wakeup now=950100397882\n"
	"          <idle>-0       [001] dNh1.   950.125179: hrtimer_expire_exit: hrtimer=0000000024e3d7eb\n"
	"         python3-13826   [001] .....   950.125265: hrtimer_setup: hrtimer=00000000ce39ef92 clockid=CLOCK_MONOTONIC mode=ABS\n"
	"         python3-13826   [001] d..1.   950.125266: hrtimer_start: hrtimer=00000000ce39ef92 function=hrtimer_wakeup expires=950600997577 softexpires=950600497578 mode=ABS was_armed=0\n"
	"         python3-13826   [001] d..3.   950.125268: hrtimer_cancel: hrtimer=00000000fde7be39\n"
	"         python3-13826   [001] d..3.   950.125268: hrtimer_start: hrtimer=00000000fde7be39 function=dl_task_timer expires=951050502586 softexpires=951050502586 mode=ABS|HARD was_armed=0\n"
	"          <idle>-0       [001] d.h1.   950.128798: hrtimer_expire_entry: hrtimer=00000000d8040f62 function=tick_nohz_handler now=950104028530\n"
	"          <idle>-0       [001] d.h1.   950.128806: hrtimer_expire_exit: hrtimer=00000000d8040f62\n"
	"          <idle>-0       [001] d.h2.   950.128806: hrtimer_start: hrtimer=00000000d8040f62 function=tick_nohz_handler expires=950108000000 softexpires=950108000000 mode=ABS was_armed=0\n"
	"          <idle>-0       [001] d.h2.   950.464057: timer_start: timer=00000000cb2e2867 function=mix_interrupt_randomness expires=4295129875 [timeout=0] bucket_expiry=4295129876 cpu=1 idx=20 flags=P\n"
	"            curl-13868   [001] d..3.   950.464187: hrtimer_cancel: hrtimer=00000000fde7be39\n"
	"            curl-13868   [001] d..3.   950.464188: hrtimer_start: hrtimer=00000000fde7be39 function=dl_task_timer expires=951389422224 softexpires=951389422224 mode=ABS|HARD was_armed=0\n"
	"          <idle>-0       [001] d.h1.   950.464798: hrtimer_expire_entry: hrtimer=00000000d8040f62 function=tick_nohz_handler now=950440031314\n"
	"          <idle>-0       [001] d.h1.   950.464805: hrtimer_expire_exit: hrtimer=00000000d8040f62\n";
	json h = hrtimers_of("hruntracedtick.txt", text);
	ck_assert_uint_eq(u(h, "expiries"), 9);
	ck_assert_uint_eq(u(h, "same_interrupt"), 8);
	ck_assert_uint_eq(u(h, "other_interrupt"), 0);
	ck_assert_uint_eq(u(h, "not_armed"), 1);
	ck_assert_uint_eq(u(h, "rearmed_untraced"), 4);
	ck_assert_uint_eq(u(h, "rearmed_untraced_same_interrupt"), 4);
	ck_assert_uint_eq(u(h, "tick_stops_inferred"), 2);
	ck_assert(h["untraced_tick_cpus"] == json::array({1}));
	const json &cpu1 = h["cpus"][1];
	ck_assert_uint_eq(u(cpu1, "recorded_interrupts"), 9);
	ck_assert_uint_eq(u(cpu1, "predicted_interrupts"), 8);
	ck_assert_uint_eq(u(cpu1, "both"), 8);
}
END_TEST

// The same recording, CPU 0: a timerfd's timer expires every second and no
// hrtimer_start of it is ever traced. The first expiry: armed before the
// trace; the second: re-armed untraced, at its `now` (its range unknown, so
// no lateness is counted for it). No tick is involved (a wheel timer's
// start between them makes it a timer trace).
START_TEST(a_timer_rearmed_untraced_is_told_at_its_expiry)
{
	std::string text = std::string(header_6) +
	"          <idle>-0       [000] d.h1.   949.636321: hrtimer_expire_entry: hrtimer=000000001bfb23e2 function=timerfd_tmrproc now=949611550371\n"
	"          <idle>-0       [000] dNh1.   949.636331: hrtimer_expire_exit: hrtimer=000000001bfb23e2\n"
	"          <idle>-0       [000] d.s2.   949.736807: timer_start: timer=00000000008935a6 function=tcp_orphan_update expires=4295129719 [timeout=25] bucket_expiry=4295129720 cpu=0 idx=56 flags=D\n"
	"          <idle>-0       [000] d.h1.   950.636474: hrtimer_expire_entry: hrtimer=000000001bfb23e2 function=timerfd_tmrproc now=950611708593\n"
	"          <idle>-0       [000] dNh1.   950.636479: hrtimer_expire_exit: hrtimer=000000001bfb23e2\n";
	json h = hrtimers_of("hrtimerfd.txt", text);
	ck_assert_uint_eq(u(h, "expiries"), 2);
	ck_assert_uint_eq(u(h, "not_armed"), 1);
	ck_assert_uint_eq(u(h, "rearmed_untraced"), 1);
	ck_assert_uint_eq(u(h, "same_interrupt"), 1);
	ck_assert_uint_eq(u(h, "tick_stops_inferred"), 0);
	ck_assert(h["untraced_tick_cpus"].empty());
	ck_assert_uint_eq(u(h, "lateness_max_ns"), 0);
	ck_assert_uint_eq(u(h["cpus"][0], "predicted_interrupts"), 1);
}
END_TEST

// 2026 kernels (the hrtimer rework of February 2026): hrtimer_rearm
// (`next_event=%llu deferred=%d`, CLOCK_MONOTONIC) is each programming of
// the clockevent device; hrtimer_start_expired (`hrtimer=%p`, after its
// hrtimer_start) is a user timer started already past its softexpires as
// the first to expire: taken off again, its callback not run. Lines in
// those formats on the 6.18 tick's, worked by hand (timestamps are
// CLOCK_MONOTONIC here): the tick armed before the window (never armed);
// re-started for 100.004 s, which the first rearm says; a sleep started
// for 100.00085 s at 100.001 s, already past: taken off, the device set
// back to the tick (the second rearm); the tick at 100.004 s in the same
// interrupt, the sleep never run; the fourth rearm names a time the model
// has no timer for. Four programmings recorded, three matched.
START_TEST(the_2026_rearm_and_start_expired_events)
{
	std::string text = std::string(header_6) +
	"          <idle>-0       [000] d.h1.   100.000010: hrtimer_expire_entry: hrtimer=00000000313ac2bd function=tick_nohz_handler now=100000010000\n"
	"          <idle>-0       [000] d.h1.   100.000015: hrtimer_expire_exit: hrtimer=00000000313ac2bd\n"
	"          <idle>-0       [000] d.h2.   100.000016: hrtimer_start: hrtimer=00000000313ac2bd function=tick_nohz_handler expires=100004000000 softexpires=100004000000 mode=ABS|PINNED|HARD was_armed=0\n"
	"          <idle>-0       [000] d.h1.   100.000018: hrtimer_rearm: next_event=100004000000 deferred=1\n"
	"           sleep-22541   [000] d..1.   100.001000: hrtimer_start: hrtimer=0000000024e3d7eb function=hrtimer_wakeup expires=100000900000 softexpires=100000850000 mode=ABS was_armed=0\n"
	"           sleep-22541   [000] d..1.   100.001001: hrtimer_start_expired: hrtimer=0000000024e3d7eb\n"
	"           sleep-22541   [000] d..1.   100.001002: hrtimer_rearm: next_event=100004000000 deferred=0\n"
	"     rcu_preempt-15      [000] d..1.   100.002000: timer_start: timer=00000000315ef0ae function=process_timeout expires=4295129717 [timeout=1] bucket_expiry=4295129718 cpu=0 idx=54 flags=\n"
	"          <idle>-0       [000] d.h1.   100.004010: hrtimer_expire_entry: hrtimer=00000000313ac2bd function=tick_nohz_handler now=100004010000\n"
	"          <idle>-0       [000] d.h1.   100.004015: hrtimer_expire_exit: hrtimer=00000000313ac2bd\n"
	"          <idle>-0       [000] d.h2.   100.004016: hrtimer_start: hrtimer=00000000313ac2bd function=tick_nohz_handler expires=100008000000 softexpires=100008000000 mode=ABS|PINNED|HARD was_armed=0\n"
	"          <idle>-0       [000] d.h1.   100.004018: hrtimer_rearm: next_event=100008000000 deferred=1\n"
	"          <idle>-0       [000] d.h1.   100.004020: hrtimer_rearm: next_event=100012000000 deferred=0\n";
	json h = hrtimers_of("hr2026.txt", text);
	ck_assert_uint_eq(u(h, "starts_expired"), 1);
	ck_assert(h["rearm_events"].get<bool>());
	ck_assert_uint_eq(u(h["cpus"][0], "recorded_programs"), 4);
	ck_assert_uint_eq(u(h["cpus"][0], "programs_matched"), 3);
	ck_assert_uint_eq(u(h, "expiries"), 2);
	ck_assert_uint_eq(u(h, "same_interrupt"), 1);
	ck_assert_uint_eq(u(h, "not_armed"), 1);
	ck_assert_uint_eq(u(h, "simulated_only"), 0);
	// The sleep never ran in the model: its only interrupt was the tick's.
	ck_assert_uint_eq(u(h["cpus"][0], "predicted_interrupts"), 1);
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
	tcase_add_test(tc, a_tick_stopped_and_restarted_untraced_is_inferred);
	tcase_add_test(tc, a_timer_rearmed_untraced_is_told_at_its_expiry);
	tcase_add_test(tc, the_2026_rearm_and_start_expired_events);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
