// open_trace and detect_trace_format: which reader a path needs, by content.
// The one place where a file is looked at before it is read:
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
#include "sim/trace/timer_events_required.h"

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

bool is_directory(const std::string &path)
{
	struct stat st;
	if (::stat(path.c_str(), &st) != 0)
		fail_errno(path, "cannot open");
	return S_ISDIR(st.st_mode);
}

// A file (not a directory), opened and looked at. TEXT stays open on it,
// nothing consumed, so that a pipe can be detected and then read.
struct sniffed {
	trace_format format = trace_format::auto_detect;	// what the content is
	std::unique_ptr<line_source> text;	// null for the binary formats
	std::string why;	// text of no known rendering: why not
};

// perf record's binary output (perf.data): its header's magic, "PERFILE2"
// as written by a little-endian machine, byte-swapped by a big-endian one,
// or version 1's "PERFFILE". perf script renders it as text this tool reads.
bool is_perf_data(std::string_view head)
{
	return has_prefix(head, "PERFILE2") || has_prefix(head, "2ELIFREP") ||
	       has_prefix(head, "PERFFILE");
}

// BINARY_OK: whether the binary formats are recognised (else a binary file
// is refused as text that is not text). LENIENT: a gzip file cut short
// is read up to the cut (reader_options::lenient).
sniffed sniff_file(const std::string &path, bool binary_ok, bool lenient = false)
{
	using namespace std::string_view_literals;
	sniffed s;
	s.text = line_source::open_file(path);
	if (lenient)
		s.text->tolerate_cut();
	if (binary_ok && !s.text->compressed()) {
		// The binary formats by their magic alone: their own readers
		// read them, and a text head would be memory touched for
		// nothing.
		std::string_view magic = s.text->head(64);
		if (has_prefix(magic, "\x17\x08\x44tracing"sv))
			s.format = trace_format::trace_dat;
		else if (is_ctf_file(magic) && exists(parent_dir(path) + "/metadata"))
			s.format = trace_format::ctf;
		if (s.format != trace_format::auto_detect) {
			s.text.reset();
			return s;
		}
	}
	std::string_view head = s.text->head(detect_head_bytes);
	if (is_perf_data(head))
		throw input_error(path, 0, "a perf.data file (perf record's binary output), which "
				  "this tool does not read: run `perf script -i " + path +
				  " > trace.txt` first and replay trace.txt");
	if (const char *problem = text_head_problem(head))
		throw input_error(path, 0, s.text->compressed() ? std::string(problem) +
				  " (after gzip decompression)" : std::string(problem));
	s.format = detect_text_format(head, s.why);
	return s;
}

std::unique_ptr<trace_reader> open_ctf(const std::string &path, const reader_options &opt)
{
	// A CTF trace is a directory; a file of one stands for it.
	if (is_directory(path))
		return make_ctf_reader(path, opt);
	if (!exists(parent_dir(path) + "/metadata"))
		throw input_error(path, 0, "not a CTF trace: give the directory that holds "
					   "its metadata and channel files");
	return make_ctf_reader(parent_dir(path), opt);
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
	sniffed s = sniff_file(path, true);
	if (s.format == trace_format::auto_detect)
		throw input_error(path, 0, s.why);
	return s.format;
}

std::unique_ptr<trace_reader> open_trace(const std::string &path, trace_format fmt,
					 const reader_options &opt)
{
	// What the content looks like: for a forced text format, named as a
	// hint when that format finds no timer event.
	trace_format looks_like = fmt;
	std::unique_ptr<line_source> text;
	if (fmt == trace_format::auto_detect) {
		if (is_directory(path)) {
			fmt = detect_trace_format(path);
		} else {
			sniffed s = sniff_file(path, true, opt.lenient);
			if (s.format == trace_format::auto_detect)
				throw input_error(path, 0, s.why);
			fmt = s.format;
			text = std::move(s.text);
		}
		looks_like = fmt;
	} else if (fmt != trace_format::trace_dat && fmt != trace_format::ctf) {
		sniffed s = sniff_file(path, false, opt.lenient);
		looks_like = s.format;
		// raw ftrace read as trace-cmd report (or back) would read the
		// events and quietly lose what the renderings print apart.
		rendering_header h = find_rendering_header(s.text->head(detect_head_bytes));
		if (h.format != trace_format::auto_detect && h.format != fmt)
			throw input_error(path, h.line,
					  "'" + std::string(h.text.substr(0, 40)) + "' is a header of " +
					  trace_format_name(h.format) + " output, which --format " +
					  trace_format_name(fmt) + " does not read (leave --format out, or give --format " +
					  trace_format_name(h.format) + ")");
		text = std::move(s.text);
	}
	std::unique_ptr<trace_reader> r;
	switch (fmt) {
	case trace_format::trace_dat:
		r = make_trace_dat_reader(path, opt);
		break;
	case trace_format::ctf:
		r = open_ctf(path, opt);
		break;
	default:
		r = make_text_reader(std::move(text), fmt, opt);
		break;
	}
	return require_timer_events(std::move(r), path, looks_like);
}

}  // namespace timersim
