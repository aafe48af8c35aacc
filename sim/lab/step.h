// `timersim step`: a scenario (sim/lab/scenario.h) through a lab wheel,
// statement by statement, with a compact picture of the wheel after each:
//
//   line 3: add A 300
//     + A -> tv2[1]  expires 300
//     now 0  timer_jiffies 0  index tv1 0 tv2 0 tv3 0 tv4 0 tv5 0
//       tv2[1]  A@300
//
// Event lines (--explain adds the reasoning under each, indented):
//   + A -> tv2[1]  expires 300        placed (re-armed: "(re-armed)")
//   = A stays in tv2[1]  expires 1008 a re-arm that changed nothing
//   - A deleted from tv2[1]
//   * cascade tv2[1] at 256: 2 timers  (empty ones only in a one-jiffy step)
//   > A tv2[1] -> tv1[44]             moved by that cascade
//   ! A fired at 300 from tv1[44]
//   next timer interrupt: 300         (show)
// Timers in the picture: NAME@EXPIRES, `~` after a deferrable one, and for
// v48 `>BUCKET_EXPIRY` when the bucket runs later than the expiry.
//
// A picture lists every pending timer, so a run's output would grow as
// statements times timers (10,000 `add` lines printed 648 MB). It is
// bounded as the view's page is: once the output passed `picture_budget`
// bytes (4 MiB), each statement lists what changed (its events), not the
// whole wheel; the text says so where the pictures stop and at the end,
// the JSON gives those steps `"wheel": null` and ends with
// "bounded": {"budget": BYTES, "from_line": N}.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/lab/lab_wheel.h"
#include "sim/lab/scenario.h"
#include "sim/lab/wheel_snapshot.h"

namespace timersim::lab {

// The output of a step run past which the pictures stop: the view's page
// budget (sim/view/view_scenario.h), which a scenario's page holds at most.
constexpr std::size_t step_picture_budget = std::size_t{4} << 20;

// The command line's choices; a value given here overrides the scenario's
// setting of the same name.
struct step_options {
	std::string scheme = "classic";
	std::optional<unsigned> hz;
	std::optional<unsigned> word_bits;
	std::optional<bool> base_small;
	std::optional<bool> lifo;
	bool explain = false;
	std::size_t picture_budget = step_picture_budget;
};

// The wheel a scenario runs on: options over scenario settings over the
// defaults (HZ 250, 64-bit, normal geometry, FIFO, start 0).
wheel_setup resolve_setup(const scenario &s, const step_options &opt);

struct step_record {
	std::uint64_t line = 0;		// of the statement in its source
	std::string text;		// the statement
	std::uint64_t at = 0;		// now when it began (in the word)
	std::vector<wheel_event> events;
	wheel_counters work;		// ticks and cascade calls it made
	bool not_pending = false;	// del of a timer that was not pending
	std::optional<std::uint64_t> next_interrupt;	// show
	wheel_snapshot after;
};

// Runs every statement on `wheel`, calling `each` after each one. A
// statement the wheel cannot do throws input_error(source, line, reason).
void run_scenario(const scenario &s, lab_wheel &wheel, const std::function<void(const step_record &)> &each);

// The expiry an add/mod statement asks for at `now` (unwrapped), in the
// word; and the last jiffy (unwrapped) a tick or run-to processes. Both
// throw input_error(source, line, reason) for a value out of range.
std::uint64_t statement_expiry(const scenario_op &op, const std::string &source, std::uint64_t now,
			       unsigned word_bits);
std::uint64_t statement_upto(const scenario_op &op, const std::string &source, std::uint64_t now,
			     unsigned word_bits);

// One statement on the wheel (what run_scenario() does per line);
// without `picture`, `after` holds the scheme alone, no base (a snapshot
// costs a walk of every pending timer).
step_record run_op(const scenario_op &op, const std::string &source, lab_wheel &wheel, bool picture = true);

// Output pieces: the header naming the wheel, one record (its picture when
// it has one), the closing line.
std::string format_header(const std::string &title, const lab_wheel &wheel);
std::string format_step(const step_record &r, bool explain);
std::string format_event(const wheel_event &e);
std::string format_picture(const wheel_snapshot &s);

// Totals over a whole run, for the closing line.
struct step_totals {
	std::uint64_t statements = 0, placed = 0, moved = 0, expired = 0, deleted = 0;
	std::uint64_t ticks = 0, cascade_calls = 0;
	void add(const step_record &r);
};
std::string format_totals(const step_totals &t, const wheel_snapshot &last);

// Runs the whole scenario and throws input_error for its first statement
// the wheel cannot do, printing nothing: a run that streams to standard
// output checks first, so that a mistake prints nothing but the error.
void check_scenario(const scenario &s, const step_options &opt);

// Where the output goes, piece by piece as the run makes it: the whole
// output is never held (a step's picture lists every pending timer).
using step_output = std::function<void(std::string_view)>;

// A run's output, counted against its picture budget: pictures() is true
// until the output passed it; stop(line) marks the first statement shown
// without one, and says whether this is it (the note goes there once).
class budgeted_output {
public:
	budgeted_output(const step_output &write, std::size_t budget) : write_(write), budget_(budget) {}
	void operator()(std::string_view piece)
	{
		written_ += piece.size();
		write_(piece);
	}
	bool pictures() const { return written_ < budget_; }
	bool stop(std::uint64_t line)
	{
		if (stopped_at_)
			return false;
		stopped_at_ = line ? line : 1;
		return true;
	}
	std::uint64_t stopped_at() const { return stopped_at_; }
	std::size_t budget() const { return budget_; }

private:
	const step_output &write_;
	std::size_t budget_;
	std::size_t written_ = 0;
	std::uint64_t stopped_at_ = 0;
};

// The text lines that say where the pictures stopped, and why; WHAT is
// what a picture shows ("wheel", "base").
std::string format_budget_note(const budgeted_output &out, const char *what);
std::string format_budget_end(const budgeted_output &out, const char *what);
// The text `timersim step` prints for a scenario.
void write_step_text(const scenario &s, const step_options &opt, const step_output &write);
// The same run as JSON: setup, and per statement its events and the wheel.
void write_step_json(const scenario &s, const step_options &opt, const step_output &write);
// Both as one string (tests, small scenarios).
std::string step_text(const scenario &s, const step_options &opt);
std::string step_json(const scenario &s, const step_options &opt);

}  // namespace timersim::lab
