// The answers file of `timersim lab check`: one answer a line,
//
//   # comments and blank lines are skipped
//   place 7 = tv2[5]
//   place 8 --base-small = tv3[2]
//   wrap 3 --hz 1000 = initial=0xfffb6c20 expires=0x000003e8 naive=no after=yes tv1[232] fires=0x3e8
//
// KIND and ID (a seed, or F1.. for a fixed exercise), the wheel options the
// exercise was made with (--hz N, --word-bits N, --base-small; defaults
// omitted), '=', the answer in the form the question asks for; '#' starts a
// comment anywhere. Lines end with \n, \r\n or \r alone (the first line end
// decides; another kind inside a line is an error). A line that is not an
// answer (no '=', an unknown kind or option, an exercise that does not
// exist, no answer after '=') is graded wrong with the reason, and so is a
// second answer to an exercise already answered (naming both lines); every
// other line is still graded. Bounded as small text: lines up to 64 KiB,
// files up to 16 MiB and 100,000 answers, no control characters: a file
// that is not (and a file without answers) is refused whole. Answers
// are compared after normalising: case, commas, spaces around '=',
// numbers in hex or decimal, yes/no or true/false, and for `cascade` the
// order of the moved timers do not matter.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/lab/exercise.h"

namespace timersim::lab {

struct answer_line {
	std::uint64_t line = 0;
	exercise_ref ref;
	std::string given;
	std::string problem;	// why the line is not an answer; empty when it is
	std::string text;	// the line as written, without its comment
};

// Every line that holds something other than a comment, answer or not
// (`problem` says why not). Throws input_error(source, line, reason) for a
// file that is not a small text file.
std::vector<answer_line> parse_answers(std::string_view text, const std::string &source);

// The questions of an assignment, for `lab check --questions FILE`: a
// line each, KIND ID [options] (what follows a '=' is ignored, so a file of
// answers lists its questions too); '#' comments. Throws input_error
// naming the line for one that does not name an exercise.
std::vector<exercise_ref> read_questions_file(const std::string &path);
std::vector<exercise_ref> parse_questions(std::string_view text, const std::string &source);

// The left side of an answer line: "place 7", "wrap 3 --hz 1000".
std::string answer_key(const exercise_ref &ref);

// The comparable form of an answer.
std::string normalise_answer(lab_kind kind, const std::string &answer);
bool answers_match(lab_kind kind, const std::string &expected, const std::string &given);

// The verdict on one line of an answers file.
struct graded_line {
	std::uint64_t line = 0;
	std::string key;	// "place 7", or the line as written when it is not an answer
	lab_kind kind = lab_kind::place;
	bool right = false;
	std::string problem;	// why the line could not be graded; empty when it was
	std::string given, expected;
	std::vector<std::string> working;
};

struct check_result {
	std::vector<graded_line> lines;
	unsigned right = 0, wrong = 0;
	bool all_right() const { return wrong == 0 && right > 0; }
};

// The verdicts as text: a line each, for a wrong answer what was given,
// what was expected (unless `expected` is false) and the working (unless
// `working` is false), a summary.
std::string check_text(const check_result &r, bool working = true, bool expected = true);

// Grades every line of the file at `path`. Throws input_error for an
// unreadable file or one that is not a small text file, and for a file
// with no answer at all.
// `student` and `secret`: the file answers that student's private variant.
check_result check_answers_file(const std::string &path, const std::string &student = "",
				const std::string &secret = "");
check_result check_answers(std::string_view text, const std::string &source, const std::string &student = "",
			   const std::string &secret = "");

}  // namespace timersim::lab
