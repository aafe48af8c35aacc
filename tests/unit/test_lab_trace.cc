// `timersim step --trace`: a window of a real recording through the replay,
// its picture read off the replay's own wheel. Cross-checked against the
// lab wheel: with every jiffy ticked (the replay contract's rule), a lab
// wheel given the same statements holds, after every step, exactly the
// slots and timers the replay's wheel holds. A recorded expiry the wheel
// had not reached (`late`) is expired as the replay does.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sim/base/errors.h"
#include "sim/lab/trace_window.h"
#include "tests/support/cli.h"
#include "tests/support/paths.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"

using namespace timersim;
using namespace timersim::lab;

namespace {

bool contains(const std::string &hay, const std::string &needle) { return hay.find(needle) != std::string::npos; }

const std::string bundled = "tests/data/default-trace.txt.gz";	// Linux 6.18, HZ 250, 2 CPUs

trace_window_options options(const std::string &path, const std::string &scheme, unsigned cpu)
{
	trace_window_options o;
	o.path = path;
	o.scheme = scheme;
	o.cpu = cpu;
	return o;
}

std::vector<step_record> records_of(const trace_window_options &o, trace_window_summary *summary = nullptr)
{
	std::vector<step_record> records;
	trace_window_summary s =
		run_trace_window(o, [](const wheel_setup &, const std::string &) {},
				 [&](const step_record &r) { records.push_back(r); });
	if (summary)
		*summary = s;
	return records;
}

// Every slot as "level[slot]: A B C".
std::vector<std::string> slots_of(const wheel_snapshot &s)
{
	std::vector<std::string> out;
	for (const snapshot_base &b : s.bases)
		for (const snapshot_level &l : b.levels)
			for (const snapshot_slot &sl : l.slots) {
				std::string line = b.name + " " + l.name + "[" + std::to_string(sl.slot) + "]:";
				for (const snapshot_timer &t : sl.timers)
					line += " " + t.name;
				out.push_back(line);
			}
	return out;
}

// The statements of the records, again, on a lab wheel of the same set-up:
// the same slots after every step.
void lab_wheel_agrees(trace_window_options o, std::uint64_t to)
{
	o.ticks = tick_mode::every_jiffy;
	o.to = to;
	std::unique_ptr<lab_wheel> lab;
	unsigned steps = 0, placed = 0;
	run_trace_window(
		o, [&](const wheel_setup &w, const std::string &) { lab = make_lab_wheel(w); },
		[&](const step_record &r) {
			std::vector<wheel_event> ignored;
			// A recorded expiry: the base processed its jiffy first.
			const bool through = contains(r.text, "timer_expire_entry");
			const std::uint64_t upto = r.at - (through ? 0 : 1);
			if (upto + 1 > lab->now())
				lab->run_to(upto, ignored);
			for (const wheel_event &e : r.events) {
				if (e.kind == wheel_event_kind::placed) {
					arm_options exact;
					exact.exact = true;
					lab->arm(e.timer, e.requested, exact, false, ignored);
					placed++;
				} else if (e.kind == wheel_event_kind::deleted) {
					lab->del(e.timer, ignored);
				}
			}
			ck_assert_msg(slots_of(lab->snapshot()) == slots_of(r.after), "%s cpu %u, after '%s': the lab wheel differs",
				      o.path.c_str(), o.cpu, r.text.c_str());
			steps++;
		});
	ck_assert_msg(steps > 100 && placed > 50, "%s cpu %u: %u steps, %u placed", o.path.c_str(), o.cpu, steps, placed);
}

}  // namespace

START_TEST(the_lab_wheel_holds_what_the_replay_holds)
{
	for (unsigned cpu : {0u, 1u})
		lab_wheel_agrees(options(bundled, "classic", cpu), 4295062500);
	std::string path = test::shared_trace("linux-3.6-scp_dest/trace.txt");
	if (path.empty())
		test::skip_note("../shared/traces/linux-3.6-scp_dest not found: its lab-wheel check skipped");
	else
		lab_wheel_agrees(options(path, "classic", 0), 4298032000);
}
END_TEST

START_TEST(a_window_of_the_bundled_trace)
{
	for (const char *scheme : {"classic", "v48"})
		for (unsigned cpu : {0u, 1u}) {
			trace_window_options o = options(bundled, scheme, cpu);
			o.from = 4295061000;
			o.to = 4295062000;
			trace_window_summary s;
			std::vector<step_record> records = records_of(o, &s);
			ck_assert_msg(records.size() > 10 && !s.fired.empty(), "%s cpu %u: %zu steps, %zu fired", scheme, cpu,
				      records.size(), s.fired.size());
			for (const step_record &r : records) {
				ck_assert_msg(r.at >= 4295061000 && r.at <= 4295062000, "%s: step at %llu", scheme,
					      static_cast<unsigned long long>(r.at));
				for (const wheel_event &e : r.events)
					ck_assert(e.jiffy >= 4295061000 && e.jiffy <= 4295062000);
			}
		}
}
END_TEST

START_TEST(the_3_6_recording_is_nearly_all_exact)
{
	std::string path = test::shared_trace("linux-3.6-scp_dest/trace.txt");
	if (path.empty()) {
		test::skip_note("../shared/traces/linux-3.6-scp_dest not found: its window not stepped");
		return;
	}
	trace_window_options o = options(path, "classic", 0);
	o.from = 4298031000;
	o.to = 4298032000;
	unsigned exact = 0, judged = 0;
	for (const step_record &r : records_of(o))
		if (contains(r.text, "(recorded):")) {
			judged++;
			exact += contains(r.text, ": exact");
		}
	ck_assert_msg(judged > 50 && exact * 100 >= judged * 98, "%u of %u exact", exact, judged);
}
END_TEST

// A recorded expiry before the wheel's: late, and expired as recorded.
START_TEST(a_late_expiry_is_expired_as_recorded)
{
	std::string body =
		"          <idle>-0     [000] ..s.   100.000000: timer_start: timer=ffff880000001000 "
		"function=process_timeout expires=4295000010 [timeout=10]\n"
		"          <idle>-0     [000] ..s.   100.000001: timer_start: timer=ffff880000002000 "
		"function=process_timeout expires=4295000008 [timeout=8]\n"
		"          <idle>-0     [000] ..s.   100.020000: timer_expire_entry: timer=ffff880000001000 "
		"function=process_timeout now=4295000005\n"
		"          <idle>-0     [000] ..s.   100.040000: timer_expire_entry: timer=ffff880000002000 "
		"function=process_timeout now=4295000008\n";
	std::string path = test::write_temp("late.txt", test::ftrace_text(body, 1));
	trace_window_summary s;
	std::vector<step_record> records = records_of(options(path, "classic", 0), &s);
	ck_assert_uint_eq(records.size(), 4);
	ck_assert(contains(records[0].text, "timer_start process_timeout expires 4295000010"));
	ck_assert(contains(records[1].text, "timer_start process_timeout.2 expires 4295000008"));
	ck_assert(contains(records[2].text, "jiffy 4295000005: timer_expire_entry process_timeout (recorded): "
					    "the wheel still holds it: late"));
	ck_assert(records[2].events.size() == 1 && records[2].events[0].kind == wheel_event_kind::deleted);
	ck_assert(records[2].events[0].level == "tv1" && records[2].events[0].slot == 202);
	ck_assert(contains(records[3].text, "process_timeout.2 (recorded): the wheel fired it in this jiffy: exact"));
	ck_assert_uint_eq(records[3].after.pending(), 0);
	ck_assert(s.fired.size() == 1 && s.fired[0].first == "process_timeout.2" && s.fired[0].second == 4295000008);
}
END_TEST

START_TEST(bad_windows_are_usage_errors)
{
	bool threw = false;
	try {
		trace_window_text(options(bundled, "classic", 2));
	} catch (const usage_error &e) {
		threw = contains(e.what(), "the trace has 2 CPUs");
	}
	ck_assert(threw);

	test::cli_result r =
		test::run_timersim({"step", "--trace", bundled, "--from", "4295062000", "--to", "4295061000"});
	ck_assert_int_eq(r.status, 2);
	ck_assert(contains(r.err, "is after --to"));
	r = test::run_timersim({"step", "--trace", "/nonexistent/trace.txt"});
	ck_assert_int_eq(r.status, 2);
	r = test::run_timersim({"step", "docs/lab/scenarios/nohz.txt", "--trace", bundled});
	ck_assert_int_eq(r.status, 2);
	ck_assert(contains(r.err, "not both"));
	r = test::run_timersim({"step", "--trace", bundled, "--ticks", "sometimes"});
	ck_assert_int_eq(r.status, 2);

	r = test::run_timersim({"step", "--trace", bundled, "--cpu", "1", "--scheme", "classic", "--from", "4295061000",
				"--to", "4295061100", "--ticks", "every-jiffy", "--explain"});
	ck_assert_int_eq(r.status, 0);
	ck_assert(contains(r.out, "--cpu 1 --scheme classic --from 4295061000 --to 4295061100"));
	ck_assert(contains(r.out, "idx = expires - timer_jiffies"));
}
END_TEST

int main()
{
	Suite *s = suite_create("lab_trace");
	TCase *tc = tcase_create("trace");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, the_lab_wheel_holds_what_the_replay_holds);
	tcase_add_test(tc, a_window_of_the_bundled_trace);
	tcase_add_test(tc, the_3_6_recording_is_nearly_all_exact);
	tcase_add_test(tc, a_late_expiry_is_expired_as_recorded);
	tcase_add_test(tc, bad_windows_are_usage_errors);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
