// The background reader of an event_stream: a thread that reads and parses
// the trace into chunks of sim_events ahead of the replay, at most
// event_stream::background_chunks ahead, and hands them over in order.
//
// The callback names ride along with their chunk, in its `functions`
// text (each event that names one holds its place there); the stream
// interns them as it takes the chunk. A reader's exception ends the last
// chunk and travels with it.
#pragma once

#include <array>
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

#include "sim/stream/chunk_arena.h"
#include "sim/stream/event_stream.h"

namespace timersim {

struct event_chunk {
	sim_event *events = nullptr;
	// chunk_events, but for the last chunk (sim/stream/block_prefetch.h:
	// as the blocks' events fall)
	std::size_t count = 0;
	// The callbacks of the events that name one (names_function): each
	// such event's `function` is where its name starts here, a 4-byte
	// length first (events of one name may share its place).
	std::string functions;
	reader_stats stats;		// the reader's counts after this chunk
	bool last = false;		// the trace ends with this chunk
	std::exception_ptr error;	// why it ended, when the reader threw

	// The name at PLACE in `functions` (an event's `function`).
	std::string_view function_at(std::uint32_t place) const
	{
		std::uint32_t n;
		std::memcpy(&n, functions.data() + place, sizeof n);
		return std::string_view(functions.data() + place + sizeof n, n);
	}
	std::string_view function(const sim_event &e) const { return function_at(e.function); }
	// NAME written at the end of `functions`, as E's.
	void add_function(sim_event &e, std::string_view name)
	{
		e.function = static_cast<std::uint32_t>(functions.size());
		auto n = static_cast<std::uint32_t>(name.size());
		functions.append(reinterpret_cast<const char *>(&n), sizeof n).append(name);
	}
};

// Where the callback names written into one chunk's `functions` are, so
// that a name met again shares its place: events name a few callbacks
// again and again, so a chunk's text stays short (the texts of the chunks
// read ahead of the replay are fresh memory, faulted in page by page) and
// the stream interns each place once (event_stream.cc). Both background readers fill their chunks
// through one. An open-addressing table of the places (+1; 0: free).
class chunk_name_places {
public:
	// For a chunk begun anew.
	void clear() { at_.fill(0); }
	// E (an event of C) names NAME: its place in C's text, written there
	// the first time.
	void add(event_chunk &c, sim_event &e, std::string_view name);

private:
	// At most chunk_events names in twice as many places: a free one is
	// always found.
	std::array<std::uint32_t, 2 * event_stream::chunk_events> at_{};
	static_assert((2 * event_stream::chunk_events & (2 * event_stream::chunk_events - 1)) == 0,
		      "found by a mask");
};

// Chunks of events, owned here (in an arena), reused once the stream
// hands them back: the one it handed back first, first. The chunk it
// handed back last is still in the replay core's caches, written there
// (the callbacks' ids, event_stream::take_chunk); the parse's every
// store into it would wait for its line to come over from that core
// (taken last-in first-out, that wait is a large share of a text
// replay); in this order the stream has moved on from the chunk long
// since, and its lines have left that core's caches.
struct chunk_pool {
	std::deque<sim_event *> free;
	chunk_arena all{event_stream::chunk_events};

	sim_event *take() { return reuse_or(&chunk_arena::take); }
	// A chunk for a filler that writes every event whole before any is
	// read: a new one is not made of default events first.
	sim_event *take_for_overwrite() { return reuse_or(&chunk_arena::take_for_overwrite); }

private:
	// The chunk handed back longest ago, else a new one from the arena.
	sim_event *reuse_or(sim_event *(chunk_arena::*make)())
	{
		if (free.empty())
			return (all.*make)();
		sim_event *c = free.front();
		free.pop_front();
		return c;
	}
};

// Where a background stream takes its chunks from.
class chunk_source {
public:
	virtual ~chunk_source() = default;
	// The next chunk, waiting for it. `used`: chunks the stream is done
	// with, handed back for reuse (emptied).
	virtual event_chunk next(std::vector<sim_event *> &used) = 0;
};

// One thread calling the reader's next().
class event_prefetch final : public chunk_source {
public:
	explicit event_prefetch(trace_reader &reader);
	// Stops the thread: it finishes the event it reads, then quits.
	~event_prefetch() override;

	event_chunk next(std::vector<sim_event *> &used) override;

private:
	void run();
	sim_event *free_chunk();

	trace_reader &reader_;
	std::mutex mutex_;
	std::condition_variable cv_;
	std::deque<event_chunk> ready_;
	bool waiting_ = false;		// the stream waits for a chunk
	chunk_pool chunks_;
	chunk_name_places names_;	// of the chunk being filled (the reading thread's)
	bool stop_ = false;
	std::thread thread_;
};

}  // namespace timersim
