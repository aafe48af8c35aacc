#include "sim/trace/trace_dat_pages.h"

#include <algorithm>
#include <unistd.h>

#include "sim/trace/reader.h"

namespace timersim {

namespace {

constexpr std::uint64_t commit_mask = (1u << 27) - 1;
constexpr std::uint64_t missing_stored = 1u << 30;	// lost-event count after the data
constexpr std::uint64_t ts_msb = 0xf8ull << 56;		// kept by absolute timestamps
constexpr unsigned type_padding = 29, type_time_extend = 30, type_time_stamp = 31;
constexpr std::uint64_t max_chunk = std::uint64_t(1) << 28;	// inflated
constexpr unsigned pages_per_read = 64;				// uncompressed data

}  // namespace

tdat_cpu_reader::tdat_cpu_reader(const trace_dat_file &file, const tdat_cpu_data &data, int fd,
				 bool lenient)
	: file_(file), fd_(fd), cpu_(data.cpu), begin_(data.offset),
	  end_(data.offset + data.size + (file.data_compressed ? 4 : 0)), pos_(data.offset),
	  compressed_(file.data_compressed), lenient_(lenient)
{
	if (!data.size)
		return;
	if (compressed_) {
		unsigned char b[4];
		if (::pread(fd_, b, 4, pos_) != 4)
			fail("read error in the chunk count");
		std::uint64_t n = num(b, 4);
		if (n > (end_ - pos_ - 4) / 8) {
			damage(std::to_string(n) + " chunks cannot fit in " +
			       std::to_string(end_ - pos_ - 4) + " bytes: corrupt chunk count");
			n = 0;
		}
		chunks_left_ = n;
		pos_ += 4;
	} else if (data.size % file.page_size) {
		fail(std::to_string(data.size) + " bytes of data are not whole pages of " +
		     std::to_string(file.page_size) + " bytes");
	}
}

void tdat_cpu_reader::damage(const std::string &why)
{
	if (!lenient_)
		fail(why);
	damaged++;
}

std::uint64_t tdat_cpu_reader::num(const unsigned char *p, unsigned n) const
{
	std::uint64_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v |= std::uint64_t(p[file_.big_endian ? n - 1 - i : i]) << (8 * i);
	return v;
}

std::string tdat_cpu_reader::where() const
{
	std::string w = "CPU " + std::to_string(cpu_) + " data";
	if (!have_page_)
		return w;
	std::uint64_t page_in_block = static_cast<std::uint64_t>(
		page_ - reinterpret_cast<const unsigned char *>(buf_.data()));
	if (compressed_)
		return w + ", chunk " + std::to_string(chunk_ - 1) + " at offset " +
		       std::to_string(block_at_) + ", page " +
		       std::to_string(page_in_block / file_.page_size) + " of the chunk, byte " +
		       std::to_string(file_.data_offset + curr_);
	return w + ", page at offset " + std::to_string(block_at_ + page_in_block) + ", byte " +
	       std::to_string(file_.data_offset + curr_);
}

std::uint64_t tdat_cpu_reader::offset() const
{
	if (compressed_)
		return chunk_ ? block_at_ : pos_;
	if (!have_page_)
		return pos_;
	return block_at_ + (page_ - reinterpret_cast<const unsigned char *>(buf_.data())) +
	       file_.data_offset + curr_;
}

void tdat_cpu_reader::fail(const std::string &why) const
{
	throw input_error::at_offset(file_.path, offset(), where() + ": " + why);
}

// The next block of pages: a chunk inflated (a lenient reader passes over
// damaged ones), or raw pages read.
bool tdat_cpu_reader::load_block()
{
	have_page_ = false;
	page_at_ = 0;
	if (!compressed_) {
		if (pos_ >= end_)
			return false;
		std::uint64_t n = std::min<std::uint64_t>(
			end_ - pos_, std::uint64_t(pages_per_read) * file_.page_size);
		buf_.resize(n);
		if (::pread(fd_, buf_.data(), n, pos_) != static_cast<ssize_t>(n))
			fail("read error at offset " + std::to_string(pos_));
		block_at_ = pos_;
		pos_ += n;
		return true;
	}
	while (chunks_left_) {
		unsigned char h[8];
		if (end_ - pos_ < 8) {
			damage("truncated: chunk " + std::to_string(chunk_) + " header at offset " +
			       std::to_string(pos_));
			chunks_left_ = 0;
			return false;
		}
		if (::pread(fd_, h, 8, pos_) != 8)
			fail("read error in chunk " + std::to_string(chunk_) + "'s header");
		std::uint64_t csize = num(h, 4), usize = num(h + 4, 4);
		const std::string chunk = "chunk " + std::to_string(chunk_) + " at offset " +
					  std::to_string(pos_);
		block_at_ = pos_;
		chunk_++;
		chunks_left_--;
		if (csize > end_ - pos_ - 8) {
			damage(chunk + " claims " + std::to_string(csize) + " bytes, the data has " +
			       std::to_string(end_ - pos_ - 8) + " left: corrupt or cut short");
			chunks_left_ = 0;	// the next chunk's place is unknown
			return false;
		}
		pos_ += 8 + csize;
		if (!usize || usize % file_.page_size || usize > max_chunk) {
			damage(chunk + " inflates to " + std::to_string(usize) +
			       " bytes, not whole pages: corrupt");
			continue;
		}
		raw_.resize(csize);
		if (::pread(fd_, raw_.data(), csize, block_at_ + 8) != static_cast<ssize_t>(csize))
			fail("read error in " + chunk);
		buf_.resize(usize);
		if (!tdat_decompress(file_.compression, raw_.data(), csize, buf_.data(), usize)) {
			damage(chunk + ": " + file_.compression + " data does not inflate to its " +
			       std::to_string(usize) + " bytes: corrupt");
			continue;
		}
		return true;
	}
	return false;
}

// The next page with its header checked: no more data than a page holds.
bool tdat_cpu_reader::load_page()
{
	if (!have_page_ || page_at_ + file_.page_size > buf_.size()) {
		if (!load_block())
			return false;
	}
	page_ = reinterpret_cast<const unsigned char *>(buf_.data()) + page_at_;
	page_at_ += file_.page_size;
	have_page_ = true;
	curr_ = 0;
	page_ts_ = num(page_, 8);
	std::uint64_t commit = num(page_ + 8, file_.commit_size);
	std::uint64_t room = file_.page_size - file_.data_offset;
	if (commit & missing_stored)
		room = room > file_.commit_size ? room - file_.commit_size : 0;
	commit_ = static_cast<unsigned>(commit & commit_mask);
	clock_ = page_ts_;
	if (commit_ > room) {
		damage("the page claims " + std::to_string(commit_) +
		       " bytes of data, a page holds " + std::to_string(room) + ": corrupt data");
		commit_ = 0;	// given up
	}
	return true;
}

// Damage in the page: fails, or (lenient) the rest of the page is skipped.
void tdat_cpu_reader::give_up(const std::string &why)
{
	damage(why);
	curr_ = commit_;
}

bool tdat_cpu_reader::next()
{
	for (;;) {
		if (!have_page_ || curr_ >= commit_) {
			if (!load_page())
				return false;
			continue;
		}
		const unsigned char *d = page_ + file_.data_offset;
		const unsigned left = commit_ - curr_;
		if (left < 4) {
			give_up("a record header runs past the page's data");
			continue;
		}
		std::uint64_t word = num(d + curr_, 4);
		unsigned type_len = file_.big_endian ? word >> 27 : word & 31;
		std::uint64_t delta = file_.big_endian ? word & ((1u << 27) - 1) : word >> 5;
		unsigned start, length;
		switch (type_len) {
		case type_padding:
			// kbuffer reads the length even where the commit ends:
			// within the page, it may.
			if (file_.data_offset + curr_ + 8 > file_.page_size) {
				give_up("padding runs past the page");
				continue;
			}
			clock_ += delta;
			curr_ += 4 + static_cast<unsigned>(std::min<std::uint64_t>(
					     num(d + curr_ + 4, 4), file_.page_size));
			continue;
		case type_time_extend:
		case type_time_stamp: {
			if (left < 8) {
				give_up("a time extension runs past the page's data");
				continue;
			}
			std::uint64_t t = (num(d + curr_ + 4, 4) << 27) + delta;
			clock_ = type_len == type_time_stamp ? t | (clock_ & ts_msb) : clock_ + t;
			curr_ += 8;
			continue;
		}
		case 0: {
			if (left < 8) {
				give_up("a record length runs past the page's data");
				continue;
			}
			std::uint64_t raw = num(d + curr_ + 4, 4);
			if (raw < 4 || raw - 4 > left - 8) {
				give_up("a record of " + std::to_string(raw) +
					" bytes runs past the page's data: corrupt");
				continue;
			}
			length = static_cast<unsigned>((raw - 4 + 3) & ~std::uint64_t(3));
			start = curr_ + 8;
			break;
		}
		default:
			length = type_len * 4;
			start = curr_ + 4;
			break;
		}
		if (length > commit_ - start) {
			give_up("a record of " + std::to_string(length) +
				" bytes runs past the page's data: corrupt");
			continue;
		}
		clock_ += delta;
		ts = clock_;
		data = d + start;
		size = length;
		curr_ = start + length;
		records++;
		return true;
	}
}

}  // namespace timersim
