// `v48`: the kernel/ non-cascading wheel (Linux 4.8+, 6.x semantics) behind
// the scheme interface.
//
// Each CPU has the kernel's bases (local, global, deferrable); a traced
// timer is a v48::timer_list whose `data` is its timer_id. A start is
// __mod_timer() at the base's current jiffy (clock(cpu), the jiffy not yet
// processed): forward_timer_base(), the same-bucket shortcut for a timer
// re-armed on the base that holds it (only `expires` changes, nothing is
// enqueued or reported), else detach, migrate and enqueue. A recorded
// start on another CPU always moves the timer there (the kernel's shortcut
// would keep it on its old base, but then no event would have been traced).
// Each CPU has its own clock here where the kernel has one jiffies, so a
// migrating timer is detached from its old base without forwarding that
// base to this CPU's time.
//
// Running: the timer softirq runs at a jiffy only when a base is due
// (next_expiry), so advance() jumps from one due jiffy to the next and
// reports a tick only for those.
//
// Bases and idle (6.9+, parameters tmigr=on, idle=on): pinned timers go to
// the CPU's local base, other timers to its global base, deferrable ones to
// its deferrable base. Global timers are expired when due by whichever CPU
// gets there (the timer migration hierarchy expires an idle CPU's global
// timers remotely): advancing any CPU also runs the other CPUs' due global
// buckets, reported on their own CPU. A CPU that is idle (timer_base_idle
// events, set_idle()) does not run its deferrable base; it wakes for its own
// local and global timers and, as the migrator, at the jiffies at which any
// CPU's global timers fire (whichever CPU the replay moved on first), and
// then runs its deferrable timers that are due. After it leaves
// idle its deferrable timers run again, from the first jiffy the replay
// moves it on to (the jiffy given with the wake is the latest any event
// carried, which lags while all CPUs sleep). Under 6.19's rules
// (set_tmigr_available) a CPU out of the available mask takes no part:
// its global timers it expires alone, and it expires, and wakes for, no
// other CPU's. tmigr=off gives the 4.8 .. 6.8
// layout, one standard base per CPU that an idle CPU wakes for; idle=off
// ignores idle.
//
// Tick-driven replay (set_tick_driven): the core runs a CPU's bases only
// at its recorded ticks, so the idle model above is off: advance() is one
// run_timer_softirq at `upto` (local, global, deferrable base, each caught
// up to `upto`), advance_remote() is timer_expire_remote() of an idle CPU's
// global base, and a start forwards its base to the kernel's jiffies given
// by set_now() (the base clock lags between ticks, as the kernel's does).
//
// Cost units:
//   insertions       enqueue_timer() calls (start/re-arm; not the shortcut)
//   removals         detaches: cancel, re-arm that re-enqueues, expiry
//   relinks          0: timers never move
//   slot_visits      buckets tested by collect_expired_timers() plus levels
//                    searched by timer_recalc_next_expiry()
//   key_comparisons  bucket expiries compared with next_expiry (enqueue,
//                    recalculation)
#include <algorithm>
#include <array>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "kernel/v48_wheel.h"
#include "sim/scheme/factories.h"
#include "sim/scheme/kernel_adapter.h"
#include "sim/scheme/params.h"
#include "sim/scheme/wheel_inspect.h"
#include "sim/trace/event.h"

namespace timersim {

namespace {

// A traced timer: the kernel's timer_list and its bucket's expiry (what
// the inspection shows), on one cache line, so that the enqueue that sets
// the expiry touches no other line (a table beside the timers cost the
// re-arm a second cache miss).
template <class Timer>
struct alignas(64) traced_timer : Timer {
	mutable std::uint64_t bucket_expiry = 0;
};

// One CPU's share of the costs (costs() adds them up), counted by all
// three of its bases: the replay's work meter reads a CPU's share at
// nearly every event (costs_on), one struct, where a sum over the bases
// took three cache lines and a loop.
struct cpu_meter {
	std::uint64_t insertions = 0, slot_visits = 0, key_comparisons = 0;
};

// A timer the tick-driven replay expired in a late catch-up (its bucket
// older than the run's jiffies): its base's clk and next_expiry just after
// the kernel collected its bucket, which its callback's re-arm meets there
// (v48_scheme::start_in_catch_up). Kept only until the next catch-up run.
struct catch_up_expiry {
	timer_id id;
	const void *base;
	std::uint64_t clk, next_expiry;
};

template <class Timer>
struct forwarding_observer {
	kernel_hooks *hooks = nullptr;
	// The scheme's, when tick-driven (else nullptr: nothing is kept).
	std::vector<catch_up_expiry> *catch_ups = nullptr;
	// hooks->placed, one load nearer. The simulator's, not the
	// kernel's: peak_memory_bytes() leaves it out, and what follows.
	unsigned *placed = nullptr;
	// The kernel's jiffies at a start on this base: its CPU's clock, or
	// the scheme's now_ when tick-driven. Here, where a re-arm already
	// has the base, it is two loads.
	const jiffies_t *now = nullptr;
	// Its CPU's share of the costs. key_comparisons are the
	// recalculations'; each insertion is one more (enqueued()).
	cpu_meter *meter = nullptr;

	template <class Word>
	void enqueued(const Timer &t, unsigned level, Word expiry)
	{
		// Every timer of the scheme is a traced_timer.
		static_cast<const traced_timer<Timer> &>(t).bucket_expiry = expiry;
		meter->insertions++;
		*placed = level + 1;
	}
	void visited(unsigned buckets) { meter->slot_visits += buckets; }
	void compared(unsigned count) { meter->key_comparisons += count; }
	// The bucket __run_timers() collects: the kernel's baseclk for the
	// timers it expires (an overdue deferrable bucket is older than the
	// jiffy the run is for).
	template <class Word> void collecting(Word clk, Word) { hooks->bucket = widen(hooks->jiffy, clk); }
	template <class Word>
	void expiring(const Timer &t, Word)
	{
		if (hooks->bucket < hooks->jiffy && catch_ups) [[unlikely]]
			catch_ups->push_back({static_cast<timer_id>(t.data), t.base, t.base->clk, t.base->next_expiry});
		hooks->expiring(t.data);
	}
};

template <class Geometry, class Word>
class v48_scheme final
	: public kernel_adapter<traced_timer<kernel::v48::timer_list<kernel::v48::wheel_config<Geometry, Word, forwarding_observer>>>>,
	  public wheel_inspection {
	using config = kernel::v48::wheel_config<Geometry, Word, forwarding_observer>;
	using bases_t = kernel::v48::cpu_bases<config>;
	using base_t = kernel::v48::timer_base<config>;
	using timer_t = kernel::v48::timer_list<config>;
	using adapter = kernel_adapter<traced_timer<timer_t>>;
	using adapter::costs_;
	using adapter::hooks_;
	using adapter::pending_;
	using adapter::timers_;

	struct cpu_state {
		bases_t bases;
		kernel_hooks *hooks = nullptr;
		cpu_meter meter;	// its bases' costs
		jiffies_t clock = 0;	// next jiffy to process
		jiffies_t def_hold = 0;	// deferrable timers wait until this jiffy
		jiffies_t global_clock = 0;	// next jiffy of the global base
		bool idle = false;
		bool waking = false;	// left idle; not yet moved on since
		// In 6.19's tmigr available mask (set_tmigr_available).
		bool available = true;
	};

public:
	v48_scheme(const scheme_options &opt, std::vector<scheme_param> params, bool model_idle, bool tmigr)
		: adapter(opt), params_(std::move(params)), model_idle_(model_idle), tmigr_(tmigr)
	{
	}

	std::string name() const override { return "v48"; }

	std::vector<scheme_param> params() const override
	{
		std::vector<scheme_param> p = {
			integer_param("hz", this->opt_.hz),
			integer_param("word_bits", sizeof(Word) * 8),
			integer_param("lvl_depth", Geometry::LVL_DEPTH),
		};
		p.insert(p.end(), params_.begin(), params_.end());
		return p;
	}

	void reset(unsigned ncpus, jiffies_t start, scheme_observer *obs) override
	{
		this->reset_common(ncpus, start, obs);
		fast_cpus_ = this->reports_enqueues() ? 0 : ncpus;
		cpus_.clear();
		global_fires_.clear();
		for (unsigned cpu = 0; cpu < ncpus; cpu++) {
			auto s = std::make_unique<cpu_state>();
			kernel::v48::init_cpu_bases(s->bases, cpu, static_cast<Word>(start));
			s->hooks = &hooks_[cpu];
			for (auto &b : s->bases.base) {
				b.observer.hooks = s->hooks;
				b.observer.meter = &s->meter;
				b.observer.placed = &this->placed_level_;
				b.observer.now = tick_driven_ ? &now_ : &s->clock;
				b.observer.catch_ups = tick_driven_ ? &catch_ups_ : nullptr;
			}
			s->clock = start;
			s->def_hold = start;
			s->global_clock = start;
			cpus_.push_back(std::move(s));
		}
		find_kind_bases();
	}

	bool start(timer_id id, unsigned cpu, jiffies_t expires, std::uint32_t flags) override
	{
		// The checks, a timer's first start and an observer that
		// wants every enqueue out of line (start_checked()).
		if (cpu >= fast_cpus_ || id >= timers_.size()) [[unlikely]]
			return start_checked(id, cpu, expires, flags);
		return start_made(timers_.made(id), cpu, expires, flags);
	}

	// The kernel's callback re-arms with the base clk one past the bucket
	// it runs, forwarded (forward_timer_base) to jiffies or, when a bucket
	// is still due, no further than that bucket: where the replay, having
	// run the whole softirq, has the clk at jiffies. Placed against that
	// clk when the bucket it gives is one the base has yet to run.
	bool start_in_catch_up(timer_id id, unsigned cpu, jiffies_t expires, std::uint32_t flags) override
	{
		const catch_up_expiry *c = nullptr;
		for (const catch_up_expiry &e : catch_ups_)
			if (e.id == id)
				c = &e;
		if (!tick_driven_ || !c || cpu >= this->ncpus_ || id >= timers_.size())
			return start(id, cpu, expires, flags);
		timer_t *t = timers_.made(id);
		base_t &base = *targets_[cpu * 4 + ((flags / TF_DEFERRABLE) & 3)].base;
		if (kernel::v48::timer_pending(t) || c->base != &base)
			return start(id, cpu, expires, flags);
		const Word jiffies = static_cast<Word>(now_);
		Word clk = static_cast<Word>(c->clk);
		if (kernel::time_after(jiffies, clk))
			clk = kernel::time_after(static_cast<Word>(c->next_expiry), jiffies) ? jiffies
							: static_cast<Word>(c->next_expiry);
		Word bucket;
		kernel::v48::calc_wheel_index<typename config::geometry>(static_cast<Word>(expires), clk, &bucket);
		if (!kernel::time_before(clk, base.clk) || kernel::time_before(bucket, base.clk))
			return start(id, cpu, expires, flags);
		// The enqueue against the kernel's clk, with nothing to forward.
		const Word clk_now = base.clk;
		const jiffies_t now = now_;
		base.clk = clk;
		now_ = widen(now, clk);
		const bool was = start(id, cpu, expires, flags);
		base.clk = clk_now;
		now_ = now;
		return was;
	}

	// Every enqueue is detached again (by a cancel, a re-arm that moves
	// the timer, or its expiry) but those still pending: the removals
	// follow from the insertions, and no start counts them.
	const cost_counters &costs() const override
	{
		std::uint64_t pending = 0;
		cost_counters &c = this->reported_;
		c = costs_;
		for (unsigned cpu = 0; cpu < this->ncpus_; cpu++) {
			pending += this->pending_on(cpu);
			const cpu_meter &m = cpus_[cpu]->meter;
			c.insertions += m.insertions;
			c.slot_visits += m.slot_visits;
			// Each enqueue compared once (enqueued()).
			c.key_comparisons += m.key_comparisons + m.insertions;
		}
		c.removals = c.insertions - pending;
		return c;
	}

	// costs() of one CPU's bases: a cancel's removal is the derived one
	// (costs_ counts none of its own but those).
	bool costs_on(unsigned cpu, cost_counters &c) const override
	{
		this->check_cpu(cpu);
		const cpu_meter &m = cpus_[cpu]->meter;
		c = {};
		c.insertions = m.insertions;
		c.slot_visits = m.slot_visits;
		c.key_comparisons = m.key_comparisons + m.insertions;
		c.removals = m.insertions - (pending_[cpu] - hooks_[cpu].fired);
		return true;
	}

	void advance(unsigned cpu, jiffies_t upto) override
	{
		this->check_cpu(cpu);
		cpu_state &s = *cpus_[cpu];
		if (tick_driven_) {
			run_softirq(s, upto);
			return;
		}
		// Each step goes from one due jiffy straight to the next: idle
		// jiffies cost nothing.
		while (s.clock <= upto) {
			jiffies_t to = upto - s.clock >= wheel_step<Word> ? s.clock + wheel_step<Word> - 1 : upto;
			advance_within(s, to);
		}
	}

	void set_tick_driven(bool on) override
	{
		tick_driven_ = on;
		for (auto &s : cpus_)
			for (auto &b : s->bases.base) {
				b.observer.now = on ? &now_ : &s->clock;
				b.observer.catch_ups = on ? &catch_ups_ : nullptr;
			}
		catch_ups_.clear();
	}
	void set_now(jiffies_t now) override { now_ = now; }

	void advance_remote(unsigned cpu, jiffies_t upto) override
	{
		if (!tmigr_)
			return;
		this->check_cpu(cpu);
		cpu_state &s = *cpus_[cpu];
		// An unavailable CPU's global timers never reach the hierarchy
		// (tmigr_cpu_deactivate() hands them back to it): none expires
		// them remotely.
		if (!s.available)
			return;
		base_t &g = s.bases.base[kernel::v48::BASE_GLOBAL];
		if (widen(upto, g.next_expiry) > upto)
			return;
		s.hooks->jiffy = upto;
		s.hooks->sink->tick(s.hooks->cpu, upto);
		kernel::v48::run_timer_base(g, static_cast<Word>(upto));
	}

	// The earliest next_expiry of the CPU's bases: stale ones are early,
	// and an idle CPU runs no earlier than its bases are due.
	jiffies_t next_event(unsigned cpu) const override
	{
		this->check_cpu(cpu);
		const cpu_state &s = *cpus_[cpu];
		jiffies_t next = ~jiffies_t{0};
		for (const base_t &b : s.bases.base)
			next = std::min(next, widen(s.clock, b.next_expiry));
		return std::max(next, s.clock);
	}

	// 6.19 (kernel/time/timer_migration.c): an unavailable CPU is out of
	// the hierarchy both ways (docs/fidelity.md, "The tmigr available mask").
	void set_tmigr_available(unsigned cpu, bool available) override
	{
		this->check_cpu(cpu);
		cpus_[cpu]->available = available;
	}
	bool tmigr_available(unsigned cpu) const override
	{
		this->check_cpu(cpu);
		return cpus_[cpu]->available;
	}

	void set_idle(unsigned cpu, bool idle, jiffies_t now) override
	{
		if (!model_idle_)
			return;
		this->check_cpu(cpu);
		cpu_state &s = *cpus_[cpu];
		if (now > 0)
			advance(cpu, now - 1);
		if (s.idle == idle)
			return;
		s.idle = idle;
		s.bases.base[kernel::v48::BASE_LOCAL].is_idle = idle;
		s.waking = !idle;
	}

	jiffies_t clock(unsigned cpu) const override
	{
		this->check_cpu(cpu);
		return cpus_[cpu]->clock;
	}

	unsigned levels() const override { return Geometry::LVL_DEPTH; }
	std::string level_name(unsigned level) const override
	{
		return "LVL" + std::to_string(level - 1);
	}

	// The kernel's timer_list, not the traced_timer around it. The bases
	// count with their observers as two pointers each, as they always
	// have in the reports (not the shortcuts and counts beside them).
	std::uint64_t peak_memory_bytes() const override
	{
		// The observer is the base's last member: what follows its first
		// two pointers (its other fields, and any tail padding a 32-bit
		// target puts after them) is the simulator's, not the kernel's.
		using observer = typename config::observer;
		static_assert(sizeof(base_t) >= offsetof(base_t, observer) + sizeof(observer));
		static_assert(sizeof(base_t) - offsetof(base_t, observer) - sizeof(observer) < alignof(base_t));
		constexpr std::uint64_t beside =
			kernel::v48::NR_BASES * (sizeof(base_t) - offsetof(base_t, observer) - 2 * sizeof(void *));
		return this->memory_bytes(sizeof(bases_t) - beside, sizeof(timer_t));
	}

	std::vector<wheel_base_state> inspect(unsigned cpu) const override
	{
		this->check_cpu(cpu);
		std::vector<wheel_base_state> out;
		for (const base_t &b : cpus_[cpu]->bases.base)
			out.push_back(inspect::v48_base(b, [](const timer_t &t) {
				return static_cast<const traced_timer<timer_t> &>(t).bucket_expiry;
			}));
		return out;
	}

	wheel_place place(timer_id id) const override
	{
		const traced_timer<timer_t> *t = timers_.find(id);
		if (!t)
			return {};
		wheel_place p = inspect::v48_place(*t);
		p.bucket_expiry = t->bucket_expiry;
		return p;
	}

	std::vector<std::uint64_t> clocks(unsigned cpu) const override
	{
		this->check_cpu(cpu);
		std::vector<std::uint64_t> c;
		for (const base_t &b : cpus_[cpu]->bases.base)
			c.push_back(b.clk);
		return c;
	}

private:
	// The start of a made timer on a valid CPU, in two parts (a timer
	// that is pending, one that is not), both in start() itself: neither
	// calls anything (the wheel's part is inline), so start() needs no
	// frame (a re-arm that re-enqueues saves one register), and the rare
	// cases (a timer that moves, start_checked()) are tail calls. The
	// accounting comes before the wheel's part.
	[[gnu::always_inline]] bool start_made(timer_t *t, unsigned cpu, jiffies_t expires, std::uint32_t flags)
	{
		if (kernel::v48::timer_pending(t)) [[likely]]
			return start_pending(t, cpu, expires, flags);
		return start_idle(t, cpu, expires, flags);
	}

	// The kernel's jiffies for an enqueue on `base`.
	static jiffies_t now_for(const base_t &base) { return *base.observer.now; }

	[[gnu::always_inline]] bool start_pending(timer_t *t, unsigned cpu, jiffies_t expires, std::uint32_t flags)
	{
		const unsigned f = kinds_[(flags / TF_DEFERRABLE) & 3].flags;
		base_t &base = *t->base;
		// The common re-arm stays where it is: pending on this CPU's
		// base of its kind, with the same flags, __mod_timer()'s own
		// case, which mod_timer_on_base() does inline without testing
		// for a migration again (the same-bucket shortcut enqueues
		// nothing; an enqueue sets placed_level_, the observer). A
		// pending timer is always on base_for() of its flags on the CPU
		// of its base (every start puts it there; nothing runs during
		// one): the same flags and that CPU say it is this CPU's base
		// of the kind.
		if (t->flags == f && base.cpu == cpu) [[likely]] {
			if (!kernel::v48::mod_timer_on_base(base, t, static_cast<Word>(expires),
							    static_cast<Word>(now_for(base))))
				this->placed_level_ = 0;
			return true;
		}
		return start_moved(t, cpu, expires, f);
	}

	// A timer that is not pending is enqueued on this CPU's base of its
	// kind. Each CPU has its own clock here, where the kernel has one
	// jiffies: __mod_timer() would forward the timer's old base to this
	// CPU's time, so it starts from this CPU's base, which is what
	// add_timer_on() does.
	[[gnu::always_inline]] bool start_idle(timer_t *t, unsigned cpu, jiffies_t expires, std::uint32_t flags)
	{
		const start_target &to = targets_[cpu * 4 + ((flags / TF_DEFERRABLE) & 3)];
		base_t &base = *to.base;
		t->flags = to.flags;	// untested: the start writes the timer's line anyway
		t->expires = static_cast<Word>(expires);
		pending_[cpu]++;
		// add_timer_on(), its base already known, all inline: the
		// enqueue is no call, and start() saves no registers for it.
		kernel::v48::add_timer_on_base(base, t, static_cast<Word>(now_for(base)));
		return false;
	}

	// A pending timer that does not stay (pending elsewhere, or with
	// other flags): detached first (the shortcut applies only where the
	// timer already is), then enqueued as one that was not pending.
	[[gnu::noinline]] bool start_moved(timer_t *t, unsigned cpu, jiffies_t expires, unsigned f)
	{
		pending_[t->base->cpu]--;
		kernel::v48::del_timer(t);
		t->flags = f;	// untested: the start writes the timer's line anyway
		t->expires = static_cast<Word>(expires);
		pending_[cpu]++;
		bases_t &target = cpus_[cpu]->bases;
		// Every base of a CPU has the same now.
		kernel::v48::add_timer_on(target, t, static_cast<Word>(now_for(target.base[0])));
		return true;
	}

	[[gnu::noinline]] bool start_checked(timer_id id, unsigned cpu, jiffies_t expires, std::uint32_t flags)
	{
		this->check_cpu(cpu);
		timer_t *t = timers_.get(id, [](timer_t *t, unsigned long data) { kernel::v48::init_timer(t, data); });
		const bool was = start_made(t, cpu, expires, flags);
		return this->reports_enqueues() ? this->report_enqueue(id, was) : was;
	}

	// The kernel's timer flags of a traced start, by its D and P bits,
	// and the base they queue it on. Without the migration model every
	// CPU has one standard base (4.8 .. 6.8): all non-deferrable timers
	// are pinned to the local one.
	struct timer_kind {
		unsigned flags, base;
	};
	static_assert(TF_PINNED == 2 * TF_DEFERRABLE);
	static std::array<timer_kind, 4> timer_kinds(bool tmigr)
	{
		std::array<timer_kind, 4> k{};
		for (unsigned bits = 0; bits < 4; bits++) {
			const bool deferrable = bits & 1, pinned = (bits & 2) || !tmigr;
			k[bits].flags = (deferrable ? unsigned{kernel::v48::TIMER_DEFERRABLE} : 0u) |
					(pinned ? unsigned{kernel::v48::TIMER_PINNED} : 0u);
		}
		return k;
	}
	// The bases kernel::v48::base_for() picks, as indexes, and each
	// CPU's as start targets.
	void find_kind_bases()
	{
		targets_.clear();
		if (cpus_.empty())
			return;
		bases_t &b = cpus_.front()->bases;
		for (timer_kind &k : kinds_)
			k.base = static_cast<unsigned>(&kernel::v48::base_for(b, k.flags) - b.base);
		for (auto &s : cpus_)
			for (const timer_kind &k : kinds_)
				targets_.push_back({&s->bases.base[k.base], k.flags});
	}

	// Tick-driven: one run_timer_softirq at `upto`, if any base is due.
	void run_softirq(cpu_state &s, jiffies_t upto)
	{
		if (s.clock > upto)
			return;
		// The timers this CPU's last run expired late are re-armed by
		// now, or never by their callbacks.
		std::erase_if(catch_ups_, [&](const catch_up_expiry &e) {
			return e.base >= static_cast<const void *>(s.bases.base) &&
			       e.base < static_cast<const void *>(s.bases.base + kernel::v48::NR_BASES);
		});
		bool due = false;
		for (base_t &b : s.bases.base)
			due = due || widen(upto, b.next_expiry) <= upto;
		if (due) {
			s.hooks->jiffy = upto;
			s.hooks->sink->tick(s.hooks->cpu, upto);
			kernel::v48::run_timers(s.bases, static_cast<Word>(upto));
		}
		s.clock = upto + 1;
	}

	// Global timers (6.9+ timer migration): an active CPU expires an idle
	// one's global timers when they are due. Base cpu's global timers due
	// by `to` fire now, reported on cpu.
	void run_global(cpu_state &s, jiffies_t to)
	{
		base_t &g = s.bases.base[kernel::v48::BASE_GLOBAL];

		while (s.global_clock <= to) {
			jiffies_t due = std::max(widen(s.global_clock, g.next_expiry), s.global_clock);
			if (due > to) {
				s.global_clock = to + 1;
				return;
			}
			s.hooks->jiffy = due;
			s.hooks->sink->tick(s.hooks->cpu, due);
			std::uint64_t before = s.hooks->fired;
			kernel::v48::run_timer_base(g, static_cast<Word>(due));
			if (s.hooks->fired != before && s.available)
				global_fired(due);
			s.global_clock = due + 1;
		}
	}

	// One softirq per due jiffy in [s.clock, to], to - s.clock < 2^30.
	//
	// An idle CPU wakes for its own local and global timers, and for the
	// jiffies at which any CPU's global timers fire (it may be the one the
	// migration hierarchy sends to expire them; whichever CPU the replay
	// happened to move on first, the jiffies are the same): then its due
	// deferrable timers run too.
	void advance_within(cpu_state &s, jiffies_t to)
	{
		base_t &local = s.bases.base[kernel::v48::BASE_LOCAL];
		base_t &global = s.bases.base[kernel::v48::BASE_GLOBAL];
		base_t &def = s.bases.base[kernel::v48::BASE_DEF];

		if (s.waking && !s.idle) {
			// The jiffy of a wake is the latest one any event carried,
			// which lags while CPUs sleep. The first time the core then
			// moves this CPU on, to `to`, it is certainly awake: that is
			// when overdue deferrable timers run.
			s.def_hold = to;
			s.waking = false;
		}
		while (s.clock <= to) {
			// An idle CPU programs its tick from fresh next expiries
			// of its local and global bases, not the deferrable one.
			Word l = s.idle ? kernel::v48::next_timer_interrupt(local) : local.next_expiry;
			Word g = s.idle ? kernel::v48::next_timer_interrupt(global) : global.next_expiry;
			jiffies_t due = std::max(std::min(widen(s.clock, l), widen(s.clock, g)), s.clock);
			// Other CPUs' global timers are expired when due, here,
			// where both are in the hierarchy (6.19: an unavailable
			// CPU handles no remote timers and none handles its).
			if (tmigr_ && s.available)
				for (auto &other : cpus_)
					if (other.get() != &s && other->available) {
						base_t &og = other->bases.base[kernel::v48::BASE_GLOBAL];
						jiffies_t o = std::max(widen(other->global_clock,
									 kernel::v48::next_timer_interrupt(og)),
								       other->global_clock);
						due = std::min(due, std::max(o, s.clock));
					}
			jiffies_t def_due = std::max(widen(s.clock, def.next_expiry), s.clock);
			if (!s.idle) {
				due = std::min(due, std::max(def_due, s.def_hold));
			} else if (tmigr_ && s.available) {
				auto wake = std::lower_bound(global_fires_.begin(), global_fires_.end(), def_due);
				if (wake != global_fires_.end())
					due = std::min(due, *wake);
			}
			if (due > to) {
				s.clock = to + 1;
				break;
			}
			s.hooks->jiffy = due;
			s.hooks->sink->tick(s.hooks->cpu, due);
			bool woke = kernel::v48::run_timer_base(local, static_cast<Word>(due));
			std::uint64_t before = s.hooks->fired;
			woke |= kernel::v48::run_timer_base(global, static_cast<Word>(due));
			if (s.hooks->fired != before && s.available)
				global_fired(due);
			if (tmigr_ && s.available)
				for (auto &other : cpus_)
					if (other.get() != &s && other->available && other->global_clock <= due)
						run_global(*other, due);
			woke |= s.available && std::binary_search(global_fires_.begin(), global_fires_.end(), due);
			if (woke || (!s.idle && due >= s.def_hold))
				kernel::v48::run_timer_base(def, static_cast<Word>(due));
			s.clock = due + 1;
		}
		s.global_clock = std::max(s.global_clock, s.clock);
		// Jiffies every CPU has passed can no longer wake anyone.
		jiffies_t oldest = s.clock;
		for (auto &c : cpus_)
			oldest = std::min(oldest, c->clock);
		global_fires_.erase(global_fires_.begin(),
				    std::lower_bound(global_fires_.begin(), global_fires_.end(), oldest));
	}

	// Notes a jiffy at which global timers fired. Jiffies come in order
	// per CPU, so the place is nearly always the end.
	void global_fired(jiffies_t due)
	{
		auto at = std::lower_bound(global_fires_.begin(), global_fires_.end(), due);
		if (at == global_fires_.end() || *at != due)
			global_fires_.insert(at, due);
	}

	std::vector<scheme_param> params_;
	bool model_idle_;
	bool tmigr_;
	std::array<timer_kind, 4> kinds_ = timer_kinds(tmigr_);
	// Where a start of a timer that is not pending goes, by CPU and kind
	// ([cpu * 4 + D/P bits]): one load where the CPU's state, the kind
	// and a multiply were three.
	struct start_target {
		base_t *base;
		unsigned flags;
	};
	std::vector<start_target> targets_;
	bool tick_driven_ = false;
	// The CPUs a start() takes the common path on: none for an observer
	// that wants every enqueue, so that one compare tests both.
	unsigned fast_cpus_ = 0;
	jiffies_t now_ = 0;	// set_now(): the kernel's jiffies at the next start
	// Jiffies at which global timers fired, sorted, from the oldest any CPU
	// has yet to pass: a few entries, where a std::set cost a node each.
	std::vector<jiffies_t> global_fires_;
	// Timers the last catch-up runs expired (forwarding_observer::expiring).
	std::vector<catch_up_expiry> catch_ups_;
	std::vector<std::unique_ptr<cpu_state>> cpus_;
};

template <class Geometry>
std::unique_ptr<reported_scheme> make_with_geometry(const scheme_options &opt, std::vector<scheme_param> p,
						    bool idle, bool tmigr)
{
	return for_word_width("v48", opt, [&](auto word) -> std::unique_ptr<reported_scheme> {
		using Word = decltype(word);
		return std::make_unique<v48_scheme<Geometry, Word>>(opt, std::move(p), idle, tmigr);
	});
}

}  // namespace

std::unique_ptr<reported_scheme> make_v48_scheme(const scheme_options &opt)
{
	auto p = resolve_params("v48",
				{{"idle", "on", "on|off (model NOHZ idle for deferrable timers)"},
				 {"tmigr", "on", "on|off (6.9+ local/global bases, global timers expired by any active CPU)"}},
				opt.params);
	bool idle = param_bool("v48", "idle", param_value(p, "idle"));
	bool tmigr = param_bool("v48", "tmigr", param_value(p, "tmigr"));
	if (kernel::v48::lvl_depth_for_hz(opt.hz) == 9)
		return make_with_geometry<kernel::v48::geometry_hz_gt_100>(opt, std::move(p), idle, tmigr);
	return make_with_geometry<kernel::v48::geometry_hz_le_100>(opt, std::move(p), idle, tmigr);
}

}  // namespace timersim
