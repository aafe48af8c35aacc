// A wheel of kernel/ for hands-on work: one base (one CPU) of the classic
// tv1..tv5 wheel or of the 4.8+ wheel, timers by name, and every placement,
// cascade, move and expiry reported as a wheel_event with its reasoning.
//
// Time follows the replay contract (../shared/docs/replay-contract.md):
// `now` is the jiffy the base processes next, and a statement happens at
// now, after every earlier jiffy was processed. Internally time is 64-bit
// and never wraps; the wheel sees it narrowed to its word, and every value
// reported is narrowed (what a 32-bit kernel would print).
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/lab/wheel_snapshot.h"

namespace timersim::lab {

struct wheel_setup {
	std::string scheme = "classic";	// "classic" or "v48"
	unsigned hz = 250;
	unsigned word_bits = 64;
	bool base_small = false;	// classic: CONFIG_BASE_SMALL geometry
	bool lifo = false;		// classic: 4.2+ slots (LIFO) instead of 3.x FIFO
	std::uint64_t start = 0;	// the first jiffy (in the word)
};

// Throws usage_error for a scheme, HZ or word width the lab has no wheel for.
void validate(const wheel_setup &setup);

enum class rounding : std::uint8_t { none, round, round_up };	// round_jiffies(), round_jiffies_up()

struct arm_options {
	int slack = 0;		// classic timer->slack; -1: the kernel's default 0.4% (v48: none)
	bool deferrable = false;	// fixed when the timer is first armed
	rounding round = rounding::none;
	// __mod_timer() as a recorded timer_start applies it: no slack, and a
	// re-arm to the same expiry is enqueued again (classic; v48's own
	// shortcuts stay).
	bool exact = false;
};

// A statement the wheel cannot do (add of a pending timer, unknown timer):
// the caller names the line.
class lab_error : public std::runtime_error {
public:
	explicit lab_error(const std::string &msg) : std::runtime_error(msg) {}
};

// Work a run did that is not an event of its own.
struct wheel_counters {
	std::uint64_t ticks = 0;		// jiffies processed (v48: softirq runs)
	std::uint64_t cascade_calls = 0;	// classic: cascade() calls, empty slots included
};

class lab_wheel {
public:
	virtual ~lab_wheel() = default;

	virtual const wheel_setup &setup() const = 0;
	// "classic: tv1 256 slots, ..." or "v48: LVL_DEPTH 9, ...".
	virtual std::string describe() const = 0;

	// The jiffy the next statement happens at, unwrapped and in the word.
	virtual std::uint64_t now() const = 0;
	std::uint64_t now_word() const { return narrow(now()); }
	std::uint64_t narrow(std::uint64_t j) const
	{
		return setup().word_bits == 32 ? j & 0xffffffffull : j;
	}

	// add_timer() (`add_only`: the timer must not be pending) or
	// mod_timer() of timer `name` to `expires` (in the word), at now.
	virtual void arm(const std::string &name, std::uint64_t expires, const arm_options &opt,
			 bool add_only, std::vector<wheel_event> &out) = 0;
	// del_timer(); false if it was not pending.
	virtual bool del(const std::string &name, std::vector<wheel_event> &out) = 0;
	// Process every jiffy up to and including `upto` (unwrapped); now
	// becomes upto + 1.
	virtual void run_to(std::uint64_t upto, std::vector<wheel_event> &out) = 0;

	// NOHZ: the jiffy this CPU must wake at, as get_next_timer_interrupt()
	// answers at now (in the word). Like the kernel, this may refresh
	// the base's cached next expiry; it changes no slot.
	virtual std::uint64_t next_interrupt() = 0;

	// Each base's clock (timer_jiffies, or v48's clk of local, global,
	// def), in the order of snapshot().bases: a frame without the walk
	// of every timer a snapshot makes.
	virtual std::vector<std::uint64_t> clocks() const = 0;

	virtual bool known(const std::string &name) const = 0;
	virtual bool pending(const std::string &name) const = 0;
	virtual wheel_snapshot snapshot() const = 0;
	virtual const wheel_counters &counters() const = 0;
};

// Throws usage_error for a bad setup.
std::unique_ptr<lab_wheel> make_lab_wheel(const wheel_setup &setup);

// The factories of each design (classic_lab_wheel.cc, v48_lab_wheel.cc).
std::unique_ptr<lab_wheel> make_classic_lab_wheel(const wheel_setup &setup);
std::unique_ptr<lab_wheel> make_v48_lab_wheel(const wheel_setup &setup);

}  // namespace timersim::lab
