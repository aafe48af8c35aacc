// line_source: the lines of a text trace, from a file, a gzip file or memory.
//
// One large buffer, refilled with read(2) or gzread(); lines are handed out
// as string_views into it, so a line costs no allocation and no copy. A view
// stays valid until the next call of next(). Memory is constant: a line
// that does not fit the buffer with its newline is returned cut to the
// buffer's size (overlong()) and the rest of it is dropped up to its
// newline, so one bad line cannot make the reader grow.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace timersim {

class line_source {
public:
	static constexpr std::size_t default_buffer = 1u << 20;

	// PATH as it is, or decompressed when it starts with the gzip magic.
	// Throws input_error for a missing, unreadable or directory path.
	static std::unique_ptr<line_source> open_file(const std::string &path,
						      std::size_t buffer = default_buffer);
	// DATA must outlive the source. BUFFER 0: lines are views straight into
	// DATA (no copy). Otherwise DATA is copied through a buffer of that size,
	// exactly like a file is (tests and the fuzzer use it to reach refills
	// and overlong lines with small inputs).
	static std::unique_ptr<line_source> from_memory(std::string_view data, std::string name,
							std::size_t buffer = 0);

	virtual ~line_source();
	line_source(const line_source &) = delete;
	line_source &operator=(const line_source &) = delete;

	// Next line, without its '\n' nor a '\r' before it; false at the end.
	bool next(std::string_view &line);
	// Whether the line last returned ended with a newline (the last line of
	// a file may not).
	bool terminated() const { return terminated_; }
	// Whether the line last returned was longer than the buffer and was cut.
	bool overlong() const { return overlong_; }
	std::uint64_t line_no() const { return line_no_; }	// of the last line returned
	std::uint64_t bytes() const { return bytes_; }	// consumed, uncompressed
	const std::string &name() const { return name_; }
	bool compressed() const { return compressed_; }

	// The first bytes of the input (at most MAX), for sniffing headers.
	// Only before the first next(); does not consume anything.
	std::string_view head(std::size_t max);

protected:
	line_source(std::string name, std::size_t buffer);
	// Reads up to CAP bytes into DST; 0 at the end. Throws input_error.
	virtual std::size_t fill(char *dst, std::size_t cap) = 0;
	// Makes the source a view of DATA, with nothing left to fill.
	void show_all(std::string_view data);
	bool compressed_ = false;

private:
	bool refill();
	bool skip_rest_of_overlong();
	bool take(const char *nl, std::string_view &line);

	std::string name_;
	std::unique_ptr<char[]> buf_;
	std::size_t cap_ = 0;
	const char *pos_ = nullptr;	// unconsumed input: [pos_, end_)
	const char *end_ = nullptr;
	bool eof_ = false;
	bool terminated_ = true;
	bool overlong_ = false;
	bool dropping_ = false;		// inside the cut-off tail of an overlong line
	std::uint64_t line_no_ = 0;
	std::uint64_t bytes_ = 0;
};

}  // namespace timersim
