// The JSON report's `time` object: the timer code's time per callback and
// per CPU in ns (sim/replay/time_table.h). A cell is null where nothing
// recorded or priced it, else {ns, modelled} and, modelled, low_ns/high_ns.
// per_second: the same per second and CPU (time_table::per_second), flat
// rows of ns.
#include "sim/report/report_writers.h"

namespace timersim {

namespace {

void json_cell(json_writer &w, const char *key, const time_cell &c)
{
	w.key(key);
	if (!c.known) {
		w.null();
		return;
	}
	w.begin_object();
	w.field_fixed("ns", c.ns, 0);
	w.field("modelled", c.modelled);
	if (c.modelled) {
		w.field_fixed("low_ns", c.low, 0);
		w.field_fixed("high_ns", c.high, 0);
	}
	w.end_object();
}

void flat_ns(json_writer &w, const char *key, const time_cell &c)
{
	w.key(key);
	if (c.known)
		w.value_fixed(c.ns, 0);
	else
		w.null();
}

}  // namespace

void write_json_time(json_writer &w, const replay_report &r)
{
	const time_table &t = r.time;
	w.key("time");
	w.begin_object();
	json_cell(w, "start_price", t.start_price);
	w.field("start_price_from", t.start_price_from);
	w.field_fixed("seconds", t.seconds, 6);
	w.key("callbacks");
	w.begin_array();
	for (const time_row &row : t.callbacks) {
		w.begin_object();
		w.field("function", row.name);
		w.field("hrtimer", row.hrtimer);
		w.field("starts", row.starts);
		w.field("cancels", row.cancels);
		w.field("expiries", row.expiries);
		w.field("wakeups", row.wakeups);
		json_cell(w, "total", row.total);
		json_cell(w, "process", row.process);
		json_cell(w, "softirq", row.softirq);
		json_cell(w, "callbacks", row.callbacks);
		json_cell(w, "interrupts", row.interrupts);
		w.end_object();
	}
	w.end_array();
	w.key("cpus");
	w.begin_array();
	for (const cpu_time_row &row : t.cpus) {
		w.begin_object();
		w.field("cpu", std::uint64_t(row.cpu));
		json_cell(w, "total", row.total);
		json_cell(w, "timer_softirq", row.timer_softirq);
		json_cell(w, "hrtimer_softirq", row.hrtimer_softirq);
		json_cell(w, "callbacks", row.callbacks);
		json_cell(w, "interrupts", row.interrupts);
		w.end_object();
	}
	w.end_array();
	w.key("per_second");
	w.begin_array();
	// Flat rows (a second of a long trace on many CPUs is one of many):
	// measured ns (null where the trace recorded none), modelled ns with
	// its interval and parts (null where nothing priced it).
	for (const second_time_row &row : t.per_second) {
		w.begin_object();
		w.field("second", std::uint64_t(row.second));
		w.field("cpu", std::uint64_t(row.cpu));
		w.field_fixed("seconds", row.seconds, 6);
		w.field("jiffy", row.jiffy);
		flat_ns(w, "measured_ns", row.measured);
		flat_ns(w, "timer_softirq_ns", row.timer_softirq);
		flat_ns(w, "hrtimer_softirq_ns", row.hrtimer_softirq);
		flat_ns(w, "callbacks_ns", row.callbacks);
		flat_ns(w, "interrupts_ns", row.interrupts);
		flat_ns(w, "modelled_ns", row.modelled);
		w.key("modelled_low_ns");
		row.modelled.known ? w.value_fixed(row.modelled.low, 0) : w.null();
		w.key("modelled_high_ns");
		row.modelled.known ? w.value_fixed(row.modelled.high, 0) : w.null();
		flat_ns(w, "process_ns", row.process);
		flat_ns(w, "softirq_ns", row.softirq);
		w.end_object();
	}
	w.end_array();
	w.end_object();
}

}  // namespace timersim
