// The hrtimer what-ifs: what the same hrtimer stream would have done with
// other ranges, without high resolution, or in other queues.
//
// The replay (sim/hrtimer/hr_replay.h) tells them every operation it made
// on its model: each recorded setup, start and cancel (with its time on
// CLOCK_MONOTONIC), each recorded expiry, and each change to a timer's
// place in its clock base's queue.
//
// Slack and highres: a free model (kernel/hrtimer.h, per CPU its own clock)
// is given the starts and cancels and runs by itself, its interrupts when
// its device comes due (high resolution) or at the tick (highres off:
// hrtimer_run_queues() at ticks on the jiffy grid: at the tick timer's own
// expiries, and for other timers at the grid point at or after their
// expires, as NOHZ programs the tick for the next hrtimer in low
// resolution). Two such models run: one with the recorded ranges in high
// resolution (the baseline), and one with the what-if. A recorded expiry
// of a timer the model still holds (it runs it later than the recording
// did) makes that CPU's model run on until it has run it, at its own
// times: what the recording did next (the callback's re-arm, the woken
// task's next sleep) comes after it.
//
// Queues: every enqueue, removal and expiry the replay's model made in a
// clock base is kept and, at the end, fed to one queue of each design per
// CPU and clock base; an expiry takes the design's first timer, which
// must be the one the model ran.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kernel/hrtimer.h"
#include "sim/hrtimer/hr_summary.h"
#include "sim/hrtimer/hr_whatif_options.h"

namespace timersim {

// The callbacks whose timers user space sets: the sleepers' hrtimer_wakeup
// (nanosleep, clock_nanosleep, select, poll, epoll_wait, futex waits; also
// a kernel thread's usleep_range, which the callback cannot tell apart),
// posix_timer_fn (timer_settime), it_real_fn (setitimer, alarm) and
// timerfd_tmrproc (timerfd_settime).
bool is_user_space_hrtimer(const std::string &callback);

// Lateness: how long after its softexpires (or its arming, when that came
// later: a timer armed for a time already past) a timer ran.
// Lateness values: count, mean, max exact; quantiles from a log-linear
// histogram (values below 256 exact, above within 1/128).
class lateness_histogram {
public:
	void add(std::int64_t ns);
	hrtimer_lateness figures() const;

private:
	std::vector<std::uint64_t> buckets_;
	std::uint64_t count_ = 0;
	double sum_ = 0;
	std::int64_t max_ = 0;
};

// One free-running hrtimer model under a policy.
class hr_free_model {
public:
	struct policy {
		hr_what_if_options::slack_rule slack = hr_what_if_options::slack_rule::recorded;
		std::int64_t user_slack_ns = 0;
		bool highres = true;
		std::int64_t tick_nsec = 4'000'000;
		// 6.12+ (kernel/sched/syscalls.c __setscheduler_params()): a
		// real-time or deadline task's timer_slack_ns is 0, so its sleeps
		// (hrtimer_wakeup) have no range, and a user-slack what-if leaves
		// them so. The trace names no task's policy; on these kernels a
		// sleeper armed with no range is a real-time task's (any other
		// task's slack is at least 1 ns: prctl PR_SET_TIMERSLACK 0 restores
		// the default) or a kernel caller's exact one (usleep_range(n, n),
		// schedule_hrtimeout()), which no user slack widens either.
		bool rt_zero_slack = false;
		// 7.1 (tick/sched: "Avoid hrtimer_cancel/start() sequence"): the
		// tick's restart on leaving idle is a start of the queued tick,
		// which moves it in one step; 6.18 canceled it first, and the
		// cancel of the timer the device waits for reprograms the device
		// (hrtimer_force_reprogram()) before the start programs it again.
		bool tick_modify_in_place = false;
		// 7.1 (CONFIG_HRTIMER_REARM_DEFERRED, kernel/hrtimer.h): the
		// interrupt's rearm waits for its end: the recorded interrupt's
		// last work (interrupt_activity(): its expiries of timers the
		// model's interrupt ran, its exit); starts and cancels until then
		// fold into one program. 7.1 makes the rearm on irq exit, before
		// softirqs or on the return (kernel/softirq.c __irq_exit_rcu(),
		// kernel/entry/common.c irqentry_exit()): the idle loop's NOHZ
		// tick stop comes after it (tick_nohz_irq_exit() only accounts
		// idle time), so what follows the interrupt's last work does not
		// fold.
		bool deferred_rearm = false;
		// 7.1's side of --what-if-kernel 7.1 (with deferred_rearm): a
		// start the recording made inside its interrupt (a callback's
		// RESTART, logged after its expiry) folds into the pending rearm
		// however long the callbacks took. Not on the baseline: it runs
		// 6.18's own interrupt code, where the re-arm's write replaces the
		// interrupt's (cpu_state::irq_write).
		bool restarts_in_interrupt = false;
	};
	hr_free_model(unsigned cpus, const policy &p);
	hr_free_model(const hr_free_model &) = delete;
	hr_free_model &operator=(const hr_free_model &) = delete;

	void setup(std::uint32_t id, unsigned cpu, int clockid, unsigned mode, bool user, std::int64_t mono);
	// `sleeper`: its callback is hrtimer_wakeup (a task's sleep).
	// `in_interrupt`: made inside the recorded timer interrupt (a
	// callback's RESTART, or a start a callback made).
	void start(std::uint32_t id, unsigned cpu, bool user, bool sleeper, std::int64_t soft,
		   std::int64_t hard, unsigned mode, std::int64_t mono, std::int64_t offs_real,
		   bool in_interrupt = false);
	// `tick_pair`: the tick's cancel that a start of it follows at once;
	// `in_interrupt_of`: the CPU whose recorded timer interrupt made it
	// (-1: none).
	void cancel(std::uint32_t id, std::int64_t mono, bool tick_pair = false, int in_interrupt_of = -1);
	// The recording ran timer `id` at `mono`.
	void recorded_expiry(std::uint32_t id, std::int64_t mono);
	// The recording's interrupt on CPU was still at work at MONO (7.1's
	// deferred rearm waits for its end); `expired`: the timer whose
	// recorded expiry that work was (UINT32_MAX: none, its exit).
	void interrupt_activity(unsigned cpu, std::int64_t mono, std::uint32_t expired = UINT32_MAX);
	std::uint64_t deferred_rearms() const;
	// The tick's grid: its phase on CLOCK_MONOTONIC (highres off).
	void set_tick_phase(std::int64_t phase) { phase_ = phase; }
	// Every CPU runs on to `mono`, the trace's end.
	void finish(std::int64_t mono);

	std::uint64_t interrupts() const { return interrupts_; }
	std::uint64_t ranges_changed() const { return ranges_changed_; }
	// Sleeps the rt_zero_slack rule kept without a range.
	std::uint64_t rt_exact() const { return rt_exact_; }
	std::uint64_t tick_pairs_merged() const { return tick_pairs_merged_; }
	// The clockevent devices' programmings and stops (each a write to
	// the device: tick_program_event(KTIME_MAX) stops it), all CPUs.
	std::uint64_t device_programs() const;
	std::uint64_t ran_ahead() const { return ran_ahead_; }
	// Highres off: the grid's phase, and the latest tick taken on any CPU.
	std::int64_t tick_phase() const { return phase_; }
	std::int64_t last_tick() const;
	// Expiries and lateness of all timers, or of the user-space ones.
	const lateness_histogram &lateness(bool user_only) const { return user_only ? user_ : all_; }

private:
	struct entry {
		kernel::hr::hrtimer timer;	// first: the callback finds its entry from it
		bool set_up = false;
		bool user = false;
		kernel::hr::ktime_t armed_at = 0;	// its clock's time at its latest start
		std::uint64_t ran_in = 0;	// the interrupt (cpu_state::irq_serial) it last ran in
	};
	struct cpu_state {
		kernel::hr::hrtimer_machine machine;
		kernel::hr::hrtimer_cpu_base base;
		std::int64_t last_at = INT64_MIN;	// the latest interrupt's time
		std::uint64_t irq_serial = 0;		// the model's interrupts on it
		std::int64_t max_at = INT64_MIN;	// and the latest of all
		// Interrupts taken ahead of the clock (for a timer the recording
		// ran before the model did), not to be counted again.
		std::vector<std::int64_t> ahead;
		// 7.1: the pending rearm is made at the first operation past
		// this, the interrupt's last work (its time, its recorded work,
		// an operation folded into it), and at this time: its end.
		std::int64_t window_last = 0;
		// 7.1: the pending interrupt is the recording's (it ran a timer
		// the recorded interrupt ran): starts inside that are its work.
		bool recorded = false;
		// The recorded interrupt's latest work told (interrupt_activity()).
		std::int64_t activity = INT64_MIN;
		// 6.x: the latest interrupt wrote the device (a program or a stop)
		// and no operation came since but its timers' re-arms: one of
		// those replaces that write (fold_restart()).
		enum class write : std::uint8_t { none, program, stop } irq_write = write::none;
	};
	// 6.x: hrtimer_reprogram() returns while in_hrtirq is set, so a
	// RESTART, which the trace logs after its interrupt ran it, does not
	// write the device: hrtimer_interrupt() writes once, after it. The
	// model's interrupt wrote first; a write the re-arm makes replaces it.
	static cpu_state::write last_write(const kernel::hr::clock_event_device &d, std::uint64_t programs,
					   std::uint64_t stops);
	// An operation that wrote NOW: inside the recorded interrupt, in place
	// of the interrupt's own write; outside, the next one writes again.
	static void fold_in_hrtirq(cpu_state &c, bool in_interrupt, cpu_state::write now);

	static kernel::hr::hrtimer_restart fired(kernel::hr::hrtimer *t, void *context);
	entry &entry_of(std::uint32_t id);
	// The CPU's clock moves on to `mono` (never back), running what came
	// due. 7.1: a pending rearm is made once `mono` is past the
	// interrupt's end, unless the operation at `mono` is that
	// interrupt's work (holds()).
	void catch_up(unsigned cpu, std::int64_t mono, std::uint32_t work_of = UINT32_MAX,
		      bool in_interrupt = false);
	// When the CPU's next interrupt (or tick) comes; INT64_MAX: none.
	std::int64_t next_interrupt(unsigned cpu) const;
	void interrupt(unsigned cpu, std::int64_t at, bool ahead);
	// 7.1: the pending rearm, made now; the softirq the interrupt raised after it.
	void rearm(unsigned cpu);
	// 7.1: timer ID ran in CPU's interrupt whose rearm is still pending,
	// so the recording's expiry (or re-arm) of it is that interrupt's work.
	bool ran_in_pending(std::uint32_t id, unsigned cpu) const;
	// 7.1: the operation (on timer WORK_OF; IN_INTERRUPT: the recording
	// made it inside its interrupt) is the pending interrupt's work.
	bool holds(unsigned cpu, std::uint32_t work_of, bool in_interrupt) const;
	// Before an operation on CPU at MONO (`in_interrupt`: made inside the
	// recorded interrupt): the pending program made where the policy's
	// kernel makes it.
	void end_of_interrupt(unsigned cpu, std::int64_t mono, bool in_interrupt);
	unsigned cpu_of(const entry &e) const { return e.timer.base->cpu_base->cpu; }

	policy policy_;
	std::deque<cpu_state> cpus_;
	std::deque<entry> entries_;
	std::int64_t phase_ = 0;
	std::int64_t offs_real_ = 0;	// REALTIME's offset, as the replay last had it
	std::uint64_t interrupts_ = 0, ranges_changed_ = 0, ran_ahead_ = 0, rt_exact_ = 0, tick_pairs_merged_ = 0;
	lateness_histogram all_, user_;
};

// The model's queue operations, kept, then fed to each design.
class hr_queue_feed {
public:
	// Queue numbers: cpu * HRTIMER_MAX_CLOCK_BASES + base index.
	void arm(std::uint32_t queue, std::uint32_t timer, std::int64_t expires);
	void remove(std::uint32_t queue, std::uint32_t timer);
	void expire(std::uint32_t queue, std::uint32_t timer, std::int64_t expires);
	std::vector<hrtimer_queue_figures> run(const std::vector<std::string> &designs);

private:
	enum class op_kind : std::uint8_t { arm, remove, expire };
	struct op {
		std::uint32_t queue;
		std::uint32_t timer;	// the replay's number; the queue's own after run()'s first pass
		std::int64_t expires;
		op_kind kind;
	};
	std::vector<op> ops_;
};

// Every what-if a replay was asked for, fed by the replay.
class hr_what_ifs {
public:
	// `hz`: the recording's, for the tick's grid; `name_of`: a callback's name.
	hr_what_ifs(unsigned cpus, const hr_what_if_options &opt, unsigned hz,
		    std::function<std::string(std::uint32_t)> name_of);

	// A timer's place: 0 not queued, else its queue number + 1.
	static std::uint32_t place_of(const kernel::hr::hrtimer &t);
	// The place of the queue `t` is (or was last) in.
	static std::uint32_t queue_of(const kernel::hr::hrtimer &t);

	void setup(std::uint32_t id, unsigned cpu, int clockid, unsigned mode, std::uint32_t function,
		   std::int64_t mono);
	// `in_interrupt`: the recording made it inside its timer interrupt
	// (between local_timer_entry and _exit where recorded, else the
	// RESTART: the start of the timer whose hrtimer_expire_exit was the
	// CPU's last event), where the kernel's interrupt programs the device
	// once for it and its own expiries.
	void start(std::uint32_t id, unsigned cpu, std::uint32_t function, std::int64_t soft, std::int64_t hard,
		   unsigned mode, std::int64_t mono, std::int64_t offs_real, bool in_interrupt = false);
	// `in_interrupt_of`: the CPU inside whose recorded timer interrupt it
	// was made (-1: none; without interrupt events none is known).
	void cancel(std::uint32_t id, std::int64_t mono, bool tick_pair = false, int in_interrupt_of = -1);
	// The recording's interrupt on CPU did something at MONO (the expiry
	// of timer `expired`, or its exit: UINT32_MAX): a deferred rearm waits
	// past it.
	void interrupt_activity(unsigned cpu, std::int64_t mono, std::uint32_t expired = UINT32_MAX);
	// The recorded expiry: `now` in the timer's clock, `soft` its recorded
	// softexpires (0: never started in the trace).
	void recorded_expiry(std::uint32_t id, std::uint32_t function, std::int64_t mono, std::int64_t now,
			     std::int64_t soft);
	// The replay's model moved timer `id` from place `before` to `after`.
	void moved(std::uint32_t id, std::uint32_t before, std::uint32_t after, std::int64_t expires);
	// The replay's model ran timer `id`, the first of its queue.
	void model_expired(std::uint32_t id, std::uint32_t place, std::int64_t expires);
	// `recorded_interrupts`: the trace's, all CPUs; `mono`: the trace's end.
	void finish(std::uint64_t recorded_interrupts, std::int64_t first_mono, std::int64_t mono,
		    hrtimer_summary &out);

private:
	bool user(std::uint32_t function);
	bool sleeper(std::uint32_t function);
	bool tick(std::uint32_t function);
	std::vector<hr_free_model *> models();

	hr_what_if_options opt_;
	unsigned cpus_;
	std::int64_t tick_nsec_;
	bool phase_known_ = false;
	std::function<std::string(std::uint32_t)> name_of_;
	std::vector<std::int8_t> user_, tick_, sleeper_;	// by callback id: -1 unknown
	std::unique_ptr<hr_free_model> baseline_, slack_, lowres_, v71_;
	std::unique_ptr<hr_queue_feed> queues_;
	lateness_histogram recorded_all_, recorded_user_;
	std::vector<std::int64_t> armed_mono_;	// by timer: its latest start's time
};

}  // namespace timersim
