#include "sim/whatif/own_expiries.h"

#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

namespace timersim {

namespace {

// How many events may wait behind an unresolved timer_cancel before it is
// taken as a delete (the replay looks as far).
constexpr std::size_t max_held = 4096;

struct owned {
	trace_event ev;
	std::string name, function;
	bool held = false;	// a timer_cancel whose meaning is not known yet
	bool dropped = false;
};

class own_expiries_reader final : public trace_reader {
public:
	explicit own_expiries_reader(std::unique_ptr<trace_reader> inner) : inner_(std::move(inner)) {}

	bool next(trace_event &ev) override
	{
		for (;;) {
			while (!queue_.empty() && queue_.front().dropped)
				queue_.pop_front();
			if (!queue_.empty() && !queue_.front().held) {
				current_ = std::move(queue_.front());
				queue_.pop_front();
				ev = current_.ev;
				ev.name = current_.name;
				ev.function = current_.function;
				return true;
			}
			if (!pull()) {
				if (queue_.empty())
					return false;
				queue_.front().held = false;	// the trace ended: a delete
			}
		}
	}

	const reader_stats &stats() const override
	{
		stats_ = inner_->stats();
		stats_.events -= dropped_;
		stats_.skipped += dropped_;
		return stats_;
	}
	trace_format format() const override { return inner_->format(); }
	unsigned declared_cpus() const override { return inner_->declared_cpus(); }
	std::string clock() const override { return inner_->clock(); }
	const char *unit() const override { return inner_->unit(); }
	symbol_fit symbols_fit() const override { return inner_->symbols_fit(); }

private:
	// Reads one event from the trace and files it.
	bool pull()
	{
		trace_event ev;
		if (!inner_->next(ev))
			return false;
		bool timer_event = is_timer_event(ev.kind);

		if (timer_event && ev.kind == event_kind::timer_expire_exit) {
			auto it = exits_.find(ev.cpu);
			if (it != exits_.end() && it->second == ev.timer) {
				exits_.erase(it);
				dropped_++;
				measure_only(ev);
				return true;
			}
		}
		if (timer_event) {
			auto h = holding_.find(ev.cpu);
			if (h != holding_.end()) {
				owned &cancel = queue_[h->second - popped_base()];
				holding_.erase(h);
				cancel.held = false;
				if (ev.kind == event_kind::timer_expire_entry && ev.timer == cancel.ev.timer) {
					cancel.dropped = true;
					dropped_ += 2;
					exits_[ev.cpu] = ev.timer;
					measure_only(ev);
					return true;
				}
			}
		}
		if (ev.kind == event_kind::timer_expire_entry) {
			// An expiry without its cancel (a trace that starts mid-way):
			// dropped all the same.
			dropped_++;
			exits_[ev.cpu] = ev.timer;
			measure_only(ev);
			return true;
		}
		owned o;
		o.ev = ev;
		o.name = std::string(ev.name);
		o.function = std::string(ev.function);
		if (ev.kind == event_kind::timer_cancel) {
			o.held = true;
			holding_[ev.cpu] = pushed_;
		}
		queue_.push_back(std::move(o));
		pushed_++;
		// Too long unresolved: a delete after all.
		if (queue_.size() > max_held && queue_.front().held) {
			queue_.front().held = false;
			for (auto it = holding_.begin(); it != holding_.end(); ++it)
				if (it->second == popped_base()) {
					holding_.erase(it);
					break;
				}
		}
		return true;
	}

	// A dropped expiry's entry or exit goes on, in its place, for the
	// measurement alone: the callback ran in the recording, and its time is
	// the recording's, not the scheme's to lose (a TIMER run's overhead is
	// its own time less its callbacks').
	void measure_only(const trace_event &ev)
	{
		owned o;
		o.ev = ev;
		o.ev.has |= EF_MEASURE_ONLY;
		o.name = std::string(ev.name);
		o.function = std::string(ev.function);
		queue_.push_back(std::move(o));
		pushed_++;
	}

	// Sequence number of queue_.front().
	std::uint64_t popped_base() const { return pushed_ - queue_.size(); }

	std::unique_ptr<trace_reader> inner_;
	std::deque<owned> queue_;
	owned current_;
	std::uint64_t pushed_ = 0;
	std::unordered_map<std::uint32_t, std::uint64_t> holding_;	// CPU -> sequence of its held cancel
	std::unordered_map<std::uint32_t, std::uint64_t> exits_;	// CPU -> timer whose exit to drop
	std::uint64_t dropped_ = 0;
	mutable reader_stats stats_;
};

}  // namespace

std::unique_ptr<trace_reader> make_own_expiries_reader(std::unique_ptr<trace_reader> inner)
{
	return std::make_unique<own_expiries_reader>(std::move(inner));
}

}  // namespace timersim
