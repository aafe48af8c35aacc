// `classic`: the kernel/ tv1..tv5 wheel behind the scheme interface.
//
// One tvec_base per CPU; a traced timer is a timer_list whose `data` is its
// timer_id. Recorded starts are applied with __mod_timer() semantics (detach
// if pending, migrate to the target base unless running, enqueue) and no
// slack: a 3.x trace records expires after slack was applied, and every
// recorded timer_start is a real enqueue (mod_timer's no-op case emits no
// event). The wheel's observer forwards every enqueue, cascade and expiry
// to the simulator's accounting and counts the common cost units.
//
// The wheel runs on `unsigned long` jiffies of the modelled width; the
// simulator's timeline is 64-bit and never wraps. Values are narrowed on
// the way in and widened again (relative to the base's clock) on the way
// out, and long advances go in steps of 2^30 so that a 32-bit wheel's
// wrap-safe comparisons stay meaningful.
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "kernel/classic_wheel.h"
#include "sim/core/errors.h"
#include "sim/scheme/classic.h"
#include "sim/scheme/wheel_inspect.h"
#include "sim/scheme/params.h"
#include "sim/trace/event.h"

namespace timersim {

namespace {

// Per-base forwarding state, reached from the wheel's observer.
struct classic_hooks {
	scheme_observer *sink = nullptr;
	cost_counters *costs = nullptr;
	std::uint64_t *pending = nullptr;	// this base's pending count
	unsigned cpu = 0;
	jiffies_t clock = 0;			// simulator time of the jiffy being processed
};

template <class Timer>
struct forwarding_observer {
	classic_hooks *hooks = nullptr;

	void enqueued(const Timer &t, unsigned level)
	{
		hooks->costs->insertions++;
		hooks->sink->enqueued(static_cast<timer_id>(t.data), level);
	}
	void moved(const Timer &t, unsigned from_level, unsigned)
	{
		hooks->costs->relinks++;
		hooks->sink->moved(static_cast<timer_id>(t.data), from_level);
	}
	void cascaded(unsigned level, unsigned count)
	{
		hooks->costs->slot_visits++;
		hooks->sink->cascaded(level, count);
	}
	template <class Word>
	void tick(Word jiffy)
	{
		// Widen: the jiffy is within 2^30 of the clock we were handed.
		using sword = kernel::signed_word<Word>;
		hooks->clock += static_cast<sword>(static_cast<Word>(jiffy - static_cast<Word>(hooks->clock)));
		hooks->costs->slot_visits++;
		hooks->sink->tick(hooks->cpu, hooks->clock);
	}
	template <class Word>
	void expiring(const Timer &t, Word)
	{
		hooks->costs->removals++;
		(*hooks->pending)--;
		hooks->sink->expired(static_cast<timer_id>(t.data), hooks->cpu, hooks->clock);
	}
};

void no_callback(unsigned long) {}

template <class Geometry, class Word, kernel::slot_order Order>
class classic_scheme final : public reported_scheme, public wheel_inspection {
	using config = kernel::wheel_config<Geometry, Word, Order, forwarding_observer>;
	using base_t = kernel::tvec_base<config>;
	using timer_t = kernel::timer_list<config>;

	struct cpu_base {
		base_t wheel;
		classic_hooks hooks;
		std::uint64_t pending = 0;
	};

public:
	explicit classic_scheme(const scheme_options &opt) : opt_(opt) {}

	std::string name() const override { return "classic"; }

	std::vector<scheme_param> params() const override
	{
		return {
			integer_param("hz", opt_.hz),
			integer_param("word_bits", sizeof(Word) * 8),
			{"geometry", Geometry::TVR_BITS == 8 ? "normal" : "base_small"},
			integer_param("tvr_bits", Geometry::TVR_BITS),
			integer_param("tvn_bits", Geometry::TVN_BITS),
			{"order", Order == kernel::slot_order::fifo ? "fifo" : "lifo"},
		};
	}

	void reset(unsigned ncpus, jiffies_t start, scheme_observer *obs) override
	{
		bases_.clear();
		timers_.clear();
		costs_ = {};
		jiffies_ = static_cast<Word>(start);
		for (unsigned cpu = 0; cpu < ncpus; cpu++) {
			auto b = std::make_unique<cpu_base>();
			kernel::init_timer_base(b->wheel, &jiffies_, cpu, static_cast<Word>(start));
			b->hooks = {obs, &costs_, &b->pending, cpu, start};
			b->wheel.observer.hooks = &b->hooks;
			bases_.push_back(std::move(b));
		}
		peak_timers_ = 0;
	}

	bool start(timer_id id, unsigned cpu, jiffies_t expires, std::uint32_t flags) override
	{
		timer_t *t = timer(id);
		cpu_base &target = *bases_.at(cpu);
		cpu_base *old = t->base ? base_of(t->base) : nullptr;
		bool was_pending = kernel::timer_pending(t);

		t->flags = (flags & TF_DEFERRABLE) ? unsigned{kernel::TIMER_DEFERRABLE} : 0u;
		if (was_pending) {
			costs_.removals++;
			old->pending--;
		}
		kernel::__mod_timer(target.wheel, t, static_cast<Word>(expires), false);
		base_of(t->base)->pending++;
		return was_pending;
	}

	bool cancel(timer_id id) override
	{
		if (id >= timers_.size() || !kernel::timer_pending(&timers_[id]))
			return false;
		timer_t *t = &timers_[id];
		base_of(t->base)->pending--;
		costs_.removals++;
		return kernel::del_timer(t) == 1;
	}

	bool pending(timer_id id) const override
	{
		return id < timers_.size() && kernel::timer_pending(&timers_[id]);
	}

	void advance(unsigned cpu, jiffies_t upto) override
	{
		cpu_base &b = *bases_.at(cpu);
		constexpr jiffies_t step = jiffies_t{1} << 30;

		// Between advances hooks.clock is the next jiffy to process; the
		// tick hook moves it along jiffy by jiffy inside run_timers().
		while (b.hooks.clock <= upto) {
			jiffies_t to = upto - b.hooks.clock >= step ? b.hooks.clock + step - 1 : upto;
			advance_jiffies(to);
			kernel::run_timers(b.wheel, static_cast<Word>(to));
			b.hooks.clock = to + 1;
		}
	}

	jiffies_t clock(unsigned cpu) const override { return bases_.at(cpu)->hooks.clock; }

	std::uint64_t pending_on(unsigned cpu) const override { return bases_.at(cpu)->pending; }

	unsigned levels() const override { return Geometry::LEVELS; }
	std::string level_name(unsigned level) const override
	{
		return "tv" + std::to_string(level);
	}

	const cost_counters &costs() const override { return costs_; }

	std::uint64_t peak_memory_bytes() const override
	{
		return bases_.size() * sizeof(base_t) + peak_timers_ * sizeof(timer_t);
	}

	std::vector<wheel_base_state> inspect(unsigned cpu) const override
	{
		return {inspect::classic_base(bases_.at(cpu)->wheel)};
	}

	wheel_place place(timer_id id) const override
	{
		return id < timers_.size() ? inspect::classic_place(timers_[id]) : wheel_place{};
	}

private:
	timer_t *timer(timer_id id)
	{
		while (timers_.size() <= id) {
			timers_.emplace_back();
			kernel::init_timer(&timers_.back(), no_callback, timers_.size() - 1);
			timers_.back().slack = 0;
		}
		if (timers_.size() > peak_timers_)
			peak_timers_ = timers_.size();
		return &timers_[id];
	}

	cpu_base *base_of(base_t *wheel)
	{
		return reinterpret_cast<cpu_base *>(reinterpret_cast<char *>(wheel) -
						    offsetof(cpu_base, wheel));
	}

	// The global jiffies (read by nothing on the replay path, as no slack
	// is applied) follow the furthest base.
	void advance_jiffies(jiffies_t to)
	{
		if (kernel::time_after(static_cast<Word>(to), jiffies_))
			jiffies_ = static_cast<Word>(to);
	}

	scheme_options opt_;
	std::vector<std::unique_ptr<cpu_base>> bases_;
	std::deque<timer_t> timers_;	// deque: growing keeps addresses stable
	std::uint64_t peak_timers_ = 0;
	cost_counters costs_;
	Word jiffies_ = 0;
};

template <class Geometry, class Word>
std::unique_ptr<reported_scheme> make_with_order(const scheme_options &opt, bool lifo)
{
	if (lifo)
		return std::make_unique<classic_scheme<Geometry, Word, kernel::slot_order::lifo>>(opt);
	return std::make_unique<classic_scheme<Geometry, Word, kernel::slot_order::fifo>>(opt);
}

template <class Geometry>
std::unique_ptr<reported_scheme> make_with_width(const scheme_options &opt, bool lifo)
{
	if (opt.word_bits == 32)
		return make_with_order<Geometry, std::uint32_t>(opt, lifo);
	return make_with_order<Geometry, std::uint64_t>(opt, lifo);
}

}  // namespace

std::unique_ptr<reported_scheme> make_classic_scheme(const scheme_options &opt)
{
	bool lifo = false;
	bool base_small = opt.base_small;
	for (const auto &[key, value] : opt.params) {
		if (key == "order" && (value == "fifo" || value == "lifo"))
			lifo = value == "lifo";
		else if (key == "geometry" && (value == "normal" || value == "base_small"))
			base_small = value == "base_small";
		else
			throw usage_error("classic: unknown parameter " + key + "=" + value +
					  " (known: order=fifo|lifo, geometry=normal|base_small)");
	}
	if (opt.word_bits != 32 && opt.word_bits != 64)
		throw usage_error("classic: word bits must be 32 or 64");
	if (base_small)
		return make_with_width<kernel::geometry_small>(opt, lifo);
	return make_with_width<kernel::geometry_normal>(opt, lifo);
}

}  // namespace timersim
