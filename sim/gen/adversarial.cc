// `adversarial`: timers clustered so that one tick of the classic wheel
// cascades all of them. The classic wheel (TVR_BITS 8, TVN_BITS 6) moves a
// whole tv(L) slot down at the jiffy that is a multiple of the slot's
// width w = 2^(8 + 6(L-2)) (256 jiffies for tv2, 16384 for tv3, 2^20 for
// tv4). A round arms `timers` timers at once, with exact expiries (no
// slack) spread over `span` of the slot [B, B + w), where B is the first
// multiple of w at least w jiffies ahead - so every one of them sits in
// that one tv(L) slot and is moved at jiffy B. Right after that tick a
// `cancel` fraction is deleted (the cascade was wasted on them); the rest
// fire. The next round starts when the cluster is over. A round takes up
// to 3w jiffies: 3 s at HZ 250 for tv2, 3.3 minutes for tv3.
#include <algorithm>

#include "sim/base/errors.h"
#include "sim/gen/kinds.h"

namespace timersim::gen {

namespace {

// Named: sim/gen is compiled as one unit (Makefile, LIB_UNITS), and each
// kind has its own make() and steps.
namespace kind_adversarial {

enum step : std::uint8_t { round_start, waste };

class adversarial final : public source {
public:
	adversarial(const workload_params &p, const source_context &ctx)
		: r_(ctx.seed), count_(p.population("timers", ctx.scale)),
		  level_(static_cast<unsigned>(p.count("level"))), span_(p.fraction("span")),
		  cancel_(p.fraction("cancel")), rounds_(p.count("rounds")), cpu_(p.cpu("cpu"))
	{
		if (level_ < 2 || level_ > 4)
			throw usage_error("adversarial: parameter level=" + p.text("level") +
					  " must be 2, 3 or 4 (tv2..tv4; tv5 cascades every 2^26 jiffies)");
		fn_ = ctx.m.function(p.function_name("fn"));
		task_ = ctx.m.task(p.task_name("task"));
		objects_ = ctx.m.pool(pool_base(ctx.index, 0), 0x40);
	}

	void begin(machine &m) override { m.at(0, this, round_start, task_); }

	void act(machine &m, std::uint64_t t) override
	{
		if (t == waste) {
			for (std::size_t i = 0; i < timers_.size(); i++)
				if (doomed_[i])
					m.del_timer(timers_[i]);
			return;
		}
		if (rounds_ && done_ == rounds_)
			return;
		done_++;
		if (timers_.empty()) {
			unsigned cpu = cpu_ >= 0 ? unsigned(cpu_) : 0;
			for (std::uint64_t i = 0; i < count_; i++)
				timers_.push_back(m.new_timer(this, objects_, fn_, cpu, i));
			doomed_.assign(count_, false);
		}
		const jiffies_t w = jiffies_t{1} << (8 + 6 * (level_ - 2));
		const jiffies_t b = (m.jiffies() + w + w - 1) / w * w;
		const jiffies_t width = std::max<jiffies_t>(1, static_cast<jiffies_t>(span_ * double(w)));
		for (std::size_t i = 0; i < timers_.size(); i++) {
			m.mod_timer_at(timers_[i], b + r_.below(width));
			doomed_[i] = r_.chance(cancel_);
		}
		m.at(m.jiffy_ns(b) + 1000, this, waste, task_);
		m.at(m.jiffy_ns(b + w), this, round_start, task_);
	}

	void fired(machine &, timer_h) override {}

private:
	rng r_;
	std::uint64_t count_;
	unsigned level_;
	double span_, cancel_;
	std::uint64_t rounds_, done_ = 0;
	int cpu_;
	std::uint32_t fn_ = 0, task_ = 0, objects_ = 0;
	std::vector<timer_h> timers_;
	std::vector<bool> doomed_;
};

std::unique_ptr<source> make(const workload_params &p, const source_context &ctx)
{
	return std::make_unique<adversarial>(p, ctx);
}

}  // namespace kind_adversarial

}  // namespace

const kind_info adversarial_kind = {
	"adversarial",
	"timers clustered in one tv2..tv4 slot of the classic wheel: one tick cascades them all",
	{
		{"timers", "10000", "timers per round"},
		{"level", "2", "the classic wheel level the cluster sits on: 2, 3 or 4"},
		{"span", "1", "fraction of the slot's width the expiries spread over"},
		{"cancel", "0", "fraction deleted right after the cascading tick"},
		{"rounds", "0", "rounds; 0: as many as the duration holds"},
		{"cpu", "0", "the CPU of the cluster"},
		{"fn", "adversary_fn", "callback name"},
		{"task", "adversary", "task name in the trace"},
	},
	kind_adversarial::make,
};

}  // namespace timersim::gen
