// `next`: the NOHZ question. A CPU about to go idle asks the wheel when it
// must wake (get_next_timer_interrupt()); deferrable timers do not count.
#include "kernel/classic_wheel.h"
#include "sim/lab/exercise_kinds.h"

namespace timersim::lab {

namespace {

// Named: sim/lab/kind_*.cc are compiled as one unit (Makefile, LIB_UNITS),
// and each kind has its own make, answer and working.
namespace kind_next {

scenario_op deferrable(scenario_op op)
{
	op.arm.deferrable = true;
	return op;
}

void fixed_case(scenario &s, unsigned i)
{
	switch (i) {
	case 1:	// one timer: its expiry
		push(s, arm_op(op_kind::add, "A", 300));
		break;
	case 2:	// a deferrable timer does not wake the CPU
		push(s, deferrable(arm_op(op_kind::add, "A", 100)));
		push(s, arm_op(op_kind::add, "B", 5000));
		break;
	case 3:	// nothing that wakes: now + NEXT_TIMER_MAX_DELTA
		push(s, deferrable(arm_op(op_kind::add, "A", 50)));
		break;
	default:	// the earliest deleted: next_timer is stale and recomputed
		push(s, arm_op(op_kind::add, "A", 400));
		push(s, arm_op(op_kind::add, "B", 900));
		push(s, arm_op(op_kind::del, "A", 0));
		break;
	}
	push(s, plain_op(op_kind::show));
}

void random_case(scenario &s, const lab_config &cfg, lab_rng &rng)
{
	const std::uint64_t mask = cfg.word_bits == 32 ? 0xffffffffull : ~std::uint64_t{0};
	std::uint64_t now = rng.between(0, std::uint64_t{1} << 24) & mask;
	s.start = now;
	const unsigned timers = 2 + rng.pick(4);
	for (unsigned i = 0; i < timers; i++) {
		// Spread over tv1..tv4 (past 2^20 only rarely: the scan crosses levels).
		const unsigned reach = rng.pick(10);
		const std::uint64_t hi = reach < 3 ? 255 : reach < 7 ? 16383 : reach < 9 ? (1u << 20) - 1 : (1u << 20) + (1u << 18);
		scenario_op op = arm_op(op_kind::add, std::string(1, static_cast<char>('A' + i)), (now + rng.between(1, hi)) & mask);
		if (rng.chance(1, 4))
			op = deferrable(op);
		push(s, op);
	}
	if (rng.chance(1, 3))
		push(s, arm_op(op_kind::del, std::string(1, static_cast<char>('A' + rng.pick(timers))), 0));
	if (rng.chance(1, 2)) {
		const std::uint64_t n = rng.between(1, 200);
		push(s, plain_op(op_kind::tick, n));
	}
	push(s, plain_op(op_kind::show));
}

void make(exercise &ex, lab_rng *rng, unsigned fixed)
{
	const lab_config &cfg = ex.ref.cfg;
	ex.sc = scenario_for(cfg);
	if (rng)
		random_case(ex.sc, cfg, *rng);
	else
		fixed_case(ex.sc, fixed);
	ex.question = classic_wheel_line(cfg) + "\n" + "Starting at timer_jiffies " + num(ex.sc.start.value_or(0)) +
		      ", these statements run in order (deferrable: a timer that does\n"
		      "not wake an idle CPU; tick N: the next N jiffies are processed):\n" +
		      scenario_lines(ex.sc) +
		      "At `show` the CPU is about to go idle. get_next_timer_interrupt() is asked when it\n"
		      "must wake: which jiffy does it answer? (With nothing to wake for it answers\n"
		      "now + NEXT_TIMER_MAX_DELTA = now + " +
		      num(kernel::NEXT_TIMER_MAX_DELTA) + ".)";
	ex.answer_form = "a jiffy, e.g. 1234";
}

std::string answer(const exercise &, const std::vector<step_record> &records)
{
	for (const step_record &r : records)
		if (r.next_interrupt)
			return num(*r.next_interrupt);
	return "none";
}

std::vector<std::string> working(const exercise &, const std::vector<step_record> &records)
{
	std::vector<std::string> w;
	for (const step_record &r : records) {
		if (!r.next_interrupt)
			continue;
		w.push_back("at now " + num(r.at) + " the wheel holds:");
		std::string wake, defer;
		for (const snapshot_base &b : r.after.bases)
			for (const snapshot_level &l : b.levels)
				for (const snapshot_slot &sl : l.slots)
					for (const snapshot_timer &t : sl.timers)
						(t.deferrable ? defer : wake) += " " + t.name + "@" + num(t.expires) + " in " +
										 place_name(l.name, sl.slot);
		w.push_back("  timers that wake the CPU:" + (wake.empty() ? std::string(" none") : wake));
		w.push_back("  deferrable (ignored):" + (defer.empty() ? std::string(" none") : defer));
		w.push_back("__next_timer_interrupt() scans tv1 from its index, then each upper level from its next");
		w.push_back("cascade point, taking the earliest expiry of the first non-empty slot it meets;");
		w.push_back("the answer is the earliest non-deferrable expiry: " + num(*r.next_interrupt) +
			    (wake.empty() ? " (none: now + NEXT_TIMER_MAX_DELTA)" : ""));
	}
	return w;
}

}  // namespace kind_next

}  // namespace

const kind_def next_kind = {lab_kind::next, "next", 4, kind_next::make, kind_next::answer, kind_next::working};

}  // namespace timersim::lab
