// open_trace and detect_trace_format: which reader a path needs, by content.
//
//   directory with a `metadata` file       LTTng CTF
//   17 08 44 "tracing"                     trace-cmd trace.dat
//   CTF metadata or stream packet magic    CTF (its directory)
//   1f 8b (gzip)                           text, looked at decompressed
//   text                                   ftrace / trace-cmd report / perf script
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/trace/line_source.h"
#include "sim/trace/reader.h"
#include "sim/trace/text_detect.h"
#include "sim/trace/text_reader.h"

namespace timersim {

namespace {

[[noreturn]] void fail_errno(const std::string &path, const char *what)
{
	throw input_error(path, 0, std::string(what) + ": " + std::strerror(errno));
}

bool exists(const std::string &path)
{
	struct stat st;
	return ::stat(path.c_str(), &st) == 0;
}

std::string parent_dir(const std::string &path)
{
	std::size_t slash = path.rfind('/');
	if (slash == std::string::npos)
		return ".";
	return slash == 0 ? "/" : path.substr(0, slash);
}

// The first bytes of PATH, as they are on disk.
std::string read_magic(const std::string &path, std::size_t n)
{
	int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		fail_errno(path, "cannot open");
	std::string buf(n, '\0');
	ssize_t got = ::read(fd, buf.data(), n);
	int e = errno;
	::close(fd);
	if (got < 0) {
		errno = e;
		fail_errno(path, "read error");
	}
	buf.resize(std::size_t(got));
	return buf;
}

bool has_prefix(const std::string &s, const char *bytes, std::size_t n)
{
	return s.size() >= n && std::memcmp(s.data(), bytes, n) == 0;
}

// A CTF metadata file (packetized, either byte order, or plain text) or a
// CTF stream file (packet magic 0xC1FC1FC1).
bool is_ctf_file(const std::string &magic)
{
	return has_prefix(magic, "\x57\x1d\xd1\x75", 4) ||
	       has_prefix(magic, "\x75\xd1\x1d\x57", 4) || has_prefix(magic, "/* CTF", 6) ||
	       has_prefix(magic, "\xc1\x1f\xfc\xc1", 4) || has_prefix(magic, "\xc1\xfc\x1f\xc1", 4);
}

trace_format detect_file(const std::string &path)
{
	std::string magic = read_magic(path, 10);
	if (magic.empty())
		throw input_error(path, 0, "empty file");
	if (has_prefix(magic, "\x17\x08\x44tracing", 10))
		return trace_format::trace_dat;
	if (is_ctf_file(magic) && exists(parent_dir(path) + "/metadata"))
		return trace_format::ctf;
	auto src = line_source::open_file(path);
	std::string_view head = src->head(detect_head_bytes);
	if (const char *problem = text_head_problem(head))
		throw input_error(path, 0, src->compressed() ? std::string(problem) +
				  " (after gzip decompression)" : std::string(problem));
	std::string why;
	trace_format fmt = detect_text_format(head, why);
	if (fmt == trace_format::auto_detect)
		throw input_error(path, 0, why);
	return fmt;
}

}  // namespace

trace_format detect_trace_format(const std::string &path)
{
	struct stat st;
	if (::stat(path.c_str(), &st) != 0)
		fail_errno(path, "cannot open");
	if (S_ISDIR(st.st_mode)) {
		if (exists(path + "/metadata"))
			return trace_format::ctf;
		throw input_error(path, 0,
				  "a directory, but not a CTF trace (no 'metadata' file in it)");
	}
	return detect_file(path);
}

std::unique_ptr<trace_reader> open_trace(const std::string &path, trace_format fmt,
					 const reader_options &opt)
{
	if (fmt == trace_format::auto_detect)
		fmt = detect_trace_format(path);
	switch (fmt) {
	case trace_format::trace_dat:
		return make_trace_dat_reader(path, opt);
	case trace_format::ctf: {
		// A CTF trace is a directory; a file of one stands for it.
		struct stat st;
		bool dir = ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
		return make_ctf_reader(dir ? path : parent_dir(path), opt);
	}
	default:
		return make_text_reader(path, fmt, opt);
	}
}

}  // namespace timersim
