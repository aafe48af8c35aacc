// `place`: timer_jiffies and expires are given; on which level and in which
// slot does the timer land, and why.
#include "sim/lab/exercise_kinds.h"

namespace timersim::lab {

namespace {

// Named: sim/lab/kind_*.cc are compiled as one unit (Makefile, LIB_UNITS),
// and each kind has its own make, answer and working.
namespace kind_place {

struct place_case {
	std::uint64_t tj;
	std::uint64_t idx;	// expires - tj, in the word (may wrap: past)
};

// The hand-worked boundaries of the classic-wheel notes, in terms of the
// geometry (normal: 256, 2^14, 2^20, 2^26, MAX_TVAL).
place_case fixed_case(const classic_shape &g, unsigned i)
{
	const std::uint64_t tv2 = std::uint64_t{1} << g.shift[2];
	switch (i) {
	case 1: return {0, tv2 - 1};				// last jiffy of tv1
	case 2: return {0, tv2};				// first of tv2
	case 3: return {0, (std::uint64_t{1} << g.shift[3]) - 1};	// last of tv2
	case 4: return {0, std::uint64_t{1} << g.shift[3]};	// first of tv3
	case 5: return {0, std::uint64_t{1} << g.shift[4]};	// first of tv4
	case 6: return {0, std::uint64_t{1} << g.shift[5]};	// first of tv5
	case 7: return {0, g.max_tval};				// the last the wheel holds
	case 8: return {1000, g.max_tval + 1000};		// beyond MAX_TVAL: clamped
	case 9: return {1000, static_cast<std::uint64_t>(-100)};	// already past
	default: return {200, tv2};				// idx 256 though expires & 255 = 200
	}
}

place_case random_case(const classic_shape &g, lab_rng &rng)
{
	const std::uint64_t word_max = g.word_bits == 32 ? 0xffffffffull : (std::uint64_t{1} << 33);
	place_case c;
	// Mostly small numbers a student can work by hand.
	switch (rng.pick(4)) {
	case 0:
	case 1: c.tj = rng.between(0, 65535); break;
	case 2: c.tj = rng.between(1, 64) << g.shift[2 + rng.pick(3)]; break;
	default: c.tj = rng.between(0, word_max); break;
	}
	const unsigned what = rng.pick(10);
	if (what <= 5) {
		// A level: tv1 (0, 1), tv2 (2, 3), tv3 (4), tv4/tv5 (5).
		const unsigned level = what <= 1 ? 1 : what <= 3 ? 2 : what == 4 ? 3 : 4 + rng.pick(2);
		const std::uint64_t lo = level == 1 ? 0 : std::uint64_t{1} << g.shift[level];
		const std::uint64_t hi = level == 5 ? g.max_tval : (std::uint64_t{1} << g.shift[level + 1]) - 1;
		c.idx = rng.between(lo, hi);
	} else if (what <= 7) {
		// One below, at or one above a level's first idx.
		const unsigned level = 2 + rng.pick(4);
		c.idx = (std::uint64_t{1} << g.shift[level]) - 1 + rng.pick(3);
	} else if (what == 8) {
		c.idx = static_cast<std::uint64_t>(-static_cast<std::int64_t>(rng.between(1, 2000)));
	} else if (g.word_bits == 64 || g.max_tval < 0xffffffffull) {
		c.idx = g.max_tval + rng.between(1, g.max_tval);
	} else {
		c.idx = g.max_tval - rng.between(0, 1000);
	}
	return c;
}

void make(exercise &ex, lab_rng *rng, unsigned fixed)
{
	const lab_config &cfg = ex.ref.cfg;
	const classic_shape g = classic_shape_for(cfg);
	const std::uint64_t mask = cfg.word_bits == 32 ? 0xffffffffull : ~std::uint64_t{0};
	place_case c = rng ? random_case(g, *rng) : fixed_case(g, fixed);
	c.tj &= mask;
	const std::uint64_t expires = (c.tj + c.idx) & mask;

	ex.sc = scenario_for(cfg);
	ex.sc.start = c.tj;
	push(ex.sc, arm_op(op_kind::add, "A", expires));
	ex.question = classic_wheel_line(cfg) + "\n" + "The base's timer_jiffies is " + num(c.tj) +
		      " (the next jiffy it processes).\n" + "add_timer() arms timer A with expires = " +
		      num(expires) + ".\n" + "On which level and in which slot does A land?";
	ex.answer_form = "LEVEL[SLOT], e.g. tv2[5]";
}

std::string answer(const exercise &, const std::vector<step_record> &records)
{
	auto placed = events_of(records, wheel_event_kind::placed);
	if (placed.empty())
		return "none";
	return place_name(placed.front()->level, placed.front()->slot);
}

std::vector<std::string> working(const exercise &, const std::vector<step_record> &records)
{
	std::vector<std::string> w;
	for (const wheel_event *e : events_of(records, wheel_event_kind::placed))
		add_why(w, *e);
	return w;
}

}  // namespace kind_place

}  // namespace

const kind_def place_kind = {lab_kind::place, "place", 10, kind_place::make, kind_place::answer, kind_place::working};

}  // namespace timersim::lab
