// Everything a replay measured: the numbers behind the human report, the
// JSON report (keys of ../shared/docs/replay-contract.md) and `compare`.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/hrtimer/hr_summary.h"
#include "sim/measured/calibration.h"
#include "sim/measured/cpu_time.h"
#include "sim/measured/run_model.h"
#include "sim/measured/softirq_work.h"
#include "sim/scheme/scheme.h"
#include "sim/stream/kernel_generation.h"
#include "sim/trace/lost_events.h"
#include "sim/trace/symbols.h"
#include "sim/ticks/tick_summary.h"
#include "sim/replay/stretch_pricing.h"
#include "sim/replay/time_table.h"

namespace timersim {

struct input_summary {
	std::string path;
	std::string format;
	std::string unit = "lines";	// what `lines` counts: text lines, or binary events
	std::string clock;		// the clock of the seconds, when the format has one
	std::uint64_t lines = 0;
	std::uint64_t events = 0;
	std::uint64_t skipped = 0;	// non-event lines: headers, comments, malformed
	std::uint64_t malformed = 0;	// of skipped: bad lines passed over by --lenient
	std::uint64_t bytes = 0;
	// Events the tracer lost (CTF packets' events_discarded; text: the
	// tracer's notes, per CPU), where.
	std::uint64_t lost_events = 0;
	std::vector<lost_packet> lost_packets;
	std::vector<lost_on_cpu> lost_cpus;
	// --lenient, a gzip file cut short: the compressed byte offset where
	// it stopped (the rest is lost); 0 when whole.
	std::uint64_t truncated_at = 0;
	// How the callback addresses fitted --symbols (all 0 without it).
	symbol_fit symbols;
	unsigned cpus = 0;
	unsigned hz = 0;
	bool hz_inferred = false;
	unsigned hz_trace = 0;		// HZ inferred from the trace, 0 if it could not be
	unsigned word_bits = 64;
	bool word_bits_inferred = false;
	jiffies_t first_jiffies = 0;
	jiffies_t last_jiffies = 0;
	// The trace seconds of those jiffies (timestamps of the events that
	// carried them); 0 when the trace has no timestamps.
	double first_seconds = 0;
	double last_seconds = 0;
	// The recording kernel's timer code, told by the fields its
	// timer_start events carry, and the scheme that models it.
	std::string kernel;		// e.g. "Linux 6.8+"
	std::string kernel_scheme;	// "classic" or "v48"
	// Its generation from all the events and fields the trace has (a
	// range of versions) and the timer rules the replay follows for it.
	kernel_generation generation;
};

struct event_counts {
	std::uint64_t timer_init = 0, timer_start = 0, timer_cancel = 0;
	std::uint64_t timer_expire_entry = 0, timer_expire_exit = 0;
	std::uint64_t timer_base_idle = 0, hrtimer = 0, other = 0;
	// What the timer code cost (irq:softirq_*, irq_vectors, irq_handler_*).
	std::uint64_t softirq = 0, irq = 0;
	// The NOHZ idle code's (timer:tick_stop, power:cpu_idle, timer_migration:tmigr_*).
	std::uint64_t tick_stop = 0, cpu_idle = 0, tmigr = 0;
};

struct timer_counts {
	std::uint64_t distinct = 0;	// timers (pointers) seen
	std::uint64_t started = 0;	// timer_start events applied
	std::uint64_t rearmed = 0;	// of those, found the timer pending
	std::uint64_t canceled = 0;	// cancels that removed a pending timer
	std::uint64_t expired = 0;	// simulated expiries (plus forced late ones)
	std::uint64_t pending_at_end = 0;
	// The timers pending at the end, by CPU: [cpu][0] all of its bases',
	// [cpu][l] those sitting on level l (1-based, named level_names[l-1])
	// for a scheme whose slots can be read (classic, v48: each counted
	// where it really sits, after any cascade); only [0] for the others.
	std::vector<std::vector<std::uint64_t>> pending_on_cpu;
	std::vector<std::string> level_names;
};

struct level_cascade {
	std::string level;		// "tv2" ...
	std::uint64_t calls = 0;	// cascade() invocations, empty slots too
	std::uint64_t moved = 0;	// timers re-inserted from this level
};

struct level_enqueue {
	std::string level;		// "tv1" ...
	std::uint64_t count = 0;
};

// Moves per processed tick, in power-of-two buckets: [0], [1], [2,3], [4,7]...
struct moves_bucket {
	std::uint64_t low = 0, high = 0;	// inclusive bounds
	std::uint64_t ticks = 0;
};

struct cascade_summary {
	std::uint64_t moved_total = 0;
	// Arming instances moved at least once, then removed by a cancel
	// (del_timer) without expiring: cascade work wasted.
	std::uint64_t moved_then_canceled = 0;
	// The same, ended by a re-arm (mod_timer of the pending timer).
	std::uint64_t moved_then_rearmed = 0;
	std::uint64_t max_moved_in_one_tick = 0;
	jiffies_t max_moved_jiffy = 0;
	double max_moved_seconds = 0;	// the trace second of that jiffy
	unsigned max_moved_cpu = 0;
	std::vector<level_cascade> levels;
	std::vector<moves_bucket> moves_per_tick;
};

struct fidelity_summary {
	std::uint64_t compared = 0;	// recorded timer_expire_entry events
	std::uint64_t exact = 0;	// simulation fired in the same jiffy
	std::uint64_t early = 0;	// simulation fired earlier
	std::uint64_t late = 0;		// still pending in the simulation
	std::uint64_t unmatched = 0;	// the simulation did not know the timer armed
	// Simulated expiries that no recorded expiry matched (the kernel
	// canceled, re-armed or never ran the timer there).
	std::uint64_t simulated_only = 0;
	// Every verdict but exact (simulated_only too), by named cause
	// (miss_reason_name order: every cause, zeros included).
	std::vector<std::pair<std::string, std::uint64_t>> misses;
	// The recorded expiries whose line printed baseclk (5.2+), judged by
	// the bucket the kernel ran: exact when the simulation fired the timer
	// from that bucket (the verdicts above compare jiffies, which another
	// CPU's tick can move on while a softirq runs its buckets).
	struct by_bucket_summary {
		std::uint64_t judged = 0;	// recorded expiries with baseclk
		std::uint64_t exact = 0, early = 0, late = 0;
		std::uint64_t unmatched = 0;	// the simulation never knew it armed
		// Early or late for a cause that is the trace's (trace_cause():
		// flags the rendering dropped, events lost).
		std::uint64_t trace_caused = 0;
		// Every verdict but exact, by named cause (miss_reason_name
		// order, zeros included).
		std::vector<std::pair<std::string, std::uint64_t>> misses;
		// Those the simulation knew armed.
		std::uint64_t matched() const { return exact + early + late; }
		// The fidelity figure's denominator: matched, less the misses the
		// trace caused (counted apart, as unmatched is).
		std::uint64_t judged_on_model() const { return matched() - trace_caused; }
	} by_bucket;
};

// Fidelity of one callback's expiries.
struct function_fidelity {
	std::string function;
	std::uint64_t exact = 0, early = 0, late = 0, unmatched = 0, simulated_only = 0;
	std::uint64_t compared() const { return exact + early + late + unmatched; }
	std::uint64_t missed() const { return early + late + unmatched + simulated_only; }
};

// Lateness of simulated expiries against the requested expiry, in jiffies:
// [0], [1], [2,3], [4,7], ... Zero everywhere for exact schemes.
struct lateness_summary {
	std::uint64_t expiries = 0;
	std::uint64_t on_time = 0;
	std::uint64_t early = 0;	// fired before the requested expiry (coarse ticks)
	std::uint64_t max = 0;
	std::uint64_t total = 0;	// sum of lateness, for the mean
	std::vector<moves_bucket> buckets;	// low/high in jiffies, `ticks` = expiries
};

// A callback's share: its timers' starts, cancels, expiries and cascade
// moves, the work credited to them in the scheme's cost units (the rule:
// replay_sink::worked), and its wakeups: simulated softirq runs (the
// scheme's ticks) whose first expiry was one of its timers.
struct function_stats {
	std::string function;
	std::uint64_t started = 0, canceled = 0, expired = 0, moved = 0;
	std::uint64_t process_units = 0, softirq_units = 0, wakeups = 0;
	// Measured in the trace (sim/measured/): the time its callbacks'
	// runs took, ns; unset where the trace did not record it.
	std::optional<double> measured_ns;
	std::uint64_t work() const { return process_units + softirq_units; }
};

// The scheme's work (its cost units) by where the modelled kernel does it
// (work_context): process + softirq = costs, kind by kind.
struct work_split {
	cost_counters process, softirq;
	// Softirq units credited to no callback: runs that fired nothing,
	// idle stretches.
	std::uint64_t softirq_unattributed = 0;
	std::uint64_t runs = 0;		// simulated softirq runs (the scheme's ticks)
	std::uint64_t runs_expiring = 0;	// of them, runs that fired a timer
};

// What the cost model predicts for a scheme: the timer softirq's own
// overhead over the whole trace, from the scheme's work. The model is the
// recording's own where it holds TIMER softirq runs (self-calibrated), the
// built-in reference where not, a file's with --cost-model
// (sim/measured/calibration.h); the same model prices every scheme of one
// replay.
struct modelled_cost {
	bool given = false;		// a model priced this scheme (every replay)
	measured::calibrated_model model;
	std::vector<std::string> sources;	// the recordings it was fitted on
	std::uint64_t runs = 0;		// the scheme's softirq runs (classic: every tick)
	// ns with its interval (see model.interval_from); `unfitted`: terms
	// nobody priced (left out).
	measured::prediction softirq;
	// Of softirq.ns, what terms borrowed from the reference priced (the
	// recording never did that work: cascades on a v48 recording).
	double borrowed_ns = 0;
	std::vector<std::string> borrowed;
	// softirq.ns by each of the model's held-out fits (model.folds).
	std::vector<double> folds;
	// The recording kernel's own scheme on a trace with recorded runs:
	// the model against each run's measured overhead, and the verdict on
	// the whole trace (self-calibrated: the held-out blocks' predictions
	// summed, never the fit on the runs it is judged on).
	bool checked = false;
	measured::model_check check;
	measured::verdict verdict;
	// Why the model is the one it is, when that is not evident (the
	// kernel's scheme was not replayed, so its runs could not be paired).
	std::string note;
	// softirq by stretch, each at its state (sim/replay/stretch_pricing.h);
	// empty where one price holds for the whole trace.
	std::vector<stretch_cost> stretches;
};

struct replay_report {
	input_summary input;
	std::string scheme;
	// How the scheme was chosen: "" when named, else why (`--scheme auto`:
	// "the recording kernel's wheel").
	std::string scheme_choice;
	std::vector<scheme_param> scheme_params;
	event_counts events;
	// When each base ran: the recorded ticks or every jiffy (--ticks).
	tick_summary ticks;
	timer_counts timers;
	std::uint64_t ticks_processed = 0;
	cascade_summary cascade;
	std::vector<level_enqueue> enqueue;
	fidelity_summary fidelity;
	lateness_summary lateness;
	cost_counters costs;
	work_split work;
	std::uint64_t peak_scheme_bytes = 0;
	// Bytes the replay's measurement holds at the end for its samples and
	// the TIMER runs kept for the cost model: flat with
	// replay_options::bounded_memory, growing with the trace otherwise.
	std::uint64_t sample_bytes = 0;
	// Most work first (process + softirq units), then most moved, most
	// started, by name.
	std::vector<function_stats> functions;
	// Per callback, most missed first (then most compared, then by name).
	std::vector<function_fidelity> fidelity_by_function;
	// What the recording machine spent in the timer code, measured from
	// its softirq and interrupt events (the same for every scheme).
	measured::cost_report measured;
	// The recorded TIMER softirq runs, and what this scheme did in each
	// (same index): the pairs the cost model is fitted to and checked on.
	std::vector<measured::softirq_run> timer_runs;
	std::vector<measured::softirq_work> run_work;
	// The recorded timer interrupts' overheads, in trace order: the state
	// of each stretch of the trace (sim/measured/calibration.h).
	std::vector<measured::interrupt_cost> timer_interrupts;
	// The recorded callbacks' own times, in the order they ended (kept
	// while the runs are): the state too.
	std::vector<measured::callback_time> callback_times;
	// Everything the scheme did on the softirq side, runs recorded or not.
	measured::softirq_work softirq_work;
	// What it did per second and CPU (the time table's per-second figures).
	std::map<second_key, second_work> seconds_work;
	// More (second, CPU) figures than are kept (by_second::max_rows): the
	// time table has no per-second rows then.
	bool seconds_cut = false;
	modelled_cost modelled;
	// The time of the timer code per callback and per CPU, ns, measured
	// and modelled cells (sim/replay/time_table.h).
	time_table time;
	// The hrtimer half of the trace, replayed through the kernel's model.
	hrtimer_summary hrtimers;
	bool drained = false;		// --drain ran every base empty
	jiffies_t drain_stopped_at = 0;	// else the jiffy it gave up at (far timers)
	// Wall time of the replay through the scheme; only reported on request
	// (--timing), since reports are otherwise byte-for-byte reproducible.
	double wall_seconds = 0;
};

}  // namespace timersim
