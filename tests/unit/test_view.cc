// timersim view: the page in a real browser (Debian's headless Chromium,
// driven by scripts/view-browser-check.py) loads without a console error
// and, stepped to a frame, shows in every slot the timers the scheme's own
// wheel held at that tick, in list order, with each level's index where the
// wheel has it; the worst-tick button and a slot's list work; the classic
// window shows, where `timersim step --trace` ends a step, the slots and
// indexes step printed. A lab scenario's page shows after every statement
// the wheel `timersim step --json` printed. Also: same input, same bytes;
// the shared 6.18 http trace's page under 5 MB; bad input exits 2.
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "sim/replay/replay.h"
#include "sim/trace/reader.h"
#include "sim/view/view_overview.h"
#include "tests/support/browser.h"
#include "tests/support/cli.h"
#include "tests/support/paths.h"
#include "tests/support/text_trace_util.h"

// Last: check.h defines macros that clash with <iostream> internals.
#include "tests/support/check_main.h"

using namespace timersim;
using namespace timersim::test;

namespace {

const char default_trace[] = "tests/data/default-trace.txt.gz";

bool contains(const std::string &hay, const std::string &needle)
{
	return hay.find(needle) != std::string::npos;
}

std::uint64_t file_size(const std::string &path)
{
	struct stat st;
	return stat(path.c_str(), &st) == 0 ? st.st_size : 0;
}

// What the page must show at each tick of one CPU in the window, written
// the way the browser driver prints what it reads off the page.
class expected_frames final : public replay_sink {
public:
	expected_frames(unsigned cpu, jiffies_t from, jiffies_t to) : cpu_(cpu), from_(from), to_(to) {}
	void begin(const replay_setup &setup) override { setup_ = &setup; }
	void tick(unsigned cpu, jiffies_t jiffy) override
	{
		if (cpu != cpu_ || jiffy < from_ || jiffy > to_)
			return;
		std::string f = "frame " + std::to_string(frames.size()) + " cpu " + std::to_string(cpu) +
				" jiffy " + std::to_string(setup_->narrow(jiffy)) + "\n";
		std::string index;
		std::vector<wheel_base_state> bases = setup_->wheel->inspect(cpu);
		for (std::size_t b = 0; b < bases.size(); b++)
			for (const wheel_level_state &l : bases[b].levels) {
				for (const wheel_slot_state &s : l.slots) {
					f += "slot " + std::to_string(b) + " " + l.name + " " + std::to_string(s.slot) + ":";
					for (const wheel_timer_state &t : s.timers)
						f += " " + std::to_string(t.id);
					f += "\n";
				}
				index += "index " + std::to_string(b) + " " + l.name + " " + std::to_string(l.index) + "\n";
			}
		frames.push_back(f + index);
		jiffies.push_back(setup_->narrow(jiffy));
	}
	std::vector<std::string> frames;
	std::vector<std::uint64_t> jiffies;

private:
	unsigned cpu_;
	jiffies_t from_, to_;
	const replay_setup *setup_ = nullptr;
};

// The block of one frame in the driver's output ("frame K ..." up to the next frame).
std::string frame_block(const std::string &out, std::size_t k)
{
	std::size_t at = out.find("frame " + std::to_string(k) + " cpu ");
	if (at == std::string::npos)
		return "(frame " + std::to_string(k) + " missing)";
	std::size_t end = out.find("\nframe ", at + 1);
	std::size_t clicked = out.find("\nclicked:", at + 1);
	end = std::min(end, clicked);
	return out.substr(at, end == std::string::npos ? std::string::npos : end - at + 1);
}

// The number after `prefix` in the driver's output (-1 when absent).
long long number_after(const std::string &out, const std::string &prefix)
{
	std::size_t at = out.find(prefix);
	return at == std::string::npos ? -1 : std::atoll(out.c_str() + at + prefix.size());
}

// The driver's comparison with `timersim step --json`: every compared
// frame the same, and at least `least` of them.
void check_step_compared(const std::string &out, long long least, const std::string &what)
{
	long long compared = number_after(out, "step compared ");
	ck_assert_msg(compared >= least, "%s: %lld frames compared with step, want >= %lld: %s", what.c_str(),
		      compared, least, out.substr(0, 600).c_str());
	std::size_t d = out.find(": differs");
	ck_assert_msg(contains(out, "step compared " + std::to_string(compared) + " differ 0\n"),
		      "%s: the page and step disagree:\n%s", what.c_str(),
		      d == std::string::npos ? out.c_str() : out.substr(out.rfind("\n", d) + 1, 3000).c_str());
}

// `step_window`: also compare the window with `timersim step --trace`.
void check_in_browser(const std::string &scheme, jiffies_t half, const std::string &shot, bool step_window)
{
	ck_assert_msg(file_size(chromium) > 0, "%s is missing: scripts/setup.sh installs Debian's chromium",
		      chromium);
	// The busiest tick of the replay with its recorded ticks, and the
	// window around it; and the busiest of the replay the page makes
	// (every jiffy, as below), where its button goes.
	view_overview ov, page_ov;
	for (view_overview *o : {&ov, &page_ov}) {
		auto reader = open_trace(default_trace, trace_format::auto_detect, {});
		replay_options opt;
		opt.scheme = scheme;
		if (o == &page_ov)
			opt.ticks = tick_mode::every_jiffy;
		replay_trace(*reader, default_trace, opt, {o});
	}
	const unsigned cpu = ov.worst().cpu;
	const jiffies_t from = ov.worst().jiffy - half, to = ov.worst().jiffy + half;
	expected_frames want(cpu, from, to);
	{
		auto reader = open_trace(default_trace, trace_format::auto_detect, {});
		replay_options opt;
		opt.scheme = scheme;
		// Every jiffy, as `step` steps the lab wheel.
		opt.ticks = tick_mode::every_jiffy;
		replay_trace(*reader, default_trace, opt, {&want});
	}
	ck_assert_uint_gt(want.frames.size(), 2);

	std::string dir = temp_subdir("view-" + scheme);
	std::string page = dir + "/view.html";
	cli_result r = run_timersim({"view", "--scheme", scheme, "--ticks", "every-jiffy", "--from",
				     std::to_string(from), "--to", std::to_string(to), default_trace, "-o", page});
	ck_assert_msg(r.status == 0, "view: %s", r.err.c_str());

	std::string step_args;
	if (step_window) {
		std::string json = dir + "/step.json";
		r = run_timersim({"step", "--scheme", scheme, "--ticks", "every-jiffy", "--trace", default_trace,
				  "--cpu", std::to_string(cpu), "--from", std::to_string(from), "--to", std::to_string(to), "--json", json});
		ck_assert_msg(r.status == 0, "step: %s", r.err.c_str());
		step_args = " --step-json '" + json + "'";
	}

	// Every frame, forwards, then back to frame 2 (the page rebuilds from
	// its keyframe when it steps back).
	std::string frames;
	for (std::size_t k = 0; k < want.frames.size(); k++)
		frames += std::to_string(k) + ",";
	frames += "2";
	int status = 0;
	std::string out = run_capture("/usr/bin/python3 scripts/view-browser-check.py '" + page + "' --cpu " +
					      std::to_string(cpu) + " --frames " + frames + step_args +
					      " --worst --click-first-slot --changes --screenshot '" + shot + "' 2>&1",
				      status);
	ck_assert_msg(status == 0, "the browser driver failed: %s", out.c_str());
	ck_assert_msg(contains(out, "errors 0\n"), "console errors: %s", out.substr(0, 2000).c_str());
	ck_assert_msg(contains(out, "frames " + std::to_string(want.frames.size()) + "\n"),
		      "frame count differs: %s", out.substr(0, 200).c_str());
	for (std::size_t k = 0; k < want.frames.size(); k++) {
		std::string shown = frame_block(out, k);
		ck_assert_msg(shown == want.frames[k], "%s frame %zu: the page shows\n%s\nthe wheel held\n%s",
			      scheme.c_str(), k, shown.c_str(), want.frames[k].c_str());
	}
	// The busiest-tick button goes to the page's busiest tick: on the
	// window's CPU, to the frame right after it ran (the last frame when
	// it lies past the window).
	const worst_tick &pw = page_ov.worst();
	std::size_t after = 0;
	while (after < want.jiffies.size() && want.jiffies[after] <= page_ov.setup().narrow(pw.jiffy))
		after++;
	if (after == want.jiffies.size())
		after = want.jiffies.size() - 1;
	if (pw.cpu == cpu)
		ck_assert_msg(contains(out, "worst cpu " + std::to_string(cpu) + " frame " + std::to_string(after) + " "),
			      "worst tick: %s", out.substr(0, 300).c_str());
	else
		ck_assert_msg(contains(out, "worst cpu " + std::to_string(pw.cpu) + " frame "), "worst tick: %s",
			      out.substr(0, 300).c_str());
	ck_assert_uint_gt(pw.units, 0);
	ck_assert_msg(frame_block(out.substr(out.rfind("\nframe 2 ")), 2) == want.frames[2],
		      "stepping back to frame 2 shows another wheel");
	// After the last step (frame 2), the first non-empty slot lists its timers.
	std::string f2 = want.frames[2];
	std::size_t colon = f2.find(':', f2.find("\nslot "));
	std::string first_slot = f2.substr(colon + 1, f2.find('\n', colon) - colon - 1);
	ck_assert_msg(contains(out, "clicked:" + first_slot + "\n") || contains(out, "clicked:" + first_slot),
		      "the slot panel lists [%s]: %s", first_slot.c_str(),
		      out.substr(out.find("clicked:")).c_str());
	ck_assert_uint_gt(file_size(shot), 20000);
	// What the worst tick did: each cascade listed before the moves it made.
	std::string worst_changes = out.substr(out.find("\nchanges " + std::to_string(after) + ":\n"));
	worst_changes = worst_changes.substr(0, worst_changes.find("\nchanges ", 1));
	std::size_t cascade = worst_changes.find(": cascade of ");
	if (pw.moves && pw.cpu == cpu && pw.jiffy >= from && pw.jiffy <= to)
		ck_assert_msg(cascade != std::string::npos &&
				      worst_changes.compare(worst_changes.find('\n', cascade), 9, "\n      > ") == 0,
			      "the worst tick's cascade is not followed by its moves:\n%s", worst_changes.c_str());
	if (step_window)
		check_step_compared(out, 5, scheme + " trace window");
}

// A scenario's page on one scheme, frame by frame, against `timersim step
// --json`; the page's frame `frame` lists `changes` as what it did.
struct scenario_case {
	std::string scheme;
	int frame;
	std::string changes;
};

void check_scenario_file(const std::string &scenario, const std::vector<scenario_case> &cases)
{
	ck_assert_msg(file_size(chromium) > 0, "%s is missing: scripts/setup.sh installs Debian's chromium",
		      chromium);
	std::string dir = temp_subdir("view-scenario-" + scenario.substr(scenario.rfind('/') + 1));
	std::string pages, jsons, frames;
	std::vector<std::size_t> statements;
	auto shot = [](const scenario_case &c) { return "build/view-scenario-" + c.scheme + ".png"; };
	for (const scenario_case &c : cases) {
		std::string page = dir + "/" + c.scheme + ".html", json = dir + "/" + c.scheme + ".json";
		cli_result r = run_timersim({"step", "--scheme", c.scheme, scenario, "--json", json});
		ck_assert_msg(r.status == 0, "step: %s", r.err.c_str());
		r = run_timersim({"view", "--scheme", c.scheme, scenario, "-o", page});
		ck_assert_msg(r.status == 0, "view: %s", r.err.c_str());
		std::string text = read_whole_file(json);
		std::size_t n = 0;
		for (std::size_t at = 0; (at = text.find("\"statement\":", at)) != std::string::npos; at++)
			n++;
		ck_assert_uint_gt(n, 3);
		statements.push_back(n);
		pages += " '" + page + "'";
		jsons += " --step-json '" + json + "' --screenshot '" + shot(c) + "'";
		frames = std::to_string(c.frame);
	}
	ck_assert(cases.size() == 2 && cases[0].frame == cases[1].frame);

	// One browser for both pages: starting it is the slow part.
	int status = 0;
	std::string all = run_capture("/usr/bin/python3 scripts/view-browser-check.py" + pages + " --frames " + frames +
					      " --changes" + jsons + " 2>&1",
				      status);
	ck_assert_msg(status == 0, "the browser driver failed: %s", all.c_str());
	for (std::size_t i = 0; i < cases.size(); i++) {
		const scenario_case &c = cases[i];
		std::size_t at = all.find("page " + std::to_string(i) + " ");
		ck_assert_msg(at != std::string::npos, "no page %zu: %s", i, all.c_str());
		std::string out = all.substr(at, all.find("\npage ", at + 1) - at);
		std::string what = scenario + " on " + c.scheme;
		ck_assert_msg(contains(out, "errors 0\n"), "%s: console errors: %s", what.c_str(), out.substr(0, 2000).c_str());
		// One frame per statement, plus the start.
		ck_assert_msg(number_after(out, "frames ") == static_cast<long long>(statements[i] + 1),
			      "%s: %zu statements, frames: %s", what.c_str(), statements[i], out.substr(0, 200).c_str());
		check_step_compared(out + "\n", static_cast<long long>(statements[i]), what);
		if (!c.changes.empty())
			ck_assert_msg(contains(out, c.changes), "%s: frame %d's changes lack [%s]:\n%s", what.c_str(),
				      c.frame, c.changes.c_str(), out.substr(out.find("\nchanges ")).c_str());
		ck_assert_uint_gt(file_size(shot(c)), 20000);
	}
}

void check_scenario(const std::string &name, const std::vector<scenario_case> &cases)
{
	check_scenario_file("docs/lab/scenarios/" + name + ".txt", cases);
}

// A scenario of `adds` add statements, each timer its own, spread over the
// wheel's levels.
std::string many_adds(unsigned adds)
{
	std::string text;
	for (unsigned i = 0; i < adds; i++)
		text += "add T" + std::to_string(i) + " " + std::to_string(1 + (i * 7919u) % 5000000u) + "\n";
	return text + "tick 300\n";
}

// The document's `"key":value` (compact pages), as text.
std::string json_value(const std::string &page, const std::string &key)
{
	std::size_t at = page.find("\"" + key + "\":");
	if (at == std::string::npos)
		return "(no " + key + ")";
	at += key.size() + 3;
	return page.substr(at, page.find_first_of(",}", at) - at);
}

}  // namespace

START_TEST(classic_page_shows_the_wheel_the_replay_holds)
{
	check_in_browser("classic", 150, "build/view-classic.png", true);
}
END_TEST

START_TEST(v48_page_shows_the_wheel_the_replay_holds)
{
	// v48 runs only at due jiffies: a wider window for as many frames.
	check_in_browser("v48", 1500, "build/view-v48.png", true);
}
END_TEST

START_TEST(scenario_pages_show_what_step_prints)
{
	// first-cascade, frame 5: line 7's tick. The classic wheel cascades
	// tv2[1] and A lands in tv1[44]; v48 does not cascade: B (255) waited
	// in an 8-jiffy bucket that runs at 256.
	check_scenario("first-cascade",
		       {{"classic", 5, "changes 5:\n    line 7: tick:\n    jiffy 256: cascade of tv2 moved 1\n"
				       "      > A tv2[1] -> tv1[44]\n"},
			{"v48", 5, "changes 5:\n    line 7: tick:\n    jiffy 256: ! B fired from global LVL1[32]\n"}});
}
END_TEST

// The page rebuilds every slot from the events alone: slots of several
// timers in list order (FIFO and LIFO classic, v48's hlists), re-arms,
// cascades, deletions, a v48 re-arm that keeps its bucket.
START_TEST(scenario_pages_keep_list_order)
{
	const std::string body = "add A 300\nadd B 300\nadd C 301\nadd D 70000\nadd E 70010\nadd F 70000\n"
				 "mod B 300\nmod A 310\ntick 250\nmod C 302\nadd G 300\ndel E\n"
				 "mod D 70001\ntick 100\nrun-to 66000\nadd H 66100\nadd I 66100\ntick 200\n";
	for (const char *order : {"fifo", "lifo"}) {
		const std::string path = write_temp(std::string("order-") + order + ".txt",
						    std::string("order ") + order + "\n" + body);
		check_scenario_file(path, {{"classic", 2, ""}, {"v48", 2, ""}});
	}
}
END_TEST

// A page grows with the events, not statements times timers, and stops
// at docs/pictures.md's bound, saying so.
START_TEST(scenario_pages_are_bounded)
{
	const std::string dir = temp_subdir("view-bounded");
	const struct {
		unsigned adds;
		bool truncated;
	} cases[] = {{2000, false}, {40000, true}};
	for (const auto &c : cases) {
		const std::string scenario = write_temp("adds-" + std::to_string(c.adds) + ".txt", many_adds(c.adds));
		const std::string page = dir + "/adds.html";
		cli_result r = run_timersim({"view", scenario, "-o", page});
		ck_assert_msg(r.status == 0, "%s", r.err.c_str());
		ck_assert_uint_lt(file_size(page), (4u << 20) + (100u << 10));
		const std::string text = read_whole_file(page);
		// Named strings: ck_assert_str_eq keeps its arguments' pointers
		// past the statement that made a temporary.
		const std::string truncated = json_value(text, "truncated");
		const std::string total = json_value(text, "statements_total"), want = std::to_string(c.adds + 1);
		ck_assert_str_eq(truncated.c_str(), c.truncated ? "true" : "false");
		ck_assert_str_eq(total.c_str(), want.c_str());
		std::size_t frames = 0;
		for (std::size_t at = 0; (at = text.find("[\"F\",", at)) != std::string::npos; at++)
			frames++;
		if (c.truncated)
			ck_assert_uint_lt(frames, c.adds);
		else
			ck_assert_uint_eq(frames, c.adds + 2);	// the start, every statement
	}
}
END_TEST

// A trace whose 100,000 timers all wait in one slot when the window
// opens: the page is made in time linear in them (a placement is found
// at its slot's tail at once, a frame reads only the clocks) and keeps
// docs/pictures.md's bound: about 4 MB + 100 KB per CPU + 90 bytes per pending
// timer.
START_TEST(trace_page_of_many_pending_timers_is_bounded)
{
	const unsigned pending = 100000;
	const unsigned long long start = 4294937296ull;
	std::string body;
	for (unsigned i = 0; i < pending; i++) {
		char payload[160];
		std::snprintf(payload, sizeof payload,
			      "timer_start: timer=ffff8801%08x function=guard_fn expires=%llu [timeout=5000000]", i * 64,
			      start + 5000000);
		body += ftrace_line(0, 1000000000ull + i / 1000, payload);
	}
	char payload[160];
	std::snprintf(payload, sizeof payload, "timer_start: timer=ffff880200000000 function=short_fn expires=%llu [timeout=10]",
		      start + 10);
	body += ftrace_line(0, 1000200000ull, payload);
	std::snprintf(payload, sizeof payload, "timer_expire_entry: timer=ffff880200000000 function=short_fn now=%llu",
		      start + 10);
	body += ftrace_line(0, 1000300000ull, payload);
	const std::string trace = write_temp("pending.txt", ftrace_text(body));
	const std::string page = temp_subdir("view-pending") + "/page.html";
	cli_result r = run_timersim({"view", trace, "-o", page});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	const std::uint64_t bound = (4u << 20) + (100u << 10) + 90u * pending;
	ck_assert_msg(file_size(page) <= bound, "%llu bytes, the bound %llu",
		      static_cast<unsigned long long>(file_size(page)), static_cast<unsigned long long>(bound));
	ck_assert(contains(read_whole_file(page), "\"truncated\":false"));
}
END_TEST

START_TEST(same_input_same_bytes)
{
	std::string dir = temp_subdir("view-bytes");
	ck_assert_int_eq(run_timersim({"view", default_trace, "-o", dir + "/a.html"}).status, 0);
	ck_assert_int_eq(run_timersim({"view", default_trace, "-o", dir + "/b.html"}).status, 0);
	std::string a = read_whole_file(dir + "/a.html");
	ck_assert(a == read_whole_file(dir + "/b.html"));
	ck_assert(contains(a, "<script type=\"application/json\" id=\"timersim-data\">"));
	ck_assert(!contains(a, "http://") || contains(a, "http://www.w3.org/2000/svg"));	// no network
	ck_assert(!contains(a, "https://"));

	const char scenario[] = "docs/lab/scenarios/four-eight.txt";
	ck_assert_int_eq(run_timersim({"view", scenario, "-o", dir + "/s.html"}).status, 0);
	ck_assert_int_eq(run_timersim({"view", scenario, "-o", dir + "/t.html"}).status, 0);
	std::string s = read_whole_file(dir + "/s.html");
	ck_assert(s == read_whole_file(dir + "/t.html"));
	ck_assert(contains(s, "\"lab\":{"));
}
END_TEST

START_TEST(shared_http_trace_page_is_small)
{
	std::string t = shared_trace("linux-6.18-http/trace.txt");
	if (t.empty()) {
		skip_note("../shared/traces/linux-6.18-http/trace.txt is absent");
		return;
	}
	std::string dir = temp_subdir("view-http");
	for (const char *scheme : {"auto", "classic"}) {
		std::string page = dir + "/" + scheme + ".html";
		cli_result r = run_timersim({"view", "--scheme", scheme, t, "-o", page});
		ck_assert_msg(r.status == 0, "%s", r.err.c_str());
		ck_assert_uint_lt(file_size(page), 5u << 20);
		ck_assert_uint_gt(file_size(page), 50000);
	}
}
END_TEST

START_TEST(bad_input_exits_2)
{
	std::string dir = temp_subdir("view-bad");
	std::string junk = write_temp("junk.txt", "this is not a trace\nnor a scenario\n");
	cli_result r = run_timersim({"view", junk, "-o", dir + "/v.html"});
	ck_assert_int_eq(r.status, 2);
	ck_assert(contains(r.err, "junk.txt"));
	ck_assert(!file_size(dir + "/v.html"));

	r = run_timersim({"view", dir + "/absent.txt", "-o", dir + "/v.html"});
	ck_assert_int_eq(r.status, 2);
	r = run_timersim({"view", default_trace});	// no -o
	ck_assert_int_eq(r.status, 2);
	r = run_timersim({"view", "--from", "500", "--to", "400", default_trace, "-o", dir + "/v.html"});
	ck_assert_int_eq(r.status, 2);
	ck_assert(contains(r.err, "--from 500 is after --to 400"));
	r = run_timersim({"view", "--from", "0", "--to", "1000000", default_trace, "-o", dir + "/v.html"});
	ck_assert_int_eq(r.status, 2);
	ck_assert(!file_size(dir + "/v.html"));

	// A scenario's mistakes, by line, from the lab's parser and run.
	std::string bad = write_temp("bad-scenario.txt", "# a scenario\nadd A 300\nadd B\n");
	r = run_timersim({"view", bad, "-o", dir + "/v.html"});
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(contains(r.err, "bad-scenario.txt:3: 'add' takes"), "%s", r.err.c_str());
	std::string twice = write_temp("twice.txt", "add A 300\nadd A 400\n");
	r = run_timersim({"view", twice, "-o", dir + "/v.html"});
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(contains(r.err, "twice.txt:2:"), "%s", r.err.c_str());
	const char scenario[] = "docs/lab/scenarios/first-cascade.txt";
	r = run_timersim({"view", "--scheme", "hashed", scenario, "-o", dir + "/v.html"});
	ck_assert_int_eq(r.status, 2);
	r = run_timersim({"view", "--from", "5", scenario, "-o", dir + "/v.html"});
	ck_assert_int_eq(r.status, 2);
	ck_assert(!file_size(dir + "/v.html"));
	// Options the page cannot honour are errors, not ignored.
	for (std::vector<std::string> given : {std::vector<std::string>{"--drain"}, {"--what-if-hz", "1000"},
					       {"--ticks", "every-jiffy"}, {"--cpus", "2"}, {"--lenient"}}) {
		std::vector<std::string> args{"view", scenario, "-o", dir + "/v.html"};
		args.insert(args.end(), given.begin(), given.end());
		r = run_timersim(args);
		ck_assert_msg(r.status == 2, "%s on a scenario: exit %d", given[0].c_str(), r.status);
		ck_assert_msg(contains(r.err, given[0] + " does not apply to a scenario"), "%s", r.err.c_str());
	}
	r = run_timersim({"view", "--what-if-hz", "1000", default_trace, "-o", dir + "/v.html"});
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(contains(r.err, "--what-if-hz does not apply to view"), "%s", r.err.c_str());
	ck_assert(!file_size(dir + "/v.html"));
	// The scenario's wheel options do apply, as in `timersim step`.
	r = run_timersim({"view", "--hz", "1000", "--word-bits", "32", scenario, "-o", dir + "/v.html"});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	ck_assert(contains(read_whole_file(dir + "/v.html"), "\"hz\":1000"));
}
END_TEST

int main()
{
	Suite *s = suite_create("view");
	TCase *tc = tcase_create("view");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, classic_page_shows_the_wheel_the_replay_holds);
	tcase_add_test(tc, v48_page_shows_the_wheel_the_replay_holds);
	tcase_add_test(tc, scenario_pages_show_what_step_prints);
	tcase_add_test(tc, scenario_pages_keep_list_order);
	tcase_add_test(tc, scenario_pages_are_bounded);
	tcase_add_test(tc, trace_page_of_many_pending_timers_is_bounded);
	tcase_add_test(tc, same_input_same_bytes);
	tcase_add_test(tc, shared_http_trace_page_is_small);
	tcase_add_test(tc, bad_input_exits_2);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
