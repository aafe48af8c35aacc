// `bursts`: many timers armed in the same instant, as when a batch of
// requests is issued together or a thundering herd of connections starts:
// every `every`, a burst of `size` timers on one CPU (a random one unless
// `cpu` is given), within one jiffy, with timeouts around `timeout`
// (log-normal spread `sigma`; 0: all equal, so they also expire together).
// A `cancel` fraction is deleted before expiry, at a uniform time over the
// timeout.
#include "sim/gen/kinds.h"
#include "sim/gen/slots.h"

namespace timersim::gen {

namespace {

// Named: sim/gen is compiled as one unit (Makefile, LIB_UNITS), and each
// kind has its own make() and steps.
namespace kind_bursts {

enum step : std::uint8_t { burst, done };

class bursts final : public source {
public:
	bursts(const workload_params &p, const source_context &ctx)
		: r_(ctx.seed), every_(p.positive_duration_ns("every")),
		  size_(p.population("size", ctx.scale)),
		  timeout_(p.duration_ns("timeout")), sigma_(p.number("sigma")), cancel_(p.fraction("cancel")),
		  cpu_(p.cpu("cpu"))
	{
		fn_ = ctx.m.function(p.function_name("fn"));
		task_ = ctx.m.task(p.task_name("task"));
		objects_ = ctx.m.pool(pool_base(ctx.index, 0), 0x100);
	}

	void begin(machine &m) override { m.at(every_ / 2, this, burst, task_); }

	void act(machine &m, std::uint64_t t) override
	{
		if (reqs_.step_of(t) == burst) {
			m.at(m.now_ns() + every_, this, burst, task_);
			unsigned cpu = pick_cpu(m, r_, cpu_);
			for (std::uint64_t i = 0; i < size_; i++)
				arm(m, cpu);
			return;
		}
		std::uint32_t slot;
		if (!reqs_.resolve(t, slot))
			return;
		m.del_timer(reqs_[slot]);
		finish(m, slot);
	}

	void fired(machine &m, timer_h t) override { finish(m, static_cast<std::uint32_t>(m.cookie(t))); }

private:
	void arm(machine &m, unsigned cpu)
	{
		double ns = sigma_ > 0 ? r_.lognormal(double(timeout_), sigma_) : double(timeout_);
		std::uint64_t timeout_ns = static_cast<std::uint64_t>(std::min(ns, 1e18));
		std::uint32_t slot = reqs_.alloc();
		timer_h t = m.new_timer(this, objects_, fn_, cpu, slot);
		reqs_[slot] = t;
		m.mod_timer(t, m.timeout_for(timeout_ns));
		if (r_.chance(cancel_))
			m.at(m.now_ns() + static_cast<std::uint64_t>(r_.uniform() * double(timeout_ns)), this,
			     reqs_.tag(slot, done), task_);
	}

	void finish(machine &m, std::uint32_t slot)
	{
		m.free_timer(reqs_[slot]);
		reqs_.release(slot);
	}

	rng r_;
	std::uint64_t every_, size_, timeout_;
	double sigma_, cancel_;
	int cpu_;
	std::uint32_t fn_ = 0, task_ = 0, objects_ = 0;
	slot_table<timer_h> reqs_;
};

std::unique_ptr<source> make(const workload_params &p, const source_context &ctx)
{
	return std::make_unique<bursts>(p, ctx);
}

}  // namespace kind_bursts

}  // namespace

const kind_info bursts_kind = {
	"bursts",
	"bursts of timers armed together (batched requests, thundering herds)",
	{
		{"every", "1s", "time between bursts"},
		{"size", "1000", "timers per burst"},
		{"timeout", "5s", "timeout, median"},
		{"sigma", "0", "log-normal spread of the timeouts; 0: all equal"},
		{"cancel", "0.9", "fraction deleted before expiry (at a uniform time)"},
		{"cpu", "any", "the CPU of every burst, or any (a random one per burst)"},
		{"fn", "burst_timeout_fn", "callback name"},
		{"task", "app", "task name in the trace"},
	},
	kind_bursts::make,
};

}  // namespace timersim::gen
