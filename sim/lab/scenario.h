// The scenario language of `timersim step`: a few statements, one a line,
// that drive one base of a wheel by hand.
//
//   # a comment (also after a statement)
//   hz 250                 settings, before the first timer statement:
//   word-bits 32           the width of unsigned long jiffies (32 or 64)
//   base-small             CONFIG_BASE_SMALL geometry (classic)
//   order lifo             slot order: fifo (up to 4.1) or lifo (4.2+)
//   start 1000             the first jiffy (default 0); `start initial`:
//                          INITIAL_JIFFIES, five minutes before the wrap
//   add A 300              add_timer(): A expires at jiffy 300
//   add B +100 deferrable  ... 100 jiffies from now; a deferrable timer
//   mod A 1000 slack=10    mod_timer(): re-arm (or arm) A; slack=N sets
//                          timer->slack, slack=auto the 3.x default 0.4%
//   mod A 1130 round       expires through round_jiffies() (round-up:
//                          round_jiffies_up()) first
//   del A                  del_timer()
//   tick [N]               process the next N jiffies (default 1)
//   run-to 70000           process every jiffy up to and including 70000
//   show                   when the CPU must wake (NOHZ next timer interrupt)
//
// hrtimer statements (one CPU's hrtimer_cpu_base, CLOCK_MONOTONIC, in ns;
// a scenario holds these or the wheel's, not both; see sim/lab/hr_step.h):
//   hrstart A 10000 slack=5000   hrtimer_start_range_ns(): A may run from
//                          10000 (softexpires), must by 15000 (expires)
//   hrstart B +2000 soft period=4000   relative to now (HRTIMER_MODE_REL);
//                          soft: expires in HRTIMER_SOFTIRQ; period: the
//                          callback forwards it by whole periods past
//                          max(now, its expires) and restarts it
//   hrcancel A             hrtimer_try_to_cancel()
//   run-to-ns 20000        run to ns 20000 (or +N), every device interrupt
//                          on the way
//   show                   the time the device is programmed for
//
// Time: `now` is the jiffy the base processes next; a statement happens at
// now. Numbers are decimal or 0x hex; absolute values are in the word
// (a 32-bit kernel's jiffies wrap), `+N` / `-N` are relative to now.
// Timers have no slack unless a statement gives one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/lab/lab_wheel.h"

namespace timersim::lab {

enum class op_kind : std::uint8_t { add, mod, del, tick, run_to, show };

struct scenario_op {
	op_kind kind = op_kind::show;
	std::string timer;		// add, mod, del
	std::uint64_t value = 0;	// add/mod: expires (or its distance); tick: count; run-to: jiffy
	int relative = 0;		// add/mod: 0 absolute, +1 now + value, -1 now - value
	arm_options arm;		// add/mod
	std::uint64_t line = 0;		// 1-based line of the source
	std::string text;		// the statement as written, without comment
};

// An hrtimer statement (the hr* ones, run-to-ns, and show in a scenario of
// hrtimers); values in ns, below max_hr_ns.
enum class hr_op_kind : std::uint8_t { start, cancel, run_to, show };

struct hr_op {
	hr_op_kind kind = hr_op_kind::show;
	std::string timer;
	std::uint64_t value = 0;	// start: softexpires (or its distance); run-to-ns: the time (or distance)
	bool relative = false;		// +N: from now
	std::uint64_t slack = 0;	// start: expires - softexpires
	std::uint64_t period = 0;	// start: the callback restarts it this much later (0: once)
	bool soft = false;		// start: HRTIMER_MODE_SOFT
	std::uint64_t line = 0;
	std::string text;
};

// Times of an hrtimer scenario stay below this (about 31 years of ns), so
// that expires + slack and now + N never overflow a ktime_t.
constexpr std::uint64_t max_hr_ns = 1000000000000000000ull;

struct scenario {
	std::string source;		// file name, for errors
	std::optional<unsigned> hz;
	std::optional<unsigned> word_bits;
	std::optional<bool> base_small;
	std::optional<bool> lifo;
	std::optional<std::uint64_t> start;
	bool start_initial = false;	// start initial: INITIAL_JIFFIES of the HZ and width
	std::uint64_t start_line = 0;	// of the `start` setting, for errors
	std::vector<scenario_op> ops;
	std::vector<hr_op> hr_ops;	// an hrtimer scenario's statements (then ops is empty)
	bool is_hr() const { return !hr_ops.empty(); }
};

// A scenario is a small hand-written file: a longer line or a bigger file
// (a device, a binary, a runaway generator) is refused, not read into
// memory.
constexpr std::size_t max_scenario_line = 4096;		// bytes, with its line end
constexpr std::uint64_t max_scenario_bytes = std::uint64_t{64} << 20;
constexpr std::size_t max_scenario_statements = std::size_t{1} << 20;

// Throws input_error(source, line, reason) for a bad statement.
scenario parse_scenario(std::string_view text, const std::string &source);
// Reads and parses a file, a line at a time; input_error if it cannot be
// read, is not a file of lines (a directory), or is beyond the bounds.
scenario read_scenario(const std::string &path);

// Whether `text` is meant as a scenario: its first line that is not blank
// or a comment starts with a statement or setting of the language. A
// tool taking "a trace or a scenario" asks this once the trace readers
// refused the file, so that a scenario's mistakes are reported by line.
bool looks_like_scenario(std::string_view text);

// The statement's text, as parse_scenario() reads it back.
std::string render_op(const scenario_op &op);
std::string render_hr_op(const hr_op &op);
// The whole scenario, settings first: parse_scenario(render_scenario(s))
// gives the same settings and statements.
std::string render_scenario(const scenario &s);

}  // namespace timersim::lab
