// The grades of `timersim lab check` for an autograder: a score per
// question, with partial credit for an answer of several parts.
//
// A question is worth a point per part of its answer: `place` one
// (LEVEL[SLOT]), `wrap` six (initial=, expires=, naive=, after=, the slot,
// fires=), `cascade` one per moved timer plus the words before "move", and
// so on: the words of the normalised answer, a cascade's NAME LEVEL[SLOT]
// pairs each one part. A given answer earns a point for each expected part
// it holds, less one for each part it gives beyond the expected count (so
// that listing every guess earns nothing), never below 0. A line that is
// not an answer scores 0 of 1; given the assignment's questions, it scores
// 0 of 0 and the question it failed to answer counts as missing (0 of its
// parts), as does every question without an answer.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/lab/answers.h"

namespace timersim::lab {

struct graded_question {
	std::string name;	// "place 7", or "line 3" for a line that is not an answer
	unsigned score = 0, max_score = 0;
	std::string output;	// the verdict and what was given: no answer in it
	std::string answer;	// a wrong answer's expected one (and working): the key's
};

struct grade_report {
	std::vector<graded_question> tests;
	unsigned score = 0, max_score = 0;
};

// The parts of an answer (normalised for its kind).
std::vector<std::string> answer_parts(lab_kind kind, const std::string &answer);

// Points of `given` against `expected`: {score, max_score}.
std::pair<unsigned, unsigned> part_score(lab_kind kind, const std::string &expected, const std::string &given);

// `questions` empty: the answered lines are the questions. `working`:
// a wrong answer's `answer` holds the working after the expected answer.
grade_report make_grade_report(const check_result &r, const std::vector<exercise_ref> &questions, bool working);

// When students may see a wrong answer's expected answer (and working):
// never; after the due date (Gradescope's visibility "after_due_date");
// always (with the verdict).
enum class reveal_mode : std::uint8_t { never, after_due, always };
bool parse_reveal_mode(const std::string &name, reveal_mode &out);

// Gradescope's results.json: score, max_score, and tests[] with name,
// score, max_score, status, output and visibility. A question's test says
// the verdict and what was given; the expected answer is in it only with
// reveal_mode::always, else, after_due, in a test of its own ("KEY:
// expected answer", no score) with visibility "after_due_date".
std::string gradescope_json(const grade_report &g, reveal_mode reveal = reveal_mode::after_due);

// The same for other systems: score, max_score, right, wrong, and
// questions[] with name, score, max_score, output (and the expected
// answer, `answer`, when `reveal`).
std::string plain_json(const grade_report &g, const check_result &r, bool reveal);

}  // namespace timersim::lab
