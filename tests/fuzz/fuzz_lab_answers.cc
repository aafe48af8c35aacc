// libFuzzer target: arbitrary bytes as a `timersim lab check` answers file
// (sim/lab/answers.h). The file is parsed with the bounds a file gets; every
// answer it holds is normalised for its kind and compared with itself
// (where odd word counts after a cascade's "move" once read past the
// words); a file of a few answers is graded whole, each exercise made and
// solved by the wheels. input_error is the only way out, and a graded file
// counts each of its answers once, right or wrong.
//
// fuzz-sources: @sim
// fuzz-pkgs: zlib libzstd libtracecmd libtraceevent babeltrace babeltrace-ctf fmt libcrypto
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/lab/answers.h"
#include "sim/trace/reader.h"

using namespace timersim;
using namespace timersim::lab;

namespace {

// Grading solves every exercise (up to a few ms each): a fuzz input is
// graded whole only when it holds this many answers or fewer.
constexpr std::size_t max_graded = 8;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
	std::string_view text(reinterpret_cast<const char *>(data), size);
	std::vector<answer_line> lines;
	try {
		lines = parse_answers(text, "fuzz.txt");
	} catch (const input_error &) {
		return 0;
	}
	for (const answer_line &a : lines) {
		for (lab_kind kind : lab_kinds())
			normalise_answer(kind, a.given);
		if (!answers_match(a.ref.kind, a.given, a.given))
			__builtin_trap();	// an answer is its own answer
	}
	if (lines.empty() || lines.size() > max_graded)
		return 0;
	try {
		check_result r = check_answers(text, "fuzz.txt");
		if (r.right + r.wrong != lines.size())
			__builtin_trap();
	} catch (const input_error &) {
	}
	return 0;
}
