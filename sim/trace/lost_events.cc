#include "sim/trace/lost_events.h"

#include <algorithm>

namespace timersim {

bool lost_event_notes::note(std::uint32_t cpu, std::uint64_t events, std::uint64_t &total,
			    std::vector<lost_on_cpu> &by_cpu)
{
	// A CPU's count is part of the total: it cannot pass it.
	if (!add_lost_events(total, events))
		return false;
	auto at = std::lower_bound(by_cpu.begin(), by_cpu.end(), cpu,
				   [](const lost_on_cpu &l, std::uint32_t c) { return l.cpu < c; });
	if (at == by_cpu.end() || at->cpu != cpu)
		at = by_cpu.insert(at, lost_on_cpu{cpu, 0, 0});
	at->events += events;
	at->notes++;
	if (std::find(waiting_.begin(), waiting_.end(), cpu) == waiting_.end())
		waiting_.push_back(cpu);
	return true;
}

bool lost_event_notes::take(std::uint32_t cpu)
{
	auto at = std::find(waiting_.begin(), waiting_.end(), cpu);
	if (at == waiting_.end())
		return false;
	waiting_.erase(at);
	return true;
}

}  // namespace timersim
