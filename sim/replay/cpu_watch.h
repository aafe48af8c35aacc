// The CPU timeline of a replay (sim/hrtimer/cpu_timeline.h), fed to the
// sinks that draw it (replay_sink::wants_activity: the timeline CSV, the
// Perfetto trace, --why): the hrtimer model's interrupts and expiries, the
// softirq runs the measurement closed and the trace's events, in the
// order cpu_timeline takes them. Nothing is built when no sink wants it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sim/base/cpu_activity.h"
#include "sim/hrtimer/cpu_timeline.h"
#include "sim/hrtimer/hr_replay.h"
#include "sim/measured/cpu_time.h"
#include "sim/replay/replay.h"
#include "sim/replay/replay_sink.h"

namespace timersim {

class cpu_watch {
public:
	// The sinks of RUNS that want the timeline, each once; when there are
	// any, the timeline (callbacks named by NAME_OF, the tick's told by
	// IS_TICK) and the hrtimer model's calls, which wait for the event
	// that caused them to be applied.
	void watch(const std::vector<scheme_run> &runs, cpu_timeline::name_fn name_of,
		   cpu_timeline::tick_fn is_tick, hrtimer_replay &hrtimers)
	{
		for (const scheme_run &run : runs)
			for (replay_sink *s : run.sinks)
				if (s->wants_activity() && std::find(sinks_.begin(), sinks_.end(), s) == sinks_.end())
					sinks_.push_back(s);
		if (sinks_.empty())
			return;
		timeline_ = std::make_unique<cpu_timeline>(
			std::move(name_of), std::move(is_tick),
			[this](const cpu_activity &a) {
				for (replay_sink *s : sinks_)
					s->activity(a);
			},
			[this](const wakeup &w) {
				for (replay_sink *s : sinks_)
					s->woke(w);
			});
		hrtimers.observe([this](cpu_activity &a, std::uint32_t function) { model_calls_.emplace_back(a, function); });
	}

	bool on() const { return timeline_ != nullptr; }
	// The measurement closed RUN at the event being applied.
	void softirq_closed(const measured::softirq_run &run)
	{
		closed_run_ = true;
		last_closed_run_ = run;
	}
	// After the event EV was applied: the model's calls it caused, the
	// run it closed, then the event (on the replay's CPUS).
	void tell(const sim_event &ev, unsigned cpus)
	{
		for (auto &[a, function] : model_calls_)
			timeline_->model(a, function);
		model_calls_.clear();
		if (closed_run_ && last_closed_run_.cpu < cpus)
			timeline_->softirq_closed(last_closed_run_);
		closed_run_ = false;
		if (ev.cpu < cpus)
			timeline_->add(ev);
	}
	void finish()
	{
		if (timeline_)
			timeline_->finish();
	}

private:
	std::unique_ptr<cpu_timeline> timeline_;
	std::vector<replay_sink *> sinks_;
	std::vector<std::pair<cpu_activity, std::uint32_t>> model_calls_;
	bool closed_run_ = false;
	measured::softirq_run last_closed_run_;
};

}  // namespace timersim
