// `timersim step --trace`: a window of a real recording, through the replay
// model, mirrored onto a lab wheel. The lab wheel and the replay's scheme
// run the same kernel code on the same events, so in every window the
// timers the lab wheel fires on the base shown are exactly those the
// replay's scheme fires there, in the same jiffies and order. A recorded
// expiry the wheel had not reached (`late`) is expired as the replay does.
#include <string>
#include <utility>
#include <vector>

#include "sim/core/errors.h"
#include "sim/lab/trace_window.h"
#include "tests/support/cli.h"
#include "tests/support/paths.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"

using namespace timersim::lab;

namespace {

bool contains(const std::string &hay, const std::string &needle) { return hay.find(needle) != std::string::npos; }

const std::string bundled = "tests/data/default-trace.txt.gz";	// Linux 6.18, HZ 250, 2 CPUs

trace_window_summary window(const std::string &path, const std::string &scheme, unsigned cpu, std::uint64_t from,
			    std::uint64_t to, std::vector<step_record> *records = nullptr)
{
	trace_window_options o;
	o.path = path;
	o.scheme = scheme;
	o.cpu = cpu;
	o.from = from;
	o.to = to;
	return run_trace_window(
		o, [](const lab_wheel &) {},
		[&](const step_record &r) {
			if (records)
				records->push_back(r);
		});
}

void lab_and_scheme_agree(const std::string &path, std::uint64_t from, std::uint64_t to)
{
	for (const char *scheme : {"classic", "v48"})
		for (unsigned cpu : {0u, 1u}) {
			trace_window_summary s = window(path, scheme, cpu, from, to);
			ck_assert_msg(s.steps > 10, "%s cpu %u: only %llu steps", scheme, cpu,
				      static_cast<unsigned long long>(s.steps));
			ck_assert_msg(!s.scheme_fired.empty(), "%s cpu %u: nothing fired", scheme, cpu);
			ck_assert_msg(s.lab_fired == s.scheme_fired, "%s cpu %u: the lab wheel fired %zu timers, the replay %zu",
				      scheme, cpu, s.lab_fired.size(), s.scheme_fired.size());
		}
}

}  // namespace

START_TEST(the_bundled_trace_in_a_window)
{
	lab_and_scheme_agree(bundled, 4295061000, 4295062000);
	std::vector<step_record> records;
	window(bundled, "classic", 0, 4295061000, 4295061020, &records);
	ck_assert(!records.empty());
	ck_assert(contains(records.front().text, "jiffy 4295061001: timer_expire_entry process_timeout (recorded)"));
	for (const step_record &r : records)
		ck_assert(r.after.now >= 4295061000 && r.after.now <= 4295061021);
}
END_TEST

START_TEST(the_3_6_recording_in_a_window)
{
	std::string path = timersim::test::shared_trace("linux-3.6-scp_dest/trace.txt");
	if (path.empty()) {
		timersim::test::skip_note("../shared/traces/linux-3.6-scp_dest not found: its window not stepped");
		return;
	}
	// One CPU; the classic wheel is the recording kernel's: nearly all exact.
	std::vector<step_record> records;
	trace_window_summary s = window(path, "classic", 0, 4298031000, 4298032000, &records);
	ck_assert(s.lab_fired == s.scheme_fired && s.lab_fired.size() > 50);
	unsigned exact = 0, judged = 0;
	for (const step_record &r : records)
		if (contains(r.text, "(recorded):")) {
			judged++;
			exact += contains(r.text, ": exact");
		}
	ck_assert_msg(exact * 100 >= judged * 98, "%u of %u exact", exact, judged);
}
END_TEST

// A recorded expiry before the wheel's: late, and expired as the replay does.
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
	std::string path = timersim::test::write_temp("late.txt", timersim::test::ftrace_text(body, 1));
	std::vector<step_record> records;
	trace_window_summary s = window(path, "classic", 0, 0, ~std::uint64_t{0} >> 1, &records);
	ck_assert_uint_eq(records.size(), 4);
	ck_assert(contains(records[0].text, "timer_start process_timeout expires 4295000010"));
	ck_assert(contains(records[1].text, "timer_start process_timeout.2 expires 4295000008"));
	ck_assert(contains(records[2].text, "jiffy 4295000005: timer_expire_entry process_timeout (recorded): "
					    "the wheel still holds it: late"));
	ck_assert(records[2].events.size() == 1 && records[2].events[0].kind == wheel_event_kind::deleted);
	ck_assert(contains(records[3].text, "process_timeout.2 (recorded): the wheel fired it in this jiffy: exact"));
	ck_assert_uint_eq(records[3].after.pending(), 0);
	ck_assert(s.lab_fired.size() == 1 && s.lab_fired[0].first == "process_timeout.2" &&
		  s.lab_fired[0].second == 4295000008);
	ck_assert(s.lab_fired == s.scheme_fired);
}
END_TEST

START_TEST(bad_windows_are_usage_errors)
{
	trace_window_options o;
	o.path = bundled;
	o.cpu = 2;
	bool threw = false;
	try {
		trace_window_text(o);
	} catch (const timersim::usage_error &e) {
		threw = contains(e.what(), "the trace has 2 CPUs");
	}
	ck_assert(threw);

	timersim::test::cli_result r =
		timersim::test::run_timersim({"step", "--trace", bundled, "--from", "4295062000", "--to", "4295061000"});
	ck_assert_int_eq(r.status, 2);
	ck_assert(contains(r.err, "is after --to"));
	r = timersim::test::run_timersim({"step", "--trace", "/nonexistent/trace.txt"});
	ck_assert_int_eq(r.status, 2);
	r = timersim::test::run_timersim({"step", "docs/lab/scenarios/nohz.txt", "--trace", bundled});
	ck_assert_int_eq(r.status, 2);
	ck_assert(contains(r.err, "not both"));

	r = timersim::test::run_timersim(
		{"step", "--trace", bundled, "--cpu", "1", "--from", "4295061000", "--to", "4295061100", "--explain"});
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
	tcase_add_test(tc, the_bundled_trace_in_a_window);
	tcase_add_test(tc, the_3_6_recording_in_a_window);
	tcase_add_test(tc, a_late_expiry_is_expired_as_recorded);
	tcase_add_test(tc, bad_windows_are_usage_errors);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
