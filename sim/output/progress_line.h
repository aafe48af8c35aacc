// The progress line on a terminal: megabytes and events read so far,
// redrawn at most once a second, erased at the end.
#pragma once

#include <chrono>
#include <cstdint>

#include "sim/replay/replay_sink.h"

namespace timersim {

class progress_line final : public progress_sink {
public:
	// `input_size`: bytes of the input when known (0: unknown).
	explicit progress_line(std::uint64_t input_size) : input_size_(input_size) {}
	void read(const reader_stats &stats, bool last) override;

private:
	std::uint64_t input_size_;
	std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

}  // namespace timersim
