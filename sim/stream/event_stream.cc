#include "sim/stream/event_stream.h"

#include "sim/stream/block_prefetch.h"
#include "sim/stream/event_prefetch.h"

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
	// The last chunk, while it has room; a new one when it is full.
	held_chunk *back = held_count_ ? &held(first_held_ + held_count_ - 1) : nullptr;
	if (!back || back->end - back->first == chunk_events) {
		sim_event *chunk;
		if (spare_.empty()) {
			chunk = chunks_->take();
		} else {
			chunk = spare_.back();
			spare_.pop_back();
		}
		push_chunk(chunk, 0);
		back = &held(first_held_ + held_count_ - 1);
	}
	sim_event &s = back->events[back->end - back->first];
	to_sim_event(ev, s);
	if (names_function(s))
		s.function = functions_.intern(ev.function);
	back->end = ++tail_;
	if (held_count_ == 1)
		cur_end_ = tail_;
	return true;
}

// COUNT events at tail_ (0: a chunk to fill on demand), the last chunk of
// the window. The ring doubles when full: each held chunk moves to its
// place under the new mask (the events stay put).
void event_stream::push_chunk(sim_event *events, std::uint64_t count)
{
	if (held_count_ == ring_.size()) {
		std::vector<held_chunk> wider(ring_.empty() ? 4 : ring_.size() * 2);
		std::uint64_t mask = wider.size() - 1;
		for (std::uint64_t i = first_held_; i < first_held_ + held_count_; i++)
			wider[i & mask] = held(i);
		ring_.swap(wider);
		ring_mask_ = mask;
	}
	held_chunk &c = held(first_held_ + held_count_++);
	c.events = events;
	c.first = tail_;
	c.end = tail_ += count;
	if (held_count_ == 1) {
		cur_ = events;
		cur_end_ = tail_;
	}
}

// The current chunk is used up (head_ is its end): back for reuse, and the
// next one, if buffered, is current.
void event_stream::next_chunk()
{
	spare_.push_back(held(first_held_).events);
	first_held_++;
	if (--held_count_) {
		const held_chunk &c = held(first_held_);
		cur_ = c.events;
		cur_end_ = c.end;
	}
}

// Background: the reader thread's next chunk, at tail_. False at the end.
bool event_stream::take_chunk()
{
	if (at_end_)
		return false;
	event_chunk c = prefetch_->next(spare_);
	// The callbacks, interned here in event order: the ids reading on
	// demand gives, and the reading thread's work is the parsing alone.
	// Events of one name share its place in the text (block_prefetch.cc):
	// a place interned before in this chunk is answered by a small cache
	// of places, without reading or hashing the name again.
	constexpr std::size_t cached = 16;
	struct known {
		std::uint32_t place = ~std::uint32_t{0}, id = 0;
	} known[cached];
	// The chunk's bounds in locals: the intern call below takes `c`,
	// which made them loads again at every event.
	for (sim_event *at = c.events, *end = c.events + c.count; at != end; ++at) {
		sim_event &e = *at;
		if (!names_function(e))
			continue;
		struct known &k = known[(e.function ^ (e.function >> 4)) % cached];
		if (k.place != e.function) {
			k.place = e.function;
			k.id = functions_.intern(c.function(e));
		}
		e.function = k.id;
	}
	if (c.count)
		push_chunk(c.events, c.count);
	else
		spare_.push_back(c.events);
	stats_ = c.stats;
	at_end_ = c.last;
	failed_ = c.error;
	return c.count != 0;
}

// The chunk found last, first: the prologue's look-aheads (tens of
// thousands of events, in order) mostly fall into it again. A leaf: the
// search and the reading are find_or_read()'s, which saves registers.
const sim_event *event_stream::locate_slow(std::uint64_t seq, std::uint64_t &end)
{
	if (found_ >= first_held_ && seq < tail_) {
		const held_chunk &c = held(found_);
		if (c.first <= seq && seq < c.end) {
			end = c.end;
			return c.events + (seq - c.first);
		}
	}
	return find_or_read(seq, end);
}

const sim_event *event_stream::find_or_read(std::uint64_t seq, std::uint64_t &end)
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
	// The chunk holding SEQ, searched from the last one found when SEQ
	// is not before it (the prologue looks ahead ever further, tens of
	// thousands of events: walking from the first chunk each time made
	// that quadratic).
	std::uint64_t i = found_ >= first_held_ && held(found_).first <= seq ? found_ : first_held_;
	while (held(i).end <= seq)
		i++;
	found_ = i;
	const held_chunk &c = held(i);
	end = c.end;
	return c.events + (seq - c.first);
}

const sim_event *event_stream::peek_slow(std::uint64_t seq)
{
	std::uint64_t end;
	return locate_slow(seq, end);
}

}  // namespace timersim
