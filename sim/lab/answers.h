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
// decides; another kind inside a line is an error). Each exercise is
// answered at most once: a second answer to it is an error naming both
// lines. Bounded as small text: lines up to 64 KiB, files up to 16 MiB and
// 100,000 answers, no control characters (an error names the line). Answers
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
};

// Throws input_error(source, line, reason) for a line that is not an answer.
std::vector<answer_line> parse_answers(std::string_view text, const std::string &source);

// The left side of an answer line: "place 7", "wrap 3 --hz 1000".
std::string answer_key(const exercise_ref &ref);

// The comparable form of an answer.
std::string normalise_answer(lab_kind kind, const std::string &answer);
bool answers_match(lab_kind kind, const std::string &expected, const std::string &given);

struct check_result {
	std::string text;	// a verdict a line, the working for wrong ones, a summary
	unsigned right = 0, wrong = 0;
	bool all_right() const { return wrong == 0 && right > 0; }
};

// Grades every line of the file at `path`. Throws input_error for an
// unreadable file, a malformed line or an exercise that does not exist,
// and for a file with no answer at all.
check_result check_answers_file(const std::string &path);
check_result check_answers(std::string_view text, const std::string &source);

}  // namespace timersim::lab
