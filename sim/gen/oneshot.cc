// `lognormal` and `exponential`: one-shot timeouts, such as
// schedule_timeout() (an on-stack timer per sleep, process_timeout).
// Timers arrive (Poisson, `rate` per second) on a CPU, each a fresh
// timer_init'ed object armed once; a `cancel` fraction of them is deleted
// before it expires (the task was woken by what it waited for), at a time
// uniform over the timeout; the rest fire. The timeout is drawn in time
// and converted to jiffies rounding up.
#include <cmath>

#include "sim/gen/kinds.h"
#include "sim/gen/slots.h"

namespace timersim::gen {

namespace {

// Named: sim/gen is compiled as one unit (Makefile, LIB_UNITS), and each
// kind has its own make() and steps.
namespace kind_oneshot {

enum step : std::uint8_t { arrive, wake };

class oneshot final : public source {
public:
	enum shape { lognormal, exponential };

	oneshot(shape sh, const workload_params &p, const source_context &ctx)
		: r_(ctx.seed), shape_(sh), rate_(p.positive_rate("rate") * ctx.scale),
		  cancel_(p.fraction("cancel")), cpu_(p.cpu("cpu"))
	{
		if (sh == lognormal) {
			center_ = double(p.duration_ns("median"));
			sigma_ = p.number("sigma");
		} else {
			center_ = double(p.duration_ns("mean"));
		}
		fn_ = ctx.m.function(p.function_name("fn"));
		task_ = ctx.m.task(p.task_name("task"));
		// On-stack timers: the same few addresses again and again.
		stack_ = ctx.m.pool(pool_base(ctx.index, 0), 0x100);
	}

	void begin(machine &m) override { m.at(next_arrival(r_, 0, rate_), this, arrive, task_); }

	void act(machine &m, std::uint64_t t) override
	{
		if (sleeps_.step_of(t) == arrive) {
			m.at(next_arrival(r_, m.now_ns(), rate_), this, arrive, task_);
			start(m);
			return;
		}
		std::uint32_t slot;
		if (!sleeps_.resolve(t, slot))
			return;		// it fired first
		m.del_timer(sleeps_[slot]);
		finish(m, slot);
	}

	void fired(machine &m, timer_h t) override { finish(m, static_cast<std::uint32_t>(m.cookie(t))); }

private:
	void start(machine &m)
	{
		double ns = shape_ == lognormal ? r_.lognormal(center_, sigma_) : r_.exponential(center_);
		std::uint64_t timeout_ns = static_cast<std::uint64_t>(std::min(ns, 1e18));
		std::uint32_t slot = sleeps_.alloc();
		timer_h t = m.new_timer(this, stack_, fn_, pick_cpu(m, r_, cpu_), slot);
		sleeps_[slot] = t;
		m.mod_timer(t, m.timeout_for(timeout_ns));
		if (r_.chance(cancel_))
			m.at(m.now_ns() + static_cast<std::uint64_t>(r_.uniform() * double(timeout_ns)), this,
			     sleeps_.tag(slot, wake), task_);
	}

	void finish(machine &m, std::uint32_t slot)
	{
		m.free_timer(sleeps_[slot]);
		sleeps_.release(slot);
	}

	rng r_;
	shape shape_;
	double rate_, cancel_;
	double center_ = 0, sigma_ = 0;
	int cpu_;
	std::uint32_t fn_ = 0, task_ = 0, stack_ = 0;
	slot_table<timer_h> sleeps_;
};

std::unique_ptr<source> make_lognormal(const workload_params &p, const source_context &ctx)
{
	return std::make_unique<oneshot>(oneshot::lognormal, p, ctx);
}

std::unique_ptr<source> make_exponential(const workload_params &p, const source_context &ctx)
{
	return std::make_unique<oneshot>(oneshot::exponential, p, ctx);
}

}  // namespace kind_oneshot

}  // namespace

const kind_info lognormal_kind = {
	"lognormal",
	"one-shot timeouts (schedule_timeout), log-normal durations",
	{
		{"rate", "1000", "timers armed per second"},
		{"median", "100ms", "median timeout"},
		{"sigma", "1", "log-normal shape (standard deviation of the log)"},
		{"cancel", "0.5", "fraction deleted before expiry (at a uniform time)"},
		{"cpu", "any", "the CPU of every timer, or any"},
		{"fn", "process_timeout", "callback name"},
		{"task", "app", "task name in the trace"},
	},
	kind_oneshot::make_lognormal,
};

const kind_info exponential_kind = {
	"exponential",
	"one-shot timeouts (schedule_timeout), exponential durations",
	{
		{"rate", "1000", "timers armed per second"},
		{"mean", "100ms", "mean timeout"},
		{"cancel", "0.5", "fraction deleted before expiry (at a uniform time)"},
		{"cpu", "any", "the CPU of every timer, or any"},
		{"fn", "process_timeout", "callback name"},
		{"task", "app", "task name in the trace"},
	},
	kind_oneshot::make_exponential,
};

}  // namespace timersim::gen
