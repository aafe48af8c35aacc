// Events a tracer recorded as lost: LTTng counts the events it discarded
// (its sub-buffers were full) in each CTF packet's context. A replay that
// misses them must say so, with where they went missing.
#pragma once

#include <cstdint>
#include <string>

namespace timersim {

struct lost_packet {
	std::string stream;		// the stream file, as named in the trace
	std::uint64_t packet = 0;	// its packet, from 0
	std::uint64_t offset = 0;	// the packet's byte offset in the file
	std::uint64_t events = 0;	// events lost since the stream's previous packet
};

}  // namespace timersim
