#include "tests/support/browser.h"

#include <cstdio>

namespace timersim::test {

const char chromium[] = "/usr/bin/chromium";

std::string run_capture(const std::string &cmd, int &status)
{
	std::string out;
	FILE *p = popen(cmd.c_str(), "r");
	if (!p) {
		status = -1;
		return out;
	}
	char buf[4096];
	std::size_t n;
	while ((n = fread(buf, 1, sizeof buf, p)) > 0)
		out.append(buf, n);
	status = pclose(p);
	return out;
}

}  // namespace timersim::test
