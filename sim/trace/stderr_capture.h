// Catches what C libraries print on stderr instead of returning it.
//
// libbabeltrace 1.x reports a bad packet only as an "[error] ..." line on
// stderr, and libtracecmd perror()s some failures. While a capture is alive,
// file descriptor 2 points into an anonymous memory file; text() gives what
// was written, so the reader can turn it into an input_error and the user's
// terminal stays clean. Not for hot loops: it costs a few system calls. Not
// for threads: file descriptor 2 belongs to the whole process, and what
// another thread writes meanwhile is caught too.
#pragma once

#include <string>

namespace timersim {

class stderr_capture {
public:
	stderr_capture();
	~stderr_capture();
	stderr_capture(const stderr_capture &) = delete;
	stderr_capture &operator=(const stderr_capture &) = delete;

	// Ends the capture (stderr is restored) and returns what was written,
	// at most a few KiB, trailing newlines trimmed.
	std::string text();

private:
	void restore();
	int saved_ = -1;	// the real stderr
	int file_ = -1;		// the capture file
};

// The first line of TEXT that contains "error" (any case), else its first
// line; empty for empty TEXT.
std::string first_error_line(const std::string &text);

}  // namespace timersim
