#include "sim/core/replay.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <unordered_map>
#include <vector>

#include "sim/core/event_stream.h"
#include "sim/core/histogram.h"
#include "sim/core/interner.h"
#include "sim/core/trace_shape.h"

namespace timersim {

namespace {

// How far the core looks past a timer_cancel for the next timer event on
// the same CPU. Between a cancel and its expiry or re-start the kernel
// holds the base lock, so the partner comes right after on that CPU.
constexpr std::size_t cancel_lookahead = 4096;

// A trace whose jiffies leap further than this past everything seen before
// is corrupt (2^32 jiffies is 50 days at HZ 1000): replaying the leap jiffy
// by jiffy would not end.
constexpr jiffies_t max_jiffies_leap = jiffies_t{1} << 32;



// What a recorded timer_cancel turns out to be.
enum class cancel_role { plain, part_of_expiry, part_of_rearm };

// How an arming (a start) of a timer ended.
enum class arming_end { expired, canceled, rearmed };

struct timer_rec {
	std::uint64_t ptr = 0;
	std::uint32_t function = 0;
	unsigned base = 0;		// the base it was last started on
	jiffies_t expires = 0;		// requested expiry of the current arming
	jiffies_t fired_at = 0;		// last simulated expiry, while unmatched
	std::uint32_t arming_moves = 0;	// moves during the current arming
	bool fired_unmatched = false;
};

struct function_acc {
	std::uint64_t started = 0, canceled = 0, expired = 0, moved = 0;
};

class replay_engine final : public scheme_observer {
public:
	replay_engine(trace_reader &reader, const std::string &path, const replay_options &opt)
		: reader_(reader), stream_(reader, functions_), path_(path), opt_(opt)
	{
	}

	replay_report run();

private:
	// scheme_observer
	void enqueued(timer_id t, unsigned level) override;
	void moved(timer_id t, unsigned from_level) override;
	void cascaded(unsigned level, std::uint32_t count) override;
	void tick(unsigned cpu, jiffies_t jiffy) override;
	void expired(timer_id t, unsigned cpu, jiffies_t jiffy) override;

	void set_up();
	void apply(const sim_event &ev, cancel_role role);
	void on_start(const sim_event &ev);
	void on_cancel(const sim_event &ev, cancel_role role);
	void on_expire_entry(const sim_event &ev);
	void on_base_idle(const sim_event &ev);
	cancel_role classify_cancel(const sim_event &ev);
	void drain();
	void finish();

	bool check_cpu(const sim_event &ev, unsigned cpu);
	bool note_jiffies(const sim_event &ev, jiffies_t j);
	bool reject(const sim_event &ev, const std::string &reason);
	jiffies_t unwrap(std::uint64_t raw) const;
	std::uint64_t narrow(jiffies_t j) const { return j & word_mask_; }
	timer_id timer_of(std::uint64_t ptr);
	void advance(unsigned cpu, jiffies_t upto);
	void advance_before(unsigned cpu, jiffies_t j);
	void end_arming(timer_rec &rec, arming_end how);
	void close_fire(timer_rec &rec);
	function_acc &fn(std::uint32_t id);
	void progress(bool last);
	void close_tick(unsigned cpu);

	trace_reader &reader_;
	interner functions_;
	event_stream stream_;
	std::string path_;
	replay_options opt_;
	std::unique_ptr<scheme> scheme_;
	replay_report r_;

	unsigned word_bits_ = 64;
	std::uint64_t word_mask_ = ~std::uint64_t{0};
	jiffies_t cur_ = 0;		// latest jiffies seen on any CPU
	std::vector<jiffies_t> last_j_;	// per CPU, for the monotonic check
	std::vector<bool> seen_j_;
	std::uint64_t rejected_ = 0;	// events skipped by --lenient semantic checks

	std::unordered_map<std::uint64_t, timer_id> ids_;
	std::vector<timer_rec> timers_;
	std::vector<function_acc> fns_;

	unsigned advancing_ = 0;	// base being advanced (moves belong to its tick)
	std::vector<std::uint64_t> tick_moves_;
	std::vector<jiffies_t> tick_jiffy_;
	std::vector<bool> tick_open_;
	power2_histogram moves_hist_;
	power2_histogram late_hist_;
	std::vector<std::uint64_t> level_calls_, level_moved_, level_enqueued_;

	std::chrono::steady_clock::time_point last_progress_;
	std::uint64_t events_since_progress_ = 0;
};

jiffies_t replay_engine::unwrap(std::uint64_t raw) const
{
	if (word_bits_ == 64)
		return raw;
	// A 32-bit value is taken as the nearest to the latest jiffies.
	auto delta = static_cast<std::int32_t>(static_cast<std::uint32_t>(raw) -
					       static_cast<std::uint32_t>(cur_));
	return cur_ + static_cast<std::int64_t>(delta);
}

void replay_engine::set_up()
{
	trace_shape shape = infer_trace_shape(stream_, reader_.declared_cpus());
	input_summary &in = r_.input;

	in.path = path_;
	in.format = trace_format_name(reader_.format());
	in.hz = opt_.hz ? opt_.hz : shape.hz ? shape.hz : 250;
	in.hz_inferred = !opt_.hz && shape.hz;
	word_bits_ = opt_.word_bits ? opt_.word_bits : shape.word_bits ? shape.word_bits : 64;
	in.word_bits = word_bits_;
	in.word_bits_inferred = !opt_.word_bits && shape.word_bits;
	word_mask_ = word_bits_ == 32 ? 0xffffffffull : ~std::uint64_t{0};
	in.cpus = opt_.cpus ? opt_.cpus : std::max(shape.cpus, 1u);
	kernel_of(shape, in.kernel, in.kernel_scheme);

	// A 32-bit timeline starts one wrap up, so that unwrapping never goes
	// below zero; reports narrow values back to the word.
	cur_ = shape.first_jiffies & word_mask_;
	if (word_bits_ == 32)
		cur_ += jiffies_t{1} << 32;
	jiffies_t start = opt_.has_start ? unwrap(opt_.start) : cur_;
	cur_ = std::min(cur_, start);
	in.first_jiffies = narrow(start);

	scheme_options so;
	so.hz = in.hz;
	so.word_bits = word_bits_;
	so.base_small = opt_.base_small;
	so.params = opt_.params;
	scheme_ = make_scheme(opt_.scheme, so);
	scheme_->reset(in.cpus, start, this);
	r_.scheme = scheme_->name();
	r_.scheme_params = scheme_->params();

	last_j_.assign(in.cpus, 0);
	seen_j_.assign(in.cpus, false);
	tick_moves_.assign(in.cpus, 0);
	tick_jiffy_.assign(in.cpus, 0);
	tick_open_.assign(in.cpus, false);
	unsigned levels = std::max(scheme_->levels(), 1u);
	level_calls_.assign(levels + 1, 0);
	level_moved_.assign(levels + 1, 0);
	level_enqueued_.assign(levels + 1, 0);
}

replay_report replay_engine::run()
{
	auto t0 = std::chrono::steady_clock::now();
	last_progress_ = t0;
	set_up();

	while (const sim_event *ev = stream_.peek(0)) {
		cancel_role role = ev->kind == event_kind::timer_cancel ? classify_cancel(*ev)
									 : cancel_role::plain;
		apply(*ev, role);
		stream_.pop();
		if (opt_.progress && ++events_since_progress_ == 65536)
			progress(false);
	}
	if (opt_.progress)
		progress(true);
	if (opt_.drain)
		drain();
	finish();
	r_.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
	return r_;
}

cancel_role replay_engine::classify_cancel(const sim_event &ev)
{
	for (std::size_t i = 1; i <= cancel_lookahead; i++) {
		const sim_event *next = stream_.peek(i);
		if (!next)
			break;
		if (next->cpu != ev.cpu || !next->is_timer_event())
			continue;
		if (next->timer == ev.timer && next->kind == event_kind::timer_expire_entry)
			return cancel_role::part_of_expiry;
		if (next->timer == ev.timer && next->kind == event_kind::timer_start)
			return cancel_role::part_of_rearm;
		break;
	}
	return cancel_role::plain;
}

void replay_engine::apply(const sim_event &ev, cancel_role role)
{
	event_counts &c = r_.events;

	switch (ev.kind) {
	case event_kind::timer_init:
		c.timer_init++;
		timer_of(ev.timer);
		break;
	case event_kind::timer_start:
		on_start(ev);
		break;
	case event_kind::timer_cancel:
		on_cancel(ev, role);
		break;
	case event_kind::timer_expire_entry:
		on_expire_entry(ev);
		break;
	case event_kind::timer_expire_exit:
		c.timer_expire_exit++;
		break;
	case event_kind::timer_base_idle:
		on_base_idle(ev);
		break;
	case event_kind::hrtimer:
		c.hrtimer++;
		break;
	case event_kind::other:
		c.other++;
		break;
	}
}

void replay_engine::on_start(const sim_event &ev)
{
	unsigned base = ev.carries(EF_TARGET_CPU) ? ev.target_cpu : ev.cpu;
	if (!check_cpu(ev, ev.cpu) || !check_cpu(ev, base))
		return;

	jiffies_t j, expires;
	if (ev.carries(EF_TIMEOUT)) {
		j = unwrap(ev.expires - static_cast<std::uint64_t>(ev.timeout));
		expires = j + static_cast<jiffies_t>(ev.timeout);
	} else {
		j = cur_;
		expires = unwrap(ev.expires);
	}
	if (!note_jiffies(ev, j))
		return;
	r_.events.timer_start++;

	timer_id id = timer_of(ev.timer);
	advance_before(base, j);
	timer_rec &rec = timers_[id];
	rec.function = ev.function;
	close_fire(rec);

	if (scheme_->start(id, base, expires, ev.flags)) {
		r_.timers.rearmed++;
		end_arming(rec, arming_end::rearmed);
	}
	r_.timers.started++;
	fn(rec.function).started++;
	rec.base = base;
	rec.expires = expires;
	rec.arming_moves = 0;
}

void replay_engine::on_cancel(const sim_event &ev, cancel_role role)
{
	r_.events.timer_cancel++;
	timer_id id = timer_of(ev.timer);
	if (role != cancel_role::plain)
		return;

	timer_rec &rec = timers_[id];
	if (!scheme_->pending(id))
		return;		// del_timer() of an idle timer changes nothing
	advance_before(rec.base, cur_);
	if (scheme_->cancel(id)) {
		r_.timers.canceled++;
		fn(rec.function).canceled++;
		end_arming(rec, arming_end::canceled);
	}
}

void replay_engine::on_expire_entry(const sim_event &ev)
{
	if (!check_cpu(ev, ev.cpu))
		return;
	jiffies_t now = unwrap(ev.now);
	if (!note_jiffies(ev, now))
		return;
	r_.events.timer_expire_entry++;

	timer_id id = timer_of(ev.timer);
	if (!timers_[id].function)
		timers_[id].function = ev.function;
	advance(ev.cpu, now);

	timer_rec &rec = timers_[id];
	fidelity_summary &f = r_.fidelity;
	f.compared++;
	if (rec.fired_unmatched) {
		rec.fired_unmatched = false;
		if (rec.fired_at == now)
			f.exact++;
		else if (rec.fired_at < now)
			f.early++;
		else
			f.late++;
	} else if (scheme_->pending(id)) {
		// The kernel ran it, the simulation still holds it: expire it
		// now, so that the state follows the recorded kernel.
		f.late++;
		scheme_->cancel(id);
		r_.timers.expired++;
		fn(rec.function).expired++;
		end_arming(rec, arming_end::expired);
	} else {
		f.unmatched++;
	}
}

void replay_engine::on_base_idle(const sim_event &ev)
{
	unsigned cpu = ev.carries(EF_TARGET_CPU) ? ev.target_cpu : ev.cpu;
	if (!check_cpu(ev, cpu))
		return;
	r_.events.timer_base_idle++;
	advance_before(cpu, cur_);
	scheme_->set_idle(cpu, ev.is_idle, cur_);
}

bool replay_engine::check_cpu(const sim_event &ev, unsigned cpu)
{
	if (cpu < r_.input.cpus)
		return true;
	return reject(ev, "CPU " + std::to_string(cpu) + " is beyond the trace's " +
				  std::to_string(r_.input.cpus) + " CPUs (give --cpus)");
}

bool replay_engine::note_jiffies(const sim_event &ev, jiffies_t j)
{
	if (seen_j_[ev.cpu] && j < last_j_[ev.cpu])
		return reject(ev, "jiffies go backwards on CPU " + std::to_string(ev.cpu) + ": " +
					  std::to_string(narrow(j)) + " after " +
					  std::to_string(narrow(last_j_[ev.cpu])));
	if (j > cur_ && j - cur_ > max_jiffies_leap)
		return reject(ev, "jiffies leap forward by " + std::to_string(j - cur_) + " to " +
					  std::to_string(narrow(j)) + " (corrupt value?)");
	seen_j_[ev.cpu] = true;
	last_j_[ev.cpu] = j;
	if (j > cur_)
		cur_ = j;
	return true;
}

bool replay_engine::reject(const sim_event &ev, const std::string &reason)
{
	if (!opt_.lenient)
		throw input_error(path_, ev.line, reason);
	rejected_++;
	return false;
}

timer_id replay_engine::timer_of(std::uint64_t ptr)
{
	auto [it, fresh] = ids_.try_emplace(ptr, static_cast<timer_id>(timers_.size()));
	if (fresh) {
		timers_.emplace_back().ptr = ptr;
		r_.timers.distinct++;
	}
	return it->second;
}

void replay_engine::advance(unsigned cpu, jiffies_t upto)
{
	advancing_ = cpu;
	scheme_->advance(cpu, upto);
}

// The softirq placement rule: before an event at jiffy j reaches a base,
// the base has processed every jiffy < j (none before jiffy 0).
void replay_engine::advance_before(unsigned cpu, jiffies_t j)
{
	if (j)
		advance(cpu, j - 1);
}

void replay_engine::end_arming(timer_rec &rec, arming_end how)
{
	if (rec.arming_moves && how == arming_end::canceled)
		r_.cascade.moved_then_canceled++;
	if (rec.arming_moves && how == arming_end::rearmed)
		r_.cascade.moved_then_rearmed++;
	rec.arming_moves = 0;
}

// A simulated expiry that no recorded expiry claimed before the timer was
// armed again (or the trace ended).
void replay_engine::close_fire(timer_rec &rec)
{
	if (rec.fired_unmatched)
		r_.fidelity.simulated_only++;
	rec.fired_unmatched = false;
}

function_acc &replay_engine::fn(std::uint32_t id)
{
	if (fns_.size() <= id)
		fns_.resize(id + 1);
	return fns_[id];
}

// ---- what the scheme reports --------------------------------------------------

void replay_engine::enqueued(timer_id, unsigned level)
{
	level_enqueued_.at(std::min<std::size_t>(level, level_enqueued_.size() - 1))++;
}

void replay_engine::moved(timer_id t, unsigned from_level)
{
	level_moved_.at(std::min<std::size_t>(from_level, level_moved_.size() - 1))++;
	r_.cascade.moved_total++;
	tick_moves_[advancing_]++;
	timers_[t].arming_moves++;
	fn(timers_[t].function).moved++;
}

void replay_engine::cascaded(unsigned level, std::uint32_t)
{
	level_calls_.at(std::min<std::size_t>(level, level_calls_.size() - 1))++;
}

// A base's tick ends when its next one begins (or the replay ends): its
// moves go into the distribution, and the worst tick is remembered.
void replay_engine::close_tick(unsigned cpu)
{
	if (!tick_open_[cpu])
		return;
	tick_open_[cpu] = false;
	std::uint64_t moves = tick_moves_[cpu];
	moves_hist_.add(moves);
	if (moves > r_.cascade.max_moved_in_one_tick) {
		r_.cascade.max_moved_in_one_tick = moves;
		r_.cascade.max_moved_jiffy = narrow(tick_jiffy_[cpu]);
		r_.cascade.max_moved_cpu = cpu;
	}
}

void replay_engine::tick(unsigned cpu, jiffies_t jiffy)
{
	close_tick(cpu);
	tick_open_[cpu] = true;
	tick_moves_[cpu] = 0;
	tick_jiffy_[cpu] = jiffy;
	r_.ticks_processed++;
}

void replay_engine::expired(timer_id t, unsigned cpu, jiffies_t jiffy)
{
	timer_rec &rec = timers_[t];

	close_fire(rec);
	rec.fired_unmatched = true;
	rec.fired_at = jiffy;
	r_.timers.expired++;
	fn(rec.function).expired++;
	end_arming(rec, arming_end::expired);

	lateness_summary &l = r_.lateness;
	l.expiries++;
	if (jiffy < rec.expires) {
		l.early++;
	} else {
		std::uint64_t late = jiffy - rec.expires;
		l.on_time += late == 0;
		l.total += late;
		l.max = std::max(l.max, late);
		late_hist_.add(late);
	}
	if (opt_.expiry_log)
		std::fprintf(opt_.expiry_log, "%u,0x%llx,%s,%llu,%llu\n", cpu,
			     static_cast<unsigned long long>(rec.ptr),
			     functions_.name(rec.function).c_str(),
			     static_cast<unsigned long long>(narrow(rec.expires)),
			     static_cast<unsigned long long>(narrow(jiffy)));
}

// ---- the end ---------------------------------------------------------------------

// --drain: each base goes on jiffy by jiffy until it holds no timer, so the
// last jiffy it processes is the one its last timer fired in.
void replay_engine::drain()
{
	const jiffies_t limit = cur_ + opt_.drain_limit;
	bool all = true;

	// Every base takes ticks while draining: an idle one would hold its
	// deferrable timers back until a wake that never comes.
	for (unsigned cpu = 0; cpu < r_.input.cpus; cpu++)
		scheme_->set_idle(cpu, false, cur_);
	for (unsigned cpu = 0; cpu < r_.input.cpus; cpu++) {
		while (scheme_->pending_on(cpu) && scheme_->clock(cpu) <= limit)
			advance(cpu, scheme_->clock(cpu));
		all = all && !scheme_->pending_on(cpu);
	}
	r_.drained = all;
	if (!all)
		r_.drain_stopped_at = narrow(limit);
}

void replay_engine::finish()
{
	replay_report &r = r_;

	for (unsigned cpu = 0; cpu < r.input.cpus; cpu++) {
		close_tick(cpu);
		r.timers.pending_at_end += scheme_->pending_on(cpu);
	}
	for (timer_rec &rec : timers_)
		close_fire(rec);

	const reader_stats &st = reader_.stats();
	r.input.lines = st.lines;
	r.input.events = st.events - rejected_;
	r.input.skipped = st.skipped + rejected_;
	r.input.malformed = st.malformed + rejected_;
	r.input.bytes = st.bytes;
	r.input.last_jiffies = narrow(cur_);

	unsigned levels = scheme_->levels();
	for (unsigned l = 2; l <= levels; l++)
		r.cascade.levels.push_back({scheme_->level_name(l), level_calls_[l], level_moved_[l]});
	if (levels)
		for (unsigned l = 1; l <= levels; l++)
			r.enqueue.push_back({scheme_->level_name(l), level_enqueued_[l]});
	else
		r.enqueue.push_back({"all", level_enqueued_[0] + level_enqueued_[1]});
	r.cascade.moves_per_tick = moves_hist_.buckets();
	r.lateness.buckets = late_hist_.buckets();
	r.costs = scheme_->costs();
	r.peak_scheme_bytes = scheme_->peak_memory_bytes();

	for (std::uint32_t id = 0; id < fns_.size(); id++) {
		const function_acc &a = fns_[id];
		if (!a.started && !a.canceled && !a.expired && !a.moved)
			continue;
		const std::string &name = functions_.name(id);
		r.functions.push_back({name.empty() ? "(unknown)" : name, a.started, a.canceled,
				       a.expired, a.moved});
	}
	std::sort(r.functions.begin(), r.functions.end(),
		  [](const function_stats &a, const function_stats &b) {
			  if (a.moved != b.moved)
				  return a.moved > b.moved;
			  if (a.started != b.started)
				  return a.started > b.started;
			  return a.function < b.function;
		  });
}

void replay_engine::progress(bool last)
{
	events_since_progress_ = 0;
	auto now = std::chrono::steady_clock::now();
	if (!last && now - last_progress_ < std::chrono::seconds(1))
		return;
	last_progress_ = now;
	const reader_stats &st = reader_.stats();
	if (last) {
		std::fprintf(stderr, "\r\033[K");
		return;
	}
	if (opt_.input_size)
		std::fprintf(stderr, "\r\033[Ktimersim: %llu of %llu MB, %llu events",
			     static_cast<unsigned long long>(st.bytes >> 20),
			     static_cast<unsigned long long>(opt_.input_size >> 20),
			     static_cast<unsigned long long>(st.events));
	else
		std::fprintf(stderr, "\r\033[Ktimersim: %llu MB, %llu events",
			     static_cast<unsigned long long>(st.bytes >> 20),
			     static_cast<unsigned long long>(st.events));
}

}  // namespace

replay_report replay_trace(trace_reader &reader, const std::string &path, const replay_options &opt)
{
	replay_engine engine(reader, path, opt);
	return engine.run();
}

}  // namespace timersim
