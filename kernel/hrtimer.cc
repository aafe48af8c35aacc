// The hrtimer subsystem's rules (see kernel/hrtimer.h), in the order
// kernel/time/hrtimer.c has them: the next event over the bases, the
// reprogramming, enqueue and removal, start and cancel, running timers.
#include "kernel/hrtimer.h"

namespace kernel::hr {

namespace {

hrtimer *timer_of(timerqueue_node *node)
{
	return node ? reinterpret_cast<hrtimer *>(reinterpret_cast<char *>(node) - offsetof(hrtimer, node))
		    : nullptr;
}

// ktime_add_safe(): an overflow saturates (at KTIME_SEC_MAX whole seconds).
ktime_t ktime_add_safe(ktime_t lhs, ktime_t rhs)
{
	ktime_t res;
	if (__builtin_add_overflow(lhs, rhs, &res) || res < 0)
		return (KTIME_MAX / NSEC_PER_SEC) * NSEC_PER_SEC;
	return res;
}

// This clock minus CLOCK_MONOTONIC, as timekeeping has it now.
ktime_t machine_offset(const hrtimer_machine *m, unsigned index)
{
	switch (index % HRTIMER_BASE_MONOTONIC_SOFT) {
	case HRTIMER_BASE_REALTIME: return m->offs_real;
	case HRTIMER_BASE_BOOTTIME: return m->offs_boot;
	case HRTIMER_BASE_TAI: return m->offs_tai;
	default: return 0;
	}
}

// hrtimer_update_base(): the bases take timekeeping's offsets; returns now.
ktime_t hrtimer_update_base(hrtimer_cpu_base *cpu_base)
{
	for (unsigned i = 0; i < HRTIMER_MAX_CLOCK_BASES; i++)
		cpu_base->clock_base[i].offset = machine_offset(cpu_base->machine, i);
	return cpu_base->machine->now;
}

// tick_program_event() and clockevents_program_event(): 0 when the device
// is set (or stopped, for KTIME_MAX), -1 (-ETIME) when the expiry has passed
// and the caller did not force it.
int tick_program_event(hrtimer_cpu_base *cpu_base, ktime_t expires, bool force)
{
	clock_event_device &dev = cpu_base->dev;
	const ktime_t now = cpu_base->machine->now;

	if (expires == KTIME_MAX) {
		dev.stopped = true;
		dev.next_event = KTIME_MAX;
		dev.fires_at = KTIME_MAX;
		dev.stops++;
		return 0;
	}
	dev.stopped = false;
	dev.next_event = expires;
	ktime_t delta = expires - now;
	if (delta <= 0) {
		if (!force) {
			dev.refused++;
			return -1;
		}
		// clockevents_program_min_delta()
		dev.next_event = now + dev.min_delta_ns;
		dev.fires_at = dev.next_event;
		dev.programs++;
		dev.min_delta_programs++;
		return 0;
	}
	if (delta > dev.max_delta_ns)
		delta = dev.max_delta_ns;
	if (delta < dev.min_delta_ns)
		delta = dev.min_delta_ns;
	dev.fires_at = now + delta;
	dev.programs++;
	return 0;
}

// __hrtimer_next_event_base(): the first expiry over the `active` bases, in
// CLOCK_MONOTONIC, below `expires_next`; *first gets its timer.
ktime_t next_event_base(const hrtimer_cpu_base *cpu_base, unsigned active, ktime_t expires_next,
			hrtimer **first, std::uint64_t *scanned)
{
	for (unsigned i = 0; i < cpu_base->nr_bases; i++) {
		const unsigned idx = cpu_base->order[i];
		if (!(active & (1u << idx)))
			continue;
		const hrtimer_clock_base *base = &cpu_base->clock_base[idx];
		hrtimer *timer = timer_of(timerqueue_getnext(&base->active));
		(*scanned)++;
		if (!timer)
			continue;
		const ktime_t expires = hrtimer_get_expires(timer) - base->offset;
		if (expires < expires_next) {
			expires_next = expires;
			*first = timer;
		}
	}
	// A clock set back may leave a negative expiry.
	return expires_next < 0 ? 0 : expires_next;
}

// __hrtimer_get_next_event(): also recomputes next_timer (HARD in the mask)
// and softirq_next_timer (SOFT), but not expires_next: only reprogramming
// and the interrupt set that.
ktime_t __hrtimer_get_next_event(hrtimer_cpu_base *cpu_base, unsigned active_mask)
{
	hrtimer *next_timer = nullptr;
	ktime_t expires_next = KTIME_MAX;

	if (!cpu_base->softirq_activated && (active_mask & HRTIMER_ACTIVE_SOFT)) {
		hrtimer *soft = nullptr;
		expires_next = next_event_base(cpu_base, cpu_base->active_bases & HRTIMER_ACTIVE_SOFT, KTIME_MAX,
					       &soft, &cpu_base->costs.bases_scanned);
		cpu_base->softirq_next_timer = soft;
		next_timer = soft;
	}
	if (active_mask & HRTIMER_ACTIVE_HARD) {
		// A hard timer strictly earlier than the soft one takes next_timer.
		hrtimer *hard = nullptr;
		expires_next = next_event_base(cpu_base, cpu_base->active_bases & HRTIMER_ACTIVE_HARD,
					       expires_next, &hard, &cpu_base->costs.bases_scanned);
		cpu_base->next_timer = hard ? hard : next_timer;
	}
	return expires_next;
}

// hrtimer_update_next_event(): the first expiry the device must see, the
// soft bases included unless their softirq is raised already.
ktime_t hrtimer_update_next_event(hrtimer_cpu_base *cpu_base)
{
	ktime_t soft = KTIME_MAX;

	if (!cpu_base->softirq_activated) {
		soft = __hrtimer_get_next_event(cpu_base, HRTIMER_ACTIVE_SOFT);
		cpu_base->softirq_expires_next = soft;
	}
	ktime_t expires_next = __hrtimer_get_next_event(cpu_base, HRTIMER_ACTIVE_HARD);
	// A soft timer first: program the device for it.
	if (expires_next > soft) {
		cpu_base->next_timer = cpu_base->softirq_next_timer;
		expires_next = soft;
	}
	return expires_next;
}

// __hrtimer_reprogram(): expires_next is set whatever happens; the device
// only in high resolution mode and not while a hang is sat out (else a
// later timer's programming would undo the hang's delay).
void __hrtimer_reprogram(hrtimer_cpu_base *cpu_base, ktime_t expires_next)
{
	cpu_base->costs.reprograms++;
	cpu_base->expires_next = expires_next;
	if (!cpu_base->hres_active) {
		cpu_base->costs.skips[SKIP_LOWRES]++;
		return;
	}
	if (cpu_base->hang_detected) {
		cpu_base->costs.skips[SKIP_HANG]++;
		return;
	}
	tick_program_event(cpu_base, expires_next, true);
}

void hrtimer_force_reprogram(hrtimer_cpu_base *cpu_base, bool skip_equal)
{
	cpu_base->costs.force_reprograms++;
	const ktime_t expires_next = hrtimer_update_next_event(cpu_base);
	if (skip_equal && expires_next == cpu_base->expires_next) {
		cpu_base->costs.skips[SKIP_EQUAL]++;
		return;
	}
	__hrtimer_reprogram(cpu_base, expires_next);
}

// hrtimer_reprogram(): `timer` was just queued as the first of its base.
void hrtimer_reprogram(hrtimer_cpu_base *this_cpu, hrtimer *timer)
{
	hrtimer_clock_base *base = timer->base;
	hrtimer_cpu_base *cpu_base = base->cpu_base;
	ktime_t expires = hrtimer_get_expires(timer) - base->offset;

	// A REALTIME expiry before the epoch offset.
	if (expires < 0)
		expires = 0;
	if (timer->is_soft) {
		// The soft expiry of the timer's own CPU, remote or not.
		if (cpu_base->softirq_activated) {
			this_cpu->costs.skips[SKIP_SOFTIRQ_ACTIVATED]++;
			return;
		}
		if (!(expires < cpu_base->softirq_expires_next)) {
			this_cpu->costs.skips[SKIP_NOT_EARLIER]++;
			return;
		}
		cpu_base->softirq_next_timer = timer;
		cpu_base->softirq_expires_next = expires;
		if (!(expires < cpu_base->expires_next)) {
			this_cpu->costs.skips[SKIP_NOT_EARLIER]++;
			return;
		}
	}
	if (cpu_base != this_cpu) {
		this_cpu->costs.skips[SKIP_REMOTE]++;
		return;
	}
	if (expires >= cpu_base->expires_next) {
		cpu_base->costs.skips[SKIP_NOT_EARLIER]++;
		return;
	}
	if (cpu_base->in_hrtirq) {
		cpu_base->costs.skips[SKIP_IN_HRTIRQ]++;
		return;
	}
	cpu_base->next_timer = timer;
	__hrtimer_reprogram(cpu_base, expires);
}

// enqueue_hrtimer(): true when the timer is the first of its base.
bool enqueue_hrtimer(hrtimer *timer, hrtimer_clock_base *base)
{
	base->cpu_base->active_bases |= 1u << base->index;
	base->cpu_base->costs.enqueues++;
	timer->base = base;
	timer->state = HRTIMER_STATE_ENQUEUED;
	return timerqueue_add(&base->active, &timer->node);
}

void __remove_hrtimer(hrtimer *timer, hrtimer_clock_base *base, std::uint8_t newstate, bool reprogram)
{
	hrtimer_cpu_base *cpu_base = base->cpu_base;
	const std::uint8_t state = timer->state;

	timer->state = newstate;
	if (!(state & HRTIMER_STATE_ENQUEUED))
		return;
	if (!timerqueue_del(&base->active, &timer->node))
		cpu_base->active_bases &= ~(1u << base->index);
	// Only the timer the device waits for forces a re-evaluation; any
	// other leaves the device as it is (a removal on another CPU too:
	// that CPU's interrupt will find nothing and re-evaluate).
	if (!reprogram || timer != cpu_base->next_timer)
		return;
	// 7.1: the HRTICK's removal leaves the device armed early; while a
	// deferred rearm is pending the rearm re-evaluates instead.
	if (cpu_base->rearm_deferred && timer->is_lazy) {
		cpu_base->costs.skips[SKIP_LAZY]++;
		return;
	}
	if (cpu_base->rearm_deferred && cpu_base->deferred_rearm) {
		cpu_base->deferred_needs_update = true;
		cpu_base->costs.skips[SKIP_DEFERRED]++;
		return;
	}
	hrtimer_force_reprogram(cpu_base, true);
}

// remove_hrtimer(): `restart`: it is re-queued at once, so it stays
// ENQUEUED; `keep_local`: and the caller reprograms after the enqueue.
bool remove_hrtimer(hrtimer_cpu_base *this_cpu, hrtimer *timer, hrtimer_clock_base *base, bool restart,
		    bool keep_local)
{
	std::uint8_t state = timer->state;

	if (!(state & HRTIMER_STATE_ENQUEUED))
		return false;
	bool reprogram = base->cpu_base == this_cpu;
	if (!restart)
		state = HRTIMER_STATE_INACTIVE;
	else
		reprogram &= !keep_local;
	base->cpu_base->costs.removals++;
	__remove_hrtimer(timer, base, state, reprogram);
	return true;
}

// hrtimer_suitable_target(): this CPU always; another only when the timer
// would not be its first (its device cannot be programmed from here).
bool hrtimer_suitable_target(const hrtimer *timer, const hrtimer_clock_base *new_base,
			     const hrtimer_cpu_base *new_cpu_base, const hrtimer_cpu_base *this_cpu)
{
	if (new_cpu_base == this_cpu)
		return true;
	const ktime_t expires = hrtimer_get_expires(timer) - new_base->offset;
	return expires >= new_cpu_base->expires_next;
}

hrtimer_clock_base *switch_hrtimer_base(hrtimer_cpu_base *this_cpu, hrtimer *timer, hrtimer_clock_base *base,
					hrtimer_cpu_base *target)
{
	hrtimer_cpu_base *new_cpu_base = target ? target : this_cpu;

	for (;;) {
		hrtimer_clock_base *new_base = &new_cpu_base->clock_base[base->index];
		if (base != new_base && hrtimer_callback_running(timer))
			return base;	// its callback may still touch it there
		if (hrtimer_suitable_target(timer, new_base, new_cpu_base, this_cpu))
			return new_base;
		new_cpu_base = this_cpu;
	}
}

// __hrtimer_start_range_ns(): true when the caller must hrtimer_reprogram().
bool __hrtimer_start_range_ns(hrtimer_cpu_base *this_cpu, hrtimer *timer, ktime_t tim, ktime_t delta_ns,
			      unsigned mode, hrtimer_clock_base *base, hrtimer_cpu_base *target)
{
	// This CPU's next_timer re-armed: no reprogram at the removal, one
	// forced after the enqueue, and it stays here.
	const bool force_local = base->cpu_base == this_cpu && base->cpu_base->next_timer == timer;

	remove_hrtimer(this_cpu, timer, base, true, force_local);
	if (mode & HRTIMER_MODE_REL)
		tim = ktime_add_safe(tim, hrtimer_cb_get_time(timer));
	timer->softexpires = tim;
	timer->node.expires = ktime_add_safe(tim, delta_ns);

	hrtimer_clock_base *new_base = base;
	if (!force_local)
		new_base = switch_hrtimer_base(this_cpu, timer, base,
					       (mode & HRTIMER_MODE_PINNED) ? nullptr : target);
	const bool first = enqueue_hrtimer(timer, new_base);
	hrtimer_cpu_base *cpu_base = new_base->cpu_base;
	if (cpu_base->rearm_deferred && cpu_base->deferred_rearm) {
		// 7.1: the pending rearm will see it.
		cpu_base->deferred_needs_update = true;
		cpu_base->costs.skips[SKIP_DEFERRED]++;
		return false;
	}
	if (!force_local)
		return first;
	// 7.1: the HRTICK moved later than the device is armed for: keep
	// the earlier (pointless) interrupt rather than write the device.
	if (cpu_base->rearm_deferred && timer->is_lazy && cpu_base->expires_next <= hrtimer_get_expires(timer)) {
		cpu_base->costs.skips[SKIP_LAZY]++;
		return false;
	}
	hrtimer_force_reprogram(cpu_base, true);
	return false;
}

void __run_hrtimer(hrtimer_cpu_base *cpu_base, hrtimer_clock_base *base, hrtimer *timer)
{
	base->running = timer;
	__remove_hrtimer(timer, base, HRTIMER_STATE_INACTIVE, false);
	if (timer->is_soft)
		cpu_base->costs.expiries_soft++;
	else
		cpu_base->costs.expiries_hard++;

	const hrtimer_restart restart = timer->function ? timer->function(timer, timer->context) : HRTIMER_NORESTART;

	// The callback may have re-armed it itself (hrtimer_start from within).
	if (restart != HRTIMER_NORESTART && !(timer->state & HRTIMER_STATE_ENQUEUED)) {
		cpu_base->costs.restarts++;
		enqueue_hrtimer(timer, base);
	}
	base->running = nullptr;
}

// __hrtimer_run_queues(): base by base, from the left of each tree, every
// timer whose softexpires has passed; the first that has not stops its
// base (timers behind it wait for the interrupt it will cause).
void __hrtimer_run_queues(hrtimer_cpu_base *cpu_base, ktime_t now, unsigned active_mask)
{
	const unsigned active = cpu_base->active_bases & active_mask;

	for (unsigned i = 0; i < cpu_base->nr_bases; i++) {
		const unsigned idx = cpu_base->order[i];
		if (!(active & (1u << idx)))
			continue;
		hrtimer_clock_base *base = &cpu_base->clock_base[idx];
		const ktime_t basenow = now + base->offset;
		hrtimer *timer;
		while ((timer = timer_of(timerqueue_getnext(&base->active)))) {
			if (basenow < hrtimer_get_softexpires(timer))
				break;
			__run_hrtimer(cpu_base, base, timer);
		}
	}
}

void raise_softirq_if_due(hrtimer_cpu_base *cpu_base, ktime_t now)
{
	if (now < cpu_base->softirq_expires_next)
		return;
	cpu_base->softirq_expires_next = KTIME_MAX;
	cpu_base->softirq_activated = true;
	cpu_base->softirq_pending = true;
	cpu_base->costs.softirqs_raised++;
}

}  // namespace

void hrtimer_cpu_base_init(hrtimer_cpu_base *cpu_base, hrtimer_machine *machine, unsigned cpu,
			   hrtimer_generation generation, bool hres, const clock_event_device &dev)
{
	static constexpr int clockids[4] = {HR_CLOCK_MONOTONIC, HR_CLOCK_REALTIME, HR_CLOCK_BOOTTIME, HR_CLOCK_TAI};

	cpu_base->machine = machine;
	cpu_base->cpu = cpu;
	cpu_base->generation = generation;
	cpu_base->active_bases = 0;
	cpu_base->hres_active = hres;
	cpu_base->in_hrtirq = false;
	cpu_base->rearm_deferred = false;
	cpu_base->deferred_rearm = false;
	cpu_base->deferred_needs_update = false;
	cpu_base->deferred_expires_next = KTIME_MAX;
	cpu_base->hang_detected = false;
	cpu_base->softirq_activated = false;
	cpu_base->softirq_pending = false;
	cpu_base->nr_events = cpu_base->nr_retries = cpu_base->nr_hangs = 0;
	cpu_base->max_hang_time = 0;
	cpu_base->expires_next = KTIME_MAX;
	cpu_base->next_timer = nullptr;
	cpu_base->softirq_expires_next = KTIME_MAX;
	cpu_base->softirq_next_timer = nullptr;
	for (unsigned i = 0; i < HRTIMER_MAX_CLOCK_BASES; i++) {
		hrtimer_clock_base *base = &cpu_base->clock_base[i];
		base->cpu_base = cpu_base;
		base->index = i;
		base->clockid = clockids[i % 4];
		base->running = nullptr;
		timerqueue_init_head(&base->active);
	}
	switch (generation) {
	case hrtimer_generation::two_bases:
		cpu_base->order[0] = HRTIMER_BASE_REALTIME;
		cpu_base->order[1] = HRTIMER_BASE_MONOTONIC;
		cpu_base->nr_bases = 2;
		break;
	case hrtimer_generation::four_bases:
		cpu_base->nr_bases = 4;
		for (unsigned i = 0; i < 4; i++)
			cpu_base->order[i] = static_cast<unsigned char>(i);
		break;
	case hrtimer_generation::soft_bases:
		cpu_base->nr_bases = HRTIMER_MAX_CLOCK_BASES;
		for (unsigned i = 0; i < HRTIMER_MAX_CLOCK_BASES; i++)
			cpu_base->order[i] = static_cast<unsigned char>(i);
		break;
	}
	cpu_base->dev = clock_event_device{};
	cpu_base->dev.min_delta_ns = dev.min_delta_ns;
	cpu_base->dev.max_delta_ns = dev.max_delta_ns;
	cpu_base->costs = hrtimer_costs{};
	hrtimer_update_base(cpu_base);
}

bool hrtimer_setup(hrtimer *timer, hrtimer_fn function, void *context, int clockid, unsigned mode,
		   hrtimer_cpu_base *this_cpu)
{
	bool known = true, soft = mode & HRTIMER_MODE_SOFT;
	const hrtimer_generation gen = this_cpu->generation;
	unsigned type;

	if (clockid == HR_CLOCK_REALTIME && (mode & HRTIMER_MODE_REL))
		clockid = HR_CLOCK_MONOTONIC;
	switch (clockid) {
	case HR_CLOCK_REALTIME: type = HRTIMER_BASE_REALTIME; break;
	case HR_CLOCK_MONOTONIC: type = HRTIMER_BASE_MONOTONIC; break;
	case HR_CLOCK_BOOTTIME: type = HRTIMER_BASE_BOOTTIME; break;
	case HR_CLOCK_TAI: type = HRTIMER_BASE_TAI; break;
	default: type = HRTIMER_BASE_MONOTONIC; known = false; break;
	}
	if (gen == hrtimer_generation::two_bases && type > HRTIMER_BASE_REALTIME) {
		type = HRTIMER_BASE_MONOTONIC;
		known = false;
	}
	if (soft && gen != hrtimer_generation::soft_bases) {
		soft = false;
		known = false;
	}
	timerqueue_init(&timer->node);
	timer->node.expires = 0;
	timer->softexpires = 0;
	timer->base = &this_cpu->clock_base[type + (soft ? unsigned{HRTIMER_BASE_MONOTONIC_SOFT} : 0u)];
	timer->function = function;
	timer->context = context;
	timer->state = HRTIMER_STATE_INACTIVE;
	timer->is_soft = soft;
	timer->is_hard = mode & HRTIMER_MODE_HARD;
	timer->is_lazy = mode & HRTIMER_MODE_LAZY_REARM;
	return known;
}

ktime_t hrtimer_cb_get_time(const hrtimer *timer)
{
	const hrtimer_machine *m = timer->base->cpu_base->machine;
	return m->now + machine_offset(m, timer->base->index);
}

void hrtimer_start_range_ns(hrtimer_cpu_base *this_cpu, hrtimer *timer, ktime_t tim, ktime_t delta_ns,
			    unsigned mode, hrtimer_cpu_base *target)
{
	if (__hrtimer_start_range_ns(this_cpu, timer, tim, delta_ns, mode, timer->base, target))
		hrtimer_reprogram(this_cpu, timer);
}

int hrtimer_try_to_cancel(hrtimer_cpu_base *this_cpu, hrtimer *timer)
{
	if (!hrtimer_active(timer))
		return 0;
	if (hrtimer_callback_running(timer))
		return -1;
	return remove_hrtimer(this_cpu, timer, timer->base, false, false) ? 1 : 0;
}

std::uint64_t hrtimer_forward(hrtimer *timer, ktime_t now, ktime_t interval)
{
	const ktime_t delta = now - hrtimer_get_expires(timer);
	std::uint64_t orun = 1;

	if (delta < 0 || hrtimer_is_queued(timer))
		return 0;
	const ktime_t resolution = timer->base->cpu_base->machine->resolution;
	if (interval < resolution)
		interval = resolution;
	if (delta >= interval) {
		const ktime_t n = delta / interval;
		orun = static_cast<std::uint64_t>(n);
		timer->node.expires = ktime_add_safe(timer->node.expires, n * interval);
		timer->softexpires = ktime_add_safe(timer->softexpires, n * interval);
		if (hrtimer_get_expires(timer) > now)
			return orun;
		orun++;
	}
	timer->node.expires = ktime_add_safe(timer->node.expires, interval);
	timer->softexpires = ktime_add_safe(timer->softexpires, interval);
	return orun;
}

namespace {

// 7.1's hrtimer_rearm(): the device programmed for EXPIRES_NEXT (a hang:
// min(100 ms, the longest interrupt) from now), always: the rearm has no
// skip_equal. hrtimer_rearm_event() traces hrtimer_rearm(next_event,
// deferred) before the write.
void hrtimer_rearm(hrtimer_cpu_base *cpu_base, ktime_t expires_next)
{
	cpu_base->expires_next = expires_next;
	cpu_base->deferred_rearm = false;
	cpu_base->in_hrtirq = false;
	if (cpu_base->hang_detected) {
		const ktime_t hold = cpu_base->max_hang_time < HANG_MAX_DELTA ? cpu_base->max_hang_time : HANG_MAX_DELTA;
		expires_next = cpu_base->machine->now + hold;
	}
	tick_program_event(cpu_base, expires_next, true);
}

// 7.1's hrtimer_interrupt(): no -ETIME retry; a retry when the next expiry
// passed while the callbacks ran, a hang after three; the rearm deferred.
void hrtimer_interrupt_deferred(hrtimer_cpu_base *cpu_base)
{
	int retries = 0;

	cpu_base->nr_events++;
	cpu_base->dev.next_event = KTIME_MAX;
	cpu_base->dev.fires_at = KTIME_MAX;
	const ktime_t entry_time = hrtimer_update_base(cpu_base);
	ktime_t now = entry_time;
	ktime_t expires_next;
	for (;;) {
		cpu_base->deferred_rearm = true;
		cpu_base->in_hrtirq = true;
		cpu_base->expires_next = KTIME_MAX;
		raise_softirq_if_due(cpu_base, now);
		__hrtimer_run_queues(cpu_base, now, HRTIMER_ACTIVE_HARD);
		now = hrtimer_update_base(cpu_base);
		expires_next = hrtimer_update_next_event(cpu_base);
		cpu_base->hang_detected = false;
		if (expires_next >= now)
			break;
		cpu_base->nr_retries++;
		if (++retries < static_cast<int>(HRTIMER_MAX_RETRIES))
			continue;
		const ktime_t delta = now - entry_time;
		if (delta > cpu_base->max_hang_time)
			cpu_base->max_hang_time = delta;
		cpu_base->nr_hangs++;
		cpu_base->hang_detected = true;
		break;
	}
	// hrtimer_interrupt_rearm(): the bases were just evaluated.
	cpu_base->deferred_needs_update = false;
	cpu_base->deferred_expires_next = expires_next;
}

}  // namespace

bool hrtimer_rearm_deferred(hrtimer_cpu_base *cpu_base)
{
	if (!cpu_base->deferred_rearm)
		return false;
	ktime_t expires_next = cpu_base->deferred_expires_next;
	if (cpu_base->deferred_needs_update) {
		hrtimer_update_base(cpu_base);
		expires_next = hrtimer_update_next_event(cpu_base);
		cpu_base->costs.deferred_updates++;
	}
	cpu_base->costs.deferred_rearms++;
	hrtimer_rearm(cpu_base, expires_next);
	return true;
}

void hrtimer_interrupt(hrtimer_cpu_base *cpu_base)
{
	if (cpu_base->rearm_deferred) {
		hrtimer_interrupt_deferred(cpu_base);
		return;
	}
	int retries = 0;

	cpu_base->nr_events++;
	cpu_base->dev.next_event = KTIME_MAX;
	cpu_base->dev.fires_at = KTIME_MAX;	// a oneshot device fires once

	const ktime_t entry_time = hrtimer_update_base(cpu_base);
	ktime_t now = entry_time;
	for (;;) {
		cpu_base->in_hrtirq = true;
		// No remote enqueue may program against a stale value meanwhile.
		cpu_base->expires_next = KTIME_MAX;
		raise_softirq_if_due(cpu_base, now);
		__hrtimer_run_queues(cpu_base, now, HRTIMER_ACTIVE_HARD);

		const ktime_t expires_next = hrtimer_update_next_event(cpu_base);
		cpu_base->expires_next = expires_next;
		cpu_base->in_hrtirq = false;
		if (tick_program_event(cpu_base, expires_next, false) == 0) {
			cpu_base->hang_detected = false;
			return;
		}
		// The next expiry passed while the callbacks ran: again, a few times.
		now = hrtimer_update_base(cpu_base);
		cpu_base->nr_retries++;
		if (++retries < static_cast<int>(HRTIMER_MAX_RETRIES))
			continue;
		break;
	}
	// A hang: give the CPU as long again as the interrupt took (at most
	// HANG_MAX_DELTA) before the next one, whatever is due meanwhile.
	cpu_base->nr_hangs++;
	cpu_base->hang_detected = true;
	const ktime_t delta = now - entry_time;
	if (delta > cpu_base->max_hang_time)
		cpu_base->max_hang_time = delta;
	tick_program_event(cpu_base, now + (delta > HANG_MAX_DELTA ? HANG_MAX_DELTA : delta), true);
}

void hrtimer_run_softirq(hrtimer_cpu_base *cpu_base)
{
	cpu_base->costs.softirq_runs++;
	cpu_base->softirq_pending = false;
	const ktime_t now = hrtimer_update_base(cpu_base);
	__hrtimer_run_queues(cpu_base, now, HRTIMER_ACTIVE_SOFT);
	cpu_base->softirq_activated = false;

	// hrtimer_update_softirq_timer(): program for the next soft expiry,
	// even one equal to the next hard one (softirq_expires_next must move).
	if (__hrtimer_get_next_event(cpu_base, HRTIMER_ACTIVE_SOFT) == KTIME_MAX)
		return;
	hrtimer_reprogram(cpu_base, cpu_base->softirq_next_timer);
}

void hrtimer_run_queues(hrtimer_cpu_base *cpu_base)
{
	if (cpu_base->hres_active)
		return;
	cpu_base->costs.tick_runs++;
	const ktime_t now = hrtimer_update_base(cpu_base);
	raise_softirq_if_due(cpu_base, now);
	__hrtimer_run_queues(cpu_base, now, HRTIMER_ACTIVE_HARD);
}

ktime_t hrtimer_next_event(const hrtimer_cpu_base *cpu_base)
{
	unsigned active = cpu_base->active_bases & HRTIMER_ACTIVE_HARD;
	hrtimer *first = nullptr;
	std::uint64_t scanned = 0;

	if (!cpu_base->softirq_activated)
		active |= cpu_base->active_bases & HRTIMER_ACTIVE_SOFT;
	return next_event_base(cpu_base, active, KTIME_MAX, &first, &scanned);
}

timerqueue_costs hrtimer_queue_costs(const hrtimer_cpu_base *cpu_base, std::uint64_t *rotations)
{
	timerqueue_costs sum;
	std::uint64_t rot = 0;

	for (const hrtimer_clock_base &base : cpu_base->clock_base) {
		add_costs(sum, base.active.costs);
		rot += base.active.rb_root.root.rotations;
	}
	if (rotations)
		*rotations = rot;
	return sum;
}

}  // namespace kernel::hr
