// Every event kind is held to the keys it carries (issue 41, defect 1): an
// hrtimer (or softirq, irq) line cut short or missing a key is an input error with its file
// and line in a strict read (exit status 2 from the CLI), one skipped and
// malformed line in a lenient one - as a timer_* line is, in every text
// rendering and in the block-parallel read. And lines of the real
// recordings, cut at random places (a fixed seed), are each refused when
// the cut loses a key.
#include <zlib.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/stream/event_stream.h"
#include "sim/trace/reader.h"
#include "sim/trace/text_reader.h"
#include "tests/support/cli.h"
#include "tests/support/stream_outcome.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"	// last: check.h defines a fail() macro

using namespace timersim;

namespace {

// A 6.18 recording's lines (../shared/traces/linux-6.18-http/trace.txt).
const std::string header = "# tracer: nop\n#\n#P:2\n";
const std::string setup =
	"            bash-13823   [000] .....   949.458480: hrtimer_setup: hrtimer=00000000d4448b79 clockid=CLOCK_MONOTONIC mode=REL|HARD\n";
const std::string entry =
	"     workload.sh-13825   [001] d.h..   949.460770: hrtimer_expire_entry: hrtimer=00000000d8040f62 function=tick_nohz_handler now=949436001722\n";
const std::string start =
	"     workload.sh-13825   [001] d.h1.   949.460777: hrtimer_start: hrtimer=00000000d8040f62 function=tick_nohz_handler expires=949440000000 softexpires=949440000000 mode=ABS was_armed=0\n";
const std::string timer =
	"     rcu_preempt-15      [001] d..1.   949.460795: timer_start: timer=00000000315ef0ae function=process_timeout expires=4295129626 [timeout=1] bucket_expiry=4295129627 cpu=1 idx=27 flags=\n";

// What reading TEXT as FMT ends with: the what() of its input_error, ""
// when none. LENIENT: the malformed count instead ("malformed N").
std::string outcome(const std::string &text, trace_format fmt = trace_format::ftrace,
		    bool lenient = false)
{
	reader_options opt;
	opt.lenient = lenient;
	try {
		auto r = make_text_reader_from_memory(text, "t.txt", fmt, opt);
		test::read_all(*r);
		if (lenient)
			return "malformed " + std::to_string(r->stats().malformed);
	} catch (const input_error &e) {
		return e.what();
	}
	return "";
}

// The same through a stream reading the file in blocks of BLOCK bytes.
std::string block_outcome(const std::string &text, std::size_t block)
{
	std::string path = test::write_temp("blocks.txt", text);
	reader_options opt;
	auto r = open_trace(path, trace_format::ftrace, opt);
	test::stream_outcome o = test::read_stream(*r, block);
	std::string e = o.error;
	std::size_t colon = e.find(".txt:");	// the temporary directory's name off
	return colon == std::string::npos ? e : "t" + e.substr(colon);
}

// Check's string asserts evaluate their arguments twice: keep the string.
#define expect_outcome(got, expected)                                              \
	do {                                                                       \
		std::string got_ = (got);                                          \
		ck_assert_str_eq(got_.c_str(), expected);                          \
	} while (0)

std::string cut_after(const std::string &line, std::string_view keep_through)
{
	std::size_t at = line.find(keep_through);
	ck_assert(at != std::string::npos);
	return line.substr(0, at + keep_through.size());
}

}  // namespace

// ---- the attack's inputs -------------------------------------------------

START_TEST(hrtimer_start_cut_to_its_function_is_refused)
{
	std::string cut = cut_after(start, "function=tick_");
	// Mid-file, and as the last line without its newline.
	expect_outcome(outcome(header + setup + cut + "\n" + timer),
		       "t.txt:5: hrtimer_start: missing expires=");
	expect_outcome(outcome(header + setup + cut),
		       "t.txt:5: last line cut short (no newline at the end): hrtimer_start: missing expires=");
	expect_outcome(outcome(header + setup + cut + "\n" + timer, trace_format::ftrace, true),
		       "malformed 1");
}
END_TEST

START_TEST(hrtimer_start_cut_mid_expires_is_refused)
{
	std::string cut = start.substr(0, start.find(" expires=")) + " expires=140288";
	expect_outcome(outcome(header + cut + "\n" + timer),
		       "t.txt:4: hrtimer_start: missing softexpires=");
	// expires before softexpires: no kernel prints that.
	std::string early = start;
	early.replace(early.find("expires=949440000000"), 20, "expires=140288");
	expect_outcome(outcome(header + early),
		       "t.txt:4: hrtimer_start: expires=140288 is before softexpires=949440000000");
}
END_TEST

START_TEST(hrtimer_expire_entry_without_now_is_refused)
{
	std::string cut = cut_after(entry, "function=tick_nohz_handler");
	expect_outcome(outcome(header + setup + cut + "\n" + start),
		       "t.txt:5: hrtimer_expire_entry: missing now=");
	expect_outcome(outcome(header + setup + start + cut),
		       "t.txt:6: last line cut short (no newline at the end): hrtimer_expire_entry: missing now=");
	// The block-parallel read judges it the same, at the same line.
	for (std::size_t block : {64u, 4096u})
		expect_outcome(block_outcome(header + setup + cut + "\n" + start + timer, block),
			       "t.txt:5: hrtimer_expire_entry: missing now=");
}
END_TEST

// A key a kernel prints for an event but not for the first one of its kind
// (mode= and was_armed= of hrtimer_start): the first one's keys hold.
START_TEST(hrtimer_start_without_the_first_ones_keys_is_refused)
{
	std::string no_armed = cut_after(start, "mode=ABS");
	expect_outcome(outcome(header + start + no_armed + "\n"),
		       "t.txt:5: hrtimer_start: missing was_armed= (the first hrtimer_start, line 4, has it)");
	expect_outcome(block_outcome(header + start + timer + no_armed + "\n" + timer, 64),
		       "t.txt:6: hrtimer_start: missing was_armed= (the first hrtimer_start, line 4, has it)");
	std::string no_mode = cut_after(start, "softexpires=949440000000");
	expect_outcome(outcome(header + start + no_mode),
		       "t.txt:5: last line cut short (no newline at the end): hrtimer_start: missing mode= (the first hrtimer_start, line 4, has it)");
}
END_TEST

START_TEST(hrtimer_values_cut_short_are_refused)
{
	expect_outcome(outcome(header + cut_after(setup, "mode=REL|") + "\n"),
		       "t.txt:4: hrtimer_setup: mode is not a mode: 'REL|'");
	expect_outcome(outcome(header + cut_after(setup, "clockid=CLOCK_MONO") + "\n"),
		       "t.txt:4: hrtimer_setup: clockid is not a clock: 'CLOCK_MONO'");
	expect_outcome(outcome(header + cut_after(setup, "clockid=CLOCK_MONOTONIC mo") + "\n"),
		       "t.txt:4: hrtimer_setup: not a key=value field: 'mo'");
	expect_outcome(outcome(header + cut_after(entry, "now=") + "\n"),
		       "t.txt:4: hrtimer_expire_entry: now is not a number: ''");
	expect_outcome(outcome(header + "  a-1 [000] d..1. 1.000001: hrtimer_cancel: hrtimer=zz\n"),
		       "t.txt:4: hrtimer_cancel: hrtimer is not a pointer: 'zz'");
	expect_outcome(outcome(header + "  a-1 [000] d..1. 1.000001: hrtimer_expire_exit:\n"),
		       "t.txt:4: hrtimer_expire_exit: missing hrtimer=");
	// The 3.x enum names, cut after their prefix: no ABS.
	expect_outcome(outcome(header + "  a-1 [000] d..1. 1.000001: hrtimer_init: hrtimer=ffff88001db899f8 clockid=CLOCK_MONOTONIC mode=HRTIMER_MODE_\n"),
		       "t.txt:4: hrtimer_init: mode is not a mode: 'HRTIMER_MODE_'");
}
END_TEST

// trace-cmd report's plugin prints hrtimer_start without mode= and its
// expiry's now= before function=; perf script the modes as numbers. Each
// is read whole and refused cut.
START_TEST(hrtimer_keys_in_the_other_renderings)
{
	std::string report =
		"cpus=2\n"
		"     workload.sh-13825 [001]   949.460770: hrtimer_expire_entry: hrtimer=0xffff888627d1c6f8 now=949436001722 function=tick_nohz_handler/0x0\n"
		"     workload.sh-13825 [001]   949.460777: hrtimer_start:        hrtimer=0xffff888627d1c6f8 function=tick_nohz_handler/0x0 expires=949440000000 softexpires=949440000000\n";
	expect_outcome(outcome(report, trace_format::trace_cmd_report), "");
	expect_outcome(outcome(report.substr(0, report.find(" function=tick_nohz_handler/0x0\n")) + "\n",
			       trace_format::trace_cmd_report),
		       "t.txt:2: hrtimer_expire_entry: missing function=");
	expect_outcome(outcome(report.substr(0, report.find(" softexpires=")), trace_format::trace_cmd_report),
		       "t.txt:3: last line cut short (no newline at the end): hrtimer_start: missing softexpires=");
	std::string perf =
		"    workload2.sh 14385 [001]   975.992062:        timer:hrtimer_setup: hrtimer=0xffff888102cbb120 clockid=CLOCK_MONOTONIC mode=0x9\n"
		"    workload2.sh 14385 [001]   975.992244:        timer:hrtimer_start: hrtimer=0xffff888627d1c6f8 function=tick_nohz_handler expires=975996000000 softexpires=975996000000 mode=0x0 was_armed=0\n";
	expect_outcome(outcome(perf, trace_format::perf_script), "");
	expect_outcome(outcome(perf.substr(0, perf.find(" clockid=")) + "\n", trace_format::perf_script),
		       "t.txt:1: hrtimer_setup: missing clockid=");
	expect_outcome(outcome(perf.substr(0, perf.find("mode=0x0") + 7), trace_format::perf_script),
		       "t.txt:2: last line cut short (no newline at the end): hrtimer_start: mode is not a mode: '0x'");
}
END_TEST

START_TEST(cli_exits_2_naming_the_line)
{
	std::string path = test::write_temp("cut.txt", header + setup + timer +
					    cut_after(start, "function=tick_") + "\n" + timer);
	test::cli_result r = test::run_timersim({"replay", path});
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(r.err.find("cut.txt:6: hrtimer_start: missing expires=") != std::string::npos,
		      "%s", r.err.c_str());
	test::cli_result l = test::run_timersim({"replay", "--lenient", path});
	ck_assert_msg(l.status == 0, "%d %s", l.status, l.err.c_str());
	ck_assert_msg(l.out.find("1 malformed") != std::string::npos, "%s", l.out.c_str());
}
END_TEST

// ---- random cuts of real recordings --------------------------------------

namespace {

// A small generator of our own: the same cuts with every standard library.
struct lcg {
	std::uint64_t state;
	std::uint64_t below(std::uint64_t n)
	{
		state = state * 6364136223846793005ull + 1442695040888963407ull;
		return (state >> 33) % n;
	}
};

// The events whose keys the reader knows (the others, tick_stop here, are
// not looked into).
const char *const known_events[] = {
	"timer_init:", "timer_start:", "timer_cancel:", "timer_expire_entry:",
	"timer_expire_exit:", "timer_base_idle:", "hrtimer_setup:", "hrtimer_init:",
	"hrtimer_start:", "hrtimer_cancel:", "hrtimer_expire_entry:", "hrtimer_expire_exit:",
	"softirq_entry:", "softirq_exit:", "softirq_raise:", "irq_handler_entry:",
	"irq_handler_exit:", "local_timer_entry:", "local_timer_exit:", "reschedule_entry:",
	"reschedule_exit:", "irq_work_entry:", "irq_work_exit:",
};

// The text of PATH, gunzipped when it ends in .gz.
std::string read_text(const std::string &path)
{
	if (!path.ends_with(".gz"))
		return test::read_whole_file(path);
	std::string text;
	gzFile f = gzopen(path.c_str(), "rb");
	ck_assert_msg(f, "%s: cannot open", path.c_str());
	char buf[1 << 16];
	int n;
	while ((n = gzread(f, buf, sizeof buf)) > 0)
		text.append(buf, std::size_t(n));
	gzclose(f);
	return text;
}

// The known event LINE is of, "" if none.
std::string_view event_of(std::string_view line)
{
	for (std::string_view e : known_events) {
		std::size_t at = line.find(e);
		if (at != std::string_view::npos && at > 0 && (line[at - 1] == ' ' || line[at - 1] == ':'))
			return e;
	}
	return {};
}

struct cut_count {
	unsigned losing = 0;	// cuts that lose a key: each refused
	unsigned kept = 0;	// cuts inside the last value: not judged here
};

// CUTS lines of the recording at PATH (rendering FMT), each a known event
// with an earlier line of its event, cut at a random place: every cut that
// drops the '=' of the line's last key is refused, as the last line and
// mid-file, strict (at its line) and lenient (one malformed line).
cut_count cut_recording(const std::string &path, trace_format fmt, unsigned cuts,
			std::uint64_t seed)
{
	std::string text = read_text(path);
	ck_assert_msg(!text.empty(), "%s: not found (run from the tree's top)", path.c_str());
	std::vector<std::size_t> starts;	// of each line
	std::vector<bool> seen_before;		// an earlier line has its event
	std::vector<std::string_view> seen;
	for (std::size_t at = 0; at < text.size(); at = text.find('\n', at) + 1) {
		std::size_t stop = text.find('\n', at);
		if (stop == std::string::npos)
			break;
		std::string_view event = event_of(std::string_view(text).substr(at, stop - at));
		bool before = false;
		for (std::string_view e : seen)
			before = before || e == event;
		if (!before)
			seen.push_back(event);
		starts.push_back(at);
		seen_before.push_back(before);
	}
	lcg rng{seed};
	cut_count n;
	for (unsigned tries = 0; n.losing + n.kept < cuts && tries < 100 * cuts; tries++) {
		std::size_t i = rng.below(starts.size() - 1);
		std::size_t begin = starts[i], stop = text.find('\n', begin);
		std::string_view line(text.data() + begin, stop - begin);
		if (event_of(line).empty() || !seen_before[i])
			continue;	// none of ours, or the first of its event
		std::size_t pos = 1 + rng.below(line.size() - 1);	// keeps [0, pos)
		if (pos > line.rfind('=')) {
			n.kept++;
			continue;
		}
		n.losing++;
		std::string cut(line.substr(0, pos));
		std::string where = "t.txt:" + std::to_string(i + 1) + ": ";
		std::string prefix = text.substr(0, begin);
		std::string last = outcome(prefix + cut, fmt);
		ck_assert_msg(last.starts_with(where + "last line cut short"),
			      "%s line %zu cut to '%s' (last line): '%s'", path.c_str(), i + 1,
			      cut.c_str(), last.c_str());
		expect_outcome(outcome(prefix + cut, fmt, true), "malformed 1");
		// Mid-file, a cut in the indentation is a blank line, which every
		// rendering's reader skips as such.
		if (cut.find_first_not_of(" \t") == std::string::npos)
			continue;
		std::string mid = outcome(prefix + cut + "\n" + text.substr(stop + 1, 2000), fmt);
		ck_assert_msg(mid.starts_with(where) && mid.find("last line") == std::string::npos,
			      "%s line %zu cut to '%s' (mid-file): '%s'", path.c_str(), i + 1,
			      cut.c_str(), mid.c_str());
	}
	ck_assert_uint_eq(n.losing + n.kept, cuts);
	return n;
}

}  // namespace

START_TEST(random_cuts_of_recordings_that_lose_a_key_are_refused)
{
	struct recording {
		const char *path;
		trace_format fmt;
	} recordings[] = {
		{"../shared/traces/linux-6.18-http/trace.txt", trace_format::ftrace},
		{"../shared/traces/linux-6.18-http/trace-cmd-report.txt", trace_format::trace_cmd_report},
		{"../shared/traces/linux-6.18-tcp/perf-script.txt", trace_format::perf_script},
		{"../shared/traces/linux-3.6-scp_dest/trace.txt", trace_format::ftrace},
		// With the softirq, irq and vector events, in the three renderings.
		{"tests/data/sleep-net.txt.gz", trace_format::ftrace},
		{"tests/data/sleep-net.trace-cmd-report.txt.gz", trace_format::trace_cmd_report},
		{"tests/data/sleep-net.perf-script.txt.gz", trace_format::perf_script},
	};
	for (const recording &r : recordings) {
		cut_count n = cut_recording(r.path, r.fmt, 20, 41);
		// Most cuts fall before the last value: the test judges them.
		ck_assert_msg(n.losing >= 10, "%s: %u of 20 cuts lose a key", r.path, n.losing);
	}
}
END_TEST

// The softirq and interrupt events likewise: softirq_* vec= [action=],
// irq_handler_entry irq= name=, irq_handler_exit irq= ret=.
START_TEST(irq_lines_missing_keys_are_refused)
{
	const std::string softirq = "          <idle>-0       [001] ..s1. 14028.706933: softirq_entry: vec=1 [action=TIMER]\n";
	const std::string entry = "           sleep-13560   [001] d.h.. 14028.848331: irq_handler_entry: irq=36 name=virtio1-req.0\n";
	const std::string exit = "           sleep-13560   [001] d.h.. 14028.848339: irq_handler_exit: irq=36 ret=handled\n";
	expect_outcome(outcome(header + softirq + entry + exit + timer), "");
	expect_outcome(outcome(header + cut_after(softirq, "vec=1") + "\n" + timer),
		       "t.txt:4: softirq_entry: missing [action=]");
	expect_outcome(outcome(header + cut_after(softirq, "[action=TIM")),
		       "t.txt:4: last line cut short (no newline at the end): softirq_entry: missing [action=]");
	expect_outcome(outcome(header + cut_after(entry, "irq=36 na") + "\n"),
		       "t.txt:4: irq_handler_entry: missing name=");
	expect_outcome(outcome(header + cut_after(exit, "irq=36") + "\n" + timer),
		       "t.txt:4: irq_handler_exit: missing ret=");
	for (std::size_t block : {64u, 4096u})
		expect_outcome(block_outcome(header + timer + cut_after(softirq, "vec=1 [act") + "\n" + timer, block),
			       "t.txt:5: softirq_entry: missing [action=]");
}
END_TEST

Suite *text_cut_suite()
{
	Suite *s = suite_create("text_cuts");
	TCase *attack = tcase_create("attack");
	tcase_add_test(attack, hrtimer_start_cut_to_its_function_is_refused);
	tcase_add_test(attack, hrtimer_start_cut_mid_expires_is_refused);
	tcase_add_test(attack, hrtimer_expire_entry_without_now_is_refused);
	tcase_add_test(attack, hrtimer_start_without_the_first_ones_keys_is_refused);
	tcase_add_test(attack, hrtimer_values_cut_short_are_refused);
	tcase_add_test(attack, hrtimer_keys_in_the_other_renderings);
	tcase_add_test(attack, irq_lines_missing_keys_are_refused);
	tcase_add_test(attack, cli_exits_2_naming_the_line);
	suite_add_tcase(s, attack);
	TCase *cuts = tcase_create("recordings");
	tcase_set_timeout(cuts, 300);
	tcase_add_test(cuts, random_cuts_of_recordings_that_lose_a_key_are_refused);
	suite_add_tcase(s, cuts);
	return s;
}

int main()
{
	return timersim::test::run_suite(text_cut_suite());
}
