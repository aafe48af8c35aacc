#include "sim/trace/text_blocks.h"

#include <algorithm>
#include <cstring>

namespace timersim {

text_block_cutter::text_block_cutter(line_source &src, std::size_t block, std::size_t buffer)
	: src_(src), block_(std::max<std::size_t>(block, 2)), buffer_(std::max<std::size_t>(buffer, 2)),
	  eol_(src.line_end())
{
}

// Reads into B behind its first HAVE bytes until it holds WANT, or the
// input ends; returns how many bytes it holds.
std::size_t text_block_cutter::fill(text_block &b, std::size_t have, std::size_t want)
{
	if (b.data.size() < want + line_source::read_slack)
		b.data.resize(want + line_source::read_slack);
	while (have < want && !eof_) {
		std::size_t got = src_.read_raw(b.data.data() + have, want - have);
		if (!got)
			eof_ = true;
		have += got;
	}
	return have;
}

bool text_block_cutter::next(text_block &b)
{
	b.size = b.overlong = 0;
	b.bytes = 0;
	std::size_t n = carry_.size(), want = std::max(block_, n);
	if (b.data.size() < want + line_source::read_slack)
		b.data.resize(want + line_source::read_slack);
	std::memcpy(b.data.data(), carry_.data(), n);
	carry_.clear();
	std::size_t cut, scanned = 0;	// no line end in [0, scanned)
	for (;;) {
		n = fill(b, n, want);
		char *d = b.data.data();
		if (dropping_) {
			auto *e = static_cast<char *>(std::memchr(d, eol_, n));
			std::size_t drop = e ? e + 1 - d : n;
			b.bytes += drop;
			std::memmove(d, d + drop, n - drop);
			n -= drop;
			scanned = 0;
			dropping_ = !e;
			if (dropping_ && !eof_)
				continue;
			dropping_ = false;
		}
		if (auto *last = static_cast<char *>(memrchr(d + scanned, eol_, n - scanned))) {
			cut = last + 1 - d;
			break;
		}
		if (n >= buffer_) {
			// No line end in a reader's whole buffer: the reader
			// cuts the line there (a CRLF's CR would not be text).
			cut = buffer_;
			b.overlong = eol_ == '\n' && d[cut - 1] == '\r' ? cut - 1 : cut;
			dropping_ = true;
			break;
		}
		if (eof_) {	// the last line, without its line end
			cut = n;
			break;
		}
		scanned = n;
		want = std::min(buffer_, 2 * std::max(want, n));
	}
	char *d = b.data.data();
	carry_.assign(d + cut, n - cut);
	std::memset(d + n, 0, line_source::read_slack);
	b.size = cut;
	b.filled = n;
	b.bytes += cut;
	return b.bytes != 0;
}

void text_block_parser::bad(text_block_counts &c, std::uint64_t line)
{
	if (!in_.lenient) {
		c.bad_line = line;
		c.reason = ctx_.reason;
		return;
	}
	c.malformed++;
}

}  // namespace timersim
