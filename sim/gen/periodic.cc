// `periodic`: timers that re-arm themselves from their callback, such as
// delayed work that requeues itself and watchdogs. `timers` of them, spread
// over the CPUs, start at a random phase and then fire every `period`
// (each period stretched or shrunk by up to `jitter` of itself).
#include "sim/gen/kinds.h"

namespace timersim::gen {

namespace {

// Named: sim/gen is compiled as one unit (Makefile, LIB_UNITS), and each
// kind has its own make().
namespace kind_periodic {

class periodic final : public source {
public:
	periodic(const workload_params &p, const source_context &ctx)
		: r_(ctx.seed), count_(p.population("timers", ctx.scale)),
		  period_(p.positive_duration_ns("period")), jitter_(p.fraction("jitter")), cpu_(p.cpu("cpu"))
	{
		fn_ = ctx.m.function(p.function_name("fn"));
		task_ = ctx.m.task(p.task_name("task"));
		// Static objects (struct delayed_work in a driver's data).
		objects_ = ctx.m.pool(pool_base(ctx.index, 0), 0x80);
	}

	void begin(machine &m) override { m.at(0, this, 0, task_); }

	void act(machine &m, std::uint64_t) override
	{
		for (std::uint64_t i = 0; i < count_; i++) {
			unsigned cpu = cpu_ >= 0 ? unsigned(cpu_) : unsigned(i % m.cpus());
			timer_h t = m.new_timer(this, objects_, fn_, cpu, i);
			m.mod_timer(t, m.timeout_for(static_cast<std::uint64_t>(r_.uniform() * double(period_))));
		}
	}

	void fired(machine &m, timer_h t) override
	{
		double stretch = 1.0 + jitter_ * (2.0 * r_.uniform() - 1.0);
		m.mod_timer(t, m.timeout_for(static_cast<std::uint64_t>(stretch * double(period_))));
	}

private:
	rng r_;
	std::uint64_t count_, period_;
	double jitter_;
	int cpu_;
	std::uint32_t fn_ = 0, task_ = 0, objects_ = 0;
};

std::unique_ptr<source> make(const workload_params &p, const source_context &ctx)
{
	return std::make_unique<periodic>(p, ctx);
}

}  // namespace kind_periodic

}  // namespace

const kind_info periodic_kind = {
	"periodic",
	"self-re-arming timers (delayed work, watchdogs), one expiry per period",
	{
		{"timers", "16", "how many (spread over the CPUs)"},
		{"period", "1s", "the period"},
		{"jitter", "0", "each period varies by up to this fraction of itself"},
		{"cpu", "any", "the CPU of every timer, or any (round robin)"},
		{"fn", "delayed_work_timer_fn", "callback name"},
		{"task", "kworker", "task name in the trace"},
	},
	kind_periodic::make,
};

}  // namespace timersim::gen
