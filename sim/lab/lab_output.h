// What `timersim lab KIND` prints: the arguments echoed (OSTEP style, so
// any problem can be made again), the questions, and with -c the answers
// and their working; or all of it as JSON for an autograder.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
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

// `lab KIND ... --questions-out FILE`: what a student is handed, questions
// only (a private variant's too: no key and no answer in it). A header of
// '#' comments, then per question
//   # Question 1 of 3: place 7
//   #   the question's lines
//   #   Answer as: LEVEL[SLOT]
//   place 7 =
// so that the file is both `lab check --questions FILE`'s list and the
// answers file a student fills in after each '=' (the browser lab does).
std::string questions_file(const lab_request &req);

// A handed-out questions file read back: each question's answer key, its
// text (the comment lines under "# Question", without their "#   ") and
// the answer already written after its '=' (empty when none). Lines that
// are neither are skipped: the file is `lab check`'s to judge.
struct handed_question {
	std::string key, question, answer_form, answer;
};
std::vector<handed_question> read_handed_questions(std::string_view text);
// Questions and answers (always), for an autograder.
std::string lab_json(const lab_request &req);

}  // namespace timersim::lab
