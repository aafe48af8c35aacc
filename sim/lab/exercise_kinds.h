// Inside the lab: what each kind of exercise supplies (one file per kind,
// sim/lab/kind_*.cc), and the pieces they share.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/lab/exercise.h"
#include "sim/lab/explain.h"
#include "sim/lab/rng.h"

namespace timersim::lab {

struct kind_def {
	lab_kind kind;
	const char *name;
	unsigned fixed;		// how many fixed exercises: F1 .. Ffixed
	// Fill ex (its ref is set): from rng, or fixed exercise `fixed_index`
	// (1-based) when rng is null.
	void (*make)(exercise &ex, lab_rng *rng, unsigned fixed_index);
	// The answer as the records show it (see answer_of()).
	std::string (*answer)(const exercise &ex, const std::vector<step_record> &records);
	// The worked steps, from the lab wheel's own records.
	std::vector<std::string> (*working)(const exercise &ex, const std::vector<step_record> &records);
};

extern const kind_def place_kind, cascade_kind, fire_kind, next_kind, wrap_kind, v48_kind, cost_kind, coalesce_kind;

// ---- shared by the kinds ----

// A scenario with the exercise's wheel settings.
scenario scenario_for(const lab_config &cfg);
scenario_op arm_op(op_kind kind, const std::string &timer, std::uint64_t expires, int relative = 0);
scenario_op plain_op(op_kind kind, std::uint64_t value = 0);	// tick, run-to, show
// Appends op with its line (its position) and text.
void push(scenario &s, scenario_op op);

// The classic geometry and its description for a config.
classic_shape classic_shape_for(const lab_config &cfg);
std::string classic_wheel_line(const lab_config &cfg);

// "tv2[1]", with '?' for what a view did not see.
std::string place_name(const std::string &level, unsigned slot);

// Every event of `kind` in the records, in order.
std::vector<const wheel_event *> events_of(const std::vector<step_record> &records, wheel_event_kind kind);

// The statements of the scenario, one a line, for a question.
std::string scenario_lines(const scenario &s);

// The `why` of an event as working lines.
void add_why(std::vector<std::string> &working, const wheel_event &e, const std::string &indent = "  ");

}  // namespace timersim::lab
