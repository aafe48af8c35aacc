// The libbabeltrace 1.x reader of LTTng CTF traces, kept as the reference
// that our own CTF reader (make_ctf_reader, reader.h) is tested and
// benchmarked against: the same events, fields and order on intact traces.
//
// It trusts the trace: libbabeltrace 1.x corrupts its heap or loops on some
// damaged data, which is why open_trace() does not use it. It reads in one
// pass, so declared_cpus() is 0.
#pragma once

#include <memory>
#include <string>

#include "sim/trace/reader.h"

namespace timersim {

std::unique_ptr<trace_reader> make_ctf_babeltrace_reader(const std::string &path,
							 const reader_options &opt);

}  // namespace timersim
