// `timersim step` on a scenario of hrtimers (sim/lab/scenario.h: hrstart,
// hrcancel, run-to-ns, show): one CPU's hrtimer_cpu_base of kernel/hrtimer.h
// (4.16+ bases, high resolution mode, CLOCK_MONOTONIC), statement by
// statement, with the base and the device after each:
//
//   line 2: hrstart B 12000
//     + B queued on MONOTONIC  12000 (its range: 12000..12000)
//     device programmed for 12000
//     now 0  expires_next 12000 (B)  device fires at 12000
//       MONOTONIC  B@12000 A@10000..15000
//
// Event lines (--explain adds the kernel's rule under each, indented):
//   + A queued on MONOTONIC  S..E      hrtimer_start_range_ns()
//   - A cancelled                       hrtimer_try_to_cancel() removed it
//   * interrupt at T                    the device fired (hrtimer_interrupt())
//   ! A ran at T (softexpires S, expires E)
//   ~ HRTIMER_SOFTIRQ at T             the soft timers' turn
//   device programmed for T | device not reprogrammed | device stopped
//   device programmed for: T           (show)
// The model decides everything; the explanations read its counters
// (reprograms, skips and their reasons) around each statement.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/lab/scenario.h"
#include "sim/lab/step.h"

namespace timersim::lab {

// A timer's callback run.
struct hr_run {
	std::string timer;
	std::uint64_t at = 0;		// now: the interrupt's (or softirq's) time
	std::uint64_t softexpires = 0, expires = 0;
	bool softirq = false;		// in HRTIMER_SOFTIRQ
};

struct hr_event {
	std::string text;	// the event line
	std::string why;	// the kernel's rule, '\n'-separated lines
};

struct hr_record {
	std::uint64_t line = 0;
	std::string text;
	std::uint64_t at = 0;			// now when it began
	std::vector<hr_event> events;
	std::vector<hr_run> runs;
	std::uint64_t interrupts = 0;
	std::optional<std::uint64_t> device;	// show: the device's next event (max_hr_ns... : none)
	bool device_stopped = false;		// show: nothing programmed
	std::string picture;			// the base after it
};

// The most device interrupts one run-to-ns may take: a periodic timer of
// 1 ns run over years would otherwise never end.
constexpr std::uint64_t max_hr_interrupts_per_statement = 100000;
// The most callback runs one statement may take: a periodic timer whose
// slack is not below its period is due again as soon as it is forwarded,
// and the interrupt would run it for ever (as the kernel's would).
constexpr std::uint64_t max_hr_runs_per_statement = 100000;

// Runs every statement, calling `each` after each. A statement the base
// cannot do (a time before now, too many interrupts, a soft re-start of a
// hard timer) throws input_error(source, line, reason). Without `picture`,
// the records' pictures are left empty (one walks every queued timer).
void run_hr_scenario(const scenario &s, const std::function<void(const hr_record &)> &each, bool picture = true);

// The text and JSON of `timersim step` for such a scenario; past
// `picture_budget` bytes of output, the steps list what changed, not the
// whole base (as the wheel's do: sim/lab/step.h), and the JSON's `queued`
// is null.
void write_hr_step_text(const scenario &s, bool explain, const std::function<void(std::string_view)> &write,
			std::size_t picture_budget = step_picture_budget);
void write_hr_step_json(const scenario &s, const std::function<void(std::string_view)> &write,
			std::size_t picture_budget = step_picture_budget);

}  // namespace timersim::lab
