// Where the event chunks of a stream live: slabs of 2 MiB, 2 MiB aligned,
// with transparent huge pages asked for (madvise; the kernel may say no).
//
// A replay starts by reading some 65,536 events ahead (the trace's shape,
// the tick), 128 chunks of 32 KiB: in 4 KiB pages some 1,000 first-touch
// faults, each microseconds on a virtual machine, as much as a small
// trace.dat or CTF replay's own work; in huge pages they are four.
// Chunks are never given back one by one: the streams reuse theirs, and
// the arena unmaps its slabs when it goes.
#pragma once

#include <cstddef>
#include <vector>

#include "sim/trace/huge_pages.h"

namespace timersim {

struct sim_event;	// sim/stream/event_stream.h

class chunk_arena {
public:
	// EVENTS: the sim_events in each chunk taken.
	explicit chunk_arena(std::size_t events);
	~chunk_arena();
	chunk_arena(const chunk_arena &) = delete;
	chunk_arena &operator=(const chunk_arena &) = delete;

	// A new chunk of default sim_events, valid while the arena lives.
	sim_event *take();
	// A new chunk whose events the caller writes whole before it reads
	// any (to_sim_event does): not made default first, a store of every
	// byte that the writes would repeat.
	sim_event *take_for_overwrite();

private:
	std::size_t chunk_bytes_;
	std::vector<huge_region> slabs_;
	char *next_ = nullptr;		// the free part of the last slab
	char *end_ = nullptr;
};

}  // namespace timersim
