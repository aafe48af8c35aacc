#include "sim/estimate/estimate.h"

#include <cmath>
#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/report/report_writers.h"
#include "sim/report/text_table.h"
#include "sim/trace/reader.h"
#include "sim/trace/small_input.h"

namespace timersim {

namespace {

// A calibration's ns a work unit is tens of ns; past a second (1e9) the
// estimates (times unit counts of up to 2^64) would leave a double's
// range and print as inf and nan.
constexpr double max_ns_per_unit = 1e9;

}  // namespace

calibration load_calibration(const std::string &path)
{
	if (access(path.c_str(), F_OK) != 0)
		throw input_error(path, 0, "cannot read the calibration (run `make calibrate`)");
	// `make calibrate` writes a few KiB; the bounds stop /dev/zero.
	nlohmann::json j = parse_json_input(read_small_text(path, 4u << 20, 1u << 20, "calibration"), path);
	calibration c;
	c.path = path;
	if (!j.is_object() || !j.contains("schemes") || !j["schemes"].is_object())
		throw input_error(path, 0, "no \"schemes\" object: not a timersim calibration");
	for (auto it = j["schemes"].begin(); it != j["schemes"].end(); ++it) {
		const nlohmann::json &s = it.value();
		if (!s.is_object() || !s.contains("ns_per_unit") || !s["ns_per_unit"].is_number())
			throw input_error(path, 0, "scheme \"" + it.key() + "\" has no number ns_per_unit");
		double ns = s["ns_per_unit"].get<double>();
		if (!(ns > 0) || !std::isfinite(ns))
			throw input_error(path, 0, "scheme \"" + it.key() + "\": ns_per_unit must be positive");
		if (ns > max_ns_per_unit)
			throw input_error(path, 0, "scheme \"" + it.key() + "\": ns_per_unit " +
						       s["ns_per_unit"].dump() + " is past 1 s (1e9 ns) a unit");
		c.ns_per_unit[it.key()] = ns;
		if (s.contains("min") && s.contains("max")) {
			if (!s["min"].is_number() || !s["max"].is_number())
				throw input_error(path, 0, "scheme \"" + it.key() + "\": min and max must be numbers");
			double lo = s["min"].get<double>(), hi = s["max"].get<double>();
			if (!(lo > 0) || !(lo <= hi) || !std::isfinite(hi))
				throw input_error(path, 0, "scheme \"" + it.key() + "\": min and max must be positive, "
										   "min <= max");
			if (hi > max_ns_per_unit)
				throw input_error(path, 0, "scheme \"" + it.key() + "\": max " + s["max"].dump() +
							       " is past 1 s (1e9 ns) a unit");
			c.ns_range[it.key()] = {lo, hi};
		}
	}
	if (c.ns_per_unit.empty())
		throw input_error(path, 0, "no scheme calibrated");
	return c;
}

std::uint64_t softirq_units(const replay_report &r)
{
	return r.work.softirq.total();
}

std::uint64_t process_units(const replay_report &r)
{
	return r.work.process.total();
}

std::uint64_t all_units(const replay_report &r)
{
	const cost_counters &c = r.costs;
	return c.insertions + c.removals + c.relinks + c.slot_visits + c.key_comparisons;
}

cost_estimate estimate(const replay_report &r, const calibration &c)
{
	cost_estimate e;
	e.units = all_units(r);
	e.softirq_units = softirq_units(r);
	e.process_units = process_units(r);
	auto it = c.ns_per_unit.find(r.scheme);
	if (it == c.ns_per_unit.end())
		return e;
	e.known = true;
	e.ns_per_unit = it->second;
	e.total_ns = double(e.units) * e.ns_per_unit;
	e.softirq_ns = double(e.softirq_units) * e.ns_per_unit;
	e.process_ns = double(e.process_units) * e.ns_per_unit;
	return e;
}

std::string estimate_table(const std::vector<replay_report> &reports, const calibration &c)
{
	std::string out = "\nestimated CPU time (calibration " + c.path + ")\n";
	const std::string first = reports.empty() ? std::string("-") : reports.front().scheme;
	text_table t;
	t.row({"scheme", "process units", "softirq units", "ns/unit", "process us", "softirq us",
	       "total us", "softirq / " + first});
	double base = 0;
	for (const replay_report &r : reports) {
		cost_estimate e = estimate(r, c);
		if (&r == &reports.front())
			base = e.softirq_ns;
		if (!e.known) {
			t.row({r.scheme, num(e.process_units), num(e.softirq_units), "-", "-", "-", "-", "-"});
			continue;
		}
		t.row({r.scheme, num(e.process_units), num(e.softirq_units), fmt::format("{:.2f}", e.ns_per_unit),
		       fmt::format("{:.1f}", e.process_ns / 1e3), fmt::format("{:.1f}", e.softirq_ns / 1e3),
		       fmt::format("{:.1f}", e.total_ns / 1e3),
		       base > 0 ? fmt::format("{:.2f}x", e.softirq_ns / base) : std::string("-")});
	}
	out += t.render();
	out += "\n  process: start, cancel, re-arm (mod_timer, del_timer), with the sifts,\n"
	       "  searches and relinks they make; softirq: the timer softirq's runs (expiry,\n"
	       "  cascades, slot and bucket visits, next-expiry searches); total: both.\n"
	       "  softirq / " + first + ": this scheme's softirq time divided by " + first +
	       "'s (2.00x: twice\n  as much); '-': the scheme is not calibrated.\n";
	return out;
}

std::string json_compare_estimated(const std::vector<replay_report> &reports, bool timing, const calibration &c)
{
	std::string out;
	json_writer w(out);
	w.begin_object();
	write_json_schemes(w, reports, timing);
	w.key("estimates");
	w.begin_array();
	for (const replay_report &r : reports) {
		cost_estimate e = estimate(r, c);
		w.begin_object();
		w.field("scheme", r.scheme);
		w.field("calibrated", e.known);
		w.field("units", e.units);
		w.field("process_units", e.process_units);
		w.field("softirq_units", e.softirq_units);
		w.field_fixed("ns_per_unit", e.ns_per_unit, 3);
		w.field_fixed("process_ns", e.process_ns, 3);
		w.field_fixed("softirq_ns", e.softirq_ns, 3);
		w.field_fixed("total_ns", e.total_ns, 3);
		w.end_object();
	}
	w.end_array();
	w.end_object();
	return out;
}

}  // namespace timersim
