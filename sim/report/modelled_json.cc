// The JSON report's `modelled` object: the cost model's prediction for the
// scheme, which model, its interval and how it was got, the blocked
// cross-validation and the verdict (sim/measured/calibration.h).
#include "sim/report/report_writers.h"

namespace timersim {

namespace {

void json_verdict(json_writer &w, const measured::verdict &v)
{
	w.begin_object();
	w.field_fixed("measured_ns", v.measured_ns, 0);
	w.field_fixed("predicted_ns", v.predicted_ns, 0);
	w.field_fixed("error", v.error(), 4);
	w.field_fixed("tolerance", v.tolerance, 2);
	w.field("within", v.within());
	w.end_object();
}

void json_names(json_writer &w, const char *key, const std::vector<std::string> &v)
{
	w.key(key);
	w.begin_array();
	for (const std::string &s : v)
		w.value(s);
	w.end_array();
}

// The elasticity of each measure the cross-validation used, by name.
void json_elasticities(json_writer &w, const measured::cross_validation &cv,
		       const std::array<double, measured::state_measures> &e)
{
	w.key("elasticities");
	w.begin_object();
	for (unsigned k = 0; k < measured::state_measures; k++)
		if (cv.used[k])
			w.field_fixed(measured::state_measure_name(k), e[k], 2);
	w.end_object();
}

}  // namespace

void write_json_modelled(json_writer &w, const replay_report &r)
{
	const modelled_cost &c = r.modelled;
	if (!c.given)
		return;
	const measured::calibrated_model &m = c.model;
	w.key("modelled");
	w.begin_object();
	w.field("source", measured::model_source_name(m.source));
	json_names(w, "sources", c.sources);
	w.field_fixed("state_ns", m.state_ns, 1);
	w.field_fixed("state_scale", m.scale, 4);
	w.field("runs", c.runs);
	w.field_fixed("softirq_overhead_ns", c.softirq.ns, 0);
	w.field_fixed("softirq_overhead_low_ns", c.softirq.low, 0);
	w.field_fixed("softirq_overhead_high_ns", c.softirq.high, 0);
	w.field("interval_from", m.interval_from);
	w.field_fixed("borrowed_ns", c.borrowed_ns, 0);
	json_names(w, "borrowed_terms", c.borrowed);
	json_names(w, "unfitted_terms", c.softirq.unfitted);
	if (!c.note.empty())
		w.field("note", c.note);
	// Written only where the model follows the state (the seconds of a
	// stretch add up to its ns).
	if (!c.stretches.empty()) {
		w.key("stretches");
		w.begin_array();
		for (const stretch_cost &s : c.stretches) {
			w.begin_object();
			w.field("first_second", std::uint64_t(s.first_second));
			w.field("first_ns", s.first_ns);
			w.field("last_ns", s.last_ns);
			w.field_fixed("factor", s.factor, 4);
			w.field_fixed("softirq_overhead_ns", s.ns, 0);
			w.field_fixed("softirq_overhead_low_ns", s.low, 0);
			w.field_fixed("softirq_overhead_high_ns", s.high, 0);
			w.end_object();
		}
		w.end_array();
	}
	w.key("cross_validation");
	if (!m.cross_validated) {
		w.null();
	} else {
		w.begin_object();
		w.key("blocks");
		w.begin_array();
		for (const measured::cv_block &b : m.cv.blocks) {
			w.begin_object();
			w.field("first_ns", b.first_ns);
			w.field("last_ns", b.last_ns);
			w.field("runs", b.runs);
			w.key("states");
			w.begin_object();
			for (unsigned k = 0; k < measured::state_measures; k++)
				w.field_fixed(measured::state_measure_name(k), b.states[k], 4);
			w.end_object();
			json_elasticities(w, m.cv, b.elasticities);
			w.key("verdict");
			json_verdict(w, b.v);
			w.end_object();
		}
		w.end_array();
		w.key("whole");
		json_verdict(w, m.cv.whole);
		w.field("blocks_within", std::uint64_t(m.cv.blocks_within));
		json_elasticities(w, m.cv, m.cv.elasticities);
		w.end_object();
	}
	w.key("check");
	if (!c.checked) {
		w.null();
	} else {
		w.begin_object();
		w.field("runs", c.check.runs);
		w.field_fixed("median_abs_error_ns", c.check.median_abs_error_ns, 1);
		w.field_fixed("p90_abs_error_ns", c.check.p90_abs_error_ns, 1);
		w.field_fixed("predicted_ns", c.check.predicted_ns, 0);
		w.field_fixed("measured_ns", c.check.measured_ns, 0);
		w.end_object();
	}
	w.key("verdict");
	if (!c.checked)
		w.null();
	else
		json_verdict(w, c.verdict);
	w.end_object();
}

}  // namespace timersim
