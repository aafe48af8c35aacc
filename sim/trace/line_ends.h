// Where the lines of a block of text in memory end, found in one pass
// before any is parsed. A block of a text trace holds two thousand lines of
// ~120 bytes: a memchr from each line's start costs a call and its set-up
// every line (some 60 instructions); one pass over the block, 64 bytes a
// compare with AVX-512BW or 32 with AVX2 (taken when the CPU has them,
// else SSE2's 16), some 25 to 45.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace timersim {

class lf_line_index {
public:
	// Room for the line ends of this many lines a pass (32 KiB).
	static constexpr std::size_t room = 8192;

	lf_line_index() : ends_(new std::uint32_t[room]) {}

	// Indexes the '\n' of [BEGIN, END) (less than 4 GiB) from its start:
	// all of them, or those of a first part when they do not fit the
	// room. A '\r' there is a stray line end in a file whose lines end
	// with LF, which line_source judges: the index then stops before the
	// line that holds the first one. Returns how many bytes from BEGIN
	// the index stands for: every '\n' before that offset is in it.
	// With the widest compare the CPU has up to WIDEST (the tests
	// compare them all).
	enum width { sse2, avx2, avx512 };
	std::size_t index(const char *begin, const char *end, int widest = avx512);
	// The offsets from BEGIN of the '\n' indexed, in order.
	const std::uint32_t *begin() const { return ends_.get(); }
	const std::uint32_t *end() const { return ends_.get() + count_; }
	// Whether the last index() stopped at a '\r'.
	bool stray_cr() const { return stray_cr_; }

	static constexpr std::size_t window = 64;	// bytes compared a step

private:
	std::unique_ptr<std::uint32_t[]> ends_;
	std::size_t count_ = 0;
	bool stray_cr_ = false;
};

}  // namespace timersim
