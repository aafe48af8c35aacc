// Small inputs that are not traces - a calibration, a sweep's result lines -
// read whole, within bounds like the trace readers' (line_source): a line
// past max_line or a file past max_bytes is refused when reading reaches
// it, so /dev/zero, an endless FIFO or a huge file never fills memory.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace timersim {

// The text of PATH (WHAT it should be, for messages), each line ended by
// '\n'. Throws input_error naming the file and the line that passes a
// bound, or that PATH cannot be read.
std::string read_small_text(const std::string &path, std::size_t max_bytes, std::size_t max_line,
			    const char *what);

// TEXT as JSON. Throws input_error naming NAME and the byte offset for
// anything that is not JSON, a number past a double's range included
// (nlohmann::json::parse throws that as out_of_range, without a position).
nlohmann::json parse_json_input(std::string_view text, const std::string &name);

}  // namespace timersim
