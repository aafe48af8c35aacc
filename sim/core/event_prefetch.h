// The background reader of an event_stream: a thread that reads and parses
// the trace into chunks of sim_events ahead of the replay, at most
// event_stream::background_chunks ahead, and hands them over in order.
//
// It interns callback names in an interner of its own; each chunk carries
// the names first seen in it, which the stream's interner takes in the
// same order, so that ids are what reading on demand gives. A reader's
// exception ends the last chunk and travels with it.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "sim/core/event_stream.h"

namespace timersim {

struct event_chunk {
	sim_event *events = nullptr;
	std::size_t count = 0;		// chunk_events, but for the last chunk
	std::vector<std::string> names;	// interned first in this chunk, in id order
	reader_stats stats;		// the reader's counts after this chunk
	bool last = false;		// the trace ends with this chunk
	std::exception_ptr error;	// why it ended, when the reader threw
};

class event_prefetch {
public:
	// `known`: the names already interned, which the thread's ids start after.
	event_prefetch(trace_reader &reader, const interner &known);
	// Stops the thread: it finishes the event it reads, then quits.
	~event_prefetch();

	// The next chunk, waiting for it. `used`: chunks the stream is done
	// with, handed back for reuse (emptied).
	event_chunk next(std::vector<sim_event *> &used);

private:
	void run();
	sim_event *free_chunk();

	trace_reader &reader_;
	interner names_;		// the thread's
	std::mutex mutex_;
	std::condition_variable cv_;
	std::deque<event_chunk> ready_;
	std::vector<sim_event *> free_;
	bool stop_ = false;
	std::vector<std::unique_ptr<sim_event[]>> chunks_;	// every chunk (this thread's)
	std::thread thread_;
};

}  // namespace timersim
