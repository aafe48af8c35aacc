// `cascade`: pending timers and a jiffy that is a multiple of 256; which
// slots does that jiffy cascade, and which timers move where.
#include <algorithm>

#include "sim/lab/exercise_kinds.h"

namespace timersim::lab {

namespace {

// Named: sim/lab/kind_*.cc are compiled as one unit (Makefile, LIB_UNITS),
// and each kind has its own make, answer and working.
namespace kind_cascade {

struct cascade_case {
	std::uint64_t start;
	std::uint64_t jiffy;			// the jiffy asked about
	std::vector<std::uint64_t> expires;	// A, B, ...
};

// Hand-worked: the first tv2 cascade, the 2^14 cascade of tv3 (tv2's slot
// 0 empty) and the 2^20 chain down from tv4.
cascade_case fixed_case(const classic_shape &g, unsigned i)
{
	const std::uint64_t tv2 = std::uint64_t{1} << g.shift[2];
	const std::uint64_t tv3 = std::uint64_t{1} << g.shift[3];
	const std::uint64_t tv4 = std::uint64_t{1} << g.shift[4];
	switch (i) {
	case 1: return {0, tv2, {tv2 + 44}};
	case 2: return {0, tv3, {tv3 + 116, tv3 + 2 * tv2 + 104, tv3 + tv2 - 1}};
	default: return {0, tv4, {tv4 + 5, tv4 + tv3 + 7, tv4 + 300}};
	}
}

cascade_case random_case(const classic_shape &g, lab_rng &rng)
{
	cascade_case c;
	// Mostly tv2 cascades; tv3 (every 2^14) and tv4 (every 2^20) too.
	const unsigned r = rng.pick(10);
	const unsigned top = r < 6 ? 2 : r < 9 ? 3 : 4;
	const std::uint64_t unit = std::uint64_t{1} << g.shift[top];
	const unsigned per_level = g.slots[top];
	std::uint64_t m = rng.between(1, 4000);
	if (m % per_level == 0)
		m++;	// stay at this level: its index must not be 0 too
	c.jiffy = m * unit;
	// Far enough back that some timers sat one level up when added.
	const std::uint64_t back = std::min<std::uint64_t>(std::uint64_t{1} << g.shift[3], std::uint64_t{1} << 16);
	c.start = c.jiffy - rng.between(1, std::min(back, c.jiffy));
	const unsigned n = 3 + rng.pick(4);
	for (unsigned i = 0; i < n; i++) {
		// In the slot that cascades at `jiffy`, at some level up to
		// top, or anywhere in the next span.
		const unsigned level = 2 + rng.pick(top - 1);
		const bool in_slot = rng.chance(2, 3);
		const std::uint64_t span = std::uint64_t{1} << (in_slot ? g.shift[level] : g.shift[top + 1 <= 5 ? top + 1 : 5]);
		c.expires.push_back(c.jiffy + rng.between(0, span - 1));
	}
	return c;
}

void make(exercise &ex, lab_rng *rng, unsigned fixed)
{
	const lab_config &cfg = ex.ref.cfg;
	const classic_shape g = classic_shape_for(cfg);
	cascade_case c = rng ? random_case(g, *rng) : fixed_case(g, fixed);
	const std::uint64_t mask = cfg.word_bits == 32 ? 0xffffffffull : ~std::uint64_t{0};

	ex.sc = scenario_for(cfg);
	ex.sc.start = c.start & mask;
	ex.focus = c.jiffy & mask;
	std::string timers;
	for (std::size_t i = 0; i < c.expires.size(); i++) {
		const std::string name(1, static_cast<char>('A' + i));
		push(ex.sc, arm_op(op_kind::add, name, c.expires[i] & mask));
		timers += (i ? ", " : "") + name + " expires " + num(c.expires[i] & mask);
	}
	if (c.jiffy - c.start > 1)
		push(ex.sc, plain_op(op_kind::run_to, (c.jiffy - 1) & mask));
	push(ex.sc, plain_op(op_kind::tick, 1));

	ex.question = classic_wheel_line(cfg) + "\n" + "At timer_jiffies " + num(c.start & mask) +
		      ", add_timer() arms: " + timers + ".\n" + "The base then processes every jiffy up to " +
		      num(ex.focus) + ".\n" + "Which slots does jiffy " + num(ex.focus) +
		      " cascade (every cascade() call, in order), and which timers move to which slot?";
	ex.answer_form = "cascade LEVEL[SLOT]... move NAME LEVEL[SLOT]... (timers by name; `move none` if none)";
}

std::string answer(const exercise &ex, const std::vector<step_record> &records)
{
	std::string calls, moves;
	std::vector<std::pair<std::string, std::string>> moved;
	for (const wheel_event *e : events_of(records, wheel_event_kind::cascaded))
		if (e->jiffy == ex.focus)
			calls += " " + place_name(e->level, e->slot);
	for (const wheel_event *e : events_of(records, wheel_event_kind::moved))
		if (e->jiffy == ex.focus)
			moved.emplace_back(e->timer, place_name(e->level, e->slot));
	std::sort(moved.begin(), moved.end());
	for (const auto &[name, where] : moved)
		moves += " " + name + " " + where;
	return "cascade" + (calls.empty() ? std::string(" none") : calls) + " move" +
	       (moves.empty() ? std::string(" none") : moves);
}

std::vector<std::string> working(const exercise &ex, const std::vector<step_record> &records)
{
	std::vector<std::string> w;
	const std::uint64_t mask = ex.ref.cfg.word_bits == 32 ? 0xffffffffull : ~std::uint64_t{0};
	w.push_back("where the timers were placed at timer_jiffies " + num(*ex.sc.start) + ":");
	for (const wheel_event *e : events_of(records, wheel_event_kind::placed))
		w.push_back("  " + e->timer + " -> " + place_name(e->level, e->slot) + " (idx " +
			    num((e->expires - e->clock) & mask) + ")");
	for (const step_record &r : records)
		for (const wheel_event &e : r.events) {
			if (e.jiffy != ex.focus)
				continue;
			if (e.kind == wheel_event_kind::cascaded) {
				w.push_back("cascade " + place_name(e.level, e.slot) + ": " + num(e.count) + (e.count == 1 ? " timer" : " timers"));
				add_why(w, e);
			} else if (e.kind == wheel_event_kind::moved) {
				w.push_back(e.timer + " moves " + place_name(e.from_level, e.from_slot) + " -> " +
					    place_name(e.level, e.slot));
				add_why(w, e, "    ");
			}
		}
	return w;
}

}  // namespace kind_cascade

}  // namespace

const kind_def cascade_kind = {lab_kind::cascade, "cascade", 3, kind_cascade::make, kind_cascade::answer, kind_cascade::working};

}  // namespace timersim::lab
