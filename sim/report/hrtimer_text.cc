// The text report's `hrtimers` section: the hrtimer half of the trace
// replayed through the kernel's hrtimer model (sim/hrtimer/hr_replay.h).
// Its JSON is hrtimer_json.cc's.
#include <fmt/format.h>

#include "sim/report/report_writers.h"
#include "sim/report/text_table.h"

namespace timersim {

namespace {

// The re-arms the kernel made with no event traced, apart: the model was
// told them at the expiry, so the rate over the traced arms alone is the
// one that tests it.
std::string text_untraced_rearms(const hrtimer_summary &h)
{
	if (!h.rearmed_untraced && !h.tick_stops_inferred)
		return "";
	std::string out = "  untraced " + num(h.rearmed_untraced) +
			  " expiries of timers re-armed with no event traced (told to the model at the "
			  "expiry; " +
			  num(h.rearmed_untraced_same) + " then in the same interrupt); over the traced arms " +
			  num(h.same_interrupt - h.rearmed_untraced_same) + " of " +
			  num(h.expiries - h.rearmed_untraced) + " (" +
			  percent(h.same_interrupt - h.rearmed_untraced_same, h.expiries - h.rearmed_untraced) +
			  ")\n";
	if (!h.untraced_tick_cpus.empty()) {
		const bool one = h.untraced_tick_cpus.size() == 1;
		std::string cpus;
		for (unsigned c : h.untraced_tick_cpus)
			cpus += (cpus.empty() ? "" : ", ") + num(c);
		out += std::string(one ? "           the tick of CPU " : "           the ticks of CPUs ") + cpus +
		       (one ? " stops and restarts" : " stop and restart") + " with no event traced: " +
		       num(h.tick_stops_inferred) +
		       " stops inferred (the CPU went past the model's tick without it)\n";
	}
	return out;
}

// The model's interrupts the recording lost, by what shows it
// (hrtimer_cpu_figures: lost_end_shown, lost_owner_ran, idle_not_captured),
// and the CPUs whose idle the capture lacks.
std::string text_lost_interrupts(const hrtimer_summary &h, const hrtimer_cpu_figures &all)
{
	if (!all.predicted_trace_caused)
		return "";
	std::string out = "  lost by what shows it: the timer set up or started anew " + num(all.lost_end_shown) +
			  ", its task ran again " + num(all.lost_owner_ran) + ", its CPU's idle not captured " +
			  num(all.idle_not_captured) + "\n";
	std::uint64_t others = 0;
	for (const hrtimer_cpu_figures &f : h.cpus)
		others += f.idle_task_events;
	for (std::size_t c = 0; c < h.cpus.size(); c++) {
		const hrtimer_cpu_figures &f = h.cpus[c];
		if (f.idle_uncaptured)
			out += "  CPU " + num(c) + ": its idle not captured: no event of its idle task (the other CPUs' " +
			       num(others) + "), its tick stopped " + num(f.tick_stops_inferred) +
			       " times with no event traced\n";
	}
	return out;
}

// The NOHZ tick's stops, recorded (tick_stop) and inferred, where the
// trace records any.
std::string text_tick_stops(const hrtimer_summary &h)
{
	if (!h.tick_stops_recorded && !h.tick_stops_refused)
		return "";
	std::string out = "  tick stops  " + num(h.tick_stops_recorded) + " recorded (tick_stop), " +
			  num(h.tick_stops_inferred) + " inferred; " + num(h.tick_restarts_recorded) +
			  " restarts after a recorded stop";
	if (h.tick_stops_applied)
		out += "; " + num(h.tick_stops_applied) + " recorded stops with the tick's own event not traced";
	if (h.tick_stops_refused)
		out += "; " + num(h.tick_stops_refused) + " refused by a tick dependency";
	if (h.idle_entries)
		out += "; " + num(h.idle_entries) + " idle entries (cpu_idle)";
	return out + "\n";
}

}  // namespace

std::string text_hrtimer_section(const hrtimer_summary &h, unsigned top)
{
	if (!h.present)
		return "";
	std::string out = "\nhrtimers  the trace's hrtimers replayed through the kernel's hrtimer model "
			  "(clock bases, timerqueues, the clockevent device)\n";
	out += "  events  " + num(h.timers) + " timers, " + num(h.starts) + " starts, " + num(h.cancels) +
	       " cancels, " + num(h.rearms) + " re-arms (cancel + start), " + num(h.cancels_in_expiry) +
	       " cancels that were part of an expiry" +
	       (h.starts_expired ? ", " + num(h.starts_expired) + " starts already expired (taken off unrun)" : "") +
	       "\n";
	out += "  fidelity " + num(h.expiries) + " recorded expiries: " + num(h.same_interrupt) +
	       " run by the model in the same interrupt (" + percent(h.same_interrupt, h.expiries) + "), " +
	       num(h.other_interrupt) + " in another, " + num(h.late) + " not yet due in the model, " +
	       num(h.not_armed) + " never armed in it; " + num(h.simulated_only) +
	       " model expiries the recording did not make\n";
	if (h.other_interrupt + h.late) {
		const hrtimer_miss_causes &m = h.miss_causes;
		out += "  misses by cause: softirq run after a later interrupt " + num(m.softirq_after_later_interrupt) +
		       ", earlier in its slack range " + num(m.slack_order) + ", the interrupt's later pass " +
		       num(m.later_pass) + ", queued on another CPU " + num(m.queued_on_other_cpu) + ", unexplained " +
		       num(m.unexplained) + "; the trace's: an arm not captured " + num(m.arm_not_captured) + "\n";
	}
	out += text_untraced_rearms(h);
	out += text_tick_stops(h);
	// docs/fidelity.md: the misses the trace causes apart.
	out += "  judged on the arms the trace shows (less " + num(h.not_armed) + " armed before the trace, " +
	       num(h.rearmed_untraced) + " re-armed untraced" +
	       (h.miss_causes.arm_not_captured ? ", " + num(h.miss_causes.arm_not_captured) + " of an arm not captured"
					       : "") +
	       "): " + num(h.traced_arms_same()) + " of " +
	       num(h.traced_arms()) + " in the same interrupt (" + percent(h.traced_arms_same(), h.traced_arms()) +
	       ")\n";
	if (h.lateness_count)
		out += fmt::format("  lateness behind softexpires: mean {:.1f} us, max {:.1f} us\n",
				   h.lateness_mean_ns / 1e3, double(h.lateness_max_ns) / 1e3);
	if (h.realtime_samples)
		out += fmt::format("  REALTIME is CLOCK_MONOTONIC + {} ns ({} interrupts with both, "
				   "spread {} ns)\n",
				   h.realtime_offset_ns, h.realtime_samples, h.realtime_spread_ns);
	text_table t("  ");
	// hrtimer_rearm (2026 kernels) records the device's programmings.
	const bool rearms = h.rearm_events;
	std::vector<std::string> head = {"interrupts", "recorded", "predicted", "both", "the trace's",
					 "lost", "device programs"};
	if (rearms) {
		head.push_back("recorded programs");
		head.push_back("same time");
	}
	t.row(head);
	hrtimer_cpu_figures all;
	auto row = [&](const std::string &name, const hrtimer_cpu_figures &f) {
		std::vector<std::string> r = {name, num(f.recorded_interrupts), num(f.predicted_interrupts),
					      num(f.both), num(f.recorded_trace_caused), num(f.predicted_trace_caused),
					      num(f.device_programs)};
		if (rearms) {
			r.push_back(num(f.recorded_programs));
			r.push_back(num(f.programs_matched));
		}
		t.row(r);
	};
	for (std::size_t c = 0; c < h.cpus.size(); c++) {
		const hrtimer_cpu_figures &f = h.cpus[c];
		row("CPU " + num(c), f);
		all.recorded_interrupts += f.recorded_interrupts;
		all.predicted_interrupts += f.predicted_interrupts;
		all.both += f.both;
		all.recorded_trace_caused += f.recorded_trace_caused;
		all.predicted_trace_caused += f.predicted_trace_caused;
		all.lost_end_shown += f.lost_end_shown;
		all.lost_owner_ran += f.lost_owner_ran;
		all.idle_not_captured += f.idle_not_captured;
		all.device_programs += f.device_programs;
		all.recorded_programs += f.recorded_programs;
		all.programs_matched += f.programs_matched;
	}
	row("all", all);
	out += t.render();
	out += text_lost_interrupts(h, all);
	// The figure: the model's interrupts against the recorded ones it
	// could have predicted.
	const std::uint64_t judged = all.recorded_interrupts - all.recorded_trace_caused;
	const std::uint64_t predicted = all.predicted_interrupts - all.predicted_trace_caused;
	if (judged && (all.recorded_trace_caused || all.predicted_trace_caused))
		out += fmt::format("  predicted {} ({} less {} lost) against the {} recorded less the trace's {}: {:+.2f}%\n",
				   predicted, all.predicted_interrupts, all.predicted_trace_caused, judged,
				   all.recorded_trace_caused,
				   100.0 * (double(predicted) - double(judged)) / double(judged));
	// The same with only the interrupts a later event of the trace shows
	// lost counted apart (not those of a CPU whose idle is missing).
	if (judged && all.idle_not_captured)
		out += fmt::format("  (less only those a later event shows lost: {} against {}: {:+.2f}%)\n",
				   predicted + all.idle_not_captured, judged,
				   100.0 * (double(predicted + all.idle_not_captured) - double(judged)) / double(judged));
	out += std::string("  (recorded: ") +
	       (h.irq_events ? "the timer interrupts the trace recorded"
			     : "runs of hard expiries with one now on a CPU; the trace has no timer "
			       "interrupt events") +
	       "; predicted: the model's device came due; the trace's: recorded, not predicted, and the "
	       "first timer they ran was armed before the trace or re-armed untraced; lost: predicted, not "
	       "recorded, and a timer they ran the trace shows ended with no event (a later hrtimer_setup, "
	       "or hrtimer_start was_armed=0, of a timer last seen started; a timer set up or started in "
	       "the kernel stack it lies in once it was due), or on a CPU whose idle the capture lacks" +
	       (rearms ? "; recorded programs: hrtimer_rearm, same time: the model's device was set for its "
			 "next_event then"
		       : "") +
	       ")\n";
	// 7.1: the deferred rearm replayed, and the recorded rearms judged.
	if (h.deferred_rearm || rearms) {
		const hrtimer_rearm_figures &r = h.rearm;
		if (h.deferred_rearm)
			out += "  7.1 rules: the model's interrupts defer their rearm to the interrupt's end (" +
			       num(r.model_deferred) + " deferred rearms, " + num(r.by_recorded) +
			       " closed at a recorded one)\n";
		if (rearms)
			out += "  hrtimer_rearm judged: " + num(r.matched) + " of " + num(r.judged()) +
			       " set the model's device for the same time (" + percent(r.matched, r.judged()) +
			       "; " + num(r.recorded) + " recorded, " + num(r.deferred) + " deferred, less " +
			       num(r.untraced_timer) + " for timers the trace did not show armed); misses: " +
			       num(r.no_model_interrupt) + " no model interrupt, " + num(r.model_earlier) +
			       " model earlier, " + num(r.model_later) + " model later\n";
	}
	text_table cb("  ");
	cb.row({"callback", "starts", "cancels", "expiries", "same interrupt", "model wakeups"});
	for (std::size_t i = 0; i < h.callbacks.size() && i < top; i++) {
		const hrtimer_callback_figures &f = h.callbacks[i];
		cb.row({f.function, num(f.starts), num(f.cancels), num(f.expiries), num(f.same_interrupt),
			num(f.wakeups)});
	}
	out += cb.render();
	out += "  model   " + num(h.enqueues) + " enqueues, " + num(h.removals) + " removals, " +
	       num(h.comparisons) + " comparisons (deepest " + num(h.max_depth) + "), " +
	       num(h.rotations) + " rotations, " + num(h.reprograms) + " reprograms (" +
	       num(h.force_reprograms) + " forced), " + num(h.retries) + " retries, " + num(h.hangs) +
	       " hangs\n";
	out += text_hrtimer_what_ifs(h);
	return out;
}

}  // namespace timersim
