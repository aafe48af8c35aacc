// Structure check of a trace-cmd trace.dat before libtracecmd reads it.
//
// libtracecmd reads a truncated file as far as it goes and reports nothing
// when a cut falls between sections or CPU buffers, so the sizes and offsets
// that the file's own headers promise are checked against its real size
// here. Both layouts are walked: up to version 6 the header parts follow one
// another and the flyrecord block gives each CPU's data offset and size;
// version 7 is a chain of sections (16-byte header: id, flags, name, size),
// ending with the "strings" section that names them all.
#pragma once

#include <cstdint>
#include <string>

namespace timersim {

struct trace_dat_layout {
	unsigned version = 0;
	std::uint64_t file_size = 0;
	std::uint64_t sections = 0;	// v7: sections walked
	bool latency = false;		// latency-tracer text instead of event records
};

// Throws input_error (with the byte offset) when the file is shorter than
// its headers promise or a header is malformed.
trace_dat_layout check_trace_dat_layout(const std::string &path);

}  // namespace timersim
