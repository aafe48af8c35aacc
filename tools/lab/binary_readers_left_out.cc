// The lab build (`make lab`) leaves out the trace.dat reader (ours, with
// libtracecmd/libtraceevent behind it) and the CTF reader (libbabeltrace):
// a student's machine then needs neither library. open_trace still
// recognises those files by content and comes here, which refuses them
// with the way to a timersim that reads them -- exit 2 like any input the
// tool cannot read.
#include "sim/trace/reader.h"

namespace timersim {

namespace {

[[noreturn]] void refuse(const std::string &path, const char *format, const char *reader)
{
	throw input_error(path, 0, std::string(format) + ", but this timersim was "
			  "built by `make lab` without the " + reader + "; run `make` for the "
			  "full build (build/timersim), which reads it");
}

}  // namespace

std::unique_ptr<trace_reader> make_trace_dat_reader(const std::string &path,
						    const reader_options &)
{
	refuse(path, "a trace-cmd trace.dat file", "trace.dat reader");
}

std::unique_ptr<trace_reader> make_ctf_reader(const std::string &path, const reader_options &)
{
	refuse(path, "an LTTng CTF trace", "CTF reader");
}

}  // namespace timersim
