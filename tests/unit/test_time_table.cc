// The `time` table (sim/replay/time_table.h): per callback and per CPU,
// ns, measured cells worked out by hand on a small trace, modelled cells
// that are the model's prices times the counts, rows that add up to the
// modelled whole, and the ranking by total.
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/check_main.h"
#include "tests/support/cli.h"
#include "tests/support/text_trace_util.h"
#include "tests/support/timer_run_fixture.h"

using namespace timersim::test;
using nlohmann::json;

namespace {

// The hand-worked TIMER run of tests/support/timer_run_fixture.h.
std::string hand_trace() { return ftrace_text(one_timer_run_body(), 1); }

const json &row_of(const json &t, const std::string &name)
{
	for (const json &row : t["callbacks"])
		if (row["function"] == name)
			return row;
	ck_abort_msg("no row %s", name.c_str());
	return t;
}

double ns(const json &cell) { return cell["ns"].get<double>(); }

}  // namespace

START_TEST(the_hand_worked_trace_in_nanoseconds)
{
	const std::string path = write_temp("time-table.txt", hand_trace());
	json j = replay_json({"--hz", "250", path});
	const json &t = j["time"];
	const json &pt = row_of(t, "process_timeout");
	ck_assert_double_eq(ns(pt["callbacks"]), 3000);
	ck_assert(!pt["callbacks"]["modelled"].get<bool>());
	// The interrupt at 1000 woke for it: 4 us less the tick's 2 us.
	ck_assert_uint_eq(pt["wakeups"].get<std::uint64_t>(), 1);
	ck_assert_double_eq(ns(pt["interrupts"]), 2000);
	const json &tcp = row_of(t, "tcp_write_timer");
	ck_assert_double_eq(ns(tcp["callbacks"]), 1000);
	ck_assert_double_eq(ns(tcp["interrupts"]), 0);
	const json &tick = row_of(t, "tick_nohz_handler");
	ck_assert(tick["hrtimer"].get<bool>());
	ck_assert_double_eq(ns(tick["callbacks"]), 2000);
	ck_assert_double_eq(ns(tick["interrupts"]), 0);
	// The interrupt at 1010 ran nothing: 2 us, a row of its own.
	const json &none = row_of(t, "(interrupts that ran no callback)");
	ck_assert_double_eq(ns(none["interrupts"]), 2000);
	ck_assert_uint_eq(none["wakeups"].get<std::uint64_t>(), 1);
	// Per CPU: overhead 6, callbacks 4, interrupts 4 + 2.
	const json &cpu = t["cpus"][0];
	ck_assert_double_eq(ns(cpu["timer_softirq"]), 6000);
	ck_assert_double_eq(ns(cpu["callbacks"]), 4000);
	ck_assert_double_eq(ns(cpu["interrupts"]), 6000);
	ck_assert_double_eq(ns(cpu["total"]), 16000);

	// Modelled cells: the start price times starts and cancels; every
	// softirq share plus what no callback holds is the modelled whole.
	const double price = ns(t["start_price"]);
	ck_assert(price > 0);
	ck_assert(pt["process"]["modelled"].get<bool>());
	ck_assert_double_eq_tol(ns(pt["process"]), price * double(pt["starts"].get<std::uint64_t>() +
								   pt["cancels"].get<std::uint64_t>()), 1.0);
	ck_assert(pt["process"]["low_ns"].get<double>() <= ns(pt["process"]) &&
		  ns(pt["process"]) <= pt["process"]["high_ns"].get<double>());
	double shares = 0;
	for (const json &row : t["callbacks"])
		if (!row["softirq"].is_null())
			shares += ns(row["softirq"]);
	ck_assert_double_eq_tol(shares, j["modelled"]["softirq_overhead_ns"].get<double>(), 2.0);
	// The total is the sum of its cells; rows go by total, most first.
	for (const json &row : t["callbacks"]) {
		double sum = 0;
		for (const char *k : {"process", "softirq", "callbacks", "interrupts"})
			if (!row[k].is_null())
				sum += ns(row[k]);
		ck_assert_double_eq_tol(ns(row["total"]), sum, 2.0);
	}
	for (std::size_t i = 1; i < t["callbacks"].size(); i++)
		ck_assert(ns(t["callbacks"][i - 1]["total"]) >= ns(t["callbacks"][i]["total"]));
}
END_TEST

// A recording: the measured cells are the measured section's figures.
START_TEST(a_recording_agrees_with_its_measured_section)
{
	json j = replay_json({"tests/data/sleep-net.txt.gz"});
	const json &t = j["time"];
	double callbacks = 0, interrupts = 0;
	for (const json &row : t["callbacks"]) {
		if (!row["callbacks"].is_null())
			callbacks += ns(row["callbacks"]);
		if (!row["interrupts"].is_null())
			interrupts += ns(row["interrupts"]);
	}
	std::uint64_t measured_callbacks = 0;
	for (const json &c : j["measured"]["callbacks"])
		measured_callbacks += c["total_ns"].get<std::uint64_t>();
	ck_assert_double_eq_tol(callbacks, double(measured_callbacks), 0.5);
	// Every interrupt's time less its callbacks' lands in one row:
	// interrupts + the callbacks run in hard irq = the interrupts' total.
	std::uint64_t in_irq = 0;
	for (const json &c : j["measured"]["callbacks"])
		if (c["in_hardirq"].get<std::uint64_t>() == c["count"].get<std::uint64_t>())
			in_irq += c["total_ns"].get<std::uint64_t>();
	const double total = j["measured"]["timer_interrupts"]["total_ns"].get<double>();
	ck_assert_msg(interrupts + double(in_irq) <= total * 1.0001 && interrupts + double(in_irq) >= total * 0.95,
		      "interrupts %.0f + callbacks in them %llu against %.0f", interrupts, (unsigned long long)in_irq, total);
}
END_TEST

// Every modelled cell of every row lies inside its own interval, on the
// recordings of this machine: a row made of what the shares leave (the
// softirq work of no callback) once printed ~0.090 (0.496..0.000) on
// idle-nohz, the whole's low less the shares' lows above the highs'.
START_TEST(every_modelled_cell_lies_in_its_interval)
{
	for (const char *path : {"tests/data/idle-nohz.txt.gz", "tests/data/measured-idle.txt.gz",
				 "tests/data/sleep-net.txt.gz", "tests/data/load.txt.gz"}) {
		json j = replay_json({path});
		for (const json &row : j["time"]["callbacks"])
			for (const char *cell : {"total", "process", "softirq"}) {
				const json &c = row[cell];
				if (c.is_null() || !c["modelled"].get<bool>())
					continue;
				const double v = c["ns"].get<double>(), lo = c["low_ns"].get<double>(),
					     hi = c["high_ns"].get<double>();
				ck_assert_msg(lo <= v + 1 && v <= hi + 1, "%s: %s %s: %.0f not in %.0f .. %.0f", path,
					      row["function"].get<std::string>().c_str(), cell, v, lo, hi);
			}
	}
}
END_TEST

int main()
{
	Suite *s = suite_create("time_table");
	TCase *tc = tcase_create("time_table");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, the_hand_worked_trace_in_nanoseconds);
	tcase_add_test(tc, a_recording_agrees_with_its_measured_section);
	tcase_add_test(tc, every_modelled_cell_lies_in_its_interval);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
