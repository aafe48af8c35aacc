// Input lost before or during the read is counted and named, never passed
// over in silence (issue 25): the tracer's lost-event notes of every text
// rendering count per CPU in input.lost_events and mark the misses that may
// be theirs (events_lost); a gzip file cut short is an error naming the
// file and the byte offset, or under --lenient is replayed up to the cut,
// which the report states; a perf.data file is refused with the command
// that renders it as text.
#include <algorithm>
#include <string>
#include <vector>

#include "sim/replay/replay.h"
#include "sim/report/report_writers.h"
#include "sim/trace/reader.h"
#include "sim/trace/text_reader.h"
#include "tests/support/cli.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"	// last: check.h defines a fail() macro

using namespace timersim;
using timersim::test::owned_event;
using timersim::test::run_suite;

namespace {

bool contains(const std::string &s, const std::string &part)
{
	return s.find(part) != std::string::npos;
}

std::uint64_t misses_of(const replay_report &r, const std::string &why)
{
	for (const auto &[name, n] : r.fidelity.misses)
		if (name == why)
			return n;
	ck_abort_msg("no miss cause %s", why.c_str());
	return 0;
}

// Timer A is armed, the tracer loses events on CPU 0 (a re-arm of A among
// them, say), then A fires 10 jiffies after its traced expiry; timer B is
// armed after the loss and fires 5 jiffies late without a reason.
std::string lossy_trace(const std::string &note)
{
	using test::ftrace_line;
	return test::ftrace_text(
		ftrace_line(0, 1000000, "timer_start: timer=ffff880000001000 function=fa expires=1010 [timeout=10]") +
		ftrace_line(1, 1000100, "timer_start: timer=ffff880000003000 function=fc expires=1011 [timeout=10]") +
		note + "\n" +
		ftrace_line(1, 1000200, "timer_cancel: timer=ffff880000003000") +
		ftrace_line(0, 1040000, "timer_expire_entry: timer=ffff880000001000 function=fa now=1020") +
		ftrace_line(0, 1044000, "timer_start: timer=ffff880000002000 function=fb expires=1031 [timeout=10]") +
		ftrace_line(0, 1060000, "timer_expire_entry: timer=ffff880000002000 function=fb now=1036"),
		2);
}

replay_report replay_text(const std::string &text, std::size_t block)
{
	std::string path = test::write_temp("lossy.txt", text);
	replay_options opt;
	opt.hz = 250;
	opt.text_block = block;
	auto reader = open_trace(path, trace_format::auto_detect, {});
	return replay_trace(*reader, path, opt);
}

}  // namespace

// The notes as tracefs, trace-cmd report and perf script print them.
START_TEST(lost_event_notes_count_per_cpu)
{
	struct {
		const char *line;
		trace_format fmt;
		std::uint32_t cpu;
		std::uint64_t events;
	} notes[] = {
		{"CPU:1 [LOST 1234 EVENTS]", trace_format::ftrace, 1, 1234},
		{"CPU:3 [LOST EVENTS]", trace_format::ftrace, 3, 0},
		{"CPU:0 [77 EVENTS DROPPED]", trace_format::trace_cmd_report, 0, 77},
		{"CPU:2 [EVENTS DROPPED]", trace_format::trace_cmd_report, 2, 0},
		{"            perf 14385 [001]   975.992254: PERF_RECORD_LOST lost 12",
		 trace_format::perf_script, 1, 12},
	};
	const char *event[] = {
		"          <idle>-0     [001] d.h.  1000.000400: timer_cancel: timer=ffff88001fa1b0f8",
		"          <idle>-0     [001]  1000.000400: timer_cancel:        timer=0xffff88001fa1b0f8",
		"          <idle>     0 [001]  1000.000400: timer:timer_cancel: timer=0xffff88001fa1b0f8",
	};
	for (const auto &n : notes) {
		const char *ev = event[n.fmt == trace_format::ftrace ? 0
				       : n.fmt == trace_format::trace_cmd_report ? 1 : 2];
		std::string text = std::string(ev) + "\n" + n.line + "\n" + n.line + "\n" + ev + "\n";
		auto r = make_text_reader_from_memory(text, "m", n.fmt, {});
		std::vector<owned_event> evs = test::read_all(*r);
		const reader_stats &st = r->stats();
		ck_assert_uint_eq(evs.size(), 2);
		ck_assert_uint_eq(st.skipped, 2);
		ck_assert_uint_eq(st.malformed, 0);
		ck_assert_uint_eq(st.lost_events, 2 * n.events);
		ck_assert_uint_eq(st.lost_cpus.size(), 1);
		ck_assert_uint_eq(st.lost_cpus[0].cpu, n.cpu);
		ck_assert_uint_eq(st.lost_cpus[0].events, 2 * n.events);
		ck_assert_uint_eq(st.lost_cpus[0].notes, 2);
		// The first event of the note's CPU after it follows the loss.
		ck_assert(!evs[0].carries(EF_AFTER_LOSS));
		ck_assert(evs[1].carries(EF_AFTER_LOSS) == (n.cpu == 1));
	}
	// Not notes: text that only looks alike is still an error.
	for (const char *bad : {"CPU:x [LOST 12 EVENTS]", "CPU:1 [LOST many EVENTS]", "CPU:1 LOST"}) {
		// The reader reads the text in place: it must outlive the reader.
		const std::string text = std::string(bad) + "\n";
		auto r = make_text_reader_from_memory(text, "m", trace_format::ftrace, {});
		try {
			test::read_all(*r);
			ck_abort_msg("'%s' read", bad);
		} catch (const input_error &) {
		}
	}
}
END_TEST

// In a replay: the report counts them per CPU, in text and JSON, and the
// misses after a loss are named events_lost; read in blocks (on several
// threads) or line by line, the same.
START_TEST(lost_events_name_the_misses_after_them)
{
	for (std::size_t block : {std::size_t{0}, std::size_t{64}, default_text_block}) {
		replay_report r = replay_text(lossy_trace("CPU:0 [LOST 5 EVENTS]"), block);
		ck_assert_uint_eq(r.input.lost_events, 5);
		ck_assert_uint_eq(r.input.lost_cpus.size(), 1);
		ck_assert_uint_eq(r.input.lost_cpus[0].cpu, 0);
		ck_assert_uint_eq(r.input.lost_cpus[0].events, 5);
		ck_assert_uint_eq(r.fidelity.early, 2);
		ck_assert_uint_eq(misses_of(r, "events_lost"), 1);
		ck_assert_uint_eq(misses_of(r, "unexplained"), 1);

		std::string text = text_report(r, {});
		ck_assert_msg(contains(text, "lost     5 events the tracer lost") &&
				      contains(text, "CPU 0: 5 in 1 note") &&
				      contains(text, "events_lost 1"),
			      "%s", text.c_str());
		std::string json = json_report(r, false);
		ck_assert_msg(contains(json, "\"lost_events\": 5,") &&
				      contains(json, "\"lost_events_by_cpu\": [\n      {\n        \"cpu\": 0,\n"
						     "        \"events\": 5,\n        \"notes\": 1\n") &&
				      contains(json, "\"events_lost\": 1"),
			      "%s", json.c_str());
	}
	// Without the loss the same miss is unexplained.
	replay_report r = replay_text(lossy_trace(""), 0);
	ck_assert_uint_eq(r.input.lost_events, 0);
	ck_assert_uint_eq(misses_of(r, "events_lost"), 0);
	ck_assert_uint_eq(misses_of(r, "unexplained"), 2);
}
END_TEST

// Counts whose sum passes 2^64 - 1 are no tracer's (issue 41, defect 4):
// summed, they wrapped to a small, plausible total. The note that passes
// it is an input error at its line, line by line or in blocks; under
// --lenient it is skipped and counted malformed.
START_TEST(lost_counts_past_2_64_are_refused)
{
	const std::string notes = "CPU:0 [LOST 18446744073709551615 EVENTS]\nCPU:1 [LOST 2 EVENTS]";
	std::string text = lossy_trace(notes);
	std::size_t at = text.find("CPU:1 [LOST");
	std::uint64_t line = 1 + std::uint64_t(std::count(text.begin(), text.begin() + at, '\n'));
	for (std::size_t block : {std::size_t{0}, std::size_t{64}, default_text_block}) {
		try {
			replay_report r = replay_text(text, block);
			ck_abort_msg("block %zu: lost_events %llu", block,
				     (unsigned long long)r.input.lost_events);
		} catch (const input_error &e) {
			ck_assert_uint_eq(e.line(), line);
			ck_assert_string_eq(e.reason().c_str(), lost_events_overflow);
		}
	}
	reader_options opt;
	opt.lenient = true;
	auto r = make_text_reader_from_memory(text, "m", trace_format::ftrace, opt);
	test::read_all(*r);
	ck_assert_uint_eq(r->stats().lost_events, 18446744073709551615ull);
	ck_assert_uint_eq(r->stats().malformed, 1);
	// The CLI: exit 2, file and line.
	std::string path = test::write_temp("overflow.txt", text);
	test::cli_result c = test::run_timersim({"replay", path});
	ck_assert_int_eq(c.status, 2);
	ck_assert_msg(contains(c.err, "overflow.txt:" + std::to_string(line) + ": the lost-event counts"),
		      "%s", c.err.c_str());
}
END_TEST

// A .gz cut short: exit 2 naming the file and the offset, never zlib's
// internal stream name; --lenient replays up to the cut and says so.
START_TEST(truncated_gzip_is_named_or_replayed_to_the_cut)
{
	std::string body;
	for (unsigned i = 0; i < 4000; i++) {
		char payload[160];
		std::snprintf(payload, sizeof payload,
			      "timer_start: timer=ffff88000000%04x function=f%u expires=%u [timeout=%u]",
			      i, i % 50, 1000 + i / 4 + 10, 10);
		body += test::ftrace_line(0, 1000000 + i * 1000ull, payload);
	}
	std::string whole = test::read_whole_file(test::write_temp_gzip("whole.txt.gz", test::ftrace_text(body)));
	const std::size_t cut = whole.size() * 2 / 3;
	std::string path = test::write_temp("cut.txt.gz", whole.substr(0, cut));

	test::cli_result strict = test::run_timersim({"replay", "--hz", "250", path});
	ck_assert_int_eq(strict.status, 2);
	ck_assert_msg(contains(strict.err, path) &&
			      contains(strict.err, "truncated gzip stream at byte offset " + std::to_string(cut)),
		      "%s", strict.err.c_str());
	ck_assert_msg(!contains(strict.err, "<fd:"), "%s", strict.err.c_str());

	test::cli_result lenient = test::run_timersim({"replay", "--hz", "250", "--lenient", path});
	ck_assert_msg(lenient.status == 0, "exit %d: %s", lenient.status, lenient.err.c_str());
	ck_assert_msg(!contains(lenient.err, "<fd:"), "%s", lenient.err.c_str());
	ck_assert_msg(contains(lenient.out, "gzip stream is cut short at byte offset " + std::to_string(cut)),
		      "%s", lenient.out.c_str());
	test::cli_result json = test::run_timersim({"replay", "--hz", "250", "--lenient", "--json", "-", path});
	ck_assert_int_eq(json.status, 0);
	ck_assert_msg(contains(json.out, "\"truncated_at\": " + std::to_string(cut) + ","), "%s",
		      json.out.c_str());
	// Most of the events before the cut were replayed, the cut line counted.
	reader_options lenient_opt;
	lenient_opt.lenient = true;
	auto r = open_trace(path, trace_format::auto_detect, lenient_opt);
	std::vector<owned_event> evs = test::read_all(*r);
	ck_assert_uint_gt(evs.size(), 1000);
	ck_assert_uint_lt(evs.size(), 4000);
	ck_assert_uint_eq(r->stats().truncated_at, cut);
	ck_assert_uint_le(r->stats().malformed, 1);
	// The whole file reads whole.
	auto w = open_trace(test::write_temp("w.txt.gz", whole), trace_format::auto_detect, lenient_opt);
	ck_assert_uint_eq(test::read_all(*w).size(), 4000);
	ck_assert_uint_eq(w->stats().truncated_at, 0);
}
END_TEST

// perf record's binary output is recognised by its magic and refused with
// the command that makes it a trace this tool reads.
START_TEST(perf_data_is_named_with_the_command_to_run)
{
	for (std::string magic : {"PERFILE2", "2ELIFREP", "PERFFILE"}) {
		std::string data = magic + std::string("\x68\0\0\0\0\0\0\0", 8) + std::string(200, '\0');
		std::string path = test::write_temp("perf.data", data);
		for (const char *fmt : {"auto", "perf-script"}) {
			test::cli_result r = test::run_timersim({"replay", "--format", fmt, path});
			ck_assert_int_eq(r.status, 2);
			ck_assert_msg(contains(r.err, path + ": a perf.data file") &&
					      contains(r.err, "perf script -i " + path + " > trace.txt"),
				      "%s", r.err.c_str());
		}
	}
}
END_TEST

int main()
{
	Suite *s = suite_create("text_loss");
	TCase *tc = tcase_create("loss");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, lost_event_notes_count_per_cpu);
	tcase_add_test(tc, lost_events_name_the_misses_after_them);
	tcase_add_test(tc, lost_counts_past_2_64_are_refused);
	tcase_add_test(tc, truncated_gzip_is_named_or_replayed_to_the_cut);
	tcase_add_test(tc, perf_data_is_named_with_the_command_to_run);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
