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
// What it shares with v48 (the timer table, forwarding, widths) is in
// sim/scheme/kernel_adapter.h.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "kernel/classic_idle.h"
#include "kernel/classic_wheel.h"
#include "sim/scheme/classic.h"
#include "sim/scheme/kernel_adapter.h"
#include "sim/scheme/params.h"
#include "sim/scheme/wheel_inspect.h"
#include "sim/trace/event.h"

namespace timersim {

namespace {

// hooks->jiffy is the base's clock: between advances the next jiffy to
// process, inside run_timers() the jiffy being processed.
template <class Timer>
struct forwarding_observer {
	// The timers' function is no_callback: the wheel need not call it.
	static constexpr bool calls_functions = false;
	kernel_hooks *hooks = nullptr;

	// The scheme's placed_level_, one load nearer than hooks->placed.
	// The simulator's, not the kernel's: peak_memory_bytes() leaves it out.
	unsigned *placed = nullptr;
	// Timers that were not pending, added to this base by start_on():
	// a part of its pending count (pending_on() adds it in), kept here
	// because the start holds the base, not an index of pending_.
	// Also the simulator's.
	std::uint64_t added = 0;

	void enqueued(const Timer &, unsigned level) { *placed = level; }
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
		// The jiffy is within 2^30 of the clock we were handed.
		hooks->jiffy = widen(hooks->jiffy, jiffy);
		// Reported first: the tick's slot visit is its run's work
		// (replay_sink::worked), as in every other scheme.
		hooks->sink->tick(hooks->cpu, hooks->jiffy);
		hooks->costs->slot_visits++;
	}
	template <class Word>
	void expiring(const Timer &t, Word)
	{
		hooks->bucket = hooks->jiffy;	// classic runs the slot of each jiffy
		hooks->expiring(t.data);
	}
};

void no_callback(unsigned long) {}

template <class Geometry, class Word, kernel::slot_order Order>
class classic_scheme final
	: public kernel_adapter<kernel::timer_list<kernel::wheel_config<Geometry, Word, Order, forwarding_observer>>>,
	  public wheel_inspection {
	using config = kernel::wheel_config<Geometry, Word, Order, forwarding_observer>;
	using base_t = kernel::tvec_base<config>;
	using timer_t = kernel::timer_list<config>;
	using adapter = kernel_adapter<timer_t>;
	using adapter::costs_;
	using adapter::hooks_;
	using adapter::pending_;
	using adapter::timers_;

public:
	using adapter::adapter;

	std::string name() const override { return "classic"; }

	std::vector<scheme_param> params() const override
	{
		return {
			integer_param("hz", this->opt_.hz),
			integer_param("word_bits", sizeof(Word) * 8),
			{"geometry", Geometry::TVR_BITS == 8 ? "normal" : "base_small"},
			integer_param("tvr_bits", Geometry::TVR_BITS),
			integer_param("tvn_bits", Geometry::TVN_BITS),
			{"order", Order == kernel::slot_order::fifo ? "fifo" : "lifo"},
		};
	}

	void reset(unsigned ncpus, jiffies_t start, scheme_observer *obs) override
	{
		this->reset_common(ncpus, start, obs);
		bases_.clear();
		jiffies_ = static_cast<Word>(start);
		for (unsigned cpu = 0; cpu < ncpus; cpu++) {
			auto b = std::make_unique<base_t>();
			kernel::init_timer_base(*b, &jiffies_, cpu, static_cast<Word>(start));
			b->observer.hooks = &hooks_[cpu];
			b->observer.placed = &this->placed_level_;
			bases_.push_back(std::move(b));
		}
		inline_cpus_ = this->reports_enqueues() ? 0 : ncpus;
	}

	bool start(timer_id id, unsigned cpu, jiffies_t expires, std::uint32_t flags) override
	{
		// Only the common start here: it calls nothing, and so saves
		// no registers. The checks, a timer's first start and an
		// observer that wants every enqueue (inline_cpus_ is 0 then)
		// go to start_slow(), a timer on another base to
		// start_elsewhere(): tail calls.
		if (cpu >= inline_cpus_ || id >= timers_.size()) [[unlikely]]
			return start_slow(id, cpu, expires, flags);
		return start_on(timers_.made(id), *bases_[cpu], expires, flags);
	}

	// A stretch of more than skip_after jiffies is first looked at for idle
	// jiffies to skip; shorter ones (most advances of a replay) are cheaper
	// to step. Busy jiffies are stepped one at a time, then looked again.
	void advance(unsigned cpu, jiffies_t upto) override
	{
		this->check_cpu(cpu);
		base_t &b = *bases_[cpu];
		jiffies_t &clock = hooks_[cpu].jiffy;
		constexpr jiffies_t skip_after = 16;

		while (clock <= upto) {
			jiffies_t to = upto - clock >= wheel_step<Word> ? clock + wheel_step<Word> - 1 : upto;
			if (!this->opt_.stepping && to - clock >= skip_after) {
				std::uint64_t idle = std::min<std::uint64_t>(kernel::idle_jiffies(b), to - clock + 1);
				if (idle) {
					skip_idle(cpu, idle);
					continue;
				}
				to = clock;
			}
			advance_jiffies(to);
			kernel::run_timers(b, static_cast<Word>(to));
			clock = to + 1;
		}
	}

	// The adapter's count and the inline start's adds (observer.added).
	std::uint64_t pending_on(unsigned cpu) const override
	{
		return adapter::pending_on(cpu) + bases_.at(cpu)->observer.added;
	}

	jiffies_t clock(unsigned cpu) const override
	{
		this->check_cpu(cpu);
		return hooks_[cpu].jiffy;
	}

	jiffies_t next_event(unsigned cpu) const override
	{
		this->check_cpu(cpu);
		std::uint64_t idle = kernel::idle_jiffies(*bases_[cpu]);
		jiffies_t clock = hooks_[cpu].jiffy;
		return idle >= ~jiffies_t{0} - clock ? ~jiffies_t{0} : clock + idle;
	}

	unsigned levels() const override { return Geometry::LEVELS; }
	std::string level_name(unsigned level) const override
	{
		return "tv" + std::to_string(level);
	}

	// The base with one observer pointer, as the reports have always
	// counted it: not the placed-level shortcut nor the add count.
	std::uint64_t peak_memory_bytes() const override
	{
		return this->memory_bytes(sizeof(base_t) - sizeof(forwarding_observer<timer_t>) +
					  sizeof(kernel_hooks *));
	}

	std::vector<wheel_base_state> inspect(unsigned cpu) const override
	{
		this->check_cpu(cpu);
		return {inspect::classic_base(*bases_[cpu])};
	}

	wheel_place place(timer_id id) const override
	{
		const timer_t *t = timers_.find(id);
		return t ? inspect::classic_place(*t) : wheel_place{};
	}

	std::vector<std::uint64_t> clocks(unsigned cpu) const override
	{
		this->check_cpu(cpu);
		return {bases_[cpu]->timer_jiffies};
	}

private:
	// Stored without a test: the start writes the timer's line anyway.
	static void set_flags(timer_t *t, std::uint32_t flags)
	{
		t->flags = (flags & TF_DEFERRABLE) ? std::uint16_t{kernel::TIMER_DEFERRABLE} : std::uint16_t{0};
	}

	// The start of timer t on base `local`, counted; its enqueue sets
	// placed_level_.
	[[gnu::always_inline]] bool start_on(timer_t *t, base_t &local, jiffies_t expires, std::uint32_t flags)
	{
		set_flags(t, flags);
		// The flags are read back from the timer, not kept: the
		// start has no register to spare.
		asm("" : "+r"(t));
		const int ret = kernel::__mod_timer_local(local, t, static_cast<Word>(expires), false);
		if (ret < 0) [[unlikely]]
			return start_elsewhere(t, local, expires);
		// A re-arm on the base that holds the timer (the common case)
		// leaves it there: no pending count moves.
		if (ret) {
			this->restarted();
			return true;
		}
		// The adapter's started(NONE, cpu), the pending count kept
		// on the base.
		local.observer.added++;
		this->adds_++;
		return false;
	}

	// __mod_timer() of a timer that __mod_timer_local() left alone: it
	// was pending on another base (or is running on one), and the flags
	// are set.
	[[gnu::noinline]] bool start_elsewhere(timer_t *t, base_t &local, jiffies_t expires)
	{
		const base_t *was = kernel::timer_pending(t) ? t->base : nullptr;
		kernel::__mod_timer_general(local, t, static_cast<Word>(expires), false);
		this->started(was ? was->cpu : this->NONE, t->base->cpu);
		return was != nullptr;
	}

	[[gnu::noinline]] bool start_slow(timer_id id, unsigned cpu, jiffies_t expires, std::uint32_t flags)
	{
		this->check_cpu(cpu);
		timer_t *t = timers_.get(id, [](timer_t *t, unsigned long data) {
			kernel::init_timer(t, no_callback, data);
			t->slack = 0;
		});
		const bool was = start_on(t, *bases_[cpu], expires, flags);
		if (this->reports_enqueues())
			return this->report_enqueue(id, was);
		return was;
	}

	// `n` idle jiffies of base cpu at once: what run_timers() would have
	// counted for them (a tick and a slot visit each, an empty cascade()
	// call and a slot visit at each cascade point), in bulk.
	void skip_idle(unsigned cpu, std::uint64_t n)
	{
		kernel_hooks &h = hooks_[cpu];
		kernel::idle_cascades c = kernel::forward_idle(*bases_[cpu], n);
		h.sink->idle_ticks(cpu, h.jiffy, n);
		costs_.slot_visits += n;
		std::uint64_t bulk = n;
		for (unsigned level = 2; level <= Geometry::LEVELS; level++)
			if (c.calls[level]) {
				costs_.slot_visits += c.calls[level];
				bulk += c.calls[level];
				h.sink->empty_cascades(level, c.calls[level]);
			}
		// Finding the stretch's end looked at up to every slot once
		// (kernel::idle_jiffies()): that much is work done, the guard's
		// to count; the rest was skipped.
		constexpr std::uint64_t searched = Geometry::TVR_SIZE + (Geometry::LEVELS - 1) * Geometry::TVN_SIZE;
		costs_.skipped_idle += bulk > searched ? bulk - searched : 0;
		h.jiffy += n;
		advance_jiffies(h.jiffy - 1);
	}

	// The global jiffies (read by nothing on the replay path, as no slack
	// is applied) follow the furthest base.
	void advance_jiffies(jiffies_t to)
	{
		if (kernel::time_after(static_cast<Word>(to), jiffies_))
			jiffies_ = static_cast<Word>(to);
	}

	std::vector<std::unique_ptr<base_t>> bases_;
	// start() takes CPUs below this inline: all of them, or none when
	// the observer wants every enqueue (start_slow() reports them).
	unsigned inline_cpus_ = 0;
	Word jiffies_ = 0;
};

template <class Geometry>
std::unique_ptr<reported_scheme> make_with_geometry(const scheme_options &opt, bool lifo)
{
	return for_word_width("classic", opt, [&](auto word) -> std::unique_ptr<reported_scheme> {
		using Word = decltype(word);
		if (lifo)
			return std::make_unique<classic_scheme<Geometry, Word, kernel::slot_order::lifo>>(opt);
		return std::make_unique<classic_scheme<Geometry, Word, kernel::slot_order::fifo>>(opt);
	});
}

}  // namespace

std::unique_ptr<reported_scheme> make_classic_scheme(const scheme_options &opt)
{
	auto p = resolve_params("classic",
				{{"order", "fifo", "fifo|lifo"},
				 {"geometry", opt.base_small ? "base_small" : "normal", "normal|base_small"}},
				opt.params);
	bool lifo = param_choice("classic", "order", param_value(p, "order"), {"fifo", "lifo"}) == 1;
	bool base_small = param_choice("classic", "geometry", param_value(p, "geometry"), {"normal", "base_small"}) == 1;
	if (base_small)
		return make_with_geometry<kernel::geometry_small>(opt, lifo);
	return make_with_geometry<kernel::geometry_normal>(opt, lifo);
}

}  // namespace timersim
