// The time table per second (sim/replay/time_table.h, per_second) and the
// HRTIMER softirq's overhead shared out over its callbacks, on a small
// hand-made trace whose figures are worked out below; and on a recording,
// the seconds adding up to the whole tables.
#include <cstdio>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/check_main.h"
#include "tests/support/cli.h"
#include "tests/support/text_trace_util.h"
#include "tests/support/timer_run_fixture.h"

using namespace timersim::test;
using nlohmann::json;

namespace {

std::string at(unsigned cpu, unsigned long long us, const char *what) { return ftrace_line(cpu, us, what); }

// HZ 250 (4 ms jiffies). CPU 0, times in us. Second 0 of the grid (the
// TIMER run of tests/support/timer_run_fixture.h):
//   1000 timer interrupt 4 us own (the tick's 2 us inside);
//   1005..1017 a TIMER run: 12 us less a 2 us interrupt inside = 10 us
//        own, 4 us of it callbacks (3 + 1): overhead 6 us
//   (interrupts 4 + 2 = 6 us)
// Two seconds later (jiffies 4294937797 is 500 jiffies on), second 2:
//   2001000..2001020 an HRTIMER run, 20 us own: callbacks pace_a 2 us,
//        pace_b 1 us, pace_a 4 us (7 us): overhead 13 us over the 3
//        callbacks: 4334, 4333, 4333 ns (the rest's ns to the first):
//        pace_a 8667 ns, pace_b 4333 ns
//   2001030..2001033 an HRTIMER run of no callback: 3 us
// So second 0: TIMER 6000, callbacks 4000, interrupts 6000 = 16000 ns
// measured; second 2: HRTIMER 16000, callbacks 7000 = 23000 ns.
std::string hand_trace()
{
	std::string b = one_timer_run_body();	// second 0
	// 2 s on: a start anchors the clock there (500 jiffies on).
	b += at(0, 2000006, "timer_start: timer=0000000011111111 function=process_timeout expires=4294937897 [timeout=100] cpu=0 idx=0 flags=");
	b += at(0, 2000006, "timer_expire_entry: timer=0000000033333333 function=delayed_work_timer_fn now=4294937797 baseclk=4294937797");
	b += at(0, 2000006, "timer_expire_exit: timer=0000000033333333");
	b += at(0, 2001000, "softirq_entry: vec=8 [action=HRTIMER]");
	b += at(0, 2001001, "hrtimer_expire_entry: hrtimer=00000000bbbbbbbb function=pace_a now=2001001000000");
	b += at(0, 2001003, "hrtimer_expire_exit: hrtimer=00000000bbbbbbbb");
	b += at(0, 2001004, "hrtimer_expire_entry: hrtimer=00000000cccccccc function=pace_b now=2001004000000");
	b += at(0, 2001005, "hrtimer_expire_exit: hrtimer=00000000cccccccc");
	b += at(0, 2001006, "hrtimer_expire_entry: hrtimer=00000000dddddddd function=pace_a now=2001006000000");
	b += at(0, 2001010, "hrtimer_expire_exit: hrtimer=00000000dddddddd");
	b += at(0, 2001020, "softirq_exit: vec=8 [action=HRTIMER]");
	b += at(0, 2001030, "softirq_entry: vec=8 [action=HRTIMER]");
	b += at(0, 2001033, "softirq_exit: vec=8 [action=HRTIMER]");
	return ftrace_text(b, 1);
}

const json &row_of(const json &t, const std::string &name)
{
	for (const json &row : t["callbacks"])
		if (row["function"] == name)
			return row;
	ck_abort_msg("no row %s", name.c_str());
	return t;
}

double ns(const json &cell) { return cell.is_null() ? 0.0 : cell["ns"].get<double>(); }
// A per-second row's figure (null: 0).
double v(const json &row, const char *key) { return row[key].is_null() ? 0.0 : row[key].get<double>(); }

}  // namespace

START_TEST(the_hrtimer_softirq_shared_over_its_callbacks)
{
	const std::string path = write_temp("time-seconds.txt", hand_trace());
	json j = replay_json({"--hz", "250", path});
	const json &t = j["time"];
	const json &a = row_of(t, "pace_a"), &b = row_of(t, "pace_b");
	ck_assert(a["hrtimer"].get<bool>());
	// Measured, not modelled: the runs' own time less their callbacks'.
	ck_assert(!a["softirq"]["modelled"].get<bool>());
	ck_assert_double_eq(ns(a["softirq"]), 8667);
	ck_assert_double_eq(ns(b["softirq"]), 4333);
	ck_assert_double_eq(ns(a["callbacks"]), 6000);
	ck_assert_double_eq(ns(a["total"]), 8667 + 6000);
	ck_assert_double_eq(ns(row_of(t, "(HRTIMER softirq runs of no callback)")["softirq"]), 3000);
	// Every ns of the HRTIMER overhead is in one row.
	ck_assert_double_eq(ns(t["cpus"][0]["hrtimer_softirq"]), 16000);
}
END_TEST

START_TEST(the_hand_worked_trace_per_second)
{
	const std::string path = write_temp("time-seconds.txt", hand_trace());
	json j = replay_json({"--hz", "250", path});
	const json &t = j["time"];
	std::map<unsigned, const json *> by_second;
	for (const json &row : t["per_second"]) {
		ck_assert_uint_eq(row["cpu"].get<unsigned>(), 0);
		by_second[row["second"].get<unsigned>()] = &row;
	}
	ck_assert_uint_eq(by_second.size(), 2);
	ck_assert(by_second.count(0) && by_second.count(2));
	const json &s0 = *by_second[0], &s2 = *by_second[2];
	ck_assert_double_eq(v(s0, "timer_softirq_ns"), 6000);
	ck_assert_double_eq(v(s0, "hrtimer_softirq_ns"), 0);
	ck_assert_double_eq(v(s0, "callbacks_ns"), 4000);
	ck_assert_double_eq(v(s0, "interrupts_ns"), 6000);
	ck_assert_double_eq(v(s0, "measured_ns"), 16000);
	ck_assert_double_eq(v(s2, "hrtimer_softirq_ns"), 16000);
	ck_assert_double_eq(v(s2, "callbacks_ns"), 7000);
	ck_assert_double_eq(v(s2, "interrupts_ns"), 0);
	ck_assert_double_eq(v(s2, "measured_ns"), 23000);
	// The second's trace time and first jiffy: the grid starts at the
	// trace's first jiffy, 500 jiffies (2 s at HZ 250) before second 2's.
	ck_assert_uint_eq(s2["jiffy"].get<std::uint64_t>() - s0["jiffy"].get<std::uint64_t>(), 500);
	ck_assert_double_eq_tol(s2["seconds"].get<double>() - s0["seconds"].get<double>(), 2.0, 1e-6);

	// Modelled: second 0 holds the two starts, second 2 the third, each at
	// the start price; the softirq work by the same model. The seconds'
	// modelled ns add up to the callback table's modelled cells.
	const double price = ns(t["start_price"]);
	ck_assert(price > 0);
	ck_assert_double_eq_tol(v(s0, "process_ns"), 2 * price, 1.5);
	ck_assert_double_eq_tol(v(s2, "process_ns"), 1 * price, 1.0);
	ck_assert(v(s0, "modelled_low_ns") <= v(s0, "modelled_ns") && v(s0, "modelled_ns") <= v(s0, "modelled_high_ns"));
	double seconds_softirq = 0;
	for (const json &row : t["per_second"])
		seconds_softirq += v(row, "softirq_ns");
	ck_assert_double_eq_tol(seconds_softirq, j["modelled"]["softirq_overhead_ns"].get<double>(), 0.5);
	ck_assert_double_eq_tol(v(s0, "modelled_ns"), v(s0, "process_ns") + v(s0, "softirq_ns"), 1.0);
}
END_TEST

// A recording: each CPU's seconds add up to its row of the CPU table, and
// the seconds' modelled ns to the modelled cells of the callback table.
START_TEST(a_recording_s_seconds_add_up)
{
	json j = replay_json({"tests/data/sleep-net.txt.gz"});
	const json &t = j["time"];
	std::map<unsigned, double> measured;
	double modelled = 0;
	unsigned last = 0;
	for (const json &row : t["per_second"]) {
		measured[row["cpu"].get<unsigned>()] += v(row, "measured_ns");
		modelled += v(row, "modelled_ns");
		ck_assert(row["second"].get<unsigned>() >= last);	// by second, then CPU
		last = row["second"].get<unsigned>();
	}
	ck_assert(t["per_second"].size() >= 4);	// 2.5 s on 2 CPUs
	for (const json &cpu : t["cpus"])
		ck_assert_double_eq_tol(measured[cpu["cpu"].get<unsigned>()], ns(cpu["total"]), 0.5);
	double cells = 0;
	for (const json &row : t["callbacks"]) {
		if (!row["process"].is_null())
			cells += ns(row["process"]);
		if (!row["softirq"].is_null() && row["softirq"]["modelled"].get<bool>())
			cells += ns(row["softirq"]);
	}
	ck_assert_double_eq_tol(modelled, cells, 1e-6 * cells + 2);
}
END_TEST

// compare's text prints every scheme's table, in replay's units: each
// scheme's softirq cell of process_timeout is its JSON's, in ms.
START_TEST(compare_prints_every_scheme_s_table)
{
	const std::vector<std::string> args = {"--schemes", "classic,v48", "--top", "50", "tests/data/sleep-net.txt.gz"};
	std::vector<std::string> text_args = {"compare"}, json_args = {"compare", "--json", "-"};
	text_args.insert(text_args.end(), args.begin(), args.end());
	json_args.insert(json_args.end(), args.begin(), args.end());
	cli_result text = run_timersim(text_args), js = run_timersim(json_args);
	ck_assert_msg(text.status == 0 && js.status == 0, "compare failed: %s", text.err.c_str());
	const json j = json::parse(js.out);
	unsigned seen = 0;
	for (const json &scheme : j["schemes"]) {
		const std::string name = scheme["scheme"]["name"].get<std::string>();
		const std::size_t at = text.out.find("\ntime of " + name + "  ");
		ck_assert_msg(at != std::string::npos, "no time table of %s", name.c_str());
		const std::size_t row = text.out.find("\n  process_timeout ", at);
		ck_assert(row != std::string::npos);
		const std::string line = text.out.substr(row + 1, text.out.find('\n', row + 1) - row - 1);
		const json &cell = row_of(scheme["time"], "process_timeout")["softirq"];
		char want[64];
		std::snprintf(want, sizeof want, "~%.3f (%.3f..%.3f)", ns(cell) / 1e6, cell["low_ns"].get<double>() / 1e6,
			      cell["high_ns"].get<double>() / 1e6);
		ck_assert_msg(line.find(want) != std::string::npos, "%s: %s not in '%s'", name.c_str(), want, line.c_str());
		seen++;
	}
	ck_assert_uint_eq(seen, 2);
}
END_TEST

// The timeline's time columns are the time table's seconds: at --interval
// 1s each row's are its second's; at 2s the two seconds' summed; rows of
// less than a second leave them empty.
std::vector<std::vector<std::string>> csv_rows(const std::string &text)
{
	std::vector<std::vector<std::string>> rows;
	std::size_t at = 0;
	while (at < text.size()) {
		const std::size_t end = text.find('\n', at);
		std::vector<std::string> cells;
		std::size_t c = at;
		for (;;) {
			const std::size_t comma = text.find(',', c);
			if (comma == std::string::npos || comma > end) {
				cells.push_back(text.substr(c, end - c));
				break;
			}
			cells.push_back(text.substr(c, comma - c));
			c = comma + 1;
		}
		rows.push_back(cells);
		at = end + 1;
	}
	return rows;
}

std::size_t column(const std::vector<std::string> &header, const std::string &name)
{
	for (std::size_t i = 0; i < header.size(); i++)
		if (header[i] == name)
			return i;
	ck_abort_msg("no column %s", name.c_str());
	return 0;
}

START_TEST(the_timeline_writes_the_seconds)
{
	const std::string dir = temp_subdir("timelines");
	const std::string t1 = dir + "/t1.csv", t2 = dir + "/t2.csv", t10 = dir + "/t10.csv";
	json j = replay_json({"--timeline", t1, "--interval", "1s", "tests/data/sleep-net.txt.gz"});
	std::map<std::pair<unsigned, std::uint64_t>, const json *> second;
	for (const json &row : j["time"]["per_second"])
		second[{row["cpu"].get<unsigned>(), row["jiffy"].get<std::uint64_t>()}] = &row;
	auto rows = csv_rows(read_whole_file(t1));
	const std::vector<std::string> head = rows.front();
	const std::size_t cpu = column(head, "cpu"), jiffy = column(head, "jiffy"), meas = column(head, "time_measured_ns"),
			  mod = column(head, "time_modelled_ns"), low = column(head, "time_modelled_low_ns"),
			  high = column(head, "time_modelled_high_ns");
	unsigned matched = 0;
	for (std::size_t i = 1; i < rows.size(); i++) {
		auto it = second.find({unsigned(std::stoul(rows[i][cpu])), std::stoull(rows[i][jiffy])});
		ck_assert_msg(it != second.end(), "row %zu: no such second", i);
		const json &s = *it->second;
		ck_assert_double_eq_tol(std::stod(rows[i][meas]), v(s, "measured_ns"), 0.5);
		ck_assert_double_eq_tol(std::stod(rows[i][mod]), v(s, "modelled_ns"), 0.5);
		ck_assert_double_eq_tol(std::stod(rows[i][low]), v(s, "modelled_low_ns"), 0.5);
		ck_assert_double_eq_tol(std::stod(rows[i][high]), v(s, "modelled_high_ns"), 0.5);
		matched++;
	}
	ck_assert_uint_eq(matched, second.size());

	replay_json({"--timeline", t2, "--interval", "2s", "tests/data/sleep-net.txt.gz"});
	rows = csv_rows(read_whole_file(t2));
	double first = 0;
	for (const auto &[key, s] : second)
		if (key.first == 0 && (*s)["second"].get<unsigned>() < 2)
			first += v(*s, "measured_ns");
	ck_assert_str_eq(rows[1][cpu].c_str(), "0");
	ck_assert_double_eq_tol(std::stod(rows[1][meas]), first, 0.5);

	replay_json({"--timeline", t10, "--interval", "10ms", "tests/data/sleep-net.txt.gz"});
	rows = csv_rows(read_whole_file(t10));
	ck_assert(rows.size() > 100);
	for (std::size_t i = 1; i < rows.size(); i++)
		ck_assert(rows[i][meas].empty() && rows[i][high].empty());
}
END_TEST

// Perfetto's counter track per CPU holds the same seconds: one sample per
// second of the time table, in ms, and a 0 after each CPU's last.
START_TEST(perfetto_counts_the_seconds)
{
	const std::string dir = temp_subdir("perfetto");
	json j = replay_json({"--perfetto", dir + "/p.json", "tests/data/sleep-net.txt.gz"});
	const json p = json::parse(read_whole_file(dir + "/p.json"));
	std::map<unsigned, std::vector<const json *>> samples;	// by pid, in file order
	for (const json &e : p["traceEvents"])
		if (e.value("name", "") == "timer time (ms in the second)")
			samples[e["pid"].get<unsigned>()].push_back(&e);
	std::map<unsigned, std::vector<const json *>> seconds;
	for (const json &row : j["time"]["per_second"])
		seconds[row["cpu"].get<unsigned>() + 1].push_back(&row);
	ck_assert_uint_eq(samples.size(), 2);
	for (const auto &[pid, rows] : seconds) {
		const std::vector<const json *> &got = samples[pid];
		ck_assert_uint_eq(got.size(), rows.size() + 1);	// sleep-net's seconds leave no gap
		for (std::size_t i = 0; i < rows.size(); i++) {
			const json &args = (*got[i])["args"];
			ck_assert_double_eq_tol(args["measured"].get<double>(), v(*rows[i], "measured_ns") / 1e6, 1e-6);
			ck_assert_double_eq_tol(args["modelled"].get<double>(), v(*rows[i], "modelled_ns") / 1e6, 1e-6);
			ck_assert_double_eq_tol(args["modelled high"].get<double>(), v(*rows[i], "modelled_high_ns") / 1e6, 1e-6);
			ck_assert_double_eq_tol((*got[i])["ts"].get<double>() / 1e6, (*rows[i])["seconds"].get<double>(), 1e-5);
		}
		ck_assert_double_eq((*got.back())["args"]["measured"].get<double>(), 0);
	}
}
END_TEST

int main()
{
	Suite *s = suite_create("time_per_second");
	TCase *tc = tcase_create("time_per_second");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, the_hrtimer_softirq_shared_over_its_callbacks);
	tcase_add_test(tc, the_hand_worked_trace_per_second);
	tcase_add_test(tc, a_recording_s_seconds_add_up);
	tcase_add_test(tc, compare_prints_every_scheme_s_table);
	tcase_add_test(tc, the_timeline_writes_the_seconds);
	tcase_add_test(tc, perfetto_counts_the_seconds);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
