// Output files that never lie: written to a temporary name beside the
// target and renamed over it only when the run succeeds, every write
// checked. A failed, interrupted or killed run leaves no output file (and
// the old one, if any, untouched); a full disk is an error, not an empty
// "successful" report. "-" is standard output, checked the same way.
#pragma once

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

class output_file {
public:
	// Opens a temporary file beside `path` (or standard output for "-").
	// Throws output_error when it cannot be created.
	explicit output_file(std::string path);
	~output_file();		// not committed: the temporary file is removed
	output_file(const output_file &) = delete;
	output_file &operator=(const output_file &) = delete;

	void write(std::string_view s);
	void put(char c);
	std::FILE *stream() { return f_; }	// for fprintf-style writers
	// Flushes, checks, and renames the temporary file onto the target.
	void commit();
	const std::string &path() const { return path_; }
	bool is_stdout() const { return path_ == "-"; }

private:
	void fail(const char *what);
	std::string path_;
	std::string temp_;
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
