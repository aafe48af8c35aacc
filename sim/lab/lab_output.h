// What `timersim lab KIND` prints: the arguments echoed (OSTEP style, so
// any problem can be made again), the questions, and with -c the answers
// and their working; or all of it as JSON for an autograder.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/lab/exercise.h"

namespace timersim::lab {

struct lab_request {
	lab_kind kind = lab_kind::place;
	std::string seed = "0";	// a seed, or F1.. for the fixed exercises
	unsigned count = 1;	// questions: seeds seed, seed+1, ... (F1, F2, ...)
	bool compute = false;	// -c
	lab_config cfg;
	std::string student, secret;	// a private variant: --student ID --secret KEY
};

// The exercises a request names. Throws usage_error for a bad seed or count.
std::vector<exercise_ref> refs_of(const lab_request &req);

std::string lab_text(const lab_request &req);
// Questions and answers (always), for an autograder.
std::string lab_json(const lab_request &req);

}  // namespace timersim::lab
