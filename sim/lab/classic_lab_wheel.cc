// The classic tv1..tv5 wheel of kernel/classic_wheel.h as a lab wheel: one
// tvec_base, timers by name, and the wheel's own observer turned into
// wheel_events (where each timer landed is read back with
// kernel/classic_inspect.h, never worked out here).
#include <algorithm>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "kernel/classic_idle.h"
#include "kernel/classic_inspect.h"
#include "kernel/classic_wheel.h"
#include "sim/base/errors.h"
#include "sim/lab/explain.h"
#include "sim/lab/lab_wheel.h"

namespace timersim::lab {

namespace {

// What the wheel reports, by the timer's index (its `data`).
class classic_sink {
public:
	virtual ~classic_sink() = default;
	virtual void enqueued(unsigned long data, unsigned level) = 0;
	virtual void moved(unsigned long data, unsigned from_level, unsigned to_level) = 0;
	virtual void cascaded(unsigned level, unsigned count) = 0;
	virtual void tick(std::uint64_t jiffy) = 0;
	virtual void expiring(unsigned long data, std::uint64_t jiffy) = 0;
};

template <class Timer>
struct sink_observer {
	classic_sink *sink = nullptr;

	void enqueued(const Timer &t, unsigned level) { sink->enqueued(t.data, level); }
	void moved(const Timer &t, unsigned from, unsigned to) { sink->moved(t.data, from, to); }
	void cascaded(unsigned level, unsigned count) { sink->cascaded(level, count); }
	template <class Word> void tick(Word jiffy) { sink->tick(jiffy); }
	template <class Word> void expiring(const Timer &t, Word jiffy) { sink->expiring(t.data, jiffy); }
};

void no_callback(unsigned long) {}

std::string tv(unsigned level) { return "tv" + std::to_string(level); }

template <class Geometry, class Word, kernel::slot_order Order>
class classic_lab_wheel final : public lab_wheel, classic_sink {
	using config = kernel::wheel_config<Geometry, Word, Order, sink_observer>;
	using base_t = kernel::tvec_base<config>;
	using timer_t = kernel::timer_list<config>;

public:
	explicit classic_lab_wheel(const wheel_setup &setup)
		: setup_(setup), shape_(classic_shape_of<Geometry>(setup.word_bits)), now_(setup.start)
	{
		jiffies_ = static_cast<Word>(setup.start);
		kernel::init_timer_base(base_, &jiffies_, 0, static_cast<Word>(setup.start));
		base_.observer.sink = this;
	}
	classic_lab_wheel(const classic_lab_wheel &) = delete;
	classic_lab_wheel &operator=(const classic_lab_wheel &) = delete;

	const wheel_setup &setup() const override { return setup_; }

	std::string describe() const override
	{
		return std::string("classic wheel (Linux 2.6..4.7), ") + shape_.describe() + ", " +
		       (Order == kernel::slot_order::fifo ? "FIFO slots (up to 4.1)" : "LIFO slots (4.2+)") +
		       ", HZ " + std::to_string(setup_.hz);
	}

	std::uint64_t now() const override { return now_; }

	void arm(const std::string &name, std::uint64_t expires, const arm_options &opt, bool add_only,
		 std::vector<wheel_event> &out) override
	{
		timer_t *t = timer(name, opt.deferrable);
		if (add_only && kernel::timer_pending(t))
			throw lab_error("add: timer " + name + " is already pending (add_timer() would BUG); use mod");

		const Word at = static_cast<Word>(now_);
		std::string why;
		Word e = rounded_expires<Word>(opt.round, static_cast<Word>(expires), setup_.hz, at, why);
		jiffies_ = at;
		t->slack = opt.slack;
		arming_ = {expires, static_cast<std::uint64_t>(e), kernel::timer_pending(t), why, false,
			   kernel::timer_pending(t) ? kernel::place_of(base_, t) : kernel::timer_place{}};
		out_ = &out;
		if (opt.exact)
			kernel::__mod_timer(base_, t, e, false);
		else
			kernel::mod_timer(base_, t, e);
		out_ = nullptr;
		if (!arming_.enqueued) {
			wheel_event ev = event(wheel_event_kind::unchanged, name, now_word());
			ev.expires = t->expires;
			ev.requested = arming_.requested;
			kernel::timer_place p = kernel::place_of(base_, t);
			ev.level = tv(p.level);
			ev.slot = p.slot;
			ev.why = why + slack_note(t) + "mod_timer(): the timer is pending with expires " +
				 std::to_string(t->expires) + " already: nothing to do (returns 1)";
			out.push_back(ev);
		}
	}

	bool del(const std::string &name, std::vector<wheel_event> &out) override
	{
		timer_t *t = existing(name);
		if (!kernel::timer_pending(t))
			return false;
		kernel::timer_place p = kernel::place_of(base_, t);
		wheel_event ev = event(wheel_event_kind::deleted, name, now_word());
		ev.level = tv(p.level);
		ev.slot = p.slot;
		ev.expires = t->expires;
		ev.why = "del_timer(): unlinked from its slot's list in O(1); it never runs";
		kernel::del_timer(t);
		out.push_back(ev);
		return true;
	}

	void run_to(std::uint64_t upto, std::vector<wheel_event> &out) override
	{
		// Wrap-safe comparisons of a 32-bit wheel need steps below 2^31.
		constexpr std::uint64_t step = std::uint64_t{1} << 30;
		// One jiffy runs as it is, its empty cascades reported. A longer
		// run takes each idle stretch at once, as the replay does
		// (kernel/classic_idle.h), with the cascade calls it would have
		// made counted: its work grows with its timers, not its length.
		const bool skip_idle = upto > now_;
		out_ = &out;
		while (now_ <= upto) {
			if (skip_idle) {
				const std::uint64_t idle = std::min({kernel::idle_jiffies(base_), upto - now_ + 1, step});
				if (idle) {
					const kernel::idle_cascades c = kernel::forward_idle(base_, idle);
					for (unsigned level = 2; level <= Geometry::LEVELS; level++)
						counters_.cascade_calls += c.calls[level];
					counters_.ticks += idle;
					now_ += idle;
					continue;
				}
			}
			// A busy jiffy (or a one-jiffy run): step it.
			jiffies_ = static_cast<Word>(now_);
			kernel::run_timers(base_, static_cast<Word>(now_));
			now_++;
		}
		out_ = nullptr;
		jiffies_ = static_cast<Word>(now_);
	}

	std::uint64_t next_interrupt() override
	{
		return kernel::get_next_timer_interrupt(base_, static_cast<Word>(now_));
	}

	std::vector<std::uint64_t> clocks() const override { return {base_.timer_jiffies}; }

	bool known(const std::string &name) const override { return ids_.count(name) != 0; }

	bool pending(const std::string &name) const override
	{
		auto it = ids_.find(name);
		return it != ids_.end() && kernel::timer_pending(&timers_[it->second]);
	}

	wheel_snapshot snapshot() const override
	{
		wheel_snapshot s;
		s.scheme = "classic";
		s.word_bits = setup_.word_bits;
		s.now = now_word();
		snapshot_base &b = s.bases.emplace_back();
		b.name = "base";
		b.clock = base_.timer_jiffies;
		for (unsigned level = 1; level <= Geometry::LEVELS; level++) {
			snapshot_level &l = b.levels.emplace_back();
			l.name = tv(level);
			l.size = base_t::slots_of(level);
			l.index = kernel::level_index(base_, level);
			l.width = std::uint64_t{1} << base_t::shift_of(level);
		}
		kernel::for_each_timer(base_, [&](unsigned level, unsigned slot, const timer_t &t) {
			snapshot_level &l = b.levels[level - 1];
			if (l.slots.empty() || l.slots.back().slot != slot)
				l.slots.push_back({slot, {}});
			l.slots.back().timers.push_back({names_[t.data], t.expires, t.expires,
							 (t.flags & kernel::TIMER_DEFERRABLE) != 0});
		});
		return s;
	}

	const wheel_counters &counters() const override { return counters_; }

private:
	struct arming {
		std::uint64_t requested = 0;	// as the statement gave it
		std::uint64_t rounded = 0;	// after round_jiffies(), before slack
		bool rearm = false;
		std::string why;
		bool enqueued = false;
		kernel::timer_place before;	// where a pending timer sat
	};

	wheel_event event(wheel_event_kind kind, const std::string &name, std::uint64_t jiffy) const
	{
		wheel_event ev;
		ev.kind = kind;
		ev.timer = name;
		ev.base = "base";
		ev.jiffy = jiffy;
		return ev;
	}

	// The slack step of mod_timer(), when it changed the expiry.
	std::string slack_note(const timer_t *t) const
	{
		Word slacked = kernel::apply_slack(t, static_cast<Word>(arming_.rounded), jiffies_);
		if (slacked == static_cast<Word>(arming_.rounded))
			return "";
		return explain_slack(t->slack, arming_.rounded, jiffies_, slacked, setup_.word_bits) + "\n";
	}

	// ---- classic_sink: what the wheel reports ----

	void enqueued(unsigned long data, unsigned level) override
	{
		const timer_t *t = &timers_[data];
		kernel::timer_place p = kernel::place_of(base_, t);
		wheel_event ev = event(wheel_event_kind::placed, names_[data], now_word());
		ev.level = tv(level);
		ev.slot = p.slot;
		ev.expires = t->expires;
		ev.requested = arming_.requested;
		ev.bucket_expiry = t->expires;
		ev.clock = base_.timer_jiffies;
		ev.rearm = arming_.rearm;
		ev.stayed = arming_.rearm && arming_.before.level == level && arming_.before.slot == p.slot;
		ev.why = arming_.why + slack_note(t) +
			 (arming_.rearm ? "it was pending: detached first, then placed again\n" : "") +
			 explain_classic_place(shape_, base_.timer_jiffies, t->expires, level, p.slot);
		arming_.enqueued = true;
		out_->push_back(ev);
	}

	void moved(unsigned long data, unsigned from_level, unsigned to_level) override
	{
		const unsigned from_slot = kernel::level_index(base_, from_level);
		if (open_cascade_ == npos) {
			wheel_event c = event(wheel_event_kind::cascaded, "", jiffy_);
			c.level = tv(from_level);
			c.slot = from_slot;
			c.why = explain_cascade(shape_, jiffy_, from_level, from_slot);
			open_cascade_ = out_->size();
			out_->push_back(c);
		}
		const timer_t *t = &timers_[data];
		kernel::timer_place p = kernel::place_of(base_, t);
		wheel_event ev = event(wheel_event_kind::moved, names_[data], jiffy_);
		ev.level = tv(to_level);
		ev.slot = p.slot;
		ev.from_level = tv(from_level);
		ev.from_slot = from_slot;
		ev.expires = t->expires;
		ev.bucket_expiry = t->expires;
		ev.clock = base_.timer_jiffies;
		ev.why = explain_classic_place(shape_, base_.timer_jiffies, t->expires, to_level, p.slot);
		out_->push_back(ev);
	}

	// Every cascade() call, an empty slot's too: which slots a jiffy
	// cascades is the chain of index wraps, whatever they hold.
	void cascaded(unsigned level, unsigned count) override
	{
		counters_.cascade_calls++;
		if (open_cascade_ == npos) {
			const unsigned slot = kernel::level_index(base_, level);
			wheel_event c = event(wheel_event_kind::cascaded, "", jiffy_);
			c.level = tv(level);
			c.slot = slot;
			c.why = explain_cascade(shape_, jiffy_, level, slot);
			out_->push_back(c);
		} else {
			(*out_)[open_cascade_].count = count;
		}
		open_cascade_ = npos;
	}

	void tick(std::uint64_t jiffy) override
	{
		counters_.ticks++;
		jiffy_ = jiffy;
	}

	void expiring(unsigned long data, std::uint64_t jiffy) override
	{
		const timer_t *t = &timers_[data];
		wheel_event ev = event(wheel_event_kind::expired, names_[data], jiffy);
		ev.level = tv(1);
		ev.slot = static_cast<unsigned>(jiffy & Geometry::TVR_MASK);
		ev.expires = t->expires;
		ev.why = "jiffy " + std::to_string(jiffy) + ": tv1 slot " + std::to_string(ev.slot) +
			 " runs, in list order; " + names_[data] + " expires " + std::to_string(t->expires) +
			 (t->expires == jiffy ? ", on time" : ", the first jiffy processed after it");
		out_->push_back(ev);
	}

	timer_t *timer(const std::string &name, bool deferrable)
	{
		auto [it, fresh] = ids_.try_emplace(name, timers_.size());
		if (fresh) {
			names_.push_back(name);
			timer_t &t = timers_.emplace_back();
			kernel::init_timer(&t, no_callback, it->second, deferrable ? unsigned{kernel::TIMER_DEFERRABLE} : 0u);
			return &t;
		}
		timer_t *t = &timers_[it->second];
		if (deferrable && !(t->flags & kernel::TIMER_DEFERRABLE))
			throw lab_error("timer " + name + " was first armed without `deferrable`: flags are fixed at init_timer()");
		return t;
	}

	timer_t *existing(const std::string &name)
	{
		auto it = ids_.find(name);
		if (it == ids_.end())
			throw lab_error("no timer named " + name + " was ever armed");
		return &timers_[it->second];
	}

	static constexpr std::size_t npos = ~std::size_t{0};

	wheel_setup setup_;
	classic_shape shape_;
	std::uint64_t now_;
	Word jiffies_ = 0;
	base_t base_;
	std::deque<timer_t> timers_;	// deque: growing keeps addresses stable
	std::vector<std::string> names_;
	std::map<std::string, std::size_t> ids_;
	wheel_counters counters_;
	arming arming_;
	std::vector<wheel_event> *out_ = nullptr;
	std::uint64_t jiffy_ = 0;	// the jiffy being processed
	std::size_t open_cascade_ = npos;	// the cascaded event its moves belong to
};

template <class Geometry, class Word>
std::unique_ptr<lab_wheel> with_order(const wheel_setup &s)
{
	if (s.lifo)
		return std::make_unique<classic_lab_wheel<Geometry, Word, kernel::slot_order::lifo>>(s);
	return std::make_unique<classic_lab_wheel<Geometry, Word, kernel::slot_order::fifo>>(s);
}

template <class Geometry>
std::unique_ptr<lab_wheel> with_width(const wheel_setup &s)
{
	if (s.word_bits == 32)
		return with_order<Geometry, std::uint32_t>(s);
	return with_order<Geometry, std::uint64_t>(s);
}

}  // namespace

std::unique_ptr<lab_wheel> make_classic_lab_wheel(const wheel_setup &setup)
{
	if (setup.base_small)
		return with_width<kernel::geometry_small>(setup);
	return with_width<kernel::geometry_normal>(setup);
}

}  // namespace timersim::lab
