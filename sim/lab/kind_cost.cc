// `cost`: a small workload on the classic wheel; how much work does it do
// in the common cost units, and how many cascade moves does it make.
// Networking timers are re-armed long before they expire, so their tv2 slot
// rarely comes round: they almost never cascade. The question states the
// classic scheme's counting rules (sim/scheme/classic.cc, kernel_adapter.h)
// so that the total can be worked by hand; the other schemes' counts are in
// the working, for comparison (their rules depend on heap shapes, buckets
// and NOHZ skips a student cannot follow by hand).
#include <algorithm>
#include <cstdio>

#include "sim/lab/exercise_kinds.h"
#include "sim/lab/scheme_view.h"

namespace timersim::lab {

namespace {

// Named: sim/lab/kind_*.cc are compiled as one unit (Makefile, LIB_UNITS),
// and each kind has its own make, answer and working.
namespace kind_cost {

const std::vector<std::string> &compared()
{
	static const std::vector<std::string> schemes = {"classic", "v48", "hashed", "heap", "list"};
	return schemes;
}

struct action {
	std::uint64_t at;
	scenario_op op;
};

struct workload {
	std::uint64_t start = 0;
	std::vector<action> actions;
	std::vector<std::string> story;	// one line per timer
	std::uint64_t end = 0;		// the last jiffy that matters
};

// A timer armed at `at` with `timeout`, re-armed every `every` jiffies
// (0: never) until `until`, then deleted (or left to fire).
void timer(workload &w, const std::string &name, std::uint64_t at, std::uint64_t timeout, std::uint64_t every,
	   std::uint64_t until, bool del)
{
	std::string line = name + ": armed at " + num(at) + " with a timeout of " + num(timeout);
	w.actions.push_back({at, arm_op(op_kind::add, name, at + timeout)});
	std::uint64_t last = at;
	if (every) {
		for (std::uint64_t t = at + every; t <= until; t += every) {
			w.actions.push_back({t, arm_op(op_kind::mod, name, t + timeout)});
			last = t;
		}
		line += ", re-armed (the same timeout) every " + num(every) + " jiffies until " + num(last);
	}
	if (del) {
		w.actions.push_back({until, arm_op(op_kind::del, name, 0)});
		line += ", deleted at " + num(until);
		w.end = std::max(w.end, until);
	} else {
		line += "; it fires";
		w.end = std::max(w.end, last + timeout);
	}
	w.story.push_back(line);
}

workload fixed_case(unsigned i)
{
	workload w;
	switch (i) {
	case 1:	// a retransmit-style timer: re-armed long before its slot cascades
		timer(w, "A", 0, 1000, 10, 2000, true);
		break;
	default:	// a sleep: placed in tv2, cascaded once, fires
		timer(w, "A", 0, 300, 0, 0, false);
		break;
	}
	return w;
}

workload random_case(lab_rng &rng)
{
	workload w;
	w.start = rng.between(0, 5000);
	const unsigned n = 3 + rng.pick(4);
	for (unsigned i = 0; i < n; i++) {
		const std::string name(1, static_cast<char>('A' + i));
		const std::uint64_t at = w.start + rng.between(0, 200);
		const unsigned what = rng.pick(10);
		if (what < 4) {
			const std::uint64_t every = rng.between(5, 60);
			const std::uint64_t until = at + every * rng.between(5, 40);
			// One draw a statement: the order of a call's arguments is
			// the compiler's (GCC right to left, clang -- the browser
			// lab's -- left to right). This is the order the public seeds
			// were drawn in.
			const bool del = !rng.chance(1, 10);
			const std::uint64_t timeout = rng.between(200, 3000);
			timer(w, name, at, timeout, every, until, del);
		} else if (what < 7) {
			timer(w, name, at, rng.between(1, 1500), 0, 0, false);
		} else {
			const std::uint64_t until = at + rng.between(100, 2500);
			const std::uint64_t timeout = rng.between(1u << 13, 1u << 15);
			timer(w, name, at, timeout, 0, until, true);
		}
	}
	return w;
}

void make(exercise &ex, lab_rng *rng, unsigned fixed)
{
	const lab_config &cfg = ex.ref.cfg;
	workload w = rng ? random_case(*rng) : fixed_case(fixed);
	std::stable_sort(w.actions.begin(), w.actions.end(),
			 [](const action &a, const action &b) { return a.at < b.at; });
	const std::uint64_t mask = cfg.word_bits == 32 ? 0xffffffffull : ~std::uint64_t{0};

	ex.sc = scenario_for(cfg);
	ex.sc.start = w.start & mask;
	std::uint64_t now = w.start;
	for (action &a : w.actions) {
		if (a.at > now) {
			push(ex.sc, plain_op(op_kind::tick, a.at - now));
			now = a.at;
		}
		a.op.value &= mask;
		push(ex.sc, a.op);
	}
	push(ex.sc, plain_op(op_kind::run_to, (w.end + 1) & mask));
	ex.schemes = compared();

	std::string story;
	for (const std::string &s : w.story)
		story += "  " + s + "\n";
	std::string names;
	for (const std::string &s : ex.schemes)
		names += (names.empty() ? "" : ", ") + s;
	// The cascade rule in this geometry's numbers (--base-small: 64 and 16 slots).
	const std::string tv1_index = cfg.base_small ? "jiffy & 63" : "jiffy & 255";
	const std::string tv2_index = cfg.base_small ? "(jiffy >> 6) & 15" : "(jiffy >> 8) & 63";
	ex.question = "A workload on one CPU at HZ " + num(cfg.hz) + " (" + num(cfg.word_bits) +
		      "-bit jiffies), starting at jiffy " + num(w.start) + ":\n" + story + "It runs to jiffy " +
		      num(w.end + 1) + " (every jiffy from " + num(w.start) + " to " + num(w.end + 1) +
		      " is processed) on the classic wheel.\n"
		      "Its work is insertions + removals + relinks + slot visits, counted so:\n"
		      "  insertion: every add and every re-arm (each one enqueues the timer);\n"
		      "  removal:   every del and every re-arm of a pending timer (it is detached\n"
		      "             first), and every expiry;\n"
		      "  relink:    every timer a cascade moves (a move);\n"
		      "  slot visit: one per jiffy processed (its tv1 slot), plus one per cascade()\n"
		      "             call: at a jiffy whose tv1 index (" + tv1_index + ") is 0, tv2's slot\n"
		      "             is cascaded; if tv2's index (" + tv2_index + ") is 0 too, tv3's,\n"
		      "             and so on up to tv5 (empty slots count).\n"
		      "How much work does the classic wheel do, and how many timers does it move by\n"
		      "cascading? (The working compares " + names + ".)";
	ex.answer_form = "work=N moves=N";
}

std::vector<std::pair<std::string, cost_counters>> costs_of(const exercise &ex)
{
	step_options opt;
	std::vector<std::pair<std::string, cost_counters>> out;
	for (const std::string &s : ex.schemes) {
		opt.scheme = s == "v48" ? "v48" : "classic";	// the setup's checks know the wheels only
		out.emplace_back(s, run_on_scheme(ex.sc, s, resolve_setup(ex.sc, opt)).costs);
	}
	return out;
}

// The classic scheme's own count, the one the question's rules describe.
std::string answer(const exercise &ex, const std::vector<step_record> &records)
{
	std::uint64_t work = 0;
	for (const auto &[name, c] : costs_of(ex))
		if (name == "classic")
			work = total_cost(c);
	return "work=" + num(work) + " moves=" + num(events_of(records, wheel_event_kind::moved).size());
}

std::vector<std::string> working(const exercise &ex, const std::vector<step_record> &records)
{
	std::vector<std::string> w;
	char line[160];
	std::snprintf(line, sizeof line, "%-8s %10s %9s %8s %11s %11s %10s", "scheme", "insertions", "removals",
		      "relinks", "slot_visits", "comparisons", "total");
	w.push_back(line);
	for (const auto &[name, c] : costs_of(ex)) {
		std::snprintf(line, sizeof line, "%-8s %10llu %9llu %8llu %11llu %11llu %10llu", name.c_str(),
			      static_cast<unsigned long long>(c.insertions), static_cast<unsigned long long>(c.removals),
			      static_cast<unsigned long long>(c.relinks), static_cast<unsigned long long>(c.slot_visits),
			      static_cast<unsigned long long>(c.key_comparisons),
			      static_cast<unsigned long long>(total_cost(c)));
		w.push_back(line);
	}
	auto moved = events_of(records, wheel_event_kind::moved);
	w.push_back("the classic wheel's cascade moves (" + num(moved.size()) + "):");
	for (const wheel_event *e : moved)
		w.push_back("  jiffy " + num(e->jiffy) + ": " + e->timer + " " + place_name(e->from_level, e->from_slot) +
			    " -> " + place_name(e->level, e->slot));
	if (moved.empty())
		w.push_back("  none: every timer was re-armed or deleted before its slot cascaded, or sat in tv1");
	return w;
}

}  // namespace kind_cost

}  // namespace

const kind_def cost_kind = {lab_kind::cost, "cost", 2, kind_cost::make, kind_cost::answer, kind_cost::working};

}  // namespace timersim::lab
