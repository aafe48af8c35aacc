#include "sim/trace/trace_dat_layout.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/trace/reader.h"

namespace timersim {

namespace {

constexpr char magic[] = "\x17\x08\x44tracing";	// 10 bytes
constexpr unsigned first_sectioned_version = 7;
constexpr unsigned option_strings = 15;		// TRACECMD_OPTION_STRINGS
constexpr unsigned option_buffer_text = 22;	// TRACECMD_OPTION_BUFFER_TEXT: latency data

// Section ids are option ids (trace-cmd's TRACECMD_OPTION_*).
std::string section_name(std::uint64_t id)
{
	switch (id) {
	case 0:		return "options section";
	case 3:		return "CPU data (buffer) section";
	case 15:	return "strings section";
	case 16:	return "header info section";
	case 17:	return "ftrace formats section";
	case 18:	return "event formats section";
	case 19:	return "kallsyms section";
	case 20:	return "printk formats section";
	case 21:	return "command lines section";
	case 22:	return "text buffer section";
	}
	return "section " + std::to_string(id);
}

// Reads the file at explicit offsets; every short read is a truncation.
class cursor {
public:
	cursor(const std::string &path) : path_(path)
	{
		fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
		struct stat st;
		if (fd_ < 0 || fstat(fd_, &st) != 0) {
			int err = errno;
			if (fd_ >= 0)
				::close(fd_);
			throw input_error(path, 0,
					  std::string("cannot open: ") + std::strerror(err));
		}
		if (!S_ISREG(st.st_mode)) {
			::close(fd_);
			throw input_error(path, 0, "not a regular file, so not a trace.dat");
		}
		size_ = st.st_size;
	}
	~cursor() { ::close(fd_); }
	cursor(const cursor &) = delete;
	cursor &operator=(const cursor &) = delete;

	std::uint64_t pos = 0;
	bool big_endian = false;

	std::uint64_t size() const { return size_; }

	[[noreturn]] void fail(std::uint64_t at, const std::string &why) const
	{
		throw input_error::at_offset(path_, at, why);
	}

	void bytes(void *buf, std::size_t n, const char *what)
	{
		if (pos > size_ || n > size_ - pos)
			fail(pos, std::string("truncated: ") + what + " needs " + std::to_string(n) +
				  " bytes, the file ends at " + std::to_string(size_));
		ssize_t r = ::pread(fd_, buf, n, pos);
		if (r != static_cast<ssize_t>(n))
			fail(pos, std::string("read error in ") + what);
		pos += n;
	}

	std::uint64_t number(unsigned n, const char *what)
	{
		unsigned char b[8];
		bytes(b, n, what);
		std::uint64_t v = 0;
		for (unsigned i = 0; i < n; i++)
			v |= std::uint64_t(b[big_endian ? n - 1 - i : i]) << (8 * i);
		return v;
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

	void skip(std::uint64_t n, const char *what)
	{
		if (pos > size_ || n > size_ - pos)
			fail(pos, std::string("truncated: ") + what + " of " + std::to_string(n) +
				  " bytes runs past the end of the file (" +
				  std::to_string(size_) + " bytes)");
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
	std::uint64_t size_ = 0;
};

// Up to version 6: header page and event, formats, kallsyms, printk
// formats, saved command lines, CPU count, then options / latency /
// flyrecord blocks.
void walk_v6(cursor &c, trace_dat_layout &lay)
{
	c.expect("header_page", 12, "header_page tag");
	c.skip(c.number(8, "header page size"), "header page");
	c.expect("header_event", 13, "header_event tag");
	c.skip(c.number(8, "header event size"), "header event");
	for (std::uint64_t n = c.number(4, "ftrace format count"); n; n--)
		c.skip(c.number(8, "ftrace format size"), "ftrace format");
	for (std::uint64_t sys = c.number(4, "event system count"); sys; sys--) {
		c.string("event system name");
		for (std::uint64_t n = c.number(4, "event format count"); n; n--)
			c.skip(c.number(8, "event format size"), "event format");
	}
	c.skip(c.number(4, "kallsyms size"), "kallsyms");
	c.skip(c.number(4, "printk formats size"), "printk formats");
	c.skip(c.number(8, "command lines size"), "command lines");
	std::uint64_t cpus = c.number(4, "CPU count");
	for (;;) {
		char tag[10];
		std::uint64_t at = c.pos;
		c.bytes(tag, sizeof(tag), "data block tag");
		if (std::memcmp(tag, "options  ", 10) == 0) {
			for (;;) {
				std::uint64_t id = c.number(2, "option id");
				if (!id)
					break;
				c.skip(c.number(4, "option size"), "option");
			}
		} else if (std::memcmp(tag, "latency  ", 10) == 0) {
			lay.latency = true;
			return;		// text to the end of the file
		} else if (std::memcmp(tag, "flyrecord", 10) == 0) {
			for (std::uint64_t cpu = 0; cpu < cpus; cpu++) {
				std::uint64_t at_cpu = c.pos;
				std::uint64_t off = c.number(8, "CPU data offset");
				std::uint64_t size = c.number(8, "CPU data size");
				if (off > c.size() || size > c.size() - off)
					c.fail(at_cpu, "truncated: CPU " + std::to_string(cpu) +
						       " data [" + std::to_string(off) + ", +" +
						       std::to_string(size) +
						       ") runs past the end of the file (" +
						       std::to_string(c.size()) + " bytes)");
			}
			return;
		} else {
			c.fail(at, "expected options, latency or flyrecord");
		}
	}
}

// Version 7: compression name and version, the offset of the first options
// section, then sections back to back up to the end of the file.
void walk_v7(cursor &c, trace_dat_layout &lay)
{
	c.string("compression name");
	c.string("compression version");
	std::uint64_t options = c.number(8, "first options offset");
	bool options_found = false, strings_found = false;
	while (c.pos < c.size()) {
		std::uint64_t at = c.pos;
		std::uint64_t id = c.number(2, "section id");
		c.number(2, "section flags");
		c.number(4, "section name");
		std::uint64_t size = c.number(8, "section size");
		if (size > c.size() - c.pos)
			c.fail(at, "truncated: " + section_name(id) + " of " + std::to_string(size) +
				   " bytes at offset " + std::to_string(at) +
				   " runs past the end of the file (" + std::to_string(c.size()) +
				   " bytes)");
		c.pos += size;
		lay.sections++;
		options_found |= at == options;
		strings_found |= id == option_strings;
		lay.latency |= id == option_buffer_text;
	}
	if (!options_found)
		c.fail(options, "no section starts at the first options offset");
	if (!strings_found)
		c.fail(c.size(), "truncated: the file ends before its strings section");
}

}  // namespace

trace_dat_layout check_trace_dat_layout(const std::string &path)
{
	cursor c(path);
	trace_dat_layout lay;
	lay.file_size = c.size();
	c.expect(magic, 10, "trace.dat magic");
	std::string version = c.string("version");
	if (version.empty() || version.size() > 3 ||
	    version.find_first_not_of("0123456789") != std::string::npos)
		c.fail(10, "bad version \"" + version + "\"");
	lay.version = std::stoul(version);
	std::uint64_t endian_at = c.pos;
	std::uint64_t endian = c.number(1, "endianness");
	if (endian > 1)
		c.fail(endian_at, "bad endianness byte");
	c.big_endian = endian == 1;
	std::uint64_t long_at = c.pos;
	std::uint64_t long_size = c.number(1, "long size");
	if (long_size != 4 && long_size != 8)
		c.fail(long_at, "bad long size " + std::to_string(long_size));
	c.number(4, "page size");
	if (lay.version >= first_sectioned_version)
		walk_v7(c, lay);
	else
		walk_v6(c, lay);
	return lay;
}

}  // namespace timersim
