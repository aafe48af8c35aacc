#include "sim/core/event_stream.h"

#include "sim/core/block_prefetch.h"
#include "sim/core/event_prefetch.h"

namespace timersim {

event_stream::event_stream(trace_reader &reader, interner &functions, reading mode,
			   std::size_t block)
	: reader_(reader), functions_(functions), declared_cpus_(reader.declared_cpus())
{
	functions_.intern("");
	text_block_input *in = mode == reading::blocks ? reader.block_input() : nullptr;
	if (in)
		prefetch_ = std::make_unique<block_prefetch>(reader_, *in, block);
	else if (mode != reading::on_demand)
		prefetch_ = std::make_unique<event_prefetch>(reader_);
	else
		chunks_ = std::make_unique<chunk_arena>(chunk_events);
}

event_stream::~event_stream() = default;

const reader_stats &event_stream::stats() const
{
	return prefetch_ ? stats_ : reader_.stats();
}

bool event_stream::fill_one()
{
	trace_event ev;
	if (at_end_ || !reader_.next(ev)) {
		at_end_ = true;
		return false;
	}
	sim_event &s = *slot_for_next();
	to_sim_event(ev, s);
	if (names_function(s))
		s.function = functions_.intern(ev.function);
	tail_++;
	return true;
}

// Before a chunk is put at tail_ (which starts one): room for it in the
// ring. Twice the chunks when full: each buffered one moves to its place
// under the new mask (the events stay put).
void event_stream::make_room_for_chunk()
{
	std::uint64_t in_use = (tail_ >> chunk_bits) - (head_ >> chunk_bits);
	if (in_use < ring_.size())
		return;
	std::vector<sim_event *> wider(ring_.empty() ? 4 : ring_.size() * 2);
	std::uint64_t mask = wider.size() - 1;
	for (std::uint64_t c = head_ >> chunk_bits; c < tail_ >> chunk_bits; c++)
		wider[c & mask] = ring_[c & ring_mask_];
	ring_.swap(wider);
	ring_mask_ = mask;
}

// The slot of the event at tail_, in a new chunk when tail_ starts one.
sim_event *event_stream::slot_for_next()
{
	if ((tail_ & chunk_mask) == 0) {
		make_room_for_chunk();
		sim_event *chunk;
		if (spare_.empty()) {
			chunk = chunks_->take();
		} else {
			chunk = spare_.back();
			spare_.pop_back();
		}
		chunk_of(tail_) = chunk;
	}
	return at(tail_);
}

// Background: the next chunk of the reader thread at tail_ (every chunk
// but the last is full, so tail_ starts one). False at the end.
bool event_stream::take_chunk()
{
	if (at_end_)
		return false;
	event_chunk c = prefetch_->next(spare_);
	// The callbacks, interned here in event order: the ids reading on
	// demand gives, and the reading thread's work is the parsing alone.
	// Where each name is in the chunk once, once a name: the id by its
	// offset after that (hashing and comparing a name an event was some
	// 3% of a CTF replay, on the thread that replays).
	if (c.names_once) {
		id_at_.assign(c.functions.size(), unknown_id);
		for (std::size_t i = 0; i < c.count; i++) {
			sim_event &e = c.events[i];
			if (!names_function(e))
				continue;
			std::uint32_t &id = id_at_[e.function];
			if (id == unknown_id)
				id = functions_.intern(c.function(e));
			e.function = id;
		}
	} else {
		for (std::size_t i = 0; i < c.count; i++)
			if (names_function(c.events[i]))
				c.events[i].function = functions_.intern(c.function(c.events[i]));
	}
	if (c.count) {
		make_room_for_chunk();
		chunk_of(tail_) = c.events;
		tail_ += c.count;
	} else {
		spare_.push_back(c.events);
	}
	stats_ = c.stats;
	at_end_ = c.last;
	failed_ = c.error;
	return c.count != 0;
}

const sim_event *event_stream::peek_slow(std::uint64_t seq)
{
	while (tail_ <= seq) {
		bool more = prefetch_ ? take_chunk() : fill_one();
		if (!more && at_end_) {
			// On demand, the reader's exception came out of
			// fill_one(); here, where it would have.
			if (failed_)
				std::rethrow_exception(failed_);
			return nullptr;
		}
	}
	return at(seq);
}

}  // namespace timersim
