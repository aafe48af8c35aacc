// timersim view: the page in a real browser (Debian's headless Chromium,
// driven by scripts/view-browser-check.py) loads without a console error
// and, stepped to a frame, shows in every slot the timers the scheme's own
// wheel held at that tick, in list order, with each level's index where the
// wheel has it; the worst-tick button and a slot's list work. Also: same
// input, same bytes; the shared 6.18 http trace's page under 5 MB; bad
// input exits 2.
#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "sim/core/replay.h"
#include "sim/trace/reader.h"
#include "sim/view/view_overview.h"
#include "tests/support/cli.h"
#include "tests/support/paths.h"
#include "tests/support/text_trace_util.h"

// Last: check.h defines macros that clash with <iostream> internals.
#include "tests/support/check_main.h"

using namespace timersim;
using namespace timersim::test;

namespace {

const char default_trace[] = "tests/data/default-trace.txt.gz";
const char chromium[] = "/usr/bin/chromium";

bool contains(const std::string &hay, const std::string &needle)
{
	return hay.find(needle) != std::string::npos;
}

std::uint64_t file_size(const std::string &path)
{
	struct stat st;
	return stat(path.c_str(), &st) == 0 ? st.st_size : 0;
}

std::string run_capture(const std::string &cmd, int &status)
{
	std::string out;
	FILE *p = popen(cmd.c_str(), "r");
	if (!p) {
		status = -1;
		return out;
	}
	char buf[4096];
	std::size_t n;
	while ((n = fread(buf, 1, sizeof buf, p)) > 0)
		out.append(buf, n);
	status = pclose(p);
	return out;
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

void check_in_browser(const std::string &scheme, jiffies_t half, const std::string &shot)
{
	ck_assert_msg(file_size(chromium) > 0, "%s is missing: scripts/setup.sh installs Debian's chromium",
		      chromium);
	// The tick the page opens at, and the window around it.
	view_overview ov;
	{
		auto reader = open_trace(default_trace, trace_format::auto_detect, {});
		replay_options opt;
		opt.scheme = scheme;
		replay_trace(*reader, default_trace, opt, {&ov});
	}
	const unsigned cpu = ov.worst().cpu;
	const jiffies_t from = ov.worst().jiffy - half, to = ov.worst().jiffy + half;
	expected_frames want(cpu, from, to);
	{
		auto reader = open_trace(default_trace, trace_format::auto_detect, {});
		replay_options opt;
		opt.scheme = scheme;
		replay_trace(*reader, default_trace, opt, {&want});
	}
	ck_assert_uint_gt(want.frames.size(), 2);

	std::string dir = temp_subdir("view-" + scheme);
	std::string page = dir + "/view.html";
	cli_result r = run_timersim({"view", "--scheme", scheme, "--from", std::to_string(from), "--to",
				     std::to_string(to), default_trace, "-o", page});
	ck_assert_msg(r.status == 0, "view: %s", r.err.c_str());

	// Every frame, forwards, then back to frame 2 (the page rebuilds from
	// its keyframe when it steps back).
	std::string frames;
	for (std::size_t k = 0; k < want.frames.size(); k++)
		frames += std::to_string(k) + ",";
	frames += "2";
	int status = 0;
	std::string out = run_capture("/usr/bin/python3 scripts/view-browser-check.py '" + page + "' --cpu " +
					      std::to_string(cpu) + " --frames " + frames +
					      " --worst --click-first-slot --screenshot '" + shot + "' 2>&1",
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
	// The worst-tick button goes to the frame right after the worst tick ran.
	std::size_t after = 0;
	while (after < want.jiffies.size() && want.jiffies[after] <= ov.setup().narrow(ov.worst().jiffy))
		after++;
	ck_assert_msg(contains(out, "worst cpu " + std::to_string(cpu) + " frame " + std::to_string(after) + " "),
		      "worst tick: %s", out.substr(0, 300).c_str());
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
}

}  // namespace

START_TEST(classic_page_shows_the_wheel_the_replay_holds)
{
	check_in_browser("classic", 40, "build/view-classic.png");
}
END_TEST

START_TEST(v48_page_shows_the_wheel_the_replay_holds)
{
	// v48 runs only at due jiffies: a wider window for as many frames.
	check_in_browser("v48", 400, "build/view-v48.png");
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
}
END_TEST

int main()
{
	Suite *s = suite_create("view");
	TCase *tc = tcase_create("view");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, classic_page_shows_the_wheel_the_replay_holds);
	tcase_add_test(tc, v48_page_shows_the_wheel_the_replay_holds);
	tcase_add_test(tc, same_input_same_bytes);
	tcase_add_test(tc, shared_http_trace_page_is_small);
	tcase_add_test(tc, bad_input_exits_2);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
