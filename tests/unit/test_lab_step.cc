// `timersim step` and its scenario language: every statement parses and
// reads back the same; bad input (a bad statement, or one the wheel cannot
// do) stops with the file, the line and the reason, exit 2; the picture
// shows exactly the wheel's slots; --explain gives a reason under every
// event; --json carries the same slots; --scheme v48 runs the same scenario
// on the 4.8+ wheel.
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "sim/base/errors.h"
#include "sim/lab/scenario.h"
#include "sim/lab/step.h"
#include "sim/trace/reader.h"
#include "tests/support/cli.h"
#include "tests/support/paths.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"

using namespace timersim::lab;

namespace {

bool contains(const std::string &hay, const std::string &needle) { return hay.find(needle) != std::string::npos; }

// The scenario must fail at `line` with `reason`, parsing or running.
void expect_bad(const std::string &text, unsigned line, const std::string &reason)
{
	try {
		scenario s = parse_scenario(text, "bad.txt");
		step_text(s, {});
	} catch (const timersim::input_error &e) {
		ck_assert_msg(e.line() == line, "'%s': line %llu, expected %u (%s)", text.c_str(),
			      static_cast<unsigned long long>(e.line()), line, e.what());
		ck_assert_msg(contains(e.what(), "bad.txt:" + std::to_string(line) + ": "), "%s", e.what());
		ck_assert_msg(contains(e.reason(), reason), "'%s': '%s' does not say '%s'", text.c_str(), e.what(),
			      reason.c_str());
		return;
	}
	ck_abort_msg("'%s' was accepted", text.c_str());
}

const char every_statement[] =
	"# settings\n"
	"hz 1000\n"
	"word-bits 32\n"
	"base-small\n"
	"order lifo\n"
	"start 0x100   # hex\n"
	"add A 300\n"
	"add B +100 deferrable\n"
	"mod C -5 slack=10\n"
	"mod D 1130 slack=auto round\n"
	"mod E 2000 round-up\n"
	"del C\n"
	"tick\n"
	"tick 256\n"
	"run-to 1000\n"
	"show\n";

}  // namespace

START_TEST(every_statement_parses_and_reads_back)
{
	scenario s = parse_scenario(every_statement, "all.txt");
	ck_assert_uint_eq(*s.hz, 1000);
	ck_assert_uint_eq(*s.word_bits, 32);
	ck_assert(*s.base_small && *s.lifo);
	ck_assert_uint_eq(*s.start, 256);
	ck_assert_uint_eq(s.ops.size(), 10);
	ck_assert_uint_eq(s.ops[0].line, 7);
	ck_assert(s.ops[1].relative == 1 && s.ops[1].arm.deferrable);
	ck_assert(s.ops[2].relative == -1 && s.ops[2].arm.slack == 10);
	ck_assert(s.ops[3].arm.slack == -1 && s.ops[3].arm.round == rounding::round);
	ck_assert(s.ops[4].arm.round == rounding::round_up);
	ck_assert(s.ops[6].kind == op_kind::tick && s.ops[6].value == 1);
	ck_assert(s.ops[8].kind == op_kind::run_to && s.ops[8].value == 1000);

	scenario again = parse_scenario(render_scenario(s), "again.txt");
	ck_assert(render_scenario(again) == render_scenario(s));
	ck_assert_uint_eq(again.ops.size(), s.ops.size());
	for (std::size_t i = 0; i < s.ops.size(); i++)
		ck_assert(again.ops[i].text == s.ops[i].text);

	// And it runs, on both wheels.
	ck_assert(contains(step_text(s, {}), "next timer interrupt:"));
	step_options v48;
	v48.scheme = "v48";
	ck_assert(contains(step_text(s, v48), "non-cascading wheel"));
}
END_TEST

START_TEST(bad_statements_name_line_and_reason)
{
	expect_bad("add A 300\nfrobnicate\n", 2, "unknown statement 'frobnicate'");
	expect_bad("add A\n", 1, "takes a timer name and an expiry");
	expect_bad("\n\nadd A 3x0\n", 3, "'3x0' is not a number");
	expect_bad("add A 99999999999999999999\n", 1, "fits 64 bits");
	expect_bad("add 9A 300\n", 1, "'9A' is not a timer name");
	expect_bad("add A 300 slack=abc\n", 1, "'abc' is not a number");
	expect_bad("add A 300 quickly\n", 1, "unknown option 'quickly'");
	expect_bad("add A 300\nhz 250\n", 2, "settings come before the first statement");
	expect_bad("hz 123\n", 1, "HZ must be 100, 250, 300 or 1000");
	expect_bad("word-bits 16\n", 1, "word bits must be 32 or 64");
	expect_bad("order random\n", 1, "order must be fifo or lifo");
	expect_bad("tick 0\n", 1, "tick 0 does nothing");
	expect_bad("tick 1 2\n", 1, "at most one count");
	expect_bad("del\n", 1, "a timer name");
	expect_bad("show now\n", 1, "takes no value");
	// Statements the wheel cannot do.
	expect_bad("add A 300\nadd A 400\n", 2, "already pending");
	expect_bad("del A\n", 1, "no timer named A");
	expect_bad("run-to 100\nrun-to 50\n", 2, "was processed already");
	expect_bad("word-bits 32\nadd A 0x100000000\n", 2, "does not fit 32-bit jiffies");
	expect_bad("add A 300\nmod A 400 deferrable\n", 2, "flags are fixed");
	expect_bad("tick 0x100000001\n", 1, "at most 2^32 jiffies");

	// The binary: exit 2, file:line: reason on stderr, nothing on stdout.
	std::string path = timersim::test::write_temp("bad.txt", "add A 300\ntick\nadd A +5\n");
	timersim::test::cli_result r = timersim::test::run_timersim({"step", path});
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(contains(r.err, path + ":3: add: timer A is already pending"), "stderr: %s", r.err.c_str());
	ck_assert(r.out.empty());
	r = timersim::test::run_timersim({"step", "/nonexistent/scenario.txt"});
	ck_assert_int_eq(r.status, 2);
	ck_assert(contains(r.err, "cannot open"));
	r = timersim::test::run_timersim({"step"});
	ck_assert_int_eq(r.status, 2);
	r = timersim::test::run_timersim({"step", path, "--scheme", "heap"});
	ck_assert_int_eq(r.status, 2);
}
END_TEST

// The picture lists exactly the snapshot's slots and timers.
START_TEST(picture_shows_the_wheel)
{
	scenario s = parse_scenario("add A 300\nadd B 300\nadd C 70000\nadd D 5 deferrable\ntick 256\n", "p.txt");
	auto wheel = make_lab_wheel(resolve_setup(s, {}));
	std::vector<step_record> records;
	run_scenario(s, *wheel, [&](const step_record &r) { records.push_back(r); });
	const wheel_snapshot &last = records.back().after;
	ck_assert_uint_eq(last.pending(), 3);
	ck_assert_uint_eq(last.bases[0].clock, 256);
	// After 256 jiffies the tv2 index is 1; A and B wait in tv2[1], FIFO.
	ck_assert_uint_eq(last.bases[0].levels[1].index, 1);
	const snapshot_slot &slot = last.bases[0].levels[1].slots.at(0);
	ck_assert_uint_eq(slot.slot, 1);
	ck_assert(slot.timers.size() == 2 && slot.timers[0].name == "A" && slot.timers[1].name == "B");
	const std::string pic = format_picture(last);
	ck_assert(contains(pic, "now 256  timer_jiffies 256  index tv1 0 tv2 1 tv3 0 tv4 0 tv5 0\n"));
	ck_assert(contains(pic, "    tv2[1]  A@300 B@300\n"));
	ck_assert(contains(pic, "    tv3[4]  C@70000\n"));
	ck_assert(!contains(pic, "D@"));	// fired at 5
	ck_assert(contains(format_picture(records[3].after), "tv1[5]  D@5~"));

	// The text: the statement, its events, the picture.
	const std::string text = step_text(s, {});
	ck_assert(contains(text, "line 5: tick 256\n  ! D fired at 5 from tv1[5]\n"));
	ck_assert(contains(text, "end: now 256, 3 pending; 5 statements: 4 placed, 0 moved, 1 fired, 0 deleted"));
}
END_TEST

START_TEST(explain_gives_a_reason_under_every_event)
{
	scenario s = parse_scenario("add A 300\nmod B 1000 slack=10\nadd C -5\nrun-to 1100\nadd D 5000\ndel D\n", "e.txt");
	step_options opt;
	opt.explain = true;
	for (const char *scheme : {"classic", "v48"}) {
		opt.scheme = scheme;
		const std::string text = step_text(s, opt);
		unsigned events = 0;
		std::size_t pos = 0;
		while ((pos = text.find("\n  ", pos)) != std::string::npos) {
			pos += 3;
			const char c = text[pos];
			if (c != '+' && c != '=' && c != '-' && c != '*' && c != '>' && c != '!')
				continue;
			events++;
			std::size_t next = text.find('\n', pos);
			ck_assert_msg(text.compare(next, 7, "\n      ") == 0, "%s: no reason under '%s'", scheme,
				      text.substr(pos, next - pos).c_str());
		}
		ck_assert_uint_ge(events, 7);
	}
	opt.scheme = "classic";
	const std::string text = step_text(s, opt);
	ck_assert(contains(text, "limit with bits 0..3 cleared: 0b11_1111_0010 -> 0b11_1111_0000 = 1008"));
	ck_assert(contains(text, "2^8 = 256 <= idx < 2^14 = 16384: tv2"));
	ck_assert(contains(text, "idx < 0 as a signed long: the expiry has passed"));
	ck_assert(contains(text, "so tv2 slot (768 >> 8) & 63 = 3 cascades"));
	opt.scheme = "v48";
	ck_assert(contains(step_text(s, opt), "LVL_START(1) = 63 <= delta < LVL_START(2) = 504: LVL1"));
}
END_TEST

// --json: valid JSON with the same slots as the picture, written atomically.
START_TEST(json_carries_the_same_wheel)
{
	std::string scen = timersim::test::write_temp("j.txt", "add A 300\nadd B 300\ntick 257\nshow\n");
	std::string out = timersim::test::temp_subdir("json") + "/steps.json";
	timersim::test::cli_result r = timersim::test::run_timersim({"step", scen, "--json", out});
	ck_assert_int_eq(r.status, 0);
	std::string check = "python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); s=d[\"steps\"][2][\"wheel\"]"
			    "[\"bases\"][0][\"levels\"][0][\"slots\"][0]; "
			    "assert s[\"slot\"]==44 and [t[\"name\"] for t in s[\"timers\"]]==[\"A\",\"B\"], s; "
			    "assert d[\"steps\"][3][\"shows_next\"] and d[\"steps\"][3][\"next_interrupt\"]==300; "
			    "assert d[\"steps\"][2][\"events\"][0][\"kind\"]==\"cascaded\"' '" + out + "'";
	ck_assert_msg(std::system(check.c_str()) == 0, "steps.json does not carry the wheel");
	const std::string text = timersim::test::run_timersim({"step", scen}).out;
	ck_assert(contains(text, "    tv1[44]  A@300 B@300\n"));

	// Bad input: no output file at all.
	std::string bad = timersim::test::write_temp("bad-j.txt", "add A 300\nnonsense\n");
	std::string none = timersim::test::temp_subdir("json-bad") + "/steps.json";
	r = timersim::test::run_timersim({"step", bad, "--json", none});
	ck_assert_int_eq(r.status, 2);
	ck_assert(!std::ifstream(none).good());
}
END_TEST

// The command line's wheel options override the scenario's settings.
START_TEST(options_override_settings)
{
	std::string scen = timersim::test::write_temp("o.txt", "hz 1000\nadd A 200\nadd B 200\nrun-to 300\n");
	timersim::test::cli_result r = timersim::test::run_timersim({"step", scen});
	ck_assert(contains(r.out, "HZ 1000"));
	ck_assert(contains(r.out, "! A fired at 200 from tv1[200]\n  ! B fired"));
	r = timersim::test::run_timersim({"step", scen, "--order", "lifo", "--hz", "100"});
	ck_assert_int_eq(r.status, 0);
	ck_assert(contains(r.out, "HZ 100"));
	ck_assert(contains(r.out, "! B fired at 200 from tv1[200]\n  ! A fired"));
	// BASE_SMALL: 200 is beyond tv1's 64 slots; LIFO in tv2, LIFO again in tv1.
	r = timersim::test::run_timersim({"step", scen, "--order", "lifo", "--base-small"});
	ck_assert(contains(r.out, "tv1 64 slots"));
	ck_assert(contains(r.out, "! A fired at 200 from tv1[8]\n  ! B fired"));
	r = timersim::test::run_timersim({"step", scen, "--from", "5"});
	ck_assert_int_eq(r.status, 2);	// --from needs --trace
}
END_TEST

namespace {

// Runs timersim with its address space capped at `mib` MiB (setrlimit in
// the child), stdout to `out_path`, stderr returned; the exit status, or
// -1 when it did not exit (a signal). A run that needs memory in
// proportion to its input's jiffies or steps fails under the cap.
int run_capped(const std::vector<std::string> &args, unsigned mib, const std::string &out_path, std::string &err)
{
	timersim::test::cli_limits lim;
	lim.address_space_mib = mib;
	const timersim::test::cli_result r = timersim::test::run_timersim_limited(args, lim, &out_path);
	err = r.err;
	return r.status;
}

// Work over a whole run: the figures the closing line sums.
struct run_figures {
	std::uint64_t ticks = 0, cascade_calls = 0, moved = 0, expired = 0;
	std::string last;	// the final picture
	bool operator==(const run_figures &) const = default;
};

run_figures figures_of(const std::string &text, const char *scheme)
{
	scenario s = parse_scenario(text, "f.txt");
	step_options opt;
	opt.scheme = scheme;
	auto wheel = make_lab_wheel(resolve_setup(s, opt));
	run_figures f;
	run_scenario(s, *wheel, [&](const step_record &r) {
		f.ticks += r.work.ticks;
		f.cascade_calls += r.work.cascade_calls;
		for (const wheel_event &e : r.events) {
			f.moved += e.kind == wheel_event_kind::moved;
			f.expired += e.kind == wheel_event_kind::expired;
		}
		f.last = format_picture(r.after);
	});
	return f;
}

}  // namespace

// A long step takes its idle stretches at once, with the same figures as
// one jiffy at a time (statements of one jiffy are never skipped).
START_TEST(long_steps_skip_idle_stretches_with_the_same_figures)
{
	const std::string timers = "add A 300\nadd B 70000\nadd C 20000 slack=auto\nadd D 5000000\nadd E 17\n";
	std::string jiffy_by_jiffy = timers;
	for (int i = 0; i < 80000; i++)
		jiffy_by_jiffy += "tick\n";
	for (const char *scheme : {"classic", "v48"}) {
		const run_figures skipped = figures_of(timers + "tick 80000\n", scheme);
		const run_figures stepped = figures_of(jiffy_by_jiffy, scheme);
		ck_assert_uint_eq(skipped.ticks, stepped.ticks);
		ck_assert_uint_eq(skipped.cascade_calls, stepped.cascade_calls);
		ck_assert_uint_eq(skipped.moved, stepped.moved);
		ck_assert_uint_eq(skipped.expired, stepped.expired);
		ck_assert_str_eq(skipped.last.c_str(), stepped.last.c_str());
	}
	// 80000 jiffies: a cascade of tv2 every 256, of tv3 every 2^14.
	ck_assert_uint_eq(figures_of(timers + "tick 80000\n", "classic").cascade_calls, 313 + 5 + 1 + 1);
	// A long step lists no empty cascade.
	const std::string text = step_text(parse_scenario("add A 300\ntick 1000\n", "e.txt"), {});
	ck_assert_msg(!contains(text, ": 0 timers"), "%s", text.c_str());
	ck_assert(contains(text, "(1000 jiffies processed, 7 cascade calls)"));
}
END_TEST

// The documented limit, 2^32 jiffies in one statement, in bounded memory
// on both wheels; past it (or past what 64 bits count) exit 2 naming the
// line, never a wrap into an endless run.
START_TEST(huge_steps_are_bounded)
{
	const std::string dir = timersim::test::temp_subdir("huge-steps");
	const std::string out = dir + "/out.txt";
	std::string err;
	const std::string full = timersim::test::write_temp(
		"full.txt", "add A 100\nadd B 0xfffffff0\nadd C 0x7fffffffffffffff\ntick 4294967296\n");
	for (const char *scheme : {"classic", "v48"}) {
		ck_assert_msg(run_capped({"step", "--scheme", scheme, full}, 512, out, err) == 0, "%s: %s", scheme,
			      err.c_str());
		const std::string text = timersim::test::read_whole_file(out);
		ck_assert_msg(contains(text, "\nend: now 4294967296, "), "%s: %s", scheme,
			      text.substr(text.rfind("\nend")).c_str());
		if (std::string(scheme) == "classic")
			ck_assert_msg(contains(text, "(4294967296 jiffies processed, 17043520 cascade calls)"), "%s",
				      text.c_str());
	}
	// An idle v48 wheel within 2^30 jiffies of the end of 64-bit time:
	// one softirq run a base's next_expiry, not one every jiffy or two
	// (its next_expiry lies past 2^64 - 1 there).
	const std::string top = timersim::test::write_temp(
		"top.txt", "start 18446744071854775807\nrun-to 18446744073709551614\n");
	ck_assert_int_eq(run_capped({"step", "--scheme", "v48", top}, 512, out, err), 0);
	const std::string top_text = timersim::test::read_whole_file(out);
	ck_assert_msg(contains(top_text, "\nend: now 18446744073709551615, 0 pending;") &&
			      contains(top_text, " 1 softirq runs, "),
		      "%s", top_text.substr(top_text.rfind("\nend")).c_str());
	const struct {
		const char *scenario;
		unsigned line;
		const char *reason;
	} beyond[] = {
		{"add A +5\nrun-to 18446744073709551615\n", 2, "run-to 18446744073709551615: at most 2^32 jiffies"},
		{"tick 4294967297\n", 1, "tick 4294967297: at most 2^32 jiffies"},
		{"start 18446744073709551614\nadd A +3\ntick\ntick\n", 4, "runs past jiffy 18446744073709551614"},
		{"start 18446744073709551610\nrun-to 18446744073709551615\n", 2, "runs past jiffy"},
		{"word-bits 32\nrun-to 0xffffffff\n", 2, "was processed already"},
		{"word-bits 32\nstart 0x10\nrun-to 0x8\n", 3, "was processed already"},
	};
	for (const auto &b : beyond)
		for (const char *scheme : {"classic", "v48"}) {
			const std::string path = timersim::test::write_temp("beyond.txt", b.scenario);
			ck_assert_int_eq(run_capped({"step", "--scheme", scheme, path}, 512, out, err), 2);
			const std::string where = path + ":" + std::to_string(b.line) + ": ";
			ck_assert_msg(contains(err, where) && contains(err, b.reason), "%s on %s: %s", b.scenario, scheme,
				      err.c_str());
		}
}
END_TEST

// The output is written as the steps run: 300,000 re-arms' JSON (over 200
// MB: past the picture budget each step still carries its event and the
// reason) within a 160 MB address space.
START_TEST(step_output_is_streamed)
{
	std::string many;
	for (int i = 0; i < 300000; i++)
		many += "mod A +100000000\n";
	const std::string path = timersim::test::write_temp("many.txt", "add A 100000000\n" + many);
	const std::string dir = timersim::test::temp_subdir("streamed");
	const std::string json = dir + "/steps.json", text = dir + "/steps.txt";
	std::string err;
	ck_assert_msg(run_capped({"step", path, "--json", json}, 160, dir + "/stdout", err) == 0, "%s", err.c_str());
	struct stat st;
	ck_assert_int_eq(stat(json.c_str(), &st), 0);
	ck_assert_uint_gt(st.st_size, 200u << 20);	// more than the cap: never held whole
	std::ifstream in(json, std::ios::binary);
	in.seekg(-128, std::ios::end);
	std::string tail(128, '\0');
	in.read(tail.data(), 128);
	ck_assert_msg(contains(tail, "  ],\n  \"bounded\": {\n    \"budget\": 4194304,\n    \"from_line\": ") &&
			      contains(tail, "\n  }\n}"),
		      "the JSON ends: %s", tail.c_str());
	std::remove(json.c_str());
	ck_assert_msg(run_capped({"step", path}, 160, text, err) == 0, "%s", err.c_str());
	ck_assert_int_eq(stat(text.c_str(), &st), 0);
	ck_assert_uint_gt(st.st_size, 15u << 20);
	std::remove(text.c_str());
}
END_TEST

// A step's picture lists every pending timer: 2,000 adds would print
// 2,000 pictures of up to 2,000 timers, some 24 MB (10,000 adds printed
// 648 MB, their JSON more). Past the picture budget (4 MiB, as the view's
// page) each step lists what changed, not the whole wheel or base, and
// the output says from which line; text and JSON, wheel and hrtimers. A
// small scenario is unchanged: every step pictured, no note.
START_TEST(step_output_is_bounded)
{
	std::string adds, hrs;
	for (int i = 0; i < 2000; i++) {
		adds += "add T" + std::to_string(i) + " " + std::to_string(1000 + i * 7) + "\n";
		hrs += "hrstart T" + std::to_string(i) + " " + std::to_string(1000000 + i * 7000) + "\n";
	}
	for (const std::string &text : {adds, hrs}) {
		const scenario s = parse_scenario(text, "big.txt");
		const std::string what = s.is_hr() ? "base" : "wheel";
		const std::string out = step_text(s, {});
		// The budget, the last picture (2,000 timers), then a few lines a
		// statement: what changed.
		ck_assert_uint_lt(out.size(), step_picture_budget + 2000 * 200);
		ck_assert_msg(contains(out, "\n(the output passed 4 MiB: from here on each statement lists what changed, "
					    "not the whole " + what + ")\n"),
			      "%s", out.substr(out.size() - 300).c_str());
		ck_assert(contains(out, "\nline 2000: "));	// every statement still listed
		ck_assert(contains(out, "(no picture of the " + what + " from line "));
		const std::string json = step_json(s, {});
		ck_assert_uint_lt(json.size(), step_picture_budget + 2000 * 1024);	// an event's "why" too
		ck_assert_msg(contains(json, "\"bounded\": {\n    \"budget\": 4194304,\n    \"from_line\": "), "%s",
			      json.substr(json.size() - 200).c_str());
	}

	const scenario small = parse_scenario("add A 300\nadd B 20000\ntick 300\n", "small.txt");
	const std::string all = step_text(small, {});
	ck_assert(!contains(all, "the output passed") && !contains(all, "no picture"));
	std::size_t pictures = 0;
	for (std::size_t at = all.find("timer_jiffies"); at != std::string::npos; at = all.find("timer_jiffies", at + 1))
		pictures++;
	ck_assert_uint_eq(pictures, 3);
	ck_assert(!contains(step_json(small, {}), "bounded"));
	// A budget the header passes: no picture, the same events.
	step_options tiny;
	tiny.picture_budget = 1;
	const std::string cut = step_text(small, tiny);
	ck_assert_msg(contains(cut, "(the output passed 1 bytes") && contains(cut, "+ A -> tv2[1]  expires 300") &&
			      contains(cut, "> A tv2[1] -> tv1[44]") && !contains(cut, "timer_jiffies") &&
			      contains(cut, "(no picture of the wheel from line 1 on"),
		      "%s", cut.c_str());
	ck_assert(contains(step_json(small, tiny), "\"wheel\": null"));
}
END_TEST

// An hrtimer scenario's settings come before its first statement, as the
// wheel's do: `start 5` after `hrstart A 1000` was applied before line 1.
// Its start past the lab's 10^18 ns is refused at the line that sets it.
START_TEST(hrtimer_settings_are_held_as_the_wheels)
{
	expect_bad("add A 300\nstart 5\n", 2, "'start' is a setting: settings come before the first statement");
	expect_bad("hrstart A 1000\nstart 5\n", 2, "'start' is a setting: settings come before the first statement");
	expect_bad("hrstart A 1000\nhz 100\n", 2, "'hz' is a setting");
	expect_bad("# t\nstart 2000000000000000000\nhrstart A 1000\n", 2,
		   "start 2000000000000000000 is beyond the lab's 10^18 ns");
	expect_bad("hrstart A 999999999999999999 slack=999999999999999999\n", 1, "is beyond the lab's 10^18 ns");
	expect_bad("hrstart A +1\nrun-to-ns 1000000000000000000\n", 2, "is beyond the lab's 10^18 ns");
}
END_TEST

// A scenario file is read as a trace is: bounded lines and size, a
// directory or a device refused by name, exit 2.
START_TEST(scenario_inputs_are_bounded)
{
	const std::string dir = timersim::test::temp_subdir("scenario-inputs");
	std::string err;
	const std::string out = dir + "/out";

	ck_assert_int_eq(run_capped({"step", dir}, 512, out, err), 2);
	ck_assert_msg(contains(err, dir + ": is a directory, not a scenario"), "%s", err.c_str());

	const std::string long_line = timersim::test::write_temp("long.txt", "add A 300\n" + std::string(5000, 'x') + "\n");
	ck_assert_int_eq(run_capped({"step", long_line}, 512, out, err), 2);
	ck_assert_msg(contains(err, long_line + ":2: a line longer than 4096 bytes"), "%s", err.c_str());

	// Devices of our own (never the real /dev): zeros are one endless line,
	// random bytes no statement.
	const struct {
		const char *name;
		unsigned minor;
		const char *says;
	} devices[] = {{"zero", 5, ":1: a line longer than 4096 bytes"}, {"urandom", 9, ":"}};
	for (const auto &d : devices) {
		const std::string node = dir + "/" + d.name;
		if (mknod(node.c_str(), S_IFCHR | 0600, makedev(1, d.minor)) != 0) {
			timersim::test::skip_note("mknod is not permitted here: no device test");
			break;
		}
		for (const char *cmd : {"step", "view"}) {
			std::vector<std::string> args{cmd, node};
			if (std::string(cmd) == "view")
				args = {cmd, node, "-o", dir + "/page.html"};
			const int status = run_capped(args, 512, out, err);
			ck_assert_msg(status == 2, "%s %s: %d %s", cmd, d.name, status, err.c_str());
			ck_assert_msg(contains(err, node), "%s %s: %s", cmd, d.name, err.c_str());
		}
		ck_assert_int_eq(run_capped({"step", node}, 512, out, err), 2);
		ck_assert_msg(contains(err, node + d.says), "%s: %s", d.name, err.c_str());
		ck_assert_msg(err.find('\0') == std::string::npos && err.size() < 1000, "%s: raw bytes in %s", d.name,
			      err.c_str());
		unlink(node.c_str());
	}

	// A pipe that never ends: comments past 64 MB, then statements past 2^20.
	for (const char *flood : {"# more\n", "tick\n"}) {
		const std::string fifo = dir + "/fifo";
		ck_assert_int_eq(mkfifo(fifo.c_str(), 0600), 0);
		pid_t writer = fork();
		if (writer == 0) {
			signal(SIGPIPE, SIG_DFL);
			int fd = open(fifo.c_str(), O_WRONLY);
			std::string block;
			while (block.size() < 65536)
				block += flood;
			while (write(fd, block.data(), block.size()) > 0) {
			}
			_exit(0);
		}
		const int status = run_capped({"step", fifo}, 512, out, err);
		kill(writer, SIGKILL);
		waitpid(writer, nullptr, 0);
		unlink(fifo.c_str());
		ck_assert_msg(status == 2, "%s: %d %s", flood, status, err.c_str());
		ck_assert_msg(contains(err, std::string(flood) == "tick\n" ? "more than 1048576 statements"
								     : "goes on past 64 MiB"),
			      "%s", err.c_str());
	}
}
END_TEST

int main()
{
	Suite *s = suite_create("lab_step");
	TCase *tc = tcase_create("step");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, every_statement_parses_and_reads_back);
	tcase_add_test(tc, bad_statements_name_line_and_reason);
	tcase_add_test(tc, picture_shows_the_wheel);
	tcase_add_test(tc, explain_gives_a_reason_under_every_event);
	tcase_add_test(tc, json_carries_the_same_wheel);
	tcase_add_test(tc, options_override_settings);
	tcase_add_test(tc, long_steps_skip_idle_stretches_with_the_same_figures);
	tcase_add_test(tc, huge_steps_are_bounded);
	tcase_add_test(tc, step_output_is_streamed);
	tcase_add_test(tc, scenario_inputs_are_bounded);
	tcase_add_test(tc, step_output_is_bounded);
	tcase_add_test(tc, hrtimer_settings_are_held_as_the_wheels);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
