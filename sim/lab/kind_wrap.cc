// `wrap`: INITIAL_JIFFIES and the 32-bit wrap. A timer armed near the wrap;
// why `expires > jiffies` is wrong and time_after() is right, where the
// wheel puts it and when it fires. Always 32-bit jiffies.
#include "kernel/jiffies.h"
#include "sim/lab/exercise_kinds.h"

namespace timersim::lab {

namespace {

// Named: sim/lab/kind_*.cc are compiled as one unit (Makefile, LIB_UNITS),
// and each kind has its own make, answer and working.
namespace kind_wrap {

struct wrap_case {
	std::uint64_t after_boot;	// jiffies since boot when A is armed
	std::int64_t timeout;		// expires = jiffies + timeout (negative: a past deadline)
};

wrap_case fixed_case(unsigned hz, unsigned i)
{
	const std::uint64_t to_wrap = 300ull * hz;
	switch (i) {
	case 1: return {0, 100};			// right after boot: no wrap yet
	case 2: return {to_wrap - 100, 200};		// across the wrap
	case 3: return {to_wrap + 1000, -20};		// a deadline already past
	default: return {to_wrap - 10, 5000};		// across the wrap, into tv2
	}
}

wrap_case random_case(unsigned hz, lab_rng &rng)
{
	const std::uint64_t to_wrap = 300ull * hz;
	wrap_case c;
	// Mostly close to the wrap, on either side.
	c.after_boot = rng.chance(1, 5) ? rng.between(0, 2 * to_wrap)
					: to_wrap - 3000 + rng.between(0, 6000);
	c.timeout = rng.chance(1, 6) ? -static_cast<std::int64_t>(rng.between(1, 300))
				     : static_cast<std::int64_t>(rng.between(1, 1u << (rng.chance(1, 2) ? 8 : 15)));
	return c;
}

void make(exercise &ex, lab_rng *rng, unsigned fixed)
{
	const lab_config &cfg = ex.ref.cfg;
	const wrap_case c = rng ? random_case(cfg.hz, *rng) : fixed_case(cfg.hz, fixed);

	ex.sc = scenario_for(cfg);
	// Start at the moment A is armed: the classic wheel would walk every
	// jiffy since boot one by one.
	ex.sc.start = (kernel::initial_jiffies<std::uint32_t>(cfg.hz) + c.after_boot) & 0xffffffffull;
	const std::uint64_t t = static_cast<std::uint64_t>(c.timeout < 0 ? -c.timeout : c.timeout);
	push(ex.sc, arm_op(op_kind::add, "A", t, c.timeout < 0 ? -1 : 1));
	push(ex.sc, plain_op(op_kind::tick, c.timeout < 0 ? 1 : t + 1));

	ex.question = "A 32-bit kernel (unsigned long jiffies wrap at 2^32) at HZ " + num(cfg.hz) +
		      " boots with jiffies = INITIAL_JIFFIES,\n"
		      "(unsigned long)(unsigned int)(-300*HZ): the wrap comes five minutes after boot.\n" +
		      num(c.after_boot) + " jiffies after boot a driver arms timer A with " +
		      (c.timeout < 0 ? "expires = jiffies - " + num(t) + " (a deadline computed before a wait)"
				     : "expires = jiffies + " + num(t)) +
		      ";\nthe base is up to date (timer_jiffies = jiffies). Give: INITIAL_JIFFIES; A's expires;\n"
		      "whether `expires > jiffies` holds (naive) and whether time_after(expires, jiffies) does\n"
		      "(after); where A lands; and the jiffies value at which it fires. Values in hex.\n" +
		      classic_wheel_line(cfg);
	ex.answer_form = "initial=0x... expires=0x... naive=yes|no after=yes|no LEVEL[SLOT] fires=0x...";
}

std::string yes_no(bool b) { return b ? "yes" : "no"; }

std::string answer(const exercise &ex, const std::vector<step_record> &records)
{
	auto placed = events_of(records, wheel_event_kind::placed);
	auto fired = events_of(records, wheel_event_kind::expired);
	if (records.empty() || placed.empty())
		return "none";
	const wheel_event &p = *placed.front();
	const auto e = static_cast<std::uint32_t>(p.expires), now = static_cast<std::uint32_t>(p.jiffy);
	return "initial=" + word_hex(kernel::initial_jiffies<std::uint32_t>(ex.ref.cfg.hz), 32) + " expires=" + word_hex(p.expires, 32) +
	       " naive=" + yes_no(e > now) + " after=" + yes_no(kernel::time_after(e, now)) + " " +
	       place_name(p.level, p.slot) + " fires=" + (fired.empty() ? "?" : word_hex(fired.front()->jiffy, 32));
}

std::vector<std::string> working(const exercise &ex, const std::vector<step_record> &records)
{
	std::vector<std::string> w;
	const unsigned hz = ex.ref.cfg.hz;
	w.push_back("INITIAL_JIFFIES = (unsigned int)(-300 * " + num(hz) + ") = 2^32 - " + num(300ull * hz) + " = " +
		    word_hex(kernel::initial_jiffies<std::uint32_t>(hz), 32));
	auto placed = events_of(records, wheel_event_kind::placed);
	if (!placed.empty()) {
		const wheel_event &p = *placed.front();
		const auto e = static_cast<std::uint32_t>(p.expires), now = static_cast<std::uint32_t>(p.jiffy);
		w.push_back("when A is armed, jiffies = " + word_hex(now, 32) + "; expires = " + word_hex(e, 32) +
			    " (mod 2^32)");
		w.push_back("naive: " + num(e) + " > " + num(now) + " is " + (e > now ? "true" : "false"));
		w.push_back("time_after(expires, jiffies): (long)(jiffies - expires) = " +
			    std::to_string(static_cast<std::int32_t>(now - e)) + (kernel::time_after(e, now) ? " < 0: yes" : " >= 0: no"));
		add_why(w, p);
	}
	for (const wheel_event *f : events_of(records, wheel_event_kind::expired))
		w.push_back("A fires at jiffies " + word_hex(f->jiffy, 32));
	return w;
}

}  // namespace kind_wrap

}  // namespace

const kind_def wrap_kind = {lab_kind::wrap, "wrap", 4, kind_wrap::make, kind_wrap::answer, kind_wrap::working};

}  // namespace timersim::lab
