// Content detection of the text renderings, on the first bytes of a file
// (decompressed when it was gzip). The binary formats are told apart by
// their magic in open.cc; this is what is left once a file is text.
#pragma once

#include <string>
#include <string_view>

#include "sim/trace/reader.h"

namespace timersim {

// How many bytes of a file detection looks at.
constexpr std::size_t detect_head_bytes = 64 * 1024;

// Why HEAD cannot be a text trace ("empty file", "binary data ..."), or
// nullptr when it is text.
const char *text_head_problem(std::string_view head);

// ftrace, trace_cmd_report or perf_script by the header and the shape of
// the first lines of HEAD; auto_detect, with WHY set, when none fits.
trace_format detect_text_format(std::string_view head, std::string &why);

// A header line only one rendering writes: raw ftrace's "# tracer:", trace-cmd
// report's first line "cpus=N", perf script's "# captured on" or "# perf
// version". A forced --format that is not that rendering is refused with it
// (the readers of the others would read the events and lose what differs).
struct rendering_header {
	trace_format format = trace_format::auto_detect;	// auto_detect: none
	std::uint64_t line = 0;		// 1-based, in HEAD
	std::string_view text;		// the line, in HEAD
};
rendering_header find_rendering_header(std::string_view head);

}  // namespace timersim
