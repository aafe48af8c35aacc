// Events already read, handed on again as a trace: `timersim top` replays
// each interval's events as a trace of their own, and feeds the whole run's
// replay from another thread (event_queue).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

#include "sim/trace/reader.h"

namespace timersim {

// What both readers below share: a trace of FORMAT with CPUS CPUs whose
// every unit is an event, counted as handed out.
class stored_events_base : public trace_reader {
public:
	const reader_stats &stats() const override { return stats_; }
	trace_format format() const override { return format_; }
	unsigned declared_cpus() const override { return cpus_; }
	const char *unit() const override { return "events"; }

protected:
	stored_events_base(unsigned cpus, trace_format format) : cpus_(cpus), format_(format) {}
	// One event handed out.
	void count_event()
	{
		stats_.lines++;
		stats_.events++;
	}
	reader_stats stats_;

private:
	unsigned cpus_;
	trace_format format_;
};

// A list of events (their names and callbacks pointing to storage that
// outlives the reader) as a trace.
class stored_reader : public stored_events_base {
public:
	stored_reader(const std::vector<trace_event> &events, unsigned cpus, trace_format format)
		: stored_events_base(cpus, format), events_(events)
	{
	}
	bool next(trace_event &ev) override
	{
		if (i_ == events_.size())
			return false;
		ev = events_[i_++];
		count_event();
		return true;
	}

private:
	const std::vector<trace_event> &events_;
	std::size_t i_ = 0;
};

// Events handed from one thread to a reader on another: push() batches,
// close() ends the trace; next() waits for the next event.
class event_queue : public stored_events_base {
public:
	event_queue(unsigned cpus, trace_format format) : stored_events_base(cpus, format) {}
	void push(const std::vector<trace_event> &batch)
	{
		std::lock_guard<std::mutex> l(m_);
		queue_.insert(queue_.end(), batch.begin(), batch.end());
		cv_.notify_one();
	}
	// STATS: the source's counts, reported once the trace ends.
	void close(const reader_stats &stats)
	{
		std::lock_guard<std::mutex> l(m_);
		closed_ = true;
		final_ = stats;
		cv_.notify_one();
	}
	bool next(trace_event &ev) override
	{
		std::unique_lock<std::mutex> l(m_);
		cv_.wait(l, [this] { return !queue_.empty() || closed_; });
		if (queue_.empty()) {
			stats_ = final_;
			return false;
		}
		ev = queue_.front();
		queue_.pop_front();
		count_event();
		return true;
	}

private:
	std::mutex m_;
	std::condition_variable cv_;
	std::deque<trace_event> queue_;
	bool closed_ = false;
	reader_stats final_;
};

}  // namespace timersim
