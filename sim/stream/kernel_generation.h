// The recording kernel's generation, told by the events and fields its
// trace has, as a range of versions ("6.18..7.0"), and the timer rules of
// that range that the replay follows:
//
//   rt_zero_slack     6.12+ (and 6.1.132+, 6.6 stable): a real-time or
//                     deadline task has no timer slack at all
//                     (kernel/sched/syscalls.c __setscheduler_params() sets
//                     its timer_slack_ns to 0; kernel/sys.c prctl
//                     PR_SET_TIMERSLACK leaves it so). Before, only its
//                     nanosleep (kernel/time/hrtimer.c hrtimer_nanosleep(),
//                     `if (rt_task(current)) slack = 0`) and select/poll
//                     (fs/select.c select_estimate_accuracy()) had none;
//                     its futex waits took its slack.
//   tmigr_available   6.19+: timer migration leaves isolated CPUs out (an
//                     "available" mask; tmigr_cpu_available/unavailable).
//   deferred_rearm    7.1+: the hrtimer rework: the clockevent device is
//                     reprogrammed once, at the end of the interrupt
//                     (hrtimer_rearm next_event= deferred=), not at each
//                     start or cancel inside it.
//
// A range, not a version: a trace says only which events and fields its
// kernel printed. The rules of a range are those of its oldest version;
// `--kernel-rules VERSION` sets the version instead.
#pragma once

#include <string>
#include <string_view>

#include "sim/stream/trace_shape.h"

namespace timersim {

// A version as major * 100 + minor (6.18 is 618); 0 below: no bound.
struct kernel_generation {
	unsigned from = 0;		// the oldest version that prints what the trace has
	unsigned to = 0;		// the newest that lacks what it lacks (0: open)
	std::string evidence;		// "; "-joined: what set each bound
	bool overridden = false;	// --kernel-rules set the version
	// The rules of `from` (or of the version --kernel-rules named).
	bool rt_zero_slack = false;
	bool tmigr_available = false;
	bool deferred_rearm = false;

	// "6.18..7.0", "7.1+", "3.0..4.1", "6.19" (one version).
	std::string range() const;
	// The rules in force, comma-separated ("rt_zero_slack, ..."; "none").
	std::string rules() const;
	// The rules that came in a version after `from` within the range
	// (not followed: the range does not say), "rt_zero_slack (6.12+)";
	// "" when none, or --kernel-rules set the version.
	std::string undecided() const;
};

// "6.18" for 618.
std::string kernel_version_text(unsigned v);
// "6.19" or "7.1" -> 619, 701; false (and `err` says why) on anything else.
bool parse_kernel_version(std::string_view text, unsigned &v, std::string &err);

// The generation the shape's evidence points to, rules set from `from`.
kernel_generation detect_kernel_generation(const trace_shape &shape);
// The rules of version `v` (--kernel-rules): `g` keeps its range and
// evidence, and says the rules were set.
void set_kernel_rules(kernel_generation &g, unsigned v);

}  // namespace timersim
