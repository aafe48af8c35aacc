// The measured section of a replay, end to end through the raw text reader
// and the CLI: figures worked out by hand on a small trace, "not recorded"
// (null) where a trace has no softirq events, and the cost model fitted on
// one recording of this machine and checked on another, deterministically.
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/check_main.h"
#include "tests/support/cli.h"
#include "tests/support/text_trace_util.h"

using namespace timersim::test;
using nlohmann::json;

namespace {

std::string tick(unsigned cpu, unsigned long long us, const char *what)
{
	return ftrace_line(cpu, us, what);
}

// CPU 0, times in us:
//   1000 local_timer_entry; 1001-1003 the tick's hrtimer; 1004 exit   (timer irq 4 us)
//   1005 TIMER softirq_entry
//   1006-1009 process_timeout                                         (callback 3 us)
//   1010 local_timer_entry, 1012 local_timer_exit                     (irq 2 us, inside the run)
//   1013-1014 tcp_write_timer                                         (callback 1 us)
//   1017 softirq_exit                                                 (run 12 - 2 = 10 us own)
// so the run: 10 us, callbacks 4 us, overhead 6 us; timer irqs: 2, 6 us in all.
// CPU 1: a NET_RX softirq (vec 3), not the timer code's; no timer irq.
std::string hand_trace()
{
	std::string b;
	b += tick(0, 900, "timer_start: timer=0000000011111111 function=process_timeout expires=4294937297 [timeout=1] cpu=0 idx=0 flags=");
	b += tick(1, 905, "timer_start: timer=0000000022222222 function=tcp_write_timer expires=4294937297 [timeout=1] cpu=1 idx=0 flags=");
	b += tick(0, 1000, "local_timer_entry: vector=236");
	b += tick(0, 1001, "hrtimer_expire_entry: hrtimer=00000000aaaaaaaa function=tick_nohz_handler now=1001000000");
	b += tick(0, 1003, "hrtimer_expire_exit: hrtimer=00000000aaaaaaaa");
	b += tick(0, 1003, "softirq_raise: vec=1 [action=TIMER]");
	b += tick(0, 1004, "local_timer_exit: vector=236");
	b += tick(0, 1005, "softirq_entry: vec=1 [action=TIMER]");
	b += tick(0, 1006, "timer_cancel: timer=0000000011111111");
	b += tick(0, 1006, "timer_expire_entry: timer=0000000011111111 function=process_timeout now=4294937297 baseclk=4294937297");
	b += tick(0, 1009, "timer_expire_exit: timer=0000000011111111");
	b += tick(0, 1010, "local_timer_entry: vector=236");
	b += tick(0, 1012, "local_timer_exit: vector=236");
	b += tick(0, 1013, "timer_expire_entry: timer=0000000022222222 function=tcp_write_timer now=4294937297 baseclk=4294937297");
	b += tick(0, 1014, "timer_expire_exit: timer=0000000022222222");
	b += tick(0, 1017, "softirq_exit: vec=1 [action=TIMER]");
	b += tick(1, 1020, "softirq_entry: vec=3 [action=NET_RX]");
	b += tick(1, 1030, "softirq_exit: vec=3 [action=NET_RX]");
	return ftrace_text(b, 2);
}

}  // namespace

START_TEST(a_hand_worked_trace_measures_as_worked)
{
	std::string path = write_temp("measured.txt", hand_trace());
	json j = replay_json({"--hz", "250", path});
	const json &m = j["measured"];
	ck_assert(m["softirqs_recorded"].get<bool>());
	ck_assert(m["interrupts_recorded"].get<bool>());
	const json &run = m["timer_softirq"];
	ck_assert_uint_eq(run["count"].get<std::uint64_t>(), 1);
	ck_assert_uint_eq(run["total_ns"].get<std::uint64_t>(), 10000);
	ck_assert_uint_eq(run["callbacks_ns"].get<std::uint64_t>(), 4000);
	ck_assert_uint_eq(run["overhead_ns"].get<std::uint64_t>(), 6000);
	ck_assert_uint_eq(run["raised"].get<std::uint64_t>(), 1);
	ck_assert_uint_eq(m["hrtimer_softirq"]["count"].get<std::uint64_t>(), 0);
	const json &irq = m["timer_interrupts"];
	ck_assert_uint_eq(irq["count"].get<std::uint64_t>(), 2);
	ck_assert_uint_eq(irq["total_ns"].get<std::uint64_t>(), 6000);
	// Per CPU: all of it on CPU 0; CPU 1's NET_RX run is nobody's here.
	ck_assert_uint_eq(m["cpus"][0]["timer_softirq"]["count"].get<std::uint64_t>(), 1);
	ck_assert_uint_eq(m["cpus"][1]["timer_softirq"]["count"].get<std::uint64_t>(), 0);
	// The callbacks' own time; the first interrupt woke for process_timeout
	// (the tick ran for it), the second ran no callback.
	bool seen = false;
	for (const json &c : m["callbacks"])
		if (c["function"] == "process_timeout") {
			seen = true;
			ck_assert_uint_eq(c["total_ns"].get<std::uint64_t>(), 3000);
			ck_assert_uint_eq(c["in_timer_softirq"].get<std::uint64_t>(), 1);
			ck_assert_uint_eq(c["wakeups"].get<std::uint64_t>(), 1);
		}
	ck_assert(seen);
	// The callback table (functions[]): each callback's measured time and
	// its share of the 10 us TIMER softirq run: 3 us (30%) and 1 us (10%).
	unsigned found = 0;
	for (const json &f : j["functions"]) {
		double share = f["measured"]["share_of_timer_softirq"].get<double>();
		if (f["function"] == "process_timeout") {
			found++;
			ck_assert_uint_eq(f["measured"]["ns"].get<std::uint64_t>(), 3000);
			ck_assert_double_eq_tol(share, 0.3, 1e-9);
		} else if (f["function"] == "tcp_write_timer") {
			found++;
			ck_assert_uint_eq(f["measured"]["ns"].get<std::uint64_t>(), 1000);
			ck_assert_double_eq_tol(share, 0.1, 1e-9);
		}
		double units = f["softirq_share"].get<double>();
		ck_assert(units >= 0 && units <= 1);
	}
	ck_assert_uint_eq(found, 2);
	// The softirq shares and the work of no callback make the whole.
	double shares = 0;
	for (const json &f : j["functions"])
		shares += f["softirq_share"].get<double>();
	const json &soft = j["work"]["softirq"];
	double rest = double(j["work"]["softirq_unattributed"].get<std::uint64_t>()) /
		      double(soft["units"].get<std::uint64_t>());
	ck_assert_double_eq_tol(shares + rest, 1.0, 1e-5);
	ck_assert_uint_eq(m["wakeups"].get<std::uint64_t>(), 2);
	ck_assert_uint_eq(m["wakeups_without_expiry"].get<std::uint64_t>(), 1);
	ck_assert_uint_eq(j["events"]["softirq"].get<std::uint64_t>(), 5);
	ck_assert_uint_eq(j["events"]["irq"].get<std::uint64_t>(), 4);
}
END_TEST

START_TEST(a_trace_without_the_events_says_not_recorded)
{
	json j = replay_json({"tests/data/default-trace.txt.gz"});
	const json &m = j["measured"];
	ck_assert(!m["softirqs_recorded"].get<bool>());
	ck_assert(!m["interrupts_recorded"].get<bool>());
	ck_assert(m["timer_softirq"].is_null());
	ck_assert(m["timer_interrupts"].is_null());
	cli_result t = run_timersim({"replay", "tests/data/default-trace.txt.gz"});
	ck_assert_int_eq(t.status, 0);
	ck_assert(t.out.find("softirq runs      not recorded") != std::string::npos);
}
END_TEST

// Fitted on the network recording, checked on the idle one: the same
// inputs give the same model, byte for byte; every coefficient is a cost
// (never negative); v48 never cascades, so relinks are not fitted; the
// check covers every recorded TIMER run of the idle trace.
START_TEST(the_cost_model_fits_and_checks_deterministically)
{
	std::string dir = temp_subdir("model");
	std::vector<std::string> args = {"cost-model", "--fit", "tests/data/measured-network.txt.gz",
					 "--check", "tests/data/measured-idle.txt.gz", "--resamples", "50"};
	auto with = [&](const std::string &o, const std::string &js) {
		std::vector<std::string> a = args;
		a.insert(a.end(), {"-o", o, "--json", js});
		cli_result r = run_timersim(a);
		ck_assert_msg(r.status == 0, "cost-model failed: %s", r.err.c_str());
		return r;
	};
	cli_result one = with(dir + "/m1.json", dir + "/r1.json");
	with(dir + "/m2.json", dir + "/r2.json");
	ck_assert(read_whole_file(dir + "/m1.json") == read_whole_file(dir + "/m2.json"));
	ck_assert(read_whole_file(dir + "/r1.json") == read_whole_file(dir + "/r2.json"));
	json r = json::parse(read_whole_file(dir + "/r1.json"));
	for (const json &t : r["terms"]) {
		ck_assert(t["ns"].get<double>() >= 0);
		ck_assert(t["low"].get<double>() <= t["ns"].get<double>() + 1e-9);
		ck_assert(t["ns"].get<double>() <= t["high"].get<double>() + 1e-9);
		if (t["term"] == "relink" || t["term"] == "cold_relink")
			ck_assert(!t["fitted"].get<bool>());
		if (t["term"] == "run")
			ck_assert(t["fitted"].get<bool>() && t["ns"].get<double>() > 0);
	}
	ck_assert_uint_eq(r["recordings"].size(), 2);
	ck_assert(r["recordings"][0]["fitted_on"].get<bool>());
	ck_assert(!r["recordings"][1]["fitted_on"].get<bool>());
	ck_assert_uint_eq(r["recordings"][1]["runs"].get<std::uint64_t>(), 2835);
	ck_assert(one.out.find("check only") != std::string::npos);

	// The model in a replay: the prediction and the check run by run.
	json j = replay_json({"--cost-model", dir + "/m1.json", "tests/data/measured-idle.txt.gz"});
	ck_assert(j["modelled"]["softirq_overhead_ns"].get<double>() > 0);
	ck_assert_uint_eq(j["modelled"]["check"]["runs"].get<std::uint64_t>(), 2835);
}
END_TEST

START_TEST(a_trace_without_runs_cannot_be_fitted_on)
{
	cli_result r = run_timersim({"cost-model", "--fit", "tests/data/default-trace.txt.gz"});
	ck_assert_int_eq(r.status, 2);
	ck_assert(r.err.find("no TIMER softirq run recorded") != std::string::npos);
}
END_TEST

int main()
{
	Suite *s = suite_create("measured_replay");
	TCase *tc = tcase_create("measured_replay");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, a_hand_worked_trace_measures_as_worked);
	tcase_add_test(tc, a_trace_without_the_events_says_not_recorded);
	tcase_add_test(tc, the_cost_model_fits_and_checks_deterministically);
	tcase_add_test(tc, a_trace_without_runs_cannot_be_fitted_on);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
