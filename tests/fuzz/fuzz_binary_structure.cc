// libFuzzer target: our readers of the binary formats, on arbitrary bytes:
// - the trace.dat structure walk (read_trace_dat_file), and the same bytes
//   as one CPU's ring-buffer pages (tdat_cpu_reader);
// - the CTF metadata unpacking and brace check, the same bytes as TSDL text
//   (parse_tsdl), and as a stream file of a small LTTng-like trace walked
//   packet by packet (packet_reader);
// - the kallsyms / System.map parser.
// Every input goes through all of them; input_error is the only way out.
//
// The library readers (libtracecmd, libbabeltrace) are not fuzzed: they are
// not instrumented, and only tests use them, on intact traces.
//
// fuzz-sources: sim/trace/trace_dat_file.cc sim/trace/trace_dat_pages.cc sim/trace/huge_pages.cc
// fuzz-sources: sim/trace/ctf_metadata.cc sim/trace/ctf_tsdl.cc sim/trace/ctf_decode.cc
// fuzz-sources: sim/trace/ctf_packets.cc sim/trace/ctf_streams.cc
// fuzz-sources: sim/trace/symbols.cc sim/trace/binary_names.cc sim/trace/names.cc sim/trace/line_source.cc sim/trace/lost_events.cc sim/trace/irq_events.cc sim/trace/nohz_events.cc
// fuzz-pkgs: zlib libzstd
// fuzz-seed-bytes: linux-6.18-http/trace.dat linux-3.6-scp_dest/ctf/metadata
// fuzz-seed-bytes: linux-3.6-scp_dest/ctf/channel0_0
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/trace/binary_names.h"
#include "sim/trace/ctf_metadata.h"
#include "sim/trace/ctf_packets.h"
#include "sim/trace/ctf_tsdl.h"
#include "sim/trace/reader.h"
#include "sim/trace/symbols.h"
#include "sim/trace/trace_dat_file.h"
#include "sim/trace/trace_dat_pages.h"

using namespace timersim;

namespace {

// The readers read files: a directory per process, its files written for
// each input (libFuzzer's exit runs no atexit handlers).
const std::string &scratch_dir()
{
	static const std::string path = [] {
		std::string p = "/tmp/timersim-fuzz-binary-" + std::to_string(getpid());
		mkdir(p.c_str(), 0700);
		return p;
	}();
	return path;
}

bool write_file(const std::string &path, const std::uint8_t *data, std::size_t size)
{
	FILE *f = std::fopen(path.c_str(), "wb");
	if (!f)
		return false;
	bool ok = std::fwrite(data, 1, size, f) == size;
	return std::fclose(f) == 0 && ok;
}

// LTTng 2.1's layout, with a compact header, a variant, a string and a
// sequence in the payloads.
const char *metadata = R"(
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
trace { major = 1; minor = 8; byte_order = le;
	packet.header := struct { uint32_t magic; uint8_t uuid[16]; uint32_t stream_id; }; };
clock { name = m; freq = 1000000000; };
typealias integer { size = 27; align = 1; signed = false; map = clock.m.value; } := ts27;
typealias integer { size = 64; align = 8; signed = false; map = clock.m.value; } := ts64;
stream { id = 0;
	event.header := struct {
		enum : integer { size = 5; align = 1; signed = false; } { compact = 0 ... 30, extended = 31 } id;
		variant <id> { struct { ts27 timestamp; } compact;
			       struct { uint32_t id; ts64 timestamp; } extended; } v;
	} align(8);
	packet.context := struct { uint64_t timestamp_begin; uint64_t timestamp_end;
		uint64_t content_size; uint64_t packet_size; uint32_t cpu_id; }; };
event { name = timer_start; id = 0; stream_id = 0;
	fields := struct { uint64_t _timer; uint64_t _function; uint64_t _expires; uint64_t _now; }; };
event { name = sched_x; id = 1; stream_id = 0;
	fields := struct { string _comm; uint32_t _n; integer { size = 16; align = 16; } _v[_n]; }; };
)";

void walk_ctf_stream(const std::uint8_t *data, std::size_t size)
{
	static const ctf::trace_model model = ctf::parse_tsdl(metadata, "fuzz metadata");
	ctf::stream_file f;
	f.name = "channel0_0";
	f.size = size;
	if (!size || !write_file(scratch_dir() + "/" + f.name, data, size))
		return;
	try {
		ctf::packet_reader r(model, scratch_dir(), f);
		while (r.next())
			if (!r.event)
				__builtin_trap();
	} catch (const input_error &) {
	}
}

void walk_ring_buffer(const std::uint8_t *data, std::size_t size)
{
	trace_dat_file file;
	file.path = scratch_dir() + "/cpu0";
	file.page_size = 256;
	file.commit_size = 8;
	file.data_offset = 16;
	tdat_cpu_data d;
	d.size = size / file.page_size * file.page_size;
	if (!d.size || !write_file(file.path, data, size))
		return;
	int fd = ::open(file.path.c_str(), O_RDONLY);
	if (fd < 0)
		return;
	for (bool lenient : {false, true}) {
		try {
			tdat_cpu_reader r(file, d, fd, lenient);
			while (r.next())
				if (r.size > file.page_size)
					__builtin_trap();
		} catch (const input_error &) {
		}
	}
	::close(fd);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
	const std::string scratch = scratch_dir() + "/input";
	if (!write_file(scratch, data, size))
		return 0;
	try {
		trace_dat_file lay = read_trace_dat_file(scratch);
		if (lay.file_size != size)
			__builtin_trap();
	} catch (const input_error &) {
	}
	try {
		std::string text = read_ctf_metadata(scratch);
		if (text.size() > size)
			__builtin_trap();
	} catch (const input_error &) {
	}
	std::string_view s(reinterpret_cast<const char *>(data), size);
	try {
		ctf::parse_tsdl(std::string(s), "fuzz");
	} catch (const input_error &) {
	}
	walk_ctf_stream(data, size);
	walk_ring_buffer(data, size);
	try {
		symbol_table t;
		t.load_text(s, "fuzz");
		for (std::size_t i = 0; i + 8 <= size && i < 64; i += 8) {
			std::uint64_t addr = 0;
			for (int k = 0; k < 8; k++)
				addr = addr << 8 | data[i + k];
			std::string_view name = t.lookup(addr);
			if (!name.empty() && name.size() > size)
				__builtin_trap();
		}
	} catch (const input_error &) {
	}
	(void)kernel_release(s.substr(0, 32));
	std::uint32_t raw = 0;
	std::memcpy(&raw, data, size < 4 ? size : 4);
	(void)decode_timer_flags(raw, static_cast<unsigned>(size));
	return 0;
}
