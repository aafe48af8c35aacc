// The cost model's file: what `timersim cost-model` writes and `replay` /
// `compare --cost-model` read. JSON with the coefficients, their
// intervals, which terms were fitted, the traces fitted on and the
// bootstrap's draws (the intervals of a prediction come from them).
#pragma once

#include <string>

#include "sim/measured/run_model.h"

namespace timersim::measured {

std::string model_json(const cost_model &m);
// Throws input_error naming the file and what is wrong.
cost_model load_model(const std::string &path);

}  // namespace timersim::measured
