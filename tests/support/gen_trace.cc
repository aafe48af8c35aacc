#include "tests/support/gen_trace.h"

#include <cstdio>
#include <cstdlib>

#include "tests/support/text_trace_util.h"

namespace timersim::test {

gen::gen_options gen_opts(const std::string &mixture, unsigned hz, unsigned cpus, double seconds,
			  std::uint64_t seed)
{
	gen::gen_options o;
	o.workloads = gen::parse_mixture(mixture);
	o.hz = hz;
	o.cpus = cpus;
	o.duration_ns = static_cast<std::uint64_t>(seconds * 1e9);
	o.seed = seed;
	return o;
}

std::string gen_text(const gen::gen_options &opt)
{
	char *buf = nullptr;
	std::size_t len = 0;
	std::FILE *f = open_memstream(&buf, &len);
	gen::write_ftrace(opt, f);
	std::fclose(f);
	std::string s(buf, len);
	std::free(buf);
	return s;
}

std::string gen_file(const gen::gen_options &opt, const std::string &name)
{
	return write_temp(name, gen_text(opt));
}

replay_report replay_path(const std::string &path, const std::string &scheme,
			  std::vector<std::pair<std::string, std::string>> params)
{
	auto reader = open_trace(path, trace_format::auto_detect, {});
	replay_options opt;
	opt.scheme = scheme;
	opt.params = std::move(params);
	return replay_trace(*reader, path, opt);
}

}  // namespace timersim::test
