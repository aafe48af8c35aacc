#include "sim/hrtimer/hr_replay.h"

#include <algorithm>

#include "kernel/hrtimer_check.h"

namespace timersim {

namespace hr = kernel::hr;

namespace {

// A trace's expires beyond this many ns (31 years) is an epoch: a
// REALTIME (or TAI) timer's, when no hrtimer_init said its clock.
constexpr std::uint64_t epoch_sized = 1'000'000'000'000'000'000ull;

// How far past its deadline the model's device may be when a recorded
// event on its CPU shows that time has passed without the recorded
// interrupt: the timestamps' mapping to CLOCK_MONOTONIC and the
// interrupt's own latency stay well within it.
constexpr std::int64_t deadline_slack_ns = 100'000;

// Model interrupts one event may run on a CPU catching up (a device
// programmed again and again for a past expiry stops here).
constexpr unsigned max_catch_up = 64;

// How far ahead a cancel's partner (its expiry, or the start of a re-arm)
// is looked for on its CPU: in events, and in time. The kernel logs the
// two with the base lock held and interrupts off between them (a soft
// timer's expiry may take a nested interrupt), microseconds apart; most
// cancels are plain ones, and looking no further than this saves
// reading 64 events after each.
constexpr std::size_t cancel_lookahead = 64;

// 7.1 without hrtimer_rearm events: hr_summary.h's deferred_rearm_gap_ns.
constexpr std::uint64_t deferred_gap_ns = deferred_rearm_gap_ns;
constexpr std::uint64_t cancel_partner_within_ns = 200'000;
// The cause arm_not_captured: a recorded expiry this many times later
// behind its traced arm than any seen on its CPU before.
constexpr std::int64_t lateness_ahead = 10;

// The kernel stack a timer lies in, by its address (0: none). x86-64's
// kernel stacks are vmalloc'd (CONFIG_VMAP_STACK): THREAD_SIZE, 16 KiB
// (32 with KASAN), aligned to it, in the vmalloc space
// ffffc90000000000..ffffe8ffffffffff (4-level paging). A timer there lies
// in one 16 KiB block of one task's stack; a sleep's hrtimer is one
// (hrtimer_setup_sleeper_on_stack()). Only raw pointers show it (perf
// script, trace.dat): tracefs text hashes %p, and no hash falls in it by
// its place.
constexpr std::uint64_t vmalloc_start = 0xffffc90000000000ull;
constexpr std::uint64_t vmalloc_end = 0xffffe90000000000ull;
constexpr unsigned thread_size_shift = 14;

std::uint64_t on_stack_block(std::uint64_t ptr)
{
	return ptr >= vmalloc_start && ptr < vmalloc_end ? ptr >> thread_size_shift : 0;
}

}  // namespace

hrtimer_replay::hrtimer_replay(unsigned cpus)
{
	cpu_store_.resize(cpus);
	for (cpu_state &c : cpu_store_)
		cpus_.push_back(&c);
	figures_.resize(cpus);
	for (unsigned c = 0; c < cpus; c++)
		hr::hrtimer_cpu_base_init(&cpus_[c]->base, &machine_, c, hr::hrtimer_generation::soft_bases,
					  true);
}

hr::hrtimer_restart hrtimer_replay::fired(hr::hrtimer *t, void *context)
{
	auto *self = static_cast<hrtimer_replay *>(context);
	slot *s = reinterpret_cast<slot *>(t);
	s->fired = true;
	s->fired_irq = self->current_irq_;
	s->fired_cpu = self->running_cpu_;
	s->fired_unmatched = self->irq_unmatched_;
	s->fired_mono = self->machine_.now;
	s->fired_soft_run = self->cpus_[self->running_cpu_]->soft_runs + 1;
	if (s->owner_ran)
		self->end_not_traced(*s, lost_cause::owner_ran);
	if (self->what_ifs_)
		self->what_ifs_->model_expired(s->id, hr_what_ifs::queue_of(*t), t->node.expires);
	if (self->crediting_) {
		self->callback(s->function).wakeups++;
		self->crediting_ = false;
		self->irq_first_ = s->function;
	}
	self->irq_fired_++;
	if (self->observe_) {
		cpu_activity a;
		a.what = cpu_activity::kind::model_expiry;
		a.cpu = self->running_cpu_;
		a.start_ns = a.end_ns = self->ts_of(self->machine_.now);
		self->observe_(a, s->function);
	}
	// Periodic timers are re-armed by the recorded hrtimer_start that
	// follows their expiry.
	return hr::HRTIMER_NORESTART;
}

hrtimer_replay::slot &hrtimer_replay::new_slot(std::uint64_t ptr, std::uint32_t id)
{
	slot &s = slot_store_.emplace_back();
	s.ptr = ptr;
	s.id = id;
	slots_.push_back(&s);
	return s;
}

void hrtimer_replay::set_what_ifs(const hr_what_if_options &opt, unsigned hz,
				  std::function<std::string(std::uint32_t)> name_of)
{
	what_ifs_ = std::make_unique<hr_what_ifs>(unsigned(cpus_.size()), opt, hz, std::move(name_of));
}

void hrtimer_replay::set_deferred_rearm(bool on, bool rearm_events)
{
	sum_.deferred_rearm = on;
	rearm_recorded_ = rearm_events;
	for (cpu_state *c : cpus_)
		c->base.rearm_deferred = on;
}

bool hrtimer_replay::close_deferred(unsigned cpu, bool at_end)
{
	cpu_state &c = *cpus_[cpu];
	if (!c.base.deferred_rearm)
		return false;
	// A rearm found due only at a later event was made when the
	// interrupt's work ended: a device set then for a time since passed
	// fired then, not a minimum delta after that event.
	if (at_end)
		machine_.now = std::max<std::int64_t>(c.window_mono, 0);
	hr::hrtimer_rearm_deferred(&c.base);
	sum_.rearm.model_deferred++;
	// The kernel rearms before the softirqs run: the HRTIMER softirq the
	// interrupt raised runs now, as part of that interrupt.
	if (c.base.softirq_pending) {
		const std::uint64_t irq = current_irq_;
		const unsigned running = running_cpu_;
		const bool unmatched = irq_unmatched_;
		current_irq_ = c.irq_id;
		running_cpu_ = cpu;
		irq_unmatched_ = c.irq_unmatched;
		hr::hrtimer_run_softirq(&c.base);
		current_irq_ = irq;
		running_cpu_ = running;
		irq_unmatched_ = unmatched;
	}
	return true;
}

void hrtimer_replay::on_rearm(const sim_event &ev)
{
	hrtimer_cpu_figures &f = figures_[ev.cpu];
	cpu_state &c = *cpus_[ev.cpu];
	sum_.rearm_events = true;
	f.recorded_programs++;
	sum_.rearm.recorded++;
	if (ev.carries(EF_WAS_ARMED) && ev.deferred) {
		sum_.rearm.deferred++;
		// An interrupt that ran no hard timer before its rearm (the
		// HRTICK's lazy early one): the model's, at its entry.
		if (irq_events_ && c.in_irq && !c.irq_ran && offset_known_) {
			stop_tick_untraced(ev.cpu, mono_of(c.irq_entry_ns));
			run_interrupt(ev.cpu, mono_of(c.irq_entry_ns), true);
			c.irq_ran = true;
		}
		if (c.base.deferred_rearm) {
			if (offset_known_)
				machine_.now = std::max<std::int64_t>(mono_of(ev.ts_ns), 0);
			close_deferred(ev.cpu, false);
			sum_.rearm.by_recorded++;
		} else if (sum_.deferred_rearm) {
			sum_.rearm.no_model_interrupt++;
			return;
		}
	}
	// The traced value is what the kernel stored as expires_next (the
	// device itself may be set a minimum delta on, or a hang ahead).
	const std::int64_t recorded = std::int64_t(ev.expires);
	if (c.base.expires_next == recorded || c.base.dev.next_event == recorded) {
		f.programs_matched++;
		sum_.rearm.matched++;
	} else {
		judge_rearm_miss(ev.cpu, recorded);
	}
}

void hrtimer_replay::judge_rearm_miss(unsigned cpu, std::int64_t recorded)
{
	const hr::hrtimer_cpu_base &b = cpus_[cpu]->base;
	if (b.expires_next < recorded) {
		sum_.rearm.model_earlier++;
		return;
	}
	for (const hr::hrtimer_clock_base &base : b.clock_base)
		for (const kernel::rb_node *n = kernel::rb_first_cached(&base.active.rb_root); n; n = kernel::rb_next(n))
			if (hr::check_detail::timer_at(n)->node.expires - base.offset == recorded) {
				sum_.rearm.model_later++;
				return;
			}
	sum_.rearm.untraced_timer++;
}

void hrtimer_replay::set_up(slot &s, const sim_event &ev, unsigned cpu)
{
	const std::uint32_t before = what_ifs_ && s.set_up ? hr_what_ifs::place_of(s.timer) : 0;
	if (s.set_up && hr::hrtimer_is_queued(&s.timer)) {
		machine_.now = mono_of(ev.ts_ns);
		hr::hrtimer_try_to_cancel(s.timer.base->cpu_base, &s.timer);
	}
	// The reader's mode bits are the kernel's (both are
	// include/linux/hrtimer.h's): SOFT, HARD and REL taken as they are.
	static_assert(unsigned(HRM_SOFT) == hr::HRTIMER_MODE_SOFT && unsigned(HRM_HARD) == hr::HRTIMER_MODE_HARD &&
		      unsigned(HRM_REL) == hr::HRTIMER_MODE_REL &&
		      unsigned(HRM_LAZY_REARM) == hr::HRTIMER_MODE_LAZY_REARM);
	const unsigned mode = ev.carries(EF_HRTIMER_MODE)
				      ? ev.hrtimer_mode & (HRM_SOFT | HRM_HARD | HRM_REL | HRM_LAZY_REARM)
				      : 0;
	int clockid = s.clockid;
	if (ev.carries(EF_CLOCKID))
		clockid = ev.clockid;
	else if (ev.hrtimer == hrtimer_event::start && ev.expires > epoch_sized)
		clockid = hr::HR_CLOCK_REALTIME;
	s.clockid = clockid;
	hr::hrtimer_setup(&s.timer, &fired, this, clockid, mode, &cpus_[cpu]->base);
	s.soft = s.timer.is_soft;
	s.set_up = true;
	if (what_ifs_) {
		what_ifs_->moved(s.id, before, 0, 0);
		what_ifs_->setup(s.id, cpu, clockid, mode, s.function, mono_of(ev.ts_ns));
	}
}

std::int64_t hrtimer_replay::mono_of(std::uint64_t ts_ns) const
{
	return std::int64_t(ts_ns) + ts_to_mono_;
}

std::uint64_t hrtimer_replay::ts_of(std::int64_t mono) const
{
	return std::uint64_t(std::max<std::int64_t>(mono - ts_to_mono_, 0));
}

// Before the first expiry, the offset from the trace's timestamps to
// CLOCK_MONOTONIC comes from the first MONOTONIC expiry ahead.
void hrtimer_replay::find_offset(event_stream &ahead, const sim_event &ev)
{
	auto take = [&](const sim_event &e) {
		if (e.kind == event_kind::hrtimer && e.hrtimer == hrtimer_event::expire_entry &&
		    e.now < epoch_sized && e.carries(EF_TIMESTAMP)) {
			ts_to_mono_ = std::int64_t(e.now) - std::int64_t(e.ts_ns);
			offset_known_ = true;
		}
		return offset_known_;
	};
	if (take(ev))
		return;
	for (std::size_t i = 1; i <= 4096; i++) {
		const sim_event *e = ahead.peek(i);
		if (!e || take(*e))
			return;
	}
}

// The model's device on CPU came due before MONO (and no recorded
// interrupt came for it): it fires, as the kernel's would have.
void hrtimer_replay::catch_up(unsigned cpu, std::int64_t mono)
{
	stop_tick_untraced(cpu, mono - deadline_slack_ns - 1);
	// Inline, the test of the first interrupt: at most events none is due.
	const hr::hrtimer_cpu_base &b = cpus_[cpu]->base;
	if (b.dev.fires_at != hr::KTIME_MAX && b.dev.fires_at + deadline_slack_ns < mono)
		run_due(cpu, mono);
}

void hrtimer_replay::run_due(unsigned cpu, std::int64_t mono)
{
	hr::hrtimer_cpu_base &b = cpus_[cpu]->base;
	for (unsigned n = 0; n < max_catch_up && b.dev.fires_at != hr::KTIME_MAX &&
			     b.dev.fires_at + deadline_slack_ns < mono;
	     n++)
		run_interrupt(cpu, b.dev.fires_at, false);
}

void hrtimer_replay::run_interrupt(unsigned cpu, std::int64_t now, bool recorded, bool unarmed)
{
	cpu_state &c = *cpus_[cpu];
	hrtimer_cpu_figures &f = figures_[cpu];
	// 7.1: an interrupt still pending its rearm ended before this one.
	if (c.base.deferred_rearm)
		close_deferred(cpu);
	const bool due = c.base.dev.fires_at != hr::KTIME_MAX && c.base.dev.fires_at <= now;
	if (due)
		f.predicted_interrupts++;
	if (due && recorded)
		f.both++;
	irq_unmatched_ = due && !recorded;
	if (!due && recorded && unarmed)
		f.recorded_trace_caused++;
	machine_.now = std::max<std::int64_t>(now, 0);
	current_irq_ = next_irq_++;
	running_cpu_ = cpu;
	const std::int64_t deadline = c.base.dev.fires_at;
	crediting_ = true;
	irq_fired_ = 0;
	irq_first_ = 0;
	const device_writes before = writes_of(cpu);
	hr::hrtimer_interrupt(&c.base);
	crediting_ = false;
	// 6.x: inside a recorded interrupt, its callbacks' starts and
	// cancels are yet to come (fold_in_hrtirq()).
	c.irq_write = device_write::none;
	if (recorded && (!irq_events_ || c.in_irq) && !c.base.rearm_deferred)
		c.irq_write = last_write(cpu, before);
	c.irq_id = current_irq_;
	c.irq_unmatched = irq_unmatched_;
	c.window_mono = machine_.now;
	if (c.base.deferred_rearm) {
		// 7.1: the rearm (and the softirq after it) waits for the
		// interrupt's end: its exit where recorded, else the first event
		// past it on this CPU (for one the trace does not show, any).
		c.rearm_close_after = !recorded			 ? ts_of(machine_.now)
				      : rearm_recorded_ || (irq_events_ && c.in_irq) ? UINT64_MAX
								 : ts_of(machine_.now) + deferred_gap_ns;
	} else if (c.base.softirq_pending) {
		// The softirq runs at the interrupt's exit.
		hr::hrtimer_run_softirq(&c.base);
	}
	if (observe_) {
		cpu_activity a;
		a.what = cpu_activity::kind::model_interrupt;
		a.cpu = cpu;
		a.start_ns = a.end_ns = ts_of(machine_.now);
		a.count = irq_fired_;
		a.recorded = recorded;
		a.predicted = due;
		a.deadline_known = deadline != hr::KTIME_MAX;
		a.deadline_ns = a.deadline_known ? ts_of(deadline) : 0;
		observe_(a, irq_first_);
	}
}

void hrtimer_replay::apply_irq(const sim_event &ev)
{
	if (!note_time(ev))
		return;
	cpus_[ev.cpu]->after_exit = 0;
	if (!ev.timer_interrupt)
		return;
	cpu_state &c = *cpus_[ev.cpu];
	if (ev.kind == event_kind::irq_entry) {
		// No catching up here: this is the interrupt the device raised,
		// however late the CPU woke to take it.
		irq_events_ = true;
		c.in_irq = true;
		c.irq_ran = false;
		c.irq_entry_ns = ev.ts_ns;
		c.group_mono_now = 0;
		figures_[ev.cpu].recorded_interrupts++;
		return;
	}
	if (!c.in_irq)
		return;
	c.in_irq = false;
	c.irq_write = device_write::none;
	// An interrupt that ran no hard hrtimer (it raised the HRTIMER
	// softirq, or its device fired early) is still the model's
	// interrupt, at the time it was entered.
	if (!c.irq_ran && offset_known_) {
		stop_tick_untraced(ev.cpu, mono_of(c.irq_entry_ns));
		run_interrupt(ev.cpu, mono_of(c.irq_entry_ns), true);
	}
	if (what_ifs_ && offset_known_)
		what_ifs_->interrupt_activity(ev.cpu, mono_of(ev.ts_ns));
	// 7.1: where the trace records no rearm of its own, the interrupt
	// ends at its exit: 7.1 makes the rearm on the way out
	// (irqentry_exit(), or __irq_exit_rcu() before pending softirqs), so
	// what the CPU does next - an idle CPU's NOHZ tick stop in the idle
	// loop, tick_nohz_idle_stop_tick() - comes after it.
	if (c.base.deferred_rearm && c.rearm_close_after == UINT64_MAX && !rearm_recorded_)
		c.rearm_close_after = ev.ts_ns;
	if (c.base.deferred_rearm && offset_known_)
		c.window_mono = mono_of(ev.ts_ns);
}

void hrtimer_replay::apply_softirq(const sim_event &ev)
{
	if (!note_time(ev))
		return;
	// A softirq runs past the timer interrupt: its program is made.
	if (ev.kind == event_kind::softirq_entry) {
		cpus_[ev.cpu]->irq_write = device_write::none;
		cpus_[ev.cpu]->after_exit = 0;
	}
	// 7.1: the kernel rearms before it runs softirqs (any of them).
	if (ev.kind == event_kind::softirq_entry && cpus_[ev.cpu]->base.deferred_rearm)
		close_deferred(ev.cpu);
	if (ev.vec != HRTIMER_SOFTIRQ)
		return;
	if (ev.kind == event_kind::softirq_entry) {
		cpus_[ev.cpu]->in_soft = true;
		cpus_[ev.cpu]->soft_runs++;
	}
	else if (ev.kind == event_kind::softirq_exit)
		cpus_[ev.cpu]->in_soft = false;
}

void hrtimer_replay::apply_hrtimer(const sim_event &ev, event_stream &ahead)
{
	if (!note_time(ev))
		return;
	sum_.present = true;
	cpu_state &c = *cpus_[ev.cpu];
	// A RESTART: the start of the timer whose expire_exit was the CPU's
	// last event (its callback re-armed it inside the interrupt).
	const bool restart = ev.hrtimer == hrtimer_event::start && c.after_exit == ev.timer;
	c.after_exit = 0;
	// 7.1: a pending rearm whose interrupt has ended by now (a recorded
	// rearm of the way out closes it itself). Without interrupt events
	// only its expiries (to their exits, however long the callback ran)
	// and a RESTART are known to be inside it, as for 6.x's fold: any
	// other start or cancel comes after its rearm.
	const bool guessed_end = !irq_events_ && !rearm_recorded_ && c.base.deferred_rearm;
	const bool inside = guessed_end && (ev.hrtimer == hrtimer_event::expire_exit || restart);
	if (inside)
		c.rearm_close_after = std::max(c.rearm_close_after, ev.ts_ns + deferred_gap_ns);
	else if (guessed_end && (ev.hrtimer == hrtimer_event::start || ev.hrtimer == hrtimer_event::cancel))
		close_deferred(ev.cpu);
	if (!(ev.hrtimer == hrtimer_event::rearm && ev.deferred))
		close_deferred_if_past(ev.cpu, ev.ts_ns);
	if (!offset_known_)
		find_offset(ahead, ev);
	if (c.base.deferred_rearm && offset_known_)
		c.window_mono = mono_of(ev.ts_ns);	// part of the interrupt
	if (offset_known_ && ev.hrtimer != hrtimer_event::expire_entry)
		catch_up(ev.cpu, mono_of(ev.ts_ns));
	switch (ev.hrtimer) {
	case hrtimer_event::init: {
		slot &s = slot_for(ev);
		note_stack_owner(ev, s);
		s.owner_ran = false;
		if (ev.function)
			s.function = ev.function;
		// hrtimer_setup() of a queued timer would corrupt its queue: the
		// kernel removed it with no event the trace kept.
		if (s.started)
			end_not_traced(s);
		s.started = false;
		s.seen = true;
		set_up(s, ev, ev.cpu);
		return;
	}
	case hrtimer_event::start: {
		const device_writes before = writes_of(ev.cpu);
		on_start(ev, irq_events_ ? c.in_irq : restart);
		fold_in_hrtirq(ev.cpu, before, restart);
		return;
	}
	case hrtimer_event::cancel: {
		const device_writes before = writes_of(ev.cpu);
		on_cancel(ev, ahead);
		fold_in_hrtirq(ev.cpu, before, false);
		return;
	}
	case hrtimer_event::expire_entry:
		// A soft timer runs in the HRTIMER softirq, after the
		// interrupt's program (its run reprograms as it ends).
		if (slot_for(ev).soft)
			cpus_[ev.cpu]->irq_write = device_write::none;
		on_expire(ev);
		return;
	case hrtimer_event::expire_exit:
		slot_for(ev).running_on = 0;
		cpus_[ev.cpu]->after_exit = ev.timer;
		return;
	case hrtimer_event::start_expired: {
		// hrtimer_start_range_ns_user() found the timer it had just
		// queued first and already past its softexpires: the kernel
		// takes it off without running it (the caller returns at once).
		slot &s = slot_for(ev);
		sum_.starts_expired++;
		if (s.set_up && hr::hrtimer_is_queued(&s.timer)) {
			machine_.now = std::max<std::int64_t>(mono_of(ev.ts_ns), 0);
			remove(s);
		}
		return;
	}
	case hrtimer_event::rearm:
		// The device programmed for next_event (CLOCK_MONOTONIC): is
		// the model's set for the same time?
		on_rearm(ev);
		return;
	default:
		return;
	}
}

hrtimer_replay::device_write hrtimer_replay::last_write(unsigned cpu, const device_writes &before) const
{
	const device_writes now = writes_of(cpu);
	if (now.programs == before.programs && now.stops == before.stops)
		return device_write::none;
	return cpus_[cpu]->base.dev.next_event == hr::KTIME_MAX ? device_write::stop : device_write::program;
}

void hrtimer_replay::fold_in_hrtirq(unsigned cpu, const device_writes &before, bool restart)
{
	cpu_state &c = *cpus_[cpu];
	if (c.irq_write == device_write::none)
		return;
	// Without interrupt events, only a RESTART is known to be inside
	// the interrupt: the start of the timer whose expire_exit came just
	// before on this CPU. Anything else may be irq exit's work.
	if (!irq_events_ && !restart) {
		c.irq_write = device_write::none;
		return;
	}
	const device_write now = last_write(cpu, before);
	if (now == device_write::none)
		return;
	// The kernel's interrupt programs once, after this: the model's
	// earlier write for it is replaced by this one.
	hr::clock_event_device &dev = c.base.dev;
	(c.irq_write == device_write::stop ? dev.stops : dev.programs)--;
	c.irq_write = now;
}

void hrtimer_replay::end_not_traced(slot &s, lost_cause why)
{
	if (!s.fired || !s.fired_unmatched || !lost_irqs_.insert(s.fired_irq).second)
		return;
	hrtimer_cpu_figures &f = figures_[s.fired_cpu];
	f.predicted_trace_caused++;
	(why == lost_cause::owner_ran ? f.lost_owner_ran : f.lost_end_shown)++;
}

void hrtimer_replay::list_on_stack(slot &s)
{
	const std::uint64_t block = on_stack_block(s.ptr);
	if (!block || s.listed)
		return;
	s.listed = true;
	stacks_[block].push_back(&s);
}

// The timers of EV's stack last seen started, and due by EV's time (their
// hard expiry): the task that sleeps on one cannot run before its end, so
// that end came untraced. Those the model ran in an interrupt no recorded
// one matched are lost (now, or when the model runs them: fired()).
void hrtimer_replay::note_stack_owner(const sim_event &ev, const slot &s)
{
	const std::uint64_t block = on_stack_block(ev.timer);
	if (!block)
		return;
	auto it = stacks_.find(block);
	if (it == stacks_.end())
		return;
	std::vector<slot *> &list = it->second;
	std::erase_if(list, [&](slot *o) {
		if (o->started && o != &s &&
		    ev.ts_ns < ts_of(o->timer.node.expires - o->timer.base->offset))
			return false;
		if (o->started && o != &s) {
			o->owner_ran = true;
			end_not_traced(*o, lost_cause::owner_ran);
		}
		o->listed = o == &s && o->started;
		return !o->listed;
	});
}

void hrtimer_replay::on_start(const sim_event &ev, bool in_interrupt)
{
	slot &s = slot_for(ev);
	if (ev.function)
		s.function = ev.function;
	note_stack_owner(ev, s);
	s.owner_ran = false;
	if (!s.set_up)
		set_up(s, ev, ev.cpu);
	// was_armed=0: the kernel did not hold it queued, though the trace's
	// last event of it was a start.
	if (s.started && ev.carries(EF_WAS_ARMED) && !ev.was_armed)
		end_not_traced(s);
	s.started = true;
	list_on_stack(s);
	if (s.fired) {
		s.fired = false;
		sum_.simulated_only++;
	}
	sum_.starts++;
	callback(s.function).starts++;
	count_op(ev);
	s.seen = true;
	s.inferred = false;
	note_tick(s, ev.cpu);
	if (&s == cpus_[ev.cpu]->tick)
		note_tick_start(ev.cpu, mono_of(ev.ts_ns), std::int64_t(ev.expires));
	const std::uint64_t soft = ev.carries(EF_SOFTEXPIRES) ? ev.softexpires : ev.expires;
	const std::int64_t delta = ev.expires >= soft ? std::int64_t(ev.expires - soft) : 0;
	unsigned mode = hr::HRTIMER_MODE_ABS;
	if (ev.carries(EF_HRTIMER_MODE) && (ev.hrtimer_mode & HRM_PINNED))
		mode |= hr::HRTIMER_MODE_PINNED;
	machine_.now = std::max<std::int64_t>(mono_of(ev.ts_ns), 0);
	s.armed_mono = machine_.now;
	// switch_hrtimer_base() (kernel/time/hrtimer.c): a timer whose
	// callback is running stays on that CPU's base, pinned or not, and
	// the start from another CPU queues it there.
	unsigned cpu = ev.cpu;
	if (s.running_on && s.running_on - 1 != ev.cpu && s.running_on - 1 < cpus_.size()) {
		cpu = s.running_on - 1;
		sum_.starts_while_running_elsewhere++;
	}
	arm(s, cpu, std::int64_t(soft), delta, mode, machine_.now, in_interrupt);
}

// WHAT_IF_MONO: when the what-ifs are told it was armed (their lateness
// counts from there); IN_INTERRUPT: inside the recorded timer interrupt.
void hrtimer_replay::arm(slot &s, unsigned cpu, std::int64_t soft, std::int64_t delta, unsigned mode,
			 std::int64_t what_if_mono, bool in_interrupt)
{
	const std::uint32_t before = what_ifs_ ? hr_what_ifs::place_of(s.timer) : 0;
	hr::hrtimer_start_range_ns(&cpus_[cpu]->base, &s.timer, soft, delta, mode, nullptr);
	if (what_ifs_) {
		what_ifs_->moved(s.id, before, hr_what_ifs::place_of(s.timer), s.timer.node.expires);
		what_ifs_->start(s.id, cpu, s.function, soft, soft + delta, mode, what_if_mono,
				 machine_.offs_real, in_interrupt);
	}
}

void hrtimer_replay::remove(slot &s)
{
	const std::uint32_t before = what_ifs_ ? hr_what_ifs::place_of(s.timer) : 0;
	hr::hrtimer_try_to_cancel(s.timer.base->cpu_base, &s.timer);
	if (what_ifs_)
		what_ifs_->moved(s.id, before, hr_what_ifs::place_of(s.timer), 0);
}

void hrtimer_replay::note_tick(slot &s, unsigned cpu)
{
	if (tick_function_ && s.function == tick_function_)
		cpus_[cpu]->tick = &s;
}

// S expires in the recording, but the model does not hold it: the kernel
// armed it again without a trace event. The model is told so now, at the
// latest moment the re-arm can have been made, for the time the expiry
// shows: the tick's last grid point (TICK_NSEC steps from its traced
// expiries), any other timer's `now` (its range is not known).
void hrtimer_replay::rearm_untraced(slot &s, const sim_event &ev, bool realtime)
{
	if (!s.set_up) {
		if (realtime)
			s.clockid = hr::HR_CLOCK_REALTIME;
		set_up(s, ev, ev.cpu);
	}
	std::int64_t at = std::int64_t(ev.now);
	if (&s == cpus_[ev.cpu]->tick && tick_nsec_) {
		const std::int64_t step = std::int64_t(tick_nsec_);
		const std::int64_t phase = s.timer.node.expires % step;
		at -= ((at - phase) % step + step) % step;
	}
	s.inferred = true;
	// Armed the device's minimum delta before that time, so that the
	// device is programmed for it (one armed later would fire later).
	// The what-ifs, which run free, are told it at the expiry: its
	// lateness is not known.
	const std::int64_t min_delta = cpus_[ev.cpu]->base.dev.min_delta_ns;
	const std::int64_t told = machine_.now;
	machine_.now = std::max<std::int64_t>(told - (std::int64_t(ev.now) - at) - min_delta, 0);
	arm(s, ev.cpu, at, 0, hr::HRTIMER_MODE_ABS | hr::HRTIMER_MODE_PINNED, told);
}

// The recording shows that CPU's tick did not run by DUE_BY although the
// model holds it for then (time passed on the CPU, or its interrupt ran
// other timers first): the kernel stopped or moved it, and logged no event
// for it. The CPU's tick is known to re-arm untraced from now on, and the
// model takes it off until its next recorded expiry (stop_tick_untraced()
// found it queued and due by DUE_BY).
void hrtimer_replay::stop_tick(unsigned cpu)
{
	cpu_state &c = *cpus_[cpu];
	remove(*c.tick);
	if (c.tick_stopped) {
		// tick_stop was traced: the kernel stopped it; its cancel or
		// start after the stop left no event.
		sum_.tick_stops_applied++;
		return;
	}
	mark_tick_untraced(cpu);
	sum_.tick_stops_inferred++;
	figures_[cpu].tick_stops_inferred++;
}

void hrtimer_replay::apply_nohz(const sim_event &ev)
{
	if (!note_time(ev))
		return;
	cpu_state &c = *cpus_[ev.cpu];
	if (ev.kind == event_kind::tick_stop) {
		// Irq exit's work (or idle entry's): past the interrupt.
		c.irq_write = device_write::none;
		c.after_exit = 0;
		// trace_tick_stop(0, dependency) from check_tick_dependency():
		// the tick kept running.
		if (!ev.stop_success) {
			sum_.tick_stops_refused++;
			return;
		}
		sum_.tick_stops_recorded++;
		c.tick_stopped = true;
		return;
	}
	if (ev.kind != event_kind::cpu_idle)
		return;
	// cpu_id= is the CPU the event is about (the CPU column's, in the
	// kernel's idle loop).
	if (ev.idle_state == idle_exit_state) {
		sum_.idle_exits += c.idle;
		c.idle = false;
	} else if (!c.idle) {
		sum_.idle_entries++;
		c.idle = true;
	}
}

void hrtimer_replay::note_tick_start(unsigned cpu, std::int64_t mono, std::int64_t expires)
{
	cpu_state &c = *cpus_[cpu];
	if (!c.tick_stopped || !tick_nsec_ || expires - mono > std::int64_t(tick_nsec_))
		return;
	// Where the trace records the idle entries, the restart is at the
	// idle exit (a start inside idle is the stopped tick moved).
	if (c.idle)
		return;
	c.tick_stopped = false;
	sum_.tick_restarts_recorded++;
}

void hrtimer_replay::mark_tick_untraced(unsigned cpu)
{
	if (cpus_[cpu]->tick_untraced)
		return;
	cpus_[cpu]->tick_untraced = true;
	sum_.untraced_tick_cpus.push_back(cpu);
}

void hrtimer_replay::on_cancel(const sim_event &ev, event_stream &ahead)
{
	// What the cancel is part of: the next event of this timer on this CPU.
	enum class partner { none, expiry, rearm, start } found = partner::none;
	const std::uint64_t within = ev.ts_ns + cancel_partner_within_ns;
	// In registers for the scan (read through `ev`, they were loaded
	// again at each event).
	const std::uint32_t cpu = ev.cpu;
	const std::uint64_t timer = ev.timer;
	ahead.scan_ahead(1, cancel_lookahead, [&](const sim_event &n, std::size_t) {
		if (n.carries(EF_TIMESTAMP) && n.ts_ns > within)
			return false;
		if (n.timer != timer || n.cpu != cpu || n.kind != event_kind::hrtimer)
			return true;
		if (n.hrtimer == hrtimer_event::expire_entry)
			found = partner::expiry;
		// A re-arm logged as cancel + start, on kernels whose start does
		// not print was_armed (those that do log a re-arm as one start:
		// a cancel before such a start is a cancel).
		else if (n.hrtimer == hrtimer_event::start && !n.carries(EF_WAS_ARMED))
			found = partner::rearm;
		else if (n.hrtimer == hrtimer_event::start)
			found = partner::start;	// a cancel, then a start (the tick's restart)
		return false;
	});
	if (found == partner::expiry) {
		sum_.cancels_in_expiry++;	// __run_hrtimer's removal
		return;
	}
	if (found == partner::rearm) {
		sum_.rearms++;			// the start removes and re-queues it
		return;
	}
	slot &s = slot_for(ev);
	sum_.cancels++;
	callback(s.function).cancels++;
	count_op(ev);
	s.seen = true;
	s.started = false;
	if (s.fired) {
		s.fired = false;
		sum_.simulated_only++;
	}
	if (s.set_up && hr::hrtimer_is_queued(&s.timer)) {
		machine_.now = std::max<std::int64_t>(mono_of(ev.ts_ns), 0);
		remove(s);
		if (what_ifs_)
			what_ifs_->cancel(s.id, machine_.now, found == partner::start && &s == cpus_[cpu]->tick,
					  irq_events_ && cpus_[cpu]->in_irq ? int(cpu) : -1);
	}
}

// A recorded expiry, as __hrtimer_run_queues runs one: the timer, the
// clock it ran by, the interrupt (or softirq run) it belongs to and what
// the model ran in it, then the verdict against the model.
void hrtimer_replay::on_expire(const sim_event &ev)
{
	slot &s = slot_for(ev);
	if (ev.function)
		s.function = ev.function;
	note_tick(s, ev.cpu);
	s.started = false;
	const bool unseen = !s.seen;	// no event before: armed before the trace
	const bool untraced = rearmed_untraced(s, ev);
	const expiry_clock clock = clock_of_expiry(s, ev);
	if (untraced) {
		machine_.now = std::max<std::int64_t>(clock.mono, 0);
		rearm_untraced(s, ev, clock.realtime);
	}
	if (!(s.set_up ? s.soft : cpus_[ev.cpu]->in_soft))
		place_hard_expiry(s, ev, clock, untraced, unseen);
	else
		place_soft_expiry(s, ev, clock);
	note_realtime_offset(ev, clock.realtime);
	judge(&s, ev, ev.cpu, clock.mono);
	s.running_on = ev.cpu + 1;
	if (what_ifs_)
		what_ifs_->recorded_expiry(s.id, s.function, clock.mono, std::int64_t(ev.now),
					   s.set_up ? s.timer.softexpires : 0);
}

// Seen before, and the model holds it neither queued nor run: the kernel
// re-armed S without a trace event (the tick's is listed by its CPU).
bool hrtimer_replay::rearmed_untraced(slot &s, const sim_event &ev)
{
	const bool untraced = s.seen && !s.fired && !(s.set_up && hr::hrtimer_is_queued(&s.timer));
	s.seen = true;
	if (untraced && &s == cpus_[ev.cpu]->tick)
		mark_tick_untraced(ev.cpu);
	return untraced;
}

// The clock base S's expiry ran by (a REALTIME timer set up relative is a
// MONOTONIC one, as the kernel makes it) and its `now` on
// CLOCK_MONOTONIC. A MONOTONIC expiry's now also gives the trace
// timestamps' offset to that clock.
hrtimer_replay::expiry_clock hrtimer_replay::clock_of_expiry(const slot &s, const sim_event &ev)
{
	expiry_clock clock;
	clock.base = s.set_up ? s.timer.base->index % hr::HRTIMER_BASE_MONOTONIC_SOFT : 0;
	clock.realtime = s.set_up ? clock.base == hr::HRTIMER_BASE_REALTIME ||
					    clock.base == hr::HRTIMER_BASE_TAI
				  : ev.now > epoch_sized;
	if (!clock.realtime) {
		clock.mono = std::int64_t(ev.now);
		ts_to_mono_ = clock.mono - std::int64_t(ev.ts_ns);
		offset_known_ = true;
	} else {
		clock.mono = std::int64_t(ev.now) - machine_.offs_real;
		if (!sum_.realtime_samples)
			clock.mono = mono_of(ev.ts_ns);
	}
	return clock;
}

// Which recorded interrupt a hard expiry belongs to: the timer interrupt
// it is in, or (without irq events) the run of hard expiries on this CPU
// with this now. The first expiry of one runs the model's interrupt.
void hrtimer_replay::place_hard_expiry(slot &s, const sim_event &ev, const expiry_clock &clock,
				       bool untraced, bool unseen)
{
	cpu_state &c = *cpus_[ev.cpu];
	bool new_group;
	if (irq_events_ && c.in_irq) {
		new_group = !c.irq_ran;
		c.irq_ran = true;
	} else {
		new_group = !c.group_open || c.group_now != ev.now;
		if (new_group && !irq_events_)
			figures_[ev.cpu].recorded_interrupts++;
	}
	c.group_open = true;
	c.group_now = ev.now;
	if (what_ifs_)
		what_ifs_->interrupt_activity(ev.cpu, clock.mono, s.id);
	// 7.1, no interrupt events: the interrupt lasts past its expiries.
	if (c.base.deferred_rearm && !irq_events_ && !rearm_recorded_ && c.rearm_close_after != UINT64_MAX)
		c.rearm_close_after = std::max(c.rearm_close_after, ev.ts_ns + deferred_gap_ns);
	if (new_group) {
		c.group_mono_now = 0;
		// The kernel runs MONOTONIC's timers first, in expiry order: a
		// tick due before this one would have run first.
		if (&s != c.tick)
			stop_tick_untraced(ev.cpu, clock.base == hr::HRTIMER_BASE_MONOTONIC && s.set_up
							    ? std::min(clock.mono, s.timer.softexpires - 1)
							    : clock.mono);
		c.irq_mono = clock.mono;
		run_interrupt(ev.cpu, clock.mono, true, unseen || untraced);
	} else if (untraced && hr::hrtimer_is_queued(&s.timer)) {
		// Re-armed untraced into an interrupt already run: it runs in
		// that interrupt.
		remove(s);
		s.fired = true;
		s.fired_unmatched = false;
		s.fired_irq = c.irq_id;
		s.fired_cpu = ev.cpu;
	}
}

// A soft expiry belongs to the HRTIMER softirq of the interrupt before
// it. A soft timer the model still holds, due by its softexpires: the
// recorded interrupt that raised this softirq ran no hard timer (or the
// trace has no irq events to say which it was), and the model runs one.
void hrtimer_replay::place_soft_expiry(slot &s, const sim_event &ev, const expiry_clock &clock)
{
	// 7.1: the softirq runs after the interrupt's rearm.
	if (cpus_[ev.cpu]->base.deferred_rearm)
		close_deferred(ev.cpu);
	if (!s.set_up || !hr::hrtimer_is_queued(&s.timer) || s.timer.softexpires > std::int64_t(ev.now))
		return;
	if (!irq_events_)
		figures_[ev.cpu].recorded_interrupts++;
	run_interrupt(ev.cpu, clock.mono, true);
}

// An interrupt that ran timers of both MONOTONIC and REALTIME shows the
// offset between the two clocks.
void hrtimer_replay::note_realtime_offset(const sim_event &ev, bool realtime)
{
	cpu_state &c = *cpus_[ev.cpu];
	if (!realtime) {
		c.group_mono_now = ev.now;
		return;
	}
	if (!c.group_mono_now)
		return;
	const std::int64_t off = std::int64_t(ev.now) - std::int64_t(c.group_mono_now);
	if (!sum_.realtime_samples)
		realtime_min_ = realtime_max_ = off;
	realtime_min_ = std::min(realtime_min_, off);
	realtime_max_ = std::max(realtime_max_, off);
	sum_.realtime_samples++;
	machine_.offs_real = off;
}

// docs/fidelity.md "hrtimers: the misses by cause": the first that
// applies names it. True when it is the trace's (arm_not_captured).
bool hrtimer_replay::count_other_cause(const slot &s, const sim_event &ev, unsigned cpu, bool inferred)
{
	hrtimer_miss_causes &m = sum_.miss_causes;
	const cpu_state &c = *cpus_[cpu];
	if (s.soft && s.fired_cpu == cpu && !s.fired_unmatched && c.in_soft && s.fired_soft_run == c.soft_runs) {
		// The interrupt that raised this HRTIMER softirq run is the one
		// the model ran it in; a later interrupt came before the run.
		m.softirq_after_later_interrupt++;
	} else if (!s.soft && s.fired_cpu == cpu && s.fired_mono >= s.timer.softexpires &&
		   std::int64_t(ev.now) <= s.timer.node.expires && s.fired_mono < std::int64_t(ev.now)) {
		// Both in its [softexpires, expires] range: the kernel's run of
		// the queue (ordered by expires) stopped at a timer not yet due
		// by its softexpires that lay ahead of this one.
		m.slack_order++;
	} else if (!inferred && arm_not_captured(s, ev, cpu)) {
		m.arm_not_captured++;
		return true;
	} else {
		m.unexplained++;
	}
	return false;
}

// The kernel ran an arm of S the capture does not hold (the trace's):
// the recorded expiry came behind the traced arm's softexpires by more
// than that arm was made ahead (a periodic timer's period: the callback
// that re-arms it was due to have run by then, its run and re-arm not
// captured) and by more than lateness_ahead times any lateness seen on
// this CPU before, in expiries the model ran in the same interrupt (no
// timer there ran nearly so late: that the kernel ran this one so late
// is not what the trace shows of it). A model that fires a traced arm in
// the wrong interrupt, with the kernel running it about when due, meets
// neither.
bool hrtimer_replay::arm_not_captured(const slot &s, const sim_event &ev, unsigned cpu) const
{
	if (!s.set_up || !s.timer.softexpires)
		return false;
	const std::int64_t late = std::int64_t(ev.now) - s.timer.softexpires;
	const std::int64_t ahead = s.timer.softexpires - s.timer.base->offset - s.armed_mono;
	return ahead > 0 && late > ahead && late > lateness_ahead * cpus_[cpu]->lateness_seen;
}

void hrtimer_replay::count_late_cause(const slot &s, unsigned cpu, std::int64_t mono)
{
	hrtimer_miss_causes &m = sum_.miss_causes;
	const cpu_state &c = *cpus_[cpu];
	const std::int64_t soft_mono = s.timer.softexpires - s.timer.base->offset;
	if (s.timer.base->cpu_base != &c.base) {
		m.queued_on_other_cpu++;
	} else if (!s.soft && c.in_irq && c.irq_ran && mono > c.irq_mono && soft_mono <= mono) {
		// hrtimer_interrupt()'s retry: the first pass ran at irq_mono
		// (where S was not due, or lay behind a timer not due, by
		// expires), this one with a later now; the model's interrupt
		// has one now (its callbacks take no time).
		m.later_pass++;
	} else {
		m.unexplained++;
	}
}

void hrtimer_replay::judge(slot *s, const sim_event &ev, unsigned cpu, std::int64_t mono)
{
	sum_.expiries++;
	hrtimer_callback_figures &cb = callback(s->function);
	cb.expiries++;
	const bool inferred = s->inferred;
	s->inferred = false;
	if (inferred)
		sum_.rearmed_untraced++;
	// Behind the traced arm's softexpires (none for an inferred arm).
	const bool timed = s->set_up && !inferred && s->timer.softexpires;
	const std::int64_t late = timed ? std::int64_t(ev.now) - s->timer.softexpires : -1;
	bool arm_ran = true;	// the kernel ran the arm the model holds
	if (s->fired) {
		s->fired = false;
		if (s->fired_irq == cpus_[cpu]->irq_id && s->fired_cpu == cpu) {
			sum_.same_interrupt++;
			cb.same_interrupt++;
			if (inferred)
				sum_.rearmed_untraced_same++;
			cpus_[cpu]->lateness_seen = std::max(cpus_[cpu]->lateness_seen, late);
		} else {
			sum_.other_interrupt++;
			arm_ran = !count_other_cause(*s, ev, cpu, inferred);
		}
	} else if (s->set_up && hr::hrtimer_is_queued(&s->timer)) {
		sum_.late++;
		count_late_cause(*s, cpu, mono);
		remove(*s);
	} else {
		sum_.not_armed++;
	}
	// Not of an arm the capture lacks: its lateness is not the kernel's.
	if (late >= 0 && arm_ran) {
		sum_.lateness_count++;
		lateness_sum_ += double(late);
		sum_.lateness_max_ns = std::max(sum_.lateness_max_ns, late);
	}
}

hrtimer_summary hrtimer_replay::finish(const std::function<std::string(std::uint32_t)> &name_of)
{
	for (unsigned c = 0; c < cpus_.size(); c++)
		close_deferred(c);
	hrtimer_summary r = sum_;
	r.ops_by_second_cut = ops_.is_cut();
	r.ops_by_second = ops_.take();
	std::sort(r.untraced_tick_cpus.begin(), r.untraced_tick_cpus.end());
	r.irq_events = irq_events_;
	r.timers = slots_.size();
	r.lateness_mean_ns = r.lateness_count ? lateness_sum_ / double(r.lateness_count) : 0;
	if (r.realtime_samples) {
		r.realtime_offset_ns = machine_.offs_real;
		r.realtime_spread_ns = realtime_max_ - realtime_min_;
	}
	for (std::size_t c = 0; c < cpus_.size(); c++) {
		const hr::hrtimer_cpu_base &b = cpus_[c]->base;
		hrtimer_cpu_figures f = figures_[c];
		f.device_programs = b.dev.programs;
		static_assert(hrtimer_clock_bases == hr::HRTIMER_MAX_CLOCK_BASES);
		for (unsigned i = 0; i < hr::HRTIMER_MAX_CLOCK_BASES; i++)
			for (const kernel::rb_node *n = kernel::rb_first_cached(&b.clock_base[i].active.rb_root); n;
			     n = kernel::rb_next(n))
				f.pending[i]++;
		r.cpus.push_back(f);
		r.enqueues += b.costs.enqueues;
		r.removals += b.costs.removals;
		r.reprograms += b.costs.reprograms;
		r.force_reprograms += b.costs.force_reprograms;
		r.retries += b.nr_retries;
		r.hangs += b.nr_hangs;
		std::uint64_t rot = 0;
		kernel::timerqueue_costs q = hr::hrtimer_queue_costs(&b, &rot);
		r.comparisons += q.comparisons;
		r.max_depth = std::max<std::uint64_t>(r.max_depth, q.max_depth);
		r.rotations += rot;
	}
	idle_not_captured(r);
	for (std::uint32_t id = 0; id < by_function_.size(); id++) {
		hrtimer_callback_figures f = by_function_[id];
		if (!f.starts && !f.expiries && !f.cancels)
			continue;
		f.function = id ? name_of(id) : "(unknown)";
		r.callbacks.push_back(f);
	}
	std::stable_sort(r.callbacks.begin(), r.callbacks.end(), [](const auto &a, const auto &b) {
		return a.expiries != b.expiries ? a.expiries > b.expiries : a.function < b.function;
	});
	if (what_ifs_) {
		std::uint64_t recorded = 0;
		for (const hrtimer_cpu_figures &f : figures_)
			recorded += f.recorded_interrupts;
		what_ifs_->finish(recorded, mono_of(first_ts_), mono_of(last_ts_), r);
	}
	return r;
}

// A CPU of a trace that records events of other CPUs' idle task but none
// of its own, whose tick the model found stopped with no event for it (so
// it did idle), had its idle left out of the capture: the interrupts that
// woke it are missing (linux-6.18-tcp's perf script records 23,427 events
// of CPU 0's idle task, swapper, and none of CPU 1's in 30 s). The model's
// interrupts there that no recorded one matched, and no later event
// proves lost, are the trace's too, counted apart by that cause.
void hrtimer_replay::idle_not_captured(hrtimer_summary &r) const
{
	std::uint64_t idle_events = 0;
	for (const hrtimer_cpu_figures &f : r.cpus)
		idle_events += f.idle_task_events;
	if (!idle_events)
		return;
	for (hrtimer_cpu_figures &f : r.cpus) {
		// Said of a CPU only where it counts: with interrupts left apart
		// (tests/data/busy-idle-trace's CPU 0, a hog that never idles, has
		// none of its idle task either, and one tick stop inferred).
		const std::uint64_t left = f.predicted_interrupts - f.both - f.predicted_trace_caused;
		f.idle_uncaptured = !f.idle_task_events && f.tick_stops_inferred && left;
		if (!f.idle_uncaptured)
			continue;
		f.idle_not_captured = left;
		f.predicted_trace_caused += left;
	}
}

}  // namespace timersim
