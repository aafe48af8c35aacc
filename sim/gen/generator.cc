#include "sim/gen/generator.h"

#include <cmath>
#include <cstdio>

#include "kernel/jiffies.h"
#include "sim/base/errors.h"
#include "sim/gen/kinds.h"
#include "sim/whatif/kernel_time.h"

namespace timersim::gen {

namespace {

// Traces start 1000 seconds after boot, as a recording rarely starts at 0.
constexpr std::uint64_t uptime_ns = 1000'000'000'000;

machine_options machine_for(const gen_options &opt)
{
	check_options(opt);
	machine_options mo;
	mo.hz = opt.hz;
	mo.cpus = opt.cpus;
	mo.start = opt.has_start ? opt.start
				 : kernel::initial_jiffies<std::uint64_t>(opt.hz) + std::uint64_t{1000} * opt.hz;
	mo.uptime_ns = uptime_ns;
	mo.duration_ns = opt.duration_ns;
	mo.slack = opt.slack;
	mo.expiries = opt.expiries;
	mo.kernel = opt.kernel;
	return mo;
}

}  // namespace

std::string seconds_text(std::uint64_t ns)
{
	char buf[40];
	std::snprintf(buf, sizeof buf, "%.9f", double(ns) / 1e9);
	std::string s = buf;
	while (s.back() == '0')
		s.pop_back();
	if (s.back() == '.')
		s.pop_back();
	return s + "s";
}

void check_options(const gen_options &opt)
{
	if (opt.workloads.empty())
		throw usage_error("gen: no workload given (--workload KIND[:K=V,...], or --like TRACE)");
	if (opt.hz < 10 || opt.hz > 10000)
		throw usage_error("gen: --hz " + std::to_string(opt.hz) + " out of range (10..10000)");
	if (opt.cpus < 1 || opt.cpus > 4096)
		throw usage_error("gen: --cpus " + std::to_string(opt.cpus) + " out of range (1..4096)");
	if (opt.duration_ns > 86400'000'000'000ull)
		throw usage_error("gen: --duration must be at most a day");
	// Shorter than a tick, a trace is a header without a jiffy in it.
	if (opt.duration_ns * opt.hz < 1'000'000'000)
		throw usage_error("gen: --duration " + seconds_text(opt.duration_ns) + " is shorter than a jiffy (" +
				  seconds_text((1'000'000'000 + opt.hz - 1) / opt.hz) + " at --hz " +
				  std::to_string(opt.hz) + ")");
	if (!(opt.scale > 0) || opt.scale > 1e6)
		throw usage_error("gen: --scale must be in (0, 10^6]");
	// A 64-bit kernel's jiffies never wrap (its replay refuses jiffies
	// that go backwards, and the machine compares expiries unwrapped): the
	// last jiffy plus the longest timeout stays at most 2^64 - 1.
	const std::uint64_t span = mul_div_up(opt.duration_ns, opt.hz, 1'000'000'000) + machine::max_timeout;
	if (opt.has_start && opt.start > ~std::uint64_t{0} - span)
		throw usage_error("gen: --start " + std::to_string(opt.start) +
				  ": the jiffies and expiries would pass 2^64 - 1 within --duration " +
				  seconds_text(opt.duration_ns) + " (a 64-bit kernel's never wrap); at most " +
				  std::to_string(~std::uint64_t{0} - span));
	// Each workload built once at this --scale: its populations times the
	// scale are refused here too (sweeps check their SPEC with this).
	for (const workload &w : opt.workloads) {
		const kind_info *k = find_kind(w.kind);
		if (!k)
			throw usage_error("gen: unknown workload kind '" + w.kind + "' (known: " + kind_names() + ")");
		machine_options mo;
		mo.duration_ns = 1;
		machine scratch(mo);
		k->make(workload_params(w, k->params), source_context{scratch, 1, opt.scale, 0});
	}
}

std::string describe(const gen_options &opt)
{
	char scale[32];
	std::snprintf(scale, sizeof scale, "%g", opt.scale);
	std::string s = "timersim gen --seed " + std::to_string(opt.seed) + " --hz " + std::to_string(opt.hz) +
			" --cpus " + std::to_string(opt.cpus) + " --duration " + seconds_text(opt.duration_ns);
	if (opt.scale != 1.0)
		s += std::string(" --scale ") + scale;
	if (opt.kernel == kernel_gen::linux6)
		s += " --kernel 6";
	else if (!opt.slack)
		s += " --no-slack";
	if (!opt.expiries)
		s += " --no-expiries";
	if (opt.has_start)
		s += " --start " + std::to_string(opt.start);
	for (const workload &w : opt.workloads)
		s += " --workload '" + w.text() + "'";
	return s;
}

generator::generator(const gen_options &opt) : m_(machine_for(opt))
{
	for (std::size_t i = 0; i < opt.workloads.size(); i++) {
		const workload &w = opt.workloads[i];
		const kind_info *k = find_kind(w.kind);
		if (!k)
			throw usage_error("gen: unknown workload kind '" + w.kind + "' (known: " + kind_names() + ")");
		workload_params p(w, k->params);
		// Each workload draws from its own stream, so that adding one to
		// a mixture leaves the others' choices as they were.
		std::uint64_t state = opt.seed + 0x632be59bd9b4e019ull * (i + 1);
		source_context ctx{m_, splitmix64(state), opt.scale, static_cast<unsigned>(i)};
		sources_.push_back(k->make(p, ctx));
	}
	for (auto &s : sources_)
		s->begin(m_);
}

generator::~generator() = default;

}  // namespace timersim::gen
