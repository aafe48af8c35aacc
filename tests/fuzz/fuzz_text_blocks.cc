// libFuzzer target: arbitrary bytes read as a text trace line by line on
// one thread (the reference) and in small blocks parsed on several threads
// (sim/stream/block_prefetch.h); both must hand out the same events, with the
// same lines and callbacks, the same counts and the same error.
//
// fuzz-sources: sim/trace/line_source.cc sim/trace/text_fields.cc sim/trace/text_columns.cc
// fuzz-sources: sim/trace/text_reader.cc sim/trace/text_detect.cc sim/trace/ftrace_text.cc sim/trace/ftrace_fast.cc sim/trace/ftrace_fast_payload.cc sim/trace/text_event_names.cc
// fuzz-sources: sim/trace/trace_cmd_report.cc sim/trace/perf_script.cc sim/trace/names.cc
// fuzz-sources: sim/trace/symbols.cc sim/trace/text_blocks.cc sim/trace/line_ends.cc sim/trace/lost_events.cc sim/trace/irq_events.cc sim/trace/nohz_events.cc
// fuzz-sources: sim/stream/event_stream.cc sim/stream/event_prefetch.cc sim/stream/block_prefetch.cc sim/stream/chunk_arena.cc sim/trace/huge_pages.cc
// fuzz-pkgs: zlib
// fuzz-seed-lines: linux-3.6-scp_dest/trace.txt linux-6.18-http/trace.txt
// fuzz-seed-lines: linux-6.18-http/trace-cmd-report.txt linux-6.18-tcp/perf-script.txt
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "sim/trace/line_source.h"
#include "sim/trace/reader.h"
#include "sim/trace/text_reader.h"
#include "tests/support/stream_outcome.h"

using namespace timersim;

namespace {

test::stream_outcome read_through(std::string_view data, trace_format fmt, bool lenient,
				  std::size_t block)
{
	reader_options opt;
	opt.lenient = lenient;
	auto reader = make_text_reader_from_memory(data, "fuzz", fmt, opt,
						   line_source::default_buffer);
	return test::read_stream(*reader, block);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *bytes, std::size_t size)
{
	std::string_view data(reinterpret_cast<const char *>(bytes), size);
	// Blocks of a few lines, picked by the input: every cut is reached.
	std::size_t block = 8 + (size ? bytes[0] : 0);
	for (trace_format fmt : {trace_format::ftrace, trace_format::trace_cmd_report,
				 trace_format::perf_script})
		for (bool lenient : {false, true})
			if (!test::same_outcome(read_through(data, fmt, lenient, 0),
						read_through(data, fmt, lenient, block)))
				__builtin_trap();
	return 0;
}
