#include "sim/output/perfetto_cpu.h"

#include <algorithm>

#include "sim/output/json_string.h"
#include "sim/output/number_text.h"
#include "sim/trace/event.h"

namespace timersim {

namespace {

const char *const lane_names[] = {
	"timer interrupt (recorded)", "hrtimers in the interrupt (recorded)", "timer softirq (measured)",
	"hrtimer softirq (measured)", "softirq callbacks (recorded)", "hrtimer model",
};

// Microseconds with three decimals, exact from nanoseconds.
void append_us(std::string &out, std::uint64_t ns)
{
	append_number(out, ns / 1000);
	out += '.';
	const std::uint64_t frac = ns % 1000;
	if (frac < 100)
		out += frac < 10 ? "00" : "0";
	append_number(out, frac);
}

const char *softirq_name(std::uint32_t vec)
{
	return vec == TIMER_SOFTIRQ ? "TIMER softirq" : vec == HRTIMER_SOFTIRQ ? "HRTIMER softirq" : "hard irq";
}

}  // namespace

void perfetto_cpu_lanes::push(event e)
{
	e.seq = events_.size();
	if (used_.size() <= e.cpu)
		used_.resize(std::size_t(e.cpu) + 1, 0);
	used_[e.cpu] |= std::uint8_t(1u << e.where);
	events_.push_back(e);
}

void perfetto_cpu_lanes::add(const cpu_activity &a)
{
	event e{a.start_ns, a.end_ns, a.own_ns, 0, a.cpu, names_.intern(a.function), 0, a.count, model, 0, 0};
	switch (a.what) {
	case cpu_activity::kind::softirq_run:
		e.where = a.vec == TIMER_SOFTIRQ ? timer_softirq : hrtimer_softirq;
		break;
	case cpu_activity::kind::expiry:
		e.where = a.hrtimer && !a.vec ? hard_expiry : soft_expiry;
		e.flags = std::uint8_t((a.tick ? f_tick : 0) | (a.hrtimer ? f_hrtimer : 0));
		e.cause = std::uint8_t(a.vec);
		break;
	case cpu_activity::kind::model_interrupt:
		e.flags = std::uint8_t((a.recorded ? f_recorded : 0) | (a.predicted ? f_predicted : 0));
		break;
	case cpu_activity::kind::model_expiry:
		e.flags = std::uint8_t(f_expiry | (a.tick ? f_tick : 0));
		break;
	}
	push(e);
}

void perfetto_cpu_lanes::add(const wakeup &w)
{
	event e{w.entry_ns, w.exit_ns, 0, 0, w.cpu, names_.intern(w.cause_function), names_.intern(w.first),
		w.expiries, interrupt, 0, std::uint8_t(w.cause)};
	e.flags = std::uint8_t((w.first_tick ? f_tick : 0) | (w.irq_recorded ? f_irq_recorded : 0) |
			       (w.modelled ? f_modelled : 0) | (w.predicted ? f_predicted : 0));
	push(e);
}

void perfetto_cpu_lanes::sort()
{
	// Per lane in time, a slice begins no earlier than the one before it
	// ended; then all of a CPU's lanes in time.
	std::sort(events_.begin(), events_.end(), [](const event &x, const event &y) {
		if (x.cpu != y.cpu)
			return x.cpu < y.cpu;
		if (x.where != y.where)
			return x.where < y.where;
		return x.start_ns != y.start_ns ? x.start_ns < y.start_ns : x.seq < y.seq;
	});
	for (std::size_t i = 1; i < events_.size(); i++) {
		const event &prev = events_[i - 1];
		event &e = events_[i];
		if (e.cpu != prev.cpu || e.where != prev.where || e.where == model || e.start_ns >= prev.end_ns)
			continue;
		e.start_ns = prev.end_ns;
		e.end_ns = std::max(e.end_ns, e.start_ns);
	}
	std::sort(events_.begin(), events_.end(), [](const event &x, const event &y) {
		if (x.cpu != y.cpu)
			return x.cpu < y.cpu;
		if (x.start_ns != y.start_ns)
			return x.start_ns < y.start_ns;
		return x.where != y.where ? x.where < y.where : x.seq < y.seq;
	});
	next_.assign(used_.size(), events_.size());
	for (std::size_t i = events_.size(); i > 0; i--)
		next_[events_[i - 1].cpu] = i - 1;
}

void perfetto_cpu_lanes::thread_names(unsigned cpu, unsigned pid,
				      const std::function<void(const std::string &)> &emit) const
{
	if (cpu >= used_.size())
		return;
	for (unsigned l = 0; l < lanes; l++)
		if (used_[cpu] & (1u << l))
			emit("{\"ph\":\"M\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(3 + l) +
			     ",\"name\":\"thread_name\",\"args\":{\"name\":" + json_string(lane_names[l]) + "}}");
}

void perfetto_cpu_lanes::write(unsigned cpu, unsigned pid, std::uint64_t before_ns,
			       const std::function<void(const std::string &)> &emit)
{
	if (cpu >= next_.size())
		return;
	std::string out;
	std::size_t &i = next_[cpu];
	for (; i < events_.size() && events_[i].cpu == cpu && events_[i].start_ns < before_ns; i++) {
		out.clear();
		render(events_[i], pid, out);
		emit(out);
	}
}

void perfetto_cpu_lanes::render(const event &e, unsigned pid, std::string &out) const
{
	const std::string name = json_string(names_.name(e.name));
	out += "{\"pid\":";
	append_number(out, pid);
	out += ",\"tid\":";
	append_number(out, 3u + e.where);
	out += ",\"ts\":";
	append_us(out, e.start_ns);
	const bool instant = e.where == model || (e.where == interrupt && !(e.flags & f_irq_recorded));
	if (instant) {
		out += ",\"ph\":\"i\",\"s\":\"t\"";
	} else {
		out += ",\"ph\":\"X\",\"dur\":";
		append_us(out, e.end_ns - e.start_ns);
	}
	switch (e.where) {
	case interrupt:
		out += ",\"cat\":\"timer interrupt\",\"name\":\"";
		out += e.flags & f_irq_recorded ? "timer interrupt" : "timer interrupt (from expiries)";
		out += "\",\"args\":{\"cause\":\"";
		out += wake_cause_name(static_cast<wake_cause>(e.cause));
		out += "\",\"woke_for\":" + name + ",\"first\":" + json_string(names_.name(e.first)) +
		       ",\"expiries\":";
		append_number(out, e.count);
		out += ",\"model\":\"";
		out += !(e.flags & f_modelled) ? "not run" : e.flags & f_predicted ? "predicted" : "not predicted";
		out += "\"}}";
		return;
	case hard_expiry:
	case soft_expiry:
		out += ",\"cat\":\"";
		out += e.flags & f_tick ? "tick" : e.flags & f_hrtimer ? "hrtimer" : "timer";
		out += "\",\"name\":" + name + ",\"args\":{\"in\":\"";
		out += softirq_name(e.cause);
		out += "\"}}";
		return;
	case timer_softirq:
	case hrtimer_softirq:
		out += ",\"cat\":\"softirq (measured)\",\"name\":\"";
		out += e.where == timer_softirq ? "TIMER softirq" : "HRTIMER softirq";
		out += "\",\"args\":{\"own_ns\":";
		append_number(out, e.own_ns);
		out += ",\"callbacks\":";
		append_number(out, e.count);
		out += "}}";
		return;
	case model:
		if (e.flags & f_expiry) {
			out += ",\"cat\":\"";
			out += e.flags & f_tick ? "tick" : "hrtimer model";
			out += "\",\"name\":" + name + "}";
			return;
		}
		out += ",\"cat\":\"hrtimer model\",\"name\":\"model interrupt\",\"args\":{\"at\":\"";
		out += e.flags & f_recorded ? "a recorded interrupt" : "its own";
		out += "\",\"due\":";
		out += e.flags & f_predicted ? "true" : "false";
		out += ",\"expiries\":";
		append_number(out, e.count);
		out += ",\"first\":" + name + "}}";
		return;
	case lanes:
		return;
	}
}

}  // namespace timersim
