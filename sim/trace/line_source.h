// line_source: the lines of a text trace, from a file, a gzip file or memory.
//
// One large buffer, refilled with read(2) or gzread(); lines are handed out
// as string_views into it, so a line costs no allocation and no copy. A view
// stays valid until the next call of next(). Memory is constant: a line
// that does not fit the buffer with its newline is returned cut to the
// buffer's size (overlong()) and the rest of it is dropped up to its
// newline, so one bad line cannot make the reader grow.
//
// Lines end with LF, CRLF or CR alone (old Mac): the first line end of the
// input decides which (line_end_in). A line end of the other convention
// inside a line (mixed endings) is flagged, never silently taken as text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

namespace timersim {

class line_source {
public:
	static constexpr std::size_t default_buffer = 1u << 20;

	// PATH as it is, or decompressed when it starts with the gzip magic.
	// Throws input_error for a missing, unreadable or directory path (WHAT
	// the file should have been, for that message).
	static std::unique_ptr<line_source> open_file(const std::string &path,
						      std::size_t buffer = default_buffer,
						      const char *what = "text trace");
	// DATA must outlive the source. BUFFER 0: lines are views straight into
	// DATA (no copy). Otherwise DATA is copied through a buffer of that size,
	// exactly like a file is (tests and the fuzzer use it to reach refills
	// and overlong lines with small inputs).
	static std::unique_ptr<line_source> from_memory(std::string_view data, std::string name,
							std::size_t buffer = 0);

	// The character lines of HEAD (the first bytes of an input) end with:
	// '\r' when its first line end is a CR not followed by LF, else '\n'.
	static char line_end_in(std::string_view head);

	virtual ~line_source();
	line_source(const line_source &) = delete;
	line_source &operator=(const line_source &) = delete;

	// Next line, without its line end ('\n', "\r\n" or '\r'); false at
	// the end.
	bool next(std::string_view &line)
	{
		// The common case inline: an LF line, whole in the buffer, with
		// no CR before its end.
		if (eol_ == '\n' && !dropping_ && pos_ != end_) {
			auto *nl = static_cast<const char *>(std::memchr(pos_, '\n', end_ - pos_));
			if (nl && stray_at_ && stray_at_ > nl) {
				line = std::string_view(pos_, nl - pos_);
				bytes_ += nl + 1 - pos_;
				pos_ = nl + 1;
				line_no_++;
				overlong_ = false;
				stray_ = nullptr;
				terminated_ = true;
				return true;
			}
		}
		return next_slow(line);
	}
	// Whether the line last returned ended with a newline (the last line of
	// a file may not).
	bool terminated() const { return terminated_; }
	// Whether the line last returned was longer than the buffer and was cut.
	bool overlong() const { return overlong_; }
	// Why the line last returned holds a line end of another convention
	// than the input's (a '\r' inside a line of an LF file, a '\n' in a CR
	// file), or nullptr when it does not.
	const char *stray_line_end() const { return stray_; }
	std::uint64_t line_no() const { return line_no_; }	// of the last line returned
	std::uint64_t bytes() const { return bytes_; }	// consumed, uncompressed
	const std::string &name() const { return name_; }
	// How far past a returned line its memory may be read: the buffer's
	// end plus read_slack bytes (zeroed), or the end of the data in memory.
	// The scanners of text_scan.h read the last bytes of a line in a block.
	const char *readable_end() const { return cap_ ? buf_.get() + cap_ + read_slack : end_; }
	static constexpr std::size_t read_slack = 16;
	bool compressed() const { return compressed_; }
	// A compressed input cut short (a partial copy) ends where it was cut
	// instead of failing (--lenient): what came before it is read.
	void tolerate_cut() { tolerate_cut_ = true; }
	// Where a tolerated cut was: the compressed byte offset the stream
	// stopped at; 0 while the input is whole.
	std::uint64_t cut_at() const { return cut_at_; }

	// The first bytes of the input (at most MAX), for sniffing headers.
	// Only before the first next(); does not consume anything.
	std::string_view head(std::size_t max);
	// '\n' or '\r': what lines end with (looks at the head when not known).
	char line_end();
	// A part of an input (a block of its lines) ends its lines as the
	// whole input does: EOL, not what the part's own first line end says.
	void assume_line_end(char eol) { eol_ = eol; }
	// The input's bytes from where the lines stopped, bypassing the
	// lines: up to CAP into DST, 0 at the end. text_blocks.h cuts blocks
	// of lines from them; next() is not called afterwards.
	std::size_t read_raw(char *dst, std::size_t cap);

protected:
	line_source(std::string name, std::size_t buffer);
	// Reads up to CAP bytes into DST; 0 at the end. Throws input_error.
	virtual std::size_t fill(char *dst, std::size_t cap) = 0;
	// Makes the source a view of DATA, with nothing left to fill.
	void show_all(std::string_view data);
	bool compressed_ = false;
	bool tolerate_cut_ = false;
	std::uint64_t cut_at_ = 0;

private:
	bool next_slow(std::string_view &line);
	bool refill();
	bool skip_rest_of_overlong();
	bool take(const char *nl, std::string_view &line);
	void decide_line_end();
	const char *find_stray(const char *from) const;

	std::string name_;
	std::unique_ptr<char[]> buf_;
	std::size_t cap_ = 0;
	const char *pos_ = nullptr;	// unconsumed input: [pos_, end_)
	const char *end_ = nullptr;
	bool eof_ = false;
	bool terminated_ = true;
	bool overlong_ = false;
	bool dropping_ = false;		// inside the cut-off tail of an overlong line
	char eol_ = 0;			// '\n' or '\r'; 0 until decided
	// The next '\r' (LF input) or '\n' (CR input) at or after pos_, end_
	// when there is none; null when not looked for since the last refill.
	const char *stray_at_ = nullptr;
	const char *stray_ = nullptr;	// stray_line_end() of the last line
	std::uint64_t line_no_ = 0;
	std::uint64_t bytes_ = 0;
};

}  // namespace timersim
