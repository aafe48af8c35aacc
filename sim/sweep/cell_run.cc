// One cell of a sweep: its input (a trace, maybe at a what-if HZ, or a
// generated workload read straight from the generator) through its scheme,
// and the result line.
#include <cmath>
#include <memory>

#include <nlohmann/json.hpp>

#include "sim/base/errors.h"
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

nlohmann::ordered_json cell_result(const spec &s, const cell &c)
{
	unsigned recorded_hz = 0;
	replay_report r = replay_cell(s, c, recorded_hz);

	nlohmann::ordered_json j;
	j["id"] = c.id;
	j["index"] = c.index;
	j["input_kind"] = c.generated ? "workload" : "trace";
	j["input"] = c.input;
	j["kernel"] = r.input.kernel;
	j["scheme"] = r.scheme;
	std::string params;
	for (const auto &[k, v] : c.params)
		params += (params.empty() ? "" : ",") + k + "=" + v;
	j["params"] = params;
	j["hz"] = r.input.hz;
	j["recorded_hz"] = recorded_hz;
	j["geometry"] = c.base_small ? "base_small" : "normal";
	j["expiries"] = c.own_expiries ? "own" : "recorded";
	j["cpus"] = r.input.cpus;
	j["seed"] = c.generated ? nlohmann::ordered_json(c.seed) : nlohmann::ordered_json();
	j["scale"] = c.generated ? nlohmann::ordered_json(c.scale) : nlohmann::ordered_json();
	j["seconds"] = c.generated ? double(c.duration_ns) / 1e9
				   : rounded(r.input.last_seconds - r.input.first_seconds, 1e-6);

	j["events"] = r.input.events;
	j["timers_started"] = r.timers.started;
	j["timers_rearmed"] = r.timers.rearmed;
	j["timers_canceled"] = r.timers.canceled;
	j["timers_expired"] = r.timers.expired;
	j["pending_at_end"] = r.timers.pending_at_end;
	j["ticks"] = r.ticks_processed;
	j["moved_total"] = r.cascade.moved_total;
	j["moved_then_canceled"] = r.cascade.moved_then_canceled;
	j["moved_then_rearmed"] = r.cascade.moved_then_rearmed;
	j["max_moved_in_one_tick"] = r.cascade.max_moved_in_one_tick;
	j["insertions"] = r.costs.insertions;
	j["removals"] = r.costs.removals;
	j["relinks"] = r.costs.relinks;
	j["slot_visits"] = r.costs.slot_visits;
	j["key_comparisons"] = r.costs.key_comparisons;
	j["units"] = all_units(r);
	j["softirq_units"] = softirq_units(r);
	j["fidelity_compared"] = r.fidelity.compared;
	j["fidelity_exact"] = r.fidelity.exact;
	j["lateness_max"] = r.lateness.max;
	j["lateness_mean"] = r.lateness.expiries ? rounded(double(r.lateness.total) / double(r.lateness.expiries), 1e-4)
						 : 0.0;
	j["peak_scheme_bytes"] = r.peak_scheme_bytes;

	for (const char *k : {"ns_per_unit", "softirq_us", "softirq_us_lo", "softirq_us_hi", "total_us", "total_us_lo",
			      "total_us_hi"})
		j[k] = nullptr;
	if (!s.calibration.empty()) {
		calibration cal = load_calibration(s.calibration);
		cost_estimate e = estimate(r, cal);
		if (e.known) {
			auto us = [](double units, double ns) { return rounded(units * ns / 1e3, 1e-3); };
			j["ns_per_unit"] = e.ns_per_unit;
			j["softirq_us"] = us(double(e.softirq_units), e.ns_per_unit);
			j["total_us"] = us(double(e.units), e.ns_per_unit);
			auto range = cal.ns_range.find(r.scheme);
			if (range != cal.ns_range.end()) {
				auto [lo, hi] = range->second;
				j["softirq_us_lo"] = us(double(e.softirq_units), lo);
				j["softirq_us_hi"] = us(double(e.softirq_units), hi);
				j["total_us_lo"] = us(double(e.units), lo);
				j["total_us_hi"] = us(double(e.units), hi);
			}
		}
	}
	for (const char *k : {"softirq_ns", "softirq_ns_lo", "softirq_ns_hi", "softirq_ns_is", "modelled_softirq_ns",
			      "measured_softirq_ns", "modelled_softirq_ns_folds", "softirq_model"})
		j[k] = nullptr;
	if (r.modelled.given) {
		const measured::prediction &p = r.modelled.softirq;
		j["modelled_softirq_ns"] = std::round(p.ns);
		j["softirq_model"] = measured::model_source_name(r.modelled.model.source);
		if (!r.modelled.folds.empty()) {
			std::string folds;
			for (double f : r.modelled.folds)
				folds += (folds.empty() ? "" : ";") + std::to_string(std::llround(f));
			j["modelled_softirq_ns_folds"] = folds;
		}
		// What the recording kernel measured is this cell's figure when
		// the cell replays the kernel's own scheme as recorded (not at a
		// what-if HZ, nor with its expiries dropped).
		bool measured_here = r.measured.softirqs_recorded && !c.generated && !c.hz && !c.own_expiries &&
				     r.scheme == r.input.kernel_scheme;
		if (measured_here) {
			double ns = double(r.measured.all.timer_softirq.overhead_ns());
			j["measured_softirq_ns"] = ns;
			j["softirq_ns"] = ns;
			j["softirq_ns_lo"] = ns;
			j["softirq_ns_hi"] = ns;
			j["softirq_ns_is"] = "measured";
		} else {
			j["softirq_ns"] = std::round(p.ns);
			j["softirq_ns_lo"] = std::round(p.low);
			j["softirq_ns_hi"] = std::round(p.high);
			j["softirq_ns_is"] = "modelled";
		}
	}
	// One definition of the columns: the line has exactly them, in order.
	std::size_t i = 0;
	for (auto it = j.begin(); it != j.end(); ++it, ++i)
		if (i >= result_columns().size() || it.key() != result_columns()[i])
			throw std::logic_error("sweep: result key " + it.key() + " out of step with result_columns()");
	return j;
}

}  // namespace

std::string run_cell(const spec &s, const cell &c) { return cell_result(s, c).dump(); }

std::string run_cell(const spec &s, const cell &c, const cell_key &k)
{
	nlohmann::ordered_json j = cell_result(s, c);
	k.record(j);
	return j.dump();
}

}  // namespace timersim::sweep
