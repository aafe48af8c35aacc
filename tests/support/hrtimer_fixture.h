// Shared pieces of the hrtimer model's Check tests: a machine of a few CPUs,
// timers whose callback logs each run (and may take time, re-arm
// periodically, or do what a test asks), and advance_to(), which delivers
// every device interrupt due by a time in time order, each followed by the
// HRTIMER_SOFTIRQ it raised, with hrtimer_check() on every CPU after each.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "kernel/hrtimer.h"
#include "kernel/hrtimer_check.h"

#include "tests/support/check_main.h"
#undef fail

namespace hrtest {

using namespace kernel::hr;

#define CK_HRTIMER(cpu_base)                                                                           \
	do {                                                                                           \
		auto r_ = kernel::hr::hrtimer_check(cpu_base);                                         \
		ck_assert_msg(static_cast<bool>(r_), "hrtimer_check: %s on base %u",                   \
			      kernel::hr::hrtimer_fault_name(r_.fault), r_.base);                       \
	} while (0)

struct fixture;

struct run_rec {
	int id;
	unsigned cpu;
	ktime_t now;		// CLOCK_MONOTONIC when it ran
	bool soft;
	unsigned interrupt;	// the CPU's nr_events then (0: from the tick or softirq alone)
};

// A timer of the test: id, what its callback does.
struct ttimer {
	hrtimer timer;
	fixture *fx = nullptr;
	int id = 0;
	ktime_t period = 0;	// > 0: hrtimer_forward_now() and RESTART
	bool forward_from_expires = false;	// forward from its own expiry, not now (falls behind)
	ktime_t cost = 0;	// the callback takes this long (machine time moves on)
	bool stop = false;	// NORESTART from now on
	std::function<void(ttimer &)> action;	// more work inside the callback
};

struct fixture {
	hrtimer_machine m;
	std::vector<std::unique_ptr<hrtimer_cpu_base>> cpus;
	std::vector<std::unique_ptr<ttimer>> timers;
	std::vector<run_rec> runs;
	bool check = true;
	// 7.1 rules (rearm_deferred): what the way out of an interrupt does
	// before the deferred rearm (the tick's restart or stop at irq exit,
	// the schedule() it ends in), on that CPU.
	std::function<void(unsigned cpu)> irq_exit;

	explicit fixture(unsigned ncpus = 2, hrtimer_generation gen = hrtimer_generation::soft_bases, bool hres = true,
			 clock_event_device dev = {})
	{
		for (unsigned i = 0; i < ncpus; i++) {
			cpus.push_back(std::make_unique<hrtimer_cpu_base>());
			hrtimer_cpu_base_init(cpus.back().get(), &m, i, gen, hres, dev);
		}
	}

	hrtimer_cpu_base *cpu(unsigned i) { return cpus[i].get(); }

	static hrtimer_restart callback(hrtimer *t, void *context)
	{
		ttimer &tt = *static_cast<ttimer *>(context);
		fixture &fx = *tt.fx;
		hrtimer_cpu_base *cb = t->base->cpu_base;
		fx.runs.push_back({tt.id, cb->cpu, fx.m.now, t->is_soft, cb->in_hrtirq ? cb->nr_events : 0});
		fx.m.now += tt.cost;
		if (tt.action)
			tt.action(tt);
		if (tt.stop || tt.period <= 0)
			return HRTIMER_NORESTART;
		if (tt.forward_from_expires)
			hrtimer_forward(t, hrtimer_get_expires(t), tt.period);
		else
			hrtimer_forward_now(t, tt.period);
		return HRTIMER_RESTART;
	}

	// A timer set up on CPU `on` for `clockid` and `mode`.
	ttimer &add(int id, unsigned on = 0, int clockid = HR_CLOCK_MONOTONIC, unsigned mode = HRTIMER_MODE_ABS)
	{
		timers.push_back(std::make_unique<ttimer>());
		ttimer &tt = *timers.back();
		tt.fx = this;
		tt.id = id;
		hrtimer_setup(&tt.timer, callback, &tt, clockid, mode, cpu(on));
		return tt;
	}

	void start(ttimer &tt, ktime_t tim, ktime_t delta = 0, unsigned mode = HRTIMER_MODE_ABS, unsigned from = 0,
		   hrtimer_cpu_base *target = nullptr)
	{
		hrtimer_start_range_ns(cpu(from), &tt.timer, tim, delta, mode, target);
		check_all();
	}

	int cancel(ttimer &tt, unsigned from = 0)
	{
		int r = hrtimer_try_to_cancel(cpu(from), &tt.timer);
		check_all();
		return r;
	}

	void check_all()
	{
		if (!check)
			return;
		for (auto &c : cpus)
			CK_HRTIMER(*c);
	}

	// The CPU whose device fires first, by `upto`; -1 when none.
	int next_firing(ktime_t upto) const
	{
		int best = -1;
		for (unsigned i = 0; i < cpus.size(); i++) {
			ktime_t at = cpus[i]->dev.fires_at;
			if (at <= upto && (best < 0 || at < cpus[best]->dev.fires_at))
				best = static_cast<int>(i);
		}
		return best;
	}

	// Delivers every interrupt due by `t` (then now = t). Returns how many.
	unsigned advance_to(ktime_t t, unsigned limit = 1000000)
	{
		unsigned n = 0;
		for (int c; (c = next_firing(t)) >= 0 && n < limit; n++) {
			hrtimer_cpu_base *cb = cpu(static_cast<unsigned>(c));
			if (cb->dev.fires_at > m.now)
				m.now = cb->dev.fires_at;
			hrtimer_interrupt(cb);
			if (irq_exit)
				irq_exit(cb->cpu);
			// 7.1: rearmed before the softirqs run (__irq_exit_rcu()).
			hrtimer_rearm_deferred(cb);
			if (cb->softirq_pending)
				hrtimer_run_softirq(cb);
			check_all();
		}
		if (t > m.now)
			m.now = t;
		return n;
	}

	std::vector<int> ran_ids() const
	{
		std::vector<int> v;
		for (const run_rec &r : runs)
			v.push_back(r.id);
		return v;
	}
};

}  // namespace hrtest
