#include "sim/output/timeline.h"

#include <charconv>

#include "sim/base/errors.h"
#include "sim/output/number_text.h"
#include "sim/replay/replay_report.h"

namespace timersim {

timeline_interval timeline_interval::parse(std::string_view spec)
{
	timeline_interval iv;
	auto bad = [&](const char *why) {
		return usage_error("--interval " + std::string(spec) + ": " + why +
				   " (a number of jiffies, or a duration like 10ms or 2s)");
	};
	const char *end = spec.data() + spec.size();
	auto [p, ec] = std::from_chars(spec.data(), end, iv.value);
	if (ec != std::errc() || p == spec.data())
		throw bad("not a number");
	std::string_view unit(p, static_cast<std::size_t>(end - p));
	if (unit.empty() || unit == "j")
		iv.unit = jiffies;
	else if (unit == "ms")
		iv.unit = ms;
	else if (unit == "s")
		iv.unit = s;
	else
		throw bad("unknown unit");
	if (!iv.value)
		throw bad("must be positive");
	return iv;
}

std::uint64_t timeline_interval::jiffies_at(unsigned hz) const
{
	std::uint64_t j = unit == jiffies ? value : unit == s ? value * hz : value * hz / 1000;
	if (value && !j)
		throw usage_error("--interval " + std::to_string(value) + "ms is shorter than a jiffy at HZ " +
				  std::to_string(hz));
	return j;
}

timeline::timeline(output_file &out, timeline_interval interval) : out_(out), spec_(interval)
{
}

void timeline::begin(const replay_setup &setup)
{
	setup_ = &setup;
	interval_ = spec_.jiffies_at(setup.hz);
	whole_seconds_ = interval_ && setup.hz && interval_ % setup.hz == 0;
	pending_.begin(setup);
	open_.assign(setup.cpus, row{});
	for (row &r : open_)
		r.jiffy = setup.start;
	buf_ = "cpu,jiffy,seconds,ticks,pending";
	for (unsigned l = 1; l <= pending_.levels(); l++)
		buf_ += ",pending_" + setup.level_names[l - 1];
	buf_ += ",enqueued,moved,cascades,expired,canceled,process_units,softirq_units,softirq_runs"
		",hrtimer_expiries,interrupts,interrupts_predicted,wakeups_wheel,wakeups_tick,wakeups_hrtimer,"
		"wakeups_none,time_measured_ns,time_modelled_ns,time_modelled_low_ns,time_modelled_high_ns\n";
}

timeline::row &timeline::at(unsigned cpu, jiffies_t jiffy)
{
	if (!interval_)
		return open_[cpu];
	jiffies_t start = setup_->start;
	jiffies_t first = jiffy > start ? start + (jiffy - start) / interval_ * interval_ : start;
	row &r = intervals_[{first, cpu}];
	r.jiffy = first;
	return r;
}

void timeline::write(unsigned cpu, const row &r)
{
	append_number(buf_, cpu);
	buf_ += ',';
	append_number(buf_, setup_->narrow(r.jiffy));
	buf_ += ',';
	append_fixed(buf_, setup_->seconds(r.jiffy), 6);
	buf_ += ',';
	append_number(buf_, r.ticks);
	for (std::size_t l = 0; l <= pending_.levels(); l++) {
		buf_ += ',';
		append_number(buf_, l < r.pending.size() ? r.pending[l] : 0);
	}
	const auto wake = [&](wake_cause c) { return r.wakeups[static_cast<unsigned>(c)]; };
	for (std::uint64_t v : {r.enqueued, r.moved, r.cascades, r.expired, r.canceled, r.process_units,
				r.softirq_units, r.runs, r.hrtimer_expiries, r.interrupts, r.predicted,
				wake(wake_cause::wheel), wake(wake_cause::tick), wake(wake_cause::hrtimer),
				wake(wake_cause::none)}) {
		buf_ += ',';
		append_number(buf_, v);
	}
	const auto ns = [&](bool known, double v) {
		buf_ += ',';
		if (known)
			append_fixed(buf_, v, 0);
	};
	ns(r.measured_known, r.measured_ns);
	ns(r.modelled_known, r.modelled_ns);
	ns(r.modelled_known, r.modelled_low);
	ns(r.modelled_known, r.modelled_high);
	buf_ += '\n';
	flush_if_full();
}

void timeline::flush_if_full()
{
	if (buf_.size() >= (1u << 16)) {
		out_.write(buf_);
		buf_.clear();
	}
}

// Per tick: the base's row ends where its next tick (or idle stretch) begins.
void timeline::close(unsigned cpu)
{
	row &r = open_[cpu];
	if (!r.empty()) {
		r.pending = pending_.of(cpu);
		write(cpu, r);
	}
	r = row{};
}

void timeline::started(const timer_ref &t, unsigned cpu, jiffies_t now, jiffies_t, unsigned level,
		       bool)
{
	pending_.started(t, cpu, level);
	row &r = at(cpu, now);
	r.enqueued++;
	if (interval_)
		r.pending = pending_.of(cpu);
}

void timeline::canceled(const timer_ref &t, unsigned cpu, jiffies_t now)
{
	pending_.removed(t);
	row &r = at(cpu, now);
	r.canceled++;
	if (interval_)
		r.pending = pending_.of(cpu);
}

void timeline::tick(unsigned cpu, jiffies_t jiffy)
{
	if (!interval_) {
		close(cpu);
		open_[cpu].jiffy = jiffy;
	}
	row &r = at(cpu, jiffy);
	r.ticks++;
	if (interval_)
		r.pending = pending_.of(cpu);
}

void timeline::idle_ticks(unsigned cpu, jiffies_t first, std::uint64_t count)
{
	idle_cpu_ = cpu;
	idle_first_ = first;
	if (!interval_) {
		close(cpu);
		open_[cpu].jiffy = first;
	}
	row &r = at(cpu, first);
	r.ticks += count;
	r.pending = pending_.of(cpu);
	if (!interval_) {
		close(cpu);
		open_[cpu].jiffy = first + count;
	}
}

void timeline::cascaded(unsigned cpu, jiffies_t jiffy, unsigned, std::uint32_t)
{
	at(cpu, jiffy).cascades++;
}

// Made during an idle stretch, which names no CPU here: counted on the
// CPU of the latest one.
void timeline::empty_cascades(unsigned, std::uint64_t calls)
{
	at(idle_cpu_, idle_first_).cascades += calls;
}

void timeline::moved(const timer_ref &t, unsigned cpu, jiffies_t jiffy, unsigned)
{
	pending_.moved(t);
	row &r = at(cpu, jiffy);
	r.moved++;
	if (interval_)
		r.pending = pending_.of(cpu);
}

void timeline::expired(const timer_ref &t, unsigned cpu, jiffies_t jiffy, jiffies_t)
{
	pending_.removed(t);
	row &r = at(cpu, jiffy);
	r.expired++;
	if (interval_)
		r.pending = pending_.of(cpu);
}

void timeline::fidelity(const timer_ref &t, unsigned cpu, jiffies_t recorded, jiffies_t simulated,
			verdict v)
{
	if (!expired_by_replay(v, recorded, simulated))
		return;
	pending_.removed(t);
	row &r = at(cpu, recorded);
	r.expired++;
	if (interval_)
		r.pending = pending_.of(cpu);
}

void timeline::worked(const timer_ref *, unsigned cpu, jiffies_t jiffy, work_context ctx,
		      const cost_counters &units)
{
	row &r = at(cpu, jiffy);
	(ctx == work_context::process ? r.process_units : r.softirq_units) += units.total();
}

void timeline::softirq_run(unsigned cpu, jiffies_t jiffy, std::uint64_t, std::uint64_t,
			   const timer_ref *)
{
	at(cpu, jiffy).runs++;
}

timeline::row &timeline::at_ns(unsigned cpu, std::uint64_t ts_ns)
{
	return at(cpu, interval_ && setup_->clock ? setup_->clock->jiffy_of(ts_ns) : 0);
}

void timeline::activity(const cpu_activity &a)
{
	if (a.cpu >= open_.size())
		return;
	if (a.what == cpu_activity::kind::expiry && a.hrtimer)
		at_ns(a.cpu, a.start_ns).hrtimer_expiries++;
	else if (a.what == cpu_activity::kind::model_interrupt && a.predicted)
		at_ns(a.cpu, a.start_ns).predicted++;
}

void timeline::woke(const wakeup &w)
{
	if (w.cpu >= open_.size())
		return;
	row &r = at_ns(w.cpu, w.entry_ns);
	r.interrupts++;
	r.wakeups[static_cast<unsigned>(w.cause)]++;
}

// Rows of whole seconds take the time table's seconds they hold.
void timeline::add_time(const replay_report &report)
{
	if (!whole_seconds_)
		return;
	for (const second_time_row &s : report.time.per_second) {
		if (s.cpu >= open_.size())
			continue;
		row &r = at(s.cpu, setup_->start + std::uint64_t(s.second) * setup_->hz);
		if (s.measured.known) {
			r.measured_known = true;
			r.measured_ns += s.measured.ns;
		}
		if (s.modelled.known) {
			r.modelled_known = true;
			r.modelled_ns += s.modelled.ns;
			r.modelled_low += s.modelled.low;
			r.modelled_high += s.modelled.high;
		}
	}
}

void timeline::end(const replay_report &report)
{
	add_time(report);
	if (!interval_)
		for (unsigned cpu = 0; cpu < open_.size(); cpu++)
			close(cpu);
	// A row with only hrtimer activity or interrupts saw the wheel do
	// nothing: its pending is the CPU's latest row's (rows go by jiffy),
	// never an unset 0.
	std::vector<std::vector<std::uint64_t>> last(open_.size());
	for (auto &[key, r] : intervals_) {
		if (key.second < last.size()) {
			if (r.pending.empty())
				r.pending = last[key.second];
			else
				last[key.second] = r.pending;
		}
		write(key.second, r);
	}
	out_.write(buf_);
	buf_.clear();
}

}  // namespace timersim
