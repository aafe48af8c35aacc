#include "sim/core/event_prefetch.h"

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
	return stop_ ? nullptr : chunks_.take();
}

void event_prefetch::chunk_names::add(event_chunk &c, sim_event &e, std::string_view name)
{
	// At most chunk_events names in twice as many places: a free one is
	// always found.
	constexpr std::size_t mask = std::tuple_size_v<decltype(at_)> - 1;
	for (std::size_t h = std::hash<std::string_view>{}(name) & mask;; h = (h + 1) & mask) {
		if (!at_[h]) {
			c.add_function(e, name);
			at_[h] = e.function + 1;
			return;
		}
		e.function = at_[h] - 1;
		if (c.function(e) == name)
			return;
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
				if (names_function(s))
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
