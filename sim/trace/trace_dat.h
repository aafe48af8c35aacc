// The libtracecmd reader of trace-cmd trace.dat files, kept as the reference
// that our own reader (make_trace_dat_reader, reader.h) is tested and
// benchmarked against, and used by it for files it does not read itself
// (timestamp offset or TSC conversion options).
#pragma once

#include <memory>
#include <string>

#include "sim/trace/reader.h"

namespace timersim {

std::unique_ptr<trace_reader> make_trace_dat_libtracecmd_reader(const std::string &path,
								const reader_options &opt);

}  // namespace timersim
