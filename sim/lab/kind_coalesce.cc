// `coalesce`: one CPU's hrtimers (kernel/hrtimer.h). Timers with ranges
// (softexpires .. expires, as hrtimer_start_range_ns() sets them), the
// device programmed from the earliest expires; which timers run in which
// interrupt (every timer from the left of its base whose softexpires has
// passed, up to the first that has not), and when the device is
// programmed next. The model answers; the working is its own explanation
// (sim/lab/hr_step.h).
#include "sim/lab/exercise_kinds.h"
#include "sim/lab/hr_step.h"

namespace timersim::lab {

namespace {

// Named: sim/lab/kind_*.cc are compiled as one unit (Makefile, LIB_UNITS),
// and each kind has its own make, answer and working.
namespace kind_coalesce {

constexpr std::uint64_t us = 1000;

hr_op hr_start(const std::string &name, std::uint64_t soft, std::uint64_t slack, bool is_soft = false,
	       std::uint64_t period = 0)
{
	hr_op op;
	op.kind = hr_op_kind::start;
	op.timer = name;
	op.value = soft;
	op.slack = slack;
	op.soft = is_soft;
	op.period = period;
	return op;
}

hr_op hr_plain(hr_op_kind kind, const std::string &name = "", std::uint64_t value = 0)
{
	hr_op op;
	op.kind = kind;
	op.timer = name;
	op.value = value;
	return op;
}

void push_hr(scenario &s, hr_op op)
{
	op.line = s.hr_ops.size() + 1;
	op.text = render_hr_op(op);
	s.hr_ops.push_back(op);
}

// The hand-worked cases: tests/unit/test_lab_coalesce.cc works each.
void fixed_case(scenario &s, unsigned i)
{
	switch (i) {
	case 1:	// coalescing: A's range covers B's expiry
		push_hr(s, hr_start("A", 10 * us, 5 * us));
		push_hr(s, hr_start("B", 12 * us, 0));
		push_hr(s, hr_plain(hr_op_kind::run_to, "", 20 * us));
		break;
	case 2:	// the walk stops at the first timer not due, in expires order
		push_hr(s, hr_start("A", 10 * us, 0));
		push_hr(s, hr_start("B", 9 * us, 10 * us));
		push_hr(s, hr_start("C", 12 * us, 3 * us));
		push_hr(s, hr_plain(hr_op_kind::run_to, "", 20 * us));
		break;
	case 3:	// a soft timer runs in HRTIMER_SOFTIRQ, raised by its expires
		push_hr(s, hr_start("A", 20 * us, 0));
		push_hr(s, hr_start("H", 9 * us, 0));
		push_hr(s, hr_start("S", 8 * us, 2 * us, true));
		push_hr(s, hr_plain(hr_op_kind::run_to, "", 15 * us));
		break;
	case 4:	// cancelling next_timer: hrtimer_force_reprogram()
		push_hr(s, hr_start("A", 5 * us, 0));
		push_hr(s, hr_start("B", 9 * us, 3 * us));
		push_hr(s, hr_plain(hr_op_kind::cancel, "A"));
		push_hr(s, hr_plain(hr_op_kind::run_to, "", 10 * us));
		break;
	default:	// a periodic timer re-queued behind an equal expires
		push_hr(s, hr_start("T", 4 * us, 0, false, 4 * us));
		push_hr(s, hr_start("A", 5 * us, 3 * us));
		push_hr(s, hr_plain(hr_op_kind::run_to, "", 10 * us));
		break;
	}
	push_hr(s, hr_plain(hr_op_kind::show));
}

void random_case(scenario &s, lab_rng &rng)
{
	const unsigned timers = 2 + rng.pick(4);
	const unsigned periodic = rng.chance(1, 4) ? rng.pick(timers) : timers;
	const unsigned soft = rng.chance(1, 4) ? rng.pick(timers) : timers;
	for (unsigned i = 0; i < timers; i++) {
		std::uint64_t slack = rng.chance(1, 2) ? rng.between(1, 10) * us : 0;
		const std::uint64_t period = i == periodic ? rng.between(3, 8) * us : 0;
		if (period && slack >= period)	// else it is due again at once, for ever
			slack = period - us;
		push_hr(s, hr_start(std::string(1, static_cast<char>('A' + i)), rng.between(1, 20) * us, slack, i == soft,
				    period));
	}
	if (rng.chance(1, 3))
		push_hr(s, hr_plain(hr_op_kind::cancel, std::string(1, static_cast<char>('A' + rng.pick(timers)))));
	push_hr(s, hr_plain(hr_op_kind::run_to, "", rng.between(8, 30) * us));
	push_hr(s, hr_plain(hr_op_kind::show));
}

void make(exercise &ex, lab_rng *rng, unsigned fixed)
{
	if (rng)
		random_case(ex.sc, *rng);
	else
		fixed_case(ex.sc, fixed);
	ex.question =
		"One CPU's hrtimers (4.16+, high resolution mode), CLOCK_MONOTONIC in ns, now 0. `hrstart NAME S\n"
		"slack=N` is hrtimer_start_range_ns(): the timer may run from softexpires S and must by expires\n"
		"S + N; `soft`: it runs in HRTIMER_SOFTIRQ; `period=P`: its callback forwards it by P and\n"
		"restarts it; `hrcancel NAME`: hrtimer_try_to_cancel(); `run-to-ns T`: the CPU runs to T,\n"
		"taking every device interrupt on the way.\n"
		"These statements run in order:\n" +
		scenario_lines(ex.sc) +
		"At which times does the device interrupt, and which timers run in each interrupt? And at\n"
		"`show`, for which time is the device programmed?";
	ex.answer_form =
		"every callback run in order as NAME@TIME, TIME the interrupt's; a soft timer as\n"
		"  NAME@TIME(softirq); then next=T (next=none when the device is stopped), e.g.\n"
		"  B@12000 A@12000 S@13000(softirq) next=16000";
}

std::vector<hr_record> records_of(const exercise &ex)
{
	std::vector<hr_record> out;
	run_hr_scenario(ex.sc, [&](const hr_record &r) { out.push_back(r); });
	return out;
}

// The hrtimer model answers (the wheel's records are empty for this kind).
std::string answer(const exercise &ex, const std::vector<step_record> &)
{
	std::string out;
	std::string next = "none";
	for (const hr_record &r : records_of(ex)) {
		for (const hr_run &x : r.runs)
			out += x.timer + "@" + num(x.at) + (x.softirq ? "(softirq) " : " ");
		if (r.device)
			next = num(*r.device);
		else if (r.device_stopped)
			next = "none";
	}
	return out + "next=" + next;
}

std::vector<std::string> working(const exercise &ex, const std::vector<step_record> &)
{
	std::vector<std::string> w;
	for (const hr_record &r : records_of(ex)) {
		w.push_back(r.text + ":");
		for (const hr_event &e : r.events) {
			w.push_back("  " + e.text);
			std::size_t pos = 0;
			while (pos < e.why.size()) {
				std::size_t end = e.why.find('\n', pos);
				if (end == std::string::npos)
					end = e.why.size();
				w.push_back("      " + e.why.substr(pos, end - pos));
				pos = end + 1;
			}
		}
	}
	return w;
}

}  // namespace kind_coalesce

}  // namespace

const kind_def coalesce_kind = {lab_kind::coalesce, "coalesce", 5, kind_coalesce::make, kind_coalesce::answer, kind_coalesce::working};

}  // namespace timersim::lab
