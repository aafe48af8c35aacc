#include "sim/stream/chunk_arena.h"

#include "sim/stream/event_stream.h"

#include <new>
#include <type_traits>

namespace timersim {

chunk_arena::chunk_arena(std::size_t events) : chunk_bytes_(events * sizeof(sim_event)) {}

chunk_arena::~chunk_arena()
{
	// sim_event is trivially destructible: the slabs go as they are.
	static_assert(std::is_trivially_destructible_v<sim_event>);
	for (const huge_region &s : slabs_)
		unmap_huge(s);
}

sim_event *chunk_arena::take()
{
	sim_event *chunk = take_for_overwrite();
	std::size_t n = chunk_bytes_ / sizeof(sim_event);
	for (std::size_t i = 0; i < n; i++)
		new (chunk + i) sim_event();
	return chunk;
}

sim_event *chunk_arena::take_for_overwrite()
{
	// sim_event is an aggregate: its objects begin where the mapping is
	// written (implicit-lifetime types).
	static_assert(std::is_aggregate_v<sim_event>);
	if (std::size_t(end_ - next_) < chunk_bytes_) {
		slabs_.reserve(slabs_.size() + 1);	// no mapping lost to a throw
		huge_region r = map_huge(chunk_bytes_);
		slabs_.push_back(r);
		next_ = r.data;
		end_ = r.data + r.bytes;
	}
	auto *chunk = reinterpret_cast<sim_event *>(next_);
	next_ += chunk_bytes_;
	return chunk;
}

}  // namespace timersim
