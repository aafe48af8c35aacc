// What the reports call things says what they are (issue 25): the fidelity
// verdict `late` and the delay behind the requested expiry have different
// names on screen; a binary trace counts events, not lines, and a CTF
// trace's report states the clock of its seconds; a --symbols file of
// another kernel is refused or warned about, and an address inside a
// symbol is shown as sym+0xoff.
#include <string>

#include "tests/support/cli.h"
#include "tests/support/paths.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"	// last: check.h defines a fail() macro

using namespace timersim;
using timersim::test::run_suite;

namespace {

bool contains(const std::string &s, const std::string &part)
{
	return s.find(part) != std::string::npos;
}

// Two timers with hex callbacks, as a 3.x kernel prints an address it
// could not name; each expires on time.
std::string hex_callback_trace()
{
	using test::ftrace_line;
	return test::write_temp("hex.txt", test::ftrace_text(
		ftrace_line(0, 1000000, "timer_start: timer=ffff880000001000 function=0xffffffff81065e80 expires=1010 [timeout=10]") +
		ftrace_line(0, 1000100, "timer_start: timer=ffff880000002000 function=0xffffffff81070000 expires=1012 [timeout=12]") +
		ftrace_line(0, 1040000, "timer_expire_entry: timer=ffff880000001000 function=0xffffffff81065e80 now=1010") +
		ftrace_line(0, 1048000, "timer_expire_entry: timer=ffff880000002000 function=0xffffffff81070000 now=1012")));
}

}  // namespace

START_TEST(late_verdict_and_delay_are_named_apart)
{
	std::string t = hex_callback_trace();
	test::cli_result c = test::run_timersim({"compare", "--hz", "250", "--schemes", "classic,v48", t});
	ck_assert_int_eq(c.status, 0);
	ck_assert_msg(contains(c.out, "delay mean") && contains(c.out, "delay max") &&
			      !contains(c.out, "late mean") && !contains(c.out, "late max"),
		      "%s", c.out.c_str());
	ck_assert_msg(contains(c.out, "fidelity verdicts against the recorded expiries"), "%s",
		      c.out.c_str());
	test::cli_result r = test::run_timersim({"replay", "--hz", "250", t});
	ck_assert_int_eq(r.status, 0);
	ck_assert_msg(contains(r.out, "delay of simulated expiries") &&
			      !contains(r.out, "lateness of simulated expiries"),
		      "%s", r.out.c_str());
	// The JSON keys stay those of the contract and docs/reports.md.
	test::cli_result j = test::run_timersim({"replay", "--hz", "250", "--json", "-", t});
	ck_assert_msg(contains(j.out, "\"late\": ") && contains(j.out, "\"lateness\": {"), "%s",
		      j.out.c_str());
}
END_TEST

// The map of the recording kernel names every callback at a symbol's
// start; one of another kernel (its functions elsewhere) is refused; one
// that fits some is warned about, the rest shown as sym+0xoff or in hex.
START_TEST(symbols_of_another_kernel_are_caught)
{
	std::string t = hex_callback_trace();
	std::string right = test::write_temp("right.map",
		"ffffffff81000000 T _stext\n"
		"ffffffff81065e80 T process_timeout\n"
		"ffffffff81070000 t delayed_work_timer_fn\n"
		"ffffffff81600000 T _etext\n");
	test::cli_result r = test::run_timersim({"replay", "--hz", "250", "--symbols", right, "--json", "-", t});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	ck_assert_msg(contains(r.out, "\"function\": \"process_timeout\"") &&
			      contains(r.out, "\"function\": \"delayed_work_timer_fn\"") &&
			      contains(r.out, "\"symbols\": {\n      \"looked_up\": 4,\n      \"at_start\": 4,\n"
					     "      \"inside\": 0,\n      \"unfit\": 0\n"),
		      "%s", r.out.c_str());
	ck_assert_msg(!contains(r.err, "warning"), "%s", r.err.c_str());

	// Another kernel: every callback lands 0x40 into a function.
	std::string other = test::write_temp("other.map",
		"ffffffff81000000 T _stext\n"
		"ffffffff81065e40 T process_timeout\n"
		"ffffffff8106ffc0 t delayed_work_timer_fn\n"
		"ffffffff81600000 T _etext\n");
	r = test::run_timersim({"replay", "--hz", "250", "--symbols", other, t});
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(contains(r.err, other + ": does not fit this trace") &&
			      contains(r.err, "process_timeout+0x40"),
		      "%s", r.err.c_str());

	// One fits; the other lies past the end of this map's kernel text.
	std::string shorter = test::write_temp("short.map",
		"ffffffff81000000 T _stext\n"
		"ffffffff81065e80 T process_timeout\n"
		"ffffffff81066000 T __entry_text_end\n");
	r = test::run_timersim({"replay", "--hz", "250", "--symbols", shorter, "--json", "-", t});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	ck_assert_msg(contains(r.out, "\"function\": \"process_timeout\"") &&
			      contains(r.out, "\"function\": \"0xffffffff81070000\"") &&
			      !contains(r.out, "__entry_text_end"),
		      "%s", r.out.c_str());
	ck_assert_msg(contains(r.err, "warning: " + shorter) && contains(r.err, "past __entry_text_end"),
		      "%s", r.err.c_str());

	// Inside a function that is not far from its start: sym+0xoff.
	std::string inside = test::write_temp("inside.map",
		"ffffffff81065e80 T process_timeout\n"
		"ffffffff8106ff00 t delayed_work_timer_fn\n");
	r = test::run_timersim({"replay", "--hz", "250", "--symbols", inside, t});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	ck_assert_msg(contains(r.out, "delayed_work_timer_fn+0x100") && contains(r.out, "symbols"),
		      "%s", r.out.c_str());
	ck_assert_msg(contains(r.err, "warning"), "%s", r.err.c_str());
}
END_TEST

// The LTTng recording: its input line counts events, and the report
// states the clock its seconds are in (babeltrace --clock-seconds's).
START_TEST(ctf_counts_events_and_states_its_clock)
{
	std::string ctf = test::shared_trace_or_skip("linux-3.6-scp_dest/ctf");
	if (ctf.empty())
		return;
	test::cli_result r = test::run_timersim({"replay", ctf});
	ck_assert_int_eq(r.status, 0);
	ck_assert_msg(contains(r.out, " 85729 events recorded: ") && !contains(r.out, " lines"),
		      "%s", r.out.c_str());
	ck_assert_msg(contains(r.out, "clock    CTF clock `monotonic` plus its offset from the Epoch, "
				      "1361203569.335098971 s"),
		      "%s", r.out.c_str());
	// The seconds are babeltrace --clock-seconds's: its first timer_start
	// is at 1361214078.963713360.
	ck_assert_msg(contains(r.out, "(1361214078.964 s .. "), "%s", r.out.c_str());
	test::cli_result j = test::run_timersim({"replay", "--json", "-", ctf});
	ck_assert_msg(contains(j.out, "\"unit\": \"events\"") && contains(j.out, "\"clock\": \"CTF clock"),
		      "%s", j.out.c_str());
	// A text trace counts lines and names no clock.
	std::string txt = test::shared_trace_or_skip("linux-3.6-scp_dest/trace.txt");
	if (txt.empty())
		return;
	r = test::run_timersim({"replay", txt});
	ck_assert_msg(contains(r.out, " lines: ") && !contains(r.out, "clock    "), "%s", r.out.c_str());
}
END_TEST

int main()
{
	Suite *s = suite_create("replay_labels");
	TCase *tc = tcase_create("labels");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, late_verdict_and_delay_are_named_apart);
	tcase_add_test(tc, symbols_of_another_kernel_are_caught);
	tcase_add_test(tc, ctf_counts_events_and_states_its_clock);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
