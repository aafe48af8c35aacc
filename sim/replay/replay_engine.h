// One scheme's replay: applies the events the driver prepared to the
// scheme, keeps the softirq placement rule, judges fidelity, and tells the
// sinks (cost accounting first) what happened.
//
// The driver (sim/replay/replay.cc) reads the trace once, works out what does
// not depend on the scheme (jiffies, the base an event belongs to, what a
// timer_cancel is part of) and hands each event to every engine, so that
// `compare` costs one parse and N engines.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "sim/base/second_grid.h"
#include "sim/replay/cost_accounting.h"
#include "sim/replay/time_table.h"
#include "sim/stream/event_stream.h"
#include "sim/base/flat_ids.h"
#include "sim/replay/replay_sink.h"
#include "sim/measured/softirq_work.h"
#include "sim/scheme/scheme.h"

namespace timersim {

// A drain takes each base this many jiffies further with the idle jiffies
// it skips in bulk left out of --max-cost, as the replay leaves them out
// (it is the most one event may leap, so a drain costs no more than one
// more event per base); past them the horizon is --drain-limit's, not the
// trace's, and the units the scheme counts for them are guarded: classic
// re-queues a timer beyond its range at every pass of its last level, 2^30
// passes of a drain to 2^62, each one cheap to simulate.
inline constexpr jiffies_t drain_unguarded_idle = jiffies_t{1} << 32;

// What a recorded timer_cancel turns out to be.
enum class cancel_role : std::uint8_t { plain, part_of_expiry, part_of_rearm };

// An event as every engine applies it, worked out once by the driver.
struct prepared_event {
	const sim_event *ev = nullptr;
	cancel_role role = cancel_role::plain;
	unsigned base = 0;		// timer_start: the base it is queued on;
					// timer_base_idle: the base; else the CPU
	jiffies_t jiffies = 0;		// the event's jiffies, or the latest seen;
					// a tick: the jiffies its softirq saw
	jiffies_t expires = 0;		// timer_start: the unwrapped expiry
	// A recorded tick (tick-driven replay): base `base` runs its softirq,
	// processing every jiffy up to `limit`.
	bool tick = false;
	jiffies_t limit = 0;
	// The tracer lost events since the event before (EF_AFTER_LOSS).
	bool after_loss = false;
	// timer_start: its flags were printed unusably (flags_lost).
	bool flags_lost = false;
	// timer_start: made by the timer's own callback (between its
	// timer_expire_entry and _exit on this CPU).
	bool in_callback = false;
	// A tick: the trace showed the jiffies its run saw (its expiries
	// printed them); else they are the tick model's guess.
	bool settled = false;
	// timer_init, _start, _cancel, _expire_entry: the timer's dense id,
	// given once by the driver for every engine (the ids are given in the
	// order timers are first seen, and every engine sees every event, so
	// each engine's would be these): compare looks a pointer up once, not
	// once per scheme.
	timer_id timer = 0;
};

// The engine also meters the scheme's work (replay_sink::worked): it reads
// the scheme's cost counters after each start and cancel (process context)
// and at each expiry, move and tick of a softirq run, and credits what they
// grew by to the timer at hand. A run is what the scheme does from one of
// its ticks (the simulated timer interrupt) to the next tick or to the end
// of the advance; work before its first tick (an idle stretch) is no run's.
class replay_engine final : private scheme_observer {
public:
	replay_engine(std::unique_ptr<reported_scheme> s, const interner &names,
		      std::vector<replay_sink *> sinks);

	const reported_scheme &the_scheme() const { return *scheme_; }
	// Timers pending on every base.
	std::uint64_t pending() const
	{
		std::uint64_t n = 0;
		for (unsigned cpu = 0; cpu < setup_.cpus; cpu++)
			n += scheme_->pending_on(cpu);
		return n;
	}

	// `setup` carries the trace's side; the engine adds its scheme's.
	void begin(const replay_setup &setup, jiffies_t start);
	// Applies an event of kind K (the driver's loop has switched on the
	// kind: here it is not switched on again). Kinds not named reach no
	// engine.
	template <event_kind K> void apply(const prepared_event &p)
	{
		loss_epoch_ += p.after_loss;
		if constexpr (K == event_kind::timer_init) {
			timer_of(p);
		} else if constexpr (K == event_kind::timer_start) {
			on_start(p);
		} else if constexpr (K == event_kind::timer_cancel) {
			// Most are part of an expiry or a re-arm: nothing to do
			// but know the timer (here, without a call).
			if (p.role == cancel_role::plain)
				on_cancel(p);
			else
				timer_of(p);
		} else if constexpr (K == event_kind::timer_expire_entry) {
			on_expire_entry(p);
		} else if constexpr (K == event_kind::timer_base_idle) {
			on_base_idle(p);
		} else if constexpr (K == event_kind::hrtimer) {
			if (p.tick)
				on_tick(p);
		} else if constexpr (K == event_kind::tmigr) {
			on_tmigr(p);
		}
	}
	// --drain: every base runs until it holds no timer, up to `limit`.
	// Returns whether every base emptied. `guard` is called after each
	// step (from one jiffy that may fire to the next) with the cost units
	// the scheme counted for idle jiffies skipped in bulk more than
	// drain_unguarded_idle into a base's drain, and may throw to stop a
	// drain whose cost runs away (--max-cost).
	bool drain(jiffies_t limit, jiffies_t now, const std::function<void(std::uint64_t)> &guard);
	// The scheme's sections of the report (the driver fills the input's).
	void finish(replay_report &r);
	// The softirq-side work done for CPU `cpu` since the last call (the
	// recorded run that closed there did it).
	measured::softirq_work take_softirq_work(unsigned cpu)
	{
		measured::softirq_work w = softirq_work_[cpu];
		softirq_work_[cpu] = {};
		return w;
	}
	const measured::softirq_work &all_softirq_work() const { return all_softirq_work_; }
	// The trace's events are over: what a drain does from here on is the
	// last second's (the per-second figures span the trace, not the drain).
	void end_seconds_at(jiffies_t last) { last_second_ = grid_.of_jiffy(last); }
	// The report is complete: the sinks finish their outputs.
	void end(const replay_report &r)
	{
		tell([&](auto &s) { s.end(r); });
	}

private:
	struct timer_rec {
		std::uint64_t ptr = 0;
		std::uint32_t function = 0;
		unsigned base = 0;		// the base it was last started on
		jiffies_t expires = 0;		// requested expiry of the current arming
		jiffies_t fired_at = 0;		// last simulated expiry, while unmatched
		jiffies_t fired_bucket = 0;	// the bucket it fired from (expired_from)
		bool fired_unmatched = false;
		// What explains a miss (miss_reason):
		bool started = false;		// the trace started it at least once
		bool flags_lost = false;	// its last start printed no usable flags
		bool late_callback = false;	// its callback is running, late
		bool catch_up_rearm = false;	// this arming was made by such a callback
		// loss_epoch_ at its last recorded event: older than now, the
		// tracer lost events since, which may have been its own.
		std::uint32_t seen_epoch = 0;
		// Its last simulated expiry came in a tick run whose jiffies
		// were guessed (the tick may have raced the jiffies update).
		bool fired_guessed = false;
		// When the kernel last touched it (started, re-armed, moved):
		// a cascade that walks it a second later finds it cold.
		jiffies_t touched = 0;
	};

	// scheme_observer (the level of a start comes from placed_level())
	bool wants_enqueues() const override { return false; }
	void moved(timer_id t, unsigned from_level) override;
	void cascaded(unsigned level, std::uint32_t count) override;
	void tick(unsigned cpu, jiffies_t jiffy) override;
	void expired(timer_id t, unsigned cpu, jiffies_t jiffy) override
	{
		expired_from(t, cpu, jiffy, jiffy);
	}
	void expired_from(timer_id t, unsigned cpu, jiffies_t jiffy, jiffies_t bucket) override;
	void idle_ticks(unsigned cpu, jiffies_t first, std::uint64_t count) override;
	void empty_cascades(unsigned level, std::uint64_t calls) override;

	void on_start(const prepared_event &p);
	void pending_by_level(timer_counts &tc) const;
	void on_cancel(const prepared_event &p);
	void on_expire_entry(const prepared_event &p);
	void on_base_idle(const prepared_event &p);
	void on_tick(const prepared_event &p);
	void on_tmigr(const prepared_event &p);
	void run_softirq(unsigned cpu, jiffies_t limit, jiffies_t label,
			 unsigned remote_base = ~0u);

	// Work metering: credit the work done since the last credit. Inline
	// always: compare calls it at nearly every event of every scheme.
	[[gnu::always_inline]] void credit(work_context ctx, const timer_ref *t, unsigned cpu, jiffies_t jiffy)
	{
		if (totals_only_)
			credit_total(ctx, t);
		else
			credit_units(ctx, t, cpu, jiffy);
	}
	void credit_units(work_context ctx, const timer_ref *t, unsigned cpu, jiffies_t jiffy);
	// credit() where no sink wants the units by kind and the scheme's
	// counters are live (compare's nine schemes, each credited at nearly
	// every event): only their total is taken at each credit; the split
	// by context (split_) is taken at each change of context, as the
	// counters' growth over the credits of one context.
	[[gnu::always_inline]] void credit_total(work_context ctx, const timer_ref *t)
	{
		const cost_counters &now = *live_costs_;
		const std::uint64_t total = now.total();
		if (total == metered_total_)
			return;
		const std::uint64_t n = total - metered_total_;
		if (ctx != split_ctx_)
			close_split(ctx);
		metered_ = now;
		metered_total_ = total;
		if (ctx == work_context::softirq && run_.open)
			run_.units += n;
		accounting_.worked_units(t, ctx, n);
	}
	// split_ of the context credited so far takes its growth since it
	// began (up to the last credit); `next` begins.
	void close_split(work_context next)
	{
		split_[static_cast<unsigned>(split_ctx_)] += metered_.since(split_mark_);
		split_mark_ = metered_;
		split_ctx_ = next;
	}
	// A softirq stretch (an advance) ended, or a run: the work after the
	// run's last expiry or move goes to the timer it woke for.
	void softirq_done();
	void end_run();
	// The work since the last credit. A scheme that keeps its costs per
	// base (scheme_reporting::costs_on) is read on the bases touched since
	// then, not on all of them: with many CPUs that is most of the cost.
	// Inline in credit_units(), its one caller (replay_engine.cc), with
	// take_base_work(): defined there, so no other unit refers to them.
	cost_counters take_work();
	// costs() since the last credit: inline, as nearly every event of
	// every scheme of a compare credits work. Counters only grow, so a
	// zero total is no change (and skipped_idle alone is kept for later).
	cost_counters take_scheme_work()
	{
		const cost_counters &now = live_costs_ ? *live_costs_ : scheme_->costs();
		const cost_counters units = now.since(metered_);
		if (!units.total())
			return {};
		metered_ = now;
		return units;
	}
	cost_counters take_base_work();
	// The scheme's costs may have grown: called after each call that can
	// change them (start, cancel, advance, set_idle). A base read since
	// the last such call reads the same again: take_base_work() skips it
	// (a start's settle() reads the bases the last event's credit read).
	void scheme_worked() { epoch_++; }
	void touch(unsigned cpu)
	{
		if (per_base_meter_ && !touched_[cpu]) {
			touched_[cpu] = 1;
			touched_list_[touched_count_++] = cpu;
		}
	}
	// Before a start or cancel on these bases: work they did that no
	// event announced (v48, advancing one CPU, searches the other CPUs'
	// global bases for their next expiry) is the softirq's, no callback's,
	// not the start's.
	[[gnu::always_inline]] void settle(unsigned cpu, unsigned other, jiffies_t jiffy)
	{
		if (!per_base_meter_)
			return;
		// Read both, unless nothing waits to be read: the last credit
		// read both and the scheme has not worked since (mostly so).
		if (touched_count_ || read_epoch_[cpu] != epoch_ || read_epoch_[other] != epoch_) {
			touch(cpu);
			touch(other);
			credit(work_context::softirq, nullptr, cpu, jiffy);
		}
		// Nothing is touched now (none was, or the credit read them):
		// touch() of the two, without its tests.
		touched_[cpu] = 1;
		touched_list_[0] = cpu;
		touched_[other] = 1;
		touched_list_[1] = other;
		touched_count_ = 1 + (other != cpu);
	}
	void touch_all()
	{
		for (unsigned cpu = 0; cpu < setup_.cpus; cpu++)
			touch(cpu);
	}

	// Inline: every timer event asks, and all but a timer's first find
	// its record there.
	timer_id timer_of(const prepared_event &p)
	{
		if (p.timer < timers_.size()) [[likely]]
			return p.timer;
		return new_timer(p);
	}
	timer_id new_timer(const prepared_event &p);
	timer_ref ref(timer_id t) const
	{
		const timer_rec &rec = timers_[t];
		return {t, rec.ptr, rec.function, names_.name(rec.function)};
	}
	void advance(unsigned cpu, jiffies_t upto);
	// The per-second work (second_work) of CPU `cpu` at jiffy `j`.
	second_work &second_of(unsigned cpu, jiffies_t j)
	{
		return seconds_.at(std::min(grid_.of_jiffy(j), last_second_), cpu);
	}
	void book_processed(unsigned cpu, jiffies_t first, std::uint64_t count);
	void book_second_work(unsigned cpu);
	void book_softirq_work(unsigned cpu, const cost_counters &before, const cost_counters &now,
			       std::uint64_t expiries_before);
	cost_counters softirq_meter(unsigned cpu, unsigned remote_base, bool with_idle) const;
	void advance_before(unsigned cpu, jiffies_t j);
	// Inline: every start asks, and few timers have a fire to close.
	void close_fire(timer_id t, jiffies_t now, miss_reason at_end = miss_reason::unexplained)
	{
		if (timers_[t].fired_unmatched)
			judge_fire(t, now, at_end);
	}
	void judge_fire(timer_id t, jiffies_t now, miss_reason at_end);
	verdict judge_bucket(timer_id t, const prepared_event &p, bool fired, bool held);
	// The recorded expiry being judged was exact by the bucket.
	bool bucket_exact_ = false;
	void judge(timer_id t, unsigned cpu, jiffies_t recorded, jiffies_t simulated, verdict v,
		   miss_reason closed = miss_reason::unexplained);
	miss_reason why_missed(const timer_rec &rec, jiffies_t recorded, jiffies_t simulated,
			       verdict v, miss_reason closed) const;

	// `f` takes `auto &`: the accounting, every replay's first sink, is
	// then called as itself (final), inline, not through the sink's table.
	template <typename F> void tell(F &&f)
	{
		f(accounting_);
		for (replay_sink *s : sinks_)
			f(*s);
	}

	std::unique_ptr<reported_scheme> scheme_;
	const interner &names_;
	std::vector<replay_sink *> sinks_;
	cost_accounting accounting_;
	replay_setup setup_;

	std::vector<timer_rec> timers_;
	unsigned advancing_ = 0;		// base being advanced
	std::vector<jiffies_t> tick_jiffy_;	// per base, the jiffy it processes
	// Tick-driven: the jiffies of the softirq run in progress, which its
	// expiries get; and which bases are idle (6.9+ remote expiry).
	bool in_run_ = false;
	jiffies_t run_label_ = 0;
	bool run_was_guessed_ = false;	// the run in progress: run_guessed_ of its CPU
	std::uint32_t loss_epoch_ = 0;
	// By CPU: its last softirq run's jiffies were the tick model's guess.
	std::vector<bool> run_guessed_;	// losses of events the trace reported so far
	std::vector<bool> idle_;
	// By CPU: softirq-side work since its last recorded run closed, and
	// the CPU whose softirq does the work in progress.
	std::vector<measured::softirq_work> softirq_work_;
	measured::softirq_work all_softirq_work_;
	unsigned booking_ = 0;
	// Per second: the grid, what the scheme did, all_softirq_work_ when
	// last booked to a second, the last second (end_seconds_at).
	second_grid grid_;
	by_second<second_work> seconds_;
	measured::softirq_work booked_;
	std::uint32_t last_second_ = UINT32_MAX;

	cost_counters metered_;		// the scheme's costs at the last credit
	const cost_counters *live_costs_ = nullptr;	// scheme_->live_costs()
	// credit_total(): metered_.total(); the context of the credits since
	// split_mark_ (metered_ when it began).
	bool totals_only_ = false;
	std::uint64_t metered_total_ = 0;
	work_context split_ctx_ = work_context::process;
	cost_counters split_mark_;
	bool per_base_meter_ = false;	// read per base (costs_on), not costs()
	bool draining_ = false;		// in drain(): not tick-driven either
	std::vector<cost_counters> base_metered_;	// per base, at the last credit
	std::uint64_t epoch_ = 0;			// scheme_worked() calls
	std::vector<std::uint64_t> read_epoch_;	// per base, epoch_ at its last read
	// Per base, since the last credit: bytes, not bits (touch() is
	// called several times an event).
	std::vector<std::uint8_t> touched_;
	// The touched bases, each once: room for every base, so that touch()
	// (several an event) is small enough to inline.
	std::vector<unsigned> touched_list_;
	unsigned touched_count_ = 0;
	cost_counters split_[2];	// by work_context
	struct softirq_run_state {
		bool open = false;
		bool woke = false;	// `wake` is its first expiry
		unsigned cpu = 0;
		jiffies_t jiffy = 0;
		timer_id wake = 0;
		std::uint64_t units = 0, expired = 0;
	} run_;
};

}  // namespace timersim
