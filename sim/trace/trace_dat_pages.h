// The records of one CPU's ring-buffer data in a trace.dat, page by page.
//
// The data is raw pages, or (version 7) chunks of pages compressed one by
// one: a 4-byte chunk count, then per chunk its compressed and inflated
// sizes and the compressed bytes (the size the file gives leaves out the
// count). A page starts with its timestamp and the
// commit word (data size, and flags for lost events); records follow, each
// a 4-byte word of type_len (5 bits) and time delta (27 bits):
//   1..28  data of type_len * 4 bytes;
//   0      data whose length is in the next word;
//   29     padding, its length in the next word;
//   30     a time extension (the next word holds the delta's high bits);
//   31     an absolute timestamp (likewise; the top 5 bits stay).
// Record times are the page timestamp plus the deltas so far, as
// libtraceevent's kbuffer computes them. Every size is checked against the
// page and the chunk: a damaged one is an input_error naming the CPU, the
// chunk or file offset and the page, never a read outside the data. A
// lenient reader instead counts the damage (one unit per page or chunk
// given up) and reads on from the next page or chunk.
#pragma once

#include <cstdint>
#include <string>

#include "sim/trace/trace_dat_file.h"

namespace timersim {

class tdat_cpu_reader {
public:
	tdat_cpu_reader(const trace_dat_file &file, const tdat_cpu_data &data, int fd,
			bool lenient = false);

	// The next record; false at the end of the CPU's data.
	bool next();

	unsigned cpu() const { return cpu_; }
	std::uint64_t ts = 0;			// of the record next() found
	const unsigned char *data = nullptr;	// its payload
	unsigned size = 0;
	std::uint64_t records = 0;		// found so far
	std::uint64_t damaged = 0;		// pages and chunks given up (lenient)

	// Where the current record is, for messages ("CPU 1 data, chunk 2 at
	// offset 1294340, page 5 of the chunk, byte 112"), and the file offset
	// closest to it (of its chunk, when compressed).
	std::string where() const;
	std::uint64_t offset() const;

private:
	bool load_page();
	bool load_block();
	[[noreturn]] void fail(const std::string &why) const;
	// Damage in the current page or chunk: fails, or (lenient) counts it.
	void damage(const std::string &why);
	void give_up(const std::string &why);
	std::uint64_t num(const unsigned char *p, unsigned n) const;

	const trace_dat_file &file_;
	int fd_;
	unsigned cpu_;
	std::uint64_t begin_, end_;	// the CPU's data in the file
	std::uint64_t pos_;		// next unread byte of it
	bool compressed_;
	bool lenient_;
	std::uint64_t chunks_left_ = 0;
	std::uint64_t chunk_ = 0;	// chunks read
	std::uint64_t block_at_ = 0;	// file offset of the block (chunk) in buf_
	std::string buf_, raw_;		// pages; a compressed chunk
	std::size_t page_at_ = 0;	// current page in buf_
	bool have_page_ = false;
	const unsigned char *page_ = nullptr;
	unsigned commit_ = 0;		// data bytes of the page
	unsigned curr_ = 0;		// next record's offset in the page's data
	std::uint64_t page_ts_ = 0;
	std::uint64_t clock_ = 0;	// the page's timestamp plus the deltas so far
};

}  // namespace timersim
