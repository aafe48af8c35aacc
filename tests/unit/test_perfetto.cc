// --perfetto: Chrome trace event JSON that a JSON parser accepts and that
// keeps the format's rules (scripts/check-trace-events.py: every slice
// closed, ids consistent, counters numeric, microsecond timestamps never
// decreasing per track), with one slice per arming and the report's
// cascade moves, and the same bytes run after run.
#include <cstdio>
#include <map>
#include <regex>
#include <string>

#include "sim/replay/replay.h"
#include "sim/output/output_file.h"
#include "sim/output/perfetto.h"
#include "sim/trace/reader.h"
#include "tests/support/cli.h"
#include "tests/support/text_trace_util.h"

// Last: check.h defines macros that clash with <iostream> internals.
#include "tests/support/check_main.h"

using namespace timersim;
using namespace timersim::test;

namespace {

const char default_trace[] = "tests/data/default-trace.txt.gz";

// Runs the rules checker; its one-line JSON summary, or "" when it failed.
std::string check_rules(const std::string &path, std::string &errors)
{
	std::string cmd = "/usr/bin/python3 scripts/check-trace-events.py '" + path + "' 2>&1";
	std::string out;
	if (FILE *p = popen(cmd.c_str(), "r")) {
		char buf[4096];
		std::size_t n;
		while ((n = fread(buf, 1, sizeof buf, p)) > 0)
			out.append(buf, n);
		if (pclose(p) != 0) {
			errors = out;
			return "";
		}
	}
	return out;
}

// A number from the summary: "key": N (the first one after `after`).
std::uint64_t summary_number(const std::string &summary, const std::string &key,
			     const std::string &after = "")
{
	std::string s = summary.substr(after.empty() ? 0 : summary.find(after));
	std::smatch m;
	ck_assert_msg(std::regex_search(s, m, std::regex("\"" + key + "\": ([0-9]+)")), "no %s in %s",
		      key.c_str(), summary.c_str());
	return std::stoull(m[1]);
}

replay_report replay_with_perfetto(const std::string &scheme, const std::string &out_path)
{
	output_file out(out_path);
	perfetto_trace pt(out);
	auto reader = open_trace(default_trace, trace_format::auto_detect, {});
	replay_options opt;
	opt.scheme = scheme;
	replay_report r = replay_trace(*reader, default_trace, opt, {&pt});
	out.commit();
	return r;
}

}  // namespace

START_TEST(keeps_the_format_rules_and_the_report)
{
	for (const char *scheme : {"classic", "v48"}) {
		std::string dir = temp_subdir(std::string("perfetto-") + scheme);
		replay_report r = replay_with_perfetto(scheme, dir + "/p.json");
		std::string errors;
		std::string summary = check_rules(dir + "/p.json", errors);
		ck_assert_msg(!summary.empty(), "%s: %s", scheme, errors.c_str());

		ck_assert_uint_eq(summary_number(summary, "processes"), r.input.cpus);
		ck_assert_uint_eq(summary_number(summary, "slices"), r.timers.started);
		ck_assert_uint_eq(summary_number(summary, "canceled", "ends"), r.timers.canceled);
		ck_assert_uint_eq(summary_number(summary, "expired", "ends"), r.timers.expired);
		ck_assert_uint_eq(summary_number(summary, "rearmed", "ends"), r.timers.rearmed);
		ck_assert_uint_eq(summary_number(summary, "pending at end", "ends"), r.timers.pending_at_end);
		ck_assert_uint_eq(summary_number(summary, "cascade_moves"), r.cascade.moved_total);
		ck_assert_uint_eq(summary_number(summary, "misses"),
				  r.fidelity.early + r.fidelity.late + r.fidelity.unmatched);
		ck_assert_uint_gt(summary_number(summary, "pending", "counters"), 10);
		if (std::string(scheme) == "classic")
			ck_assert_uint_gt(r.cascade.moved_total, 0);
		// Every simulated softirq run a slice on its CPU's softirq
		// thread, its interrupt an instant; the runs hold the softirq's
		// work but for idle stretches (no run).
		const std::string runs = "timer softirq \\(simulated\\)";	// a regex
		ck_assert_uint_eq(summary_number(summary, runs, "\"complete\""), r.work.runs);
		ck_assert_uint_eq(summary_number(summary, "interrupts"), r.work.runs);
		std::uint64_t units = summary_number(summary, runs, "complete_units");
		ck_assert_uint_le(units, r.work.softirq.total());
		ck_assert_uint_ge(units, r.work.softirq.total() - r.work.softirq_unattributed);
		ck_assert_uint_gt(units, 0);
	}
}
END_TEST

// The checker itself fails on what breaks the rules.
START_TEST(checker_rejects_broken_traces)
{
	const char *broken[] = {
		// a slice never closed
		R"({"traceEvents":[{"ph":"b","pid":1,"tid":1,"ts":1,"cat":"timer","id":"0x1","name":"f"}]})",
		// an end naming another slice
		R"({"traceEvents":[{"ph":"b","pid":1,"tid":1,"ts":1,"cat":"timer","id":"0x1","name":"f"},
		   {"ph":"e","pid":1,"tid":1,"ts":2,"cat":"timer","id":"0x1","name":"g"}]})",
		// time going back on a process
		R"({"traceEvents":[{"ph":"C","pid":1,"tid":1,"ts":5,"name":"pending","args":{"tv1":1}},
		   {"ph":"C","pid":1,"tid":1,"ts":4,"name":"pending","args":{"tv1":2}}]})",
		// a counter that is not a number
		R"({"traceEvents":[{"ph":"C","pid":1,"tid":1,"ts":5,"name":"pending","args":{"tv1":"1"}}]})",
		// not JSON at all
		R"({"traceEvents":[)",
		// complete slices overlapping on one thread
		R"({"traceEvents":[{"ph":"X","pid":1,"tid":2,"ts":1,"dur":2,"name":"r"},
		   {"ph":"X","pid":1,"tid":2,"ts":2,"dur":1,"name":"r"}]})",
		// a complete slice without a duration
		R"({"traceEvents":[{"ph":"X","pid":1,"tid":2,"ts":1,"name":"r"}]})",
	};
	for (const char *text : broken) {
		std::string path = write_temp("broken.json", text);
		std::string errors;
		ck_assert_msg(check_rules(path, errors).empty(), "accepted: %s", text);
	}
}
END_TEST

START_TEST(same_input_same_bytes)
{
	std::string dir = temp_subdir("perfetto-cli");
	std::string a = dir + "/a.json", b = dir + "/b.json";
	ck_assert_int_eq(run_timersim({"replay", "--scheme", "classic", "--perfetto", a, default_trace}).status, 0);
	ck_assert_int_eq(run_timersim({"replay", "--scheme", "classic", "--perfetto", b, default_trace}).status, 0);
	ck_assert(read_whole_file(a) == read_whole_file(b));
	ck_assert_uint_gt(read_whole_file(a).size(), 10000);
	// Two outputs on one path are refused; nothing is written.
	cli_result clash = run_timersim({"replay", "--perfetto", dir + "/c", "--timeline", dir + "/c", default_trace});
	ck_assert_int_eq(clash.status, 2);
}
END_TEST

int main()
{
	Suite *s = suite_create("perfetto");
	TCase *tc = tcase_create("perfetto");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, keeps_the_format_rules_and_the_report);
	tcase_add_test(tc, checker_rejects_broken_traces);
	tcase_add_test(tc, same_input_same_bytes);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
