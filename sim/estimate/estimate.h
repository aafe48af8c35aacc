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
// work the replay booked to the softirq (replay_report::work): expiries,
// cascades, slot and bucket visits, next-expiry searches. Process context
// is the rest: start, cancel and re-arm, with the sifts, searches and
// relinks they make (a heap's sift-up on start is not softirq time).
#pragma once

#include <map>
#include <string>

#include "sim/replay/replay_report.h"

namespace timersim {

struct calibration {
	std::string path;
	std::map<std::string, double> ns_per_unit;	// scheme -> ns
	// The spread of ns/unit over the calibration's workloads (its "min"
	// and "max"), where the file gives one: the estimate's interval.
	std::map<std::string, std::pair<double, double>> ns_range;	// scheme -> min, max
};

// Reads the JSON `make calibrate` writes: {"schemes": {"classic":
// {"ns_per_unit": 2.3, ...}, ...}, ...}. Throws input_error naming the file
// and what is wrong.
calibration load_calibration(const std::string &path);

struct cost_estimate {
	bool known = false;		// the calibration has this scheme
	double ns_per_unit = 0;
	std::uint64_t units = 0;	// all cost units
	std::uint64_t process_units = 0;
	std::uint64_t softirq_units = 0;
	double total_ns = 0;
	double process_ns = 0;
	double softirq_ns = 0;
};

// The units of the timer softirq's work and of process context (see above).
std::uint64_t softirq_units(const replay_report &r);
std::uint64_t process_units(const replay_report &r);
std::uint64_t all_units(const replay_report &r);
cost_estimate estimate(const replay_report &r, const calibration &c);

// `compare --estimate`'s table: per scheme the units and times of each
// context, and each scheme's softirq time as a multiple of the first
// row's (2.00x: twice the first scheme's softirq time).
std::string estimate_table(const std::vector<replay_report> &reports, const calibration &c);

// `compare --json` with the estimates: {"schemes": [report, ...],
// "estimates": [{scheme, calibrated, units, process_units, softirq_units,
// ns_per_unit, process_ns, softirq_ns, total_ns}, ...]} (calibrated false and the times 0 for a
// scheme the calibration lacks; ns and ns_per_unit with 3 decimals).
std::string json_compare_estimated(const std::vector<replay_report> &reports, bool timing, const calibration &c);

}  // namespace timersim
