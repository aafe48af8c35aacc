// Output files that never lie: written to a temporary name beside the
// target and renamed over it only when the run succeeds, every write
// checked. A failed, interrupted or killed run leaves no output file (and
// the old one, if any, untouched); a full disk is an error, not an empty
// "successful" report. "-" is standard output, checked the same way.
//
// The rename is only for what can be renamed over: a regular file or a
// path not there yet. A symlink is followed to its final target, and that
// target (not the link) is what is replaced or created. A character or
// block device, a FIFO, a socket, and the /dev/fd, /dev/std* and
// /proc/self/fd names of open files are opened and written in place, as
// the shell's `>` would: replacing /dev/null with a file would harm the
// machine, and a FIFO's reader would get nothing.
#pragma once

#include <sys/stat.h>

#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace timersim {

// Writing an output failed: exit status 1 (it is not the input's fault).
class output_error : public std::runtime_error {
public:
	explicit output_error(const std::string &msg) : std::runtime_error(msg) {}
};

// Whose path an output_file writes.
enum class output_owner {
	// The user's: written as the shell's `>` would (the header above).
	user,
	// The tool's own file in a folder of its own (a sweep's cell result):
	// whatever stands at the path - a symlink, FIFO, device node, socket -
	// is replaced by a regular file, never followed or written through.
	tool,
};

class output_file {
public:
	// Opens a temporary file beside `path`'s final target, the target itself
	// when it is written in place, or standard output for "-" (OWNER
	// user); beside `path` itself (OWNER tool). Throws usage_error for an
	// empty path, output_error when it cannot be opened.
	explicit output_file(std::string path, output_owner owner = output_owner::user);
	~output_file();		// not committed: the temporary file is removed
	output_file(const output_file &) = delete;
	output_file &operator=(const output_file &) = delete;

	void write(std::string_view s);
	void put(char c);
	std::FILE *stream() { return f_; }	// for fprintf-style writers
	// Flushes, checks, and renames the temporary file onto the target
	// (closes the target when it is written in place).
	void commit();
	const std::string &path() const { return path_; }
	bool is_stdout() const { return path_ == "-"; }
	// Written in place: a device, FIFO, socket or open file's /dev/fd name.
	bool in_place() const { return in_place_; }

private:
	void open_in_place(int flags);
	void open_beside(const std::string &target, const struct stat *existing);
	void fail(const char *what);
	std::string path_;
	std::string temp_;	// the temporary file (renamed mode only)
	std::string target_;	// what the temporary file is renamed onto
	bool in_place_ = false;
	std::FILE *f_ = nullptr;
	bool committed_ = false;
};

// The outputs of one run. Each is written in full before any is committed,
// so that a failure in one leaves none of them behind.
class output_set {
public:
	output_file &open(const std::string &path)
	{
		files_.push_back(std::make_unique<output_file>(path));
		return *files_.back();
	}
	void commit()
	{
		for (auto &f : files_)
			f->commit();
	}

private:
	std::vector<std::unique_ptr<output_file>> files_;
};

// Writes `text` to `path` ("-": standard output) atomically.
void write_output(const std::string &path, std::string_view text);

// SIGINT, SIGTERM, SIGHUP and SIGPIPE remove the temporary files of
// outputs not yet committed, then end the process as the signal would
// (SIGPIPE on standard output ends quietly, as other Unix tools do).
void install_output_cleanup();

// Usage errors for outputs that would clobber an input or each other:
// `outputs` are (option, path) pairs; "-" and empty paths are ignored.
void check_output_paths(const std::vector<std::string> &inputs,
			const std::vector<std::pair<std::string, std::string>> &outputs);

}  // namespace timersim
