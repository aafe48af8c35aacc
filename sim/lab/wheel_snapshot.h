// The state of a lab wheel after a step, and what the step did: plain data,
// shared by `timersim step` (text), its --json output and the browser view
// (issue 11), so that every view shows the same slots with the same timers.
//
// Values are as the kernel holds them: jiffies narrowed to the modelled
// width of `unsigned long` (a 32-bit kernel's values wrap).
//
//   wheel_snapshot
//     bases[]            classic: one ("base"); v48: "local", "global", "def"
//       levels[]         tv1..tv5 or LVL0..LVL8, always all of them
//         index          the level's bits of the base's clock
//         slots[]        only the non-empty ones, ascending
//           timers[]     in list order: the order they run or cascade in
//   wheel_event          one placement, move, cascade, expiry or deletion
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace timersim::lab {

struct snapshot_timer {
	std::string name;
	std::uint64_t expires = 0;
	// When its slot runs: v48's bucket_expiry (the expiry rounded up to the
	// level's granularity); for the classic wheel the expiry itself.
	std::uint64_t bucket_expiry = 0;
	bool deferrable = false;
};

struct snapshot_slot {
	unsigned slot = 0;
	std::vector<snapshot_timer> timers;
};

struct snapshot_level {
	std::string name;		// "tv1" .. "tv5", "LVL0" .. "LVL8"
	unsigned size = 0;		// slots in the level
	// The level's bits of the base's clock: tv1's (LVL0's) is the slot
	// processed next; an upper level's is the slot cascaded last, or next
	// when the levels below are at 0.
	unsigned index = 0;
	std::uint64_t width = 0;	// jiffies one slot spans (v48: granularity)
	std::vector<snapshot_slot> slots;	// non-empty slots, ascending
};

struct snapshot_base {
	std::string name;		// "base" (classic); "local", "global", "def" (v48)
	std::uint64_t clock = 0;	// timer_jiffies (classic) or clk (v48)
	std::vector<snapshot_level> levels;
	std::uint64_t pending() const;
};

struct wheel_snapshot {
	std::string scheme;		// "classic" or "v48"
	unsigned word_bits = 64;
	std::uint64_t now = 0;		// the jiffy the next statement happens at
	std::vector<snapshot_base> bases;
	std::uint64_t pending() const;
};

enum class wheel_event_kind : std::uint8_t {
	placed,		// start or re-arm linked the timer into level/slot
	unchanged,	// a re-arm that changed no slot (mod_timer's shortcuts)
	deleted,	// del_timer detached it from level/slot
	cascaded,	// a cascade emptied level/slot, re-placing `count` timers
	moved,		// ... and this timer landed in level/slot
	expired,	// it ran in `jiffy`, from level/slot
};

const char *wheel_event_name(wheel_event_kind k);

// What a view could not see: the scheme layer reports levels, not slots
// nor bucket expiries (sim/lab/scheme_view.h).
constexpr unsigned unknown_slot = ~0u;
constexpr std::uint64_t unknown_value = ~std::uint64_t{0};	// "placed", "moved", ...

struct wheel_event {
	wheel_event_kind kind = wheel_event_kind::placed;
	std::string timer;		// empty for cascaded
	std::string base;		// the base it happened on (see snapshot_base::name)
	std::uint64_t jiffy = 0;	// the jiffy being processed, or now for a statement
	std::string level;		// "tv2", "LVL1"
	unsigned slot = 0;
	std::string from_level;		// moved: where the cascade took it from
	unsigned from_slot = 0;
	std::uint64_t expires = 0;	// the timer's expiry after the event
	std::uint64_t requested = 0;	// placed/unchanged: the expiry asked for
	std::uint64_t bucket_expiry = 0;	// placed (v48): when the bucket runs
	std::uint64_t clock = 0;	// placed/moved: timer_jiffies or clk it was placed against
	std::uint32_t count = 0;	// cascaded: timers re-placed
	bool rearm = false;		// placed: the timer was pending before
	// placed: a re-arm into the slot it sat in, which the classic wheel
	// leaves where it is in the slot's list (its run order is re-sorted
	// when the slot is taken)
	bool stayed = false;
	std::string why;		// the reasoning, for --explain (lines, '\n'-separated)
};

}  // namespace timersim::lab
