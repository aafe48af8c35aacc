// libFuzzer target: arbitrary bytes through the three text readers, strict
// and lenient, straight from memory and through a small refilled buffer;
// and through content detection. input_error is the only way out. The
// block scanners and number fast paths of text_scan.h are checked against
// a byte loop and std::from_chars on the same bytes.
//
// Sources and packages for scripts/fuzz.sh (no libtracecmd, no babeltrace):
// fuzz-sources: sim/trace/line_source.cc sim/trace/text_fields.cc sim/trace/text_columns.cc
// fuzz-sources: sim/trace/text_reader.cc sim/trace/text_detect.cc sim/trace/ftrace_text.cc sim/trace/ftrace_fast.cc sim/trace/ftrace_fast_payload.cc sim/trace/text_event_names.cc
// fuzz-sources: sim/trace/trace_cmd_report.cc sim/trace/perf_script.cc sim/trace/names.cc
// fuzz-sources: sim/trace/symbols.cc sim/trace/lost_events.cc sim/trace/irq_events.cc sim/trace/nohz_events.cc
// fuzz-pkgs: zlib
// fuzz-seed-lines: linux-3.6-scp_dest/trace.txt linux-6.18-http/trace.txt
// fuzz-seed-lines: linux-6.18-http/trace-cmd-report.txt linux-6.18-tcp/perf-script.txt
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "sim/trace/reader.h"
#include "sim/trace/text_detect.h"
#include "sim/trace/text_reader.h"
#include "sim/trace/text_scan.h"
#include "tests/support/scan_reference.h"

using namespace timersim;

namespace {

// Reads everything, touching every view the reader hands out (ASan checks
// they point into live memory), and checks the accounting.
void drain(std::string_view data, trace_format fmt, bool lenient, std::size_t buffer)
{
	reader_options opt;
	opt.lenient = lenient;
	unsigned sum = 0;
	try {
		auto r = make_text_reader_from_memory(data, "fuzz", fmt, opt, buffer);
		trace_event ev;
		while (r->next(ev)) {
			for (char c : ev.name)
				sum += unsigned(c);
			for (char c : ev.function)
				sum += unsigned(c);
			if (ev.line == 0 || ev.line > r->stats().lines)
				__builtin_trap();
		}
		const reader_stats &st = r->stats();
		if (st.lines != st.events + st.skipped || st.malformed > st.skipped)
			__builtin_trap();
		if (st.bytes != data.size())
			__builtin_trap();	// a reader that ran to the end consumed it all
		if (!lenient && st.malformed)
			__builtin_trap();
	} catch (const input_error &e) {
		if (lenient && e.line() != 0)
			__builtin_trap();	// lenient readers do not throw on a line
		sum += unsigned(e.reason().size());
	}
	volatile unsigned sink = sum;
	(void)sink;
}

// From each of the first positions of DATA: the scanners, with and without
// reading past their end, agree with byte loops; decimal_prefix and hex16
// with std::from_chars.
void check_scanners(std::string_view data)
{
	const char *base = data.data(), *limit = base + data.size();
	for (std::size_t i = 0; i < data.size() && i < 64; i++) {
		const char *p = base + i;
		for (const char *end : {limit, p + (limit - p) / 2}) {
			if (!test::scanners_agree(p, end, limit))
				__builtin_trap();
			std::uint64_t a = 1, b = 1;
			auto fast = decimal_prefix(p, end, a);
			auto slow = std::from_chars(p, end, b);
			if (fast.ec != slow.ec || (slow.ec == std::errc() && (fast.ptr != slow.ptr || a != b)))
				__builtin_trap();
		}
		if (limit - p >= 16) {
			std::uint64_t a = 1, b = 1;
			auto slow = std::from_chars(p, p + 16, b, 16);
			bool whole = slow.ec == std::errc() && slow.ptr == p + 16;
			if (hex16(p, a) != whole || (whole && a != b))
				__builtin_trap();
		}
	}
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *bytes, std::size_t size)
{
	std::string_view data(reinterpret_cast<const char *>(bytes), size);
	std::string why;
	text_head_problem(data.substr(0, detect_head_bytes));
	detect_text_format(data.substr(0, detect_head_bytes), why);
	check_scanners(data);
	// A small buffer, picked by the input, reaches refills and overlong lines.
	std::size_t small = 16 + (size ? bytes[0] : 0);
	for (trace_format fmt : {trace_format::ftrace, trace_format::trace_cmd_report,
				 trace_format::perf_script})
		for (bool lenient : {false, true}) {
			drain(data, fmt, lenient, 0);
			drain(data, fmt, lenient, small);
		}
	return 0;
}
