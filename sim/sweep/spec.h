// `timersim sweep SPEC`: a sweep is every combination of its axes over its
// inputs, each combination (a cell) an independent replay with a stable id.
//
// SPEC is a small text file, one `key = value` per line, `#` starts a
// comment, relative paths are relative to the SPEC's folder (docs/sweeps.md
// documents every key for users; keep the two in step):
//
//   # classic vs v48 on a recording and on a generated webserver
//   out        = hz-study.d                 # results (default: SPEC.d)
//   trace      = ../shared/traces/linux-3.6-scp_dest/trace.txt
//   workload   = networking:rate=500;guards:timers=10000
//   duration   = 10s                        # of each generated trace
//   scheme     = classic, v48
//   param      = classic:order=fifo|lifo    # values of one parameter
//   hz         = 100, 250, 1000             # workloads: the HZ generated at
//   what_if_hz = recorded, 1000             # traces: --what-if-hz
//   geometry   = normal, base_small
//   expiries   = recorded, own              # own: --own-expiries / gen --no-expiries
//   kernel     = 3, 6                       # workloads: gen --kernel
//   cpus       = 1, 4                       # workloads
//   seed       = 1, 2, 3                    # workloads
//   scale      = 1, 10                      # workloads: --scale
//   calibration = ../build/calibration.json # adds the estimate columns
//   cost_model = ../docs/results/cost-model/model.json  # adds softirq_ns
//
// `trace`, `workload` and `param` may repeat; every other key is given at
// most once, its values comma-separated. Defaults: scheme classic, v48;
// hz 250; what_if_hz recorded; geometry normal; expiries recorded; kernel 3;
// cpus 1; seed 1; scale 1; duration 10s. A trace's cells take the trace's own CPUs and no seed or
// scale.
//
// Cells come in a fixed order (traces, then workloads; within an input
// hz/what_if_hz, kernel, cpus, seed, scale, scheme, parameters,
// geometry, expiries), which
// numbers them for Slurm's array index. A cell's id is a hash of what it
// is (its input and axis values), not of its place, so it survives the
// spec growing or being reordered; whether its result may be reused is
// its key's business (cell_key.h: the program and the inputs' bytes too).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace timersim::sweep {

struct cell {
	std::size_t index = 0;
	std::string id;			// 16 hex digits
	std::string key;		// the canonical description the id hashes
	bool generated = false;		// a workload (else a trace)
	std::string input;		// the trace path as written, or the mixture
	std::string scheme;
	std::vector<std::pair<std::string, std::string>> params;
	unsigned hz = 0;		// workload: HZ; trace: what-if HZ, 0 = as recorded
	bool base_small = false;
	bool own_expiries = false;	// drop the recorded expiries (gen: --no-expiries)
	unsigned cpus = 0;		// workload only
	std::uint64_t seed = 0;		// workload only
	double scale = 1;		// workload only
	std::uint64_t duration_ns = 0;	// workload only
	unsigned kernel = 3;		// workload only: gen --kernel
};

struct spec {
	std::string path;		// of the SPEC file
	std::string dir;		// its folder
	std::string out;		// the results folder
	std::string calibration;	// empty: none
	std::string cost_model;		// a fitted softirq-run model (--cost-model); empty: none
	std::vector<cell> cells;

	// A path as written in the SPEC, resolved against its folder.
	std::string resolve(const std::string &p) const;
	std::string cells_dir() const { return out + "/cells"; }
	std::string result_path(const cell &c) const { return cells_dir() + "/" + c.id + ".json"; }
};

// Reads and expands SPEC. Throws input_error naming the line for a bad
// key, value, workload or scheme, a value gen refuses, a cell given twice,
// a trace that does not open or a calibration that does not load - what
// would fail every cell it is in - and for more than 100,000 cells (counted
// before any is built), a control character, a line past 1 MiB (a path or a
// mixture past 4096 bytes) or a SPEC past 16 MiB.
spec load_spec(const std::string &path);
// The same from the SPEC's text; `path` names it in errors and anchors its
// relative paths (nothing is read from the file system: traces and the
// calibration are not checked).
spec parse_spec(const std::string &text, const std::string &path);

// The cell named by an id, or by its index ("7", digits only); throws
// usage_error.
const cell &find_cell(const spec &s, const std::string &id_or_index);

}  // namespace timersim::sweep
