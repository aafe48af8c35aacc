#include "sim/lab/hr_step.h"

#include <algorithm>
#include <map>
#include <memory>
#include <unordered_map>

#include "kernel/hrtimer.h"
#include "sim/base/json_writer.h"
#include "sim/hrtimer/hr_summary.h"
#include "sim/lab/indent_lines.h"
#include "sim/lab/snapshot_json.h"
#include "sim/trace/reader.h"

namespace timersim::lab {

namespace hr = kernel::hr;

namespace {

std::string num(std::uint64_t v) { return std::to_string(v); }
std::string num(std::int64_t v) { return std::to_string(v); }

const char *base_name(unsigned index)
{
	return hrtimer_base_name(index);
}

std::string range(const hr::hrtimer &t)
{
	const hr::ktime_t s = hr::hrtimer_get_softexpires(&t), e = hr::hrtimer_get_expires(&t);
	return s == e ? num(e) : num(s) + ".." + num(e);
}

class hr_runner;

struct hr_slot {
	std::string name;
	hr::hrtimer timer{};
	std::uint64_t period = 0;
	bool soft = false;
	hr_runner *runner = nullptr;
};

// What the statement changed in the base's counters: the reasons the
// device was (not) touched.
struct hr_counters {
	hr::hrtimer_costs costs;
	std::uint64_t programs = 0, stops = 0;
	hr::ktime_t expires_next = hr::KTIME_MAX;
	const hr::hrtimer *next_timer = nullptr;
	unsigned hangs = 0;
};

class hr_runner {
public:
	hr_runner(const scenario &s) : source_(s.source)
	{
		if (s.start_initial)
			throw input_error(s.source, s.hr_ops.front().line,
					  "`start initial` is a jiffy of the wheel; an hrtimer scenario starts at `start NS`");
		hr::hrtimer_cpu_base_init(&cpu_, &machine_, 0, hr::hrtimer_generation::soft_bases, true);
		machine_.now = static_cast<hr::ktime_t>(s.start.value_or(0));
		if (s.start && *s.start >= max_hr_ns)
			throw input_error(s.source, s.start_line, "start " + num(*s.start) + " is beyond the lab's 10^18 ns");
	}
	hr_runner(const hr_runner &) = delete;
	hr_runner &operator=(const hr_runner &) = delete;

	hr_record run(const hr_op &op, bool picture);
	std::uint64_t now() const { return static_cast<std::uint64_t>(machine_.now); }
	std::string describe_base() const;
	std::uint64_t queued() const;
	const hr::hrtimer_cpu_base &cpu() const { return cpu_; }
	void write_queued_json(json_writer &j) const;

	static hr::hrtimer_restart callback(hr::hrtimer *timer, void *context);

private:
	[[noreturn]] void fail(const hr_op &op, const std::string &reason) const
	{
		throw input_error(source_, op.line, reason);
	}
	hr_counters counters() const;
	std::string name_of(const hr::hrtimer *t) const;
	std::string device_line() const;
	void device_change(const hr_counters &before, const std::string &timer, bool start);
	void start(const hr_op &op);
	void cancel(const hr_op &op);
	void run_to(const hr_op &op);
	void interrupt();
	void stops(bool soft);
	void add(std::string text, std::string why = "") { rec_->events.push_back({std::move(text), std::move(why)}); }

	std::string source_;
	hr::hrtimer_machine machine_;
	hr::hrtimer_cpu_base cpu_{};
	std::map<std::string, std::unique_ptr<hr_slot>> slots_;
	std::unordered_map<const kernel::timerqueue_node *, const hr_slot *> owner_;
	hr_record *rec_ = nullptr;
	bool in_softirq_ = false;
	const hr_slot *runaway_ = nullptr;
};

hr_counters hr_runner::counters() const
{
	hr_counters c;
	c.costs = cpu_.costs;
	c.programs = cpu_.dev.programs;
	c.stops = cpu_.dev.stops;
	c.expires_next = cpu_.expires_next;
	c.next_timer = cpu_.next_timer;
	c.hangs = cpu_.nr_hangs;
	return c;
}

std::string hr_runner::name_of(const hr::hrtimer *t) const
{
	if (!t)
		return "none";
	auto at = owner_.find(&t->node);
	return at == owner_.end() ? "?" : at->second->name;
}

std::string hr_runner::device_line() const
{
	const hr::clock_event_device &dev = cpu_.dev;
	if (dev.next_event == hr::KTIME_MAX)
		return "device stopped";
	std::string s = "device fires at " + num(dev.fires_at);
	if (dev.fires_at != dev.next_event)
		s += " (asked " + num(dev.next_event) + ": min_delta_ns " + num(dev.min_delta_ns) + ")";
	return s;
}

std::string hr_runner::describe_base() const
{
	std::string out = "  now " + num(now()) + "  expires_next " +
			  (cpu_.expires_next == hr::KTIME_MAX ? std::string("none") : num(cpu_.expires_next)) +
			  (cpu_.next_timer ? " (" + name_of(cpu_.next_timer) + ")" : "") + "  " + device_line() + "\n";
	bool any = false;
	for (unsigned i = 0; i < cpu_.nr_bases; i++) {
		const hr::hrtimer_clock_base &b = cpu_.clock_base[cpu_.order[i]];
		kernel::timerqueue_node *n = kernel::timerqueue_getnext(&b.active);
		if (!n)
			continue;
		any = true;
		out += std::string("    ") + base_name(b.index) + " ";
		for (; n; n = kernel::timerqueue_iterate_next(n)) {
			const hr_slot *s = owner_.at(n);
			out += " " + s->name + "@" + range(s->timer);
			if (s->period)
				out += "/" + num(s->period);
		}
		out += "\n";
	}
	if (!any)
		out += "    (no timers queued)\n";
	return out;
}

std::uint64_t hr_runner::queued() const
{
	std::uint64_t n = 0;
	for (const auto &[name, s] : slots_)
		n += hr::hrtimer_is_queued(&s->timer);
	return n;
}

void hr_runner::write_queued_json(json_writer &j) const
{
	j.begin_array();
	for (unsigned i = 0; i < cpu_.nr_bases; i++) {
		const hr::hrtimer_clock_base &b = cpu_.clock_base[cpu_.order[i]];
		for (kernel::timerqueue_node *n = kernel::timerqueue_getnext(&b.active); n;
		     n = kernel::timerqueue_iterate_next(n)) {
			const hr_slot *s = owner_.at(n);
			j.begin_object();
			j.field("timer", s->name);
			j.field("base", base_name(b.index));
			j.field("softexpires", static_cast<std::uint64_t>(hr::hrtimer_get_softexpires(&s->timer)));
			j.field("expires", static_cast<std::uint64_t>(hr::hrtimer_get_expires(&s->timer)));
			j.field("period", s->period);
			j.end_object();
		}
	}
	j.end_array();
}

// The kernel's reasons, from what its counters say happened.
void hr_runner::device_change(const hr_counters &before, const std::string &timer, bool start)
{
	const hr::hrtimer_costs &a = cpu_.costs, &b = before.costs;
	std::string why;
	auto skipped = [&](hr::hrtimer_skip r) { return a.skips[r] > b.skips[r]; };
	const std::string was = before.expires_next == hr::KTIME_MAX ? "none" : num(before.expires_next);
	if (a.force_reprograms > b.force_reprograms)
		why += timer + " was next_timer (the timer the device was programmed for): hrtimer_force_reprogram()\n"
		       "re-evaluates every base for the first expires left\n";
	if (skipped(hr::SKIP_NOT_EARLIER))
		why += "hrtimer_reprogram(): " + timer + "'s expires " + num(hr::hrtimer_get_expires(&slots_.at(timer)->timer)) +
		       " is not earlier than expires_next " + was + ": skip, the device stays\n";
	if (skipped(hr::SKIP_SOFTIRQ_ACTIVATED))
		why += "hrtimer_reprogram(): a soft timer while HRTIMER_SOFTIRQ is raised: the softirq programs when done\n";
	if (skipped(hr::SKIP_IN_HRTIRQ))
		why += "hrtimer_reprogram(): inside the interrupt, which re-evaluates at its end\n";
	if (skipped(hr::SKIP_EQUAL))
		why += "skip_equal: the first expiry did not change (" + was + "): the device is spared\n";
	if (skipped(hr::SKIP_HANG))
		why += "a hang is being sat out: the device keeps its delay\n";
	const bool programmed = cpu_.dev.programs > before.programs, stopped = cpu_.dev.stops > before.stops;
	if (programmed && start && a.force_reprograms == b.force_reprograms)
		why += "hrtimer_reprogram(): " + timer + " is the first of its base and its expires is earlier than\n"
		       "expires_next " + was + ": the device is programmed from it\n";
	if (why.empty())
		why = start ? timer + " is not the first timer of its base: hrtimer_reprogram() is not called\n"
			    : timer + " was not next_timer: nothing is reprogrammed (an interrupt may come for nothing)\n";
	why.pop_back();
	if (programmed)
		add("device programmed for " + num(cpu_.dev.next_event), why);
	else if (stopped)
		add("device stopped (no timer left)", why);
	else
		add("device not reprogrammed", why);
}

void hr_runner::start(const hr_op &op)
{
	auto &slot = slots_[op.timer];
	if (!slot) {
		slot = std::make_unique<hr_slot>();
		slot->name = op.timer;
		slot->soft = op.soft;
		slot->runner = this;
		hr::hrtimer_setup(&slot->timer, callback, slot.get(), hr::HR_CLOCK_MONOTONIC,
				  op.soft ? hr::HRTIMER_MODE_SOFT : hr::HRTIMER_MODE_HARD, &cpu_);
		owner_[&slot->timer.node] = slot.get();
	} else if (slot->soft != op.soft) {
		fail(op, op.timer + " was set up as a " + (slot->soft ? "soft" : "hard") +
				 " timer: the base is chosen once, by hrtimer_setup()");
	}
	if (hr::hrtimer_callback_running(&slot->timer))
		fail(op, op.timer + "'s callback is running");
	const std::uint64_t soft = (op.relative ? now() : 0) + op.value;
	if (soft + op.slack >= max_hr_ns)
		fail(op, "expires " + num(soft) + " + slack " + num(op.slack) + " is beyond the lab's 10^18 ns");
	slot->period = op.period;
	const bool was_queued = hr::hrtimer_is_queued(&slot->timer);
	const hr_counters before = counters();
	hr::hrtimer_start_range_ns(&cpu_, &slot->timer, static_cast<hr::ktime_t>(op.value),
				   static_cast<hr::ktime_t>(op.slack),
				   (op.relative ? hr::HRTIMER_MODE_REL : hr::HRTIMER_MODE_ABS) |
					   (op.soft ? hr::HRTIMER_MODE_SOFT : hr::HRTIMER_MODE_HARD));
	add("+ " + op.timer + " queued on " + base_name(slot->timer.base->index) + "  " + range(slot->timer) +
		    (was_queued ? " (re-armed)" : ""),
	    "softexpires " + num(hr::hrtimer_get_softexpires(&slot->timer)) + ": it may run from then, in any interrupt\n"
	    "expires " + num(hr::hrtimer_get_expires(&slot->timer)) +
		    " (softexpires + slack): the key of the queue, the time the device is programmed from" +
		    (was_queued ? "\nit was queued: removed first, then enqueued again" : ""));
	device_change(before, op.timer, true);
}

void hr_runner::cancel(const hr_op &op)
{
	auto at = slots_.find(op.timer);
	if (at == slots_.end() || !hr::hrtimer_is_queued(&at->second->timer)) {
		add("- " + op.timer + " not queued: hrtimer_try_to_cancel() returns 0");
		return;
	}
	const hr_counters before = counters();
	hr::hrtimer_try_to_cancel(&cpu_, &at->second->timer);
	add("- " + op.timer + " cancelled", "hrtimer_try_to_cancel() removes it from its base's queue");
	device_change(before, op.timer, false);
}

hr::hrtimer_restart hr_runner::callback(hr::hrtimer *timer, void *context)
{
	auto *slot = static_cast<hr_slot *>(context);
	hr_runner &r = *slot->runner;
	const std::uint64_t now = r.now(), soft = static_cast<std::uint64_t>(hr::hrtimer_get_softexpires(timer)),
			    expires = static_cast<std::uint64_t>(hr::hrtimer_get_expires(timer));
	if (r.rec_->runs.size() == max_hr_runs_per_statement) {
		r.runaway_ = slot;	// stop it here; run() reports the statement
		return hr::HRTIMER_NORESTART;
	}
	r.rec_->runs.push_back({slot->name, now, soft, expires, r.in_softirq_});
	std::string why = "now " + num(now) + " >= softexpires " + num(soft) + ": due, and every timer before it in " +
			  base_name(timer->base->index) + " has run\n";
	if (expires > now)
		why += "coalesced: it runs " + num(expires - now) + " ns before its expires " + num(expires) +
		       ", in an interrupt it did not cause\n";
	else
		why += "its own expiry: the device was programmed from its expires " + num(expires) + "\n";
	if (slot->period) {
		// From its expires when it ran early: hrtimer_forward() moves
		// nothing that is not yet past its expires.
		const hr::ktime_t from = std::max(static_cast<hr::ktime_t>(now), hr::hrtimer_get_expires(timer));
		hr::hrtimer_forward(timer, from, static_cast<hr::ktime_t>(slot->period));
		why += "period " + num(slot->period) + ": hrtimer_forward(max(now, expires)) moves it to " + range(*timer) +
		       ", the callback returns HRTIMER_RESTART and it is queued again\n";
	}
	why.pop_back();
	r.add("! " + slot->name + " ran at " + num(now) + (r.in_softirq_ ? " in HRTIMER_SOFTIRQ" : "") +
		      " (softexpires " + num(soft) + ", expires " + num(expires) + ")",
	      why);
	return slot->period ? hr::HRTIMER_RESTART : hr::HRTIMER_NORESTART;
}

// Where the walk stopped in each base it walked, and who waits behind.
void hr_runner::stops(bool soft)
{
	const std::uint64_t t = now();
	for (unsigned i = 0; i < cpu_.nr_bases; i++) {
		const hr::hrtimer_clock_base &b = cpu_.clock_base[cpu_.order[i]];
		if ((b.index >= hr::HRTIMER_BASE_MONOTONIC_SOFT) != soft)
			continue;
		kernel::timerqueue_node *n = kernel::timerqueue_getnext(&b.active);
		if (!n)
			continue;
		const hr_slot *first = owner_.at(n);
		std::string why;
		for (n = kernel::timerqueue_iterate_next(n); n; n = kernel::timerqueue_iterate_next(n)) {
			const hr_slot *s = owner_.at(n);
			if (static_cast<std::uint64_t>(hr::hrtimer_get_softexpires(&s->timer)) <= t)
				why += "\n" + s->name + " waits although its softexpires " +
				       num(hr::hrtimer_get_softexpires(&s->timer)) +
				       " has passed: the walk stops at the first timer not due, in expires order";
		}
		add(std::string("  ") + base_name(b.index) + " stops at " + first->name,
		    first->name + "'s softexpires " + num(hr::hrtimer_get_softexpires(&first->timer)) + " > now " + num(t) +
			    ": not due" + why);
	}
}

void hr_runner::interrupt()
{
	const std::uint64_t t = now();
	const hr_counters before = counters();
	rec_->interrupts++;
	add("* interrupt at " + num(t),
	    "the device fires: it was programmed for expires_next " +
		    (before.expires_next == hr::KTIME_MAX ? std::string("none") : num(before.expires_next)) + " (" +
		    name_of(before.next_timer) + ")\nhrtimer_interrupt() walks each hard base from its first timer");
	in_softirq_ = false;
	const hr::ktime_t softirq_next = cpu_.softirq_expires_next;
	hr::hrtimer_interrupt(&cpu_);
	stops(false);
	if (!cpu_.softirq_pending && softirq_next != hr::KTIME_MAX)
		add("  soft bases not walked",
		    "softirq_expires_next " + num(softirq_next) + " > now " + num(t) +
			    ": HRTIMER_SOFTIRQ is raised by the first soft timer's expires,\n"
			    "so a soft timer does not run early in a hard timer's interrupt, whatever its softexpires");
	if (cpu_.nr_hangs > before.hangs)
		add("hang: the interrupt could not catch up after " + num(std::uint64_t{hr::HRTIMER_MAX_RETRIES}) + " tries");
	if (cpu_.softirq_pending) {
		add("~ HRTIMER_SOFTIRQ at " + num(t),
		    "the first soft expires had passed (softirq_expires_next <= now): the interrupt raised the\n"
		    "softirq, which walks the soft bases the same way");
		in_softirq_ = true;
		hr::hrtimer_run_softirq(&cpu_);
		in_softirq_ = false;
		stops(true);
	}
	if (cpu_.dev.next_event == hr::KTIME_MAX)
		add("device stopped", "no timer left in any base: nothing to program");
	else
		add("device programmed for " + num(cpu_.dev.next_event),
		    "the earliest expires left over every base: " + name_of(cpu_.next_timer) +
			    " (hrtimer_update_next_event(), then tick_program_event())");
}

void hr_runner::run_to(const hr_op &op)
{
	const std::uint64_t target = (op.relative ? now() : 0) + op.value;
	if (target >= max_hr_ns)
		fail(op, "run-to-ns " + num(target) + " is beyond the lab's 10^18 ns");
	if (target < now())
		fail(op, "run-to-ns " + num(target) + " is before now (" + num(now()) + "): time does not go back");
	while (cpu_.dev.fires_at != hr::KTIME_MAX && static_cast<std::uint64_t>(cpu_.dev.fires_at) <= target) {
		if (rec_->interrupts == max_hr_interrupts_per_statement)
			fail(op, "more than " + num(max_hr_interrupts_per_statement) +
					 " timer interrupts in one statement: run a shorter stretch");
		machine_.now = cpu_.dev.fires_at;
		interrupt();
	}
	machine_.now = static_cast<hr::ktime_t>(target);
}

hr_record hr_runner::run(const hr_op &op, bool picture)
{
	hr_record r;
	r.line = op.line;
	r.text = op.text;
	r.at = now();
	rec_ = &r;
	switch (op.kind) {
	case hr_op_kind::start: start(op); break;
	case hr_op_kind::cancel: cancel(op); break;
	case hr_op_kind::run_to: run_to(op); break;
	case hr_op_kind::show:
		r.device_stopped = cpu_.dev.next_event == hr::KTIME_MAX;
		if (!r.device_stopped)
			r.device = static_cast<std::uint64_t>(cpu_.dev.next_event);
		add(std::string("device programmed for: ") + (r.device ? num(*r.device) : "none (stopped)"),
		    r.device ? "expires_next is " + name_of(cpu_.next_timer) +
				       "'s expires: the earliest over every base (the soft ones unless HRTIMER_SOFTIRQ\n"
				       "is raised); a timer with a range counts by its expires, not its softexpires"
			     : "no timer is queued: the device was stopped");
		break;
	}
	rec_ = nullptr;
	if (runaway_)
		fail(op, "more than " + num(max_hr_runs_per_statement) + " callback runs in one statement: " +
				 runaway_->name + " (period " + num(runaway_->period) + ", slack " +
				 num(static_cast<std::uint64_t>(hr::hrtimer_get_expires(&runaway_->timer) -
								hr::hrtimer_get_softexpires(&runaway_->timer))) +
				 ") is due again as soon as it is forwarded when its slack is not below its period");
	if (picture)
		r.picture = describe_base();
	return r;
}

}  // namespace

void run_hr_scenario(const scenario &s, const std::function<void(const hr_record &)> &each, bool picture)
{
	hr_runner runner(s);
	for (const hr_op &op : s.hr_ops)
		each(runner.run(op, picture));
}

void write_hr_step_text(const scenario &s, bool explain, const std::function<void(std::string_view)> &write,
			std::size_t picture_budget)
{
	hr_runner runner(s);
	budgeted_output counted(write, picture_budget);
	counted("timersim step " + s.source +
	      "\nhrtimers: one CPU's hrtimer_cpu_base (4.16+: 4 hard and 4 soft clock bases), high resolution "
	      "mode, CLOCK_MONOTONIC in ns\nstart: now " +
	      num(runner.now()) + "\n");
	std::uint64_t statements = 0, interrupts = 0, runs = 0, early = 0;
	for (const hr_op &op : s.hr_ops) {
		const bool picture = counted.pictures();
		const hr_record r = runner.run(op, picture);
		if (!picture && counted.stop(r.line))
			counted(format_budget_note(counted, "base"));
		statements++;
		interrupts += r.interrupts;
		runs += r.runs.size();
		for (const hr_run &x : r.runs)
			early += x.expires > x.at;
		std::string out = "\nline " + num(r.line) + ": " + r.text + "\n";
		for (const hr_event &e : r.events) {
			out += "  " + e.text + "\n";
			if (explain)
				indent_lines(out, e.why, "      ");
		}
		counted(out + r.picture);
	}
	counted("\nend: now " + num(runner.now()) + ", " + num(runner.queued()) + " queued; " + num(statements) +
	      " statements: " + num(interrupts) + " interrupts, " + num(runs) + " callbacks run (" + num(early) +
	      " before their expires), device programmed " + num(runner.cpu().dev.programs) + " times\n");
	counted(format_budget_end(counted, "base"));
}

void write_hr_step_json(const scenario &s, const std::function<void(std::string_view)> &write,
			std::size_t picture_budget)
{
	hr_runner runner(s);
	budgeted_output counted(write, picture_budget);
	std::string out;
	json_writer j(out);
	j.begin_object();
	j.field("source", s.source);
	j.field("model", "hrtimer");
	j.field("start", runner.now());
	j.key("steps");
	j.begin_array();
	for (const hr_op &op : s.hr_ops) {
		const bool picture = counted.pictures();
		const hr_record r = runner.run(op, false);
		if (!picture)
			counted.stop(r.line);
		j.begin_object();
		j.field("line", r.line);
		j.field("text", r.text);
		j.field("at", r.at);
		j.key("events");
		j.begin_array();
		for (const hr_event &e : r.events) {
			j.begin_object();
			j.field("event", e.text);
			j.field("why", e.why);
			j.end_object();
		}
		j.end_array();
		j.key("runs");
		j.begin_array();
		for (const hr_run &x : r.runs) {
			j.begin_object();
			j.field("timer", x.timer);
			j.field("at", x.at);
			j.field("softexpires", x.softexpires);
			j.field("expires", x.expires);
			j.field("softirq", x.softirq);
			j.end_object();
		}
		j.end_array();
		j.field("interrupts", r.interrupts);
		if (op.kind == hr_op_kind::show) {
			j.key("device");
			if (r.device)
				j.value(*r.device);
			else
				j.null();
		}
		j.field("now", runner.now());
		j.key("queued");
		if (picture)
			runner.write_queued_json(j);
		else
			j.null();	// past the picture budget
		j.end_object();
		counted(out);
		out.clear();
	}
	j.end_array();
	write_budget_json(j, counted);
	j.end_object();
	counted(out);
}

}  // namespace timersim::lab
