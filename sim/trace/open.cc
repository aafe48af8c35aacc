// open_trace and detect_trace_format: which reader a path needs, by content.
//
//   directory with a `metadata` file       LTTng CTF
//   17 08 44 "tracing"                     trace-cmd trace.dat
//   CTF metadata or stream packet magic    CTF (its directory)
//   1f 8b (gzip)                           text, looked at decompressed
//   text                                   ftrace / trace-cmd report / perf script
#include <cerrno>
#include <cstring>
#include <string_view>
#include <sys/stat.h>

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

bool has_prefix(std::string_view s, std::string_view prefix)
{
	return s.substr(0, prefix.size()) == prefix;
}

// A CTF metadata file (packetized, either byte order, or plain text) or a
// CTF stream file (packet magic 0xC1FC1FC1).
bool is_ctf_file(std::string_view magic)
{
	using namespace std::string_view_literals;
	return has_prefix(magic, "\x57\x1d\xd1\x75"sv) || has_prefix(magic, "\x75\xd1\x1d\x57"sv) ||
	       has_prefix(magic, "/* CTF"sv) || has_prefix(magic, "\xc1\x1f\xfc\xc1"sv) ||
	       has_prefix(magic, "\xc1\xfc\x1f\xc1"sv);
}

// What a file (not a directory) holds. For text, SRC is left open on it,
// nothing consumed, so that a pipe can be detected and then read.
trace_format sniff_file(const std::string &path, std::unique_ptr<line_source> &src)
{
	using namespace std::string_view_literals;
	src = line_source::open_file(path);
	std::string_view head = src->head(detect_head_bytes);
	if (!src->compressed()) {
		if (has_prefix(head, "\x17\x08\x44tracing"sv))
			return trace_format::trace_dat;
		if (is_ctf_file(head) && exists(parent_dir(path) + "/metadata"))
			return trace_format::ctf;
	}
	if (const char *problem = text_head_problem(head))
		throw input_error(path, 0, src->compressed() ? std::string(problem) +
				  " (after gzip decompression)" : std::string(problem));
	std::string why;
	trace_format fmt = detect_text_format(head, why);
	if (fmt == trace_format::auto_detect)
		throw input_error(path, 0, why);
	return fmt;
}

bool is_directory(const std::string &path)
{
	struct stat st;
	if (::stat(path.c_str(), &st) != 0)
		fail_errno(path, "cannot open");
	return S_ISDIR(st.st_mode);
}

}  // namespace

trace_format detect_trace_format(const std::string &path)
{
	if (is_directory(path)) {
		if (exists(path + "/metadata"))
			return trace_format::ctf;
		throw input_error(path, 0,
				  "a directory, but not a CTF trace (no 'metadata' file in it)");
	}
	std::unique_ptr<line_source> src;
	return sniff_file(path, src);
}

std::unique_ptr<trace_reader> open_trace(const std::string &path, trace_format fmt,
					 const reader_options &opt)
{
	std::unique_ptr<line_source> src;
	if (fmt == trace_format::auto_detect) {
		if (is_directory(path))
			fmt = detect_trace_format(path);
		else
			fmt = sniff_file(path, src);
	}
	switch (fmt) {
	case trace_format::trace_dat:
		return make_trace_dat_reader(path, opt);
	case trace_format::ctf:
		// A CTF trace is a directory; a file of one stands for it.
		if (is_directory(path))
			return make_ctf_reader(path, opt);
		if (!exists(parent_dir(path) + "/metadata"))
			throw input_error(path, 0, "not a CTF trace: give the directory that holds "
						   "its metadata and channel files");
		return make_ctf_reader(parent_dir(path), opt);
	default:
		if (src)	// detected text: read what was looked at
			return make_text_reader(std::move(src), fmt, opt);
		return make_text_reader(path, fmt, opt);
	}
}

}  // namespace timersim
