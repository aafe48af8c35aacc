// The payload fields of the kernel's timer events, mapped onto a
// trace_event: one definition for the binary readers (our CTF and trace.dat
// readers, and the libbabeltrace and libtracecmd readers the tests hold
// them against).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "sim/trace/event.h"
#include "sim/trace/symbols.h"

namespace timersim {

// The payload fields we read, by name (CTF's leading underscore dropped).
enum binary_slot {
	BS_TIMER, BS_HRTIMER, BS_FUNCTION, BS_EXPIRES, BS_NOW, BS_TIMEOUT, BS_BUCKET_EXPIRY,
	BS_BASECLK, BS_FLAGS, BS_CPU, BS_IDX, BS_IS_IDLE,
	// hrtimer_*: softexpires, clockid, mode, was_armed; hrtimer_rearm's next_event
	BS_SOFTEXPIRES, BS_CLOCKID, BS_MODE, BS_WAS_ARMED, BS_NEXT_EVENT, BS_DEFERRED,
	// softirq_* vec, the x86 vectors' vector, irq_handler_* irq
	BS_VEC, BS_VECTOR, BS_IRQ,
	// tick_stop success, dependency; cpu_idle state, cpu_id; tmigr_* nextevt,
	// wakeup (and cpu, above)
	BS_SUCCESS, BS_DEPENDENCY, BS_STATE, BS_CPU_ID, BS_NEXTEVT, BS_WAKEUP,
	BS_COUNT
};
extern const char *const binary_slot_names[BS_COUNT];

// Whether events of KIND carry slot K at all: the timer events theirs, the
// hrtimer events theirs (their "mode" is not a timer's "flags"), the
// softirq and interrupt events their number; "other" events are not
// decoded.
bool binary_slot_read(event_kind kind, binary_slot k);

// What an event's name says that apply_binary_slots() needs, worked out
// once per event class (a reader keeps it with the class) instead of from
// the name at every record: string comparisons per record are a cost the
// reading thread need not pay.
struct binary_event_name {
	hrtimer_event hrtimer = hrtimer_event::none;	// hrtimer_event_of(name)
	tmigr_event tmigr = tmigr_event::none;		// tmigr_event_of(name)
	bool timer_vector = false;	// an x86 timer-interrupt vector's event (irq_event_kind)
	static binary_event_name of(std::string_view name);
};

// One event's slot values: HAS bit k set when slot k is an integer field of
// the event, VALUE[k] its value (unset values are not read: not zeroed).
struct binary_slot_values {
	std::uint32_t has = 0;
	unsigned timer_bits = 0;	// size of the timer (or hrtimer) field
	// The event class's name facts; null: worked out from the event's name.
	const binary_event_name *named = nullptr;
	// irq_handler_entry: its name= is a hardware timer's (is_timer_irq_name;
	// the reader looks at the string, which is not a slot).
	bool timer_irq_name = false;
	std::uint64_t value[BS_COUNT];
	void set(binary_slot k, std::uint64_t v)
	{
		has |= 1u << k;
		value[k] = v;
	}
	// OUT is left alone when the slot is unset.
	bool get(binary_slot k, std::uint64_t &out) const
	{
		if (!(has >> k & 1))
			return false;
		out = value[k];
		return true;
	}
};

// Callback names by address: the first source that names it (a symbol at
// or below it), else "0x..." (hex_address). A trace has few distinct
// callbacks and names each thousands of times, so names are kept (up to a
// bound) instead of looked up and printed anew. PREPARE, when set, runs
// once before the first look-up (a trace.dat reads its kallsyms only then).
class callback_names {
public:
	// A look-up: the name, or empty.
	using source = std::function<std::string(std::uint64_t)>;
	// A symbol file's: sym+0xoff inside a symbol, counted in t.fit().
	static source of(const symbol_table &t)
	{
		return [&t](std::uint64_t addr) { return t.callback_name(addr); };
	}

	explicit callback_names(std::vector<source> sources, std::function<void()> prepare = {})
		: sources_(std::move(sources)), prepare_(std::move(prepare))
	{
	}
	// Valid until the next call.
	std::string_view name(std::uint64_t addr);

private:
	std::vector<source> sources_;
	std::function<void()> prepare_;
	std::unordered_map<std::uint64_t, std::string> known_;
	std::uint64_t last_addr_ = 0;
	const std::string *last_ = nullptr;	// known_'s name of last_addr_
};

// Fills EV's fields (EV's kind and name already set) from V. RELEASE is the
// recording kernel (kernel_release(), 0 unknown): timer_start hands on the
// base CPU and wheel index held in its flags from 4.11 on, as the text
// formats print them. Callbacks are named by NAMES; EV.function is valid
// until its next call.
void apply_binary_slots(const binary_slot_values &v, unsigned release, callback_names &names,
			trace_event &ev);

}  // namespace timersim
