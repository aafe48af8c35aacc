// No event lost without a word (issue 14): line endings of every convention
// are read or refused; a forced format that fits no line, a file of headers
// only and a trace without timer events are input errors that say what was
// expected; a symbol file that is no symbol list is refused with bounded
// memory and exit status 2.
#include <string>
#include <vector>

#include "sim/trace/line_source.h"
#include "sim/trace/reader.h"
#include "sim/trace/text_reader.h"
#include "tests/support/cli.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"	// last: check.h defines a fail() macro

using namespace timersim;
using timersim::test::owned_event;

namespace {

const std::string header =
	"# tracer: nop\n"
	"#\n"
	"# entries-in-buffer/entries-written: 4/4   #P:2\n"
	"#           TASK-PID   CPU#  ||||    TIMESTAMP  FUNCTION\n";
const std::string events =
	"     kworker/0:1-100   [000] ..s.  1000.000002: timer_start: timer=ffff88001d49b8c0 function=0xffffffff81065e80 expires=4298033184 [timeout=3000]\n"
	"     kworker/0:1-100   [000] ..s.  1000.000003: hrtimer_cancel: hrtimer=ffff88001fa0e980\n"
	"          <idle>-0     [001] d.h.  1000.000400: timer_cancel: timer=ffff88001d49b8c0\n"
	"     kworker/0:1-100   [001] ..s.  1000.000402: timer_start: timer=ffff88001d49b8c0 function=0xffffffff81065e80 expires=4298033185 [timeout=3001]\n";
const std::string trace = header + events;

std::string with_line_ends(const std::string &text, const char *eol)
{
	std::string out;
	for (char c : text)
		if (c == '\n')
			out += eol;
		else
			out += c;
	return out;
}

// The what() of the input_error reading PATH as FMT throws, "" if none.
std::string open_error(const std::string &path, trace_format fmt, bool lenient = false)
{
	reader_options opt;
	opt.lenient = lenient;
	try {
		auto r = open_trace(path, fmt, opt);
		test::read_all(*r);
	} catch (const input_error &e) {
		return e.what();
	}
	return "";
}

#define ck_assert_has(haystack, needle)                                                     \
	do {                                                                                \
		std::string h_ = (haystack);                                                \
		ck_assert_msg(h_.find(needle) != std::string::npos, "'%s' not in: %s", needle, \
			      h_.c_str());                                                  \
	} while (0)

// Check's string asserts evaluate their arguments twice: keep the string.
#define ck_assert_no_error(what)                                                   \
	do {                                                                       \
		std::string e_ = (what);                                           \
		ck_assert_msg(e_.empty(), "unexpected error: %s", e_.c_str());     \
	} while (0)

}  // namespace

// ---- line endings -----------------------------------------------------------

START_TEST(every_line_end_convention_reads_the_same_events)
{
	reader_options opt;
	auto ref_reader = open_trace(test::write_temp("lf.txt", trace), trace_format::auto_detect, opt);
	auto ref = test::read_all(*ref_reader);
	ck_assert_uint_eq(ref.size(), 4);
	for (const char *eol : {"\r\n", "\r"}) {
		std::string text = with_line_ends(trace, eol);
		// Through detection and a file (CR alone: old Mac, once "0 events").
		auto r = open_trace(test::write_temp("eol.txt", text), trace_format::auto_detect, opt);
		ck_assert(r->format() == trace_format::ftrace);
		ck_assert_uint_eq(r->declared_cpus(), 2);	// the header, read in that convention
		auto got = test::read_all(*r);
		ck_assert_msg(got == ref, "%zu events with line ends %02x", got.size(), eol[0]);
		ck_assert_uint_eq(r->stats().lines, 8);
		ck_assert_uint_eq(r->stats().bytes, text.size());
		// Through buffers just above the longest line: the convention is
		// decided, and lines split, across refills.
		for (std::size_t buf = 152; buf < 260; buf += 9) {
			auto m = make_text_reader_from_memory(text, "m", trace_format::ftrace, opt, buf);
			ck_assert_msg(test::read_all(*m) == ref, "buffer %zu", buf);
		}
	}
}
END_TEST

START_TEST(line_source_decides_the_convention)
{
	ck_assert_int_eq(line_source::line_end_in("a\nb\r"), '\n');
	ck_assert_int_eq(line_source::line_end_in("a\r\nb"), '\n');
	ck_assert_int_eq(line_source::line_end_in("a\rb\n"), '\r');
	ck_assert_int_eq(line_source::line_end_in("abc"), '\n');
	// CR alone, split across refill positions (a buffer holds lines of up
	// to its size - 1 bytes, and the byte after the first line end decides).
	for (std::size_t buf : {0, 4, 5, 6}) {
		auto src = line_source::from_memory("ab\rc\r\rd", "m", buf);
		std::string got;
		std::string_view line;
		while (src->next(line)) {
			ck_assert_ptr_null(src->stray_line_end());
			got += std::string(line) + "|";
		}
		ck_assert_msg(got == "ab|c||d|", "buffer %zu: %s", buf, got.c_str());
		ck_assert_uint_eq(src->bytes(), 7);
		ck_assert_uint_eq(src->line_no(), 4);
	}
}
END_TEST

// Mixed conventions would hide lines inside others: refused, line named.
START_TEST(mixed_line_ends_are_refused)
{
	std::string lines[] = {
		"     kworker/0:1-100   [000] ..s.  1000.000002: timer_cancel: timer=ffff88001d49b8c0\n",
		"     kworker/0:1-100   [000] ..s.  1000.000003: timer_cancel: timer=ffff88001d49b8c1\n",
		"     kworker/0:1-100   [000] ..s.  1000.000004: timer_cancel: timer=ffff88001d49b8c2\n",
	};
	// A comment line that swallows an event behind a lone CR.
	std::string text = header + lines[0] + "# note\r" + lines[1] + lines[2];
	std::string err = open_error(test::write_temp("mixed.txt", text), trace_format::auto_detect);
	ck_assert_has(err, "mixed.txt:6: a carriage return");
	ck_assert_has(err, "mixed line endings");
	// CR file with LF inside: the LF is flagged, lenient counts the line.
	std::string cr = with_line_ends(header + lines[0], "\r") + lines[1] + "\r" +
			 with_line_ends(lines[2], "\r");
	err = open_error(test::write_temp("mixed-cr.txt", cr), trace_format::auto_detect);
	ck_assert_has(err, "mixed-cr.txt:6: a newline");
	reader_options opt;
	opt.lenient = true;
	auto r = open_trace(test::write_temp("mixed-cr2.txt", cr), trace_format::auto_detect, opt);
	auto evs = test::read_all(*r);
	ck_assert_uint_eq(evs.size(), 2);
	ck_assert_uint_eq(r->stats().malformed, 1);
	ck_assert_uint_eq(r->stats().lines, r->stats().events + r->stats().skipped);
	// CRLF with an LF-only line is no loss: both read.
	std::string crlf = with_line_ends(header + lines[0], "\r\n") + lines[1] +
			   with_line_ends(lines[2], "\r\n");
	ck_assert_no_error(open_error(test::write_temp("crlf-lf.txt", crlf), trace_format::auto_detect));
}
END_TEST

// ---- forced formats and traces without timer events --------------------------

START_TEST(forced_format_that_fits_no_line_is_an_error)
{
	std::string perf = test::write_temp("perf.txt",
		"     rcu_preempt    15 [001]   563.988448:        timer:timer_init: timer=0xffffc9000007fdf8\n"
		"     rcu_preempt    15 [001]   563.988449:        timer:timer_cancel: timer=0xffffc9000007fdf8\n");
	std::string err = open_error(perf, trace_format::ftrace);
	ck_assert_has(err, "perf.txt:1: event 'timer:timer_init' with its subsystem");
	err = open_error(perf, trace_format::trace_cmd_report);
	ck_assert_has(err, "perf.txt:1: event 'timer:timer_init' with its subsystem");
	// Lenient: every line malformed, then no timer event, with a hint.
	err = open_error(perf, trace_format::ftrace, true);
	ck_assert_has(err, "perf.txt: no timer events in 2 lines read as ftrace (2 malformed lines");
	ck_assert_has(err, "expected raw ftrace lines");
	ck_assert_has(err, "looks like perf-script: try --format perf-script");
	// Raw ftrace forced as perf script or trace-cmd report: its header says
	// what it is, lenient or not (issue 25: trace-cmd-report read it).
	std::string raw = test::write_temp("raw.txt", trace);
	for (trace_format f : {trace_format::perf_script, trace_format::trace_cmd_report})
		for (bool lenient : {false, true}) {
			err = open_error(raw, f, lenient);
			ck_assert_has(err, "raw.txt:1: '# tracer: nop' is a header of ftrace output");
		}
	// Without the header, its events forced as perf script are not perf's.
	std::string body = test::write_temp("body.txt", events);
	err = open_error(body, trace_format::perf_script);
	ck_assert_has(err, "body.txt:1: event 'timer_start' without its 'timer:' subsystem");
	err = open_error(body, trace_format::perf_script, true);
	ck_assert_has(err, "read as perf-script");
	ck_assert_has(err, "looks like ftrace");
	// ... and forced as trace-cmd report they are `trace-cmd report -l`: read.
	ck_assert_no_error(open_error(body, trace_format::trace_cmd_report));
}
END_TEST

START_TEST(no_timer_events_is_an_error)
{
	std::string path = test::write_temp("headers.txt", header);
	std::string err = open_error(path, trace_format::auto_detect);
	std::string want = path + ": no timer events in 4 lines read as ftrace (headers, comments "
		"or blank lines only): expected raw ftrace lines like 'TASK-PID [CPU] FLAGS SECONDS: "
		"timer_start: timer=...' (tracefs with events/timer enabled)";
	ck_assert_str_eq(err.c_str(), want.c_str());
	// Only hrtimer and other events: the first is named.
	path = test::write_temp("hr.txt", header +
		"     kworker/0:1-100   [000] ..s.  1000.000003: hrtimer_cancel: hrtimer=ffff88001fa0e980\n"
		"     kworker/0:1-100   [000] ..s.  1000.000004: sched_switch: prev_comm=a\n");
	err = open_error(path, trace_format::auto_detect);
	ck_assert_has(err, "no timer events in 6 lines read as ftrace (2 events, none a timer_* event; "
			   "the first is 'hrtimer_cancel')");
	ck_assert(err.find("looks like") == std::string::npos);	// detected: no hint
	// trace-cmd report of no timer event.
	path = test::write_temp("report.txt", "cpus=2\nCPU 0 is empty\nCPU 1 is empty\n");
	err = open_error(path, trace_format::trace_cmd_report);
	ck_assert_has(err, "no timer events in 3 lines read as trace-cmd-report");
	// One timer event is enough, wherever it is.
	path = test::write_temp("one.txt", header +
		"     kworker/0:1-100   [000] ..s.  1000.000003: hrtimer_cancel: hrtimer=ffff88001fa0e980\n" +
		events.substr(events.rfind("     kworker")));
	ck_assert_no_error(open_error(path, trace_format::auto_detect));
}
END_TEST

START_TEST(cli_exits_2_on_traces_without_timer_events)
{
	std::string path = test::write_temp("headers-cli.txt", header);
	test::cli_result r = test::run_timersim({"replay", path});
	ck_assert_int_eq(r.status, 2);
	ck_assert_has(r.err, "no timer events");
	ck_assert_str_eq(r.out.c_str(), "");
	std::string perf = test::write_temp("perf-cli.txt",
		"     rcu_preempt    15 [001]   563.988448:        timer:timer_init: timer=0xffffc9000007fdf8\n");
	r = test::run_timersim({"replay", "--format", "ftrace", perf});
	ck_assert_int_eq(r.status, 2);
	ck_assert_has(r.err, "perf-cli.txt:1:");
}
END_TEST

// ---- symbol files -------------------------------------------------------------

START_TEST(symbols_that_are_no_symbol_list_are_refused)
{
	std::string path = test::write_temp("sym-trace.txt", trace);
	reader_options opt;
	opt.symbols = "/dev/zero";	// endless, no newline: once 15.7 GB and "out of memory"
	try {
		open_trace(path, trace_format::auto_detect, opt);
		ck_abort_msg("/dev/zero loaded as symbols");
	} catch (const input_error &e) {
		ck_assert_str_eq(e.what(), "/dev/zero:1: line longer than 4096 bytes: not a System.map "
					   "or kallsyms file");
	}
	opt.symbols = test::temp_subdir("symdir");	// once an internal error, exit 1
	try {
		open_trace(path, trace_format::auto_detect, opt);
		ck_abort_msg("a directory loaded as symbols");
	} catch (const input_error &e) {
		ck_assert_string_eq(e.reason().c_str(), "is a directory, not a symbol file");
	}
	test::cli_result r = test::run_timersim({"replay", "--symbols", "/dev/zero", path});
	ck_assert_int_eq(r.status, 2);
	r = test::run_timersim({"replay", "--symbols", opt.symbols, path});
	ck_assert_int_eq(r.status, 2);	// the command line may refuse it first
	ck_assert_has(r.err, opt.symbols.c_str());
	ck_assert(r.err.find("internal error") == std::string::npos);
	// A gzip System.map streams like a plain one.
	opt.symbols = test::write_temp_gzip("System.map.gz", "ffffffff81065e00 T process_timeout\n");
	auto rd = open_trace(path, trace_format::auto_detect, opt);
	auto evs = test::read_all(*rd);
	ck_assert_str_eq(evs[0].function.c_str(), "process_timeout+0x80");
}
END_TEST

static Suite *refusals_suite()
{
	Suite *s = suite_create("text_refusals");
	TCase *eol = tcase_create("line_endings");
	tcase_add_test(eol, every_line_end_convention_reads_the_same_events);
	tcase_add_test(eol, line_source_decides_the_convention);
	tcase_add_test(eol, mixed_line_ends_are_refused);
	suite_add_tcase(s, eol);
	TCase *empty = tcase_create("no_timer_events");
	tcase_add_test(empty, forced_format_that_fits_no_line_is_an_error);
	tcase_add_test(empty, no_timer_events_is_an_error);
	tcase_add_test(empty, cli_exits_2_on_traces_without_timer_events);
	suite_add_tcase(s, empty);
	TCase *sym = tcase_create("symbols");
	tcase_add_test(sym, symbols_that_are_no_symbol_list_are_refused);
	suite_add_tcase(s, sym);
	return s;
}

int main()
{
	return timersim::test::run_suite(refusals_suite());
}
