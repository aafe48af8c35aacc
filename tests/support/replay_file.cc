#include "tests/support/replay_file.h"

#include "sim/trace/reader.h"

namespace timersim::test {

replay_options recording_options()
{
	replay_options opt;
	opt.scheme = auto_scheme;
	opt.hz = 250;
	return opt;
}

replay_report replay_file(const std::string &path, const replay_options &opt)
{
	auto reader = open_trace(path, trace_format::auto_detect, {});
	return replay_trace(*reader, path, opt);
}

}  // namespace timersim::test
