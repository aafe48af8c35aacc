// `fitted`: one callback's timers as `gen --like TRACE` measured them
// (sim/gen/fit.h). A chain starts (Poisson, `rate` per second; `initial`
// of them at once, spread over the first median timeout, as if running
// before the trace began) on a fresh timer object and arms it with a log-normal timeout (`median`, `sigma`).
// Each arming ends one of three ways, with the measured shares: it
// expires (`expire`; then the callback re-arms the timer with probability
// `self`, else the chain ends), it is re-armed (`rearm`) or deleted
// (`cancel`) after a log-normal lifetime (`life`, `life_sigma`, kept
// shorter than the timeout). A re-arm continues the chain with a new
// timeout; a delete ends it.
#include <algorithm>
#include <cmath>

#include "sim/base/errors.h"
#include "sim/gen/kinds.h"
#include "sim/gen/slots.h"

namespace timersim::gen {

namespace {

// Named: sim/gen is compiled as one unit (Makefile, LIB_UNITS), and each
// kind has its own make() and steps.
namespace kind_fitted {

enum step : std::uint8_t { arrive, opening, rearm, cancel };

struct chain {
	timer_h timer = 0;
	std::uint64_t due_ns = 0;	// when this arming's rearm or cancel is due
};

class fitted final : public source {
public:
	fitted(const workload_params &p, const source_context &ctx)
		: r_(ctx.seed), rate_(p.rate("rate") * ctx.scale),
		  initial_(p.population("initial", ctx.scale, true)),
		  median_(double(p.duration_ns("median"))),
		  sigma_(p.number("sigma")), life_(double(p.positive_duration_ns("life"))),
		  life_sigma_(p.number("life_sigma")), self_(p.fraction("self")), cpu_(p.cpu("cpu"))
	{
		if (p.rate("rate") == 0 && initial_ == 0)
			throw usage_error("fitted: rate=0 and initial=0: no chain would ever start");
		double e = p.fraction("expire"), re = p.fraction("rearm"), c = p.fraction("cancel");
		double sum = e + re + c;
		if (sum <= 0)
			throw usage_error("fitted: expire, rearm and cancel cannot all be 0");
		p_expire_ = e / sum;
		p_rearm_ = re / sum;
		fn_ = ctx.m.function(p.function_name("fn"));
		task_ = ctx.m.task(p.task_name("task"));
		objects_ = ctx.m.pool(pool_base(ctx.index, 0), 0x100);
	}

	void begin(machine &m) override
	{
		m.at(next_arrival(r_, 0, rate_), this, arrive, task_);
		for (std::uint64_t i = 0; i < initial_; i++)
			m.at(static_cast<std::uint64_t>(r_.uniform() * std::min(median_, 1e9)), this, opening, task_);
	}

	void act(machine &m, std::uint64_t t) override
	{
		if (chains_.step_of(t) == arrive || chains_.step_of(t) == opening) {
			if (chains_.step_of(t) == arrive)
				m.at(next_arrival(r_, m.now_ns(), rate_), this, arrive, task_);
			std::uint32_t slot = chains_.alloc();
			chains_[slot].timer = m.new_timer(this, objects_, fn_, pick_cpu(m, r_, cpu_), slot);
			arm(m, slot);
			return;
		}
		std::uint32_t slot;
		if (!chains_.resolve(t, slot))
			return;
		chain &c = chains_[slot];
		if (!m.pending(c.timer) || m.now_ns() != c.due_ns)
			return;		// it fired first (the action is an earlier arming's)
		if (chains_.step_of(t) == rearm) {
			arm(m, slot);
		} else {
			m.del_timer(c.timer);
			end(m, slot);
		}
	}

	void fired(machine &m, timer_h t) override
	{
		std::uint32_t slot = static_cast<std::uint32_t>(m.cookie(t));
		if (r_.chance(self_))
			arm(m, slot);
		else
			end(m, slot);
	}

private:
	void arm(machine &m, std::uint32_t slot)
	{
		chain &c = chains_[slot];
		double timeout_ns = std::min(r_.lognormal(median_, sigma_), 1e18);
		m.mod_timer(c.timer, m.timeout_for(static_cast<std::uint64_t>(timeout_ns)));
		c.due_ns = ~std::uint64_t{0};	// no action for this arming (yet)
		double u = r_.uniform();
		if (u < p_expire_)
			return;
		// Before the expiry's tick, which comes at the earliest one
		// jiffy short of the timeout after now.
		double tick = 1e9 / m.hz();
		double latest = std::max(0.0, timeout_ns - tick - 1);
		double life = std::min(r_.lognormal(life_, life_sigma_), latest);
		c.due_ns = m.now_ns() + static_cast<std::uint64_t>(life);
		m.at(c.due_ns, this,
		     chains_.tag(slot, u < p_expire_ + p_rearm_ ? rearm : cancel), task_);
	}

	void end(machine &m, std::uint32_t slot)
	{
		m.free_timer(chains_[slot].timer);
		chains_.release(slot);
	}

	rng r_;
	double rate_;
	std::uint64_t initial_;
	double median_, sigma_, life_, life_sigma_, self_;
	double p_expire_ = 0, p_rearm_ = 0;
	int cpu_;
	std::uint32_t fn_ = 0, task_ = 0, objects_ = 0;
	slot_table<chain> chains_;
};

std::unique_ptr<source> make(const workload_params &p, const source_context &ctx)
{
	return std::make_unique<fitted>(p, ctx);
}

}  // namespace kind_fitted

}  // namespace

const kind_info fitted_kind = {
	"fitted",
	"one callback's timers as fitted from a trace by gen --like",
	{
		{"fn", "fitted_fn", "callback name"},
		{"rate", "10", "chains started per second"},
		{"initial", "0", "chains running from the start (begun over the first median timeout)"},
		{"median", "100ms", "timeout, median (log-normal)"},
		{"sigma", "0", "timeout, log-normal shape"},
		{"expire", "0", "share of armings that expire"},
		{"rearm", "0", "share of armings re-armed while pending"},
		{"cancel", "1", "share of armings deleted"},
		{"life", "10ms", "lifetime of re-armed and deleted armings, median (log-normal)"},
		{"life_sigma", "0", "lifetime, log-normal shape"},
		{"self", "0", "probability that the callback re-arms an expired timer"},
		{"cpu", "any", "the CPU of every chain, or any"},
		{"task", "app", "task name in the trace"},
	},
	kind_fitted::make,
};

}  // namespace timersim::gen
