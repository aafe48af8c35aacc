#include "sim/stream/trace_shape.h"

#include <cmath>

namespace timersim {

bool event_jiffies(const sim_event &ev, std::uint64_t &raw)
{
	if (ev.kind == event_kind::timer_start && ev.carries(EF_TIMEOUT)) {
		raw = ev.expires - static_cast<std::uint64_t>(ev.timeout);
		return true;
	}
	if (ev.kind == event_kind::timer_expire_entry && !ev.carries(EF_MEASURE_ONLY)) {
		raw = ev.now;
		return true;
	}
	return false;
}

namespace {

constexpr std::uint64_t two_seconds_ns = 2'000'000'000;
constexpr unsigned common_hz[] = {100, 250, 300, 1000};

unsigned nearest_hz(double per_second)
{
	unsigned best = 0;
	double best_err = 0;
	for (unsigned hz : common_hz) {
		double err = std::fabs(per_second - hz) / hz;
		if (!best || err < best_err) {
			best = hz;
			best_err = err;
		}
	}
	// Further than 10% from every common value: do not guess.
	return best_err < 0.10 ? best : 0;
}

}  // namespace

trace_shape infer_trace_shape(event_stream &stream, unsigned declared_cpus, std::size_t max_events)
{
	trace_shape shape;
	unsigned max_cpu = 0;
	unsigned digits = 0;
	bool above_32 = false;
	std::uint64_t first_ts = 0, last_ts = 0, last_j = 0;
	bool timed = false;

	for (std::size_t i = 0; i < max_events; i++) {
		const sim_event *ev = stream.peek(i);
		if (!ev)
			break;
		if (ev->carries(EF_MEASURE_ONLY))
			continue;	// not the replayed trace's: its shape is without them
		if (ev->cpu > max_cpu)
			max_cpu = ev->cpu;
		if (ev->kind == event_kind::timer_start && ev->carries(EF_TARGET_CPU) &&
		    ev->target_cpu > max_cpu)
			max_cpu = ev->target_cpu;
		if (ev->is_timer_event() && ev->timer_digits && !digits)
			digits = ev->timer_digits;

		if (ev->kind == event_kind::timer_start)
			shape.start_fields |= ev->has;
		if (ev->kind == event_kind::timer_expire_entry)
			shape.expire_fields |= ev->has;
		if (ev->kind == event_kind::timer_base_idle)
			shape.base_idles++;
		if (ev->kind == event_kind::hrtimer) {
			if (ev->hrtimer == hrtimer_op::start)
				shape.hrtimer_start_fields |= ev->has;
			else if (ev->hrtimer == hrtimer_op::expire_entry)
				shape.hrtimer_expiries++;
			else if (ev->hrtimer == hrtimer_op::rearm)
				shape.hrtimer_rearms++;
			else if (ev->hrtimer == hrtimer_op::start_expired)
				shape.hrtimer_start_expired++;
		}
		if (ev->kind == event_kind::tmigr) {
			if (ev->tmigr == tmigr_event::cpu_available || ev->tmigr == tmigr_event::cpu_unavailable)
				shape.tmigr_available++;
			else if (ev->tmigr == tmigr_event::cpu_online || ev->tmigr == tmigr_event::cpu_offline)
				shape.tmigr_online++;
		}

		std::uint64_t j;
		if (!event_jiffies(*ev, j))
			continue;
		// Judge by the printed values: expires - timeout may wrap in
		// 64-bit arithmetic when a 32-bit counter just wrapped.
		if ((ev->kind == event_kind::timer_start ? ev->expires : ev->now) >> 32)
			above_32 = true;
		if (!shape.has_jiffies) {
			shape.has_jiffies = true;
			shape.first_jiffies = j;
			first_ts = ev->ts_ns;
			timed = ev->carries(EF_TIMESTAMP);
		}
		last_ts = ev->ts_ns;
		last_j = j;
		if (timed && last_ts - first_ts >= two_seconds_ns)
			break;
	}

	shape.cpus = max_cpu + 1 > declared_cpus ? max_cpu + 1 : declared_cpus;
	if (above_32 || digits == 16)
		shape.word_bits = 64;
	else if (digits == 8)
		shape.word_bits = 32;

	// A 32-bit counter may wrap inside the prologue: take the difference
	// in the word's width.
	if (timed && last_ts > first_ts + 50'000'000) {
		std::int64_t dj = shape.word_bits == 32
			? static_cast<std::int32_t>(static_cast<std::uint32_t>(last_j - shape.first_jiffies))
			: static_cast<std::int64_t>(last_j - shape.first_jiffies);
		double seconds = static_cast<double>(last_ts - first_ts) / 1e9;
		if (dj > 0)
			shape.hz = nearest_hz(static_cast<double>(dj) / seconds);
	}
	return shape;
}

void kernel_of(const trace_shape &shape, std::string &kernel, std::string &scheme)
{
	scheme = "v48";
	if (shape.start_fields & EF_BUCKET_EXPIRY)
		kernel = "Linux 6.8+ (bucket_expiry)";
	else if (shape.expire_fields & EF_BASECLK)
		kernel = "Linux 5.2+ (baseclk)";
	else if (shape.start_fields & (EF_TARGET_CPU | EF_IDX))
		kernel = "Linux 4.11+ (cpu=, idx=)";
	else if (shape.start_fields & EF_FLAGS) {
		kernel = "Linux 4.2-4.10 (flags=0x)";
		scheme = "classic";
	} else {
		kernel = "Linux 3.x-4.1 (no flags)";
		scheme = "classic";
	}
}

}  // namespace timersim
