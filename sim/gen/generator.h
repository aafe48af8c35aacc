// `timersim gen`: a seeded, deterministic workload generator.
//
// A mixture of workloads (sim/gen/kinds.h) runs on an ideal Linux 3.x
// machine (sim/gen/machine.h) for a duration, and the result is a trace
// of the events that kernel would have recorded - written as raw tracefs
// text (write_ftrace) or read directly like a recording (make_gen_reader),
// so it replays, views and sweeps like one. By default the trace is of a
// 3.x kernel (no flags, no cpu=, expiries exactly at `expires`), so the
// report names `classic` as its wheel, and a classic replay matches every
// expiry; with kernel 6 it is of a 6.x kernel (bucket_expiry, cpu=, idx=,
// expiries at the bucket's expiry), modelled by `v48`.
//
// The same options give the same trace, byte for byte.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "sim/gen/machine.h"
#include "sim/gen/workload.h"
#include "sim/trace/reader.h"

namespace timersim::gen {

struct gen_options {
	std::vector<workload> workloads;
	std::uint64_t seed = 1;
	unsigned hz = 250;
	unsigned cpus = 1;
	std::uint64_t duration_ns = 10'000'000'000;
	double scale = 1.0;		// multiplies every rate and population
	bool slack = true;		// 3.x timer slack on mod_timer
	bool expiries = true;		// trace the ideal kernel's expiries
	kernel_gen kernel = kernel_gen::linux3;	// --kernel 3|6
	bool has_start = false;		// else INITIAL_JIFFIES + 1000 s of uptime
	jiffies_t start = 0;
};

// Throws usage_error for options out of range (naming the option).
void check_options(const gen_options &opt);

// A duration as `describe` writes it: "1.5s", "0.004s".
std::string seconds_text(std::uint64_t ns);

// The options as a `timersim gen` command line that reproduces them.
std::string describe(const gen_options &opt);

class source;

class generator {
public:
	explicit generator(const gen_options &opt);
	~generator();
	generator(const generator &) = delete;
	generator &operator=(const generator &) = delete;

	// Appends the events of the next jiffy; false at the end.
	bool step(std::vector<gen_event> &out) { return m_.step(out); }
	const machine &the_machine() const { return m_; }

private:
	machine m_;
	std::vector<std::unique_ptr<source>> sources_;
};

// The whole trace as raw tracefs text of a 3.x kernel. Returns the number
// of events. Write errors are the caller's to check (ferror).
std::uint64_t write_ftrace(const gen_options &opt, std::FILE *out);

// The trace as a reader, without the text in between: the events equal
// what the text reader returns for write_ftrace()'s output.
std::unique_ptr<trace_reader> make_gen_reader(const gen_options &opt);

}  // namespace timersim::gen
