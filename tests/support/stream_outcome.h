// What an event_stream hands out, read line by line or in blocks (the
// blocks test and the blocks fuzz target compare the two).
#pragma once

#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "sim/stream/event_stream.h"
#include "sim/base/interner.h"
#include "sim/trace/reader.h"

namespace timersim::test {

struct stream_outcome {
	std::vector<sim_event> events;
	std::vector<std::string> functions;	// each event's callback, by name
	reader_stats stats;
	std::string error;	// what() of the input_error that ended it, if one did
	std::uint64_t error_line = 0;
};

// Everything READER yields through a stream reading it line by line on
// one thread (BLOCK 0) or in blocks of BLOCK bytes.
inline stream_outcome read_stream(trace_reader &reader, std::size_t block)
{
	stream_outcome o;
	interner names;
	event_stream stream(reader, names,
			    block ? event_stream::reading::blocks : event_stream::reading::background,
			    block);
	try {
		while (const sim_event *e = stream.peek()) {
			o.events.push_back(*e);
			o.functions.emplace_back(names.name(e->function));
			stream.pop();
		}
		o.stats = stream.stats();
	} catch (const input_error &e) {
		o.error = e.what();
		o.error_line = e.line();
	}
	return o;
}

// Whether A and B are the same, but for the counts when an error ended
// them. Index of the first event that differs in *AT (the size when all
// agree).
inline bool same_outcome(const stream_outcome &a, const stream_outcome &b, std::size_t *at = nullptr)
{
	std::size_t i = 0;
	// sim_event has no padding: the bytes are the fields.
	while (i < a.events.size() && i < b.events.size() &&
	       std::memcmp(&a.events[i], &b.events[i], sizeof(sim_event)) == 0 &&
	       a.functions[i] == b.functions[i])
		i++;
	if (at)
		*at = i;
	if (a.error != b.error || a.error_line != b.error_line || i != a.events.size() ||
	    i != b.events.size())
		return false;
	return !a.error.empty() ||
	       (a.stats.lines == b.stats.lines && a.stats.events == b.stats.events &&
		a.stats.skipped == b.stats.skipped && a.stats.malformed == b.stats.malformed &&
		a.stats.bytes == b.stats.bytes);
}

}  // namespace timersim::test
