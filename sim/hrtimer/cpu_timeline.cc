#include "sim/hrtimer/cpu_timeline.h"

namespace timersim {

const char *wake_cause_name(wake_cause c)
{
	switch (c) {
	case wake_cause::none:		return "none";
	case wake_cause::hrtimer:	return "hrtimer";
	case wake_cause::tick:		return "tick";
	case wake_cause::wheel:		return "wheel";
	}
	return "?";
}

cpu_timeline::cpu_timeline(name_fn name_of, tick_fn is_tick, activity_fn on_activity, wakeup_fn on_wakeup)
	: name_of_(std::move(name_of)), is_tick_(std::move(is_tick)), on_activity_(std::move(on_activity)),
	  on_wakeup_(std::move(on_wakeup))
{
}

cpu_timeline::cpu_state &cpu_timeline::cpu(std::uint32_t n)
{
	if (cpus_.size() <= n)
		cpus_.resize(std::size_t(n) + 1);
	return cpus_[n];
}

void cpu_timeline::open_wakeup(cpu_state &c, std::uint32_t n, std::uint64_t ts, bool irq_recorded)
{
	settle(c);
	c.open = true;
	c.wake = pending_wakeup{};
	c.wake.w.cpu = n;
	c.wake.w.entry_ns = c.wake.w.exit_ns = ts;
	c.wake.w.irq_recorded = irq_recorded;
}

void cpu_timeline::settle(cpu_state &c)
{
	if (!c.open)
		return;
	c.open = false;
	pending_wakeup &p = c.wake;
	if (p.waiting_wheel) {
		p.w.cause = wake_cause::tick;
		p.cause = p.tick;
	}
	p.w.first = name_of_(p.first);
	p.w.cause_function = name_of_(p.cause);
	p.w.model_first = name_of_(p.model_first);
	on_wakeup_(p.w);
}

void cpu_timeline::model(cpu_activity a, std::uint32_t function)
{
	cpu_state &c = cpu(a.cpu);
	a.function = name_of_(function);
	a.tick = a.what == cpu_activity::kind::model_expiry && function && is_tick_(function);
	if (a.what == cpu_activity::kind::model_interrupt && a.recorded) {
		// Without irq events this is how a recorded interrupt is known:
		// its first hard expiry is the event being applied.
		if (!irq_events_ && !c.in_irq) {
			open_wakeup(c, a.cpu, a.start_ns, false);
			c.group_starting = true;
			c.in_group = false;
		}
		if (c.open && (c.in_irq || !irq_events_) && !c.wake.w.modelled) {
			wakeup &w = c.wake.w;
			w.modelled = true;
			w.predicted = a.predicted;
			w.deadline_known = a.deadline_known;
			w.deadline_ns = a.deadline_ns;
			w.model_expiries = a.count;
			c.wake.model_first = function;
		}
	}
	on_activity_(a);
}

void cpu_timeline::softirq_closed(const measured::softirq_run &run)
{
	cpu_activity a;
	a.what = cpu_activity::kind::softirq_run;
	a.cpu = run.cpu;
	a.start_ns = run.entry_ns;
	a.end_ns = run.exit_ns;
	a.own_ns = run.own_ns;
	a.vec = run.vec;
	a.count = run.callbacks;
	on_activity_(a);
	cpu_state &c = cpu(run.cpu);
	wakeup &w = c.wake.w;
	if (c.open && run.vec == TIMER_SOFTIRQ && !w.softirq && run.entry_ns >= w.entry_ns) {
		w.softirq = true;
		w.softirq_entry_ns = run.entry_ns;
		w.softirq_own_ns = run.own_ns;
		w.softirq_callbacks_ns = run.callbacks_ns;
		w.softirq_callbacks = run.callbacks;
	}
}

void cpu_timeline::expiry_entry(cpu_state &c, const sim_event &ev, bool hrtimer)
{
	const std::uint32_t vec = c.in_irq ? 0 : c.softirq_vec;
	c.expiries.push_back({ev.timer, ev.ts_ns, ev.function, vec, hrtimer});
	if (!c.open)
		return;
	pending_wakeup &p = c.wake;
	if (hrtimer) {
		// Which expiries are the interrupt's: those inside its recorded
		// entry..exit, or the hard ones sharing the first one's now.
		bool inside = c.in_irq;
		if (!irq_events_) {
			if (c.group_starting) {
				c.group_starting = false;
				c.in_group = true;
				c.group_now = ev.now;
			}
			inside = c.in_group && ev.now == c.group_now && !c.softirq_vec;
			c.in_group = inside;
		}
		if (!inside)
			return;
		p.w.expiries++;
		if (p.w.expiries > 1)
			return;
		p.first = ev.function;
		p.w.first_tick = ev.function && is_tick_(ev.function);
		if (p.w.first_tick) {
			p.waiting_wheel = true;
			p.tick = ev.function;
		} else {
			p.w.cause = wake_cause::hrtimer;
			p.cause = ev.function;
		}
		return;
	}
	// A wheel timer run by the TIMER softirq after the tick: the tick
	// ran for it.
	if (p.waiting_wheel && !c.in_irq && (!softirq_events_ || c.softirq_vec == TIMER_SOFTIRQ)) {
		p.waiting_wheel = false;
		p.w.cause = wake_cause::wheel;
		p.cause = ev.function;
	}
}

void cpu_timeline::expiry_exit(cpu_state &c, const sim_event &ev, bool hrtimer)
{
	// The innermost open expiry of this timer: one whose exit the trace
	// lost is dropped with it.
	for (std::size_t i = c.expiries.size(); i > 0; i--) {
		const open_expiry e = c.expiries[i - 1];
		if (e.timer != ev.timer || e.hrtimer != hrtimer)
			continue;
		c.expiries.resize(i - 1);
		cpu_activity a;
		a.what = cpu_activity::kind::expiry;
		a.cpu = ev.cpu;
		a.start_ns = e.entry_ns;
		a.end_ns = ev.ts_ns >= e.entry_ns ? ev.ts_ns : e.entry_ns;
		a.own_ns = a.end_ns - a.start_ns;
		a.vec = e.vec;
		a.hrtimer = hrtimer;
		a.tick = hrtimer && e.function && is_tick_(e.function);
		a.function = name_of_(e.function);
		on_activity_(a);
		return;
	}
}

void cpu_timeline::add(const sim_event &ev)
{
	if (!ev.carries(EF_TIMESTAMP))
		return;
	switch (ev.kind) {
	case event_kind::irq_entry:
		if (!ev.timer_interrupt)
			return;
		irq_events_ = true;
		{
			cpu_state &c = cpu(ev.cpu);
			open_wakeup(c, ev.cpu, ev.ts_ns, true);
			c.in_irq = true;
		}
		return;
	case event_kind::irq_exit: {
		if (!ev.timer_interrupt)
			return;
		cpu_state &c = cpu(ev.cpu);
		if (c.in_irq && c.open)
			c.wake.w.exit_ns = ev.ts_ns;
		c.in_irq = false;
		return;
	}
	case event_kind::softirq_entry:
		if (ev.vec == TIMER_SOFTIRQ || ev.vec == HRTIMER_SOFTIRQ) {
			softirq_events_ = true;
			cpu(ev.cpu).softirq_vec = ev.vec;
		}
		return;
	case event_kind::softirq_exit:
		if (ev.vec == TIMER_SOFTIRQ || ev.vec == HRTIMER_SOFTIRQ)
			cpu(ev.cpu).softirq_vec = 0;
		return;
	case event_kind::timer_expire_entry:
		expiry_entry(cpu(ev.cpu), ev, false);
		return;
	case event_kind::timer_expire_exit:
		expiry_exit(cpu(ev.cpu), ev, false);
		return;
	case event_kind::hrtimer:
		if (ev.hrtimer == hrtimer_op::expire_entry)
			expiry_entry(cpu(ev.cpu), ev, true);
		else if (ev.hrtimer == hrtimer_op::expire_exit)
			expiry_exit(cpu(ev.cpu), ev, true);
		return;
	default:
		return;
	}
}

void cpu_timeline::finish()
{
	for (cpu_state &c : cpus_)
		settle(c);
}

}  // namespace timersim
