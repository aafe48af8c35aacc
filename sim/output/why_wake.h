// replay --why CPU@SECONDS: why did this CPU wake at that time? One answer
// from both halves (sim/base/cpu_activity.h): the recorded timer interrupt
// nearest that time on that CPU, what it ran first (an hrtimer, or the tick
// and the wheel timer the TIMER softirq after it ran), what the hrtimer
// model predicted for it (whether its device had come due, when it was
// programmed to fire, what it ran first), the nearest interrupt the model
// had of its own, and what the machine measured (the interrupt's time, the
// TIMER softirq run after it).
//
// SECONDS is the trace's own time, as its timestamp column prints it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/replay/replay_sink.h"

namespace timersim {

struct why_query {
	unsigned cpu = 0;
	std::uint64_t ns = 0;		// the trace time asked about
	// CPU@SECONDS (e.g. 1@12.345678, at most 9 decimals); usage_error
	// naming --why otherwise.
	static why_query parse(std::string_view spec);
};

class why_wake final : public replay_sink {
public:
	explicit why_wake(std::vector<why_query> queries);

	bool wants_activity() const override { return true; }
	void activity(const cpu_activity &a) override;
	void woke(const wakeup &w) override;

	// The answers, one block per query, once the replay is over.
	std::string text() const;
	// Once the replay is over: usage_error (exit 2) for a query of a CPU
	// the trace does not have or a time outside what it recorded (its
	// first to its last timestamped event the replay saw).
	void check(const replay_report &r) const;

private:
	// A wakeup that owns its names.
	struct kept {
		bool found = false;
		std::uint64_t distance = 0;
		wakeup w;
		std::string first, cause_function, model_first;
	};
	struct answer {
		why_query q;
		kept nearest;
		// The nearest interrupt the model had of its own (none recorded).
		bool model_own = false;
		std::uint64_t model_own_ns = 0, model_own_distance = 0;
		std::uint32_t model_own_expiries = 0;
		std::string model_own_first;
	};

	std::vector<answer> answers_;
	// The span of what was seen (interrupts, expiries), trace ns.
	bool seen_ = false;
	std::uint64_t first_ns_ = 0, last_ns_ = 0;
	void saw(std::uint64_t ns);
};

}  // namespace timersim
