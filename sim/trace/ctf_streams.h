// The stream files of a CTF trace directory, and whether they are all
// there, once each.
//
// A channel file deleted from an LTTng trace, or one copied in twice, still
// leaves a trace that reads: fewer events, or every event twice. Both are
// refused here, by what the trace says of itself:
// - LTTng 2.4+ writes index/<stream>.idx for every stream file: an index
//   naming a file that is absent, or a stream file no index names, is an
//   error (the index also gives every packet's offset and sizes, which the
//   packet reader checks);
// - every packet context of an LTTng kernel or per-UID trace carries the
//   CPU of its stream, and every channel has one stream per CPU: two files
//   holding the same stream class and CPU, a stream class the metadata
//   declares with events but that no file holds, or a CPU that one stream
//   class lacks while the trace has streams for higher or other CPUs, is an
//   error naming what is missing or doubled.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/trace/ctf_tsdl.h"

namespace timersim::ctf {

// One packet as index/<stream>.idx describes it (CTF index 1.0 / 1.1).
struct index_entry {
	std::uint64_t offset = 0;	// bytes
	std::uint64_t packet_bits = 0;
	std::uint64_t content_bits = 0;
	std::uint64_t stream_id = 0;
};

struct stream_file {
	std::string name;		// in the trace directory
	std::uint64_t size = 0;
	bool indexed = false;		// the trace has an index for it
	std::vector<index_entry> index;
};

// The stream files of DIR (every regular file but `metadata` and dot
// files), in name order, with their index entries. Throws input_error when
// DIR has no stream file, a stream file is empty, or the index and the
// stream files do not name each other.
std::vector<stream_file> list_stream_files(const std::string &dir);

// What a stream file's first packet says it is.
struct stream_identity {
	std::string name;
	std::uint64_t stream_id = 0;
	bool has_cpu = false;
	std::uint64_t cpu = 0;
};

// Throws input_error when two files hold one stream, or a stream the rest
// of the trace implies is missing (see above).
void check_stream_set(const std::string &dir, const trace_model &model,
		      const std::vector<stream_identity> &streams);

}  // namespace timersim::ctf
