#include "sim/replay/replay_engine.h"

#include <algorithm>

#include "sim/replay/replay_report.h"

namespace timersim {

replay_engine::replay_engine(std::unique_ptr<reported_scheme> s, const interner &names,
			     std::vector<replay_sink *> sinks)
	: scheme_(std::move(s)), names_(names), sinks_(std::move(sinks))
{
}

void replay_engine::begin(const replay_setup &setup, jiffies_t start)
{
	setup_ = setup;
	setup_.scheme = scheme_->name();
	setup_.start = start;
	setup_.levels = scheme_->levels();
	setup_.level_names.clear();
	for (unsigned l = 1; l <= setup_.levels; l++)
		setup_.level_names.push_back(scheme_->level_name(l));
	setup_.wheel = dynamic_cast<const wheel_inspection *>(scheme_.get());
	tick_jiffy_.assign(setup_.cpus, start);
	idle_.assign(setup_.cpus, false);
	run_guessed_.assign(setup_.cpus, false);
	softirq_work_.assign(setup_.cpus, {});
	all_softirq_work_ = {};
	grid_ = {setup_.clock, start, setup_.hz};
	scheme_->reset(setup_.cpus, start, this);
	metered_ = scheme_->costs();
	live_costs_ = scheme_->live_costs();
	metered_total_ = metered_.total();
	split_mark_ = metered_;
	split_ctx_ = work_context::process;
	cost_counters share;
	per_base_meter_ = setup_.cpus && scheme_->costs_on(0, share);
	base_metered_.assign(setup_.cpus, {});
	for (unsigned cpu = 0; per_base_meter_ && cpu < setup_.cpus; cpu++)
		scheme_->costs_on(cpu, base_metered_[cpu]);
	epoch_ = 0;
	read_epoch_.assign(setup_.cpus, ~std::uint64_t{0});	// read again at first
	touched_.assign(setup_.cpus, 0);
	touched_list_.assign(std::max(setup_.cpus, 2u), 0);	// settle() writes two
	touched_count_ = 0;
	split_[0] = split_[1] = {};
	totals_only_ = live_costs_ && !per_base_meter_ && sinks_.empty();
	run_ = {};
	scheme_->set_tick_driven(setup_.tick_driven);
	for (unsigned cpu : setup_.isolated)
		scheme_->set_tmigr_available(cpu, false);
	tell([&](auto &s) { s.begin(setup_); });
}

void replay_engine::on_start(const prepared_event &p)
{
	const sim_event &ev = *p.ev;
	timer_id id = timer_of(p);
	if (setup_.tick_driven)
		scheme_->set_now(p.jiffies);
	else
		advance_before(p.base, p.jiffies);
	timer_rec &rec = timers_[id];
	rec.function = ev.function;
	close_fire(id, p.jiffies);
	rec.started = true;
	rec.seen_epoch = loss_epoch_;
	rec.flags_lost = p.flags_lost;	// worked out once, by the driver
	rec.catch_up_rearm = rec.late_callback;
	rec.late_callback = false;

	settle(p.base, rec.base, p.jiffies);	// and where it was pending, if it was
	// Re-armed by its own callback in a late catch-up run: the kernel's
	// base clock was then just past the bucket it ran.
	bool rearm = rec.catch_up_rearm && p.in_callback
		? scheme_->start_in_catch_up(id, p.base, p.expires, ev.flags)
		: scheme_->start(id, p.base, p.expires, ev.flags);
	scheme_worked();
	const unsigned level = scheme_->placed_level();
	rec.base = p.base;
	rec.expires = p.expires;
	rec.touched = p.jiffies;
	timer_ref t = ref(id);
	credit(work_context::process, &t, p.base, p.jiffies);
	second_of(p.base, p.jiffies).starts++;
	tell([&](auto &s) {
		s.started(t, p.base, p.jiffies, p.expires, level, rearm);
	});
}

// A plain cancel (apply() takes the others).
void replay_engine::on_cancel(const prepared_event &p)
{
	timer_id id = timer_of(p);
	timer_rec &rec = timers_[id];
	rec.late_callback = false;
	rec.seen_epoch = loss_epoch_;
	if (!scheme_->pending(id)) {
		// del_timer() of an idle timer changes nothing; one the
		// simulation fired was still pending in the kernel.
		close_fire(id, p.jiffies);
		return;
	}
	if (!setup_.tick_driven)
		advance_before(rec.base, p.jiffies);
	settle(rec.base, rec.base, p.jiffies);
	const bool was = scheme_->cancel(id);
	scheme_worked();
	timer_ref t = ref(id);
	credit(work_context::process, &t, rec.base, p.jiffies);
	if (was) {
		second_of(rec.base, p.jiffies).cancels++;
		tell([&](auto &s) { s.canceled(t, rec.base, p.jiffies); });
	}
}

void replay_engine::on_expire_entry(const prepared_event &p)
{
	const sim_event &ev = *p.ev;
	const jiffies_t now = p.jiffies;
	timer_id id = timer_of(p);
	if (!timers_[id].function)
		timers_[id].function = ev.function;
	// The kernel's softirq on this CPU ran at `now`: the base catches up
	// (tick-driven: a run of its own, as if from a tick).
	if (setup_.tick_driven) {
		// Run on another CPU than its base: the kernel expired it
		// remotely (6.9+ tmigr), so that CPU's softirq ran the base's
		// global timers too.
		unsigned base = timers_[id].base;
		bool remote = base != ev.cpu && scheme_->pending(id);
		run_guessed_[ev.cpu] = false;	// `now` is the kernel's own
		run_softirq(ev.cpu, now, now, remote ? base : ~0u);
	} else {
		advance(ev.cpu, now);
	}

	timer_rec &rec = timers_[id];
	bucket_exact_ = ev.carries(EF_BASECLK) &&
		judge_bucket(id, p, rec.fired_unmatched, !rec.fired_unmatched && scheme_->pending(id)) ==
			verdict::exact;
	if (rec.fired_unmatched) {
		rec.fired_unmatched = false;
		verdict v = rec.fired_at == now ? verdict::exact
			  : rec.fired_at < now  ? verdict::early
						: verdict::late;
		judge(id, ev.cpu, now, rec.fired_at, v);
	} else if (scheme_->pending(id)) {
		// The kernel ran it, the simulation still holds it: expire it
		// now, so that the state follows the recorded kernel: its
		// softirq did that work.
		touch(timers_[id].base);
		scheme_->cancel(id);
		scheme_worked();
		timer_ref t = ref(id);
		credit(work_context::softirq, &t, ev.cpu, now);
		judge(id, ev.cpu, now, now, verdict::late);
	} else {
		judge(id, ev.cpu, now, now, verdict::unmatched);
	}
	bucket_exact_ = false;
	// Its callback runs now; a start of it before anything else happens
	// to it is the callback re-arming it. The run was a late catch-up when
	// it ran a bucket older than `now` (5.2+ print it) or, before, when the
	// timer was overdue.
	const std::uint64_t behind = ev.carries(EF_BASECLK) ? setup_.narrow(ev.now - ev.baseclk)
		: now > rec.expires ? now - rec.expires : 0;
	rec.late_callback = behind != 0 && behind < (std::uint64_t{1} << 31);
	rec.seen_epoch = loss_epoch_;
}

void replay_engine::on_base_idle(const prepared_event &p)
{
	if (setup_.tick_driven) {
		idle_[p.base] = p.ev->is_idle;
		return;
	}
	advance_before(p.base, p.jiffies);
	// A base that wakes catches up (v48 runs what fell due meanwhile).
	touch(p.base);
	scheme_->set_idle(p.base, p.ev->is_idle, p.jiffies);
	scheme_worked();
	softirq_done();
}

// 6.19 tmigr_cpu_available/unavailable (the driver passes them only under
// the 6.19 rules): base p.base joins or leaves the migration hierarchy. Its
// base catches up first: what fell due before the event was run under the
// old membership.
void replay_engine::on_tmigr(const prepared_event &p)
{
	const bool available = p.ev->tmigr == tmigr_event::cpu_available;
	if (!setup_.tick_driven) {
		advance_before(p.base, p.jiffies);
		touch(p.base);
	}
	scheme_->set_tmigr_available(p.base, available);
	if (!setup_.tick_driven) {
		scheme_worked();
		softirq_done();
	}
}

void replay_engine::on_tick(const prepared_event &p)
{
	run_guessed_[p.base] = !p.settled;
	run_softirq(p.base, p.limit, p.jiffies);
	// A recorded tick: one softirq run for a kernel that raised it at
	// every tick (the runs an expiry's catch-up makes are not ticks).
	softirq_work_[p.base].ticks++;
	all_softirq_work_.ticks++;
	second_of(p.base, p.jiffies).softirq.ticks++;
	booked_.ticks++;
}

// One timer softirq on `cpu`: its base catches up to `limit`, then (6.9+)
// it expires the global timers of idle CPUs (tmigr_handle_remote). Every
// timer it fires sees `label` as jiffies.
void replay_engine::run_softirq(unsigned cpu, jiffies_t limit, jiffies_t label,
				unsigned remote_base)
{
	const cost_counters before = softirq_meter(cpu, remote_base, true);
	const std::uint64_t expiries = all_softirq_work_.expiries;
	booking_ = cpu;
	in_run_ = true;
	run_label_ = label;
	run_was_guessed_ = run_guessed_[cpu];
	advance(cpu, limit);
	// 6.19: a CPU out of the available mask runs no tmigr_handle_remote
	// (the recorded remote expiry, remote_base, it ran all the same).
	const bool migrates = scheme_->tmigr_available(cpu);
	for (unsigned other = 0; other < setup_.cpus; other++)
		if (other != cpu && ((migrates && idle_[other]) || other == remote_base)) {
			advancing_ = other;
			touch(other);
			scheme_->advance_remote(other, limit);
			scheme_worked();
			touch(other);
		}
	softirq_done();
	in_run_ = false;
	book_softirq_work(cpu, before, softirq_meter(cpu, remote_base, true), expiries);
}

// The costs of the bases a softirq on `cpu` runs (its own, `remote_base`,
// and with_idle the idle ones'), or all of them where the scheme keeps no
// shares (its costs() is then cheap).
cost_counters replay_engine::softirq_meter(unsigned cpu, unsigned remote_base, bool with_idle) const
{
	if (!per_base_meter_)
		return scheme_->costs();
	cost_counters sum, one;
	for (unsigned b = 0; b < setup_.cpus; b++)
		if (b == cpu || b == remote_base || (with_idle && idle_[b])) {
			scheme_->costs_on(b, one);
			sum += one;
		}
	return sum;
}

void replay_engine::judge(timer_id t, unsigned cpu, jiffies_t recorded, jiffies_t simulated,
			  verdict v, miss_reason closed)
{
	timer_ref r = ref(t);
	tell([&](auto &s) { s.fidelity(r, cpu, recorded, simulated, v); });
	if (v == verdict::exact)
		return;
	miss_reason why = why_missed(timers_[t], recorded, simulated, v, closed);
	tell([&](auto &s) { s.missed(r, cpu, v, why); });
}

// The named category of a miss, most specific first. `closed`: for a
// simulated-only expiry, how the kernel's side ended.
miss_reason replay_engine::why_missed(const timer_rec &rec, jiffies_t recorded,
				      jiffies_t simulated, verdict v, miss_reason closed) const
{
	// The tracer lost events since the timer's last one: its start,
	// cancel or expiry may be among them.
	if (rec.seen_epoch != loss_epoch_)
		return miss_reason::events_lost;
	if (v == verdict::unmatched)
		return rec.started ? miss_reason::arming_not_traced : miss_reason::armed_before_trace;
	if (bucket_exact_)
		return miss_reason::jiffies_moved_on;
	if (rec.flags_lost)
		return miss_reason::flags_lost;
	if (rec.catch_up_rearm)
		return miss_reason::catch_up_rearm;
	if (v == verdict::simulated_only)
		return closed;
	// Another design than the recording kernel's, and each fired the
	// timer by its own rules, neither before the requested expiry (e.g.
	// classic at `expires`, the 4.8+ kernel at its bucket's rounded-up
	// one): the designs differ, not the model.
	if (!setup_.kernel_scheme.empty() && setup_.scheme != setup_.kernel_scheme &&
	    recorded >= rec.expires && simulated >= rec.expires)
		return miss_reason::design;
	// A tick race needs a tick whose jiffies were guessed: the run that
	// fired it early, or (still pending) the base's last run.
	const bool one_off = (recorded > simulated ? recorded - simulated
						   : simulated - recorded) == 1;
	const bool guessed = v == verdict::early ? rec.fired_guessed : run_guessed_[rec.base];
	if (one_off && setup_.tick_driven && guessed)
		return miss_reason::tick_race;
	return miss_reason::unexplained;
}

// A recorded expiry whose line printed baseclk (5.2+), judged by the bucket
// the kernel ran: exact when the simulation fired the timer from that same
// bucket, whatever jiffies had become meanwhile (another CPU's tick moves
// jiffies on while a softirq runs its buckets, so `now` can be ahead of
// the bucket). `fired`: the simulation fired it (from rec.fired_bucket);
// `held`: it still holds it (late); neither: it never knew it armed.
verdict replay_engine::judge_bucket(timer_id t, const prepared_event &p, bool fired, bool held)
{
	const sim_event &ev = *p.ev;
	const timer_rec &rec = timers_[t];
	// baseclk is at most `now`; printed as the kernel's word.
	const jiffies_t kernel = p.jiffies - setup_.narrow(ev.now - ev.baseclk);
	const jiffies_t model = fired ? rec.fired_bucket : kernel;
	const verdict v = !fired && !held  ? verdict::unmatched
			: !fired	   ? verdict::late
			: model == kernel ? verdict::exact
			: model < kernel  ? verdict::early
					  : verdict::late;
	timer_ref r = ref(t);
	const miss_reason why = v == verdict::exact ? miss_reason::unexplained
						    : why_missed(rec, kernel, model, v, miss_reason::unexplained);
	tell([&](auto &s) { s.bucket_fidelity(r, ev.cpu, kernel, model, v, why); });
	return v;
}

// The driver's id for the event's timer (prepared_event::timer), when
// this engine has no record of it yet: a new one is the next, and gets its
// record here.
timer_id replay_engine::new_timer(const prepared_event &p)
{
	if (p.timer == timers_.size())
		timers_.emplace_back().ptr = p.ev->timer;
	else if (p.timer > timers_.size())
		throw std::logic_error("replay engine: timer id " + std::to_string(p.timer) + " given before " +
				       std::to_string(timers_.size()));
	return p.timer;
}

void replay_engine::advance(unsigned cpu, jiffies_t upto)
{
	// Most advances before a start find the base there already: no
	// work, and no costs to read.
	if (scheme_->clock(cpu) > upto)
		return;
	advancing_ = cpu;
	touch(cpu);
	if (in_run_) {
		scheme_->advance(cpu, upto);
		scheme_worked();
		touch(cpu);
		softirq_done();
		return;
	}
	booking_ = cpu;
	const cost_counters before = softirq_meter(cpu, cpu, false);
	const std::uint64_t expiries = all_softirq_work_.expiries;
	scheme_->advance(cpu, upto);
	scheme_worked();
	// A credit inside the advance (a tick, an expiry) read the base:
	// what it did since is read again.
	touch(cpu);
	softirq_done();
	book_softirq_work(cpu, before, softirq_meter(cpu, cpu, false), expiries);
}

// Every catch-up of a base is the softirq's work, on the CPU whose softirq
// ran it: the counters' growth goes to that CPU's account (the expiries and
// cold relinks were counted as the scheme reported them).
void replay_engine::book_softirq_work(unsigned cpu, const cost_counters &before,
				      const cost_counters &now, std::uint64_t expiries_before)
{
	measured::softirq_work d;
	d.relinks = now.relinks - before.relinks;
	d.slot_visits = now.slot_visits - before.slot_visits;
	d.key_comparisons = now.key_comparisons - before.key_comparisons;
	d.removals = now.removals - before.removals;
	d.runs = !d.empty() || all_softirq_work_.expiries != expiries_before;
	softirq_work_[cpu] += d;
	all_softirq_work_ += d;
	book_second_work(cpu);
}

// The softirq work since the last booking (this catch-up's, its expiries
// and cold relinks counted as they came) is CPU `cpu`'s in its current
// second.
void replay_engine::book_second_work(unsigned cpu)
{
	const measured::softirq_work &a = all_softirq_work_, &b = booked_;
	measured::softirq_work d;
	d.runs = a.runs - b.runs;
	d.ticks = a.ticks - b.ticks;
	d.expiries = a.expiries - b.expiries;
	d.relinks = a.relinks - b.relinks;
	d.cold_relinks = a.cold_relinks - b.cold_relinks;
	d.slot_visits = a.slot_visits - b.slot_visits;
	d.key_comparisons = a.key_comparisons - b.key_comparisons;
	d.removals = a.removals - b.removals;
	if (d.runs || d.ticks || !d.empty() || d.cold_relinks)
		second_of(cpu, tick_jiffy_[cpu]).softirq += d;
	booked_ = a;
}

// COUNT jiffies from FIRST processed by base CPU, each in its second.
void replay_engine::book_processed(unsigned cpu, jiffies_t first, std::uint64_t count)
{
	if (seconds_.is_cut() || !count)
		return;
	if (std::uint64_t(grid_.of_jiffy(first + count - 1)) - grid_.of_jiffy(first) >= seconds_.max_rows) {
		seconds_.cut();	// an idle leap of more seconds than are kept
		return;
	}
	while (count) {
		const std::uint32_t k = std::min(grid_.of_jiffy(first), last_second_);
		const jiffies_t next = grid_.first_jiffy(k + 1);
		const std::uint64_t n = k == last_second_ || next <= first ? count : std::min(count, next - first);
		second_of(cpu, first).processed += n;
		first += n;
		count -= n;
	}
}

inline cost_counters replay_engine::take_base_work()
{
	cost_counters units, now;
	for (unsigned i = 0; i < touched_count_; i++) {
		const unsigned cpu = touched_list_[i];
		touched_[cpu] = 0;
		if (read_epoch_[cpu] == epoch_)
			continue;	// no work since: the same again
		read_epoch_[cpu] = epoch_;
		scheme_->costs_on(cpu, now);
		units += now.since(base_metered_[cpu]);
		base_metered_[cpu] = now;
	}
	touched_count_ = 0;
	return units;
}

inline cost_counters replay_engine::take_work()
{
	return per_base_meter_ ? take_base_work() : take_scheme_work();
}

void replay_engine::credit_units(work_context ctx, const timer_ref *t, unsigned cpu, jiffies_t jiffy)
{
	const cost_counters units = take_work();
	if (!units.total())
		return;
	split_[static_cast<unsigned>(ctx)] += units;
	if (ctx == work_context::softirq && run_.open)
		run_.units += units.total();
	tell([&](auto &s) { s.worked(t, cpu, jiffy, ctx, units); });
}

void replay_engine::softirq_done()
{
	if (run_.open)
		touch(run_.cpu);
	if (run_.woke) {
		timer_ref w = ref(run_.wake);
		credit(work_context::softirq, &w, run_.cpu, run_.jiffy);
	} else {
		credit(work_context::softirq, nullptr, run_.open ? run_.cpu : advancing_,
		       run_.open ? run_.jiffy : tick_jiffy_[advancing_]);
	}
	end_run();
}

void replay_engine::end_run()
{
	if (!run_.open)
		return;
	run_.open = false;
	timer_ref w;
	if (run_.woke)
		w = ref(run_.wake);
	tell([&](auto &s) {
		s.softirq_run(run_.cpu, run_.jiffy, run_.units, run_.expired, run_.woke ? &w : nullptr);
	});
	// The run is over: work after it (an idle stretch) is not its wake's.
	run_.woke = false;
}

// The softirq placement rule: before an event at jiffy j reaches a base,
// the base has processed every jiffy < j (none before jiffy 0).
void replay_engine::advance_before(unsigned cpu, jiffies_t j)
{
	if (j)
		advance(cpu, j - 1);
}

// A simulated expiry that no recorded expiry claimed before the timer was
// armed again (or the trace ended): close_fire() found one.
void replay_engine::judge_fire(timer_id t, jiffies_t now, miss_reason at_end)
{
	timer_rec &rec = timers_[t];
	// Re-armed or canceled by the kernel at `now`: in the jiffy it fell
	// due, a race with the tick; later, unexplained.
	miss_reason why = at_end != miss_reason::unexplained ? at_end
		: now <= rec.fired_at + 1 ? miss_reason::canceled_as_due
					  : miss_reason::unexplained;
	judge(t, rec.base, rec.fired_at, rec.fired_at, verdict::simulated_only, why);
	rec.fired_unmatched = false;
}

// ---- what the scheme reports --------------------------------------------------

// Each comes in the middle of the scheme's work: its costs may have grown
// since the last read (scheme_worked()).

void replay_engine::moved(timer_id t, unsigned from_level)
{
	scheme_worked();
	timer_ref r = ref(t);
	unsigned cpu = advancing_;
	timer_rec &rec = timers_[t];
	const jiffies_t now = tick_jiffy_[cpu];
	if (now >= rec.touched + setup_.hz)
		softirq_work_[booking_].cold_relinks++, all_softirq_work_.cold_relinks++;
	rec.touched = now;
	touch(cpu);
	credit(work_context::softirq, &r, cpu, tick_jiffy_[cpu]);
	tell([&](auto &s) { s.moved(r, cpu, tick_jiffy_[cpu], from_level); });
}

void replay_engine::cascaded(unsigned level, std::uint32_t count)
{
	scheme_worked();
	unsigned cpu = advancing_;
	tell([&](auto &s) { s.cascaded(cpu, tick_jiffy_[cpu], level, count); });
}

void replay_engine::tick(unsigned cpu, jiffies_t jiffy)
{
	scheme_worked();
	touch(cpu);
	softirq_done();
	run_ = {true, false, cpu, jiffy, 0, 0, 0};
	tick_jiffy_[cpu] = jiffy;
	second_of(cpu, jiffy).processed++;
	tell([&](auto &s) { s.tick(cpu, jiffy); });
}

void replay_engine::idle_ticks(unsigned cpu, jiffies_t first, std::uint64_t count)
{
	scheme_worked();
	touch(cpu);
	softirq_done();
	tick_jiffy_[cpu] = first;
	book_processed(cpu, first, count);
	tell([&](auto &s) { s.idle_ticks(cpu, first, count); });
}

void replay_engine::empty_cascades(unsigned level, std::uint64_t calls)
{
	scheme_worked();
	tell([&](auto &s) { s.empty_cascades(level, calls); });
}

void replay_engine::expired_from(timer_id t, unsigned cpu, jiffies_t jiffy, jiffies_t bucket)
{
	scheme_worked();
	if (in_run_)
		jiffy = run_label_;
	close_fire(t, jiffy);
	timer_rec &rec = timers_[t];
	rec.fired_unmatched = true;
	rec.fired_at = jiffy;
	rec.fired_bucket = bucket;
	rec.fired_guessed = in_run_ && run_was_guessed_;
	softirq_work_[booking_].expiries++;
	all_softirq_work_.expiries++;
	timer_ref r = ref(t);
	touch(cpu);
	credit(work_context::softirq, &r, cpu, jiffy);
	if (run_.open) {
		if (!run_.woke)
			run_.wake = t;
		run_.woke = true;
		run_.expired++;
	}
	tell([&](auto &s) { s.expired(r, cpu, jiffy, rec.expires); });
}

// ---- the end ---------------------------------------------------------------------

bool replay_engine::drain(jiffies_t limit, jiffies_t now, const std::function<void(std::uint64_t)> &guard)
{
	// Every base takes ticks while draining: an idle one would hold its
	// deferrable timers back until a wake that never comes. There are no
	// recorded ticks past the trace: the bases run every jiffy.
	scheme_->set_tick_driven(false);
	draining_ = true;
	touch_all();
	for (unsigned cpu = 0; cpu < setup_.cpus; cpu++)
		scheme_->set_idle(cpu, false, now);
	scheme_worked();
	bool all = true;
	std::uint64_t guarded_idle = 0;
	for (unsigned cpu = 0; cpu < setup_.cpus; cpu++) {
		const jiffies_t from = scheme_->clock(cpu);
		const jiffies_t unguarded_to = from + std::min(drain_unguarded_idle, ~jiffies_t{0} - from);
		// From one jiffy that may fire to the next: the base stops in
		// the jiffy its last timer fired in.
		while (scheme_->pending_on(cpu) && scheme_->clock(cpu) <= limit) {
			const std::uint64_t idle = scheme_->costs().skipped_idle;
			advance(cpu, std::min(scheme_->next_event(cpu), limit));
			if (scheme_->clock(cpu) > unguarded_to)
				guarded_idle += scheme_->costs().skipped_idle - idle;
			guard(guarded_idle);
		}
		all = all && !scheme_->pending_on(cpu);
	}
	softirq_done();
	draining_ = false;
	return all;
}

// Where the pending timers sit, CPU by CPU, read from the scheme's slots
// (wheel_inspection) where it has them: what `top` shows per CPU and level.
void replay_engine::pending_by_level(timer_counts &tc) const
{
	const unsigned levels = setup_.wheel ? setup_.levels : 0;
	for (unsigned l = 1; l <= levels; l++)
		tc.level_names.push_back(scheme_->level_name(l));
	tc.pending_on_cpu.assign(setup_.cpus, std::vector<std::uint64_t>(1 + levels, 0));
	for (unsigned cpu = 0; cpu < setup_.cpus; cpu++) {
		std::vector<std::uint64_t> &n = tc.pending_on_cpu[cpu];
		n[0] = scheme_->pending_on(cpu);
		if (!levels)
			continue;
		for (const wheel_base_state &b : setup_.wheel->inspect(cpu))
			for (std::size_t l = 0; l < b.levels.size() && l < levels; l++)
				for (const wheel_slot_state &slot : b.levels[l].slots)
					n[l + 1] += slot.timers.size();
	}
}

void replay_engine::finish(replay_report &r)
{
	for (timer_id t = 0; t < timers_.size(); t++)
		close_fire(t, 0, miss_reason::trace_ended);
	// Work no event of its base announced (another CPU's global timers
	// that a softirq looked at and found not yet due): the softirq's, no
	// callback's.
	touch_all();
	credit(work_context::softirq, nullptr, 0, tick_jiffy_.empty() ? 0 : tick_jiffy_[0]);
	r.scheme = scheme_->name();
	r.scheme_params = scheme_->params();
	r.timers.distinct = timers_.size();
	for (unsigned cpu = 0; cpu < setup_.cpus; cpu++)
		r.timers.pending_at_end += scheme_->pending_on(cpu);
	pending_by_level(r.timers);
	accounting_.fill(r, names_);
	if (!tick_jiffy_.empty())
		book_second_work(0);	// what no catch-up booked (none, as the engine goes)
	r.seconds_cut = r.seconds_cut || seconds_.is_cut();
	r.seconds_work = seconds_.take();
	r.timers.distinct = timers_.size();
	r.costs = scheme_->costs();
	if (totals_only_)
		close_split(split_ctx_);
	r.work.process = split_[static_cast<unsigned>(work_context::process)];
	r.work.softirq = split_[static_cast<unsigned>(work_context::softirq)];
	r.peak_scheme_bytes = scheme_->peak_memory_bytes();
}

}  // namespace timersim
