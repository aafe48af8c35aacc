// What the binary reader tests share: a shared recording or a skip, files
// written at a given path, and a whole read that reports its input_error.
// Header-only. (Reading a file: read_whole_file() of text_trace_util.h.)
#pragma once

#include <cstdint>
#include <fstream>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

#include "sim/trace/reader.h"
#include "tests/support/paths.h"

// Declares VAR as ../shared/traces/REL, or returns from the test with a
// SKIP note when the shared folder is absent.
#define NEED_SHARED(var, rel)                                                    \
	const std::string var = timersim::test::shared_trace(rel);               \
	if (var.empty()) {                                                       \
		timersim::test::skip_note(std::string("../shared/traces/") + rel + " absent"); \
		return;                                                          \
	}

namespace timersim::test {

inline void write_file(const std::string &path, const std::string &data)
{
	std::ofstream out(path, std::ios::binary | std::ios::trunc);
	out.write(data.data(), static_cast<std::streamsize>(data.size()));
	if (!out.good())
		throw std::runtime_error("cannot write " + path);
}

// Opens with OPEN and reads everything: the input_error's message, or ""
// when all of it read (EVENTS, when not null, then gets the event count).
inline std::string read_error(const std::function<std::unique_ptr<trace_reader>()> &open,
			      std::uint64_t *events = nullptr)
{
	try {
		auto r = open();
		trace_event ev;
		std::uint64_t n = 0;
		while (r->next(ev))
			n++;
		if (events)
			*events = n;
	} catch (const input_error &e) {
		return e.what();
	}
	return {};
}

}  // namespace timersim::test
