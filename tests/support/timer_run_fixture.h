// A hand-worked stretch of one CPU that two tests price: one TIMER softirq
// run with a timer interrupt inside it, at HZ 250 (times in us):
//   1000 local_timer_entry; 1001-1003 the tick's hrtimer; 1004 exit
//        (irq 4 us own, 2 of them the tick's callback)
//   1005 TIMER softirq_entry
//   1006-1009 process_timeout (3 us): the first wheel timer after the
//        tick, so the interrupt at 1000 was for it (PowerTOP's rule)
//   1010 local_timer_entry, 1012 exit: 2 us, inside the run, no callback
//   1013-1014 tcp_write_timer (1 us)
//   1017 softirq_exit (run 12 - 2 = 10 us own, 4 in callbacks: 6 overhead)
#pragma once

#include <string>

#include "tests/support/cli.h"

namespace timersim::test {

// The body lines (ftrace_text() makes a trace of them).
inline std::string one_timer_run_body()
{
	std::string b;
	b += ftrace_line(0, 900, "timer_start: timer=0000000011111111 function=process_timeout expires=4294937297 [timeout=1] cpu=0 idx=0 flags=");
	b += ftrace_line(0, 905, "timer_start: timer=0000000022222222 function=tcp_write_timer expires=4294937297 [timeout=1] cpu=0 idx=0 flags=");
	b += ftrace_line(0, 1000, "local_timer_entry: vector=236");
	b += ftrace_line(0, 1001, "hrtimer_expire_entry: hrtimer=00000000aaaaaaaa function=tick_nohz_handler now=1001000000");
	b += ftrace_line(0, 1003, "hrtimer_expire_exit: hrtimer=00000000aaaaaaaa");
	b += ftrace_line(0, 1003, "softirq_raise: vec=1 [action=TIMER]");
	b += ftrace_line(0, 1004, "local_timer_exit: vector=236");
	b += ftrace_line(0, 1005, "softirq_entry: vec=1 [action=TIMER]");
	b += ftrace_line(0, 1006, "timer_cancel: timer=0000000011111111");
	b += ftrace_line(0, 1006, "timer_expire_entry: timer=0000000011111111 function=process_timeout now=4294937297 baseclk=4294937297");
	b += ftrace_line(0, 1009, "timer_expire_exit: timer=0000000011111111");
	b += ftrace_line(0, 1010, "local_timer_entry: vector=236");
	b += ftrace_line(0, 1012, "local_timer_exit: vector=236");
	b += ftrace_line(0, 1013, "timer_cancel: timer=0000000022222222");
	b += ftrace_line(0, 1013, "timer_expire_entry: timer=0000000022222222 function=tcp_write_timer now=4294937297 baseclk=4294937297");
	b += ftrace_line(0, 1014, "timer_expire_exit: timer=0000000022222222");
	b += ftrace_line(0, 1017, "softirq_exit: vec=1 [action=TIMER]");
	return b;
}

}  // namespace timersim::test
