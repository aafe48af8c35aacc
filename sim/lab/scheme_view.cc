#include "sim/lab/scheme_view.h"

#include <map>
#include <memory>

#include "kernel/classic_wheel.h"
#include "sim/trace/event.h"
#include "sim/trace/reader.h"

namespace timersim::lab {

namespace {

// mod_timer()'s slack step, by the kernel's own apply_slack().
template <class Word>
std::uint64_t slacked(int slack, std::uint64_t expires, std::uint64_t jiffies)
{
	using config = kernel::wheel_config<kernel::geometry_normal, Word>;
	kernel::timer_list<config> t{};
	t.slack = slack;
	return kernel::apply_slack(&t, static_cast<Word>(expires), static_cast<Word>(jiffies));
}

class view final : public scheme_observer {
public:
	view(const std::string &scheme, const wheel_setup &setup, const std::string &source)
		: setup_(setup), source_(source), v48_(scheme == "v48"), now_(setup.start)
	{
		scheme_options o;
		o.hz = setup.hz;
		o.word_bits = setup.word_bits;
		o.base_small = setup.base_small;
		// The lab shows every jiffy and every cascade call, empty ones too:
		// step the wheel, never skip an idle stretch.
		o.stepping = true;
		if (scheme == "classic")
			o.params = {{"order", setup.lifo ? "lifo" : "fifo"}};
		scheme_ = make_scheme(scheme, o);
		scheme_->reset(1, setup.start, this);
	}

	step_record apply(const scenario_op &op, const std::vector<scenario_op> &before)
	{
		step_record r;
		r.line = op.line;
		r.text = op.text.empty() ? render_op(op) : op.text;
		r.at = narrow(now_);
		out_ = &r;
		const std::uint64_t ticks = ticks_, calls = calls_;
		switch (op.kind) {
		case op_kind::add:
		case op_kind::mod:
			arm(op);
			break;
		case op_kind::del: {
			auto it = ids_.find(op.timer);
			if (it == ids_.end())
				throw input_error(source_, op.line, "no timer named " + op.timer + " was ever armed");
			if (scheme_->cancel(it->second))
				r.events.push_back(event(wheel_event_kind::deleted, it->second, narrow(now_)));
			else
				r.not_pending = true;
			break;
		}
		case op_kind::tick:
		case op_kind::run_to: {
			std::uint64_t upto = statement_upto(op, source_, now_, setup_.word_bits);
			scheme_->advance(0, upto);
			now_ = upto + 1;
			break;
		}
		case op_kind::show:
			r.next_interrupt = probe_next(before);
			break;
		}
		out_ = nullptr;
		r.work.ticks = ticks_ - ticks;
		r.work.cascade_calls = calls_ - calls;
		r.after.scheme = scheme_->name();
		r.after.word_bits = setup_.word_bits;
		r.after.now = narrow(now_);
		return r;
	}

	const cost_counters &costs() const { return scheme_->costs(); }

private:
	std::uint64_t narrow(std::uint64_t j) const { return setup_.word_bits == 32 ? j & 0xffffffffull : j; }

	// A value in the word as the nearest simulation jiffy.
	std::uint64_t unwrap(std::uint64_t w) const
	{
		if (setup_.word_bits == 64)
			return w;
		auto d = static_cast<std::int32_t>(static_cast<std::uint32_t>(w) - static_cast<std::uint32_t>(now_));
		return now_ + static_cast<std::uint64_t>(static_cast<std::int64_t>(d));
	}

	void arm(const scenario_op &op)
	{
		const std::uint64_t requested = statement_expiry(op, source_, now_, setup_.word_bits);
		auto [it, fresh] = ids_.try_emplace(op.timer, static_cast<timer_id>(names_.size()));
		const timer_id id = it->second;
		if (fresh) {
			names_.push_back(op.timer);
			deferrable_.push_back(op.arm.deferrable);
			expires_.push_back(0);
		}
		if (op.kind == op_kind::add && scheme_->pending(id))
			throw input_error(source_, op.line, "add: timer " + op.timer + " is already pending");

		std::uint64_t e = requested;
		const bool w32 = setup_.word_bits == 32;
		if (op.arm.round != rounding::none) {
			const bool up = op.arm.round == rounding::round_up;
			e = w32 ? (up ? kernel::round_jiffies_up<std::uint32_t>(static_cast<std::uint32_t>(e), setup_.hz,
										 static_cast<std::uint32_t>(now_))
				      : kernel::round_jiffies<std::uint32_t>(static_cast<std::uint32_t>(e), setup_.hz,
									       static_cast<std::uint32_t>(now_)))
				: (up ? kernel::round_jiffies_up<std::uint64_t>(e, setup_.hz, now_)
				      : kernel::round_jiffies<std::uint64_t>(e, setup_.hz, now_));
		}
		const bool pending = scheme_->pending(id);
		if (!v48_) {
			e = w32 ? slacked<std::uint32_t>(op.arm.slack, e, now_) : slacked<std::uint64_t>(op.arm.slack, e, now_);
			if (pending && expires_[id] == e) {
				unchanged(id, requested, e);
				return;
			}
		}
		enqueued_ = false;
		requested_ = requested;
		rearm_ = pending;
		expires_[id] = e;
		scheme_->start(id, 0, unwrap(e), deferrable_[id] ? std::uint32_t{TF_DEFERRABLE} : 0u);
		if (!enqueued_)
			unchanged(id, requested, e);
	}

	void unchanged(timer_id id, std::uint64_t requested, std::uint64_t e)
	{
		wheel_event ev = event(wheel_event_kind::unchanged, id, narrow(now_));
		ev.requested = requested;
		ev.expires = e;
		out_->events.push_back(ev);
	}

	// The first jiffy at which a timer that wakes the CPU fires: the same
	// statements on a fresh scheme, then run on.
	std::uint64_t probe_next(const std::vector<scenario_op> &before)
	{
		view probe(scheme_->name(), setup_, source_);
		for (const scenario_op &op : before)
			if (op.kind != op_kind::show)
				probe.apply(op, {});
		bool any = false;
		for (timer_id id = 0; id < probe.names_.size(); id++)
			any = any || (probe.scheme_->pending(id) && !probe.deferrable_[id]);
		const std::uint64_t cap = probe.now_ + kernel::NEXT_TIMER_MAX_DELTA;
		if (!any)
			return narrow(cap);
		step_record sink;
		probe.out_ = &sink;
		while (probe.now_ < cap) {
			const std::uint64_t upto = std::min(cap, probe.now_ + 4095);
			probe.scheme_->advance(0, upto);
			probe.now_ = upto + 1;
			for (const wheel_event &e : sink.events)
				if (e.kind == wheel_event_kind::expired && !probe.deferrable_[probe.ids_.at(e.timer)])
					return e.jiffy;
			sink.events.clear();
		}
		return narrow(cap);
	}

	wheel_event event(wheel_event_kind kind, timer_id t, std::uint64_t jiffy) const
	{
		wheel_event ev;
		ev.kind = kind;
		ev.timer = t < names_.size() ? names_[t] : "";
		ev.base = v48_ ? "global" : "base";
		ev.jiffy = jiffy;
		ev.slot = unknown_slot;
		ev.from_slot = unknown_slot;
		ev.bucket_expiry = unknown_value;
		ev.clock = unknown_value;
		if (t < expires_.size())
			ev.expires = expires_[t];
		return ev;
	}

	std::string level_name(unsigned level) const
	{
		return scheme_->levels() ? scheme_->level_name(level) : "";
	}

	// ---- scheme_observer ----

	void enqueued(timer_id t, unsigned level) override
	{
		enqueued_ = true;
		wheel_event ev = event(wheel_event_kind::placed, t, narrow(now_));
		ev.level = level_name(level);
		ev.requested = requested_;
		ev.rearm = rearm_;
		if (!v48_)
			ev.bucket_expiry = ev.expires;
		out_->events.push_back(ev);
	}

	void moved(timer_id t, unsigned from_level) override
	{
		wheel_event ev = event(wheel_event_kind::moved, t, narrow(jiffy_));
		ev.from_level = level_name(from_level);
		out_->events.push_back(ev);
	}

	void cascaded(unsigned level, std::uint32_t count) override
	{
		calls_++;
		wheel_event ev = event(wheel_event_kind::cascaded, ~timer_id{0}, narrow(jiffy_));
		ev.timer.clear();
		ev.level = level_name(level);
		ev.count = count;
		out_->events.push_back(ev);
	}

	void tick(unsigned, jiffies_t jiffy) override
	{
		ticks_++;
		jiffy_ = jiffy;
	}

	void expired(timer_id t, unsigned, jiffies_t jiffy) override
	{
		out_->events.push_back(event(wheel_event_kind::expired, t, narrow(jiffy)));
	}

	// A stepping scheme reports no idle stretch; were one reported, its
	// jiffies and calls still count as work.
	void idle_ticks(unsigned, jiffies_t first, std::uint64_t count) override
	{
		ticks_ += count;
		jiffy_ = first + count - 1;
	}

	void empty_cascades(unsigned, std::uint64_t calls) override { calls_ += calls; }

	wheel_setup setup_;
	std::string source_;
	bool v48_;
	std::unique_ptr<reported_scheme> scheme_;
	std::uint64_t now_;
	std::map<std::string, timer_id> ids_;
	std::vector<std::string> names_;
	std::vector<bool> deferrable_;
	std::vector<std::uint64_t> expires_;	// as last armed, in the word
	step_record *out_ = nullptr;
	std::uint64_t jiffy_ = 0;
	std::uint64_t ticks_ = 0, calls_ = 0;
	std::uint64_t requested_ = 0;
	bool enqueued_ = false, rearm_ = false;
};

}  // namespace

scheme_run run_on_scheme(const scenario &s, const std::string &scheme, const wheel_setup &setup)
{
	view v(scheme, setup, s.source);
	scheme_run run;
	std::vector<scenario_op> before;
	for (const scenario_op &op : s.ops) {
		run.records.push_back(v.apply(op, before));
		before.push_back(op);
	}
	run.costs = v.costs();
	return run;
}

std::uint64_t total_cost(const cost_counters &c)
{
	return c.insertions + c.removals + c.relinks + c.slot_visits + c.key_comparisons;
}

}  // namespace timersim::lab
