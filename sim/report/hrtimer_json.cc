// The JSON report's `hrtimers` section: the hrtimer half of the trace
// replayed through the kernel's hrtimer model (sim/hrtimer/hr_replay.h),
// with its what-ifs and queue designs when asked for. The text is
// hrtimer_text.cc's and hrtimer_whatif_text.cc's.
#include "sim/base/json_fields.h"
#include "sim/report/report_writers.h"

namespace timersim {

template <> struct json_fields<hrtimer_callback_figures> {
	static constexpr auto fields = std::make_tuple(
		json_field("function", &hrtimer_callback_figures::function),
		json_field("starts", &hrtimer_callback_figures::starts),
		json_field("cancels", &hrtimer_callback_figures::cancels),
		json_field("expiries", &hrtimer_callback_figures::expiries),
		json_field("same_interrupt", &hrtimer_callback_figures::same_interrupt),
		json_field("wakeups", &hrtimer_callback_figures::wakeups));
};

// A CPU's, after its number (the vector's index).
template <> struct json_fields<hrtimer_cpu_figures> {
	static constexpr auto fields = std::make_tuple(
		json_field("recorded_interrupts", &hrtimer_cpu_figures::recorded_interrupts),
		json_field("predicted_interrupts", &hrtimer_cpu_figures::predicted_interrupts),
		json_field("both", &hrtimer_cpu_figures::both),
		json_field("recorded_trace_caused", &hrtimer_cpu_figures::recorded_trace_caused),
		json_field("predicted_trace_caused", &hrtimer_cpu_figures::predicted_trace_caused),
		json_field("lost_end_shown", &hrtimer_cpu_figures::lost_end_shown),
		json_field("lost_owner_ran", &hrtimer_cpu_figures::lost_owner_ran),
		json_field("idle_not_captured", &hrtimer_cpu_figures::idle_not_captured),
		json_field("idle_uncaptured", &hrtimer_cpu_figures::idle_uncaptured),
		json_field("idle_task_events", &hrtimer_cpu_figures::idle_task_events),
		json_field("tick_stops_inferred", &hrtimer_cpu_figures::tick_stops_inferred),
		json_field("device_programs", &hrtimer_cpu_figures::device_programs),
		json_field("recorded_programs", &hrtimer_cpu_figures::recorded_programs),
		json_field("programs_matched", &hrtimer_cpu_figures::programs_matched));
};

template <> struct json_fields<hrtimer_what_if_side> {
	static constexpr auto fields = std::make_tuple(
		json_field("interrupts", &hrtimer_what_if_side::interrupts),
		json_field("expiries", &hrtimer_what_if_side::expiries),
		json_field("device_programs", &hrtimer_what_if_side::device_programs),
		json_computed_fixed<hrtimer_what_if_side>("lateness_mean_ns",
			[](const hrtimer_what_if_side &s) { return s.lateness.mean_ns; }, 1),
		json_computed<hrtimer_what_if_side>("lateness_p99_ns",
			[](const hrtimer_what_if_side &s) { return std::uint64_t(s.lateness.p99_ns); }),
		json_computed<hrtimer_what_if_side>("lateness_max_ns",
			[](const hrtimer_what_if_side &s) { return std::uint64_t(s.lateness.max_ns); }));
};

template <> struct json_fields<hrtimer_what_if> {
	static constexpr auto fields = std::make_tuple(
		json_field("name", &hrtimer_what_if::name),
		json_field("setting", &hrtimer_what_if::setting),
		json_field("scope", &hrtimer_what_if::scope),
		json_field("ranges_changed", &hrtimer_what_if::ranges_changed),
		json_field("rt_zero_slack", &hrtimer_what_if::rt_zero_slack),
		json_field("rt_exact", &hrtimer_what_if::rt_exact),
		json_field("tick_pairs_merged", &hrtimer_what_if::tick_pairs_merged),
		json_field("ran_ahead", &hrtimer_what_if::ran_ahead),
		json_field("ticks", &hrtimer_what_if::ticks),
		json_object("recorded", &hrtimer_what_if::recorded),
		json_object("model", &hrtimer_what_if::model),
		json_object("what_if", &hrtimer_what_if::what_if));
};

// A design's costs, flat beside its figures.
template <> struct json_fields<hrq::queue_costs> {
	static constexpr auto fields = std::make_tuple(
		json_field("insertions", &hrq::queue_costs::insertions),
		json_field("removals", &hrq::queue_costs::removals),
		json_field("in_place", &hrq::queue_costs::in_place),
		json_field("comparisons", &hrq::queue_costs::comparisons),
		json_field("depth", &hrq::queue_costs::depth),
		json_field("max_depth", &hrq::queue_costs::max_depth),
		json_field("rotations", &hrq::queue_costs::rotations),
		json_field("slot_visits", &hrq::queue_costs::slot_visits),
		json_field("cascades", &hrq::queue_costs::cascades));
};

template <> struct json_fields<hrtimer_queue_figures> {
	static constexpr auto fields = std::make_tuple(
		json_field("design", &hrtimer_queue_figures::design),
		json_field("arms", &hrtimer_queue_figures::arms),
		json_field("removes", &hrtimer_queue_figures::removes),
		json_field("expiries", &hrtimer_queue_figures::expiries),
		json_field("order_mismatches", &hrtimer_queue_figures::order_mismatches),
		json_field("tie_reorders", &hrtimer_queue_figures::tie_reorders),
		json_field("remove_missed", &hrtimer_queue_figures::remove_missed),
		json_custom<hrtimer_queue_figures>([](json_writer &w, const hrtimer_queue_figures &q) {
			write_json_fields(w, q.costs);
		}));
};

// The section's own figures; the arrays and the model's counters follow
// (write_json_hrtimers).
template <> struct json_fields<hrtimer_summary> {
	static constexpr auto fields = std::make_tuple(
		json_field("irq_events", &hrtimer_summary::irq_events),
		json_field("timers", &hrtimer_summary::timers),
		json_field("starts", &hrtimer_summary::starts),
		json_field("cancels", &hrtimer_summary::cancels),
		json_field("rearms", &hrtimer_summary::rearms),
		json_field("cancels_in_expiry", &hrtimer_summary::cancels_in_expiry),
		json_field("starts_expired", &hrtimer_summary::starts_expired),
		json_field("rearm_events", &hrtimer_summary::rearm_events),
		// 7.1 only (the keys are absent on older kernels' traces): the
		// deferred rearm replayed, the recorded rearms judged.
		json_custom<hrtimer_summary>([](json_writer &w, const hrtimer_summary &h) {
			if (!h.deferred_rearm && !h.rearm_events)
				return;
			w.field("deferred_rearm", h.deferred_rearm);
			const hrtimer_rearm_figures &r = h.rearm;
			w.key("rearm");
			w.begin_object();
			w.field("recorded", r.recorded);
			w.field("deferred", r.deferred);
			w.field("matched", r.matched);
			w.field("trace_caused", r.untraced_timer);
			w.field("judged", r.judged());
			w.field_fixed("matched_fraction", r.judged() ? double(r.matched) / double(r.judged()) : 0.0, 6);
			w.key("misses");
			w.begin_object();
			w.field("no_model_interrupt", r.no_model_interrupt);
			w.field("untraced_timer", r.untraced_timer);
			w.field("model_earlier", r.model_earlier);
			w.field("model_later", r.model_later);
			w.end_object();
			w.field("model_deferred", r.model_deferred);
			w.field("by_recorded", r.by_recorded);
			w.end_object();
		}),
		json_field("expiries", &hrtimer_summary::expiries),
		json_field("same_interrupt", &hrtimer_summary::same_interrupt),
		json_field("other_interrupt", &hrtimer_summary::other_interrupt),
		json_field("late", &hrtimer_summary::late),
		json_field("not_armed", &hrtimer_summary::not_armed),
		// docs/fidelity.md: the arms the trace shows, the trace's misses apart.
		json_computed<hrtimer_summary>("traced_arms", [](const hrtimer_summary &h) { return h.traced_arms(); }),
		json_computed<hrtimer_summary>("traced_arms_same_interrupt",
			[](const hrtimer_summary &h) { return h.traced_arms_same(); }),
		json_computed_fixed<hrtimer_summary>("same_interrupt_fraction", [](const hrtimer_summary &h) {
			return h.traced_arms() ? double(h.traced_arms_same()) / double(h.traced_arms()) : 0.0;
		}, 6),
		json_field("simulated_only", &hrtimer_summary::simulated_only),
		// docs/fidelity.md: other_interrupt and late by cause.
		json_custom<hrtimer_summary>([](json_writer &w, const hrtimer_summary &h) {
			const hrtimer_miss_causes &m = h.miss_causes;
			w.key("miss_causes");
			w.begin_object();
			w.field("softirq_after_later_interrupt", m.softirq_after_later_interrupt);
			w.field("slack_order", m.slack_order);
			w.field("later_pass", m.later_pass);
			w.field("queued_on_other_cpu", m.queued_on_other_cpu);
			w.field("arm_not_captured", m.arm_not_captured);
			w.field("unexplained", m.unexplained);
			w.end_object();
			w.field("starts_while_running_elsewhere", h.starts_while_running_elsewhere);
		}),
		json_field("rearmed_untraced", &hrtimer_summary::rearmed_untraced),
		json_field("rearmed_untraced_same_interrupt", &hrtimer_summary::rearmed_untraced_same),
		json_field("tick_stops_inferred", &hrtimer_summary::tick_stops_inferred),
		json_field("tick_stops_recorded", &hrtimer_summary::tick_stops_recorded),
		json_field("tick_stops_refused", &hrtimer_summary::tick_stops_refused),
		json_field("tick_stops_applied", &hrtimer_summary::tick_stops_applied),
		json_field("tick_restarts_recorded", &hrtimer_summary::tick_restarts_recorded),
		json_field("idle_entries", &hrtimer_summary::idle_entries),
		json_field("idle_exits", &hrtimer_summary::idle_exits),
		json_custom<hrtimer_summary>([](json_writer &w, const hrtimer_summary &h) {
			w.key("untraced_tick_cpus");
			w.begin_array();
			for (unsigned c : h.untraced_tick_cpus)
				w.value(std::uint64_t(c));
			w.end_array();
		}),
		json_fixed("lateness_mean_ns", &hrtimer_summary::lateness_mean_ns, 1),
		json_computed<hrtimer_summary>("lateness_max_ns",
			[](const hrtimer_summary &h) { return std::uint64_t(h.lateness_max_ns); }),
		json_field("realtime_samples", &hrtimer_summary::realtime_samples),
		json_computed_fixed<hrtimer_summary>("realtime_offset_ns",
			[](const hrtimer_summary &h) { return double(h.realtime_offset_ns); }, 0),
		json_computed<hrtimer_summary>("realtime_spread_ns",
			[](const hrtimer_summary &h) { return std::uint64_t(h.realtime_spread_ns); }),
		json_custom<hrtimer_summary>([](json_writer &w, const hrtimer_summary &h) {
			w.key("cpus");
			w.begin_array();
			for (std::size_t c = 0; c < h.cpus.size(); c++) {
				w.begin_object();
				w.field("cpu", std::uint64_t(c));
				write_json_fields(w, h.cpus[c]);
				w.end_object();
			}
			w.end_array();
		}),
		json_array("callbacks", &hrtimer_summary::callbacks),
		// The kernel model's own work.
		json_custom<hrtimer_summary>([](json_writer &w, const hrtimer_summary &h) {
			w.key("model");
			w.begin_object();
			w.field("enqueues", h.enqueues);
			w.field("removals", h.removals);
			w.field("comparisons", h.comparisons);
			w.field("max_depth", h.max_depth);
			w.field("rotations", h.rotations);
			w.field("reprograms", h.reprograms);
			w.field("force_reprograms", h.force_reprograms);
			w.field("retries", h.retries);
			w.field("hangs", h.hangs);
			w.end_object();
		}));
};

void write_json_hrtimers(json_writer &w, const hrtimer_summary &h)
{
	w.key("hrtimers");
	if (!h.present) {
		w.null();
		return;
	}
	w.begin_object();
	write_json_fields(w, h);
	write_json_hrtimer_what_ifs(w, h);
	w.end_object();
}

void write_json_hrtimer_what_ifs(json_writer &w, const hrtimer_summary &h)
{
	if (!h.what_ifs.empty()) {
		w.key("what_ifs");
		w.begin_array();
		for (const hrtimer_what_if &x : h.what_ifs)
			write_json_object(w, x);
		w.end_array();
	}
	if (!h.queues.empty()) {
		w.key("queues");
		w.begin_array();
		for (const hrtimer_queue_figures &q : h.queues)
			write_json_object(w, q);
		w.end_array();
	}
}

}  // namespace timersim
