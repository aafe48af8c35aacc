// The lab's plain data as JSON (sim/base/json_writer.h): the wheel set-up,
// a snapshot, an event and a step record. One writer for `step --json` and
// for the browser view, so both carry the same keys:
//
//   setup:    {scheme, hz, word_bits, base_small, order, start}
//   snapshot: {scheme, word_bits, now, pending, bases: [{name, clock,
//              levels: [{name, size, index, width, slots: [{slot,
//              timers: [{name, expires, bucket_expiry, deferrable}]}]}]}]}
//   event:    {kind, timer, base, jiffy, level, slot, from_level, from_slot,
//              expires, requested, bucket_expiry, clock, count, rearm, why}
//   step:     {line, statement, at, events, not_pending, shows_next,
//              next_interrupt (0 unless `show`), ticks, cascade_calls,
//              wheel: snapshot, or null past the picture budget}
//   bounded:  {budget, from_line}  the run's picture budget and the first
//              step without one, when the output passed it (sim/lab/step.h)
#pragma once

#include "sim/lab/lab_wheel.h"
#include "sim/lab/step.h"
#include "sim/lab/wheel_snapshot.h"
#include "sim/base/json_writer.h"

namespace timersim::lab {

void write_setup(json_writer &j, const wheel_setup &s);		// as key "setup"
void write_snapshot(json_writer &j, const wheel_snapshot &s);	// a value
void write_event(json_writer &j, const wheel_event &e);		// a value
void write_step(json_writer &j, const step_record &r);		// a value
void write_budget_json(json_writer &j, const budgeted_output &out);	// key "bounded", when passed

}  // namespace timersim::lab
