#include "sim/trace/stderr_capture.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <sys/mman.h>
#include <unistd.h>

namespace timersim {

stderr_capture::stderr_capture()
{
	std::fflush(stderr);
	file_ = memfd_create("timersim-stderr", MFD_CLOEXEC);
	if (file_ < 0)
		return;		// no capture: messages go to stderr as before
	saved_ = dup(2);
	if (saved_ < 0 || dup2(file_, 2) < 0) {
		if (saved_ >= 0)
			close(saved_);
		close(file_);
		saved_ = file_ = -1;
	}
}

stderr_capture::~stderr_capture()
{
	restore();
	if (file_ >= 0)
		close(file_);
}

void stderr_capture::restore()
{
	if (saved_ < 0)
		return;
	std::fflush(stderr);
	dup2(saved_, 2);
	close(saved_);
	saved_ = -1;
}

std::string stderr_capture::text()
{
	restore();
	if (file_ < 0)
		return {};
	char buf[4096];
	ssize_t n = pread(file_, buf, sizeof(buf), 0);
	std::string s(buf, n > 0 ? n : 0);
	while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
		s.pop_back();
	return s;
}

std::string first_error_line(const std::string &text)
{
	std::string first;
	std::size_t pos = 0;
	while (pos < text.size()) {
		std::size_t end = text.find('\n', pos);
		if (end == std::string::npos)
			end = text.size();
		std::string line = text.substr(pos, end - pos);
		std::string lower = line;
		std::transform(lower.begin(), lower.end(), lower.begin(),
			       [](unsigned char c) { return std::tolower(c); });
		if (lower.find("error") != std::string::npos)
			return line;
		if (first.empty())
			first = line;
		pos = end + 1;
	}
	return first;
}

}  // namespace timersim
