// One cell of a sweep: its input (a trace, maybe at a what-if HZ, or a
// generated workload read straight from the generator) through its scheme,
// and the result line.
#include <cmath>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "sim/base/errors.h"
#include "sim/base/json_writer.h"
#include "sim/replay/replay.h"
#include "sim/estimate/estimate.h"
#include "sim/gen/generator.h"
#include "sim/measured/model_file.h"
#include "sim/sweep/run.h"
#include "sim/whatif/hz_rescale.h"
#include "sim/whatif/own_expiries.h"
#include "sim/whatif/whatif.h"

namespace timersim::sweep {

const std::vector<std::string> &result_columns()
{
	static const std::vector<std::string> cols = {
		// what the cell is
		"id", "index", "input_kind", "input", "kernel", "scheme", "params", "hz", "recorded_hz",
		"geometry", "expiries", "cpus", "seed", "scale", "seconds",
		// what it measured (the replay report's keys)
		"events", "timers_started", "timers_rearmed", "timers_canceled", "timers_expired",
		"pending_at_end", "ticks", "moved_total", "moved_then_canceled", "moved_then_rearmed",
		"max_moved_in_one_tick", "insertions", "removals", "relinks", "slot_visits", "key_comparisons",
		"units", "softirq_units", "fidelity_compared", "fidelity_exact", "lateness_max", "lateness_mean",
		"peak_scheme_bytes",
		// with a calibration
		// (lo, hi: at the smallest and largest ns/unit the calibration
		// measured over its workloads, where it gives them)
		"ns_per_unit", "softirq_us", "softirq_us_lo", "softirq_us_hi", "total_us", "total_us_lo",
		"total_us_hi",
		// with a cost model (the timer softirq's own overhead, ns, over
		// the whole input): softirq_ns is the figure to use - measured
		// where the trace recorded this scheme's runs (the recording
		// kernel's own), else modelled, with the model's 95% interval -
		// and softirq_ns_is says which; the model's and the measurement's
		// figures beside it.
		"softirq_ns", "softirq_ns_lo", "softirq_ns_hi", "softirq_ns_is", "modelled_softirq_ns",
		"measured_softirq_ns",
		// the modelled figure by each of the model's held-out fits
		// (';'-separated): the same fits price every cell of one input,
		// so a ratio of two cells is as sure as they agree on it
		"modelled_softirq_ns_folds",
		// which model: self-calibrated (the recording's own runs),
		// reference (the built-in, where the input has none), file
		"softirq_model",
	};
	return cols;
}

namespace {

double rounded(double x, double unit) { return std::round(x / unit) * unit; }

replay_report replay_cell(const spec &s, const cell &c, unsigned &recorded_hz)
{
	replay_options opt;
	if (!s.cost_model.empty())
		opt.cost_model = std::make_shared<const measured::cost_model>(measured::load_model(s.cost_model));
	opt.scheme = c.scheme;
	opt.params = c.params;
	opt.base_small = c.base_small;
	if (c.generated) {
		gen::gen_options g;
		g.workloads = gen::parse_mixture(c.input);
		g.hz = c.hz;
		g.cpus = c.cpus;
		g.seed = c.seed;
		g.scale = c.scale;
		g.duration_ns = c.duration_ns;
		g.expiries = !c.own_expiries;
		g.kernel = c.kernel == 6 ? gen::kernel_gen::linux6 : gen::kernel_gen::linux3;
		recorded_hz = c.hz;
		// The HZ is known: a dense trace's first events may span too few
		// jiffies to infer it from.
		opt.hz = c.hz;
		auto reader = gen::make_gen_reader(g);
		return replay_trace(*reader, "gen:" + c.input, opt);
	}
	std::string path = s.resolve(c.input);
	recorded_clock clock = probe_recorded_clock(path, trace_format::auto_detect, {}, 0, 0);
	recorded_hz = clock.hz;
	// One model for every cell of a recording: its own (fitted on its
	// runs, paired with its kernel's scheme's work as recorded), which a
	// cell of another scheme, with the expiries dropped or at a what-if HZ
	// cannot fit itself. The kernel's own cell fits the same.
	if (s.cost_model.empty())
		opt.recording_model = std::make_shared<const measured::calibrated_model>(
			recording_model(path, trace_format::auto_detect, {}, opt));
	std::unique_ptr<trace_reader> reader = open_trace(path, trace_format::auto_detect, {});
	if (c.own_expiries)
		reader = make_own_expiries_reader(std::move(reader));
	if (!c.hz)
		return replay_trace(*reader, path, opt);
	reader = make_hz_rescale_reader(std::move(reader), clock.hz, c.hz, clock.word_bits);
	return replay_trace(*reader, path, what_if_options(opt, clock, c.hz));
}

// A cell's result line as it is written: each key checked against
// result_columns() as it comes, so that the line has exactly them, in
// order (one definition of the columns).
class result_line {
public:
	explicit result_line(std::string &out) : w_(out, json_writer::layout::one_line) { w_.begin_object(); }
	json_writer &operator[](std::string_view key)
	{
		const std::vector<std::string> &cols = result_columns();
		if (i_ >= cols.size() || key != cols[i_])
			throw std::logic_error("sweep: result key " + std::string(key) +
					       " out of step with result_columns()");
		i_++;
		w_.key(key);
		return w_;
	}
	// After the columns: the writer, for the key's fields.
	json_writer &rest()
	{
		if (i_ != result_columns().size())
			throw std::logic_error("sweep: a result line without all of result_columns()");
		return w_;
	}
	void end() { rest().end_object(); }

private:
	json_writer w_;
	std::size_t i_ = 0;
};

// Numbers whose value the cell may not have: null then.
void decimal_or_null(json_writer &w, const std::optional<double> &v, int decimals)
{
	if (v)
		w.value_decimal(*v, decimals);
	else
		w.null();
}

// The estimate's figures (us) from a calibration, where it has the scheme.
struct estimated_us {
	std::optional<double> ns_per_unit, softirq, softirq_lo, softirq_hi, total, total_lo, total_hi;
};

estimated_us estimate_of(const spec &s, const replay_report &r)
{
	estimated_us e;
	if (s.calibration.empty())
		return e;
	calibration cal = load_calibration(s.calibration);
	cost_estimate est = estimate(r, cal);
	if (!est.known)
		return e;
	auto us = [](double units, double ns) { return rounded(units * ns / 1e3, 1e-3); };
	e.ns_per_unit = est.ns_per_unit;
	e.softirq = us(double(est.softirq_units), est.ns_per_unit);
	e.total = us(double(est.units), est.ns_per_unit);
	auto range = cal.ns_range.find(r.scheme);
	if (range != cal.ns_range.end()) {
		auto [lo, hi] = range->second;
		e.softirq_lo = us(double(est.softirq_units), lo);
		e.softirq_hi = us(double(est.softirq_units), hi);
		e.total_lo = us(double(est.units), lo);
		e.total_hi = us(double(est.units), hi);
	}
	return e;
}

// The timer softirq's own overhead (ns) with a cost model: measured where
// the recording kernel ran this scheme as recorded, else modelled.
struct softirq_ns {
	std::optional<double> ns, lo, hi, modelled, measured;
	const char *is = nullptr;
	std::optional<std::string> folds;	// the held-out fits' figures, ';'-separated
	const char *model = nullptr;		// which model priced it
};

softirq_ns softirq_of(const cell &c, const replay_report &r)
{
	softirq_ns f;
	if (!r.modelled.given)
		return f;
	const measured::prediction &p = r.modelled.softirq;
	f.modelled = std::round(p.ns);
	f.model = measured::model_source_name(r.modelled.model.source);
	if (!r.modelled.folds.empty()) {
		std::string folds;
		for (double fold : r.modelled.folds)
			folds += (folds.empty() ? "" : ";") + std::to_string(std::llround(fold));
		f.folds = folds;
	}
	// What the recording kernel measured is this cell's figure when the
	// cell replays the kernel's own scheme as recorded (not at a what-if
	// HZ, nor with its expiries dropped).
	bool measured_here = r.measured.softirqs_recorded && !c.generated && !c.hz && !c.own_expiries &&
			     r.scheme == r.input.kernel_scheme;
	if (measured_here) {
		double ns = double(r.measured.all.timer_softirq.overhead_ns());
		f.measured = f.ns = f.lo = f.hi = ns;
		f.is = "measured";
	} else {
		f.ns = std::round(p.ns);
		f.lo = std::round(p.low);
		f.hi = std::round(p.high);
		f.is = "modelled";
	}
	return f;
}

// The cell's result line: the result columns, then with a key K its
// "key" and "key_of".
std::string cell_result(const spec &s, const cell &c, const cell_key *k)
{
	unsigned recorded_hz = 0;
	replay_report r = replay_cell(s, c, recorded_hz);
	std::string params;
	for (const auto &[key, v] : c.params)
		params += (params.empty() ? "" : ",") + key + "=" + v;
	const estimated_us e = estimate_of(s, r);
	const softirq_ns f = softirq_of(c, r);

	// Decimals: as many as the figure was rounded to, or (the spec's
	// scale, a calibration's ns) more than a person writes.
	std::string out;
	result_line j(out);
	j["id"].value(c.id);
	j["index"].value(std::uint64_t(c.index));
	j["input_kind"].value(c.generated ? "workload" : "trace");
	j["input"].value(c.input);
	j["kernel"].value(r.input.kernel);
	j["scheme"].value(r.scheme);
	j["params"].value(params);
	j["hz"].value(r.input.hz);
	j["recorded_hz"].value(recorded_hz);
	j["geometry"].value(c.base_small ? "base_small" : "normal");
	j["expiries"].value(c.own_expiries ? "own" : "recorded");
	j["cpus"].value(r.input.cpus);
	if (c.generated)
		j["seed"].value(c.seed);
	else
		j["seed"].null();
	decimal_or_null(j["scale"], c.generated ? std::optional<double>(c.scale) : std::nullopt, 9);
	j["seconds"].value_decimal(c.generated ? double(c.duration_ns) / 1e9
					       : rounded(r.input.last_seconds - r.input.first_seconds, 1e-6),
				   9);

	j["events"].value(r.input.events);
	j["timers_started"].value(r.timers.started);
	j["timers_rearmed"].value(r.timers.rearmed);
	j["timers_canceled"].value(r.timers.canceled);
	j["timers_expired"].value(r.timers.expired);
	j["pending_at_end"].value(r.timers.pending_at_end);
	j["ticks"].value(r.ticks_processed);
	j["moved_total"].value(r.cascade.moved_total);
	j["moved_then_canceled"].value(r.cascade.moved_then_canceled);
	j["moved_then_rearmed"].value(r.cascade.moved_then_rearmed);
	j["max_moved_in_one_tick"].value(r.cascade.max_moved_in_one_tick);
	j["insertions"].value(r.costs.insertions);
	j["removals"].value(r.costs.removals);
	j["relinks"].value(r.costs.relinks);
	j["slot_visits"].value(r.costs.slot_visits);
	j["key_comparisons"].value(r.costs.key_comparisons);
	j["units"].value(all_units(r));
	j["softirq_units"].value(softirq_units(r));
	j["fidelity_compared"].value(r.fidelity.compared);
	j["fidelity_exact"].value(r.fidelity.exact);
	j["lateness_max"].value(r.lateness.max);
	j["lateness_mean"].value_decimal(
		r.lateness.expiries ? rounded(double(r.lateness.total) / double(r.lateness.expiries), 1e-4) : 0.0, 4);
	j["peak_scheme_bytes"].value(r.peak_scheme_bytes);

	decimal_or_null(j["ns_per_unit"], e.ns_per_unit, 9);
	decimal_or_null(j["softirq_us"], e.softirq, 3);
	decimal_or_null(j["softirq_us_lo"], e.softirq_lo, 3);
	decimal_or_null(j["softirq_us_hi"], e.softirq_hi, 3);
	decimal_or_null(j["total_us"], e.total, 3);
	decimal_or_null(j["total_us_lo"], e.total_lo, 3);
	decimal_or_null(j["total_us_hi"], e.total_hi, 3);

	decimal_or_null(j["softirq_ns"], f.ns, 1);
	decimal_or_null(j["softirq_ns_lo"], f.lo, 1);
	decimal_or_null(j["softirq_ns_hi"], f.hi, 1);
	if (f.is)
		j["softirq_ns_is"].value(f.is);
	else
		j["softirq_ns_is"].null();
	decimal_or_null(j["modelled_softirq_ns"], f.modelled, 1);
	decimal_or_null(j["measured_softirq_ns"], f.measured, 1);
	if (f.folds)
		j["modelled_softirq_ns_folds"].value(*f.folds);
	else
		j["modelled_softirq_ns_folds"].null();
	if (f.model)
		j["softirq_model"].value(f.model);
	else
		j["softirq_model"].null();
	if (k)
		k->record(j.rest());
	j.end();
	return out;
}

}  // namespace

std::string run_cell(const spec &s, const cell &c) { return cell_result(s, c, nullptr); }

std::string run_cell(const spec &s, const cell &c, const cell_key &k) { return cell_result(s, c, &k); }

}  // namespace timersim::sweep
