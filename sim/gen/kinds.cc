#include "sim/gen/kinds.h"

#include <cmath>
#include <limits>

namespace timersim::gen {

const std::vector<const kind_info *> &workload_kinds()
{
	static const std::vector<const kind_info *> kinds = {
		&networking_kind, &lognormal_kind, &exponential_kind, &periodic_kind,
		&guards_kind, &adversarial_kind, &bursts_kind, &fitted_kind,
	};
	return kinds;
}

const kind_info *find_kind(const std::string &name)
{
	for (const kind_info *k : workload_kinds())
		if (name == k->name)
			return k;
	return nullptr;
}

std::string kind_names()
{
	std::string s;
	for (const kind_info *k : workload_kinds())
		s += (s.empty() ? "" : ", ") + std::string(k->name);
	return s;
}

unsigned pick_cpu(machine &m, rng &r, int pinned)
{
	if (pinned >= 0)
		return static_cast<unsigned>(pinned) % m.cpus();
	return static_cast<unsigned>(r.below(m.cpus()));
}

std::uint64_t next_arrival(rng &r, std::uint64_t now_ns, double rate)
{
	if (rate <= 0)
		return std::numeric_limits<std::uint64_t>::max();
	double gap = r.exponential(1e9 / rate);
	// A rate scaled to next to nothing (--scale 1e-300): never, not an
	// overflowing conversion.
	if (!(gap < 1e18))
		return std::numeric_limits<std::uint64_t>::max();
	return now_ns + static_cast<std::uint64_t>(std::llround(gap));
}

std::uint64_t pool_base(unsigned index, unsigned which)
{
	// Direct-map addresses of a 64-bit kernel, 4 GB apart per pool.
	return 0xffff880000000000ull + ((std::uint64_t{index} * 8 + which + 1) << 32);
}

}  // namespace timersim::gen
