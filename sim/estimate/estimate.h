// `compare --estimate`: the CPU time each scheme would spend, from the cost
// units a replay counted and the nanoseconds per unit measured on this
// machine (`make calibrate`, tests/bench/bench_calibrate.cc).
//
// The calibration is one number per scheme: the Google Benchmark time of
// that scheme's start/cancel/advance calls on generated workloads, divided
// by the cost units (insertions + removals + relinks + slot visits + key
// comparisons) it counted there. The file keeps the per-workload values
// too: their spread is the error of this one-number model.
//
// Timer softirq time, the figure of the 4.8 rework, is the units of the
// tick's work: slots and buckets looked at (slot_visits), timers moved
// between levels (relinks) and timers removed because they expired (one
// removal per expiry). Insertions, removals by del_timer and re-arms, and
// key comparisons are counted as process context (mod_timer, del_timer).
// The split is exact for classic (its comparisons are 0) and close for v48
// (its comparisons are mostly made at enqueue).
#pragma once

#include <map>
#include <string>

#include "sim/core/replay_report.h"

namespace timersim {

struct calibration {
	std::string path;
	std::map<std::string, double> ns_per_unit;	// scheme -> ns
};

// Reads the JSON `make calibrate` writes: {"schemes": {"classic":
// {"ns_per_unit": 2.3, ...}, ...}, ...}. Throws input_error naming the file
// and what is wrong.
calibration load_calibration(const std::string &path);

struct cost_estimate {
	bool known = false;		// the calibration has this scheme
	double ns_per_unit = 0;
	std::uint64_t units = 0;	// all cost units
	std::uint64_t softirq_units = 0;
	double total_ns = 0;
	double softirq_ns = 0;
};

// The units of the timer softirq's work (see above).
std::uint64_t softirq_units(const replay_report &r);
std::uint64_t all_units(const replay_report &r);
cost_estimate estimate(const replay_report &r, const calibration &c);

// `compare --estimate`'s table: per scheme the units, ns/unit, softirq and
// total time, and each scheme's softirq time relative to the first row.
std::string estimate_table(const std::vector<replay_report> &reports, const calibration &c);

// `compare --json` with the estimates: {"schemes": [report, ...],
// "estimates": [{scheme, calibrated, units, softirq_units, ns_per_unit,
// softirq_ns, total_ns}, ...]} (calibrated false and the times 0 for a
// scheme the calibration lacks; ns and ns_per_unit with 3 decimals).
std::string json_compare_estimated(const std::vector<replay_report> &reports, bool timing, const calibration &c);

}  // namespace timersim
