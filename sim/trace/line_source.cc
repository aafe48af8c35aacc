// line_source: buffer management and the file, gzip and memory back ends.
#include "sim/trace/line_source.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "sim/trace/reader.h"

namespace timersim {

line_source::line_source(std::string name, std::size_t buffer)
	: name_(std::move(name)), cap_(buffer)
{
	if (cap_) {
		// Only the slack is zeroed: what a read fills is touched when it
		// fills it (a megabyte zeroed up front is 256 page faults, most of
		// a small binary trace's sniff).
		buf_.reset(new char[cap_ + read_slack]);
		std::memset(buf_.get() + cap_, 0, read_slack);
		pos_ = end_ = buf_.get();
	}
}

line_source::~line_source() = default;

void line_source::show_all(std::string_view data)
{
	buf_.reset();
	cap_ = 0;
	pos_ = data.data();
	end_ = data.data() + data.size();
	eof_ = true;
	stray_at_ = nullptr;
}

namespace {

// Index of the first '\n' or '\r' of S, or npos.
std::size_t first_line_end(std::string_view s)
{
	for (std::size_t i = 0; i < s.size(); i++)
		if (s[i] == '\n' || s[i] == '\r')
			return i;
	return std::string_view::npos;
}

}  // namespace

char line_source::line_end_in(std::string_view head)
{
	std::size_t i = first_line_end(head);
	if (i == head.npos || head[i] == '\n' || i + 1 == head.size())
		return '\n';
	return head[i + 1] == '\n' ? '\n' : '\r';
}

// Reads until the first line end is in the buffer, with the byte after it
// (a CR may be half of a CRLF), then decides.
void line_source::decide_line_end()
{
	for (;;) {
		std::string_view buffered(pos_, end_ - pos_);
		std::size_t i = first_line_end(buffered);
		bool known = i != buffered.npos && i + 1 < buffered.size();
		if (known || !refill())
			break;
	}
	eol_ = line_end_in(std::string_view(pos_, end_ - pos_));
}

char line_source::line_end()
{
	if (!eol_)
		decide_line_end();
	return eol_;
}

const char *line_source::find_stray(const char *from) const
{
	auto *at = static_cast<const char *>(std::memchr(from, eol_ == '\n' ? '\r' : '\n', end_ - from));
	return at ? at : end_;
}

// Moves the unconsumed tail to the front and reads more behind it. False
// when nothing more could be read (end of input, or the buffer is full).
bool line_source::refill()
{
	std::size_t keep = end_ - pos_;
	if (eof_ || keep == cap_)
		return false;
	char *buf = buf_.get();
	if (pos_ != buf)
		std::memmove(buf, pos_, keep);
	pos_ = buf;
	end_ = buf + keep;
	stray_at_ = nullptr;
	std::size_t got = fill(buf + keep, cap_ - keep);
	if (!got)
		eof_ = true;
	end_ += got;
	return got != 0;
}

// Drops what is left of a line that was too long for the buffer, up to and
// including its newline. False when the input ended inside it.
bool line_source::skip_rest_of_overlong()
{
	for (;;) {
		auto *nl = static_cast<const char *>(std::memchr(pos_, eol_, end_ - pos_));
		if (nl) {
			bytes_ += nl + 1 - pos_;
			pos_ = nl + 1;
			dropping_ = false;
			return true;
		}
		bytes_ += end_ - pos_;
		pos_ = end_;
		if (!refill()) {
			dropping_ = false;
			return false;
		}
	}
}

bool line_source::take(const char *nl, std::string_view &line)
{
	const char *stop = nl ? nl : end_;
	bytes_ += stop - pos_ + (nl ? 1 : 0);
	if (!stray_at_ || stray_at_ < pos_)
		stray_at_ = find_stray(pos_);
	for (; stray_at_ < stop; stray_at_ = find_stray(stray_at_ + 1))
		if (eol_ == '\r' || stray_at_ != stop - 1)	// a CRLF's CR ends the line
			stray_ = eol_ == '\n' ? "a carriage return (\\r) inside the line, whose "
						"lines end with \\n: mixed line endings"
					      : "a newline (\\n) inside the line, whose lines "
						"end with \\r alone: mixed line endings";
	if (eol_ == '\n' && stop > pos_ && stop[-1] == '\r')
		stop--;
	line = std::string_view(pos_, stop - pos_);
	pos_ = nl ? nl + 1 : end_;
	terminated_ = nl != nullptr;
	line_no_++;
	return true;
}

bool line_source::next_slow(std::string_view &line)
{
	overlong_ = false;
	stray_ = nullptr;
	if (!eol_)
		decide_line_end();
	if (dropping_ && !skip_rest_of_overlong())
		return false;
	const char *scanned = pos_;	// no newline in [pos_, scanned)
	for (;;) {
		auto *nl = static_cast<const char *>(
			std::memchr(scanned, eol_, end_ - scanned));
		if (nl)
			return take(nl, line);
		std::size_t seen = end_ - pos_;
		if (refill()) {
			scanned = pos_ + seen;
			continue;
		}
		if (pos_ == end_)
			return false;
		if (!eof_) {
			// The buffer is full and holds no newline.
			overlong_ = true;
			dropping_ = true;
		}
		return take(nullptr, line);
	}
}

std::string_view line_source::head(std::size_t max)
{
	if (cap_ && pos_ != buf_.get()) {	// called late: make room first
		std::size_t keep = end_ - pos_;
		std::memmove(buf_.get(), pos_, keep);
		pos_ = buf_.get();
		end_ = pos_ + keep;
		stray_at_ = nullptr;
	}
	const std::size_t want = std::min(max, cap_);
	while (!eof_ && std::size_t(end_ - pos_) < want) {
		// No more than the head is read: a binary trace only sniffed
		// here is read by its own reader.
		char *dst = buf_.get() + (end_ - buf_.get());
		std::size_t got = fill(dst, want - (end_ - pos_));
		if (!got)
			eof_ = true;
		end_ += got;
	}
	return std::string_view(pos_, std::min<std::size_t>(end_ - pos_, max));
}

std::size_t line_source::read_raw(char *dst, std::size_t cap)
{
	if (pos_ != end_) {	// what head() buffered first
		std::size_t n = std::min<std::size_t>(cap, end_ - pos_);
		std::memcpy(dst, pos_, n);
		pos_ += n;
		if (pos_ == end_ && cap_) {
			// Drained: the line buffer is not needed again (memory
			// stays flat however the blocks are read).
			buf_.reset();
			cap_ = 0;
			pos_ = end_ = nullptr;
		}
		return n;
	}
	if (eof_)
		return 0;
	std::size_t got = fill(dst, cap);
	if (!got)
		eof_ = true;
	return got;
}

namespace {

[[noreturn]] void fail_errno(const std::string &path, const char *what)
{
	throw input_error(path, 0, std::string(what) + ": " + std::strerror(errno));
}

class fd_source final : public line_source {
public:
	fd_source(const std::string &path, int fd, std::size_t buffer)
		: line_source(path, buffer), fd_(fd)
	{
	}
	~fd_source() override { ::close(fd_); }

protected:
	std::size_t fill(char *dst, std::size_t cap) override
	{
		for (;;) {
			ssize_t n = ::read(fd_, dst, cap);
			if (n >= 0)
				return std::size_t(n);
			if (errno != EINTR)
				fail_errno(name(), "read error");
		}
	}

private:
	int fd_;
};

// gzread, not inflate by hand: it follows concatenated gzip members and
// reports a truncated stream, both of which real .gz traces have.
class gz_source final : public line_source {
public:
	gz_source(const std::string &path, gzFile gz, std::size_t buffer)
		: line_source(path, buffer), gz_(gz)
	{
		compressed_ = true;
	}
	~gz_source() override { gzclose(gz_); }

protected:
	std::size_t fill(char *dst, std::size_t cap) override
	{
		if (cut_at_)
			return 0;
		int n = gzread(gz_, dst, unsigned(std::min<std::size_t>(cap, 1u << 30)));
		int err = Z_OK;
		const char *msg = gzerror(gz_, &err);
		// zlib says Z_BUF_ERROR when the compressed stream stops in
		// the middle (a copy cut short): what came before is good.
		if (n <= 0 && err == Z_BUF_ERROR) {
			std::uint64_t at = std::uint64_t(std::max<z_off_t>(gzoffset(gz_), 0));
			if (!tolerate_cut_)
				throw input_error(name(), line_no() + 1,
						  "truncated gzip stream at byte offset " +
							  std::to_string(at) +
							  " (the compressed file ends there; "
							  "--lenient replays up to the cut)");
			cut_at_ = at ? at : 1;
			return 0;
		}
		if (n < 0 || (err != Z_OK && err != Z_BUF_ERROR))
			throw input_error(name(), line_no() + 1,
					  "gzip: " + without_stream_name(msg));
		return std::size_t(n);
	}

private:
	// zlib names a stream opened by gzdopen "<fd:N>": an internal detail
	// that the message does not need (it names the file already).
	static std::string without_stream_name(const char *msg)
	{
		std::string_view m = msg && *msg ? msg : "read error";
		if (m.starts_with("<fd:"))
			if (std::size_t colon = m.find(">: "); colon != m.npos)
				m.remove_prefix(colon + 3);
		return std::string(m);
	}

	gzFile gz_;
};

class memory_view_source final : public line_source {
public:
	memory_view_source(std::string_view data, std::string name)
		: line_source(std::move(name), 0)
	{
		show_all(data);
	}

protected:
	std::size_t fill(char *, std::size_t) override { return 0; }
};

class memory_copy_source final : public line_source {
public:
	memory_copy_source(std::string_view data, std::string name, std::size_t buffer)
		: line_source(std::move(name), buffer), data_(data)
	{
	}

protected:
	std::size_t fill(char *dst, std::size_t cap) override
	{
		std::size_t n = std::min(cap, data_.size());
		std::memcpy(dst, data_.data(), n);
		data_.remove_prefix(n);
		return n;
	}

private:
	std::string_view data_;
};

bool has_gzip_magic(int fd)
{
	unsigned char magic[2];
	return ::pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
}

}  // namespace

std::unique_ptr<line_source> line_source::open_file(const std::string &path, std::size_t buffer,
						    const char *what)
{
	if (buffer < 64)
		buffer = 64;
	int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		fail_errno(path, "cannot open");
	struct stat st;
	if (::fstat(fd, &st) != 0) {
		int e = errno;
		::close(fd);
		errno = e;
		fail_errno(path, "cannot stat");
	}
	if (S_ISDIR(st.st_mode)) {
		::close(fd);
		throw input_error(path, 0, std::string("is a directory, not a ") + what);
	}
	// A pipe cannot be peeked at: let zlib decide (it passes plain text through).
	if (S_ISREG(st.st_mode) && !has_gzip_magic(fd))
		return std::make_unique<fd_source>(path, fd, buffer);
	gzFile gz = gzdopen(fd, "rb");
	if (!gz) {
		::close(fd);
		throw input_error(path, 0, "cannot open gzip stream");
	}
	gzbuffer(gz, 1u << 20);
	return std::make_unique<gz_source>(path, gz, buffer);
}

std::unique_ptr<line_source> line_source::from_memory(std::string_view data, std::string name,
						      std::size_t buffer)
{
	if (!buffer)
		return std::make_unique<memory_view_source>(data, std::move(name));
	buffer = std::max<std::size_t>(buffer, 2);
	return std::make_unique<memory_copy_source>(data, std::move(name), buffer);
}

}  // namespace timersim
