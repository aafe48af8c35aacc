#include "sim/trace/ctf_fields.h"

#include "sim/trace/binary_names.h"

namespace timersim {

const char *const ctf_slot_names[CS_COUNT] = {
	"timer", "hrtimer", "function", "expires", "now", "timeout", "bucket_expiry",
	"baseclk", "flags", "cpu", "is_idle",
};

std::string_view callback_names::name(std::uint64_t addr)
{
	auto it = known_.find(addr);
	if (it != known_.end())
		return it->second;
	if (known_.size() >= 65536)
		known_.clear();		// a bound for garbage addresses
	std::string_view sym = symbols_.lookup(addr);
	return known_.emplace(addr, sym.empty() ? hex_address(addr) : std::string(sym))
		.first->second;
}

void apply_ctf_slots(const ctf_slot_values &s, unsigned release, callback_names &names,
		     trace_event &ev)
{
	std::uint64_t v;
	if (s.get(CS_TIMER, ev.timer) || s.get(CS_HRTIMER, ev.timer))
		ev.timer_digits = static_cast<std::uint8_t>(s.timer_bits / 4);
	if (s.get(CS_FUNCTION, v))
		ev.function = names.name(v);
	bool expires = s.get(CS_EXPIRES, ev.expires);
	bool now = s.get(CS_NOW, ev.now);
	if (s.get(CS_TIMEOUT, v)) {
		ev.timeout = static_cast<std::int64_t>(v);
		ev.has |= EF_TIMEOUT;
	} else if (ev.kind == event_kind::timer_start && expires && now) {
		// The kernel prints [timeout=%ld] as expires - now; LTTng
		// records the two.
		ev.timeout = static_cast<std::int64_t>(ev.expires - ev.now);
		ev.has |= EF_TIMEOUT;
	}
	if (s.get(CS_BUCKET_EXPIRY, ev.bucket_expiry))
		ev.has |= EF_BUCKET_EXPIRY;
	if (s.get(CS_BASECLK, ev.baseclk))
		ev.has |= EF_BASECLK;
	if (ev.kind != event_kind::hrtimer && s.get(CS_FLAGS, v)) {
		timer_flag_word w = decode_timer_flags(static_cast<std::uint32_t>(v), release);
		ev.flags = w.flags;
		ev.has |= EF_FLAGS;
		if (ev.kind == event_kind::timer_start && (!release || release >= 411)) {
			ev.target_cpu = w.cpu;
			ev.idx = w.idx;
			ev.has |= EF_TARGET_CPU;
			if (w.has_idx)
				ev.has |= EF_IDX;
		}
	}
	if (s.get(CS_CPU, v)) {
		ev.target_cpu = static_cast<std::uint32_t>(v);
		ev.has |= EF_TARGET_CPU;
	}
	if (s.get(CS_IS_IDLE, v))
		ev.is_idle = v != 0;
}

}  // namespace timersim
