// Helpers for the text reader tests: temporary files (plain and gzip) and
// events copied out of a reader (its string_views die at the next next()).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/trace/reader.h"

namespace timersim::test {

// A file NAME with CONTENT in a directory of this process (removed at exit).
std::string write_temp(const std::string &name, std::string_view content);
// The same, gzip-compressed with zlib.
std::string write_temp_gzip(const std::string &name, std::string_view content);
// A fresh empty directory of this process.
std::string temp_subdir(const std::string &name);
std::string read_whole_file(const std::string &path);

// A trace_event that owns its strings.
struct owned_event {
	event_kind kind = event_kind::other;
	std::string name;
	std::uint32_t cpu = 0;
	std::uint64_t ts_ns = 0;
	std::uint64_t line = 0;
	std::uint64_t timer = 0;
	std::uint8_t timer_digits = 0;
	std::string function;
	std::uint64_t expires = 0;
	std::int64_t timeout = 0;
	std::uint64_t now = 0;
	std::uint64_t baseclk = 0;
	std::uint64_t bucket_expiry = 0;
	std::uint32_t target_cpu = 0;
	std::uint32_t idx = 0;
	std::uint32_t flags = 0;
	bool is_idle = false;
	std::uint32_t has = 0;
	hrtimer_event hrtimer = hrtimer_event::none;
	std::uint64_t softexpires = 0;
	std::uint32_t clockid = 0;
	std::uint32_t hrtimer_mode = 0;
	bool was_armed = false;
	std::uint32_t vec = 0;
	bool timer_interrupt = false;
	// The NOHZ idle events' (sim/trace/event.h: they share places with the above).
	tmigr_event tmigr = tmigr_event::none;
	std::uint32_t cpu_id = 0, dependency = 0;
	std::uint64_t idle_state = 0, nextevt = 0, stop_success = 0, wakeup = 0;

	explicit owned_event(const trace_event &ev);
	bool carries(event_field f) const { return (has & f) != 0; }
	bool operator==(const owned_event &) const = default;
};

// Every event of READER, in order.
std::vector<owned_event> read_all(trace_reader &reader);

// The error reading TEXT (as t.txt, in FMT) gives, or "" when it reads.
std::string error_of(const std::string &text, trace_format fmt = trace_format::ftrace);

}  // namespace timersim::test
