// `fire`: a short sequence of add/mod/del and ticks; at which jiffy and in
// which order do the timers fire (FIFO slots up to 4.1, LIFO from 4.2),
// with slack (mod_timer 1000 -> 1008) and round_jiffies().
#include <algorithm>

#include "sim/lab/exercise_kinds.h"

namespace timersim::lab {

namespace {

// Named: sim/lab/kind_*.cc are compiled as one unit (Makefile, LIB_UNITS),
// and each kind has its own make, answer and working.
namespace kind_fire {

scenario_op with_slack(scenario_op op, int slack)
{
	op.arm.slack = slack;
	return op;
}

scenario_op rounded(scenario_op op, rounding r)
{
	op.arm.round = r;
	return op;
}

void fixed_case(scenario &s, unsigned i)
{
	switch (i) {
	case 1:	// the slack example of the notes: 1000 with slack 10 -> 1008
		push(s, with_slack(arm_op(op_kind::mod, "A", 1000), 10));
		push(s, plain_op(op_kind::run_to, 1100));
		break;
	case 2:	// FIFO within a slot
	case 3:	// LIFO within a slot
		s.lifo = i == 3;
		push(s, arm_op(op_kind::add, "A", 200));
		push(s, arm_op(op_kind::add, "B", 200));
		push(s, arm_op(op_kind::add, "C", 199));
		push(s, plain_op(op_kind::run_to, 300));
		break;
	case 4:	// LIFO through a cascade: the cascade reverses the slot again
		s.lifo = true;
		push(s, arm_op(op_kind::add, "A", 300));
		push(s, arm_op(op_kind::add, "B", 300));
		push(s, plain_op(op_kind::run_to, 400));
		break;
	case 5:	// round_jiffies(): up past a quarter second, else down
		push(s, rounded(arm_op(op_kind::add, "A", 1130), rounding::round));
		push(s, rounded(arm_op(op_kind::add, "B", 1010), rounding::round));
		push(s, plain_op(op_kind::run_to, 1300));
		break;
	case 6:	// mod_timer() to the expiry it has: no work, A keeps its place
		push(s, with_slack(arm_op(op_kind::add, "A", 1000), 10));
		push(s, arm_op(op_kind::add, "B", 1008));
		push(s, with_slack(arm_op(op_kind::mod, "A", 1000), 10));
		push(s, plain_op(op_kind::run_to, 1100));
		break;
	default:	// the default slack, 0.4% of the timeout
		push(s, with_slack(arm_op(op_kind::add, "A", 25600), -1));
		push(s, with_slack(arm_op(op_kind::add, "B", 200), -1));
		push(s, plain_op(op_kind::run_to, 26000));
		break;
	}
}

void random_case(scenario &s, const lab_config &cfg, lab_rng &rng)
{
	const std::uint64_t mask = cfg.word_bits == 32 ? 0xffffffffull : ~std::uint64_t{0};
	std::uint64_t now = cfg.word_bits == 32 && rng.chance(1, 3) ? 0xffffffffull - rng.between(0, 600)
								     : rng.between(0, 20000);
	s.start = now;
	s.lifo = rng.chance(1, 3);

	const unsigned timers = 3 + rng.pick(3);
	std::vector<std::uint64_t> used;	// expiries so far: reuse makes slot-mates
	std::uint64_t latest = now;
	unsigned armed = 0;
	const unsigned statements = 5 + rng.pick(5);
	scenario_op last_mod;
	bool have_mod = false;

	for (unsigned i = 0; i < statements; i++) {
		const unsigned what = rng.pick(10);
		if (armed < timers && (what < 4 || armed < 2)) {
			std::uint64_t e = !used.empty() && rng.chance(1, 2) ? used[rng.pick(static_cast<unsigned>(used.size()))]
									  : now + rng.between(1, 700);
			scenario_op op = arm_op(op_kind::add, std::string(1, static_cast<char>('A' + armed++)), e & mask);
			if (rng.chance(1, 5))
				op = rounded(op, rng.chance(1, 2) ? rounding::round : rounding::round_up);
			used.push_back(e);
			latest = std::max(latest, e);
			push(s, op);
		} else if (what < 7) {
			const std::string name(1, static_cast<char>('A' + rng.pick(armed)));
			if (have_mod && rng.chance(1, 4)) {
				push(s, last_mod);	// the same mod again
				continue;
			}
			const bool far = rng.chance(1, 3);
			std::uint64_t e = far ? now + rng.between(256, 1500) : now + rng.between(1, 600);
			scenario_op op = arm_op(op_kind::mod, name, e & mask);
			if (rng.chance(2, 3))
				op = with_slack(op, far && rng.chance(1, 2) ? -1 : static_cast<int>(rng.between(2, 64)));
			used.push_back(e);
			latest = std::max(latest, e + 64);
			last_mod = op;
			have_mod = true;
			push(s, op);
		} else if (what == 7) {
			push(s, arm_op(op_kind::del, std::string(1, static_cast<char>('A' + rng.pick(armed))), 0));
		} else {
			const std::uint64_t n = rng.between(1, 300);
			now += n;
			push(s, plain_op(op_kind::tick, n));
		}
	}
	// round_jiffies() may move an expiry up to a second on.
	push(s, plain_op(op_kind::run_to, (std::max(latest, now) + cfg.hz + 64) & mask));
}

void make(exercise &ex, lab_rng *rng, unsigned fixed)
{
	const lab_config &cfg = ex.ref.cfg;
	ex.sc = scenario_for(cfg);
	ex.sc.lifo = false;
	if (rng)
		random_case(ex.sc, cfg, *rng);
	else
		fixed_case(ex.sc, fixed);
	const bool lifo = *ex.sc.lifo;
	ex.question = classic_wheel_line(cfg) + "\n" +
		      (lifo ? "Slots are LIFO (Linux 4.2+: a timer is added at the head of its slot).\n"
			    : "Slots are FIFO (Linux 3.x: a timer is added at the tail of its slot).\n") +
		      "Starting at timer_jiffies " + num(ex.sc.start.value_or(0)) +
		      ", these statements run in order (add: add_timer(); mod: mod_timer();\n"
		      "slack=N sets timer->slack first, slack=auto the default 0.4%; no slack otherwise;\n"
		      "round: round_jiffies(), round-up: round_jiffies_up(); del: del_timer();\n"
		      "tick N: the next N jiffies are processed; run-to J: every jiffy up to J):\n" +
		      scenario_lines(ex.sc) + "Which timers fire, in which order, and at which jiffy?";
	ex.answer_form = "NAME@JIFFY in firing order, e.g. A@1008 B@1008 C@1200 (`none` if none fires)";
}

std::string answer(const exercise &, const std::vector<step_record> &records)
{
	std::string s;
	for (const wheel_event *e : events_of(records, wheel_event_kind::expired))
		s += (s.empty() ? "" : " ") + e->timer + "@" + num(e->jiffy);
	return s.empty() ? "none" : s;
}

std::vector<std::string> working(const exercise &, const std::vector<step_record> &records)
{
	std::vector<std::string> w;
	for (const step_record &r : records) {
		w.push_back("now " + num(r.at) + ": " + r.text);
		for (const wheel_event &e : r.events) {
			if (e.kind == wheel_event_kind::cascaded && !e.count)
				continue;
			w.push_back("  " + format_event(e));
			// The arithmetic of slack and rounding is the lesson here.
			if (e.kind == wheel_event_kind::placed && e.requested != e.expires)
				add_why(w, e, "      ");
			if (e.kind == wheel_event_kind::unchanged)
				add_why(w, e, "      ");
		}
		if (r.not_pending)
			w.push_back("  (not pending: del_timer() returns 0)");
	}
	return w;
}

}  // namespace kind_fire

}  // namespace

const kind_def fire_kind = {lab_kind::fire, "fire", 7, kind_fire::make, kind_fire::answer, kind_fire::working};

}  // namespace timersim::lab
