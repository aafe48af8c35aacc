// --perfetto FILE.json: the replay as Chrome trace event JSON, which
// ui.perfetto.dev and chrome://tracing open.
//
//   one process per CPU ("CPU 0", pid cpu + 1), holding
//     - each arming of a timer as an async slice ("b"/"e", cat "timer",
//       one id per arming), named by its callback, from the start to its
//       expiry, cancel or re-arm (args: timer, expires, level; the end
//       says how it ended); armings still pending at the end close at the
//       last jiffy with how = "pending at end"
//     - on its "softirq" thread (tid 1): each cascade as an instant with
//       its level and count, fidelity misses (early, late, unmatched) as
//       instants
//     - counter tracks "pending" (timers per wheel level, or all of them)
//       and "moves per tick", sampled at the ticks where they change
//     - a counter track "timer time (ms in the second)": the time table's
//       per-second figures (sim/replay/time_table.h, per_second), one
//       sample at the start of each second: `measured` (TIMER and HRTIMER
//       softirq overhead, the callbacks in them, timer interrupts) and
//       `modelled` (starts and cancels, the scheme's softirq work, by the
//       cost model) with `modelled low` .. `modelled high`, its interval;
//       0 in a second of the CPU with neither
//     - on a thread per slice source (slice_source: tid 2 "timer softirq
//       (simulated)"), each simulated timer softirq run as a complete slice
//       ("X", cat "softirq"; args: jiffy, units, expired, woke_for) and the
//       timer interrupt that ran it (the scheme's tick) as an instant (cat
//       "interrupt") at its start. The replay knows the run's work, not its
//       time: a slice is drawn `drawn_ns_per_unit` ns long per cost unit
//       (compare --estimate gives calibrated times), and starts no earlier
//       than the previous run of its CPU ended
//   and beside them the CPU timeline of both halves, measured and modelled,
//   at the trace's own ns (sim/output/perfetto_cpu.h: tids 3..8)
//
// Timestamps are trace microseconds of the jiffies (3 decimals), never
// decreasing on a CPU's tracks: events are buffered and written sorted by
// CPU and jiffy when the replay ends (about 40 bytes of memory per event).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/base/interner.h"
#include "sim/replay/replay_sink.h"
#include "sim/replay/time_table.h"
#include "sim/output/output_file.h"
#include "sim/output/perfetto_cpu.h"
#include "sim/output/pending_levels.h"

namespace timersim {

// Where a CPU's softirq slices come from: each source is a thread of its
// own under the CPU's process (tid 2 + source). The runs measured in the
// trace are drawn at their own ns by perfetto_cpu_lanes, not here.
enum class slice_source : std::uint8_t { simulated };
inline constexpr unsigned slice_sources = 1;
const char *slice_source_name(slice_source s);

// A simulated run's length in the picture: ns per cost unit.
inline constexpr double drawn_ns_per_unit = 10.0;

class perfetto_trace final : public replay_sink {
public:
	explicit perfetto_trace(output_file &out);

	// One softirq run of `source` on `cpu` at `jiffy`, `dur_ns` long,
	// with its work, expiries and the callback it woke for ("" none).
	void add_run(slice_source source, unsigned cpu, jiffies_t jiffy, double dur_ns,
		     std::uint64_t units, std::uint64_t expired, std::string_view woke_for);

	void begin(const replay_setup &setup) override;
	void started(const timer_ref &t, unsigned cpu, jiffies_t now, jiffies_t expires,
		     unsigned level, bool rearm) override;
	void canceled(const timer_ref &t, unsigned cpu, jiffies_t now) override;
	void tick(unsigned cpu, jiffies_t jiffy) override;
	void idle_ticks(unsigned cpu, jiffies_t first, std::uint64_t count) override;
	void cascaded(unsigned cpu, jiffies_t jiffy, unsigned level, std::uint32_t count) override;
	void moved(const timer_ref &t, unsigned cpu, jiffies_t jiffy, unsigned from_level) override;
	void expired(const timer_ref &t, unsigned cpu, jiffies_t jiffy, jiffies_t expires) override;
	void fidelity(const timer_ref &t, unsigned cpu, jiffies_t recorded, jiffies_t simulated,
		      verdict v) override;
	void softirq_run(unsigned cpu, jiffies_t jiffy, std::uint64_t units, std::uint64_t expired,
			 const timer_ref *wake) override;
	bool wants_activity() const override { return true; }
	void activity(const cpu_activity &a) override { lanes_.add(a); }
	void woke(const wakeup &w) override { lanes_.add(w); }
	void end(const replay_report &report) override;

private:
	enum class kind : std::uint8_t { begin, end, cascade, miss, pending, moves, run, interrupt, time };
	enum class ending : std::uint8_t { expired, canceled, rearmed, pending_at_end };
	struct event {
		jiffies_t jiffy;
		std::uint64_t seq;		// emission order, for ties
		std::uint64_t arming;		// begin/end: the slice id; run: its length, ps
		std::uint64_t a;		// begin: timer address; end: lateness; cascade: count;
					// miss: timer address; moves: the count; run: units
		std::uint64_t b;		// begin: expires; end: ending; miss: verdict;
					// run: expired
		std::uint32_t cpu;
		std::uint32_t name;		// interned: callback, or level for a cascade;
					// run: the callback it woke for (~0u: none)
		std::uint32_t level;		// begin: level; pending: sample index;
					// run, interrupt: the slice_source;
					// time: index in seconds_ (~0u: a 0 sample)
		kind what;
	};
	struct arming_state {
		std::uint64_t arming = 0;	// 0: not armed
		jiffies_t expires = 0;
		std::uint32_t cpu = 0;
		std::uint32_t name = 0;
	};

	void push(event e);
	void close_arming(const timer_ref &t, jiffies_t jiffy, ending how, std::uint64_t late);
	std::uint32_t name_of(const timer_ref &t);
	void sample(unsigned cpu, jiffies_t jiffy);
	void close_tick(unsigned cpu);
	void render(const event &e, double ts, std::string &out) const;
	void add_seconds(const replay_report &report);
	static unsigned tid_of(const event &e);

	output_file &out_;
	const replay_setup *setup_ = nullptr;
	pending_levels pending_;
	interner names_;
	std::vector<event> events_;
	std::vector<arming_state> armings_;	// per timer
	std::uint64_t next_arming_ = 1;
	std::vector<std::vector<std::uint64_t>> samples_;	// pending counts as sampled
	std::vector<std::vector<std::uint64_t>> last_sample_;	// per CPU
	std::vector<std::uint64_t> tick_moves_, last_moves_;	// per CPU
	std::vector<jiffies_t> tick_jiffy_;
	std::vector<bool> tick_open_;
	jiffies_t last_jiffy_ = 0;
	bool source_used_[slice_sources] = {};
	perfetto_cpu_lanes lanes_;
	std::vector<second_time_row> seconds_;	// the time table's, at end()
	bool measured_seconds_ = false, modelled_seconds_ = false;	// any of them known
};

}  // namespace timersim
