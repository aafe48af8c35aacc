// The structure of a trace-cmd trace.dat (versions 6 and 7), read by our
// own code: what a replay needs, every size and offset checked against the
// file before anything is read through it.
//
// Up to version 6 the header parts follow one another (header page and
// event formats, ftrace and event formats, kallsyms, printk formats,
// command lines, CPU count) and then options, latency or flyrecord blocks;
// the flyrecord block gives each CPU's data offset and size. Version 7 is a
// chain of sections (16-byte header: id, flags, name, size; compressed
// sections inflate with the file's zstd or zlib), found through the options
// sections that begin at the offset the file header gives.
//
// Only the "timer", "irq" and "irq_vectors" event formats are parsed for
// their fields; of every
// other format the name and id are kept. The kallsyms text is located but
// not read: a reader inflates it only when a callback needs a name.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace timersim {

// One field of an event format ("field:unsigned long expires; offset:24;
// size:8; signed:0;").
struct tdat_field {
	std::string name;
	unsigned offset = 0, size = 0;
	bool is_signed = false;
	// "__data_loc char[] name": the field holds the string's offset in
	// the record (low 16 bits) and its length (high 16).
	bool data_loc = false;
};

struct tdat_event {
	std::string system, name;
	std::vector<tdat_field> fields;		// the timer system's only
	const tdat_field *find(std::string_view name) const;
};

// A part of the file: OFFSET and SIZE as stored; COMPRESSED parts hold the
// 8-byte compression header and the compressed bytes.
struct tdat_extent {
	std::uint64_t offset = 0, size = 0;
	bool compressed = false;
	bool present = false;
};

struct tdat_cpu_data {
	unsigned cpu = 0;
	std::uint64_t offset = 0, size = 0;	// in the file
};

struct trace_dat_file {
	std::string path;
	std::uint64_t file_size = 0;
	unsigned version = 0;
	bool big_endian = false;
	unsigned long_size = 8;		// of the recording user space
	unsigned page_size = 4096;	// of the ring buffer's pages
	std::string compression;	// "" (none), "zstd" or "zlib"
	std::uint64_t sections = 0;	// v7: sections walked
	bool latency = false;		// latency-tracer text, not event records

	// From header_page: the kernel's long (size of the commit word) and
	// where a page's data begins.
	unsigned commit_size = 8;
	unsigned data_offset = 16;

	std::map<int, tdat_event> events;	// by id
	unsigned common_type_offset = 0, common_type_size = 2;

	tdat_extent kallsyms;		// text, possibly compressed
	std::string uname, cpustats;	// options, may be empty
	std::int64_t ts_offset = 0;	// OFFSET option: added to every timestamp
	std::vector<std::string> instances;	// buffer instances besides the top one
	// Why our reader cannot read this file the way libtracecmd would
	// (TSC conversion, guest time sync); empty when it can.
	std::string unsupported;

	unsigned cpus = 0;		// CPU count the file declares
	std::vector<tdat_cpu_data> cpu_data;	// the top buffer's
	// v7: the buffer the CPU data above is from: "" the top one, or the
	// one instance of a file whose top buffer holds no CPU data
	// (`trace-cmd extract -B NAME` without -t), which is then read as the
	// trace and not counted in `instances`.
	std::string buffer;
	bool data_compressed = false;	// v7: CPU data in compressed chunks
};

// Bytes of a part of the file, read or inflated. Those of 128 KiB or more
// live in anonymous memory backed by 2 MiB transparent huge pages where the
// kernel offers them: a 5 MB kallsyms then takes a few page faults instead
// of 1,300, and no byte is zero-filled twice.
class tdat_bytes {
public:
	tdat_bytes() = default;
	explicit tdat_bytes(std::size_t n);
	~tdat_bytes() { release(); }
	tdat_bytes(tdat_bytes &&o) noexcept { *this = std::move(o); }
	tdat_bytes &operator=(tdat_bytes &&o) noexcept;
	tdat_bytes(const tdat_bytes &) = delete;
	tdat_bytes &operator=(const tdat_bytes &) = delete;

	char *data() { return p_; }
	std::size_t size() const { return n_; }
	std::string_view view() const { return {p_, n_}; }

private:
	void release();
	char *p_ = nullptr;
	std::size_t n_ = 0;
	void *map_ = nullptr;	// the mapping, when mapped
	std::size_t mapped_ = 0;
};

// Called by read_trace_dat_file() once a version 7 file's kallsyms extent
// is known: after the options (so the file's path, version, byte order,
// compression, instances and unsupported options are known too), before
// the header and the event formats are parsed, so that the caller can
// start inflating it on another thread while they are.
using tdat_kallsyms_known = std::function<void(const trace_dat_file &)>;

// Reads and checks PATH's structure. Throws input_error naming the part of
// the file and its byte offset when a size or offset lies outside the file
// or a header is malformed.
trace_dat_file read_trace_dat_file(const std::string &path, const tdat_kallsyms_known &known = {});

// Inflates a compressed part (at OFFSET in PATH: 4-byte compressed size,
// 4-byte size, data) with ALGO ("zstd", "zlib"); throws input_error naming
// WHAT and the offset when it does not inflate to exactly its size.
// PROGRESS, when set, is told how many bytes are out so far as they come
// (zstd inflates in steps; zlib at once), the last call with them all; on
// corrupt data it is called with OUT null before the bytes are freed.
using tdat_progress = std::function<void(const char *out, std::size_t done)>;
tdat_bytes tdat_inflate(const std::string &path, const std::string &algo, bool big_endian,
			std::uint64_t offset, std::uint64_t stored_size, const char *what,
			const tdat_progress &progress = {});

// "Linux host 4.7.2-arch x86_64" (the UNAME option) -> 407; 0 when unknown.
unsigned tdat_uname_release(const std::string &uname);

// "CPU: 1\n...\nread events: 17034\n" blocks (the CPUSTAT options): how
// many events the kernel handed to trace-cmd from each CPU's buffer, -1
// where the file does not say.
std::vector<std::int64_t> tdat_read_events(const std::string &cpustats, unsigned cpus);

// The end of every CPU's data. Damaged compressed data can inflate "fine"
// into pages with fewer records, or more; the kernel's count of the events
// it handed to trace-cmd tells. Throws input_error for a CPU whose READ
// records differ from EXPECTED (tdat_read_events).
void tdat_check_counts(const std::string &path, const std::vector<std::uint64_t> &read,
		       const std::vector<std::int64_t> &expected);

// Inflates CSIZE bytes at SRC into exactly USIZE bytes at DST with ALGO;
// false when the data is corrupt or inflates to another size.
bool tdat_decompress(const std::string &algo, const char *src, std::size_t csize, char *dst,
		     std::size_t usize, const tdat_progress &progress = {});

// Reads N bytes at OFFSET of PATH; throws input_error naming WHAT.
tdat_bytes tdat_read(const std::string &path, std::uint64_t offset, std::uint64_t n,
		     const char *what);

}  // namespace timersim
