// The payload fields of LTTng's timer events, mapped onto a trace_event:
// one definition for our CTF reader and for the libbabeltrace reference
// reader the tests hold it against.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include "sim/trace/event.h"
#include "sim/trace/symbols.h"

namespace timersim {

// The payload fields we read, by their names in the metadata (without the
// leading underscore LTTng puts on them).
enum ctf_slot {
	CS_TIMER, CS_HRTIMER, CS_FUNCTION, CS_EXPIRES, CS_NOW, CS_TIMEOUT, CS_BUCKET_EXPIRY,
	CS_BASECLK, CS_FLAGS, CS_CPU, CS_IS_IDLE, CS_COUNT
};
extern const char *const ctf_slot_names[CS_COUNT];

// One event's slot values: HAS bit k set when slot k is an integer field of
// the event, VALUE[k] its value (sign-extended for signed fields).
struct ctf_slot_values {
	std::uint32_t has = 0;
	std::uint64_t value[CS_COUNT] = {};
	unsigned timer_bits = 0;	// size of the timer (or hrtimer) field
	bool get(ctf_slot k, std::uint64_t &out) const
	{
		out = value[k];
		return has >> k & 1;
	}
};

// Callback names by address: the symbol, else "0x..." (hex_address). A
// trace has few distinct callbacks and names each thousands of times, so
// names are kept (up to a bound) instead of looked up and printed anew.
class callback_names {
public:
	explicit callback_names(const symbol_table &symbols) : symbols_(symbols) {}
	// Valid until the next call.
	std::string_view name(std::uint64_t addr);

private:
	const symbol_table &symbols_;
	std::unordered_map<std::uint64_t, std::string> known_;
};

// Fills EV's timer fields (EV's kind already set) from V. RELEASE is the
// recording kernel (kernel_release(), 0 unknown); callbacks are named by
// NAMES, and EV.function is valid until its next call.
void apply_ctf_slots(const ctf_slot_values &v, unsigned release, callback_names &names,
		     trace_event &ev);

}  // namespace timersim
