// The background reader of an event_stream for a text trace, in blocks:
// worker threads cut the input into blocks of whole lines and parse them
// concurrently (sim/trace/text_blocks.h); the stream's own thread parses
// one too while it would wait. One worker by default: on two cores, a
// second only adds switches. Whatever depends on the lines before a
// block is applied when the block is committed, strictly in file order:
// its line numbers, the payload keys each event is checked against (the
// first event of each kind), the counts, and which bad line ends a strict
// read - the earliest, whichever block was parsed first. Committed events
// are the stream's chunks, one or a few per block (parsed into them,
// never copied): what the stream hands out is the same.
//
// Memory is flat: a few blocks in flight, and no block is cut while the
// stream has enough chunks ready.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "sim/stream/event_prefetch.h"
#include "sim/trace/irq_events.h"
#include "sim/trace/text_blocks.h"

namespace timersim {

class block_prefetch final : public chunk_source {
public:
	// Reads IN (READER's input) in blocks of about BLOCK bytes.
	block_prefetch(trace_reader &reader, text_block_input &in, std::size_t block,
		       unsigned workers = 1);
	// Stops the workers: each finishes the block it parses, then quits.
	~block_prefetch() override;

	event_chunk next(std::vector<sim_event *> &used) override;

private:
	struct job;
	using lock_t = std::unique_lock<std::mutex>;

	void work();
	bool can_cut() const;
	bool process_one(lock_t &lock);
	void parse(job &j);
	void commit_ready(lock_t &lock);
	std::exception_ptr commit(job &j);
	void finish(std::exception_ptr error);

	trace_reader &reader_;
	text_block_input &in_;
	text_block_cutter cutter_;
	std::size_t max_jobs_;

	std::mutex mutex_;	// guards everything below
	std::condition_variable work_cv_;	// workers: a block may be cut
	std::condition_variable ready_cv_;	// the stream: a chunk is ready
	unsigned waiting_workers_ = 0;
	bool stream_waiting_ = false;
	bool stop_ = false;
	bool cutting_ = false;		// a thread cuts a block
	bool committing_ = false;	// a thread commits blocks
	bool cut_all_ = false;		// the cutter reached the end, or failed
	bool done_ = false;		// the last chunk is ready
	std::vector<std::unique_ptr<job>> jobs_;
	std::vector<job *> idle_;
	std::deque<job *> in_flight_;	// cut, not committed; in file order

	// The state of the commits, in file order: the committing thread's
	// while it commits.
	generation_check generation_;
	lost_event_notes lost_;		// the tracer's notes, across blocks
	timer_irq_memory timer_irqs_;	// irq_handler_* named timers, across blocks
	std::string reason_;
	reader_stats totals_;
	bool named_first_ = false;
	std::string first_name_;
	bool timer_seen_ = false;
	std::vector<event_chunk> full_;		// committed by the commit
	std::deque<event_chunk> ready_;
	std::size_t ready_events_ = 0;		// in ready_
	chunk_pool chunks_;

	std::vector<std::thread> threads_;
};

}  // namespace timersim
