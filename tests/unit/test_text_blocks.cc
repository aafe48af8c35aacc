// Reading a text trace in blocks on several threads (sim/stream/block_prefetch.h,
// sim/trace/text_blocks.h) against reading it line by line on one thread,
// the reference: the same events with the same lines and callback ids, the
// same counts, and the same error - the earliest bad line of the file, with
// its line and reason, however the blocks fall and whichever block is
// parsed first. Small blocks, so that a trace is many of them.

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "sim/replay/replay.h"
#include "sim/trace/line_source.h"
#include "sim/trace/reader.h"
#include "tests/support/cli.h"
#include "tests/support/stream_outcome.h"
#include "tests/support/text_trace_util.h"

// Last: check.h defines macros that clash with <iostream> internals.
#include "tests/support/check_main.h"

using namespace timersim;

namespace {

using test::stream_outcome;

// PATH through open_trace and a stream reading it line by line (BLOCK 0)
// or in blocks of BLOCK bytes.
stream_outcome read_through(const std::string &path, bool lenient, std::size_t block)
{
	reader_options opt;
	opt.lenient = lenient;
	try {
		auto reader = open_trace(path, trace_format::auto_detect, opt);
		return test::read_stream(*reader, block);
	} catch (const input_error &e) {
		stream_outcome o;
		o.error = std::string("open: ") + e.what();
		return o;
	}
}

const std::vector<std::size_t> small_blocks = {64, 333, 4096, default_text_block};
// For the recordings (megabytes): still hundreds of blocks.
const std::vector<std::size_t> large_blocks = {16384, default_text_block};

// Reads PATH line by line and in blocks of each of BLOCKS bytes; every way
// gives the reference's outcome. Returns the reference.
stream_outcome check_blocks_agree(const std::string &path, bool lenient,
			   const std::vector<std::size_t> &blocks = small_blocks)
{
	stream_outcome ref = read_through(path, lenient, 0);
	for (std::size_t block : blocks) {
		stream_outcome o = read_through(path, lenient, block);
		std::size_t at = 0;
		ck_assert_msg(test::same_outcome(o, ref, &at),
			      "%s block %zu: differs at event %zu of %zu; error '%s', line by line '%s'",
			      path.c_str(), block, at, ref.events.size(), o.error.c_str(),
			      ref.error.c_str());
	}
	return ref;
}

const char *const callbacks[] = {"process_timeout", "delayed_work_timer_fn", "0xffffffff81065e80",
				 "tcp_keepalive_timer"};

// Line 2 + i: timer i+1 started, expired or cancelled. BAD: body lines
// (0-based) replaced by a line that is not an event; NO_TIMEOUT: body lines
// whose timer_start lacks the [timeout=] the first one has.
std::string trace_text(unsigned n, const std::vector<unsigned> &bad = {},
		       const std::vector<unsigned> &no_timeout = {})
{
	std::string t = "# tracer: nop\n#\n# entries-in-buffer/entries-written: 1/1   #P:2\n";
	char payload[200];
	for (unsigned i = 0; i < n; i++) {
		bool is_bad = std::find(bad.begin(), bad.end(), i) != bad.end();
		bool short_start = std::find(no_timeout.begin(), no_timeout.end(), i) != no_timeout.end();
		if (is_bad) {
			t += "     kworker/0:1-100   [000] ..s.  12.5: timer_start: timer=not-a-pointer\n";
			continue;
		}
		if (i % 3 == 0 || short_start)
			std::snprintf(payload, sizeof payload,
				      "timer_start: timer=%016x function=%s expires=%u%s", i + 1,
				      callbacks[i % 4], 1010 + i, short_start ? "" : " [timeout=10]");
		else if (i % 3 == 1)
			std::snprintf(payload, sizeof payload,
				      "timer_expire_entry: timer=%016x function=%s now=%u", i, callbacks[i % 4],
				      1010 + i);
		else
			std::snprintf(payload, sizeof payload, "timer_cancel: timer=%016x", i - 1);
		t += test::ftrace_line(i % 2, 1000000 + i, payload);
	}
	return t;
}

}  // namespace

START_TEST(clean_traces_read_alike)
{
	std::string text = trace_text(2000);
	stream_outcome ref = check_blocks_agree(test::write_temp("clean.txt", text), false);
	ck_assert(ref.error.empty());
	ck_assert_uint_eq(ref.events.size(), 2000);
	// Without the last newline, and with CRLF or CR line ends.
	std::string cut = text.substr(0, text.size() - 1);
	ck_assert(check_blocks_agree(test::write_temp("nolf.txt", cut), false).error.empty());
	std::string crlf, cr;
	for (char c : text) {
		crlf += c == '\n' ? "\r\n" : std::string(1, c);
		cr += c == '\n' ? '\r' : c;
	}
	ck_assert_uint_eq(check_blocks_agree(test::write_temp("crlf.txt", crlf), false).events.size(), 2000);
	ck_assert_uint_eq(check_blocks_agree(test::write_temp("cr.txt", cr), false).events.size(), 2000);
}
END_TEST

START_TEST(the_earliest_bad_line_is_the_one_reported)
{
	// One bad line far into the trace, many blocks after a good start.
	stream_outcome one = check_blocks_agree(test::write_temp("late.txt", trace_text(2000, {1500})), false);
	ck_assert_uint_eq(one.error_line, 4 + 1500);
	ck_assert_uint_eq(one.events.size(), 1500);
	// Bad lines in two blocks (and a later one that is bad by its keys):
	// the earlier is the error, whichever block was parsed first.
	stream_outcome two = check_blocks_agree(
		test::write_temp("two.txt", trace_text(2000, {700, 1900}, {1950})), false);
	ck_assert_uint_eq(two.error_line, 4 + 700);
	ck_assert_msg(two.error.find("not-a-pointer") != std::string::npos ||
			      two.error.find("pointer") != std::string::npos,
		      "%s", two.error.c_str());
	// A timer_start without the [timeout=] of the first, blocks later,
	// before a bad line: the missing key is the error.
	stream_outcome keys = check_blocks_agree(
		test::write_temp("keys.txt", trace_text(2000, {1800}, {1203})), false);
	ck_assert_uint_eq(keys.error_line, 4 + 1203);
	ck_assert_msg(keys.error.find("missing [timeout=]") != std::string::npos, "%s",
		      keys.error.c_str());
	// The same as the last line, without its newline: cut short.
	std::string text = trace_text(1204, {}, {1203});
	stream_outcome last = check_blocks_agree(test::write_temp("lastcut.txt", text.substr(0, text.size() - 1)),
					  false);
	ck_assert_msg(last.error.find("last line cut short") != std::string::npos, "%s",
		      last.error.c_str());
}
END_TEST

START_TEST(lenient_counts_agree)
{
	std::vector<unsigned> bad, short_starts;
	for (unsigned i = 5; i < 3000; i += 97)
		bad.push_back(i);
	for (unsigned i = 9; i < 3000; i += 301)
		short_starts.push_back(i - i % 3);
	stream_outcome o = check_blocks_agree(
		test::write_temp("lenient.txt", trace_text(3000, bad, short_starts)), true);
	ck_assert(o.error.empty());
	ck_assert_uint_eq(o.stats.malformed, bad.size() + short_starts.size());
	ck_assert_uint_eq(o.stats.lines, o.stats.events + o.stats.skipped);
}
END_TEST

START_TEST(odd_lines_agree)
{
	std::string text = trace_text(600);
	// A carriage return inside a line of an LF file, an overlong line
	// (past the reader's buffer), blank lines, and a trace without a
	// timer event at all.
	std::string stray = text;
	stray.insert(stray.find("timer_cancel"), "\r");
	stream_outcome s = check_blocks_agree(test::write_temp("stray.txt", stray), false);
	ck_assert_msg(s.error.find("mixed line endings") != std::string::npos, "%s", s.error.c_str());
	check_blocks_agree(test::write_temp("stray-lenient.txt", stray), true);

	std::string overlong = text;
	std::size_t at = overlong.find('\n', overlong.size() / 2) + 1;
	overlong.insert(at, std::string(line_source::default_buffer + 100, 'x') + "\n");
	stream_outcome o = check_blocks_agree(test::write_temp("overlong.txt", overlong), false);
	ck_assert_msg(o.error.find("line longer than the 1048576-byte read buffer") !=
			      std::string::npos &&
		      o.error.find("cut short") == std::string::npos,
		      "%s", o.error.c_str());
	stream_outcome ol = check_blocks_agree(test::write_temp("overlong-lenient.txt", overlong), true);
	ck_assert_uint_eq(ol.stats.malformed, 1);
	ck_assert_uint_eq(ol.events.size(), 600);
	// Overlong as the last line, without its newline.
	check_blocks_agree(test::write_temp("overlong-end.txt",
					    text + std::string(line_source::default_buffer + 5, 'y')),
			   true);

	std::string blank = text;
	blank.insert(at, "\n\n   \n");
	ck_assert_uint_eq(check_blocks_agree(test::write_temp("blank.txt", blank), false).stats.skipped,
			  3 + 3);
	// More lines in a block than sim/trace/line_ends.h indexes at once.
	std::string many = text;
	many.insert(at, std::string(20000, '\n'));
	ck_assert_uint_eq(check_blocks_agree(test::write_temp("many.txt", many), false).stats.skipped,
			  20000 + 3);
	stream_outcome none = check_blocks_agree(
		test::write_temp("none.txt", test::ftrace_text(test::ftrace_line(0, 5, "sched_switch: x=1"))),
		false);
	ck_assert_msg(none.error.find("no timer events") != std::string::npos, "%s", none.error.c_str());
}
END_TEST

// irq_handler_exit names no handler: whether it is the timer's comes from
// the entry before it, often in another block. Every way of reading marks
// the same exits (the entry of irq 11 names the arch timer, irq 36 a disk).
START_TEST(timer_irq_exits_are_marked_across_blocks)
{
	std::string t = "# tracer: nop\n#\n# entries-in-buffer/entries-written: 1/1   #P:2\n";
	t += test::ftrace_line(0, 1000000, "timer_start: timer=0000000000000001 function=process_timeout expires=1010 [timeout=10]");
	for (unsigned i = 0; i < 400; i++) {
		unsigned irq = i % 3 ? 11 : 36;
		const char *name = irq == 11 ? "arch_timer" : "virtio1-req.0";
		t += test::ftrace_line(i % 2, 1000010 + 10 * i,
				       "irq_handler_entry: irq=" + std::to_string(irq) + " name=" + name);
		t += test::ftrace_line(i % 2, 1000015 + 10 * i,
				       "irq_handler_exit: irq=" + std::to_string(irq) + " ret=handled");
	}
	stream_outcome ref = check_blocks_agree(test::write_temp("irqs.txt", t), false);
	ck_assert_uint_eq(ref.events.size(), 801);
	unsigned timer_exits = 0;
	for (const sim_event &e : ref.events)
		timer_exits += e.kind == event_kind::irq_exit && e.timer_interrupt;
	ck_assert_uint_eq(timer_exits, 266);
}
END_TEST

// The shared recordings (text renderings), strict and lenient; decompressed
// copies of the bundled gzip traces (gzip itself is read line by line).
START_TEST(recorded_traces_agree)
{
	const char *const traces[] = {"../shared/traces/linux-3.6-scp_dest/trace.txt",
				      "../shared/traces/linux-6.18-http/trace.txt",
				      "../shared/traces/linux-6.18-http/trace-cmd-report.txt",
				      "../shared/traces/linux-6.18-tcp/perf-script.txt"};
	std::string path = traces[_i];
	if (std::FILE *f = std::fopen(path.c_str(), "r"))
		std::fclose(f);
	else {
		std::printf("SKIP %s: not there\n", path.c_str());
		return;
	}
	stream_outcome o = check_blocks_agree(path, false, large_blocks);
	ck_assert(!o.events.empty() || !o.error.empty());
	check_blocks_agree(path, true, large_blocks);
}
END_TEST

START_TEST(replays_agree)
{
	std::string path = test::write_temp("replay.txt", trace_text(5000, {}, {}));
	// Lenient: the made-up trace's jiffies are not all in order.
	replay_options opt;
	opt.lenient = true;
	reader_options lenient;
	lenient.lenient = true;
	std::vector<replay_report> r;
	for (std::size_t block : {std::size_t(0), std::size_t(200), default_text_block}) {
		opt.text_block = block;
		auto reader = open_trace(path, trace_format::auto_detect, lenient);
		r.push_back(replay_trace(*reader, path, opt));
	}
	for (std::size_t i = 1; i < r.size(); i++) {
		ck_assert_uint_eq(r[i].input.lines, r[0].input.lines);
		ck_assert_uint_eq(r[i].input.events, r[0].input.events);
		ck_assert_uint_eq(r[i].input.malformed, r[0].input.malformed);
		ck_assert_uint_eq(r[i].input.bytes, r[0].input.bytes);
		ck_assert_uint_eq(r[i].input.cpus, r[0].input.cpus);
		ck_assert_uint_eq(r[i].events.timer_start, r[0].events.timer_start);
		ck_assert_uint_eq(r[i].events.timer_cancel, r[0].events.timer_cancel);
		ck_assert_uint_eq(r[i].timers.expired, r[0].timers.expired);
		ck_assert_uint_eq(r[i].timers.pending_at_end, r[0].timers.pending_at_end);
	}
	ck_assert_uint_gt(r[0].input.events, 3000);
}
END_TEST

int main()
{
	Suite *s = suite_create("text_blocks");
	TCase *tc = tcase_create("blocks");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, clean_traces_read_alike);
	tcase_add_test(tc, timer_irq_exits_are_marked_across_blocks);
	tcase_add_test(tc, the_earliest_bad_line_is_the_one_reported);
	tcase_add_test(tc, lenient_counts_agree);
	tcase_add_test(tc, odd_lines_agree);
	tcase_add_loop_test(tc, recorded_traces_agree, 0, 4);
	tcase_add_test(tc, replays_agree);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
