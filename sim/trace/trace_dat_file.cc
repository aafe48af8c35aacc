#include "sim/trace/trace_dat_file.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <new>
#include <set>
#include <utility>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
// ZSTD_d_stableOutBuffer: a parameter number the library takes; no
// symbol of the static-only API is linked.
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

#include "sim/trace/binary_names.h"
#include "sim/trace/huge_pages.h"
#include "sim/trace/reader.h"

namespace timersim {

namespace {

constexpr char magic[] = "\x17\x08\x44tracing";	// 10 bytes
constexpr unsigned first_sectioned_version = 7;
constexpr std::uint64_t max_inflated = std::uint64_t(1) << 30;	// a header part, inflated

// trace-cmd's option ids (TRACECMD_OPTION_*); in v7 also section ids.
enum option_id : unsigned {
	OPT_DONE = 0, OPT_DATE = 1, OPT_CPUSTAT = 2, OPT_BUFFER = 3, OPT_TRACECLOCK = 4,
	OPT_UNAME = 5, OPT_HOOK = 6, OPT_OFFSET = 7, OPT_CPUCOUNT = 8, OPT_VERSION = 9,
	OPT_PROCMAPS = 10, OPT_TRACEID = 11, OPT_TIME_SHIFT = 12, OPT_GUEST = 13,
	OPT_TSC2NSEC = 14, OPT_STRINGS = 15, OPT_HEADER_INFO = 16, OPT_FTRACE_EVENTS = 17,
	OPT_EVENT_FORMATS = 18, OPT_KALLSYMS = 19, OPT_PRINTK = 20, OPT_CMDLINES = 21,
	OPT_BUFFER_TEXT = 22,
};

std::string section_name(std::uint64_t id)
{
	switch (id) {
	case OPT_DONE:		return "options section";
	case OPT_BUFFER:	return "CPU data (buffer) section";
	case OPT_STRINGS:	return "strings section";
	case OPT_HEADER_INFO:	return "header info section";
	case OPT_FTRACE_EVENTS:	return "ftrace formats section";
	case OPT_EVENT_FORMATS:	return "event formats section";
	case OPT_KALLSYMS:	return "kallsyms section";
	case OPT_PRINTK:	return "printk formats section";
	case OPT_CMDLINES:	return "command lines section";
	case OPT_BUFFER_TEXT:	return "text buffer section";
	}
	return "section " + std::to_string(id);
}

std::uint64_t number_of(const unsigned char *b, unsigned n, bool big)
{
	std::uint64_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v |= std::uint64_t(b[big ? n - 1 - i : i]) << (8 * i);
	return v;
}

class file_handle {
public:
	explicit file_handle(const std::string &path)
	{
		fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
		struct stat st;
		if (fd < 0 || fstat(fd, &st) != 0) {
			int err = errno;
			if (fd >= 0)
				::close(fd);
			throw input_error(path, 0, std::string("cannot open: ") + std::strerror(err));
		}
		if (!S_ISREG(st.st_mode)) {
			::close(fd);
			throw input_error(path, 0, "not a regular file, so not a trace.dat");
		}
		size = st.st_size;
	}
	~file_handle()
	{
		if (fd >= 0)
			::close(fd);
	}
	file_handle(const file_handle &) = delete;
	file_handle &operator=(const file_handle &) = delete;
	int fd = -1;
	std::uint64_t size = 0;
};

// Sequential reads of a byte range: the file (BUF empty, reading through
// FD) or a buffer (an inflated section, BASE its file offset for messages).
// Every short read is a truncation, named with WHAT and the offset.
class cursor {
public:
	cursor(const std::string &path, int fd, std::uint64_t end)
		: path_(path), fd_(fd), end_(end)
	{
	}
	cursor(const std::string &path, std::string_view buf, std::uint64_t base,
	       const std::string &part)
		: path_(path), buf_(buf.data()), end_(buf.size()), base_(base), part_(part)
	{
	}

	std::uint64_t pos = 0;
	bool big_endian = false;

	std::uint64_t end() const { return end_; }
	std::uint64_t left() const { return pos > end_ ? 0 : end_ - pos; }

	[[noreturn]] void fail(std::uint64_t at, const std::string &why) const
	{
		// In an inflated part the offset is the part's own, named so.
		if (buf_)
			throw input_error::at_offset(path_, base_, part_ + " (inflated), at " +
							     std::to_string(at) + ": " + why);
		throw input_error::at_offset(path_, at, why);
	}

	void bytes(void *out, std::size_t n, const char *what)
	{
		if (n > left())
			fail(pos, std::string("truncated: ") + what + " needs " + std::to_string(n) +
					  " bytes, " + std::to_string(left()) + " left");
		if (buf_) {
			std::memcpy(out, buf_ + pos, n);
		} else {
			ssize_t r = ::pread(fd_, out, n, pos);
			if (r != static_cast<ssize_t>(n))
				fail(pos, std::string("read error in ") + what);
		}
		pos += n;
	}

	std::uint64_t number(unsigned n, const char *what)
	{
		unsigned char b[8];
		bytes(b, n, what);
		return number_of(b, n, big_endian);
	}

	std::string string(const char *what)
	{
		std::string s;
		for (;;) {
			char c;
			bytes(&c, 1, what);
			if (!c)
				return s;
			if (s.size() > 4096)
				fail(pos, std::string("unterminated ") + what);
			s += c;
		}
	}

	std::string text(std::uint64_t n, const char *what)
	{
		if (n > left())
			fail(pos, std::string("truncated: ") + what + " of " + std::to_string(n) +
					  " bytes runs past the end (" + std::to_string(left()) +
					  " bytes left)");
		std::string s(n, '\0');
		bytes(s.data(), n, what);
		return s;
	}

	// The same as a view: into the inflated part itself, or (read from
	// the file) into SCRATCH. A 6.x file's 2,300 event formats were each
	// copied into a string of their own.
	std::string_view text_view(std::uint64_t n, const char *what, std::string &scratch)
	{
		if (!buf_) {
			scratch = text(n, what);
			return scratch;
		}
		std::uint64_t at = pos;
		skip(n, what);
		return std::string_view(buf_ + at, n);
	}

	void skip(std::uint64_t n, const char *what)
	{
		if (n > left())
			fail(pos, std::string("truncated: ") + what + " of " + std::to_string(n) +
					  " bytes runs past the end (" + std::to_string(left()) +
					  " bytes left)");
		pos += n;
	}

	void expect(const char *tag, std::size_t n, const char *what)
	{
		char buf[16];
		std::uint64_t at = pos;
		bytes(buf, n, what);
		if (std::memcmp(buf, tag, n) != 0)
			fail(at, std::string("bad ") + what);
	}

private:
	std::string path_;
	int fd_ = -1;
	const char *buf_ = nullptr;	// null: read through fd_
	std::uint64_t end_ = 0;
	std::uint64_t base_ = 0;
	std::string part_;
};

// "\tfield:unsigned long expires;\toffset:24;\tsize:8;\tsigned:0;"
bool parse_field(std::string_view line, tdat_field &f)
{
	std::size_t p = line.find("field:");
	std::size_t semi = line.find(';', p);
	if (p == std::string_view::npos || semi == std::string_view::npos)
		return false;
	std::string_view decl = line.substr(p + 6, semi - p - 6);
	// "__data_loc char[] name": a dynamic string, its name after the
	// brackets; "char comm[16]": the name before them.
	f.data_loc = decl.starts_with("__data_loc ");
	if (std::size_t b = decl.find('['); b != std::string_view::npos && !f.data_loc)
		decl = decl.substr(0, b);
	while (!decl.empty() && decl.back() == ' ')
		decl.remove_suffix(1);
	std::size_t sp = decl.find_last_of(" *");
	f.name = std::string(sp == std::string_view::npos ? decl : decl.substr(sp + 1));
	auto num = [&](const char *key, unsigned &out) {
		std::size_t k = line.find(key, semi);
		if (k == std::string_view::npos)
			return false;
		std::string v(line.substr(k + std::strlen(key), 12));
		char *end;
		unsigned long n = std::strtoul(v.c_str(), &end, 10);
		if (end == v.c_str() || n > (1u << 20))
			return false;
		out = static_cast<unsigned>(n);
		return true;
	};
	unsigned sgn = 0;
	if (!num("offset:", f.offset) || !num("size:", f.size))
		return false;
	num("signed:", sgn);
	f.is_signed = sgn != 0;
	return !f.name.empty();
}

// One event format: name and id always, fields when WANT_FIELDS.
void parse_format(cursor &c, std::string_view text, const std::string &system, bool want_fields,
		  trace_dat_file &out, std::uint64_t at)
{
	std::string_view s(text);
	if (!s.starts_with("name: "))
		c.fail(at, "event format of system " + system + " does not start with its name");
	std::size_t eol = s.find('\n');
	std::string name(s.substr(6, eol == std::string_view::npos ? 0 : eol - 6));
	std::size_t idp = s.find("\nID: ");
	if (name.empty() || idp == std::string_view::npos)
		c.fail(at, "event format of system " + system + " without a name or an ID");
	std::string idtext(s.substr(idp + 5, 12));
	char *end;
	long id = std::strtol(idtext.c_str(), &end, 10);
	if (end == idtext.c_str() || id < 0 || id > 0xffff)
		c.fail(at, "event format " + name + " has a bad ID");
	tdat_event ev;
	ev.system = system;
	ev.name = name;
	bool first = out.events.empty();
	if (want_fields || first) {
		for (std::size_t p = s.find("\tfield:"); p != std::string_view::npos;
		     p = s.find("\tfield:", p + 1)) {
			std::size_t e = s.find('\n', p);
			tdat_field f;
			if (!parse_field(s.substr(p, e == std::string_view::npos ? e : e - p), f))
				c.fail(at, "event format " + name + ": malformed field line");
			if (f.name == "common_type" && first) {
				out.common_type_offset = f.offset;
				out.common_type_size = f.size;
			}
			if (want_fields)
				ev.fields.push_back(std::move(f));
		}
	}
	if (!out.events.emplace(static_cast<int>(id), std::move(ev)).second)
		c.fail(at, "two event formats have ID " + std::to_string(id));
}

// COUNT formats of SYSTEM: 8-byte size, then the text.
void parse_formats(cursor &c, std::uint64_t count, const std::string &system, trace_dat_file &out)
{
	std::string scratch;
	for (; count; count--) {
		std::uint64_t at = c.pos;
		std::uint64_t size = c.number(8, "event format size");
		// The timer events, and the softirq and interrupt events that
		// measure what the timer code cost.
		bool fields = system == "timer" || system == "irq" || system == "irq_vectors";
		parse_format(c, c.text_view(size, "event format", scratch), system, fields, out, at);
	}
}

void parse_event_systems(cursor &c, trace_dat_file &out)
{
	for (std::uint64_t sys = c.number(4, "event system count"); sys; sys--) {
		std::string name = c.string("event system name");
		parse_formats(c, c.number(4, "event format count"), name, out);
	}
}

// header_page ("field: local_t commit; offset:8; size:8; ...") and
// header_event.
void parse_header_info(cursor &c, trace_dat_file &out)
{
	c.expect("header_page", 12, "header_page tag");
	std::uint64_t at = c.pos;
	std::string page = c.text(c.number(8, "header page size"), "header page");
	bool commit = false, data = false;
	for (std::size_t p = page.find("field:"); p != std::string::npos;
	     p = page.find("field:", p + 1)) {
		std::size_t e = page.find('\n', p);
		tdat_field f;
		if (!parse_field(std::string_view(page).substr(p, e == std::string::npos ? e : e - p),
				 f))
			continue;
		if (f.name == "commit") {
			out.commit_size = f.size;
			commit = true;
		} else if (f.name == "data") {
			out.data_offset = f.offset;
			data = true;
		}
	}
	if (!commit || !data || (out.commit_size != 4 && out.commit_size != 8) ||
	    out.data_offset != 8 + out.commit_size)
		c.fail(at, "header page format without a usable commit and data field");
	c.expect("header_event", 13, "header_event tag");
	c.skip(c.number(8, "header event size"), "header event");
}

// A buffer option's N CPUs: id, data offset and size each.
void read_buffer_cpus(cursor &c, std::uint64_t n, std::vector<tdat_cpu_data> &into)
{
	for (std::uint64_t i = 0; i < n; i++) {
		tdat_cpu_data d;
		std::uint64_t cpu = c.number(4, "CPU id");
		if (cpu > 65535)
			c.fail(c.pos - 4, "bad CPU id " + std::to_string(cpu));
		d.cpu = static_cast<unsigned>(cpu);
		d.offset = c.number(8, "CPU data offset");
		d.size = c.number(8, "CPU data size");
		into.push_back(d);
	}
}

// v7: the first instance's buffer, in case the top one is empty.
struct instance_buffer {
	std::uint64_t offset = 0, page = 0;
	std::vector<tdat_cpu_data> cpu_data;
};
void parse_buffer_option(cursor &c, trace_dat_file &out, bool v7, std::uint64_t &flyrecord,
			 instance_buffer &lone_instance)
{
	std::uint64_t offset = c.number(8, "buffer offset");
	std::string name = c.string("buffer name");
	if (!v7) {
		out.instances.push_back(name);
		return;
	}
	c.string("buffer clock");
	std::uint64_t at = c.pos;
	std::uint64_t page = c.number(4, "buffer page size");
	std::uint64_t n = c.number(4, "buffer CPU count");
	if (page < 64 || page > (1u << 24) || (page & (page - 1)))
		c.fail(at, "bad ring-buffer page size " + std::to_string(page));
	if (!name.empty()) {
		out.instances.push_back(name);
		// Kept aside: the trace when the top buffer turns out empty.
		if (out.instances.size() == 1 && n <= 65536) {
			lone_instance = {offset, page, {}};
			read_buffer_cpus(c, n, lone_instance.cpu_data);
			return;
		}
		c.skip(n * 20, "buffer CPU list");
		return;
	}
	out.page_size = static_cast<unsigned>(page);
	flyrecord = offset;
	if (n > 65536)
		c.fail(at, "bad CPU count " + std::to_string(n));
	read_buffer_cpus(c, n, out.cpu_data);
}

// An option list up to DONE; returns DONE's value (v7: the next options
// section, 0 for none). SECTION_OF (v7): option ids that give a section's
// offset, filled in.
std::uint64_t parse_options(cursor &c, trace_dat_file &out, bool v7,
			    std::map<unsigned, std::uint64_t> &section_of, std::uint64_t &flyrecord,
			    instance_buffer &lone_instance)
{
	for (;;) {
		std::uint64_t id = c.number(2, "option id");
		// Up to version 6 DONE is the id alone (trace-cmd's
		// tracecmd_write_options), with no size after it.
		if (!v7 && id == OPT_DONE)
			return 0;
		std::uint64_t size = c.number(4, "option size");
		std::uint64_t at = c.pos;
		if (size > c.left())
			c.fail(at, "truncated: option " + std::to_string(id) + " of " +
					   std::to_string(size) + " bytes");
		std::uint64_t end = at + size;
		auto str = [&] {
			std::string s = c.text(size, "option text");
			return s.substr(0, s.find('\0'));
		};
		switch (id) {
		case OPT_DONE:
			if (size >= 8)
				return c.number(8, "next options offset");
			return 0;
		case OPT_CPUSTAT:
			out.cpustats += str() + "\n";
			break;
		case OPT_UNAME:
			out.uname = str();
			break;
		case OPT_BUFFER:
			parse_buffer_option(c, out, v7, flyrecord, lone_instance);
			break;
		case OPT_CPUCOUNT:
			if (size >= 4) {
				std::uint64_t n = c.number(4, "CPU count");
				if (n > 65536)
					c.fail(at, "bad CPU count " + std::to_string(n));
				out.cpus = std::max(out.cpus, static_cast<unsigned>(n));
			}
			break;
		case OPT_DATE:
		case OPT_OFFSET:
			out.unsupported = "a timestamp offset option";
			break;
		case OPT_TIME_SHIFT:
		case OPT_TSC2NSEC:
			out.unsupported = "a TSC or guest time conversion option";
			break;
		case OPT_BUFFER_TEXT:
			out.latency = true;
			break;
		case OPT_HEADER_INFO:
		case OPT_FTRACE_EVENTS:
		case OPT_EVENT_FORMATS:
		case OPT_KALLSYMS:
		case OPT_PRINTK:
		case OPT_CMDLINES:
			if (v7 && size >= 8)
				section_of[static_cast<unsigned>(id)] = c.number(8, "section offset");
			break;
		default:
			break;
		}
		if (c.pos > end)
			c.fail(at, "option " + std::to_string(id) + " runs past its size");
		c.pos = end;
	}
}

// Up to version 6: header parts in sequence, then options, latency or
// flyrecord blocks.
void walk_v6(cursor &c, trace_dat_file &out)
{
	parse_header_info(c, out);
	parse_formats(c, c.number(4, "ftrace format count"), "ftrace", out);
	parse_event_systems(c, out);
	std::uint64_t ksize = c.number(4, "kallsyms size");
	out.kallsyms = {c.pos, ksize, false, true};
	c.skip(ksize, "kallsyms");
	c.skip(c.number(4, "printk formats size"), "printk formats");
	c.skip(c.number(8, "command lines size"), "command lines");
	std::uint64_t at = c.pos;
	std::uint64_t cpus = c.number(4, "CPU count");
	if (cpus > 65536)
		c.fail(at, "bad CPU count " + std::to_string(cpus));
	out.cpus = static_cast<unsigned>(cpus);
	std::map<unsigned, std::uint64_t> unused;
	std::uint64_t flyrecord = 0;
	instance_buffer unused_instance;	// v6 instances are refused by the reader
	for (;;) {
		char tag[10];
		at = c.pos;
		c.bytes(tag, sizeof(tag), "data block tag");
		if (std::memcmp(tag, "options  ", 10) == 0) {
			parse_options(c, out, false, unused, flyrecord, unused_instance);
		} else if (std::memcmp(tag, "latency  ", 10) == 0) {
			out.latency = true;
			return;		// text to the end of the file
		} else if (std::memcmp(tag, "flyrecord", 10) == 0) {
			for (unsigned cpu = 0; cpu < out.cpus; cpu++) {
				tdat_cpu_data d;
				d.cpu = cpu;
				d.offset = c.number(8, "CPU data offset");
				d.size = c.number(8, "CPU data size");
				out.cpu_data.push_back(d);
			}
			return;
		} else {
			c.fail(at, "expected options, latency or flyrecord");
		}
	}
}

struct section {
	std::uint64_t id = 0, flags = 0;
	std::uint64_t content = 0, size = 0;	// the part after the 16-byte header
};

// A section's content, inflated when compressed.
tdat_bytes section_content(const trace_dat_file &out, const section &s)
{
	if (s.flags & 1)
		return tdat_inflate(out.path, out.compression, out.big_endian, s.content, s.size,
				    section_name(s.id).c_str());
	return tdat_read(out.path, s.content, s.size, section_name(s.id).c_str());
}

// Version 7: compression name and version, the first options offset, then
// sections back to back up to the end of the file.
void walk_v7(cursor &c, trace_dat_file &out, const tdat_kallsyms_known &known)
{
	out.compression = c.string("compression name");
	c.string("compression version");
	if (out.compression == "none")
		out.compression.clear();
	std::uint64_t at = c.pos;
	std::uint64_t first_options = c.number(8, "first options offset");
	if (!out.compression.empty() && out.compression != "zstd" && out.compression != "zlib")
		c.fail(at - out.compression.size() - 1, "unknown compression " + out.compression);
	std::map<std::uint64_t, section> by_offset;
	bool strings_found = false;
	while (c.pos < c.end()) {
		at = c.pos;
		section s;
		s.id = c.number(2, "section id");
		s.flags = c.number(2, "section flags");
		c.number(4, "section name");
		s.size = c.number(8, "section size");
		s.content = c.pos;
		if (s.size > c.left())
			c.fail(at, "truncated: " + section_name(s.id) + " of " + std::to_string(s.size) +
					   " bytes at offset " + std::to_string(at) +
					   " runs past the end of the file (" + std::to_string(c.end()) +
					   " bytes)");
		if ((s.flags & 1) && out.compression.empty())
			c.fail(at, section_name(s.id) + " is compressed, the file names no compression");
		c.pos += s.size;
		out.sections++;
		strings_found |= s.id == OPT_STRINGS;
		out.latency |= s.id == OPT_BUFFER_TEXT;
		by_offset[at] = s;
	}
	if (!by_offset.count(first_options))
		c.fail(first_options, "no section starts at the first options offset");
	if (!strings_found)
		c.fail(c.end(), "truncated: the file ends before its strings section");

	// The options sections, chained by their DONE options.
	std::map<unsigned, std::uint64_t> section_of;
	std::uint64_t flyrecord = 0;
	instance_buffer lone_instance;
	std::set<std::uint64_t> seen;
	for (std::uint64_t next = first_options; next;) {
		auto it = by_offset.find(next);
		if (it == by_offset.end() || it->second.id != OPT_DONE || !seen.insert(next).second)
			c.fail(next, "options offset points to no options section");
		tdat_bytes body = section_content(out, it->second);
		cursor oc(out.path, body.view(), it->second.content, "options section");
		oc.big_endian = out.big_endian;
		next = parse_options(oc, out, true, section_of, flyrecord, lone_instance);
	}
	auto need = [&](unsigned id, bool required) -> const section * {
		auto o = section_of.find(id);
		if (o == section_of.end()) {
			if (required)
				c.fail(first_options, "the options name no " + section_name(id));
			return nullptr;
		}
		auto s = by_offset.find(o->second);
		if (s == by_offset.end() || s->second.id != id)
			c.fail(o->second, "no " + section_name(id) + " starts where the options say");
		return &s->second;
	};
	// `trace-cmd extract -B NAME`: an empty top buffer and one instance,
	// which is the trace. Known before the kallsyms hook: the caller starts
	// the kallsyms only for a file its reader reads.
	bool top_empty = true;
	for (const tdat_cpu_data &d : out.cpu_data)
		top_empty = top_empty && d.size == 0;
	if (!out.latency && top_empty && out.instances.size() == 1 && !lone_instance.cpu_data.empty()) {
		if (lone_instance.page < 64 || lone_instance.page > (1u << 24) ||
		    (lone_instance.page & (lone_instance.page - 1)))
			c.fail(flyrecord, "bad ring-buffer page size " + std::to_string(lone_instance.page));
		out.buffer = out.instances[0];
		out.instances.clear();
		out.cpu_data = std::move(lone_instance.cpu_data);
		out.page_size = static_cast<unsigned>(lone_instance.page);
		flyrecord = lone_instance.offset;
	}
	// The kallsyms first: the largest part to inflate, which the caller
	// may start while the formats below are parsed.
	if (const section *ks = need(OPT_KALLSYMS, false)) {
		out.kallsyms = {ks->content, ks->size, (ks->flags & 1) != 0, true};
		if (known)
			known(out);
	}
	const section *hs = need(OPT_HEADER_INFO, true);
	tdat_bytes header = section_content(out, *hs);
	cursor hc(out.path, header.view(), hs->content, section_name(hs->id));
	hc.big_endian = out.big_endian;
	parse_header_info(hc, out);
	if (const section *fs = need(OPT_FTRACE_EVENTS, false)) {
		tdat_bytes body = section_content(out, *fs);
		cursor fc(out.path, body.view(), fs->content, section_name(fs->id));
		fc.big_endian = out.big_endian;
		parse_formats(fc, fc.number(4, "ftrace format count"), "ftrace", out);
	}
	const section *es = need(OPT_EVENT_FORMATS, true);
	tdat_bytes events = section_content(out, *es);
	cursor ec(out.path, events.view(), es->content, section_name(es->id));
	ec.big_endian = out.big_endian;
	parse_event_systems(ec, out);
	if (out.latency)
		return;
	auto fly = by_offset.find(flyrecord);
	if (!flyrecord || fly == by_offset.end() || fly->second.id != OPT_BUFFER)
		c.fail(flyrecord, "the top buffer's CPU data section is not where its option says");
	out.data_compressed = fly->second.flags & 1;
	const std::uint64_t lo = fly->second.content, hi = lo + fly->second.size;
	for (const tdat_cpu_data &d : out.cpu_data) {
		out.cpus = std::max(out.cpus, d.cpu + 1);
		// Compressed data: a 4-byte chunk count, then SIZE bytes.
		std::uint64_t size = d.size + (out.data_compressed ? 4 : 0);
		if (d.offset < lo || d.offset > hi || size > hi - d.offset)
			c.fail(d.offset, "CPU " + std::to_string(d.cpu) + " data [" +
					      std::to_string(d.offset) + ", +" + std::to_string(d.size) +
					      ") lies outside its buffer section");
	}
}

}  // namespace

unsigned tdat_uname_release(const std::string &uname)
{
	char sys[64], host[256], release[256];
	if (std::sscanf(uname.c_str(), "%63s %255s %255s", sys, host, release) != 3)
		return 0;
	return kernel_release(release);
}

std::vector<std::int64_t> tdat_read_events(const std::string &cpustats, unsigned cpus)
{
	std::vector<std::int64_t> n(cpus, -1);
	long cpu = -1;
	for (std::size_t p = 0; p < cpustats.size();) {
		std::size_t eol = cpustats.find('\n', p);
		std::string line = cpustats.substr(p, eol == std::string::npos ? eol : eol - p);
		unsigned long long v;
		if (std::sscanf(line.c_str(), "CPU: %llu", &v) == 1)
			cpu = v < cpus ? static_cast<long>(v) : -1;
		else if (cpu >= 0 && std::sscanf(line.c_str(), "read events: %llu", &v) == 1)
			n[cpu] = static_cast<std::int64_t>(v);
		if (eol == std::string::npos)
			break;
		p = eol + 1;
	}
	return n;
}

void tdat_check_counts(const std::string &path, const std::vector<std::uint64_t> &read,
		       const std::vector<std::int64_t> &expected)
{
	for (std::size_t c = 0; c < read.size() && c < expected.size(); c++)
		if (expected[c] >= 0 && read[c] != static_cast<std::uint64_t>(expected[c]))
			throw input_error(path, 0, "CPU " + std::to_string(c) + " data holds " +
				std::to_string(read[c]) + " records, but the recording kernel " +
				"handed out " + std::to_string(expected[c]) +
				" events: data lost or corrupt");
}

const tdat_field *tdat_event::find(std::string_view n) const
{
	for (const tdat_field &f : fields)
		if (f.name == n)
			return &f;
	return nullptr;
}

tdat_bytes::tdat_bytes(std::size_t n) : n_(n)
{
	// From 128 KiB (where malloc would map anyway): a huge page's one
	// fault costs about ten small ones on a virtual machine, and the 6.18
	// recording's compressed kallsyms (1 MB, just under the half huge
	// page this took before) were 250 faults.
	if (n < std::size_t{128} << 10) {
		p_ = static_cast<char *>(std::malloc(n ? n : 1));
		if (!p_)
			throw std::bad_alloc();
		return;
	}
	huge_region r = map_huge(n);
	map_ = r.map;
	mapped_ = r.mapped;
	p_ = r.data;
}

tdat_bytes &tdat_bytes::operator=(tdat_bytes &&o) noexcept
{
	if (this != &o) {
		release();
		p_ = std::exchange(o.p_, nullptr);
		n_ = std::exchange(o.n_, 0);
		map_ = std::exchange(o.map_, nullptr);
		mapped_ = std::exchange(o.mapped_, 0);
	}
	return *this;
}

void tdat_bytes::release()
{
	if (map_)
		unmap_huge({map_, mapped_, p_, n_});
	else
		std::free(p_);
	p_ = nullptr;
	map_ = nullptr;
}

tdat_bytes tdat_read(const std::string &path, std::uint64_t offset, std::uint64_t n,
		     const char *what)
{
	file_handle f(path);
	if (offset > f.size || n > f.size - offset)
		throw input_error::at_offset(path, offset, std::string("truncated: ") + what +
						   " of " + std::to_string(n) +
						   " bytes runs past the end of the file");
	tdat_bytes b(n);
	for (std::uint64_t done = 0; done < n;) {
		ssize_t r = ::pread(f.fd, b.data() + done, n - done, offset + done);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			throw input_error::at_offset(path, offset + done,
						     std::string("read error in ") + what);
		done += r;
	}
	return b;
}

namespace {

// Inflates as ZSTD_decompressDCtx() would (every frame of SRC, exactly
// USIZE bytes out), in steps of compressed input, telling PROGRESS after
// each. zstd writes straight into DST and reads its window back from there
// (a stable output buffer), so no window of its own is allocated and
// nothing is copied.
bool zstd_by_steps(ZSTD_DCtx *dctx, const char *src, std::size_t csize, char *dst, std::size_t usize,
		   const tdat_progress &progress)
{
	constexpr std::size_t step = std::size_t{64} << 10;	// compressed: some 300 KB out
	ZSTD_DCtx_reset(dctx, ZSTD_reset_session_and_parameters);
	// Where the library lacks it, zstd keeps a window of its own and
	// copies out: the same bytes, a little slower.
	ZSTD_DCtx_setParameter(dctx, ZSTD_d_stableOutBuffer, 1);
	ZSTD_outBuffer out{dst, usize, 0};
	ZSTD_inBuffer in{src, 0, 0};
	std::size_t left = 1;	// > 0: inside a frame
	while (in.pos < csize) {
		in.size = std::min(csize, in.pos + step);
		const std::size_t was_in = in.pos, was_out = out.pos;
		left = ZSTD_decompressStream(dctx, &out, &in);
		if (ZSTD_isError(left))
			break;
		if (out.pos != was_out)
			progress(dst, out.pos);
		if (in.pos == was_in && out.pos == was_out && in.size == csize)
			break;	// no room left for what the data holds
	}
	ZSTD_DCtx_reset(dctx, ZSTD_reset_session_and_parameters);
	return !ZSTD_isError(left) && left == 0 && in.pos == csize && out.pos == usize;
}

}  // namespace

namespace {

// N bytes at OFFSET of PATH as the page cache holds them, mapped read-only:
// a compressed part is read once, by the inflater, with nothing zeroed or
// copied first (a 6.x kallsyms' 1 MB would take a fresh huge page and a
// copy). Read with pread() where the file cannot be mapped.
class file_view {
public:
	file_view(const std::string &path, std::uint64_t offset, std::uint64_t n, const char *what)
	{
		file_handle f(path);
		if (offset > f.size || n > f.size - offset)
			throw input_error::at_offset(path, offset, std::string("truncated: ") + what +
							   " of " + std::to_string(n) +
							   " bytes runs past the end of the file");
		const std::uint64_t page = static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
		const std::uint64_t from = offset / page * page;
		if (n) {
			void *m = mmap(nullptr, n + (offset - from), PROT_READ, MAP_PRIVATE, f.fd,
				       static_cast<off_t>(from));
			if (m != MAP_FAILED) {
				map_ = m;
				mapped_ = n + (offset - from);
				view_ = {static_cast<const char *>(m) + (offset - from), n};
				return;
			}
		}
		read_ = tdat_read(path, offset, n, what);
		view_ = read_.view();
	}
	~file_view()
	{
		if (map_)
			munmap(map_, mapped_);
	}
	file_view(const file_view &) = delete;
	file_view &operator=(const file_view &) = delete;
	std::string_view view() const { return view_; }

private:
	void *map_ = nullptr;
	std::size_t mapped_ = 0;
	tdat_bytes read_;
	std::string_view view_;
};

}  // namespace

bool tdat_decompress(const std::string &algo, const char *src, std::size_t csize, char *dst,
		     std::size_t usize, const tdat_progress &progress)
{
	if (algo == "zstd") {
		// One context for every call: ZSTD_decompress() would allocate
		// (and map, and unmap) a fresh one each time.
		struct context {
			ZSTD_DCtx *dctx = ZSTD_createDCtx();
			~context() { ZSTD_freeDCtx(dctx); }
		};
		static thread_local context ctx;
		if (!ctx.dctx)
			return false;
		if (progress)
			return zstd_by_steps(ctx.dctx, src, csize, dst, usize, progress);
		std::size_t n = ZSTD_decompressDCtx(ctx.dctx, dst, usize, src, csize);
		return !ZSTD_isError(n) && n == usize;
	}
	if (algo == "zlib") {
		uLongf n = usize;
		bool ok = uncompress(reinterpret_cast<Bytef *>(dst), &n,
				     reinterpret_cast<const Bytef *>(src), csize) == Z_OK &&
			  n == usize;
		if (ok && progress)
			progress(dst, usize);
		return ok;
	}
	return false;
}

tdat_bytes tdat_inflate(const std::string &path, const std::string &algo, bool big_endian,
			std::uint64_t offset, std::uint64_t stored_size, const char *what,
			const tdat_progress &progress)
{
	file_view raw(path, offset, stored_size, what);
	cursor c(path, raw.view(), offset, what);
	c.big_endian = big_endian;
	std::uint64_t csize = c.number(4, "compressed size");
	std::uint64_t usize = c.number(4, "inflated size");
	if (csize > c.left())
		throw input_error::at_offset(path, offset, std::string(what) + ": compressed size " +
						   std::to_string(csize) + " runs past the part (" +
						   std::to_string(stored_size) + " bytes)");
	if (usize > max_inflated)
		throw input_error::at_offset(path, offset, std::string(what) + ": inflated size " +
						   std::to_string(usize) + " is implausible");
	tdat_bytes out(usize);
	if (algo != "zstd" && algo != "zlib")
		throw input_error::at_offset(path, offset, std::string(what) +
						   " is compressed with unknown " + algo);
	if (!tdat_decompress(algo, raw.view().data() + 8, csize, out.data(), usize, progress)) {
		if (progress)
			progress(nullptr, 0);
		throw input_error::at_offset(path, offset, std::string(what) + ": " + algo +
						   " data does not inflate to its " +
						   std::to_string(usize) + " bytes: corrupt");
	}
	return out;
}

trace_dat_file read_trace_dat_file(const std::string &path, const tdat_kallsyms_known &known)
{
	file_handle f(path);
	cursor c(path, f.fd, f.size);
	trace_dat_file out;
	out.path = path;
	out.file_size = f.size;
	c.expect(magic, 10, "trace.dat magic");
	std::string version = c.string("version");
	if (version.empty() || version.size() > 3 ||
	    version.find_first_not_of("0123456789") != std::string::npos)
		c.fail(10, "bad version \"" + version + "\"");
	out.version = std::stoul(version);
	std::uint64_t at = c.pos;
	std::uint64_t endian = c.number(1, "endianness");
	if (endian > 1)
		c.fail(at, "bad endianness byte");
	out.big_endian = c.big_endian = endian == 1;
	at = c.pos;
	out.long_size = static_cast<unsigned>(c.number(1, "long size"));
	if (out.long_size != 4 && out.long_size != 8)
		c.fail(at, "bad long size " + std::to_string(out.long_size));
	at = c.pos;
	std::uint64_t page = c.number(4, "page size");
	if (page < 64 || page > (1u << 24) || (page & (page - 1)))
		c.fail(at, "bad page size " + std::to_string(page));
	out.page_size = static_cast<unsigned>(page);
	if (out.version >= first_sectioned_version)
		walk_v7(c, out, known);
	else
		walk_v6(c, out);
	for (const tdat_cpu_data &d : out.cpu_data)
		if (d.offset > f.size || d.size + (out.data_compressed ? 4 : 0) > f.size - d.offset)
			c.fail(d.offset, "truncated: CPU " + std::to_string(d.cpu) + " data [" +
						 std::to_string(d.offset) + ", +" + std::to_string(d.size) +
						 ") runs past the end of the file (" +
						 std::to_string(f.size) + " bytes)");
	return out;
}

}  // namespace timersim
