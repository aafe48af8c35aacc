// Placeholder while the real reader is written: fails loudly, never silently.
#include "sim/trace/reader.h"

namespace timersim {

std::unique_ptr<trace_reader> make_ctf_reader(const std::string &path, const reader_options &)
{
	throw input_error(path, 0, "reader not implemented yet");
}

}  // namespace timersim
