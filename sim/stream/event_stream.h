// The replay core's view of a trace: owned, compact events with interned
// callback names, and a bounded look-ahead window.
//
// The look-ahead serves two needs: deciding what a timer_cancel is (part of
// an expiry, half of a re-arm, or a real cancel) by the next event on its
// CPU, and the prologue, where the core infers HZ and the width of jiffies
// before the first event is applied.
//
// In the background mode (the replay's), a thread of its own reads and
// parses the trace ahead of the replay (sim/stream/event_prefetch.h): the
// replay applies one chunk while the next is parsed. What the stream hands
// out is the same in both modes, in the same order, with the same ids, and
// a reader's error surfaces at the same event.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <exception>
#include <memory>
#include <vector>

#include "sim/base/interner.h"
#include "sim/trace/event.h"
#include "sim/trace/reader.h"

namespace timersim {

// Which hrtimer_* event an event_kind::hrtimer record is, as the reader
// said (sim/trace/event.h). The tick model (sim/ticks/) reads the tick's
// expiries and the starts that give its grid.
using hrtimer_op = hrtimer_event;

// 64 bytes, one cache line: the reading thread writes every event and the
// replay thread reads it, so its size is the traffic between the two
// cores. A field only some kinds of event carry shares its place with
// fields of other kinds (sim/trace/event.h says which).
struct sim_event {
	event_kind kind = event_kind::other;
	hrtimer_op hrtimer = hrtimer_op::none;
	bool is_idle = false;
	std::uint8_t timer_digits = 0;
	std::uint32_t cpu = 0;
	union {
		std::uint32_t target_cpu = 0;
		std::uint32_t vec;	// softirq_*/irq_*: the vector or irq (EF_IRQ)
		std::uint32_t cpu_id;	// cpu_idle cpu_id=, tmigr_* cpu=
		std::uint32_t dependency;	// tick_stop
	};
	std::uint32_t function = 0;	// interned (also for hrtimer start/expiry); 0 is "" (none)
	std::uint16_t has = 0;		// event_field bits
	std::uint8_t flags = 0;		// timer_flag bits
	bool timer_interrupt = false;	// irq_*: the hardware timer's interrupt
	// hrtimer_init/setup/start (EF_CLOCKID, EF_HRTIMER_MODE, EF_WAS_ARMED,
	// EF_SOFTEXPIRES); expires and now below are the hrtimer's ns.
	std::uint8_t clockid = 0;
	std::uint8_t hrtimer_mode = 0;	// hrtimer_mode_bit bits
	union {
		bool was_armed = false;	// hrtimer_start
		bool deferred;		// hrtimer_rearm (EF_WAS_ARMED: printed)
		tmigr_event tmigr;	// kind tmigr: which
	};
	bool idle_task = false;		// recorded in the idle task (pid 0)
	std::uint64_t line = 0;
	std::uint64_t ts_ns = 0;
	std::uint64_t timer = 0;
	union {
		std::uint64_t expires = 0;	// timer_start, hrtimer_start
		std::uint64_t now;		// timer_expire_entry, hrtimer_expire_entry
		std::uint64_t idle_state;	// cpu_idle
		std::uint64_t nextevt;		// tmigr_*
		std::uint64_t stop_success;	// tick_stop
	};
	union {
		std::int64_t timeout = 0;	// timer_start
		std::uint64_t softexpires;	// hrtimer_start
		std::uint64_t baseclk;		// timer_expire_entry 5.2+: the bucket being run
		std::uint64_t wakeup;		// tmigr_* cpu events
	};

	bool carries(event_field f) const { return (has & f) != 0; }
	bool is_timer_event() const
	{
		return timersim::is_timer_event(kind);
	}
};

static_assert(sizeof(sim_event) == 64, "sim_event has grown (or gained padding, which "
					"tests/support/stream_outcome.h would compare)");

// trace_event begins with sim_event's fields, in their places and types
// (sim/trace/event.h): to_sim_event copies them as one block.
#define TIMERSIM_SAME_FIELD(f)                                                                     \
	static_assert(offsetof(trace_event, f) == offsetof(sim_event, f) &&                         \
			      std::is_same_v<decltype(trace_event::f), decltype(sim_event::f)>,            \
		      "trace_event." #f " is not where sim_event has it")
TIMERSIM_SAME_FIELD(kind);
TIMERSIM_SAME_FIELD(hrtimer);
TIMERSIM_SAME_FIELD(is_idle);
TIMERSIM_SAME_FIELD(timer_digits);
TIMERSIM_SAME_FIELD(cpu);
TIMERSIM_SAME_FIELD(target_cpu);
TIMERSIM_SAME_FIELD(vec);
static_assert(offsetof(trace_event, function_id) == offsetof(sim_event, function) &&
	      sizeof(trace_event::function_id) == sizeof(sim_event::function));
TIMERSIM_SAME_FIELD(has);
TIMERSIM_SAME_FIELD(flags);
TIMERSIM_SAME_FIELD(timer_interrupt);
TIMERSIM_SAME_FIELD(clockid);
TIMERSIM_SAME_FIELD(hrtimer_mode);
TIMERSIM_SAME_FIELD(was_armed);
TIMERSIM_SAME_FIELD(deferred);
TIMERSIM_SAME_FIELD(idle_task);
TIMERSIM_SAME_FIELD(tmigr);
TIMERSIM_SAME_FIELD(cpu_id);
TIMERSIM_SAME_FIELD(dependency);
TIMERSIM_SAME_FIELD(idle_state);
TIMERSIM_SAME_FIELD(nextevt);
TIMERSIM_SAME_FIELD(stop_success);
TIMERSIM_SAME_FIELD(wakeup);
TIMERSIM_SAME_FIELD(line);
TIMERSIM_SAME_FIELD(ts_ns);
TIMERSIM_SAME_FIELD(timer);
TIMERSIM_SAME_FIELD(expires);
TIMERSIM_SAME_FIELD(timeout);
TIMERSIM_SAME_FIELD(now);
TIMERSIM_SAME_FIELD(baseclk);
TIMERSIM_SAME_FIELD(softexpires);
#undef TIMERSIM_SAME_FIELD
static_assert(offsetof(sim_event, timeout) + sizeof(sim_event::timeout) == sizeof(sim_event),
	      "a field of sim_event is not in the list above");
static_assert(std::is_trivially_copyable_v<trace_event> && std::is_standard_layout_v<trace_event>);

// A reader's event as the core keeps it, but for its callback: whether it
// names one the core uses (the wheel's own events name the callbacks it
// accounts for; hrtimer starts and expiries name the tick,
// sim/ticks/tick_identity.h), then its interned id goes in `function`.
// Inline: the block parsers call it for every event.
inline void to_sim_event(const trace_event &ev, sim_event &s)
{
	std::memcpy(static_cast<void *>(&s), &ev, sizeof s);
	s.function = 0;
}
inline bool names_function(event_kind kind, hrtimer_op hrtimer)
{
	return kind == event_kind::timer_start || kind == event_kind::timer_expire_entry ||
	       hrtimer == hrtimer_op::start || hrtimer == hrtimer_op::expire_entry;
}
inline bool names_function(const sim_event &s)
{
	return names_function(s.kind, s.hrtimer);
}

class chunk_source;
class chunk_arena;

class event_stream {
public:
	// How events are read: on demand, by a thread of their own, or (a
	// text trace that offers it, else as background) in blocks parsed
	// on several threads (sim/stream/block_prefetch.h).
	enum class reading { on_demand, background, blocks };
	// The constants of the window: events per chunk, and how many
	// chunks a background reader may fill ahead of the replay (the block
	// reader: as many events, in its chunks of a block's events). 64 (2 MB
	// of events, 16 text blocks): the block worker must not stop while the
	// replay thread has its work, or the replay thread, the bottleneck,
	// parses the blocks itself; a few blocks of slack are too few.
	static constexpr unsigned chunk_bits = 9;
	static constexpr std::size_t chunk_events = std::size_t{1} << chunk_bits;
	static constexpr std::size_t background_chunks = 64;

	// BLOCK: the size of the blocks when reading in blocks.
	event_stream(trace_reader &reader, interner &functions, reading mode = reading::on_demand,
		     std::size_t block = default_text_block);
	~event_stream();
	event_stream(const event_stream &) = delete;
	event_stream &operator=(const event_stream &) = delete;

	// The event `ahead` positions after the current one (0: the current
	// one), reading as needed; nullptr past the end of the trace. The
	// pointer stays valid until that event is popped: reading further
	// ahead never moves a buffered event.
	const sim_event *peek(std::size_t ahead = 0)
	{
		std::uint64_t seq = head_ + ahead;
		return seq < cur_end_ ? cur_ + ahead : peek_slow(seq);
	}
	// Calls visit(event, i) for the events i = first .. last positions
	// ahead, in order, until it returns false or the trace ends: what a
	// loop of peek(i) does, reading at the same points, but walking each
	// chunk's events as an array (the look-aheads after a cancel or a tick
	// take tens of events each).
	template <typename Visit>
	void scan_ahead(std::size_t first, std::size_t last, Visit &&visit)
	{
		for (std::size_t i = first; i <= last;) {
			const std::uint64_t seq = head_ + i;
			std::uint64_t end;
			const sim_event *e = locate(seq, end);
			if (!e)
				return;
			const std::uint64_t n = std::min<std::uint64_t>(end - seq, std::uint64_t(last - i) + 1);
			// The position from the pointer: a visit that ignores it
			// costs no count an event.
			for (const sim_event *at = e, *stop = e + n; at != stop; ++at)
				if (!visit(*at, i + std::size_t(at - e)))
					return;
			i += n;
		}
	}
	void pop()
	{
		// Nothing buffered: head_ is cur_end_ (the current chunk is
		// left as soon as it is used up).
		if (head_ == cur_end_)
			return;
		++cur_;
		if (++head_ == cur_end_)
			next_chunk();
	}
	// pop(), then peek(0): the replay's step to its next event, in one
	// test while the current chunk lasts.
	const sim_event *next()
	{
		if (head_ + 1 < cur_end_) [[likely]] {
			++head_;
			return ++cur_;
		}
		pop();
		return peek(0);
	}
	std::size_t buffered() const { return std::size_t(tail_ - head_); }
	// The reader's counts as of the events read so far (the background
	// reader's may be ahead of what peek() has handed out). Once peek()
	// has said the trace ended, the reader's final counts.
	const reader_stats &stats() const;
	// The CPUs the trace declares, as the reader said before the first event.
	unsigned declared_cpus() const { return declared_cpus_; }

private:
	// The window is a queue of chunks of events, numbered by their
	// position in the trace: each chunk holds the positions [first, end),
	// its events an array (a background reader's chunks vary in size; on
	// demand they hold chunk_events). Chunks are never allocated again
	// once the window has reached its depth (popped chunks are reused),
	// and an event never moves while it is buffered. The current chunk's
	// events are at hand in cur_ and cur_end_: peek() and pop() look no
	// further while they stay in it.
	struct held_chunk {
		sim_event *events = nullptr;
		std::uint64_t first = 0, end = 0;
	};

	held_chunk &held(std::uint64_t i) { return ring_[i & ring_mask_]; }
	// The event at position SEQ (buffered or read now) and the end of its
	// chunk in END; nullptr past the end of the trace.
	const sim_event *locate(std::uint64_t seq, std::uint64_t &end)
	{
		if (seq < cur_end_) {
			end = cur_end_;
			return cur_ + (seq - head_);
		}
		return locate_slow(seq, end);
	}
	const sim_event *locate_slow(std::uint64_t seq, std::uint64_t &end);
	[[gnu::noinline]] const sim_event *find_or_read(std::uint64_t seq, std::uint64_t &end);
	const sim_event *peek_slow(std::uint64_t seq);
	void next_chunk();
	void push_chunk(sim_event *events, std::uint64_t count);
	bool fill_one();
	bool take_chunk();

	trace_reader &reader_;
	interner &functions_;
	unsigned declared_cpus_ = 0;
	std::unique_ptr<chunk_arena> chunks_;	// every chunk, owned (on demand)
	// Chunk i of the trace (counting from 0) is ring_[i & ring_mask_]
	// while buffered: those from first_held_ on, held_count_ of them.
	std::vector<held_chunk> ring_;
	std::uint64_t ring_mask_ = 0;
	std::uint64_t first_held_ = 0;
	std::uint64_t held_count_ = 0;
	std::uint64_t found_ = 0;	// the chunk locate_slow() found last
	std::vector<sim_event *> spare_;	// popped chunks, for reuse
	std::uint64_t head_ = 0;	// position of the current event
	std::uint64_t tail_ = 0;	// one past the last buffered event
	const sim_event *cur_ = nullptr;	// the event at head_, when buffered
	std::uint64_t cur_end_ = 0;	// the end of head_'s chunk; head_ when none is buffered
	bool at_end_ = false;
	std::exception_ptr failed_;	// background: what ended the reading early
	reader_stats stats_;		// background: the counts with the last chunk taken
	std::unique_ptr<chunk_source> prefetch_;
};

}  // namespace timersim
