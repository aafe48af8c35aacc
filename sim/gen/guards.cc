// `guards`: long guard timers, as connection tracking keeps one per flow
// (death_by_timeout in 3.x): a population of `timers`, each with its own
// timeout between `min` and `max` (hours to days), pushed back by every
// packet of its flow (`refresh` per second, Poisson: del_timer + add_timer,
// traced as a re-arm) and deleted when the flow ends (exponential lifetime,
// mean `life`), when a new flow takes its place. They are the timers the
// classic wheel keeps in tv4 and tv5 and cascades for nothing.
#include "sim/gen/kinds.h"
#include "sim/gen/slots.h"

namespace timersim::gen {

namespace {

// Named: sim/gen is compiled as one unit (Makefile, LIB_UNITS), and each
// kind has its own make() and steps.
namespace kind_guards {

enum step : std::uint8_t { populate, refresh, end };

struct guard {
	timer_h timer = 0;
	std::uint64_t timeout_ns = 0;
};

class guards final : public source {
public:
	guards(const workload_params &p, const source_context &ctx)
		: r_(ctx.seed), count_(p.population("timers", ctx.scale)),
		  min_(p.duration_ns("min")), max_(p.duration_ns("max")), refresh_(p.rate("refresh")),
		  life_(p.positive_duration_ns("life")), cpu_(p.cpu("cpu"))
	{
		if (max_ < min_)
			max_ = min_;
		fn_ = ctx.m.function(p.function_name("fn"));
		task_ = ctx.m.task(p.task_name("task"));
		// struct nf_conn, about 320 bytes.
		conns_ = ctx.m.pool(pool_base(ctx.index, 0), 0x140);
	}

	void begin(machine &m) override { m.at(0, this, populate, task_); }

	void act(machine &m, std::uint64_t t) override
	{
		if (flows_.step_of(t) == populate) {
			for (std::uint64_t i = 0; i < count_; i++)
				birth(m);
			return;
		}
		std::uint32_t slot;
		if (!flows_.resolve(t, slot))
			return;
		guard &g = flows_[slot];
		if (flows_.step_of(t) == refresh) {
			// nf_ct_refresh(): del_timer() then add_timer(), so even an
			// unchanged expiry is traced (mod_timer would skip it).
			if (m.del_timer(g.timer))
				m.mod_timer(g.timer, m.timeout_for(g.timeout_ns));
			m.at(next_arrival(r_, m.now_ns(), refresh_), this, flows_.tag(slot, refresh), task_);
		} else {
			m.del_timer(g.timer);
			death(m, slot);
		}
	}

	void fired(machine &m, timer_h t) override { death(m, static_cast<std::uint32_t>(m.cookie(t))); }

private:
	void birth(machine &m)
	{
		std::uint32_t slot = flows_.alloc();
		guard &g = flows_[slot];
		g.timeout_ns = min_ + static_cast<std::uint64_t>(r_.uniform() * double(max_ - min_));
		g.timer = m.new_timer(this, conns_, fn_, pick_cpu(m, r_, cpu_), slot);
		m.mod_timer(g.timer, m.timeout_for(g.timeout_ns));
		m.at(next_arrival(r_, m.now_ns(), refresh_), this, flows_.tag(slot, refresh), task_);
		m.at(m.now_ns() + static_cast<std::uint64_t>(r_.exponential(double(life_))), this,
		     flows_.tag(slot, end), task_);
	}

	// The flow is over; another one takes its place.
	void death(machine &m, std::uint32_t slot)
	{
		m.free_timer(flows_[slot].timer);
		flows_.release(slot);
		birth(m);
	}

	rng r_;
	std::uint64_t count_, min_, max_;
	double refresh_;
	std::uint64_t life_;
	int cpu_;
	std::uint32_t fn_ = 0, task_ = 0, conns_ = 0;
	slot_table<guard> flows_;
};

std::unique_ptr<source> make(const workload_params &p, const source_context &ctx)
{
	return std::make_unique<guards>(p, ctx);
}

}  // namespace kind_guards

}  // namespace

const kind_info guards_kind = {
	"guards",
	"long guard timers (conntrack): hours to days, refreshed by traffic, rarely firing",
	{
		{"timers", "1000", "population (a flow that ends is replaced)"},
		{"min", "1h", "shortest timeout"},
		{"max", "5d", "longest timeout (uniform in between)"},
		{"refresh", "1", "refreshes (re-arms) per second per timer"},
		{"life", "60s", "flow lifetime, mean (exponential); then deleted"},
		{"cpu", "any", "the CPU of every timer, or any"},
		{"fn", "death_by_timeout", "callback name"},
		{"task", "conntrack", "task name in the trace"},
	},
	kind_guards::make,
};

}  // namespace timersim::gen
