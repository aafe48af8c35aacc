// The non-cascading wheel of kernel/v48_wheel.h (Linux 4.8+) as a lab wheel:
// one CPU's bases (local, global, deferrable), timers by name, every
// enqueue and expiry turned into a wheel_event. Timers are not pinned, so
// they go to the global base (deferrable ones to the def base), as in the
// `v48` scheme; one CPU is never idle here, so every due base runs.
//
// The softirq runs only at jiffies where a base is due, as in the kernel:
// run_to() jumps from one next_expiry to the next.
#include <algorithm>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "kernel/v48_inspect.h"
#include "kernel/v48_wheel.h"
#include "sim/lab/explain.h"
#include "sim/lab/lab_wheel.h"

namespace timersim::lab {

namespace {

namespace v48 = kernel::v48;

class v48_sink {
public:
	virtual ~v48_sink() = default;
	virtual void enqueued(unsigned long data, unsigned lvl, std::uint64_t bucket_expiry) = 0;
	virtual void expiring(unsigned long data, std::uint64_t jiffy) = 0;
};

template <class Timer>
struct sink_observer {
	v48_sink *sink = nullptr;

	template <class Word>
	void enqueued(const Timer &t, unsigned lvl, Word bucket_expiry) { sink->enqueued(t.data, lvl, bucket_expiry); }
	void visited(unsigned) {}
	void compared(unsigned) {}
	template <class Word> void collecting(Word, Word) {}
	template <class Word> void expiring(const Timer &t, Word jiffy) { sink->expiring(t.data, jiffy); }
};

const char *base_name(unsigned index)
{
	switch (index) {
	case v48::BASE_LOCAL: return "local";
	case v48::BASE_GLOBAL: return "global";
	default: return "def";
	}
}

std::string lvl_name(unsigned lvl) { return "LVL" + std::to_string(lvl); }

template <class Geometry, class Word>
class v48_lab_wheel final : public lab_wheel, v48_sink {
	using config = v48::wheel_config<Geometry, Word, sink_observer>;
	using timer_t = v48::timer_list<config>;
	using base_t = v48::timer_base<config>;

public:
	explicit v48_lab_wheel(const wheel_setup &setup)
		: setup_(setup), shape_(v48_shape_of<Geometry>(setup.word_bits)), now_(setup.start)
	{
		v48::init_cpu_bases(bases_, 0, static_cast<Word>(setup.start));
		for (auto &b : bases_.base)
			b.observer.sink = this;
	}
	v48_lab_wheel(const v48_lab_wheel &) = delete;
	v48_lab_wheel &operator=(const v48_lab_wheel &) = delete;

	const wheel_setup &setup() const override { return setup_; }

	std::string describe() const override
	{
		return "non-cascading wheel (Linux 4.8+), LVL_DEPTH " + std::to_string(Geometry::LVL_DEPTH) +
		       " at HZ " + std::to_string(setup_.hz) + ": 64 buckets a level, each level 8x coarser, " +
		       std::to_string(setup_.word_bits) + "-bit jiffies";
	}

	std::uint64_t now() const override { return now_; }

	void arm(const std::string &name, std::uint64_t expires, const arm_options &opt, bool add_only,
		 std::vector<wheel_event> &out) override
	{
		timer_t *t = timer(name, opt.deferrable);
		if (add_only && v48::timer_pending(t))
			throw lab_error("add: timer " + name + " is already pending (add_timer() would BUG); use mod");

		const Word at = static_cast<Word>(now_);
		std::string why;
		Word e = rounded_expires<Word>(opt.round, static_cast<Word>(expires), setup_.hz, at, why);
		if (opt.slack)
			why += "4.8+ has no slack (removed with the cascading wheel): the level's granularity rounds instead\n";
		const bool was_pending = v48::timer_pending(t);
		const unsigned old_idx = t->idx;
		arming_ = {expires, was_pending, why, false};
		out_ = &out;
		if (add_only) {
			t->expires = e;
			v48::add_timer(bases_, t, at);
		} else {
			v48::mod_timer(bases_, t, e, at);
		}
		out_ = nullptr;
		if (!arming_.enqueued) {
			wheel_event ev = event(wheel_event_kind::unchanged, name, now_word(), *t);
			ev.expires = t->expires;
			ev.requested = expires;
			ev.bucket_expiry = bucket_expiry_[t->data];
			ev.why = why + "mod_timer(): the timer is pending and the new expiry " + std::to_string(e) +
				 (old_idx == t->idx ? " maps to the bucket it is in already" : "") +
				 ": only timer->expires changes, nothing is enqueued (and nothing traced)";
			out.push_back(ev);
		}
	}

	bool del(const std::string &name, std::vector<wheel_event> &out) override
	{
		timer_t *t = existing(name);
		if (!v48::timer_pending(t))
			return false;
		wheel_event ev = event(wheel_event_kind::deleted, name, now_word(), *t);
		ev.expires = t->expires;
		ev.bucket_expiry = bucket_expiry_[t->data];
		ev.why = "del_timer(): unlinked from its bucket in O(1); an emptied bucket clears its pending bit";
		v48::del_timer(t);
		out.push_back(ev);
		return true;
	}

	void run_to(std::uint64_t upto, std::vector<wheel_event> &out) override
	{
		// Wrap-safe comparisons of a 32-bit wheel need steps below 2^31.
		constexpr std::uint64_t step = std::uint64_t{1} << 30;
		out_ = &out;
		while (now_ <= upto) {
			std::uint64_t to = upto - now_ >= step ? now_ + step - 1 : upto;
			run_within(to);
		}
		out_ = nullptr;
	}

	std::uint64_t next_interrupt() override
	{
		// get_next_timer_interrupt(): the local and global bases wake
		// the CPU; deferrable timers do not.
		Word l = v48::next_timer_interrupt(bases_.base[v48::BASE_LOCAL]);
		Word g = v48::next_timer_interrupt(bases_.base[v48::BASE_GLOBAL]);
		return narrow(std::max(std::min(widen(l), widen(g)), now_));
	}

	std::vector<std::uint64_t> clocks() const override
	{
		std::vector<std::uint64_t> c;
		for (const base_t &b : bases_.base)
			c.push_back(b.clk);
		return c;
	}

	bool known(const std::string &name) const override { return ids_.count(name) != 0; }

	bool pending(const std::string &name) const override
	{
		auto it = ids_.find(name);
		return it != ids_.end() && v48::timer_pending(&timers_[it->second]);
	}

	wheel_snapshot snapshot() const override
	{
		wheel_snapshot s;
		s.scheme = "v48";
		s.word_bits = setup_.word_bits;
		s.now = now_word();
		for (unsigned i = 0; i < v48::NR_BASES; i++) {
			const base_t &base = bases_.base[i];
			snapshot_base &b = s.bases.emplace_back();
			b.name = base_name(i);
			b.clock = base.clk;
			for (unsigned lvl = 0; lvl < Geometry::LVL_DEPTH; lvl++) {
				snapshot_level &l = b.levels.emplace_back();
				l.name = lvl_name(lvl);
				l.size = Geometry::LVL_SIZE;
				l.index = v48::level_index(base, lvl);
				l.width = Geometry::LVL_GRAN(lvl);
			}
			v48::for_each_timer(base, [&](unsigned lvl, unsigned bucket, const timer_t &t) {
				snapshot_level &l = b.levels[lvl];
				if (l.slots.empty() || l.slots.back().slot != bucket)
					l.slots.push_back({bucket, {}});
				l.slots.back().timers.push_back({names_[t.data], t.expires, bucket_expiry_[t.data],
								 (t.flags & v48::TIMER_DEFERRABLE) != 0});
			});
		}
		return s;
	}

	const wheel_counters &counters() const override { return counters_; }

private:
	struct arming {
		std::uint64_t requested = 0;
		bool rearm = false;
		std::string why;
		bool enqueued = false;
	};

	// A wheel value as unwrapped time, the nearest to now; clamped to
	// [0, 2^64 - 1] rather than wrapped. Within 2^30 jiffies of the end of
	// 64-bit time an idle base's next_expiry (clk + NEXT_TIMER_MAX_DELTA)
	// lies past it: wrapped, it read as due now, and run_within() ran a
	// softirq at every jiffy or two of the last 2^30 (781 M runs, found by
	// fuzz_lab_scenario).
	std::uint64_t widen(Word w) const
	{
		using sword = kernel::signed_word<Word>;
		const std::int64_t d = static_cast<sword>(static_cast<Word>(w - static_cast<Word>(now_)));
		const std::uint64_t ahead = static_cast<std::uint64_t>(d);	// mod 2^64
		if (d >= 0)
			return ahead > UINT64_MAX - now_ ? UINT64_MAX : now_ + ahead;
		const std::uint64_t behind = 0 - ahead;
		return behind > now_ ? 0 : now_ - behind;
	}

	// The softirq at each jiffy in [now, to] where a base is due.
	void run_within(std::uint64_t to)
	{
		for (;;) {
			std::uint64_t due = now_ + (to - now_) + 1;
			for (const base_t &b : bases_.base)
				due = std::min(due, std::max(widen(b.next_expiry), now_));
			if (due > to)
				break;
			counters_.ticks++;
			v48::run_timers(bases_, static_cast<Word>(due));
			now_ = due + 1;
		}
		now_ = to + 1;
	}

	wheel_event event(wheel_event_kind kind, const std::string &name, std::uint64_t jiffy,
			  const timer_t &t) const
	{
		wheel_event ev;
		ev.kind = kind;
		ev.timer = name;
		ev.base = t.base ? base_name(t.base->index) : "global";
		ev.jiffy = jiffy;
		ev.level = lvl_name(t.idx / Geometry::LVL_SIZE);
		ev.slot = t.idx % Geometry::LVL_SIZE;
		return ev;
	}

	// ---- v48_sink ----

	void enqueued(unsigned long data, unsigned lvl, std::uint64_t bucket_expiry) override
	{
		const timer_t &t = timers_[data];
		bucket_expiry_[data] = bucket_expiry;
		wheel_event ev = event(wheel_event_kind::placed, names_[data], now_word(), t);
		ev.expires = t.expires;
		ev.requested = arming_.requested;
		ev.bucket_expiry = bucket_expiry;
		ev.clock = t.base->clk;
		ev.rearm = arming_.rearm;
		ev.why = arming_.why + (arming_.rearm ? "it was pending: detached first, then placed again\n" : "") +
			 explain_v48_place(shape_, t.base->clk, t.expires, lvl, t.idx % Geometry::LVL_SIZE,
					   bucket_expiry);
		arming_.enqueued = true;
		out_->push_back(ev);
	}

	void expiring(unsigned long data, std::uint64_t jiffy) override
	{
		const timer_t &t = timers_[data];
		wheel_event ev = event(wheel_event_kind::expired, names_[data], jiffy, t);
		ev.expires = t.expires;
		ev.bucket_expiry = bucket_expiry_[data];
		const std::uint64_t late = static_cast<Word>(static_cast<Word>(jiffy) - t.expires);
		ev.why = "jiffy " + std::to_string(jiffy) + ": the " + ev.level + " bucket " + std::to_string(ev.slot) +
			 " of the " + ev.base + " base is due; " + names_[data] + " expires " +
			 std::to_string(t.expires) + ", so it runs " + jiffies_count(late) + " late";
		out_->push_back(ev);
	}

	timer_t *timer(const std::string &name, bool deferrable)
	{
		auto [it, fresh] = ids_.try_emplace(name, timers_.size());
		if (fresh) {
			names_.push_back(name);
			bucket_expiry_.push_back(0);
			timer_t &t = timers_.emplace_back();
			v48::init_timer(&t, it->second, deferrable ? unsigned{v48::TIMER_DEFERRABLE} : 0u);
			return &t;
		}
		timer_t *t = &timers_[it->second];
		if (deferrable && !(t->flags & v48::TIMER_DEFERRABLE))
			throw lab_error("timer " + name + " was first armed without `deferrable`: flags are fixed at timer_setup()");
		return t;
	}

	timer_t *existing(const std::string &name)
	{
		auto it = ids_.find(name);
		if (it == ids_.end())
			throw lab_error("no timer named " + name + " was ever armed");
		return &timers_[it->second];
	}

	wheel_setup setup_;
	v48_shape shape_;
	std::uint64_t now_;
	v48::cpu_bases<config> bases_;
	std::deque<timer_t> timers_;	// deque: growing keeps addresses stable
	std::vector<std::string> names_;
	std::vector<std::uint64_t> bucket_expiry_;
	std::map<std::string, std::size_t> ids_;
	wheel_counters counters_;
	arming arming_;
	std::vector<wheel_event> *out_ = nullptr;
};

template <class Geometry>
std::unique_ptr<lab_wheel> with_width(const wheel_setup &s)
{
	if (s.word_bits == 32)
		return std::make_unique<v48_lab_wheel<Geometry, std::uint32_t>>(s);
	return std::make_unique<v48_lab_wheel<Geometry, std::uint64_t>>(s);
}

}  // namespace

std::unique_ptr<lab_wheel> make_v48_lab_wheel(const wheel_setup &setup)
{
	if (v48::lvl_depth_for_hz(setup.hz) == 9)
		return with_width<v48::geometry_hz_gt_100>(setup);
	return with_width<v48::geometry_hz_le_100>(setup);
}

}  // namespace timersim::lab
