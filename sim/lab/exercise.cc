// The kinds' table, ids, and what all kinds share: scenarios, the run
// through the lab wheel, and answer_of().
#include <charconv>

#include "sim/base/errors.h"
#include "sim/lab/exercise_kinds.h"
#include "sim/lab/variant_key.h"

namespace timersim::lab {

namespace {

const kind_def &def_of(lab_kind k)
{
	switch (k) {
	case lab_kind::place: return place_kind;
	case lab_kind::cascade: return cascade_kind;
	case lab_kind::fire: return fire_kind;
	case lab_kind::next: return next_kind;
	case lab_kind::wrap: return wrap_kind;
	case lab_kind::v48: return v48_kind;
	case lab_kind::cost: return cost_kind;
	case lab_kind::coalesce: return coalesce_kind;
	}
	return place_kind;
}

// Each kind draws from its own stream: the same seed of two kinds gives
// unrelated problems.
std::uint64_t stream_of(lab_kind k, std::uint64_t seed)
{
	return seed * 0x100000001b3ull + static_cast<std::uint64_t>(k) * 0x9e3779b97f4a7c15ull;
}

}  // namespace

const std::vector<lab_kind> &lab_kinds()
{
	static const std::vector<lab_kind> all = {lab_kind::place, lab_kind::cascade, lab_kind::fire, lab_kind::next,
						  lab_kind::wrap,  lab_kind::v48,     lab_kind::cost,
						  lab_kind::coalesce};
	return all;
}

const char *lab_kind_name(lab_kind k) { return def_of(k).name; }

bool parse_lab_kind(const std::string &name, lab_kind &out)
{
	for (lab_kind k : lab_kinds())
		if (name == lab_kind_name(k)) {
			out = k;
			return true;
		}
	return false;
}

void parse_exercise_id(const std::string &id, bool &fixed, std::uint64_t &n)
{
	fixed = !id.empty() && (id[0] == 'F' || id[0] == 'f');
	const char *first = id.data() + (fixed ? 1 : 0), *last = id.data() + id.size();
	auto [end, ec] = std::from_chars(first, last, n);
	if (first == last || ec != std::errc() || end != last)
		throw usage_error("'" + id + "' is neither a seed (a number) nor a fixed exercise (F1, F2, ...)");
}

std::vector<std::string> fixed_ids(lab_kind kind)
{
	std::vector<std::string> ids;
	for (unsigned i = 1; i <= def_of(kind).fixed; i++)
		ids.push_back("F" + std::to_string(i));
	return ids;
}

exercise make_exercise(const exercise_ref &ref)
{
	const kind_def &def = def_of(ref.kind);
	exercise ex;
	ex.ref = ref;
	// Options a kind does not use are normalised away, so that the same
	// problem has one name.
	if (ref.kind == lab_kind::wrap)
		ex.ref.cfg.word_bits = 32;
	if (ref.kind == lab_kind::v48)
		ex.ref.cfg.base_small = false;
	if (ref.kind == lab_kind::coalesce)	// hrtimers: no wheel
		ex.ref.cfg = lab_config{};
	// The wheel options must make a wheel.
	wheel_setup check;
	check.hz = ex.ref.cfg.hz;
	check.word_bits = ex.ref.cfg.word_bits;
	validate(check);

	bool fixed = false;
	std::uint64_t n = 0;
	parse_exercise_id(ref.id, fixed, n);
	if (fixed) {
		if (n < 1 || n > def.fixed)
			throw usage_error(std::string(def.name) + " has fixed exercises F1 to F" + std::to_string(def.fixed) +
					  ", not " + ref.id);
		ex.ref.id = "F" + std::to_string(n);
		def.make(ex, nullptr, static_cast<unsigned>(n));
	} else {
		ex.ref.id = std::to_string(n);
		if (!ref.student.empty() && ref.secret.empty())
			throw usage_error("student " + ref.student +
					  "'s questions are a private variant: they need the instructor's --secret");
		// A private variant draws from a stream only the key makes.
		lab_rng rng(ref.student.empty() ? stream_of(ref.kind, n)
						: variant_stream(ref.secret, ref.student, def.name, n));
		def.make(ex, &rng, 0);
	}
	ex.sc.source = std::string(def.name) + "-" + ex.ref.id + ".txt";
	return ex;
}

std::vector<step_record> run_records(const exercise &ex)
{
	step_options opt;
	opt.scheme = ex.scheme;
	auto wheel = make_lab_wheel(resolve_setup(ex.sc, opt));
	std::vector<step_record> records;
	run_scenario(ex.sc, *wheel, [&](const step_record &r) { records.push_back(r); });
	return records;
}

std::string answer_of(const exercise &ex, const std::vector<step_record> &records)
{
	return def_of(ex.ref.kind).answer(ex, records);
}

solution solve(const exercise &ex)
{
	std::vector<step_record> records = run_records(ex);
	solution s;
	s.answer = answer_of(ex, records);
	s.working = def_of(ex.ref.kind).working(ex, records);
	return s;
}

// ---- shared by the kinds ----

scenario scenario_for(const lab_config &cfg)
{
	scenario s;
	s.hz = cfg.hz;
	s.word_bits = cfg.word_bits;
	if (cfg.base_small)
		s.base_small = true;
	return s;
}

scenario_op arm_op(op_kind kind, const std::string &timer, std::uint64_t expires, int relative)
{
	scenario_op op;
	op.kind = kind;
	op.timer = timer;
	op.value = expires;
	op.relative = relative;
	return op;
}

scenario_op plain_op(op_kind kind, std::uint64_t value)
{
	scenario_op op;
	op.kind = kind;
	op.value = value;
	return op;
}

void push(scenario &s, scenario_op op)
{
	op.line = s.ops.size() + 1;
	op.text = render_op(op);
	s.ops.push_back(op);
}

classic_shape classic_shape_for(const lab_config &cfg)
{
	return cfg.base_small ? classic_shape_of<kernel::geometry_small>(cfg.word_bits)
			      : classic_shape_of<kernel::geometry_normal>(cfg.word_bits);
}

std::string classic_wheel_line(const lab_config &cfg)
{
	return "A classic wheel (" + classic_shape_for(cfg).describe() + (cfg.base_small ? ", CONFIG_BASE_SMALL" : "") +
	       ", HZ " + num(cfg.hz) + ").";
}

std::string place_name(const std::string &level, unsigned slot)
{
	return (level.empty() ? "?" : level) + "[" + (slot == unknown_slot ? "?" : num(slot)) + "]";
}

std::vector<const wheel_event *> events_of(const std::vector<step_record> &records, wheel_event_kind kind)
{
	std::vector<const wheel_event *> out;
	for (const step_record &r : records)
		for (const wheel_event &e : r.events)
			if (e.kind == kind)
				out.push_back(&e);
	return out;
}

std::string scenario_lines(const scenario &s)
{
	std::string out;
	for (const scenario_op &op : s.ops)
		out += "  " + op.text + "\n";
	for (const hr_op &op : s.hr_ops)
		out += "  " + op.text + "\n";
	return out;
}

void add_why(std::vector<std::string> &working, const wheel_event &e, const std::string &indent)
{
	std::size_t pos = 0;
	while (pos < e.why.size()) {
		std::size_t end = e.why.find('\n', pos);
		if (end == std::string::npos)
			end = e.why.size();
		working.push_back(indent + e.why.substr(pos, end - pos));
		pos = end + 1;
	}
}

}  // namespace timersim::lab
