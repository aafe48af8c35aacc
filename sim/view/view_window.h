// The view's animated window: the wheel's slots at the first tick at or
// after `from` (a keyframe of every CPU's bases, read from the scheme's
// wheel), then every placement, cascade move, expiry and deletion with the
// slot it went to, and one frame per tick of each CPU in [from, to]. The
// page replays the events onto the keyframe to show any frame, so the file
// grows with the window's events, not with frames times slots.
//
// Recording stops once every CPU ticked past `to`, or at `max_events`
// (then truncated() is true and the last frames are missing); events after
// the last frame are dropped.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/base/interner.h"
#include "sim/replay/replay_sink.h"

namespace timersim {

enum class window_kind : std::uint8_t {
	frame,		// cpu ticks `jiffy`: the state shown as "before jiffy J"
	placed,		// a start or re-arm put `timer` into base/level/slot at position
	moved,		// a cascade put `timer` into base/level/slot at position
	cascaded,	// a cascade call of `level` on `cpu` moved `count` timers
	expired,	// `timer` fired at `jiffy`
	deleted,	// `timer` left the wheel without firing (del_timer, or expired by the replay)
	miss,		// a recorded expiry of `timer` the simulation did not match (`verdict`)
};

struct window_event {
	window_kind kind = window_kind::frame;
	timer_id timer = 0;
	std::uint32_t cpu = 0, base = 0, level = 0, slot = 0, position = 0, count = 0;
	jiffies_t jiffy = 0;
	std::uint64_t expires = 0, bucket_expiry = 0, clock = 0;	// in the word
	std::vector<std::uint64_t> clocks;	// frame: each base's clock
	verdict v = verdict::exact;
	bool rearm = false;
};

// What the page tells about a timer: its address and callback, and its
// latest placement (for "why is it there").
struct window_timer {
	std::uint64_t ptr = 0;
	std::uint32_t name = 0;		// into names()
	jiffies_t placed_at = 0;	// the jiffy of its latest start or cascade
	std::uint64_t placed_clock = 0;	// the base's clock then (in the word)
	bool by_cascade = false;
	bool shown = false;		// in the keyframe or an event
};

class view_window final : public replay_sink {
public:
	// `printed`: from and to are as the kernel prints jiffies (a 32-bit
	// kernel's wrap), else the replay's unwrapped jiffies.
	view_window(jiffies_t from, jiffies_t to, bool printed, std::size_t max_events = 100000);

	void begin(const replay_setup &setup) override;
	void started(const timer_ref &t, unsigned cpu, jiffies_t now, jiffies_t expires,
		     unsigned level, bool rearm) override;
	void canceled(const timer_ref &t, unsigned cpu, jiffies_t now) override;
	void tick(unsigned cpu, jiffies_t jiffy) override;
	void cascaded(unsigned cpu, jiffies_t jiffy, unsigned level, std::uint32_t count) override;
	void moved(const timer_ref &t, unsigned cpu, jiffies_t jiffy, unsigned from_level) override;
	void expired(const timer_ref &t, unsigned cpu, jiffies_t jiffy, jiffies_t expires) override;
	void fidelity(const timer_ref &t, unsigned cpu, jiffies_t recorded, jiffies_t simulated,
		      verdict v) override;
	void end(const replay_report &report) override;

	bool drawable() const { return drawable_; }	// the scheme has slots
	bool started_recording() const { return started_; }
	bool truncated() const { return truncated_; }
	jiffies_t from() const { return from_; }
	jiffies_t to() const { return to_; }
	// keyframe()[cpu]: that CPU's bases when recording began.
	const std::vector<std::vector<wheel_base_state>> &keyframe() const { return keyframe_; }
	const std::vector<window_event> &events() const { return events_; }
	const std::vector<window_timer> &timers() const { return timers_; }
	const interner &names() const { return names_; }

private:
	window_timer &timer(const timer_ref &t);
	void push(window_event e);
	void place_event(window_kind kind, const timer_ref &t, jiffies_t jiffy, bool rearm);

	jiffies_t from_, to_;
	bool printed_;
	std::size_t max_events_;
	const replay_setup *setup_ = nullptr;
	bool drawable_ = false, started_ = false, stopped_ = false, truncated_ = false;
	std::vector<bool> past_;		// per CPU: ticked past `to`
	std::vector<std::vector<wheel_base_state>> keyframe_;
	std::vector<window_event> events_;
	std::vector<window_timer> timers_;
	interner names_;
};

}  // namespace timersim
