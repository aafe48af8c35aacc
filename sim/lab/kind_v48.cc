// `v48`: the 4.8+ trade. Level, granularity, bucket_expiry, and how late
// the non-cascading wheel fires a timeout (never early, up to 12.5% late).
#include "sim/lab/exercise_kinds.h"
#include "sim/lab/scheme_view.h"

namespace timersim::lab {

namespace {

// Named: sim/lab/kind_*.cc are compiled as one unit (Makefile, LIB_UNITS),
// and each kind has its own make, answer and working.
namespace kind_v48 {

v48_shape shape_for(const lab_config &cfg)
{
	return kernel::v48::lvl_depth_for_hz(cfg.hz) == 9
		       ? v48_shape_of<kernel::v48::geometry_hz_gt_100>(cfg.word_bits)
		       : v48_shape_of<kernel::v48::geometry_hz_le_100>(cfg.word_bits);
}

struct v48_case {
	std::uint64_t clk;
	std::int64_t delta;	// expires - clk
};

v48_case fixed_case(const v48_shape &g, unsigned i)
{
	switch (i) {
	case 1: return {0, 100};		// LVL1: 8 jiffies granularity
	case 2: return {0, 5000};		// LVL3
	case 3: return {0, 63};			// LVL_START(1): the first of LVL1
	case 4: return {0, 512};		// a multiple of the granularity: the full 12.5%
	case 5: return {0, 10};			// LVL0 rounds up too: one jiffy
	default: return {0, static_cast<std::int64_t>(g.cutoff + 1000)};	// beyond the cutoff
	}
}

v48_case random_case(const v48_shape &g, lab_rng &rng)
{
	v48_case c;
	c.clk = rng.chance(1, 2) ? rng.between(0, 1u << 20) : rng.between(0, g.word_bits == 32 ? 0xffffffffull : 1ull << 40);
	const unsigned what = rng.pick(12);
	if (what == 0) {
		c.delta = -static_cast<std::int64_t>(rng.between(1, 50));
	} else if (what == 1) {
		c.delta = static_cast<std::int64_t>(g.cutoff + rng.between(0, 1u << 24));
	} else {
		const unsigned lvl = rng.pick(g.depth);
		const std::uint64_t lo = lvl ? g.start[lvl] : 0;
		const std::uint64_t hi = lvl + 1 < g.depth ? g.start[lvl + 1] - 1 : g.cutoff - 1;
		// Often a multiple of the granularity: the worst case.
		std::uint64_t d = rng.between(lo, hi);
		if (rng.chance(1, 3))
			d = (d >> (3 * lvl)) << (3 * lvl);
		c.delta = static_cast<std::int64_t>(d < lo ? lo : d);
	}
	return c;
}

void make(exercise &ex, lab_rng *rng, unsigned fixed)
{
	const lab_config &cfg = ex.ref.cfg;
	const v48_shape g = shape_for(cfg);
	const std::uint64_t mask = cfg.word_bits == 32 ? 0xffffffffull : ~std::uint64_t{0};
	v48_case c = rng ? random_case(g, *rng) : fixed_case(g, fixed);
	c.clk &= mask;
	const std::uint64_t expires = (c.clk + static_cast<std::uint64_t>(c.delta)) & mask;
	const std::uint64_t ahead = c.delta < 0 ? 0 : static_cast<std::uint64_t>(c.delta);

	ex.scheme = "v48";
	ex.sc = scenario_for(cfg);
	ex.sc.start = c.clk;
	push(ex.sc, arm_op(op_kind::add, "A", expires));
	// Past the bucket's expiry whatever the level: it is at most 1/7 on.
	push(ex.sc, plain_op(op_kind::run_to, (c.clk + ahead + ahead / 4 + 8) & mask));

	ex.question = "The non-cascading wheel of Linux 4.8+ at HZ " + num(cfg.hz) + " (LVL_DEPTH " + num(g.depth) +
		      ", 64 buckets a level, each level 8x coarser; " + num(cfg.word_bits) + "-bit jiffies).\n" +
		      "The base's clk is " + num(c.clk) + "; timer A is armed with expires = " + num(expires) + " (" +
		      (c.delta < 0 ? "already past" : "a timeout of " + num(ahead) + " jiffies") + ").\n" +
		      "Which level and bucket does it go to, what is that level's granularity, what is its\n"
		      "bucket_expiry, at which jiffy does it fire, and how late is that (fires - expires)?";
	ex.answer_form = "LVLn[BUCKET] gran=G bucket_expiry=B fires=F late=L";
}

std::string answer(const exercise &ex, const std::vector<step_record> &records)
{
	auto placed = events_of(records, wheel_event_kind::placed);
	auto fired = events_of(records, wheel_event_kind::expired);
	if (placed.empty())
		return "none";
	const wheel_event &p = *placed.front();
	const v48_shape g = shape_for(ex.ref.cfg);
	std::string gran = "?";
	if (p.level.rfind("LVL", 0) == 0)
		gran = num(g.gran[std::stoul(p.level.substr(3))]);
	std::string fires = "?", late = "?";
	if (!fired.empty()) {
		fires = num(fired.front()->jiffy);
		const std::uint64_t d = fired.front()->jiffy - p.expires;
		const std::int64_t sd = ex.ref.cfg.word_bits == 32 ? static_cast<std::int32_t>(static_cast<std::uint32_t>(d))
								    : static_cast<std::int64_t>(d);
		late = std::to_string(sd);
	}
	return place_name(p.level, p.slot) + " gran=" + gran + " bucket_expiry=" +
	       (p.bucket_expiry == unknown_value ? std::string("?") : num(p.bucket_expiry)) + " fires=" + fires +
	       " late=" + late;
}

std::vector<std::string> working(const exercise &, const std::vector<step_record> &records)
{
	std::vector<std::string> w;
	for (const wheel_event *e : events_of(records, wheel_event_kind::placed))
		add_why(w, *e);
	for (const wheel_event *e : events_of(records, wheel_event_kind::expired))
		add_why(w, *e);
	return w;
}

}  // namespace kind_v48

}  // namespace

const kind_def v48_kind = {lab_kind::v48, "v48", 6, kind_v48::make, kind_v48::answer, kind_v48::working};

}  // namespace timersim::lab
