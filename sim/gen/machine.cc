#include "sim/gen/machine.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "kernel/classic_wheel.h"
#include "kernel/v48_wheel.h"
#include "sim/base/errors.h"
#include "sim/whatif/kernel_time.h"

namespace timersim::gen {

namespace {

using slack_config = kernel::wheel_config<kernel::geometry_normal, std::uint64_t>;

// 3.x mod_timer(): the kernel's own apply_slack() with the default slack
// (-1: 0.4% of the timeout, none below 256 jiffies).
jiffies_t slacked(jiffies_t expires, jiffies_t now)
{
	kernel::timer_list<slack_config> t{};
	t.slack = -1;
	return kernel::apply_slack(&t, expires, now);
}

// calc_wheel_index() of the v48 wheel at this HZ's LVL_DEPTH: the index and
// the bucket's expiry.
std::uint32_t v48_index(unsigned hz, jiffies_t expires, jiffies_t clk, jiffies_t &bucket)
{
	if (kernel::v48::lvl_depth_for_hz(hz) == 9)
		return kernel::v48::calc_wheel_index<kernel::v48::geometry_hz_gt_100, std::uint64_t>(expires, clk,
												      &bucket);
	return kernel::v48::calc_wheel_index<kernel::v48::geometry_hz_le_100, std::uint64_t>(expires, clk, &bucket);
}

}  // namespace

machine::machine(const machine_options &opt) : opt_(opt)
{
	if (!opt_.hz || !opt_.cpus)
		throw std::invalid_argument("machine: hz and cpus must be positive");
	jiffies_ = next_jiffy_ = opt_.start;
	functions_.push_back("");	// 0: none
	function_ids_[""] = 0;
	tasks_.push_back({"<idle>", 0});	// 0: the softirq's context
	ran_softirq_.assign(opt_.cpus, ~jiffies_t{0});
	if (opt_.kernel == kernel_gen::linux6)
		opt_.slack = false;	// removed in 4.8
}

jiffies_t machine::base_clk(unsigned cpu) const
{
	return ran_softirq_[cpu] == jiffies_ ? jiffies_ + 1 : jiffies_;
}

std::uint64_t machine::jiffy_ns(jiffies_t j) const
{
	return mul_div_up(j - opt_.start, 1'000'000'000, opt_.hz);
}

jiffies_t machine::timeout_for(std::uint64_t ns) const
{
	return std::clamp<jiffies_t>(duration_to_jiffies(ns, opt_.hz), 1, max_timeout);
}

std::uint32_t machine::function(const std::string &name)
{
	auto [it, fresh] = function_ids_.try_emplace(name, static_cast<std::uint32_t>(functions_.size()));
	if (fresh)
		functions_.push_back(name);
	return it->second;
}

std::uint32_t machine::task(const std::string &comm)
{
	// pids as a busy server's: each task's threads get their own hundred.
	tasks_.push_back({comm, 1000 + 100 * static_cast<unsigned>(tasks_.size())});
	return static_cast<std::uint32_t>(tasks_.size() - 1);
}

std::uint32_t machine::pool(std::uint64_t base, std::uint64_t stride)
{
	pools_.push_back({base, stride, 0, std::vector<std::vector<std::uint32_t>>(opt_.cpus)});
	return static_cast<std::uint32_t>(pools_.size() - 1);
}

timer_h machine::new_timer(source *owner, std::uint32_t pool, std::uint32_t function, unsigned cpu,
			   std::uint64_t cookie)
{
	timer_h t;
	if (!free_timers_.empty()) {
		t = free_timers_.back();
		free_timers_.pop_back();
	} else {
		if (timers_.size() >= opt_.max_timers)
			too_much("more than " + std::to_string(opt_.max_timers) + " timers alive at once");
		t = static_cast<timer_h>(timers_.size());
		timers_.emplace_back();
	}
	address_pool &p = pools_.at(pool);
	std::vector<std::uint32_t> &free = p.free[cpu % opt_.cpus];
	std::uint32_t slot;
	if (!free.empty()) {
		slot = free.back();
		free.pop_back();
	} else {
		slot = p.next++;
	}
	timer_obj &o = timers_[t];
	// The arming count goes on across reuse: an expiry still queued for
	// the object's previous life must stay stale.
	std::uint32_t arming = o.arming + 1;
	o = timer_obj{};
	o.arming = arming;
	o.owner = owner;
	o.address = p.base + slot * p.stride;
	o.cookie = cookie;
	o.function = function;
	o.pool = pool;
	o.slot = slot;
	o.cpu = cpu % opt_.cpus;
	o.live = true;
	emit(event_kind::timer_init, o);
	return t;
}

void machine::free_timer(timer_h t)
{
	timer_obj &o = timers_[t];
	if (o.pending || !o.live)
		throw std::logic_error("machine: freeing a pending or dead timer");
	o.live = false;
	freed_this_jiffy_.push_back({o.pool, o.cpu, o.slot});
	free_timers_.push_back(t);
}

void machine::mod_timer(timer_h t, jiffies_t timeout, bool exact)
{
	jiffies_t expires = jiffies_ + std::clamp<jiffies_t>(timeout, 1, max_timeout);
	if (opt_.slack && !exact)
		expires = slacked(expires, jiffies_);
	arm(t, expires);
}

void machine::mod_timer_at(timer_h t, jiffies_t expires)
{
	arm(t, std::max(expires, jiffies_ + 1));
}

void machine::arm(timer_h t, jiffies_t expires)
{
	timer_obj &o = timers_[t];
	if (o.pending && o.expires == expires)
		return;		// mod_timer(): nothing to do, nothing traced
	const bool v6 = opt_.kernel == kernel_gen::linux6;
	jiffies_t fires = expires;
	std::uint32_t idx = 0;
	if (v6) {
		idx = v48_index(opt_.hz, expires, base_clk(o.cpu), fires);
		if (o.pending && idx == o.idx) {
			o.expires = expires;	// the same bucket: nothing moves, nothing traced
			return;
		}
	}
	if (o.pending)
		emit(event_kind::timer_cancel, o);
	o.pending = true;
	o.expires = expires;
	o.fires = fires;
	o.idx = idx;
	o.arming++;
	gen_event &ev = emit(event_kind::timer_start, o);
	ev.expires = expires;
	ev.timeout = static_cast<std::int64_t>(expires - jiffies_);
	ev.bucket_expiry = fires;
	ev.idx = idx;
	due_.push({fires, o.cpu, seq_++, t, o.arming});
}

bool machine::del_timer(timer_h t)
{
	timer_obj &o = timers_[t];
	if (!o.pending)
		return false;
	o.pending = false;
	o.arming++;	// the queued expiry is stale now
	emit(event_kind::timer_cancel, o);
	return true;
}

void machine::at(std::uint64_t t_ns, source *s, std::uint64_t tag, std::uint32_t task)
{
	actions_.push({std::max(t_ns, now_ns_), seq_++, s, tag, task});
}

void machine::too_much(const std::string &what) const
{
	char when[48];
	std::snprintf(when, sizeof when, "%.6f", double(now_ns_) / 1e9);
	throw usage_error("gen: " + what + " (at " + when + " s of the trace): lower the workloads' rates or "
			  "populations, or --scale");
}

gen_event &machine::emit(event_kind kind, const timer_obj &o)
{
	if (out_->size() >= opt_.max_events_per_jiffy)
		too_much("more than " + std::to_string(opt_.max_events_per_jiffy) + " events in one jiffy");
	// Trace clocks print microseconds; the timestamp never goes back.
	std::uint64_t ts = (opt_.uptime_ns + now_ns_) / 1000 * 1000;
	last_ts_ = std::max(last_ts_, ts);
	gen_event ev;
	ev.kind = kind;
	ev.v6 = opt_.kernel == kernel_gen::linux6;
	ev.softirq = in_softirq_;
	ev.cpu = o.cpu;
	ev.task = in_softirq_ ? 0 : current_task_;
	ev.ts_ns = last_ts_;
	ev.timer = o.address;
	ev.function = o.function;
	out_->push_back(ev);
	return out_->back();
}

void machine::fire(timer_h t)
{
	timer_obj &o = timers_[t];
	o.pending = false;
	timer_obj snapshot = o;		// the callback may free and reuse it
	if (opt_.expiries) {
		emit(event_kind::timer_cancel, snapshot);
		emit(event_kind::timer_expire_entry, snapshot).now = jiffies_;
		ran_softirq_[snapshot.cpu] = jiffies_;
	}
	o.owner->fired(*this, t);
	if (opt_.expiries)
		emit(event_kind::timer_expire_exit, snapshot);
}

bool machine::step(std::vector<gen_event> &out)
{
	const jiffies_t k = next_jiffy_;
	if (jiffy_ns(k) >= opt_.duration_ns)
		return false;
	out_ = &out;
	for (const freed_slot &f : freed_this_jiffy_)
		pools_[f.pool].free[f.cpu].push_back(f.slot);
	freed_this_jiffy_.clear();
	jiffies_ = k;
	now_ns_ = jiffy_ns(k);

	// The timer softirq of each CPU, in CPU order.
	in_softirq_ = true;
	while (!due_.empty() && due_.top().fires <= k) {
		due d = due_.top();
		due_.pop();
		const timer_obj &o = timers_[d.timer];
		if (o.pending && o.arming == d.arming && o.live)
			fire(d.timer);
	}
	in_softirq_ = false;

	// Then what runs in process context during the jiffy.
	const std::uint64_t end = std::min(jiffy_ns(k + 1), opt_.duration_ns);
	while (!actions_.empty() && actions_.top().t_ns < end) {
		action a = actions_.top();
		actions_.pop();
		now_ns_ = a.t_ns;
		current_task_ = a.task;
		a.s->act(*this, a.tag);
	}
	next_jiffy_ = k + 1;
	out_ = nullptr;
	return true;
}

}  // namespace timersim::gen
