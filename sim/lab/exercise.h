// The lab's exercises, OSTEP style: a kind and a seed make a problem, the
// wheels of kernel/ answer it.
//
// Every exercise carries the scenario (sim/lab/scenario.h) that poses it, so
// `timersim step` can replay it statement by statement; its answer is read
// off what the wheel did when that scenario ran (answer_of()), whichever
// way it ran: through the lab wheel (`-c`), through `step`, or through the
// scheme layer. An id is a seed ("42") or a fixed, hand-worked exercise
// ("F3") from the classic-wheel notes.
//
// Answers are one line each (see sim/lab/answers.h for the file format):
//   place    tv2[1]                                    level[slot]
//   cascade  cascade tv2[0] tv3[1] move A tv1[44] C tv2[3]
//            (every cascade() call of the jiffy; the timers it moved, by name)
//   fire     A@1008 B@1008 C@1200                     firing order, NAME@JIFFY
//   next     1234                                      the jiffy the CPU wakes at
//   wrap     initial=0xfffedb08 expires=0x00000a28 naive=no after=yes tv2[10] fires=0x00000a28
//   v48      LVL2[17] gran=64 bucket_expiry=13312 fires=13312 late=40
//   cost     work=2223 moves=1                          the classic wheel's work, cascade moves
//   coalesce B@12000 A@12000 S@13000(softirq) next=16000   (hrtimers: runs, device)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/lab/scenario.h"
#include "sim/lab/step.h"

namespace timersim::lab {

enum class lab_kind : std::uint8_t { place, cascade, fire, next, wrap, v48, cost, coalesce };

const std::vector<lab_kind> &lab_kinds();
const char *lab_kind_name(lab_kind k);
bool parse_lab_kind(const std::string &name, lab_kind &out);

// The command line's wheel options.
struct lab_config {
	unsigned hz = 250;
	unsigned word_bits = 64;
	bool base_small = false;
	bool operator==(const lab_config &) const = default;
};

// What names an exercise: kind, id and wheel options.
struct exercise_ref {
	lab_kind kind = lab_kind::place;
	std::string id;		// "42" (a seed) or "F3" (fixed exercise 3)
	lab_config cfg;
	// A private variant (sim/lab/variant_key.h): the student's id and the
	// instructor's key. A student id without the key makes no exercise.
	std::string student, secret;
};

struct exercise {
	exercise_ref ref;
	std::string question;		// the problem, '\n'-separated lines
	std::string answer_form;	// how to write the answer
	scenario sc;			// the statements that pose it
	std::string scheme = "classic";	// the wheel that answers it
	std::uint64_t focus = 0;	// cascade: the jiffy asked about
	std::vector<std::string> schemes;	// cost: the schemes compared
};

struct solution {
	std::string answer;			// canonical form
	std::vector<std::string> working;	// the worked steps
};

// The exercise an id names. Throws usage_error for a bad id, an unknown
// fixed exercise or wheel options the kind cannot take.
exercise make_exercise(const exercise_ref &ref);
// An id: a seed ("42", fixed false) or a fixed exercise ("F3", fixed true,
// n 3). Throws usage_error for anything else.
void parse_exercise_id(const std::string &id, bool &fixed, std::uint64_t &n);
// The ids of the fixed exercises of a kind, "F1" ...
std::vector<std::string> fixed_ids(lab_kind kind);

// `-c`: the scenario through the lab wheel, and the answer with its working.
solution solve(const exercise &ex);

// The answer as the records of a run show it, however it ran. Fields a
// view cannot see (the scheme layer knows no slots) are empty or
// unknown_slot in the records and become '?' in the answer.
std::string answer_of(const exercise &ex, const std::vector<step_record> &records);

// The scenario's run through the lab wheel, all records kept.
std::vector<step_record> run_records(const exercise &ex);

}  // namespace timersim::lab
