// The view's hrtimer lane: under the wheel, per CPU on the window's time
// axis, the CPU timeline of both halves (sim/base/cpu_activity.h) in the
// window: each recorded timer interrupt with its cause, each recorded
// hrtimer expiry (the tick's marked), and the hrtimer model's interrupts.
//
// An item is in the window when the jiffy in progress at its time (the
// trace clock's, as the replay knows it then) lies in [from, to] of the
// view_window it follows. At most `max_items` are kept (about 40 bytes each
// in the page); past that truncated() is true and later ones are dropped.
// Times are the trace's own ns, written as integers (exact in JavaScript
// below 2^53 ns, 104 days).
//
// In the page's data, key "hrtimers" (sim/view/view_page.h):
//   {truncated, names: [callbacks],
//    interrupts: [[cpu, entry_ns, exit_ns, cause, woke_for, first, expiries, model]],
//    expiries:   [[cpu, entry_ns, exit_ns, name, tick]],
//    model:      [[cpu, ns, due, at_recorded]]}
// with cause one of "none", "hrtimer", "tick", "wheel" (wake_cause), names
// as indexes into `names`, model 0 not run, 1 predicted, 2 not predicted.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/base/interner.h"
#include "sim/replay/replay_sink.h"
#include "sim/view/view_window.h"

namespace timersim {

class packed;

class view_hrlane final : public replay_sink {
public:
	view_hrlane(const view_window &window, std::size_t max_items = 20000);

	void begin(const replay_setup &setup) override;
	bool wants_activity() const override { return true; }
	void activity(const cpu_activity &a) override;
	void woke(const wakeup &w) override;

	bool truncated() const { return truncated_; }
	std::size_t items() const { return interrupts_.size() + expiries_.size() + model_.size(); }
	// The "hrtimers" value of the page's data.
	void write(packed &p) const;

private:
	struct interrupt_item {
		std::uint32_t cpu;
		std::uint64_t entry_ns, exit_ns;
		wake_cause cause;
		std::uint32_t woke_for, first, expiries;
		std::uint8_t model;
	};
	struct expiry_item {
		std::uint32_t cpu;
		std::uint64_t entry_ns, exit_ns;
		std::uint32_t name;
		bool tick;
	};
	struct model_item {
		std::uint32_t cpu;
		std::uint64_t ns;
		bool due, recorded;
	};

	// Whether an item at ts_ns is in the window and may be kept.
	bool keep(std::uint64_t ts_ns);

	const view_window &window_;
	std::size_t max_items_;
	const replay_setup *setup_ = nullptr;
	bool truncated_ = false;
	interner names_;
	std::vector<interrupt_item> interrupts_;
	std::vector<expiry_item> expiries_;
	std::vector<model_item> model_;
};

}  // namespace timersim
