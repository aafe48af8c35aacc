// The replay on the real recordings in ../shared/traces, and the command
// line's handling of bad input.

#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "sim/replay/replay.h"
#include "sim/report/report_writers.h"
#include "sim/scheme/scheme.h"
#include "sim/trace/reader.h"
#include "tests/support/cli.h"
#include "tests/support/paths.h"
#include "tests/support/text_trace_util.h"

// Last: check.h defines macros that clash with <iostream> internals.
#include "tests/support/check_main.h"

using namespace timersim;
using namespace timersim::test;

namespace {

replay_report replay_file(const std::string &path, replay_options opt = {})
{
	auto reader = open_trace(path, trace_format::auto_detect, {});
	return replay_trace(*reader, path, opt);
}

// Per-kind counts the plain way: a line is an event of kind K when it
// contains ": K:" (perf script: ":K:" after "timer").
std::map<std::string, std::uint64_t> grep_counts(const std::string &path)
{
	std::map<std::string, std::uint64_t> n;
	std::ifstream in(path);
	std::string line;
	const char *kinds[] = {"timer_init", "timer_start", "timer_cancel", "timer_expire_entry",
			       "timer_expire_exit", "timer_base_idle"};
	while (std::getline(in, line)) {
		n["lines"]++;
		for (const char *k : kinds)
			if (line.find(std::string(" ") + k + ": ") != std::string::npos ||
			    line.find(std::string(":") + k + ": ") != std::string::npos)
				n[k]++;
		if (line.find(" hrtimer_") != std::string::npos || line.find(":hrtimer_") != std::string::npos)
			n["hrtimer"]++;
	}
	return n;
}

#define SHARED_OR_SKIP(var, rel)                                                 \
	std::string var = shared_trace(rel);                                     \
	if (var.empty()) {                                                       \
		skip_note(std::string("../shared/traces/") + rel + " is absent"); \
		return;                                                          \
	}

}  // namespace

START_TEST(classic_matches_the_3_6_kernel)
{
	SHARED_OR_SKIP(path, "linux-3.6-scp_dest/trace.txt");
	replay_report r = replay_file(path);
	ck_assert_uint_eq(r.fidelity.compared, 10544);
	// At least 99.5% of the recorded expiries in the same jiffy.
	ck_assert_uint_ge(r.fidelity.exact * 1000, r.fidelity.compared * 995);
	ck_assert_uint_eq(r.input.hz, 300);
	ck_assert(r.input.hz_inferred);
	ck_assert_uint_eq(r.input.word_bits, 64);
	ck_assert_str_eq(r.input.kernel_scheme.c_str(), "classic");
	ck_assert_uint_gt(r.cascade.moved_total, 0);
}
END_TEST

START_TEST(every_line_is_an_event_or_skipped_and_counts_match_grep)
{
	const char *traces[] = {"linux-3.6-scp_dest/trace.txt", "linux-6.18-http/trace.txt",
				"linux-6.18-http/trace-cmd-report.txt", "linux-6.18-tcp/perf-script.txt"};
	for (const char *rel : traces) {
		SHARED_OR_SKIP(path, rel);
		replay_report r = replay_file(path);
		auto n = grep_counts(path);
		ck_assert_uint_eq(r.input.lines, n["lines"]);
		ck_assert_uint_eq(r.input.events + r.input.skipped, r.input.lines);
		ck_assert_uint_eq(r.input.malformed, 0);
		ck_assert_uint_eq(r.events.timer_init, n["timer_init"]);
		ck_assert_uint_eq(r.events.timer_start, n["timer_start"]);
		ck_assert_uint_eq(r.events.timer_cancel, n["timer_cancel"]);
		ck_assert_uint_eq(r.events.timer_expire_entry, n["timer_expire_entry"]);
		ck_assert_uint_eq(r.events.timer_expire_exit, n["timer_expire_exit"]);
		ck_assert_uint_eq(r.events.timer_base_idle, n["timer_base_idle"]);
		ck_assert_uint_eq(r.events.hrtimer, n["hrtimer"]);
		const event_counts &e = r.events;
		ck_assert_uint_eq(e.timer_init + e.timer_start + e.timer_cancel + e.timer_expire_entry +
					  e.timer_expire_exit + e.timer_base_idle + e.hrtimer + e.tick_stop +
					  e.cpu_idle + e.tmigr + e.other,
				  r.input.events);
	}
}
END_TEST

START_TEST(two_renderings_of_one_recording_agree)
{
	SHARED_OR_SKIP(text, "linux-6.18-http/trace.txt");
	SHARED_OR_SKIP(report, "linux-6.18-http/trace-cmd-report.txt");
	replay_report a = replay_file(text), b = replay_file(report);
	ck_assert(a.events.timer_start == b.events.timer_start);
	ck_assert_uint_eq(a.events.timer_init, b.events.timer_init);
	ck_assert_uint_eq(a.events.timer_cancel, b.events.timer_cancel);
	ck_assert_uint_eq(a.events.timer_expire_entry, b.events.timer_expire_entry);
	ck_assert_uint_eq(a.events.timer_expire_exit, b.events.timer_expire_exit);
	ck_assert_uint_eq(a.events.timer_base_idle, b.events.timer_base_idle);
	ck_assert_uint_eq(a.events.hrtimer, b.events.hrtimer);
	ck_assert_uint_eq(a.events.other, b.events.other);
	ck_assert_uint_eq(a.timers.distinct, b.timers.distinct);
	ck_assert_uint_eq(a.timers.started, b.timers.started);
	ck_assert_uint_eq(a.timers.rearmed, b.timers.rearmed);
	ck_assert_uint_eq(a.timers.canceled, b.timers.canceled);
	ck_assert_uint_eq(a.timers.expired, b.timers.expired);
	ck_assert_uint_eq(a.timers.pending_at_end, b.timers.pending_at_end);
	ck_assert_uint_eq(a.cascade.moved_total, b.cascade.moved_total);
	ck_assert_uint_eq(a.fidelity.exact, b.fidelity.exact);
	ck_assert_str_eq(a.input.kernel_scheme.c_str(), "v48");
}
END_TEST

START_TEST(reports_are_byte_identical_run_to_run)
{
	SHARED_OR_SKIP(path, "linux-6.18-tcp/perf-script.txt");
	std::string a = json_report(replay_file(path), false);
	std::string b = json_report(replay_file(path), false);
	ck_assert(a == b);
	text_report_options t;
	ck_assert(text_report(replay_file(path), t) == text_report(replay_file(path), t));
}
END_TEST

START_TEST(drain_leaves_nothing_pending)
{
	SHARED_OR_SKIP(path, "linux-3.6-scp_dest/trace.txt");
	replay_options opt;
	opt.drain = true;
	replay_report r = replay_file(path, opt);
	replay_report plain = replay_file(path);
	ck_assert_uint_eq(r.timers.pending_at_end, 0);
	ck_assert_uint_eq(r.timers.expired, plain.timers.expired + plain.timers.pending_at_end);
	ck_assert_uint_gt(r.ticks_processed, plain.ticks_processed);
}
END_TEST

// ---- the command line -----------------------------------------------------

START_TEST(cli_replays_and_writes_json)
{
	SHARED_OR_SKIP(path, "linux-3.6-scp_dest/trace.txt");
	cli_result r = run_timersim({"replay", path, "--json", "-"});
	ck_assert_int_eq(r.status, 0);
	const char *keys[] = {"\"input\"", "\"path\"", "\"format\"", "\"lines\"", "\"events\"",
			      "\"skipped\"", "\"cpus\"", "\"hz\"", "\"first_jiffies\"",
			      "\"last_jiffies\"", "\"scheme\"", "\"params\"", "\"timer_init\"",
			      "\"hrtimer\"", "\"other\"", "\"timers\"", "\"distinct\"", "\"rearmed\"",
			      "\"pending_at_end\"", "\"ticks\"", "\"processed\"", "\"cascade\"",
			      "\"moved_total\"", "\"moved_then_canceled\"",
			      "\"max_moved_in_one_tick\"", "\"levels\"", "\"tv2\"", "\"tv5\"",
			      "\"calls\"", "\"moved\"", "\"enqueue\"", "\"tv1\"", "\"count\"",
			      "\"fidelity\"", "\"compared\"", "\"exact\"", "\"early\"", "\"late\"",
			      "\"unmatched\"", "\"functions\"", "\"function\"", "\"started\""};
	for (const char *k : keys)
		ck_assert_msg(r.out.find(k) != std::string::npos, "JSON lacks %s", k);
	ck_assert(r.out.find("\"exact\": 10530") != std::string::npos);
}
END_TEST

START_TEST(cli_bad_input_exits_2_with_file_and_line)
{
	cli_result missing = run_timersim({"replay", "/nonexistent/trace.txt"});
	ck_assert_int_eq(missing.status, 2);
	ck_assert(missing.err.find("/nonexistent/trace.txt") != std::string::npos);

	std::string binary = write_temp("elf.bin", std::string("\x7f" "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0", 20) +
				       std::string(4000, '\0'));
	cli_result bin = run_timersim({"replay", binary});
	ck_assert_int_eq(bin.status, 2);
	ck_assert(bin.err.find(binary) != std::string::npos);

	const std::string good =
		"          <idle>-0     [000] ..s.  100.000000: timer_start: timer=ffff880000000a00 function=foo expires=1010 [timeout=10]\n";
	struct {
		std::string line;
		const char *why;
	} bad[] = {
		{"          <idle>-0     [000] ..s.  100.0000", "truncated"},
		{"          <idle>-0     [000] ..s.  100.000001: timer_start: timer=ffff880000000b00 function=foo expires=10x0 [timeout=10]", "non-numeric"},
		{"          <idle>-0     [000] ..s.  100.000001: timer_start: timer=ffff880000000b00 function=foo expires=900 [timeout=10]", "backwards"},
	};
	for (const auto &b : bad) {
		std::string path = write_temp("bad.txt", ftrace_text(good + b.line + "\n" + good));
		cli_result r = run_timersim({"replay", path});
		ck_assert_msg(r.status == 2, "%s: status %d", b.why, r.status);
		// Header lines 1-6, good line 7, the bad one is line 8.
		ck_assert_msg(r.err.find(path + ":8:") != std::string::npos, "%s: %s", b.why, r.err.c_str());
		ck_assert_msg(r.out.empty(), "%s: a partial report was printed", b.why);

		cli_result lenient = run_timersim({"replay", path, "--lenient", "--json", "-"});
		ck_assert_msg(lenient.status == 0, "%s lenient: %s", b.why, lenient.err.c_str());
		ck_assert_msg(lenient.out.find("\"malformed\": 1") != std::string::npos, "%s", b.why);
		ck_assert_msg(lenient.out.find("\"skipped\": 7") != std::string::npos, "%s", b.why);
	}
}
END_TEST

START_TEST(cli_usage_errors_exit_2)
{
	ck_assert_int_eq(run_timersim({}).status, 2);
	ck_assert_int_eq(run_timersim({"replay"}).status, 2);
	ck_assert_int_eq(run_timersim({"frobnicate", "x"}).status, 2);
	ck_assert_int_eq(run_timersim({"replay", "--hz", "abc", "x"}).status, 2);
	ck_assert_int_eq(run_timersim({"replay", "--word-bits", "48", "x"}).status, 2);
	ck_assert_int_eq(run_timersim({"replay", "--bogus", "x"}).status, 2);
	cli_result scheme = run_timersim({"replay", "--scheme", "nope", "/dev/null"});
	ck_assert_int_eq(scheme.status, 2);
	ck_assert_int_eq(run_timersim({"--help"}).status, 0);
}
END_TEST

START_TEST(cli_compare_runs_every_scheme)
{
	SHARED_OR_SKIP(path, "linux-6.18-http/trace.txt");
	cli_result r = run_timersim({"compare", path, "--json", "-"});
	ck_assert_int_eq(r.status, 0);
	ck_assert(r.out.rfind("{\n  \"schemes\": [", 0) == 0);
	// One report per scheme, each with the contract's sections.
	for (const std::string &s : scheme_names()) {
		ck_assert_msg(r.out.find("\"name\": \"" + s + "\"") != std::string::npos, "%s", s.c_str());
	}
	std::size_t reports = 0;
	for (std::size_t at = 0; (at = r.out.find("\"fidelity\": {", at)) != std::string::npos; at++)
		reports++;
	ck_assert_uint_eq(reports, scheme_names().size());

	// Exact schemes agree with classic on every recorded expiry.
	replay_options opt;
	replay_report classic = replay_file(path, opt);
	for (const char *exact : {"heap", "heap4", "sorted-list", "list", "wheel-overflow"}) {
		opt.scheme = exact;
		replay_report e = replay_file(path, opt);
		ck_assert_msg(e.fidelity.exact == classic.fidelity.exact, "%s", exact);
		ck_assert_msg(e.timers.expired == classic.timers.expired, "%s", exact);
		ck_assert_uint_eq(e.lateness.max, classic.lateness.max);
	}
	// The table names every scheme too.
	cli_result table = run_timersim({"compare", path, "--schemes", "classic,v48"});
	ck_assert_int_eq(table.status, 0);
	ck_assert(table.out.find("\n  classic ") != std::string::npos);
	ck_assert(table.out.find("\n  v48 ") != std::string::npos);
	ck_assert(table.out.find("heap") == std::string::npos);
	ck_assert_int_eq(run_timersim({"compare", path, "--param", "order=lifo"}).status, 2);
}
END_TEST

int main()
{
	Suite *s = suite_create("replay_traces");
	TCase *tc = tcase_create("traces");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, classic_matches_the_3_6_kernel);
	tcase_add_test(tc, every_line_is_an_event_or_skipped_and_counts_match_grep);
	tcase_add_test(tc, two_renderings_of_one_recording_agree);
	tcase_add_test(tc, reports_are_byte_identical_run_to_run);
	tcase_add_test(tc, drain_leaves_nothing_pending);
	suite_add_tcase(s, tc);
	TCase *cli = tcase_create("cli");
	tcase_set_timeout(cli, 120);
	tcase_add_test(cli, cli_replays_and_writes_json);
	tcase_add_test(cli, cli_bad_input_exits_2_with_file_and_line);
	tcase_add_test(cli, cli_usage_errors_exit_2);
	tcase_add_test(cli, cli_compare_runs_every_scheme);
	suite_add_tcase(s, cli);
	return timersim::test::run_suite(s);
}
