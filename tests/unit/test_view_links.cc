// The view as a teacher uses it, read from what headless Chromium renders
// (--dump-dom: the page after its script ran): a link page.html#frame=N
// opens frame N, numbered as the statement list numbers it (the frame
// line says "frame N of M", the list highlights its N-th item, statement
// N's line, and the wheel holds what step N left); without a link the
// page opens on the first statement's effect; a trace window's links name
// a frame (and a CPU) the same way. Stepping rewrites the address without
// a history entry per step, and a link set while the page is open goes
// there (scripts/view-browser-check.py --hash). Every level shows slot
// numbers (a ruler per base, each row's first slot, a name on hover) and
// the legend tells the index mark from a timer bar.
//
// Skips, saying why, when Debian's chromium is not installed.
#include <sys/stat.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "tests/support/browser.h"
#include "tests/support/cli.h"
#include "tests/support/paths.h"
#include "tests/support/text_trace_util.h"

// Last: check.h defines macros that clash with <iostream> internals.
#include "tests/support/check_main.h"

using namespace timersim::test;

namespace {

const char first_cascade[] = "docs/lab/scenarios/first-cascade.txt";
const char default_trace[] = "tests/data/default-trace.txt.gz";

bool contains(const std::string &hay, const std::string &needle)
{
	return hay.find(needle) != std::string::npos;
}

bool have_chromium()
{
	struct stat st;
	if (stat(chromium, &st) == 0 && st.st_size > 0)
		return true;
	skip_note(std::string(chromium) + " is not installed (scripts/setup.sh installs Debian's chromium): "
				"the page's links not opened in a browser");
	return false;
}

std::string absolute(const std::string &path)
{
	char buf[PATH_MAX];
	ck_assert_msg(realpath(path.c_str(), buf), "no %s", path.c_str());
	return buf;
}

// The page at `url` as Chromium renders it; `screenshot` also saves a
// picture of it.
std::string render(const std::string &url, const std::string &screenshot = "")
{
	static unsigned runs;	// a profile per run (temp_subdir() is per test process)
	const std::string profile = temp_subdir("chromium-" + std::to_string(runs++));
	const std::string what = screenshot.empty() ? "--dump-dom" : "--screenshot='" + screenshot + "'";
	int status = 0;
	std::string dom = run_capture(std::string(chromium) +
					      " --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking"
					      " --disable-component-update --disable-sync --disable-extensions --mute-audio"
					      " --window-size=1560,1100 --virtual-time-budget=5000 --user-data-dir='" +
					      profile + "' " + what + " '" + url + "' 2>/dev/null",
				      status);
	ck_assert_msg(status == 0, "chromium failed (%d) on %s", status, url.c_str());
	if (screenshot.empty())
		ck_assert_msg(contains(dom, "id=\"frame-info\""), "no page in the DOM of %s: %s", url.c_str(),
			      dom.substr(0, 300).c_str());
	return dom;
}

// Text as the DOM serializes it, back to characters.
std::string unescape(std::string s)
{
	const std::pair<const char *, const char *> entities[] = {
		{"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&nbsp;", " "}, {"&amp;", "&"}};
	for (const auto &[from, to] : entities)
		for (std::size_t at = 0; (at = s.find(from, at)) != std::string::npos; at += std::string(to).size())
			s.replace(at, std::string(from).size(), to);
	return s;
}

// The opening tag of the element whose opening tag has `mark`, and its
// text up to its first child element.
struct element {
	std::string tag, text;
};

element find_element(const std::string &dom, const std::string &mark, std::size_t from = 0)
{
	std::size_t at = dom.find(mark, from);
	if (at == std::string::npos)
		return {"(no element with " + mark + ")", ""};
	std::size_t open = dom.rfind('<', at), close = dom.find('>', at);
	std::size_t end = dom.find('<', close);
	return {dom.substr(open, close + 1 - open), unescape(dom.substr(close + 1, end - close - 1))};
}

std::string attribute(const element &e, const std::string &name)
{
	std::size_t at = e.tag.find(" " + name + "=\"");
	if (at == std::string::npos)
		return "(no " + name + ")";
	at += name.size() + 3;
	return e.tag.substr(at, e.tag.find('"', at) - at);
}

// The items of the statement list, in order: {data-frame, class, text}.
struct list_item {
	std::string frame, cls, text;
};

std::vector<list_item> statement_list(const std::string &dom)
{
	std::vector<list_item> items;
	std::size_t list = dom.find("<ol id=\"statements\" start=\"0\">");
	ck_assert_msg(list != std::string::npos, "no statement list numbered from 0");
	const std::size_t end = dom.find("</ol>", list);
	for (std::size_t at = dom.find("<li ", list); at < end; at = dom.find("<li ", at + 1)) {
		element e = find_element(dom, "<li ", at);
		items.push_back({attribute(e, "data-frame"), attribute(e, "class"), e.text});
	}
	return items;
}

// Every text of the elements whose opening tag has `mark`, in order.
std::vector<std::string> texts(const std::string &dom, const std::string &mark)
{
	std::vector<std::string> out;
	for (std::size_t at = dom.find(mark); at != std::string::npos; at = dom.find(mark, at + 1))
		out.push_back(find_element(dom, mark, at).text);
	return out;
}

std::string page_of(const std::vector<std::string> &view_args, const std::string &name)
{
	const std::string page = temp_subdir("view-links-" + name) + "/page.html";
	std::vector<std::string> args{"view"};
	args.insert(args.end(), view_args.begin(), view_args.end());
	args.insert(args.end(), {"-o", page});
	cli_result r = run_timersim(args);
	ck_assert_msg(r.status == 0, "view: %s", r.err.c_str());
	return "file://" + absolute(page);
}

// first-cascade.txt's statements, by frame: the list's item N and what
// the frame line says after "after ".
const char *const statements[] = {
	"the wheel before the first statement, now 0",
	"line 3, at 0: add A 300",
	"line 4, at 0: add B 255",
	"line 5, at 0: add C 70000",
	"line 6, at 0: tick 256",
	"line 7, at 256: tick",
	"line 8, at 257: run-to 300",
	"line 9, at 301: show",
};
constexpr int last_frame = 7;

// The page shows frame `n` of first-cascade: the frame line, the list's
// highlighted item, the link it names, all the same number.
void check_scenario_frame(const std::string &dom, int n, const std::string &what)
{
	const element info = find_element(dom, "id=\"frame-info\"");
	ck_assert_msg(attribute(info, "data-frame") == std::to_string(n), "%s: the page shows frame %s, want %d",
		      what.c_str(), attribute(info, "data-frame").c_str(), n);
	const std::string head = "frame " + std::to_string(n) + " of " + std::to_string(last_frame) + " · ";
	ck_assert_msg(info.text.compare(0, head.size(), head) == 0, "%s: the frame line reads [%s], want [%s...]",
		      what.c_str(), info.text.c_str(), head.c_str());
	const std::string said = n ? "after " + std::string(statements[n]).substr(0, std::string(statements[n]).find(", at")) + ":"
				   : "before the first statement";
	ck_assert_msg(contains(info.text, said), "%s: the frame line [%s] does not say [%s]", what.c_str(),
		      info.text.c_str(), said.c_str());
	const std::vector<list_item> items = statement_list(dom);
	ck_assert_int_eq(items.size(), last_frame + 1);
	for (std::size_t k = 0; k < items.size(); k++) {
		ck_assert_msg(items[k].frame == std::to_string(k), "%s: the list's item %zu is frame %s", what.c_str(), k,
			      items[k].frame.c_str());
		ck_assert_msg(items[k].text == statements[k], "%s: the list's item %zu reads [%s]", what.c_str(), k,
			      items[k].text.c_str());
		const bool highlighted = items[k].cls == "cur";
		ck_assert_msg(highlighted == (static_cast<int>(k) == n), "%s: item %zu highlighted: %d", what.c_str(), k,
			      highlighted);
	}
	const element numbering = find_element(dom, "id=\"numbering\"");
	ck_assert_msg(contains(numbering.text, "Frame k is the wheel after statement k") &&
			      contains(numbering.text, "#frame=" + std::to_string(n)),
		      "%s: the numbering line reads [%s]", what.c_str(), numbering.text.c_str());
}

// The slot numbers and the legend of a page whose bases have `levels`
// levels of `slots` slots (the first) and 64 (the others).
void check_slot_numbers(const std::string &dom, unsigned bases, unsigned levels, unsigned first_slots,
			const std::string &first_level, const std::string &what)
{
	// A ruler per base: every 8th column numbered.
	std::vector<std::string> ruler = texts(dom, "class=\"tick c8\"");
	ck_assert_msg(ruler.size() == 8 * bases, "%s: %zu ruler numbers, want %u", what.c_str(), ruler.size(), 8 * bases);
	for (std::size_t k = 0; k < ruler.size(); k++)
		ck_assert_msg(ruler[k] == std::to_string(8 * (k % 8)), "%s: ruler number %zu reads [%s]", what.c_str(), k,
			      ruler[k].c_str());
	// Each row of each level: the number of its first slot (the ruler's row has none).
	std::vector<std::string> want;
	for (unsigned b = 0; b < bases; b++) {
		want.push_back("");
		for (unsigned first = 0; first < first_slots; first += 64)
			want.push_back(std::to_string(first));
		for (unsigned l = 1; l < levels; l++)
			want.push_back("0");
	}
	std::vector<std::string> rows = texts(dom, "class=\"row-start\"");
	std::string got, wanted;
	for (const std::string &r : rows)
		got += "[" + r + "]";
	for (const std::string &r : want)
		wanted += "[" + r + "]";
	ck_assert_msg(got == wanted, "%s: rows begin at %s, want %s", what.c_str(), got.c_str(), wanted.c_str());
	// Every slot is named on hover, tv1's last as well.
	const std::string last = "title=\"" + first_level + "[" + std::to_string(first_slots - 1) + "]: ";
	ck_assert_msg(contains(dom, last), "%s: no slot titled %s", what.c_str(), last.c_str());
	// The legend shows the index mark and a timer bar as the wheel draws them, and tells them apart.
	const std::size_t legend = dom.find("id=\"legend\"");
	ck_assert_msg(legend != std::string::npos, "%s: no legend", what.c_str());
	const std::string text = unescape(dom.substr(legend, dom.find("</div></div>", legend) - legend));
	for (const char *needle : {"class=\"cell sample idx\"", "red frame: the level's index", "<i></i>",
				   "a bar is a timer", "the number before a row is its first slot"})
		ck_assert_msg(contains(text, needle), "%s: the legend lacks [%s]: %s", what.c_str(), needle,
			      text.substr(0, 600).c_str());
}

}  // namespace

START_TEST(scenario_links_open_their_frame)
{
	if (!have_chromium())
		return;
	const std::string url = page_of({first_cascade}, "classic");
	for (int n : {0, 3, 5, last_frame}) {
		const std::string dom = render(url + "#frame=" + std::to_string(n));
		check_scenario_frame(dom, n, "#frame=" + std::to_string(n));
		// The wheel is frame n's: A (timer 0) waits in tv2[1] until the
		// cascade of frame 5 moves it to tv1[44]; at frame 7 it has fired.
		const bool in_tv2 = n >= 1 && n < 5, in_tv1 = n >= 5 && n < 7;
		ck_assert_msg(contains(dom, "data-level=\"tv2\" data-slot=\"1\" data-timers=\"0\"") == in_tv2,
			      "frame %d: A in tv2[1]: %d", n, !in_tv2);
		ck_assert_msg(contains(dom, "data-level=\"tv1\" data-slot=\"44\" data-timers=\"0\"") == in_tv1,
			      "frame %d: A in tv1[44]: %d", n, !in_tv1);
	}
	// The busiest step is named by the same number.
	const std::string dom5 = render(url + "#frame=5");
	ck_assert_msg(contains(dom5, "busiest step: frame 5, 1 moved"), "%s",
		      find_element(dom5, "statements, jiffies").text.c_str());
	ck_assert_msg(contains(unescape(dom5), "line 7: tick:\njiffy 256: cascade of tv2 moved 1\n  > A tv2[1] -> tv1[44]"),
		      "frame 5's changes: %s", find_element(dom5, "id=\"changes\"").text.c_str());
	check_slot_numbers(dom5, 1, 5, 256, "tv1", "classic");
}
END_TEST

// Without a link, the first statement's effect; a link past the end, the
// last frame; a link that names no frame, as without one.
START_TEST(scenario_opens_on_the_first_statement)
{
	if (!have_chromium())
		return;
	const std::string url = page_of({first_cascade}, "open");
	check_scenario_frame(render(url), 1, "no link");
	check_scenario_frame(render(url + "#frame=99"), last_frame, "#frame=99");
	check_scenario_frame(render(url + "#frame=x"), 1, "#frame=x");
	const std::string dom = render(url);
	ck_assert_msg(contains(find_element(dom, "id=\"changes\"").text, "line 3: add A 300:\njiffy 0: + A -> tv2[1]"),
		      "the first frame's changes: %s", find_element(dom, "id=\"changes\"").text.c_str());
}
END_TEST

START_TEST(v48_scenario_links_and_slot_numbers)
{
	if (!have_chromium())
		return;
	const std::string url = page_of({"--scheme", "v48", first_cascade}, "v48");
	check_scenario_frame(render(url), 1, "v48, no link");
	const std::string dom = render(url + "#frame=5");
	check_scenario_frame(dom, 5, "v48 #frame=5");
	// B (timer 1) waited in an 8-jiffy bucket that ran at 256.
	ck_assert_msg(contains(unescape(dom), "jiffy 256: ! B fired from global LVL1[32]"), "%s",
		      find_element(dom, "id=\"changes\"").text.c_str());
	check_slot_numbers(dom, 3, 9, 64, "LVL0", "v48");
}
END_TEST

// A trace window numbers its frames the same way: frame 0 before the
// CPU's first tick in the window, frame k after its k-th; #frame=N is the
// busiest tick's CPU, #cpu=C&frame=N another's.
START_TEST(trace_links_open_their_frame)
{
	if (!have_chromium())
		return;
	// The classic wheel: tv1's rows in a trace's page too.
	const std::string url = page_of({"--scheme", "classic", default_trace}, "trace");
	const std::string opened = render(url);
	const element first = find_element(opened, "id=\"frame-info\"");
	const std::string cpu = attribute(first, "data-cpu");
	ck_assert_msg(std::atoi(attribute(first, "data-frame").c_str()) >= 1, "the trace opens at frame %s: %s",
		      attribute(first, "data-frame").c_str(), first.text.c_str());
	for (const std::string link : {"frame=0", "frame=3", "cpu=1&frame=2", "cpu=0&frame=4"}) {
		const std::string dom = render(url + "#" + link);
		const element info = find_element(dom, "id=\"frame-info\"");
		const std::string want_cpu = link.compare(0, 4, "cpu=") == 0 ? link.substr(4, 1) : cpu;
		const std::string want_frame = link.substr(link.find("frame=") + 6);
		ck_assert_msg(attribute(info, "data-cpu") == want_cpu && attribute(info, "data-frame") == want_frame,
			      "#%s: the page shows CPU %s frame %s", link.c_str(), attribute(info, "data-cpu").c_str(),
			      attribute(info, "data-frame").c_str());
		const std::string head = "CPU " + want_cpu + " · frame " + want_frame + " of ";
		ck_assert_msg(info.text.compare(0, head.size(), head) == 0, "#%s: the frame line reads [%s]", link.c_str(),
			      info.text.c_str());
		const std::string before = "before jiffy " + attribute(info, "data-jiffy") + " (";
		ck_assert_msg(want_frame == "0" ? contains(info.text, "before the window's first tick, jiffy " +
									     attribute(info, "data-jiffy"))
						: contains(info.text, "after the tick at jiffy ") && contains(info.text, before),
			      "#%s: the frame line reads [%s]", link.c_str(), info.text.c_str());
		ck_assert_msg(contains(find_element(dom, "id=\"numbering\"").text, "#cpu=" + want_cpu + "&frame=" + want_frame),
			      "#%s: %s", link.c_str(), find_element(dom, "id=\"numbering\"").text.c_str());
	}
	check_slot_numbers(opened, 1, 5, 256, "tv1", "trace");
}
END_TEST

// Stepping rewrites the address (no history entry per step), and a link
// set while the page is open goes to its frame.
START_TEST(stepping_rewrites_the_link)
{
	if (!have_chromium())
		return;
	const std::string page = page_of({first_cascade}, "hash").substr(7);
	int status = 0;
	const std::string out = run_capture("/usr/bin/python3 scripts/view-browser-check.py '" + page +
						    "' --frames 3,0,6 --hash 2>&1",
					    status);
	ck_assert_msg(status == 0, "the browser driver failed: %s", out.c_str());
	ck_assert_msg(contains(out, "errors 0\n"), "%s", out.c_str());
	const std::size_t at = out.find("hash 3: #frame=3 history ");
	ck_assert_msg(at != std::string::npos, "%s", out.c_str());
	const std::string history = out.substr(at + 25, out.find('\n', at) - at - 25);
	ck_assert_msg(contains(out, "hash 0: #frame=0 history " + history + "\n") &&
			      contains(out, "hash 6: #frame=6 history " + history + "\n"),
		      "%s", out.c_str());
	ck_assert_msg(contains(out, "linked #frame=3: frame 3\n"), "%s", out.c_str());
}
END_TEST

// A picture to look at (and the proof that the page draws): frame 3.
START_TEST(screenshot_of_a_frame)
{
	if (!have_chromium())
		return;
	const std::string url = page_of({first_cascade}, "shot");
	const std::string shot = absolute("build") + "/view-frame3.png";
	std::remove(shot.c_str());
	render(url + "#frame=3", shot);
	struct stat st;
	ck_assert_msg(stat(shot.c_str(), &st) == 0 && st.st_size > 20000, "no screenshot %s", shot.c_str());
}
END_TEST

int main()
{
	Suite *s = suite_create("view_links");
	TCase *tc = tcase_create("view_links");
	tcase_set_timeout(tc, 180);
	tcase_add_test(tc, scenario_links_open_their_frame);
	tcase_add_test(tc, scenario_opens_on_the_first_statement);
	tcase_add_test(tc, v48_scenario_links_and_slot_numbers);
	tcase_add_test(tc, trace_links_open_their_frame);
	tcase_add_test(tc, stepping_rewrites_the_link);
	tcase_add_test(tc, screenshot_of_a_frame);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
