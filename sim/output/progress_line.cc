#include "sim/output/progress_line.h"

#include <cstdio>

namespace timersim {

void progress_line::read(const reader_stats &st, bool last)
{
	auto now = std::chrono::steady_clock::now();
	if (last) {
		std::fprintf(stderr, "\r\033[K");
		return;
	}
	if (now - last_ < std::chrono::seconds(1))
		return;
	last_ = now;
	auto mb = static_cast<unsigned long long>(st.bytes >> 20);
	auto events = static_cast<unsigned long long>(st.events);
	if (input_size_)
		std::fprintf(stderr, "\r\033[Ktimersim: %llu of %llu MB, %llu events", mb,
			     static_cast<unsigned long long>(input_size_ >> 20), events);
	else
		std::fprintf(stderr, "\r\033[Ktimersim: %llu MB, %llu events", mb, events);
}

}  // namespace timersim
