// `timersim view SCENARIO`: the page of a lab scenario (sim/lab/scenario.h),
// run through the lab's step machinery (sim/lab/step.h) on the classic or
// the v48 wheel, so that students watch their scenario as `timersim step`
// prints it: frame 0 is the wheel before the first statement, frame k the
// wheel after statement k.
//
// The data document has the keys of view_data() (sim/view/view_page.h)
// that the wheel needs, one CPU, no timeline and no report, plus
//   lab:    {setup: {scheme, hz, word_bits, base_small, order, start},
//            wheel: the lab wheel's description,
//            statements: [[line, statement, at, frame, shows_next, next_interrupt]]}
//            (shows_next: a `show` found when the CPU must wake: next_interrupt)
//   worst:  {cpu, frame, jiffy, moves, expired}   the statement that moved most
// and in window.events, per statement, its events (placements and moves
// carry the lab's reasoning as a last element; their position is the end
// of the list), then
//   ["S", cpu, [per base [per level [[slot, [[id, expires, bucket_expiry,
//          deferrable], ...]], ...]]]]   the lab's snapshot after it: the truth
//   ["F", cpu, now, seconds since start, [base clocks], "line N: statement"]
#pragma once

#include <string>

#include "sim/lab/scenario.h"
#include "sim/lab/step.h"

namespace timersim {

std::string scenario_view_data(const lab::scenario &s, const lab::step_options &opt);
std::string scenario_view_html(const lab::scenario &s, const lab::step_options &opt);

}  // namespace timersim
