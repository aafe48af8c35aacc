#include "tests/support/paths.h"

#include <cstdio>
#include <cstdlib>
#include <sys/stat.h>

namespace timersim::test {

std::string shared_trace(const std::string &rel)
{
	const char *env = std::getenv("TIMERSIM_SHARED");
	std::string path = std::string(env && *env ? env : "../shared") + "/traces/" + rel;
	struct stat st;
	return stat(path.c_str(), &st) == 0 ? path : std::string();
}

std::string timersim_bin()
{
	const char *env = std::getenv("TIMERSIM_BIN");
	return env && *env ? env : "build/timersim";
}

void skip_note(const std::string &why)
{
	std::fprintf(stderr, "SKIP: %s\n", why.c_str());
}

std::string shared_trace_or_skip(const std::string &rel)
{
	std::string path = shared_trace(rel);
	if (path.empty())
		skip_note("../shared/traces/" + rel + " not found: not checked");
	return path;
}

}  // namespace timersim::test
