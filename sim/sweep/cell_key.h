// What a sweep cell's result depends on, and so when a result on disk may
// be reused: the program that computed it, the cell's options, and the
// bytes of every file it read (its trace, the calibration).
//
// A cell's id (spec.h) names what the cell is and stays the same when the
// program or an input changes; its key is the SHA-256 of all of the above,
// recorded in its result file with the parts it was made of, so that a
// resumed sweep re-runs exactly the cells whose key differs and can say
// which part changed.
//
// The program is named by its version and the SHA-256 of its own
// executable's bytes (/proc/self/exe), not by a build-time id: the bytes
// cover every change to what runs - uncommitted edits, another compiler or
// flags, another library linked in - where a commit id or a build stamp
// would miss some and ccache would replay others. The cost is that a
// rebuild which changes nothing but the bytes re-runs the cells: stale in
// the safe direction.
#pragma once

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/base/json_writer.h"
#include "sim/sweep/spec.h"

namespace timersim::sweep {

struct cell_key {
	std::string program;		// "timersim VERSION exe-sha256:HEX"
	std::string options;		// the cell's description (cell::key)
	std::string trace;		// sha256 of the trace's bytes; empty for a workload
	std::string calibration;	// sha256 of the calibration's bytes; empty without one
	// sha256 of the cost model's bytes; empty without one (and then not
	// a part of the digest, so that the keys of sweeps without a model
	// are what they were before models).
	std::string cost_model;

	// SHA-256 of the parts, each part's name and length first.
	std::string digest() const;
	// "key": digest, "key_of": {program, options, trace, calibration[,
	// cost_model]}: the fields a result line ends with, into its object.
	void record(json_writer &w) const;
};

// This program's identity (hashed once per process).
const std::string &program_identity();
// When the code runs inside another program (the Python module inside
// python3), the file whose bytes name it instead of /proc/self/exe: the
// module's shared object ("module-sha256:"). Set before the first sweep.
void set_program_file(const std::string &path);

// Keys of a spec's cells; each input file hashed once however many cells
// read it.
class key_maker {
public:
	explicit key_maker(const spec &s) : spec_(s) {}
	cell_key of(const cell &c);

private:
	const std::string &file_hash(const std::string &path);
	const spec &spec_;
	std::map<std::string, std::string> hashes_;
};

// Why a result recorded under `recorded` (a parsed result line) is not the
// result `want` would compute: "" when its key matches, else the parts that
// differ ("the program changed", "the trace changed", "the calibration
// changed", "the options changed", "no key recorded (an older timersim)").
std::string stale_reason(const cell_key &want, const nlohmann::json &recorded);

}  // namespace timersim::sweep
