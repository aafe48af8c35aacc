#include "sim/stream/event_prefetch.h"

#include <cstring>

#include "sim/base/interner.h"

namespace timersim {

event_prefetch::event_prefetch(trace_reader &reader) : reader_(reader)
{
	thread_ = std::thread([this] { run(); });
}

event_prefetch::~event_prefetch()
{
	{
		std::lock_guard<std::mutex> lock(mutex_);
		stop_ = true;
	}
	cv_.notify_all();
	thread_.join();
}

// A chunk to fill, once there is room ahead of the replay; nullptr: stop.
sim_event *event_prefetch::free_chunk()
{
	std::unique_lock<std::mutex> lock(mutex_);
	cv_.wait(lock, [this] { return stop_ || ready_.size() < event_stream::background_chunks; });
	// run() writes each event whole (to_sim_event) before it hands it on.
	return stop_ ? nullptr : chunks_.take_for_overwrite();
}

namespace {

// A name's place to look first: from its length and its first, middle and
// last 8 bytes, where callbacks' names differ ("0xffffffff810ae0d0" in its
// last digits) - a few instructions, where a hash of every byte would
// cost the reading thread more than writing each name once saves. Names alike
// there only take longer to find; the comparison decides.
std::uint64_t name_place(std::string_view s)
{
	auto load8 = [&](std::size_t at) {
		std::uint64_t v;
		std::memcpy(&v, s.data() + at, sizeof v);
		return v;
	};
	std::uint64_t h = s.size();
	if (s.size() >= 8) {
		h ^= load8(0) * 0x9e3779b97f4a7c15ull;
		h ^= load8((s.size() - 8) / 2) * 0xc2b2ae3d27d4eb4full;
		h ^= load8(s.size() - 8) * 0x165667b19e3779f9ull;
	} else {
		for (char ch : s)
			h = (h ^ static_cast<unsigned char>(ch)) * 0x100000001b3ull;
	}
	return h ^ (h >> 29) ^ (h >> 41);
}

}  // namespace

void chunk_name_places::add(event_chunk &c, sim_event &e, std::string_view name)
{
	constexpr std::size_t mask = std::tuple_size_v<decltype(at_)> - 1;
	for (std::size_t h = name_place(name) & mask;; h = (h + 1) & mask) {
		if (!at_[h]) {
			c.add_function(e, name);
			at_[h] = e.function + 1;
			return;
		}
		// Compared by the interner's inline loop: a call of memcmp a
		// name cost the text replay 1.1 M instructions more.
		const std::string_view had = c.function_at(at_[h] - 1);
		if (had.size() == name.size() && interner::same_bytes(had.data(), name.data(), name.size())) {
			e.function = at_[h] - 1;
			return;
		}
	}
}

void event_prefetch::run()
{
	trace_event ev;
	for (;;) {
		sim_event *events = free_chunk();
		if (!events)
			return;
		event_chunk c;
		c.events = events;
		names_.clear();
		try {
			while (c.count < event_stream::chunk_events && reader_.next(ev)) {
				sim_event &s = events[c.count++];
				to_sim_event(ev, s);
				if (names_function(ev.kind, ev.hrtimer))	// not read back from the chunk
					names_.add(c, s, ev.function);
			}
			c.last = c.count < event_stream::chunk_events;
			c.stats = reader_.stats();
		} catch (...) {
			c.error = std::current_exception();
			c.last = true;
		}
		bool last = c.last, wake;
		{
			std::lock_guard<std::mutex> lock(mutex_);
			ready_.push_back(std::move(c));
			// A waiting stream is woken for a few chunks at once: a
			// wake-up is a system call, a chunk only 512 events.
			wake = waiting_ && (last || ready_.size() >= event_stream::background_chunks / 2);
		}
		if (wake)
			cv_.notify_all();
		if (last)
			return;
	}
}

event_chunk event_prefetch::next(std::vector<sim_event *> &used)
{
	std::unique_lock<std::mutex> lock(mutex_);
	chunks_.free.insert(chunks_.free.end(), used.begin(), used.end());
	used.clear();
	if (ready_.empty()) {
		waiting_ = true;
		cv_.wait(lock, [this] {
			return ready_.size() >= event_stream::background_chunks / 2 || (!ready_.empty() && ready_.back().last);
		});
		waiting_ = false;
	}
	event_chunk c = std::move(ready_.front());
	ready_.pop_front();
	lock.unlock();
	cv_.notify_all();
	return c;
}

}  // namespace timersim
