// --timeline FILE.csv: what each base did over time, for pandas and
// spreadsheets. One row per CPU and tick, or with --interval one row per
// CPU and interval:
//
//   cpu,jiffy,seconds,ticks,pending,pending_tv1,...,pending_tv5,enqueued,moved,cascades,expired,canceled,
//       process_units,softirq_units,softirq_runs,hrtimer_expiries,interrupts,interrupts_predicted,
//       wakeups_wheel,wakeups_tick,wakeups_hrtimer,wakeups_none,
//       time_measured_ns,time_modelled_ns,time_modelled_low_ns,time_modelled_high_ns
//   0,4295133440,964.721000,1,31,27,4,0,0,0,0,4,2,1,0,3,6,1,2,1,1,1,0,0,0,,,,
//
//   cpu        the base
//   jiffy      the tick's jiffy (with --interval: the interval's first
//              jiffy), as the kernel prints jiffies
//   seconds    the trace second of that jiffy (6 decimals)
//   ticks      jiffies processed: 1 for a tick; an idle stretch the scheme
//              skipped in one step is one row with its length here (never
//              one row per idle jiffy)
//   pending    timers pending on the base at the end of the row;
//              pending_<level>: of them, on each wheel level (only for
//              schemes whose slots can be read: classic, v48)
//   enqueued   starts and re-arms queued on the base
//   moved      timers re-inserted by cascades
//   cascades   cascade calls, those that found their slot empty too
//   expired    expiries, with those the replay forced at a recorded late one
//   canceled   del_timer of a pending timer
//   process_units  the scheme's work in process context (start, cancel,
//              re-arm), cost units (replay_report::work)
//   softirq_units  its work in the timer softirq (expiry, cascades, slot
//              and bucket visits, next-expiry searches, idle catch-up)
//   softirq_runs   simulated softirq runs: the scheme's ticks, each a
//              simulated timer interrupt
// and the CPU's hrtimer half and timer interrupts (sim/base/cpu_activity.h),
// placed by their trace ns (per tick: in the row open on the CPU when they
// are settled, which is the tick of their interrupt):
//   hrtimer_expiries   recorded hrtimer expiries (entry and exit recorded)
//   interrupts     recorded timer interrupts (without irq events: the
//              groups of hard hrtimer expiries with one now)
//   interrupts_predicted  interrupts of the hrtimer model's device (at a
//              recorded interrupt or of its own)
//   wakeups_wheel, wakeups_tick, wakeups_hrtimer, wakeups_none   the
//              recorded interrupts by cause (wake_cause): the tick for a
//              wheel timer, the tick alone, another hrtimer, no callback;
//              they add up to `interrupts`
// A row that holds only these (a CPU idle for the wheel) is a row too.
// What the timer code cost in the row, ns, the time table's per-second
// figures (sim/replay/time_table.h: per_second, summed over the row's
// seconds), so only where rows are whole seconds (--interval 1s, 5s, or
// a multiple of HZ jiffies); empty cells otherwise and where nothing
// measured or priced it:
//   time_measured_ns   measured: TIMER and HRTIMER softirq overhead, the
//              callbacks in them, the timer interrupts' own time
//   time_modelled_ns   modelled: the starts and cancels at the start price
//              and the scheme's softirq work by the cost model;
//              time_modelled_low_ns .. _high_ns its interval (the seconds'
//              intervals summed)
//
// Per tick, a row covers the tick and what happened on the base until its
// next tick (the first row also what came before); rows come in simulation
// order. Per interval, a row holds every event whose jiffy lies in
// [jiffy, jiffy + interval) (an idle stretch counts where it begins);
// intervals without any event have no row; rows are sorted by jiffy, then
// cpu. Integers except `seconds`; RFC 4180 quoting is never needed.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/replay/replay_sink.h"
#include "sim/output/output_file.h"
#include "sim/output/pending_levels.h"

namespace timersim {

// --interval as given: a count of jiffies ("250", "250j") or a duration
// ("10ms", "2s") that becomes jiffies once HZ is known.
struct timeline_interval {
	std::uint64_t value = 0;	// 0: a row per tick
	enum unit_kind : std::uint8_t { jiffies, ms, s } unit = jiffies;

	// Throws usage_error naming --interval for a bad spec.
	static timeline_interval parse(std::string_view spec);
	// In jiffies at `hz`; usage_error when shorter than one jiffy.
	std::uint64_t jiffies_at(unsigned hz) const;
};

class timeline final : public replay_sink {
public:
	timeline(output_file &out, timeline_interval interval = {});

	void begin(const replay_setup &setup) override;
	void started(const timer_ref &t, unsigned cpu, jiffies_t now, jiffies_t expires,
		     unsigned level, bool rearm) override;
	void canceled(const timer_ref &t, unsigned cpu, jiffies_t now) override;
	void tick(unsigned cpu, jiffies_t jiffy) override;
	void idle_ticks(unsigned cpu, jiffies_t first, std::uint64_t count) override;
	void cascaded(unsigned cpu, jiffies_t jiffy, unsigned level, std::uint32_t count) override;
	void empty_cascades(unsigned level, std::uint64_t calls) override;
	void moved(const timer_ref &t, unsigned cpu, jiffies_t jiffy, unsigned from_level) override;
	void expired(const timer_ref &t, unsigned cpu, jiffies_t jiffy, jiffies_t expires) override;
	void fidelity(const timer_ref &t, unsigned cpu, jiffies_t recorded, jiffies_t simulated,
		      verdict v) override;
	void worked(const timer_ref *t, unsigned cpu, jiffies_t jiffy, work_context ctx,
		    const cost_counters &units) override;
	void softirq_run(unsigned cpu, jiffies_t jiffy, std::uint64_t units, std::uint64_t expired,
			 const timer_ref *wake) override;
	bool wants_activity() const override { return true; }
	void activity(const cpu_activity &a) override;
	void woke(const wakeup &w) override;
	void end(const replay_report &report) override;

private:
	struct row {
		jiffies_t jiffy = 0;
		std::uint64_t ticks = 0, enqueued = 0, moved = 0, cascades = 0, expired = 0,
			      canceled = 0;
		std::uint64_t process_units = 0, softirq_units = 0, runs = 0;
		std::uint64_t hrtimer_expiries = 0, interrupts = 0, predicted = 0;
		std::uint64_t wakeups[4] = {};	// by wake_cause: none, hrtimer, tick, wheel
		std::vector<std::uint64_t> pending;	// at the end of the row
		bool measured_known = false, modelled_known = false;
		double measured_ns = 0, modelled_ns = 0, modelled_low = 0, modelled_high = 0;
		bool empty() const
		{
			return !ticks && !enqueued && !moved && !cascades && !expired && !canceled &&
			       !process_units && !softirq_units && !runs && !hrtimer_expiries &&
			       !interrupts && !predicted;
		}
	};

	// The row an event of `cpu` at `jiffy` counts in.
	row &at(unsigned cpu, jiffies_t jiffy);
	// ... an event of the CPU timeline at trace time `ts_ns`.
	row &at_ns(unsigned cpu, std::uint64_t ts_ns);
	void close(unsigned cpu);
	void write(unsigned cpu, const row &r);
	void flush_if_full();
	void add_time(const replay_report &report);

	output_file &out_;
	timeline_interval spec_;
	std::uint64_t interval_ = 0;	// jiffies, 0: per tick
	bool whole_seconds_ = false;	// interval_ is a multiple of HZ: the time columns
	const replay_setup *setup_ = nullptr;
	pending_levels pending_;
	std::vector<row> open_;		// per tick: each CPU's open row
	std::map<std::pair<jiffies_t, unsigned>, row> intervals_;	// (first jiffy, cpu)
	unsigned idle_cpu_ = 0;		// the CPU of the latest idle stretch
	jiffies_t idle_first_ = 0;	// and its first jiffy
	std::string buf_;
};

}  // namespace timersim
