// The workload kinds of `timersim gen`, one file each, and their registry.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/gen/machine.h"
#include "sim/gen/rng.h"
#include "sim/gen/workload.h"

namespace timersim::gen {

// What a kind's constructor gets besides its parameters.
struct source_context {
	machine &m;
	std::uint64_t seed;	// this workload's own stream
	double scale;		// --scale: multiplies rates and populations
	unsigned index;		// position in the mixture (addresses differ per workload)
};

struct kind_info {
	const char *name;
	const char *what;	// one line for --list-workloads
	std::vector<param_spec> params;
	std::unique_ptr<source> (*make)(const workload_params &p, const source_context &ctx);
};

// Every kind, in the order --list-workloads prints them.
const std::vector<const kind_info *> &workload_kinds();
const kind_info *find_kind(const std::string &name);
std::string kind_names();	// "networking, lognormal, ..."

extern const kind_info networking_kind;		// networking.cc
extern const kind_info lognormal_kind;		// oneshot.cc
extern const kind_info exponential_kind;	// oneshot.cc
extern const kind_info periodic_kind;		// periodic.cc
extern const kind_info guards_kind;		// guards.cc
extern const kind_info adversarial_kind;	// adversarial.cc
extern const kind_info bursts_kind;		// bursts.cc
extern const kind_info fitted_kind;		// fitted.cc

// Helpers the kinds share.
// A CPU for a new object: `pinned` (>= 0) or uniformly any.
unsigned pick_cpu(machine &m, rng &r, int pinned);
// Simulation time of the next Poisson arrival after `now` at `rate` per second.
std::uint64_t next_arrival(rng &r, std::uint64_t now_ns, double rate);
// Kernel-like addresses for workload `index`'s object pool `which`:
// 0xffff8800_00000000-style slab addresses, a different range per pool.
std::uint64_t pool_base(unsigned index, unsigned which);

}  // namespace timersim::gen
