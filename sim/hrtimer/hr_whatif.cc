#include "sim/hrtimer/hr_whatif.h"

#include <algorithm>
#include <climits>
#include <unordered_map>

#include "sim/ticks/tick_identity.h"

namespace timersim {

namespace hr = kernel::hr;

namespace {

// The histogram: values below 2^SUB_BITS+1 in buckets of one; above, each
// power of two in 2^SUB_BITS buckets.
constexpr unsigned SUB_BITS = 7;
constexpr std::uint64_t EXACT = std::uint64_t{2} << SUB_BITS;	// 256

std::size_t bucket_of(std::uint64_t v)
{
	if (v < EXACT)
		return static_cast<std::size_t>(v);
	const unsigned shift = 63 - static_cast<unsigned>(__builtin_clzll(v)) - SUB_BITS;
	return static_cast<std::size_t>((std::uint64_t{shift} << SUB_BITS) + (v >> shift));
}

// The largest value of a bucket.
std::uint64_t bucket_high(std::size_t b)
{
	if (b < EXACT)
		return b;
	const unsigned shift = static_cast<unsigned>(b >> SUB_BITS) - 1;
	const std::uint64_t top = (b & ((std::uint64_t{1} << SUB_BITS) - 1)) | (std::uint64_t{1} << SUB_BITS);
	return ((top + 1) << shift) - 1;
}

// Recorded expiries of a timer the model still holds: how many of the
// model's interrupts it may take to run it.
constexpr unsigned max_run_ahead = 4096;

std::int64_t ceil_to_grid(std::int64_t t, std::int64_t phase, std::int64_t period)
{
	std::int64_t k = (t - phase) / period;
	if (phase + k * period < t)
		k++;
	return phase + k * period;
}

std::int64_t floor_to_grid(std::int64_t t, std::int64_t phase, std::int64_t period)
{
	std::int64_t k = (t - phase) / period;
	if (phase + k * period > t)
		k--;
	return k;
}

}  // namespace

bool is_user_space_hrtimer(const std::string &callback)
{
	return callback == "hrtimer_wakeup" || callback == "posix_timer_fn" || callback == "it_real_fn" ||
	       callback == "timerfd_tmrproc";
}

// ---- lateness ----------------------------------------------------------------

void lateness_histogram::add(std::int64_t ns)
{
	if (ns < 0)
		ns = 0;
	const std::size_t b = bucket_of(static_cast<std::uint64_t>(ns));
	if (buckets_.size() <= b)
		buckets_.resize(b + 1, 0);
	buckets_[b]++;
	count_++;
	sum_ += double(ns);
	max_ = std::max(max_, ns);
}

hrtimer_lateness lateness_histogram::figures() const
{
	hrtimer_lateness f;
	f.count = count_;
	if (!count_)
		return f;
	f.mean_ns = sum_ / double(count_);
	f.max_ns = max_;
	// Nearest rank: the smallest value with at least 99% at or below it.
	const std::uint64_t rank = (count_ * 99 + 99) / 100;
	std::uint64_t seen = 0;
	for (std::size_t b = 0; b < buckets_.size(); b++) {
		seen += buckets_[b];
		if (seen >= rank) {
			f.p99_ns = std::min<std::int64_t>(static_cast<std::int64_t>(bucket_high(b)), max_);
			break;
		}
	}
	return f;
}

// ---- a free model ------------------------------------------------------------

hr_free_model::hr_free_model(unsigned cpus, const policy &p) : policy_(p)
{
	cpus_.resize(cpus);
	for (unsigned c = 0; c < cpus; c++) {
		hr::hrtimer_cpu_base_init(&cpus_[c].base, &cpus_[c].machine, c, hr::hrtimer_generation::soft_bases,
					  p.highres);
		cpus_[c].base.rearm_deferred = (p.deferred_rearm || p.restarts_in_interrupt) && p.highres;
	}
}

void hr_free_model::rearm(unsigned cpu)
{
	cpu_state &c = cpus_[cpu];
	// Made at the interrupt's end: its last work.
	c.machine.now = std::max(c.machine.now, c.window_last);
	if (!hr::hrtimer_rearm_deferred(&c.base))
		return;
	if (c.base.softirq_pending)
		hr::hrtimer_run_softirq(&c.base);
}

void hr_free_model::end_of_interrupt(unsigned cpu, std::int64_t mono, bool in_interrupt)
{
	cpu_state &c = cpus_[cpu];
	if (!c.base.deferred_rearm)
		return;
	// 6.x: anything but a re-arm comes after hrtimer_interrupt()'s
	// program; 7.1: after the rearm on the way out, once the interrupt
	// has ended (catch_up() made it then, unless this is its own work).
	if (in_interrupt || (policy_.deferred_rearm && mono <= c.window_last)) {
		c.window_last = std::max(c.window_last, mono);
		return;
	}
	rearm(cpu);
}

void hr_free_model::interrupt_activity(unsigned cpu, std::int64_t mono, std::uint32_t expired)
{
	cpu_state &c = cpus_[cpu];
	c.activity = std::max(c.activity, mono);
	if (!c.base.deferred_rearm)
		return;
	// The recorded interrupt's own work (the expiry of a timer this one
	// ran: the recording took it later than the model's device fired;
	// or the exit of the recorded interrupt that did) lasts it to here.
	// Other work past its end is another's: this one has ended.
	const bool own = expired != UINT32_MAX ? ran_in_pending(expired, cpu) : c.recorded;
	if (own) {
		c.window_last = std::max(c.window_last, mono);
		c.recorded = expired != UINT32_MAX;	// an exit ends it
		return;
	}
	if (mono > c.window_last)
		rearm(cpu);
}

bool hr_free_model::ran_in_pending(std::uint32_t id, unsigned cpu) const
{
	const cpu_state &c = cpus_[cpu];
	if (id >= entries_.size() || !c.base.deferred_rearm)
		return false;
	const entry &e = entries_[id];
	return e.set_up && !hr::hrtimer_is_queued(&e.timer) && cpu_of(e) == cpu && e.ran_in == c.irq_serial;
}

bool hr_free_model::holds(unsigned cpu, std::uint32_t work_of, bool in_interrupt) const
{
	const cpu_state &c = cpus_[cpu];
	return ran_in_pending(work_of, cpu) || (in_interrupt && c.base.deferred_rearm && c.recorded);
}

std::uint64_t hr_free_model::deferred_rearms() const
{
	std::uint64_t n = 0;
	for (const cpu_state &c : cpus_)
		n += c.base.costs.deferred_rearms;
	return n;
}

hr::hrtimer_restart hr_free_model::fired(hr::hrtimer *t, void *context)
{
	auto *self = static_cast<hr_free_model *>(context);
	entry *e = reinterpret_cast<entry *>(t);
	e->ran_in = self->cpus_[self->cpu_of(*e)].irq_serial;
	const std::int64_t late = hr::hrtimer_cb_get_time(t) - std::max(t->softexpires, e->armed_at);
	self->all_.add(late);
	if (e->user)
		self->user_.add(late);
	// Periodic timers are re-armed by the recorded start after their expiry.
	return hr::HRTIMER_NORESTART;
}

hr_free_model::entry &hr_free_model::entry_of(std::uint32_t id)
{
	while (entries_.size() <= id)
		entries_.emplace_back();
	return entries_[id];
}

std::int64_t hr_free_model::next_interrupt(unsigned cpu) const
{
	const cpu_state &c = cpus_[cpu];
	if (policy_.highres)
		return c.base.dev.fires_at;
	// Low resolution: NOHZ programs the tick for the jiffy at or after
	// the next hrtimer's expires (cmp_next_hrtimer_event()), never before
	// the CPU's clock.
	const std::int64_t next = hr::hrtimer_next_event(&c.base);
	if (next == hr::KTIME_MAX)
		return INT64_MAX;
	const std::int64_t at = ceil_to_grid(std::max(next, c.machine.now), phase_, policy_.tick_nsec);
	// The tick of this very time has run: a timer it left (armed at its
	// time, after it) waits for the next one.
	return at == c.last_at && at == c.machine.now ? at + policy_.tick_nsec : at;
}

void hr_free_model::interrupt(unsigned cpu, std::int64_t at, bool ahead)
{
	cpu_state &c = cpus_[cpu];
	// One interrupt at one time: a tick taken ahead (or again, for a
	// timer armed at its very time) is not another.
	const bool again = at == c.last_at || std::find(c.ahead.begin(), c.ahead.end(), at) != c.ahead.end();
	if (!again) {
		interrupts_++;
		if (ahead)
			c.ahead.push_back(at);
	}
	c.irq_serial++;
	c.last_at = at;
	c.max_at = std::max(c.max_at, at);
	c.machine.now = std::max(c.machine.now, at);
	c.machine.offs_real = offs_real_;
	if (c.base.deferred_rearm)
		rearm(cpu);	// an interrupt still pending its rearm ended before this one
	const std::uint64_t programs = c.base.dev.programs, stops = c.base.dev.stops;
	if (policy_.highres)
		hr::hrtimer_interrupt(&c.base);
	else
		hr::hrtimer_run_queues(&c.base);
	c.irq_write = c.base.rearm_deferred ? cpu_state::write::none : last_write(c.base.dev, programs, stops);
	if (c.base.deferred_rearm) {
		// 7.1: the rearm, and the softirq after it, wait for the end:
		// the recorded interrupt's own work moves it on. That work told
		// just before (its first expiry, or its exit, which brought this
		// interrupt on; the handler runs a little after the device
		// fires) is this one's.
		c.recorded = c.activity >= at && c.activity - at <= std::int64_t(deferred_rearm_gap_ns);
		c.window_last = c.recorded ? c.activity : at;
		return;
	}
	// The softirq runs at the interrupt's exit.
	if (c.base.softirq_pending)
		hr::hrtimer_run_softirq(&c.base);
}

void hr_free_model::catch_up(unsigned cpu, std::int64_t mono, std::uint32_t work_of, bool in_interrupt)
{
	cpu_state &c = cpus_[cpu];
	c.machine.offs_real = offs_real_;
	for (;;) {
		if (c.base.deferred_rearm && mono > c.window_last && !holds(cpu, work_of, in_interrupt))
			rearm(cpu);
		const std::int64_t at = next_interrupt(cpu);
		if (at > mono)
			break;
		interrupt(cpu, at, false);
	}
	c.machine.now = std::max(c.machine.now, mono);
	// Interrupts taken ahead that the clock has passed.
	c.ahead.erase(std::remove_if(c.ahead.begin(), c.ahead.end(), [&](std::int64_t t) { return t < c.machine.now; }),
		      c.ahead.end());
}

void hr_free_model::setup(std::uint32_t id, unsigned cpu, int clockid, unsigned mode, bool user, std::int64_t mono)
{
	entry &e = entry_of(id);
	if (e.set_up && hr::hrtimer_is_queued(&e.timer)) {
		const unsigned from = cpu_of(e);
		catch_up(from, mono);
		hr::hrtimer_try_to_cancel(&cpus_[from].base, &e.timer);
	}
	// No catch_up() of CPU: a set-up touches no queue nor device (and
	// one inside the interrupt, of a timer first seen started there, must
	// not end 7.1's deferred rearm).
	hr::hrtimer_setup(&e.timer, &fired, this, clockid, mode, &cpus_[cpu].base);
	e.user = user;
	e.set_up = true;
}

void hr_free_model::start(std::uint32_t id, unsigned cpu, bool user, bool sleeper, std::int64_t soft,
			  std::int64_t hard, unsigned mode, std::int64_t mono, std::int64_t offs_real, bool in_interrupt)
{
	entry &e = entry_of(id);
	if (!e.set_up)
		return;
	offs_real_ = offs_real;
	e.user = user;
	if (hr::hrtimer_is_queued(&e.timer) && cpu_of(e) != cpu)
		catch_up(cpu_of(e), mono);
	// 7.1: a start inside the recorded interrupt (the re-arm of a timer
	// the pending interrupt ran, or any once its work was seen) is that
	// interrupt's work, however long its callbacks took: the rearm stays
	// pending.
	if (in_interrupt && policy_.restarts_in_interrupt) {
		catch_up(cpu, mono, id, true);
		cpus_[cpu].recorded = cpus_[cpu].recorded || ran_in_pending(id, cpu);
	} else {
		catch_up(cpu, mono);
	}
	std::int64_t delta = hard - soft;
	using rule = hr_what_if_options::slack_rule;
	if (policy_.slack == rule::exact)
		delta = 0;
	else if (policy_.slack == rule::user && user && sleeper && policy_.rt_zero_slack && delta == 0)
		rt_exact_++;	// a real-time task's sleep: no slack (policy::rt_zero_slack)
	else if (policy_.slack == rule::user && user)
		delta = policy_.user_slack_ns;
	if (delta != hard - soft)
		ranges_changed_++;
	end_of_interrupt(cpu, mono, in_interrupt);
	if (hr::hrtimer_is_queued(&e.timer))
		end_of_interrupt(cpu_of(e), mono, false);
	if (hr::hrtimer_is_queued(&e.timer) && cpu_of(e) != cpu)
		cpus_[cpu_of(e)].irq_write = cpu_state::write::none;
	cpu_state &c = cpus_[cpu];
	const std::uint64_t programs = c.base.dev.programs, stops = c.base.dev.stops;
	hr::hrtimer_start_range_ns(&c.base, &e.timer, soft, delta, mode, nullptr);
	fold_in_hrtirq(c, in_interrupt, last_write(c.base.dev, programs, stops));
	// The event's time in the timer's clock (not the CPU's clock, which a
	// what-if could have left elsewhere).
	e.armed_at = mono + (hr::hrtimer_cb_get_time(&e.timer) - cpus_[cpu].machine.now);
}

void hr_free_model::cancel(std::uint32_t id, std::int64_t mono, bool tick_pair, int in_interrupt_of)
{
	entry &e = entry_of(id);
	if (!e.set_up || !hr::hrtimer_is_queued(&e.timer))
		return;
	if (tick_pair && policy_.tick_modify_in_place) {
		tick_pairs_merged_++;	// the start that follows moves it
		return;
	}
	const unsigned cpu = cpu_of(e);
	// Inside the recorded interrupt (a callback's cancel): folded as a
	// start there is (start()).
	const bool inside = in_interrupt_of == int(cpu);
	if (inside && policy_.restarts_in_interrupt)
		catch_up(cpu, mono, UINT32_MAX, true);
	else
		catch_up(cpu, mono);
	end_of_interrupt(cpu, mono, inside);
	cpu_state &c = cpus_[cpu];
	const std::uint64_t programs = c.base.dev.programs, stops = c.base.dev.stops;
	if (hr::hrtimer_is_queued(&e.timer))
		hr::hrtimer_try_to_cancel(&c.base, &e.timer);
	fold_in_hrtirq(c, inside, last_write(c.base.dev, programs, stops));
}

void hr_free_model::fold_in_hrtirq(cpu_state &c, bool in_interrupt, cpu_state::write now)
{
	if (!in_interrupt)
		c.irq_write = cpu_state::write::none;
	else if (c.irq_write != cpu_state::write::none && now != cpu_state::write::none) {
		(c.irq_write == cpu_state::write::stop ? c.base.dev.stops : c.base.dev.programs)--;
		c.irq_write = now;
	}
}

hr_free_model::cpu_state::write hr_free_model::last_write(const hr::clock_event_device &d, std::uint64_t programs,
							 std::uint64_t stops)
{
	if (d.programs == programs && d.stops == stops)
		return cpu_state::write::none;
	return d.next_event == hr::KTIME_MAX ? cpu_state::write::stop : cpu_state::write::program;
}

std::uint64_t hr_free_model::device_programs() const
{
	std::uint64_t n = 0;
	for (const cpu_state &c : cpus_)
		n += c.base.dev.programs + c.base.dev.stops;
	return n;
}

void hr_free_model::recorded_expiry(std::uint32_t id, std::int64_t mono)
{
	entry &e = entry_of(id);
	if (!e.set_up || !hr::hrtimer_is_queued(&e.timer))
		return;
	const unsigned cpu = cpu_of(e);
	catch_up(cpu, mono, id);
	if (!hr::hrtimer_is_queued(&e.timer)) {
		// 7.1: the model's interrupt ran it, at the device's time; the
		// recording's ran it here, so that interrupt lasts to here: the
		// re-arms logged after this expiry fold into its rearm.
		if (ran_in_pending(id, cpu)) {
			cpus_[cpu].window_last = std::max(cpus_[cpu].window_last, mono);
			cpus_[cpu].recorded = true;
		}
		return;
	}
	// 7.1: the recording ran a timer the model still holds (a soft one,
	// in the softirq the interrupt raised): that interrupt has ended, its
	// rearm made and the softirq run after it.
	if (cpus_[cpu].base.deferred_rearm) {
		cpus_[cpu].machine.now = std::max(cpus_[cpu].machine.now, cpus_[cpu].window_last);
		rearm(cpu);
		if (!hr::hrtimer_is_queued(&e.timer))
			return;
	}
	// The model runs it later than the recording did: its interrupts run
	// on until it has, at their own times; then the CPU's clock goes back
	// to the recording's (a clock left ahead would run every later timer
	// late, and later still).
	ran_ahead_++;
	cpu_state &c = cpus_[cpu];
	const std::int64_t clock = c.machine.now;
	for (unsigned n = 0; n < max_run_ahead && hr::hrtimer_is_queued(&e.timer); n++) {
		rearm(cpu);	// 7.1: each interrupt run ahead ends before the next
		const std::int64_t at = next_interrupt(cpu);
		if (at == INT64_MAX)
			break;
		interrupt(cpu, at, true);
	}
	// 7.1: the last interrupt run ahead ends there too, before the clock
	// goes back (a rearm left pending would be made at its time, ahead of
	// the starts the recording makes meanwhile, and find them past due);
	// but one that ran it just after this expiry (an untraced re-arm,
	// told at the expiry, fires the device's minimum delta later) is the
	// recorded interrupt: its re-arms logged next fold into it.
	if (ran_in_pending(id, cpu) && c.last_at - mono <= c.base.dev.min_delta_ns)
		c.recorded = true;
	else
		rearm(cpu);
	if (hr::hrtimer_is_queued(&e.timer))
		hr::hrtimer_try_to_cancel(&c.base, &e.timer);
	c.machine.now = clock;
}

std::int64_t hr_free_model::last_tick() const
{
	std::int64_t last = INT64_MIN;
	for (const cpu_state &c : cpus_)
		last = std::max(last, c.max_at);
	return last;
}

void hr_free_model::finish(std::int64_t mono)
{
	for (unsigned c = 0; c < cpus_.size(); c++) {
		catch_up(c, mono);
		rearm(c);	// an interrupt at the trace's very end
	}
}

// ---- queue designs -------------------------------------------------------------

void hr_queue_feed::arm(std::uint32_t queue, std::uint32_t timer, std::int64_t expires)
{
	ops_.push_back({queue, timer, expires, op_kind::arm});
}

void hr_queue_feed::remove(std::uint32_t queue, std::uint32_t timer)
{
	ops_.push_back({queue, timer, 0, op_kind::remove});
}

void hr_queue_feed::expire(std::uint32_t queue, std::uint32_t timer, std::int64_t expires)
{
	ops_.push_back({queue, timer, expires, op_kind::expire});
}

std::vector<hrtimer_queue_figures> hr_queue_feed::run(const std::vector<std::string> &designs)
{
	// Each queue numbers its own timers densely; its clock starts at its
	// earliest expiry (a wheel's cursor must not pass a queued timer).
	std::uint32_t queues = 0;
	for (const op &o : ops_)
		queues = std::max(queues, o.queue + 1);
	std::vector<std::uint32_t> capacity(queues, 0);
	std::vector<std::int64_t> earliest(queues, INT64_MAX);
	std::unordered_map<std::uint64_t, std::uint32_t> local;
	for (op &o : ops_) {
		auto it = local.try_emplace((std::uint64_t{o.queue} << 32) | o.timer, capacity[o.queue]).first;
		if (it->second == capacity[o.queue])
			capacity[o.queue]++;
		o.timer = it->second;
		if (o.kind == op_kind::arm)
			earliest[o.queue] = std::min(earliest[o.queue], o.expires);
	}
	std::vector<hrtimer_queue_figures> out;
	for (const std::string &name : designs) {
		hrtimer_queue_figures f;
		f.design = name;
		std::vector<std::unique_ptr<hrq::queue_design>> qs(queues);
		for (std::uint32_t q = 0; q < queues; q++) {
			if (!capacity[q])
				continue;
			qs[q] = hrq::make_queue_design(name);
			qs[q]->reset(capacity[q], earliest[q] == INT64_MAX ? 0 : earliest[q]);
		}
		for (const op &o : ops_) {
			hrq::queue_design &q = *qs[o.queue];
			switch (o.kind) {
			case op_kind::arm:
				f.arms++;
				q.arm(o.timer, o.expires);
				break;
			case op_kind::remove:
				f.removes++;
				if (!q.remove(o.timer))
					f.remove_missed++;
				break;
			case op_kind::expire: {
				// The model ran the first timer of its queue.
				f.expiries++;
				hrq::qid t = 0;
				hrq::ktime e = 0;
				const bool have = q.first(&t, &e);
				const bool same = have && t == o.timer;
				if (!same) {
					if (have && e == o.expires)
						f.tie_reorders++;
					else
						f.order_mismatches++;
				}
				if (!q.remove(o.timer))
					f.remove_missed++;
				if (same || (have && e == o.expires))
					q.advance(o.expires);
				break;
			}
			}
		}
		for (const auto &q : qs) {
			if (!q)
				continue;
			const hrq::queue_costs c = q->costs();
			f.costs.insertions += c.insertions;
			f.costs.removals += c.removals;
			f.costs.in_place += c.in_place;
			f.costs.comparisons += c.comparisons;
			f.costs.depth += c.depth;
			f.costs.max_depth = std::max(f.costs.max_depth, c.max_depth);
			f.costs.rotations += c.rotations;
			f.costs.slot_visits += c.slot_visits;
			f.costs.cascades += c.cascades;
		}
		out.push_back(f);
	}
	return out;
}

// ---- the what-ifs of a replay ------------------------------------------------------

hr_what_ifs::hr_what_ifs(unsigned cpus, const hr_what_if_options &opt, unsigned hz,
			 std::function<std::string(std::uint32_t)> name_of)
	: opt_(opt), cpus_(cpus), tick_nsec_((1'000'000'000 + hz / 2) / (hz ? hz : 250)),
	  name_of_(std::move(name_of))
{
	using rule = hr_what_if_options::slack_rule;
	hr_free_model::policy p;
	p.tick_nsec = tick_nsec_;
	// The baseline runs 6.18's rules as they are (a re-arm the trace logs
	// after its interrupt folds into that interrupt's one write): every
	// what-if is set against this same model.
	if (opt.slack != rule::recorded || opt.highres_off || opt.kernel_71)
		baseline_ = std::make_unique<hr_free_model>(cpus, p);
	if (opt.kernel_71) {
		hr_free_model::policy k = p;
		k.restarts_in_interrupt = true;
		k.tick_modify_in_place = true;
		k.deferred_rearm = true;
		v71_ = std::make_unique<hr_free_model>(cpus, k);
	}
	if (opt.slack != rule::recorded) {
		hr_free_model::policy s = p;
		s.slack = opt.slack;
		s.user_slack_ns = opt.user_slack_ns;
		s.rt_zero_slack = opt.rt_zero_slack;
		slack_ = std::make_unique<hr_free_model>(cpus, s);
	}
	if (opt.highres_off) {
		hr_free_model::policy l = p;
		l.highres = false;
		lowres_ = std::make_unique<hr_free_model>(cpus, l);
	}
	if (!opt.queues.empty())
		queues_ = std::make_unique<hr_queue_feed>();
}

std::vector<hr_free_model *> hr_what_ifs::models()
{
	std::vector<hr_free_model *> out;
	for (auto *m : {baseline_.get(), slack_.get(), lowres_.get(), v71_.get()})
		if (m)
			out.push_back(m);
	return out;
}

bool hr_what_ifs::user(std::uint32_t function)
{
	if (user_.size() <= function)
		user_.resize(std::size_t(function) + 1, -1);
	if (user_[function] < 0)
		user_[function] = function && is_user_space_hrtimer(name_of_(function));
	return user_[function] == 1;
}

bool hr_what_ifs::sleeper(std::uint32_t function)
{
	if (sleeper_.size() <= function)
		sleeper_.resize(std::size_t(function) + 1, -1);
	if (sleeper_[function] < 0)
		sleeper_[function] = function && name_of_(function) == "hrtimer_wakeup";
	return sleeper_[function] == 1;
}

bool hr_what_ifs::tick(std::uint32_t function)
{
	if (tick_.size() <= function)
		tick_.resize(std::size_t(function) + 1, -1);
	if (tick_[function] < 0)
		tick_[function] = function && is_tick_callback_name(name_of_(function));
	return tick_[function] == 1;
}

std::uint32_t hr_what_ifs::queue_of(const hr::hrtimer &t)
{
	return t.base->cpu_base->cpu * hr::HRTIMER_MAX_CLOCK_BASES + t.base->index + 1;
}

std::uint32_t hr_what_ifs::place_of(const hr::hrtimer &t)
{
	return hr::hrtimer_is_queued(&t) ? queue_of(t) : 0;
}

void hr_what_ifs::interrupt_activity(unsigned cpu, std::int64_t mono, std::uint32_t expired)
{
	if (!v71_)
		return;
	v71_->interrupt_activity(cpu, mono, expired);
}

void hr_what_ifs::setup(std::uint32_t id, unsigned cpu, int clockid, unsigned mode, std::uint32_t function,
			std::int64_t mono)
{
	const bool u = user(function);
	for (hr_free_model *m : models())
		m->setup(id, cpu, clockid, mode, u, mono);
}

void hr_what_ifs::start(std::uint32_t id, unsigned cpu, std::uint32_t function, std::int64_t soft,
			std::int64_t hard, unsigned mode, std::int64_t mono, std::int64_t offs_real, bool in_interrupt)
{
	// The tick's grid, from the tick hrtimer's own expiries (MONOTONIC).
	if (lowres_ && !phase_known_ && tick(function)) {
		lowres_->set_tick_phase(((hard % tick_nsec_) + tick_nsec_) % tick_nsec_);
		phase_known_ = true;
	}
	if (armed_mono_.size() <= id)
		armed_mono_.resize(std::size_t(id) + 1, 0);
	armed_mono_[id] = mono;
	const bool u = user(function), sl = u && sleeper(function);
	for (hr_free_model *m : models())
		m->start(id, cpu, u, sl, soft, hard, mode, mono, offs_real, in_interrupt);
}

void hr_what_ifs::cancel(std::uint32_t id, std::int64_t mono, bool tick_pair, int in_interrupt_of)
{
	for (hr_free_model *m : models())
		m->cancel(id, mono, tick_pair, in_interrupt_of);
}

void hr_what_ifs::recorded_expiry(std::uint32_t id, std::uint32_t function, std::int64_t mono, std::int64_t now,
				  std::int64_t soft)
{
	// The arming in the timer's clock: this expiry's now - mono is its
	// clock's offset.
	const std::int64_t armed = id < armed_mono_.size() && armed_mono_[id] ? armed_mono_[id] + (now - mono) : 0;
	const std::int64_t from = std::max(soft, armed);
	if (soft && now >= from) {
		recorded_all_.add(now - from);
		if (user(function))
			recorded_user_.add(now - from);
	}
	for (hr_free_model *m : models())
		m->recorded_expiry(id, mono);
}

void hr_what_ifs::moved(std::uint32_t id, std::uint32_t before, std::uint32_t after, std::int64_t expires)
{
	if (!queues_ || (!before && !after))
		return;
	if (before && before == after) {
		queues_->arm(after - 1, id, expires);	// a re-arm in place
		return;
	}
	if (before)
		queues_->remove(before - 1, id);
	if (after)
		queues_->arm(after - 1, id, expires);
}

void hr_what_ifs::model_expired(std::uint32_t id, std::uint32_t place, std::int64_t expires)
{
	if (queues_)
		queues_->expire(place - 1, id, expires);
}

void hr_what_ifs::finish(std::uint64_t recorded_interrupts, std::int64_t first_mono, std::int64_t mono,
			 hrtimer_summary &out)
{
	using rule = hr_what_if_options::slack_rule;
	for (hr_free_model *m : models())
		m->finish(mono);
	auto side = [](std::uint64_t interrupts, const lateness_histogram &h) {
		hrtimer_what_if_side s;
		s.interrupts = interrupts;
		s.lateness = h.figures();
		s.expiries = s.lateness.count;
		return s;
	};
	// Every what-if sets one model beside the recording and the baseline
	// model, over the same timers.
	auto against = [&](const char *name, std::string setting, const char *scope, const hr_free_model &m,
			   bool user_only) {
		hrtimer_what_if w;
		w.name = name;
		w.setting = std::move(setting);
		w.scope = scope;
		w.recorded = side(recorded_interrupts, user_only ? recorded_user_ : recorded_all_);
		w.model = side(baseline_->interrupts(), baseline_->lateness(user_only));
		w.what_if = side(m.interrupts(), m.lateness(user_only));
		w.ran_ahead = m.ran_ahead();
		return w;
	};
	if (slack_) {
		const bool user_only = opt_.slack == rule::user;
		hrtimer_what_if w =
			against("slack", user_only ? std::to_string(opt_.user_slack_ns) : "exact",
				user_only ? "user-space timers" : "every timer", *slack_, user_only);
		w.ranges_changed = slack_->ranges_changed();
		w.rt_exact = slack_->rt_exact();
		w.rt_zero_slack = opt_.rt_zero_slack;
		out.what_ifs.push_back(w);
	}
	if (lowres_) {
		hrtimer_what_if w = against("highres", "off", "every timer", *lowres_, false);
		// The jiffies the trace spans on every CPU (to the model's last
		// tick, which may run a timer due just after the trace's end).
		const std::int64_t phase = lowres_->tick_phase();
		const std::int64_t end = std::max(mono, lowres_->last_tick());
		if (end >= first_mono)
			w.ticks = std::uint64_t(floor_to_grid(end, phase, tick_nsec_) -
						floor_to_grid(first_mono, phase, tick_nsec_) + 1) *
				  cpus_;
		out.what_ifs.push_back(w);
	}
	if (v71_) {
		hrtimer_what_if w = against("kernel", "7.1", "every timer", *v71_, false);
		w.model.device_programs = baseline_->device_programs();
		w.what_if.device_programs = v71_->device_programs();
		w.tick_pairs_merged = v71_->tick_pairs_merged();
		out.what_ifs.push_back(w);
	}
	if (queues_)
		out.queues = queues_->run(opt_.queues);
}

}  // namespace timersim
