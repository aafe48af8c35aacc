// The background reader of an event_stream: a thread that reads and parses
// the trace into chunks of sim_events ahead of the replay, at most
// event_stream::background_chunks ahead, and hands them over in order.
//
// The callback names ride along with their chunk, in its `functions`
// text (each event that names one holds its place there); the stream
// interns them as it takes the chunk. A reader's exception ends the last
// chunk and travels with it.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "sim/core/event_stream.h"

namespace timersim {

struct event_chunk {
	sim_event *events = nullptr;
	std::size_t count = 0;		// chunk_events, but for the last chunk
	// The callbacks of the events that name one (names_function): each
	// such event's `function` is where its name starts here, a 4-byte
	// length first.
	std::string functions;
	reader_stats stats;		// the reader's counts after this chunk
	bool last = false;		// the trace ends with this chunk
	std::exception_ptr error;	// why it ended, when the reader threw

	std::string_view function(const sim_event &e) const
	{
		std::uint32_t n;
		std::memcpy(&n, functions.data() + e.function, sizeof n);
		return std::string_view(functions.data() + e.function + sizeof n, n);
	}
	void add_function(sim_event &e, std::string_view name)
	{
		e.function = static_cast<std::uint32_t>(functions.size());
		auto n = static_cast<std::uint32_t>(name.size());
		functions.append(reinterpret_cast<const char *>(&n), sizeof n).append(name);
	}
};

class event_prefetch {
public:
	explicit event_prefetch(trace_reader &reader);
	// Stops the thread: it finishes the event it reads, then quits.
	~event_prefetch();

	// The next chunk, waiting for it. `used`: chunks the stream is done
	// with, handed back for reuse (emptied).
	event_chunk next(std::vector<sim_event *> &used);

private:
	void run();
	sim_event *free_chunk();

	trace_reader &reader_;
	std::mutex mutex_;
	std::condition_variable cv_;
	std::deque<event_chunk> ready_;
	bool waiting_ = false;		// the stream waits for a chunk
	std::vector<sim_event *> free_;
	bool stop_ = false;
	std::vector<std::unique_ptr<sim_event[]>> chunks_;	// every chunk (this thread's)
	std::thread thread_;
};

}  // namespace timersim
