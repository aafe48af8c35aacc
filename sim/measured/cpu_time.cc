#include "sim/measured/cpu_time.h"

#include <algorithm>

namespace timersim::measured {

namespace {

bool is_timer_vec(std::uint32_t vec)
{
	return vec == std::uint32_t(softirq_vec::timer) || vec == std::uint32_t(softirq_vec::hrtimer);
}

}  // namespace

cpu_time::callback_samples &cpu_time::callback(std::uint32_t id)
{
	if (callbacks_.size() <= id) {
		const std::size_t from = callbacks_.size();
		callbacks_.resize(std::size_t(id) + 1);
		if (bounded_)
			for (std::size_t i = from; i < callbacks_.size(); i++)
				callbacks_[i].runs.bound();
	}
	return callbacks_[id];
}

// A callback starts on a CPU finding its interrupt's cause: the first one
// in the interrupt, or after the tick the first wheel timer in the TIMER
// softirq that follows it.
void cpu_time::woke(cpu_state &c, const cost_event &ev)
{
	if (c.wake == waking::in_irq) {
		c.wake_ran = true;
		if (!ev.tick) {
			caused(callback(ev.function), c);
			c.irq_credit = ev.function;	// its time when it closes
			c.wake = waking::no;
		} else {
			c.wake = waking::after_tick;
			c.wake_tick = ev.function;
		}
		return;
	}
	if (c.wake == waking::after_tick && !c.open.empty() &&
	    c.open.back().kind == cost_kind::softirq_entry &&
	    c.open.back().vec == std::uint32_t(softirq_vec::timer)) {
		callback_samples &cb = callback(ev.function);
		caused(cb, c);
		cb.wakeup_ns += c.last_irq_ns;
		c.wake = waking::no;
	}
}

// The CPU's last interrupt found no later cause: it was the tick's, or,
// with no callback at all, nobody's.
void cpu_time::settle_wake(cpu_state &c)
{
	if (c.wake == waking::after_tick) {
		callback_samples &cb = callback(c.wake_tick);
		caused(cb, c);
		cb.wakeup_ns += c.last_irq_ns;
	} else if (c.wake == waking::in_irq && !c.wake_ran) {
		wakeups_without_expiry_++;
		c.wakeups_without_expiry++;
		c.irq_credit = credit_none;
	}
	c.wake = waking::no;
}

cpu_time::cpu_state &cpu_time::add_cpu(std::uint32_t n)
{
	const std::size_t from = cpus_.size();
	cpus_.resize(std::size_t(n) + 1);
	ncpus_ = n + 1;
	if (bounded_)
		for (std::size_t i = from; i < cpus_.size(); i++) {
			cpus_[i].timer_softirq.runs.bound();
			cpus_[i].hrtimer_softirq.runs.bound();
			cpus_[i].timer_irqs.bound();
		}
	return cpus_[n];
}

const softirq_run *cpu_time::add(const cost_event &ev)
{
	if (!any_)
		first_ns_ = ev.ts_ns;
	any_ = true;
	last_ns_ = std::max(last_ns_, ev.ts_ns);
	cpu_state &c = cpu(ev.cpu);
	// What an entry opens, pushed at one place below (from three, the
	// push went out of line).
	frame opened{ev.kind, ev.ts_ns, 0, 0, 0, 0, false, 0, no_callback};
	// Which measured events the trace holds (softirqs_, interrupts_,
	// callbacks_seen_) is noted in the one switch.
	switch (ev.kind) {
	case cost_kind::softirq_raise:
		if (ev.vec == std::uint32_t(softirq_vec::timer))
			c.timer_softirq.raised++;
		else if (ev.vec == std::uint32_t(softirq_vec::hrtimer))
			c.hrtimer_softirq.raised++;
		else
			return nullptr;
		softirqs_ = true;
		return nullptr;
	case cost_kind::softirq_entry:
		if (!is_timer_vec(ev.vec))
			return nullptr;		// another softirq: not the timer code's
		softirqs_ = true;
		opened.vec = ev.vec;
		if (ev.vec == std::uint32_t(softirq_vec::hrtimer))
			c.hr_run_callbacks.clear();	// a run cut before its exit shared nothing
		break;
	case cost_kind::hardirq_entry:
		if (ev.timer_interrupt) {
			interrupts_ = true;
			settle_wake(c);
			c.wake = waking::in_irq;
			c.wake_ran = false;
			wakeups_++;
			c.wakeups++;
		}
		opened.timer_interrupt = ev.timer_interrupt;
		break;
	case cost_kind::callback_entry:
		callbacks_seen_ = true;
		woke(c, ev);
		opened.function = ev.function;
		if (!c.open.empty() && c.open.back().kind == cost_kind::hardirq_entry &&
		    c.open.back().first_callback == no_callback)
			c.open.back().first_callback = ev.function;
		break;
	case cost_kind::hardirq_exit:
		// A timer interrupt that ran no callback ends without a cause.
		if (ev.timer_interrupt) {
			interrupts_ = true;
			if (c.wake == waking::in_irq)
				settle_wake(c);
		}
		return close(c, cost_kind::hardirq_entry, ev);
	case cost_kind::softirq_exit:
		if (!is_timer_vec(ev.vec))
			return nullptr;
		softirqs_ = true;
		return close(c, cost_kind::softirq_entry, ev);
	case cost_kind::callback_exit:
		callbacks_seen_ = true;
		return close(c, cost_kind::callback_entry, ev);
	}
	c.open.push_back(opened);
	return nullptr;
}

// An exit closes the innermost open frame of its kind. Frames above it
// were left open by events the trace lost or never had (an entry whose exit
// was not recorded): they are cut, not timed.
const softirq_run *cpu_time::close(cpu_state &c, cost_kind entry, const cost_event &ev)
{
	std::size_t i = c.open.size();
	while (i > 0) {
		const frame &f = c.open[i - 1];
		if (f.kind == entry && (entry != cost_kind::softirq_entry || f.vec == ev.vec))
			break;
		i--;
	}
	if (i == 0) {
		// Nothing open of this kind: the run began before the trace did.
		if (c.open.empty())
			cut_++;
		else
			unbalanced_++;
		return nullptr;
	}
	if (i != c.open.size()) [[unlikely]] {
		cut_ += c.open.size() - i;
		c.open.resize(i);
	}
	const frame f = c.open.back();
	c.open.pop_back();
	std::uint64_t wall = ev.ts_ns >= f.start_ns ? ev.ts_ns - f.start_ns : 0;
	std::uint64_t own = wall >= f.nested_ns ? wall - f.nested_ns : 0;
	closed(c, f, own);
	const softirq_run *run = nullptr;
	if (f.kind == cost_kind::softirq_entry) {
		last_run_ = {ev.cpu, f.vec, f.start_ns, ev.ts_ns, own, std::min(f.callbacks_ns, own),
			     f.callbacks};
		run = &last_run_;
	} else if (f.kind == cost_kind::hardirq_entry && f.timer_interrupt) {
		last_interrupt_ = {f.start_ns, own - std::min(f.callbacks_ns, own), f.first_callback};
		interrupt_closed_ = true;
	}
	// What encloses this frame: a hard irq's whole time is not the
	// enclosing frame's; a callback's own time is its softirq run's
	// callback time.
	if (c.open.empty())
		return run;
	frame &outer = c.open.back();
	if (f.kind == cost_kind::hardirq_entry) {
		// Down to the nearest enclosing hard irq, whose own wall time
		// (this one included) its enclosers get when it closes.
		for (std::size_t k = c.open.size(); k > 0; k--) {
			c.open[k - 1].nested_ns += wall;
			if (c.open[k - 1].kind == cost_kind::hardirq_entry)
				break;
		}
	} else if (f.kind == cost_kind::callback_entry &&
		   (outer.kind == cost_kind::softirq_entry || outer.kind == cost_kind::hardirq_entry)) {
		outer.callbacks_ns += own;
		outer.callbacks++;
		if (outer.kind == cost_kind::softirq_entry && outer.vec == std::uint32_t(softirq_vec::hrtimer))
			c.hr_run_callbacks.push_back(f.function);
	}
	return run;
}

void cpu_time::closed(cpu_state &c, const frame &f, std::uint64_t own_ns)
{
	switch (f.kind) {
	case cost_kind::softirq_entry: {
		const bool timer = f.vec == std::uint32_t(softirq_vec::timer);
		samples &s = timer ? c.timer_softirq : c.hrtimer_softirq;
		const std::uint64_t callbacks_ns = std::min(f.callbacks_ns, own_ns);
		s.runs.add(own_ns);
		s.callbacks_ns += callbacks_ns;
		if (second_cost *sec = second_of(std::uint32_t(&c - cpus_.data()), f.start_ns)) {
			(timer ? sec->timer_softirq_ns : sec->hrtimer_softirq_ns) += own_ns - callbacks_ns;
			sec->callbacks_ns += callbacks_ns;
		}
		if (!timer)
			share_hrtimer_run(c, own_ns - callbacks_ns);
		return;
	}
	case cost_kind::hardirq_entry:
		if (f.timer_interrupt) {
			c.timer_irqs.add(own_ns);
			if (second_cost *sec = second_of(std::uint32_t(&c - cpus_.data()), f.start_ns))
				sec->interrupts_ns += own_ns;
			// Its cause is credited its time less the callbacks that
			// ran in it (the tick's, an hrtimer's: their own rows).
			c.last_irq_ns = own_ns - std::min(f.callbacks_ns, own_ns);
			if (c.irq_credit == credit_none)
				wakeups_without_expiry_ns_ += c.last_irq_ns;
			else if (c.irq_credit != no_credit)
				callback(c.irq_credit).wakeup_ns += c.last_irq_ns;
			c.irq_credit = no_credit;
		} else {
			c.other_irqs++;
			c.other_irq_ns += own_ns;
		}
		return;
	case cost_kind::callback_entry: {
		callback_samples &cb = callback(f.function);
		cb.runs.add(own_ns);
		// Where it ran: the frame now on top of the CPU's stack.
		callback_context where = callback_context::other;
		if (!c.open.empty()) {
			const frame &outer = c.open.back();
			if (outer.kind == cost_kind::softirq_entry && outer.vec == std::uint32_t(softirq_vec::timer)) {
				cb.in_timer_softirq++;
				where = callback_context::timer_softirq;
			} else if (outer.kind == cost_kind::softirq_entry) {
				cb.in_hrtimer_softirq++;
				where = callback_context::hrtimer_softirq;
			} else if (outer.kind == cost_kind::hardirq_entry) {
				cb.in_hardirq++;
				where = callback_context::hardirq;
			}
		}
		last_callback_ = {f.start_ns, own_ns, f.function, where};
		callback_closed_ = true;
		return;
	}
	default:
		return;
	}
}

// An HRTIMER run's overhead, split evenly over the callbacks it ran (the
// remainder's ns to the first ones); a run that ran none keeps it apart.
void cpu_time::share_hrtimer_run(cpu_state &c, std::uint64_t overhead_ns)
{
	const std::size_t n = c.hr_run_callbacks.size();
	if (!n) {
		hr_no_callback_ns_ += overhead_ns;
		return;
	}
	const std::uint64_t each = overhead_ns / n, rest = overhead_ns % n;
	for (std::size_t i = 0; i < n; i++)
		callback(c.hr_run_callbacks[i]).hrtimer_softirq_ns += each + (i < rest ? 1 : 0);
	c.hr_run_callbacks.clear();
}

std::vector<std::pair<std::string, const callback_cost *>> callbacks_by_time(const cost_report &r)
{
	std::vector<std::pair<std::string, const callback_cost *>> cbs;
	for (const auto &[name, c] : r.callbacks)
		cbs.emplace_back(name, &c);
	std::stable_sort(cbs.begin(), cbs.end(), [](const auto &a, const auto &b) {
		return a.second->runs.total_ns > b.second->runs.total_ns;
	});
	return cbs;
}

std::uint64_t cpu_time::sample_bytes() const
{
	std::uint64_t n = 0;
	for (const cpu_state &c : cpus_)
		n += c.timer_softirq.runs.bytes() + c.hrtimer_softirq.runs.bytes() + c.timer_irqs.bytes();
	for (const callback_samples &c : callbacks_)
		n += c.runs.bytes();
	return n;
}

cost_report cpu_time::finish(const std::function<std::string(std::uint32_t)> &name_of)
{
	cost_report r;
	r.softirqs_recorded = softirqs_;
	r.interrupts_recorded = interrupts_;
	r.callbacks_recorded = callbacks_seen_;
	r.cut = cut_;
	r.wakeups = wakeups_;
	r.wakeups_without_expiry = wakeups_without_expiry_;
	// An interrupt still looking for its cause when the trace ended
	// settles as settle_wake() would.
	r.wakeups_without_expiry_ns = wakeups_without_expiry_ns_;
	std::vector<std::uint32_t> tick_ends;
	std::vector<std::uint64_t> ends_without_expiry(cpus_.size(), 0);
	for (std::size_t n = 0; n < cpus_.size(); n++) {
		const cpu_state &c = cpus_[n];
		if (c.wake == waking::after_tick) {
			tick_ends.push_back(c.wake_tick);
			callback_samples &cb = callback(c.wake_tick);
			cb.wakeup_ns += c.last_irq_ns;
			if (cb.wakeups_on_cpu.size() <= n)
				cb.wakeups_on_cpu.resize(n + 1, 0);
			cb.wakeups_on_cpu[n]++;
		} else if (c.wake == waking::in_irq && !c.wake_ran) {
			r.wakeups_without_expiry++;
			ends_without_expiry[n]++;
		}
	}
	r.unbalanced = unbalanced_;
	r.hrtimer_softirq_no_callback_ns = hr_no_callback_ns_;
	r.seconds_cut = seconds_.is_cut();
	r.seconds = seconds_.take();
	r.first_ns = first_ns_;
	r.last_ns = last_ns_;
	// Each CPU's samples, then all CPUs' together where they are.
	std::vector<duration_samples *> all_timer, all_hrtimer, all_irqs;
	for (cpu_state &c : cpus_) {
		r.cut += c.open.size();		// still open at the end of the trace
		cpu_cost out;
		auto softirq = [](samples &s, std::vector<duration_samples *> &all) {
			softirq_stats st;
			st.runs = summarise(s.runs);
			st.callbacks_ns = s.callbacks_ns;
			st.raised = s.raised;
			all.push_back(&s.runs);
			return st;
		};
		out.timer_softirq = softirq(c.timer_softirq, all_timer);
		out.hrtimer_softirq = softirq(c.hrtimer_softirq, all_hrtimer);
		out.interrupts.timer = summarise(c.timer_irqs);
		all_irqs.push_back(&c.timer_irqs);
		out.interrupts.other_count = c.other_irqs;
		out.interrupts.other_ns = c.other_irq_ns;
		out.wakeups = c.wakeups;
		out.wakeups_without_expiry = c.wakeups_without_expiry + ends_without_expiry[r.cpus.size()];

		r.all.timer_softirq.callbacks_ns += out.timer_softirq.callbacks_ns;
		r.all.timer_softirq.raised += out.timer_softirq.raised;
		r.all.hrtimer_softirq.callbacks_ns += out.hrtimer_softirq.callbacks_ns;
		r.all.hrtimer_softirq.raised += out.hrtimer_softirq.raised;
		r.all.interrupts.other_count += out.interrupts.other_count;
		r.all.interrupts.other_ns += out.interrupts.other_ns;
		r.cpus.push_back(out);
	}
	r.all.timer_softirq.runs = summarise(all_timer);
	r.all.hrtimer_softirq.runs = summarise(all_hrtimer);
	r.all.interrupts.timer = summarise(all_irqs);
	for (std::uint32_t id = 0; id < callbacks_.size(); id++) {
		callback_samples &s = callbacks_[id];
		if (s.runs.empty() && !s.wakeups)
			continue;
		callback_cost cc;
		cc.runs = summarise(s.runs);
		cc.in_timer_softirq = s.in_timer_softirq;
		cc.in_hardirq = s.in_hardirq;
		cc.in_hrtimer_softirq = s.in_hrtimer_softirq;
		cc.wakeups = s.wakeups + std::uint64_t(std::count(tick_ends.begin(), tick_ends.end(), id));
		cc.wakeup_ns = s.wakeup_ns;
		cc.wakeups_on_cpu = s.wakeups_on_cpu;
		cc.hrtimer_softirq_ns = s.hrtimer_softirq_ns;
		r.callbacks.emplace(name_of(id), cc);
	}
	return r;
}

}  // namespace timersim::measured
