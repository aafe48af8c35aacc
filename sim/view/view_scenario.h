// `timersim view SCENARIO`: the page of a lab scenario (sim/lab/scenario.h),
// run through the lab's step machinery (sim/lab/step.h) on the classic or
// the v48 wheel, so that students watch their scenario as `timersim step`
// prints it: frame 0 is the wheel before the first statement, frame k the
// wheel after statement k.
//
// The data document has the keys of view_data() (sim/view/view_page.h)
// that the wheel needs, one CPU, no timeline and no report, plus
//   lab:    {setup: {scheme, hz, word_bits, base_small, order, start},
//            wheel: the lab wheel's description, statements_total,
//            statements: [[line, statement, at, frame, shows_next, next_interrupt]]}
//            (shows_next: a `show` found when the CPU must wake: next_interrupt)
//   worst:  {cpu, frame, jiffy, moves, expired}   the statement that moved most
// and in window.events, per statement, its events (placements and moves
// carry the lab's reasoning as a last element; their position is where
// the wheel links a timer: the tail of a FIFO slot, the head of a LIFO
// slot or a v48 bucket), an ["E", id, cpu, expires] for a re-arm that
// changed no slot, then
//   ["F", cpu, now, seconds since start, [base clocks], "line N: statement"]
// The events rebuild every slot in list order from the empty keyframe, so
// the page grows with the events, not with statements times timers. Its
// data stops at the last whole statement within `budget` bytes
// (statements, events, timer names): then window.truncated is true and
// lab.statements holds fewer than statements_total. window.timers rows
// carry a seventh element: the timer is deferrable.
#pragma once

#include <cstddef>
#include <string>

#include "sim/lab/scenario.h"
#include "sim/lab/step.h"

namespace timersim {

// What a scenario's page holds at most, beside the page's fixed part.
constexpr std::size_t scenario_page_budget = std::size_t{4} << 20;

std::string scenario_view_data(const lab::scenario &s, const lab::step_options &opt,
			       std::size_t budget = scenario_page_budget);
std::string scenario_view_html(const lab::scenario &s, const lab::step_options &opt);

}  // namespace timersim
