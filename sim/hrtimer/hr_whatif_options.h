// What the hrtimer what-ifs of a replay are asked for (replay and compare:
// --what-if-hr-slack, --what-if-highres, --hr-queues; sim/hrtimer/hr_whatif.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace timersim {

struct hr_what_if_options {
	enum class slack_rule {
		recorded,	// no slack what-if
		exact,		// every timer: expires = softexpires (no range)
		user,		// user-space timers: expires = softexpires + user_slack_ns
	};
	slack_rule slack = slack_rule::recorded;
	std::int64_t user_slack_ns = 0;
	// The recording kernel's rule (6.12+, sim/stream/kernel_generation.h):
	// a real-time task's sleep keeps no slack whatever the what-if gives
	// user space. Set by the replay from the kernel generation.
	bool rt_zero_slack = false;
	bool highres_off = false;
	// --what-if-kernel 7.1: the same hrtimer stream under 7.1's rework
	// (tick/sched: the tick's restart a start of the queued tick, not a
	// cancel then a start: kernel/time/tick-sched.c tick_nohz_restart()).
	bool kernel_71 = false;	// hrtimers run from the tick (hrtimer_run_queues)
	std::vector<std::string> queues;	// queue designs fed the model's queue operations

	bool any() const { return slack != slack_rule::recorded || highres_off || kernel_71 || !queues.empty(); }
};

}  // namespace timersim
