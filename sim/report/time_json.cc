// The JSON report's `time` object: the timer code's time per callback and
// per CPU in ns (sim/replay/time_table.h). A cell is null where nothing
// recorded or priced it, else {ns, modelled} and, modelled, low_ns/high_ns.
// per_second: the same per second and CPU (time_table::per_second), flat
// rows of ns.
#include "sim/base/json_fields.h"
#include "sim/report/report_writers.h"

namespace timersim {

// The field tables (sim/base/json_fields.h).

template <> struct json_fields<time_cell> {
	static constexpr auto fields = std::make_tuple(
		json_fixed("ns", &time_cell::ns, 0),
		json_field("modelled", &time_cell::modelled),
		json_custom<time_cell>([](json_writer &w, const time_cell &c) {
			if (c.modelled) {
				w.field_fixed("low_ns", c.low, 0);
				w.field_fixed("high_ns", c.high, 0);
			}
		}));
};

namespace {

// A cell of S under KEY: its object, or null where nothing recorded or
// priced it.
template <class S> constexpr auto json_cell(std::string_view key, time_cell S::*cell)
{
	return json_custom<S>([key, cell](json_writer &w, const S &s) {
		const time_cell &c = s.*cell;
		w.key(key);
		if (c.known)
			write_json_object(w, c);
		else
			w.null();
	});
}

// A cell of S under KEY as a flat number of ns (a second's row: one of
// many on a long trace), null where nothing recorded or priced it; BOUND
// (low or high) the modelled interval's end instead.
enum class flat_part { ns, low, high };
template <class S>
constexpr auto json_flat_ns(std::string_view key, time_cell S::*cell, flat_part part = flat_part::ns)
{
	return json_custom<S>([key, cell, part](json_writer &w, const S &s) {
		const time_cell &c = s.*cell;
		w.key(key);
		if (c.known)
			w.value_fixed(part == flat_part::low ? c.low : part == flat_part::high ? c.high : c.ns, 0);
		else
			w.null();
	});
}

}  // namespace

template <> struct json_fields<time_row> {
	static constexpr auto fields = std::make_tuple(
		json_field("function", &time_row::name),
		json_field("hrtimer", &time_row::hrtimer),
		json_field("starts", &time_row::starts),
		json_field("cancels", &time_row::cancels),
		json_field("expiries", &time_row::expiries),
		json_field("wakeups", &time_row::wakeups),
		json_cell("total", &time_row::total),
		json_cell("process", &time_row::process),
		json_cell("softirq", &time_row::softirq),
		json_cell("callbacks", &time_row::callbacks),
		json_cell("interrupts", &time_row::interrupts));
};

template <> struct json_fields<cpu_time_row> {
	static constexpr auto fields = std::make_tuple(
		json_field("cpu", &cpu_time_row::cpu),
		json_cell("total", &cpu_time_row::total),
		json_cell("timer_softirq", &cpu_time_row::timer_softirq),
		json_cell("hrtimer_softirq", &cpu_time_row::hrtimer_softirq),
		json_cell("callbacks", &cpu_time_row::callbacks),
		json_cell("interrupts", &cpu_time_row::interrupts));
};

// Measured ns (null where the trace recorded none), modelled ns with its
// interval and parts (null where nothing priced it).
template <> struct json_fields<second_time_row> {
	static constexpr auto fields = std::make_tuple(
		json_field("second", &second_time_row::second),
		json_field("cpu", &second_time_row::cpu),
		json_fixed("seconds", &second_time_row::seconds, 6),
		json_field("jiffy", &second_time_row::jiffy),
		json_flat_ns("measured_ns", &second_time_row::measured),
		json_flat_ns("timer_softirq_ns", &second_time_row::timer_softirq),
		json_flat_ns("hrtimer_softirq_ns", &second_time_row::hrtimer_softirq),
		json_flat_ns("callbacks_ns", &second_time_row::callbacks),
		json_flat_ns("interrupts_ns", &second_time_row::interrupts),
		json_flat_ns("modelled_ns", &second_time_row::modelled),
		json_flat_ns("modelled_low_ns", &second_time_row::modelled, flat_part::low),
		json_flat_ns("modelled_high_ns", &second_time_row::modelled, flat_part::high),
		json_flat_ns("process_ns", &second_time_row::process),
		json_flat_ns("softirq_ns", &second_time_row::softirq));
};

template <> struct json_fields<time_table> {
	static constexpr auto fields = std::make_tuple(
		json_cell("start_price", &time_table::start_price),
		json_field("start_price_from", &time_table::start_price_from),
		json_fixed("seconds", &time_table::seconds, 6),
		json_array("callbacks", &time_table::callbacks),
		json_array("cpus", &time_table::cpus),
		json_array("per_second", &time_table::per_second),
		json_custom<time_table>([](json_writer &w, const time_table &t) {
			if (t.per_second_cut)
				w.field("per_second_cut", true);
		}));
};

void write_json_time(json_writer &w, const replay_report &r)
{
	w.key("time");
	write_json_object(w, r.time);
}

}  // namespace timersim
