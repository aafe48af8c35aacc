#include "sim/trace/binary_fields.h"

#include "sim/trace/binary_names.h"
#include "sim/trace/irq_events.h"
#include "sim/trace/nohz_events.h"

namespace timersim {

const char *const binary_slot_names[BS_COUNT] = {
	"timer", "hrtimer", "function", "expires", "now", "timeout", "bucket_expiry",
	"baseclk", "flags", "cpu", "idx", "is_idle",
	"softexpires", "clockid", "mode", "was_armed", "next_event", "deferred",
	"vec", "vector", "irq",
	"success", "dependency", "state", "cpu_id", "nextevt", "wakeup",
};
static_assert(BS_COUNT <= 32, "binary_slot_values::has holds a bit per slot");

bool binary_slot_read(event_kind kind, binary_slot k)
{
	if (kind == event_kind::other)
		return false;
	if (kind == event_kind::hrtimer)
		return k == BS_HRTIMER || k == BS_FUNCTION || k == BS_EXPIRES || k == BS_NOW ||
		       (k >= BS_SOFTEXPIRES && k <= BS_DEFERRED);
	if (is_cost_event(kind))
		return k >= BS_VEC && k <= BS_IRQ;
	if (kind == event_kind::tick_stop)
		return k == BS_SUCCESS || k == BS_DEPENDENCY;
	if (kind == event_kind::cpu_idle)
		return k == BS_STATE || k == BS_CPU_ID;
	if (kind == event_kind::tmigr)
		return k == BS_CPU || k == BS_NEXTEVT || k == BS_WAKEUP;
	return k < BS_SOFTEXPIRES;
}

binary_event_name binary_event_name::of(std::string_view name)
{
	binary_event_name n;
	n.hrtimer = hrtimer_event_of(name);
	n.tmigr = tmigr_event_of(name);
	irq_event_kind(name, n.timer_vector);
	return n;
}

std::string_view callback_names::name(std::uint64_t addr)
{
	// A callback's records come in runs (a tick's re-arms, a softirq's
	// expiries): the last one answered first.
	if (last_ && addr == last_addr_)
		return *last_;
	auto it = known_.find(addr);
	if (it == known_.end()) {
		if (prepare_) {
			auto p = std::move(prepare_);
			prepare_ = nullptr;
			p();
		}
		if (known_.size() >= 65536)
			known_.clear();		// a bound for garbage addresses
		std::string sym;
		for (const source &s : sources_)
			if (sym.empty())
				sym = s(addr);
		it = known_.emplace(addr, sym.empty() ? hex_address(addr) : std::move(sym)).first;
	}
	last_addr_ = addr;
	last_ = &it->second;	// a map's values stay put until it is cleared
	return *last_;
}

namespace {

// The hrtimer fields the text formats print as words (clockid=, mode=) are
// numbers here, as the kernel stored them.
void apply_hrtimer_slots(const binary_slot_values &s, trace_event &ev)
{
	std::uint64_t v;
	if (s.get(BS_SOFTEXPIRES, ev.softexpires))
		ev.has |= EF_SOFTEXPIRES;
	if (s.get(BS_CLOCKID, v)) {
		ev.clockid = static_cast<std::uint8_t>(v);	// its low byte, as trace_event keeps it
		ev.has |= EF_CLOCKID;
	}
	if (s.get(BS_MODE, v)) {
		ev.hrtimer_mode = static_cast<std::uint8_t>(v);
		ev.has |= EF_HRTIMER_MODE;
	}
	if (s.get(BS_WAS_ARMED, v)) {
		ev.was_armed = v != 0;
		ev.has |= EF_WAS_ARMED;
	}
	s.get(BS_NEXT_EVENT, ev.expires);	// hrtimer_rearm: CLOCK_MONOTONIC ns
	if (s.get(BS_DEFERRED, v)) {		// ... and whether on the way out
		ev.deferred = v != 0;
		ev.has |= EF_WAS_ARMED;
	}
}

void apply_irq_slots(const binary_slot_values &s, trace_event &ev)
{
	std::uint64_t v;
	bool vector_timer = false;
	if (s.named)
		vector_timer = s.named->timer_vector;
	else
		irq_event_kind(ev.name, vector_timer);
	if (s.get(BS_VEC, v) || s.get(BS_VECTOR, v)) {
		ev.vec = static_cast<std::uint32_t>(v);
		ev.has |= EF_VEC;
		ev.timer_interrupt = vector_timer;
	} else if (s.get(BS_IRQ, v)) {
		ev.vec = static_cast<std::uint32_t>(v);
		ev.has |= EF_VEC | EF_IRQ;
		ev.timer_interrupt = ev.kind == event_kind::irq_entry && s.timer_irq_name;
	}
}

// The NOHZ idle events' fields, as the kernel stored them (tick_stop's
// dependency is the TICK_DEP_MASK_* word the text prints by name).
void apply_nohz_slots(const binary_slot_values &s, trace_event &ev)
{
	std::uint64_t v;
	if (ev.kind == event_kind::tick_stop) {
		s.get(BS_SUCCESS, ev.stop_success);
		if (s.get(BS_DEPENDENCY, v))
			ev.dependency = static_cast<std::uint32_t>(v);
		return;
	}
	if (ev.kind == event_kind::cpu_idle) {
		if (s.get(BS_STATE, v))
			ev.idle_state = v & 0xffffffffu;	// u32: (u32)-1 leaves idle
		if (s.get(BS_CPU_ID, v))
			ev.cpu_id = static_cast<std::uint32_t>(v);
		return;
	}
	ev.tmigr = s.named ? s.named->tmigr : tmigr_event_of(ev.name);
	if (s.get(BS_CPU, v))
		ev.cpu_id = static_cast<std::uint32_t>(v);
	s.get(BS_NEXTEVT, ev.nextevt);
	s.get(BS_WAKEUP, ev.wakeup);
}

}  // namespace

void apply_binary_slots(const binary_slot_values &s, unsigned release, callback_names &names,
			trace_event &ev)
{
	std::uint64_t v;
	if (s.get(BS_TIMER, ev.timer) || s.get(BS_HRTIMER, ev.timer))
		ev.timer_digits = static_cast<std::uint8_t>(s.timer_bits / 4);
	if (s.get(BS_FUNCTION, v))
		ev.function = names.name(v);
	// expires and now share their place in trace_event, as timeout and
	// baseclk do: each event keeps those of its kind. A timer_start's
	// now (the jiffies at the call) becomes its timeout.
	std::uint64_t expires = 0, now = 0;
	const bool has_expires = s.get(BS_EXPIRES, expires), has_now = s.get(BS_NOW, now);
	if (ev.kind == event_kind::hrtimer)
		ev.hrtimer = s.named ? s.named->hrtimer : hrtimer_event_of(ev.name);
	const bool expiry = ev.kind == event_kind::timer_expire_entry ||
			    (ev.kind == event_kind::hrtimer && ev.hrtimer == hrtimer_event::expire_entry);
	if (expiry && has_now)
		ev.now = now;
	else if (!expiry && has_expires)
		ev.expires = expires;
	if (ev.kind == event_kind::timer_start) {
		if (s.get(BS_TIMEOUT, v)) {
			ev.timeout = static_cast<std::int64_t>(v);
			ev.has |= EF_TIMEOUT;
		} else if (has_expires && has_now) {
			// The kernel prints [timeout=%ld] as expires - now; the
			// binary formats record the two.
			ev.timeout = static_cast<std::int64_t>(expires - now);
			ev.has |= EF_TIMEOUT;
		}
	}
	if (s.get(BS_BUCKET_EXPIRY, ev.bucket_expiry))
		ev.has |= EF_BUCKET_EXPIRY;
	if (ev.kind == event_kind::timer_expire_entry && s.get(BS_BASECLK, ev.baseclk))
		ev.has |= EF_BASECLK;
	if (s.get(BS_FLAGS, v)) {
		// timer->flags also holds the base CPU (and, 4.8+, the wheel
		// index); the text formats print them as cpu= and idx= (4.11+).
		timer_flag_word w = decode_timer_flags(static_cast<std::uint32_t>(v), release);
		ev.flags = w.flags;
		ev.has |= EF_FLAGS;
		if (ev.kind == event_kind::timer_start && (!release || release >= 411)) {
			ev.target_cpu = w.cpu;
			ev.has |= EF_TARGET_CPU;
			if (w.has_idx) {
				ev.idx = w.idx;
				ev.has |= EF_IDX;
			}
		}
	}
	if (is_timer_event(ev.kind) && s.get(BS_CPU, v)) {	// vec's place in the others
		ev.target_cpu = static_cast<std::uint32_t>(v);
		ev.has |= EF_TARGET_CPU;
	}
	if (s.get(BS_IDX, v)) {
		ev.idx = static_cast<std::uint32_t>(v);
		ev.has |= EF_IDX;
	}
	if (s.get(BS_IS_IDLE, v))
		ev.is_idle = v != 0;
	if (ev.kind == event_kind::hrtimer)
		apply_hrtimer_slots(s, ev);
	else if (is_cost_event(ev.kind))
		apply_irq_slots(s, ev);
	else if (is_nohz_event(ev.kind))
		apply_nohz_slots(s, ev);
}

}  // namespace timersim
