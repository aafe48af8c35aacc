// libFuzzer target: the structure readers of the binary formats - the
// trace.dat structure walk, the CTF metadata unpacking and brace check -
// and the kallsyms / System.map parser. Every input goes through all of
// them; input_error is the only way out.
//
// The full readers are not fuzzed here: the libraries behind them are not
// instrumented, libtracecmd 1.3 crashes closing a handle whose data failed
// to load (the reader deliberately leaks it instead, which LeakSanitizer
// would report), and libbabeltrace's TSDL parser can loop on odd metadata.
// The damaged-file tests of test_binary_readers cover the readers.
//
// fuzz-sources: sim/trace/trace_dat_file.cc sim/trace/ctf_metadata.cc
// fuzz-sources: sim/trace/symbols.cc sim/trace/binary_names.cc sim/trace/names.cc
// fuzz-pkgs: zlib libzstd
// fuzz-seed-bytes: linux-6.18-http/trace.dat linux-3.6-scp_dest/ctf/metadata
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <unistd.h>

#include "sim/trace/binary_names.h"
#include "sim/trace/ctf_metadata.h"
#include "sim/trace/reader.h"
#include "sim/trace/symbols.h"
#include "sim/trace/trace_dat_file.h"

using namespace timersim;

namespace {

// The checks read files: one per process, written for each input and
// removed after it (libFuzzer's exit runs no atexit handlers).
const std::string &scratch()
{
	static const std::string path = "/tmp/timersim-fuzz-binary-" + std::to_string(getpid());
	return path;
}

bool write_scratch(const std::uint8_t *data, std::size_t size)
{
	FILE *f = std::fopen(scratch().c_str(), "wb");
	if (!f)
		return false;
	bool ok = std::fwrite(data, 1, size, f) == size;
	return std::fclose(f) == 0 && ok;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
	if (!write_scratch(data, size))
		return 0;
	try {
		trace_dat_file lay = read_trace_dat_file(scratch());
		if (lay.file_size != size)
			__builtin_trap();
	} catch (const input_error &) {
	}
	try {
		std::string text = read_ctf_metadata(scratch());
		if (text.size() > size)
			__builtin_trap();
	} catch (const input_error &) {
	}
	::unlink(scratch().c_str());
	std::string_view s(reinterpret_cast<const char *>(data), size);
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
