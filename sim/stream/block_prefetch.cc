#include "sim/stream/block_prefetch.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace timersim {

namespace {

// Events ready ahead of the stream before no more blocks are cut: as
// many as event_prefetch's chunks hold.
constexpr std::size_t ready_limit = event_stream::background_chunks * event_stream::chunk_events;
// The events of a part of a block (a chunk of the stream): a block of
// default_text_block bytes has some 2,000 (lines of ~120 bytes), five
// parts, the last one part full. Parts of 4,096 (one a block) left more
// of each chunk unused, and the events' memory (written to as it comes
// back from the stream, out of the caches) a quarter larger: a fifth more
// of the simulated last-level cache's misses (cachegrind).
constexpr std::size_t part_events = event_stream::chunk_events;
static_assert(part_events <= event_stream::chunk_events, "chunk_name_places holds a chunk's names");

// Events ahead of the one parsed whose line is fetched for writing: a
// chunk comes back from the replay thread, on the other core, and its
// lines are in the shared cache at best, and each event's first store
// into it would wait for its line. 16 events (1 KiB) ahead is far enough
// for the fetch to land before the store and near enough that the line
// is still cached; 4 to 32 do about as well (make bench-replay).
constexpr std::size_t write_ahead = 16;

#if defined(__x86_64__)
// PREFETCHW: AMD's since the K8, Intel's since Broadwell. GCC's
// __builtin_prefetch(p, 1) emits it only when built for such a CPU, and a
// prefetch for reading otherwise: that fetched the line shared, and the
// store waited for it again.
const bool cpu_has_prefetchw = [] {
	unsigned a, b, c, d;
	return __get_cpuid(0x80000001, &a, &b, &c, &d) && (c & bit_PRFCHW);
}();
#endif

[[gnu::always_inline]] inline void prefetch_for_write(const void *p)
{
#if defined(__x86_64__)
	if (cpu_has_prefetchw)
		asm volatile("prefetchw %0" : : "m"(*static_cast<const char *>(p)));
#else
	__builtin_prefetch(p, 1);
#endif
}

}  // namespace

// A block and what its parse made of it: events with the block's own line
// numbers, each with its payload keys, and the callbacks they name.
//
// The events are parsed straight into the chunks the stream will hold,
// the block's parts: each full but the last, each with the callbacks of
// its events. The commit settles them where they are (line numbers,
// marks, the events a lenient read drops), and hands the parts on as they
// are: no event is copied after its parse.
struct block_prefetch::job {
	explicit job(const text_block_input &in) : parser(in) {}
	text_block block;
	text_block_parser parser;
	std::exception_ptr error;	// the cutter's: the input could not be read
	bool parsed = false;
	text_block_counts counts;
	// The block's events, in order (every field of an event is written
	// by to_sim_event: a chunk is filled without being cleared first),
	// and the payload keys of each, the first COUNT of `keys` (it only
	// grows).
	std::vector<event_chunk> parts;
	std::vector<std::uint32_t> keys;
	std::size_t count = 0;
};

block_prefetch::block_prefetch(trace_reader &reader, text_block_input &in, std::size_t block,
			       unsigned workers)
	: reader_(reader), in_(in), cutter_(*in.src, block, line_source::default_buffer),
	  max_jobs_(workers + 1)
{
	for (unsigned i = 0; i < workers; i++)
		threads_.emplace_back([this] { work(); });
}

block_prefetch::~block_prefetch()
{
	{
		std::lock_guard<std::mutex> lock(mutex_);
		stop_ = true;
	}
	work_cv_.notify_all();
	for (auto &t : threads_)
		t.join();
}

void block_prefetch::work()
{
	lock_t lock(mutex_);
	while (!stop_ && !done_) {
		if (process_one(lock))
			continue;
		waiting_workers_++;
		work_cv_.wait(lock);
		waiting_workers_--;
	}
}

bool block_prefetch::can_cut() const
{
	return !stop_ && !done_ && !cut_all_ && !cutting_ && ready_events_ < ready_limit &&
	       (!idle_.empty() || jobs_.size() < max_jobs_);
}

// One block: cut (one thread at a time: blocks are cut in file order),
// parsed, committed with any parsed after it; the lock is let go for the
// reading and the parsing. False when no block may be cut now.
bool block_prefetch::process_one(lock_t &lock)
{
	if (!can_cut())
		return false;
	if (idle_.empty())
		idle_.push_back(jobs_.emplace_back(std::make_unique<job>(in_)).get());
	job *j = idle_.back();
	idle_.pop_back();
	j->parsed = false;
	j->error = nullptr;
	in_flight_.push_back(j);	// its place in the file order
	cutting_ = true;
	lock.unlock();
	bool cut = true;
	try {
		cut = cutter_.next(j->block);
	} catch (...) {
		j->error = std::current_exception();
	}
	lock.lock();
	cutting_ = false;
	if (!cut || j->error)
		cut_all_ = true;
	else if (waiting_workers_ && can_cut())
		work_cv_.notify_one();	// the next block may be cut meanwhile
	if (!cut) {
		j->block.bytes = 0;
		j->count = 0;
		j->counts = text_block_counts();
	} else if (!j->error) {
		lock.unlock();
		try {
			parse(*j);
		} catch (...) {	// out of memory: the trace ends there, in order
			j->error = std::current_exception();
		}
		lock.lock();
	}
	j->parsed = true;
	commit_ready(lock);
	return true;
}

void block_prefetch::parse(job &j)
{
	j.count = 0;
	// A part when the first event comes (a block of none takes none), and
	// the next when it is full; taken from the pool under the lock (inside
	// process_one's try: running out of memory ends the trace there).
	event_chunk *part = nullptr;
	// The callbacks of a part's events, each name once in its text (a
	// part has a few dozen callbacks).
	chunk_name_places names;
	j.parser.parse(j.block, j.counts, [&](const trace_event &ev, std::uint32_t keys) __attribute__((always_inline)) {
		if (!part || part->count == part_events) [[unlikely]] {
			part = &j.parts.emplace_back();
			names.clear();
			std::lock_guard<std::mutex> lock(mutex_);
			part->events = chunks_.take();
		}
		if (j.count == j.keys.size())
			j.keys.resize(j.count ? 2 * j.count : part_events);
		j.keys[j.count++] = keys;
		if (part->count + write_ahead < part_events)
			prefetch_for_write(&part->events[part->count + write_ahead]);
		sim_event &s = part->events[part->count++];
		to_sim_event(ev, s);
		// Asked of EV: the chunk's copy is not read back.
		if (names_function(ev.kind, ev.hrtimer))
			names.add(*part, s, ev.function);
	});
}

// Commits the parsed blocks at the front of the file order, one thread at
// a time, the lock let go for the settling.
void block_prefetch::commit_ready(lock_t &lock)
{
	if (committing_)
		return;		// the committing thread will see this block too
	committing_ = true;
	while (!done_ && !in_flight_.empty() && in_flight_.front()->parsed) {
		job *j = in_flight_.front();
		in_flight_.pop_front();
		lock.unlock();
		std::exception_ptr error = commit(*j);
		lock.lock();
		// The parts not handed on (emptied, or after an error) go back.
		for (const event_chunk &p : j->parts)
			if (p.events)
				chunks_.free.push_back(p.events);
		j->parts.clear();
		idle_.push_back(j);
		bool more = !full_.empty();
		for (event_chunk &c : full_) {
			ready_events_ += c.count;
			ready_.push_back(std::move(c));
		}
		full_.clear();
		if (error)
			finish(error);
		if (more && stream_waiting_)
			ready_cv_.notify_one();
		if (waiting_workers_ && can_cut())
			work_cv_.notify_one();
	}
	if (!done_ && cut_all_ && !cutting_ && in_flight_.empty())
		finish(nullptr);
	committing_ = false;
	if (done_) {
		work_cv_.notify_all();
		ready_cv_.notify_all();
	}
}

// J's events settled where they are and its parts into full_, its counts
// into the totals: the block's lines after those before it. Returns the
// error that ends the trace there.
std::exception_ptr block_prefetch::commit(job &j)
{
	if (j.error)
		return j.error;
	const text_block_counts &c = j.counts;
	std::uint64_t before = totals_.lines, dropped = 0;
	std::exception_ptr error;
	// The tracer's lost-event notes, taken in file order between the
	// events: each marks the next event of its CPU, in this block or a
	// later one.
	std::size_t next_lost = 0;
	// False when a strict read ends at a note (its counts overflow).
	auto take_lost_before = [&](std::uint64_t block_line) {
		for (; next_lost < c.lost.size() && c.lost[next_lost].line < block_line; next_lost++) {
			const text_block_counts::lost_note &n = c.lost[next_lost];
			if (lost_.note(n.cpu, n.events, totals_.lost_events, totals_.lost_cpus)) [[likely]]
				continue;
			if (!in_.lenient) {
				error = std::make_exception_ptr(
					input_error(in_.src->name(), before + n.line, lost_events_overflow));
				return false;
			}
			totals_.malformed++;	// skipped already, as a note
		}
		return true;
	};
	const std::uint32_t *keys = j.keys.data();
	bool timer_seen = timer_seen_;
	for (event_chunk &part : j.parts) {
		// The events kept move down over those dropped (a lenient
		// read's); a callback's name stays in the part's text, unused.
		sim_event *events = part.events;
		std::size_t i = 0;
		// The common part: no lost-event note ahead in the block or
		// waiting for its CPU's next event, none dropped: an event's
		// line and its kind's keys, no more. The first event whose keys
		// fall short goes to the loop below, which words why.
		if (next_lost == c.lost.size() && !lost_.waiting()) {
			for (; i < part.count; i++) {
				sim_event &e = events[i];
				if (generation_check::judges(e.kind)) {
					if (!generation_.pass(e.kind, e.hrtimer, keys[i], before + e.line, reason_)) [[unlikely]]
						break;
					timer_seen |= e.is_timer_event();
				}
				e.line += before;
				timer_irqs_.settle(e);
			}
		}
		std::size_t kept = i;
		for (; i < part.count; i++) {
			sim_event &e = events[i];
			const std::uint32_t key = keys[i];
			const std::uint64_t block_line = e.line, line = before + block_line;
			if (next_lost < c.lost.size() && !take_lost_before(block_line)) [[unlikely]]
				break;
			if (generation_check::judges(e.kind)) {
				if (!generation_.pass(e.kind, e.hrtimer, key, line, reason_)) [[unlikely]] {
					if (c.cut_short && block_line == c.lines)
						note_cut_short(reason_);
					if (!in_.lenient) {
						error = std::make_exception_ptr(
							input_error(in_.src->name(), line, reason_));
						break;
					}
					dropped++;
					continue;
				}
				timer_seen |= e.is_timer_event();
			}
			sim_event &s = events[kept++];
			if (&s != &e) [[unlikely]]
				s = e;
			s.line = line;
			timer_irqs_.settle(s);
			if (lost_.follows_note(s.cpu)) [[unlikely]]
				s.has |= EF_AFTER_LOSS;
		}
		keys += part.count;
		part.count = kept;
		if (kept) {
			part.stats = totals_;
			full_.push_back(std::move(part));
			part.events = nullptr;
		}
		if (error)
			break;
	}
	timer_seen_ = timer_seen;
	if (!error)
		take_lost_before(~std::uint64_t{0});
	if (!named_first_ && c.events) {
		named_first_ = true;
		first_name_ = c.first_name;
	}
	totals_.lines += c.lines;
	totals_.events += c.events - dropped;
	totals_.skipped += c.skipped + dropped;
	totals_.malformed += c.malformed + dropped;
	totals_.bytes += j.block.bytes;
	if (!error && c.bad_line)
		error = std::make_exception_ptr(input_error(in_.src->name(), before + c.bad_line, c.reason));
	return error;
}

// The last chunk: the reader's end of input (which may throw), or ERROR.
void block_prefetch::finish(std::exception_ptr error)
{
	if (!error) {
		try {
			reader_.blocks_done(totals_, first_name_, timer_seen_);
		} catch (...) {
			error = std::current_exception();
		}
	}
	event_chunk last;
	last.events = chunks_.take();
	last.last = true;
	last.error = error;
	last.stats = totals_;
	ready_.push_back(std::move(last));
	done_ = true;
}

event_chunk block_prefetch::next(std::vector<sim_event *> &used)
{
	lock_t lock(mutex_);
	chunks_.free.insert(chunks_.free.end(), used.begin(), used.end());
	used.clear();
	while (ready_.empty()) {
		if (process_one(lock))
			continue;
		stream_waiting_ = true;
		ready_cv_.wait(lock);
		stream_waiting_ = false;
	}
	event_chunk c = std::move(ready_.front());
	ready_.pop_front();
	ready_events_ -= c.count;
	if (waiting_workers_ && can_cut())
		work_cv_.notify_one();
	return c;
}

}  // namespace timersim
