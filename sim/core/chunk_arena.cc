#include "sim/core/chunk_arena.h"

#include "sim/core/event_stream.h"

#include <sys/mman.h>

#include <cstdint>
#include <new>
#include <type_traits>

namespace timersim {

namespace {

constexpr std::size_t slab_bytes = std::size_t{2} << 20;	// one x86-64 huge page

}  // namespace

chunk_arena::chunk_arena(std::size_t events) : chunk_bytes_(events * sizeof(sim_event)) {}

chunk_arena::~chunk_arena()
{
	// sim_event is trivially destructible: the slabs go as they are.
	static_assert(std::is_trivially_destructible_v<sim_event>);
	for (const slab &s : slabs_)
		munmap(s.base, s.bytes);
}

sim_event *chunk_arena::take()
{
	if (std::size_t(end_ - next_) < chunk_bytes_) {
		// A slab of whole huge pages holding at least one chunk, mapped
		// one huge page larger to find the alignment in it.
		std::size_t want = (chunk_bytes_ + slab_bytes - 1) / slab_bytes * slab_bytes;
		std::size_t bytes = want + slab_bytes;
		void *base = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (base == MAP_FAILED)
			throw std::bad_alloc();
		slabs_.push_back({base, bytes});
		auto at = reinterpret_cast<std::uintptr_t>(base);
		char *aligned = reinterpret_cast<char *>((at + slab_bytes - 1) & ~(slab_bytes - 1));
#ifdef MADV_HUGEPAGE
		madvise(aligned, want, MADV_HUGEPAGE);	// advice: no huge pages is no error
#endif
		next_ = aligned;
		end_ = aligned + want;
	}
	auto *chunk = reinterpret_cast<sim_event *>(next_);
	next_ += chunk_bytes_;
	std::size_t n = chunk_bytes_ / sizeof(sim_event);
	for (std::size_t i = 0; i < n; i++)
		new (chunk + i) sim_event();
	return chunk;
}

}  // namespace timersim
