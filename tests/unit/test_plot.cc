// timersim plot: PNG and SVG of a replay's and a compare's JSON report
// (scripts/plot.py, matplotlib), with labelled axes, the same bytes run
// after run, and exit status 2 with a message for input that is not a
// timersim report: wrong-typed keys, deep nesting, non-UTF-8 text, input
// without end; names drawn as plain text, long ones cut.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "tests/support/cli.h"
#include "tests/support/paths.h"
#include "tests/support/text_trace_util.h"

// Last: check.h defines macros that clash with <iostream> internals.
#include "tests/support/check_main.h"

using namespace timersim::test;

namespace {

const char default_trace[] = "tests/data/default-trace.txt.gz";

bool contains(const std::string &hay, const std::string &needle)
{
	return hay.find(needle) != std::string::npos;
}

// TEXT with the first FROM after AFTER replaced by TO.
std::string replaced(std::string text, const std::string &from, const std::string &to,
		     const std::string &after = "")
{
	std::size_t at = text.find(from, text.find(after));
	ck_assert_msg(at != std::string::npos, "no %s", from.c_str());
	return text.replace(at, from.size(), to);
}

// The replay report of the bundled trace, made once.
const std::string &replay_report_json()
{
	static std::string json;
	if (json.empty()) {
		std::string path = temp_subdir("plot-report") + "/r.json";
		ck_assert_int_eq(run_timersim({"replay", "--scheme", "classic", "--json", path, default_trace}).status, 0);
		json = read_whole_file(path);
	}
	return json;
}

// A writer that fills the FIFO at PATH with zeros until its reader goes.
pid_t endless_writer(const std::string &path)
{
	pid_t pid = fork();
	if (pid == 0) {
		signal(SIGPIPE, SIG_DFL);
		int fd = open(path.c_str(), O_WRONLY);
		static char zeros[1 << 16];
		while (fd >= 0 && write(fd, zeros, sizeof zeros) > 0)
			;
		_exit(0);
	}
	return pid;
}

}  // namespace

START_TEST(replay_pictures_are_labelled_and_reproducible)
{
	std::string dir = temp_subdir("plot");
	std::string json = dir + "/r.json", csv = dir + "/t.csv";
	ck_assert_int_eq(run_timersim({"replay", "--scheme", "classic", "--json", json, "--timeline", csv,
				       default_trace}).status, 0);
	const std::vector<std::string> names = {"levels", "lateness", "callbacks", "moves", "work", "time"};
	for (const char *sub : {"/a", "/b"}) {
		cli_result r = run_timersim({"plot", json, "--timeline", csv, "-o", dir + sub});
		ck_assert_msg(r.status == 0, "plot: %s", r.err.c_str());
	}
	for (const std::string &n : names)
		for (const char *ext : {".png", ".svg"}) {
			std::string a = read_whole_file(dir + "/a/" + n + ext);
			ck_assert_msg(a.size() > 2000, "%s%s is missing or empty", n.c_str(), ext);
			ck_assert_msg(a == read_whole_file(dir + "/b/" + n + ext), "%s%s differs run to run",
				      n.c_str(), ext);
			if (std::string(ext) == ".png")
				ck_assert(a.compare(1, 3, "PNG") == 0);
		}
	// Axes say what they count, in which unit.
	ck_assert(contains(read_whole_file(dir + "/a/moves.svg"), "trace time (s)"));
	ck_assert(contains(read_whole_file(dir + "/a/lateness.svg"), "jiffies after the requested expiry"));
	ck_assert(contains(read_whole_file(dir + "/a/levels.svg"), "wheel level"));
	ck_assert(contains(read_whole_file(dir + "/a/callbacks.svg"), "delayed_work_timer_fn"));
	ck_assert(contains(read_whole_file(dir + "/a/callbacks.svg"), "the scheme's work (cost units)"));
	// The work per trace second, from the timeline's columns.
	std::string work = read_whole_file(dir + "/a/work.svg");
	ck_assert(contains(work, "Work per second") && contains(work, "trace time (s)") &&
		  contains(work, "softirq (expiry, cascades, visits)"));
	// The time per second: measured and modelled apart, axes saying which.
	std::string time = read_whole_file(dir + "/a/time.svg");
	ck_assert(contains(time, "measured") && contains(time, "modelled") && contains(time, "(ms in the second)") &&
		  contains(time, "band: its interval"));
	// Without a timeline, the split by cost unit.
	cli_result r = run_timersim({"plot", json, "-o", dir + "/c"});
	ck_assert_msg(r.status == 0, "plot: %s", r.err.c_str());
	ck_assert(contains(read_whole_file(dir + "/c/work.svg"), "Work by context"));
	// A timeline whose work columns are not counts is refused.
	// Its header and first row, that row's softirq_units (found by the
	// header's name: more columns follow it) made "x".
	std::string text = read_whole_file(csv);
	std::size_t row = text.find('\n') + 1;
	std::string head = text.substr(0, row);
	std::size_t column = 0;
	for (std::size_t at = 0; at < head.find(",softirq_units,"); at = head.find(',', at) + 1)
		column++;
	std::string first = text.substr(row, text.find('\n', row) - row);
	std::size_t before = 0;
	for (std::size_t n = 0; n < column; n++)
		before = first.find(',', before) + 1;
	std::size_t after = first.find(',', before);
	std::string broken = head + first.substr(0, before) + "x" + first.substr(after) + "\n";
	std::string bad_csv = write_temp("bad-work.csv", broken);
	r = run_timersim({"plot", json, "--timeline", bad_csv, "-o", dir + "/d"});
	ck_assert_msg(r.status == 2 && contains(r.err, "process_units, softirq_units: not counts"), "%s", r.err.c_str());
}
END_TEST

START_TEST(compare_pictures_put_schemes_side_by_side)
{
	std::string dir = temp_subdir("plot-compare");
	std::string json = dir + "/c.json";
	ck_assert_int_eq(run_timersim({"compare", "--schemes", "classic,v48,heap", "--json", json,
				       default_trace}).status, 0);
	cli_result r = run_timersim({"plot", json, "-o", dir + "/p"});
	ck_assert_msg(r.status == 0, "plot: %s", r.err.c_str());
	std::string svg = read_whole_file(dir + "/p/schemes.svg");
	for (const char *s : {"classic", "v48", "heap", "slot visits", "common cost units"})
		ck_assert_msg(contains(svg, s), "schemes.svg lacks %s", s);
	ck_assert_uint_gt(read_whole_file(dir + "/p/schemes.png").size(), 2000);
	svg = read_whole_file(dir + "/p/schemes-work.svg");
	for (const char *s : {"heap", "process context (start, cancel, re-arm)", "softirq (expiry, cascades, visits)"})
		ck_assert_msg(contains(svg, s), "schemes-work.svg lacks %s", s);
}
END_TEST

// What-if JSON (replay and compare --what-if-hz) draws each side's
// pictures and the two side by side; a merged sweep CSV draws its cells,
// the seeds as one mean with an interval.
START_TEST(what_if_reports_and_sweeps_are_drawn)
{
	std::string dir = temp_subdir("plot-whatif");
	std::string json = dir + "/w.json";
	ck_assert_int_eq(run_timersim({"replay", "--what-if-hz", "1000", "--json", json, default_trace}).status, 0);
	cli_result r = run_timersim({"plot", json, "-o", dir + "/w"});
	ck_assert_msg(r.status == 0, "plot: %s", r.err.c_str());
	for (const char *f : {"recorded-levels.png", "what-if-levels.png", "what-if-lateness.svg", "what-if.png"})
		ck_assert_msg(access((dir + "/w/" + f).c_str(), F_OK) == 0, "no %s", f);
	std::string svg = read_whole_file(dir + "/w/what-if.svg");
	ck_assert(contains(svg, "recorded") && contains(svg, "what-if") && contains(svg, "slot visits"));
	r = run_timersim({"plot", json, "--timeline", write_temp("t.csv", "cpu,jiffy\n"), "-o", dir + "/x"});
	ck_assert_msg(r.status == 2 && contains(r.err, "--timeline goes with a replay"), "%d %s", r.status,
		      r.err.c_str());

	json = dir + "/cw.json";
	ck_assert_int_eq(run_timersim({"compare", "--schemes", "classic,v48", "--what-if-hz", "1000", "--json", json,
				       default_trace}).status, 0);
	r = run_timersim({"plot", json, "-o", dir + "/cw"});
	ck_assert_msg(r.status == 0, "plot: %s", r.err.c_str());
	for (const char *f : {"recorded-schemes.png", "what-if-schemes.png", "what-if.png"})
		ck_assert_msg(access((dir + "/cw/" + f).c_str(), F_OK) == 0, "no %s", f);

	std::string spec = write_temp("plot-whatif/s.spec", "workload = networking:rate=40\nduration = 300ms\n"
							     "hz = 100, 1000\nseed = 1, 2, 3\n");
	ck_assert_int_eq(run_timersim({"sweep", spec, "-j", "2"}).status, 0);
	ck_assert_int_eq(run_timersim({"merge", spec, "-o", dir + "/s.csv"}).status, 0);
	r = run_timersim({"plot", dir + "/s.csv", "-o", dir + "/s"});
	ck_assert_msg(r.status == 0, "plot: %s", r.err.c_str());
	svg = read_whole_file(dir + "/s/sweep.svg");
	for (const char *s : {"classic", "v48", "hz=1000", "mean over seeds, 95% interval"})
		ck_assert_msg(contains(svg, s), "sweep.svg lacks %s", s);
	// Its summary (merge --summary: the means and intervals merge
	// computed) draws the same bars; it was read as JSON ("not JSON").
	ck_assert_int_eq(run_timersim({"merge", spec, "--summary", "-o", dir + "/sum.csv"}).status, 0);
	r = run_timersim({"plot", dir + "/sum.csv", "-o", dir + "/sum"});
	ck_assert_msg(r.status == 0, "plot: %s", r.err.c_str());
	svg = read_whole_file(dir + "/sum/sweep.svg");
	for (const char *s : {"classic", "v48", "hz=1000", "mean over seeds, 95% interval"})
		ck_assert_msg(contains(svg, s), "the summary's sweep.svg lacks %s", s);
	r = run_timersim({"plot", write_temp("plot-whatif/badsum.csv", "input_kind,input,n,seeds,x\n1,2,3,4,5\n"), "-o",
			  dir + "/bs"});
	ck_assert_msg(r.status == 2 && contains(r.err, "not a summary CSV of timersim merge --summary"), "%d %s", r.status,
		      r.err.c_str());
	std::string bad = write_temp("plot-whatif/bad.csv", "id,index,input_kind,input\n1,2,3,4\n");
	r = run_timersim({"plot", bad, "-o", dir + "/b"});
	ck_assert_msg(r.status == 2 && contains(r.err, "not a merged sweep CSV"), "%d %s", r.status, r.err.c_str());
}
END_TEST

START_TEST(not_a_report_exits_2)
{
	std::string dir = temp_subdir("plot-bad");
	struct bad_case {
		std::string path, message;
	} cases[] = {
		{write_temp("notjson.json", "cpu,jiffy\n0,1\n"), "notjson.json: not JSON"},
		{write_temp("other.json", "{\"traceEvents\": []}"), "is not a timersim report"},
		{dir + "/absent.json", "absent.json"},
	};
	for (const bad_case &c : cases) {
		cli_result r = run_timersim({"plot", c.path, "-o", dir + "/p"});
		ck_assert_msg(r.status == 2 && contains(r.err, c.message), "%s: status %d, %s", c.path.c_str(),
			      r.status, r.err.c_str());
	}
	ck_assert(access((dir + "/p/levels.png").c_str(), F_OK) != 0);	// nothing drawn
}
END_TEST

// Callback names are the trace's words: a matplotlib formula is drawn as
// the characters it is, a 64 KB name is cut with an ellipsis.
START_TEST(names_are_plain_text)
{
	std::string dir = temp_subdir("plot-names");
	const std::string formula = "$\\\\frac{a}{$";	// JSON for $\\frac{a}{$
	std::string json = replaced(replay_report_json(), "\"delayed_work_timer_fn\"", "\"" + formula + "\"",
				    "\"functions\": [");
	json = replaced(json, "\"dev_watchdog\"", "\"" + std::string(65536, 'y') + "\"", "\"functions\": [");
	std::string path = write_temp("names.json", json);
	cli_result r = run_timersim({"plot", path, "-o", dir + "/p"});
	ck_assert_msg(r.status == 0, "plot: %d %s", r.status, r.err.c_str());
	std::string svg = read_whole_file(dir + "/p/callbacks.svg");
	// The SVG notes each text it draws; the dollar and the backslash are
	// drawn as glyphs of the text font (U+0024, U+005C), not as mathtext.
	ck_assert_msg(contains(svg, "<!-- $\\frac{a}{$ -->"), "the formula name is not drawn as written");
	ck_assert(contains(svg, "id=\"DejaVuSans-24\"") && contains(svg, "id=\"DejaVuSans-5c\""));
	ck_assert_msg(contains(svg, "<!-- " + std::string(47, 'y') + "\u2026 -->"), "the long name is not cut");
	ck_assert_uint_gt(read_whole_file(dir + "/p/callbacks.png").size(), 2000);
}
END_TEST

// Reports of another shape, broken text and input without end: exit 2,
// the file and what is wrong named, nothing drawn, no traceback.
START_TEST(bad_reports_and_timelines_exit_2)
{
	std::string dir = temp_subdir("plot-bad-input");
	const std::string &good = replay_report_json();
	std::string nested = std::string(100000, '[') + std::string(100000, ']');
	struct bad_case {
		std::string report, timeline, says;
	} cases[] = {
		{write_temp("typed1.json", replaced(good, "\"max\": ", "\"max\": \"7\", \"was\": ")), "",
		 "the document.lateness.max: expected a number below 2^64, got a string"},
		{write_temp("typed2.json", replaced(good, "\"functions\": [", "\"functions\": 5, \"was\": [")), "",
		 "the document.functions: expected a list, got the number 5"},
		{write_temp("typed3.json", replaced(good, "\"scheme\": {", "\"scheme\": null, \"was\": {")), "",
		 "the document.scheme: expected an object, got null"},
		{write_temp("typed4.json", replaced(good, "\"moved\": ", "\"moved\": 1" + std::string(400, '0') + ", \"was\": ",
						     "\"functions\": [")), "",
		 "the document.functions[0].moved: expected a number below 2^64, got a number of 401 digits"},
		{write_temp("nested.json", nested), "", "nested.json: not JSON: nested too deeply"},
		{write_temp("typed5.json", replaced(good, "\"modelled_low_ns\": ", "\"modelled_low_ns\": \"1\", \"was\": ", "\"per_second\": [")), "",
		 "the document.time.per_second[0].modelled_low_ns: expected a number below 2^64, got a string"},
		{write_temp("latin1.json", "{\"input\": \"caf\xe9\"}"), "", "latin1.json: not JSON: not UTF-8"},
		{write_temp("good.json", good), write_temp("latin1.csv", "cpu,seconds,moved,ticks\n0,1.0,2,1\n0,caf\xe9\n"),
		 "latin1.csv: line 3: not UTF-8 text"},
		{write_temp("good.json", good), write_temp("long.csv", "cpu,seconds,moved,ticks\n" + std::string(5000, '0')),
		 "long.csv: line 2: longer than 4096 bytes"},
	};
	for (const bad_case &c : cases) {
		std::vector<std::string> args = {"plot", c.report, "-o", dir + "/p"};
		if (!c.timeline.empty())
			args.insert(args.end(), {"--timeline", c.timeline});
		cli_result r = run_timersim(args);
		ck_assert_msg(r.status == 2 && contains(r.err, c.says), "%s %s: status %d, %s", c.report.c_str(),
			      c.timeline.c_str(), r.status, r.err.c_str());
		ck_assert_msg(!contains(r.err, "Traceback"), "%s", r.err.c_str());
	}
	cli_result r = run_timersim({"plot", write_temp("good.json", good), "-o", ""});
	ck_assert_msg(r.status == 2 && contains(r.err, "--output: empty path"), "-o '': %d %s", r.status,
		      r.err.c_str());
	r = run_timersim({"plot", write_temp("good.json", good), "--timeline", "", "-o", dir + "/p"});
	ck_assert_msg(r.status == 2 && contains(r.err, "--timeline: the file name is empty"), "%s", r.err.c_str());
	ck_assert(access((dir + "/p/levels.png").c_str(), F_OK) != 0);	// nothing drawn

	// Input without end: a FIFO fed forever, and a /dev/zero of our own
	// (never the real /dev): bounded reads, exit 2.
	std::string fifo = dir + "/fifo";
	ck_assert_int_eq(mkfifo(fifo.c_str(), 0600), 0);
	pid_t writer = endless_writer(fifo);
	r = run_timersim({"plot", fifo, "-o", dir + "/p"});
	kill(writer, SIGKILL);
	waitpid(writer, nullptr, 0);
	ck_assert_msg(r.status == 2 && contains(r.err, "fifo: larger than 64 MiB: not a timersim report"), "%d %s",
		      r.status, r.err.c_str());
	writer = endless_writer(fifo);
	r = run_timersim({"plot", write_temp("good.json", good), "--timeline", fifo, "-o", dir + "/p"});
	kill(writer, SIGKILL);
	waitpid(writer, nullptr, 0);
	ck_assert_msg(r.status == 2 && contains(r.err, "fifo: line 1: longer than 4096 bytes"), "%d %s", r.status,
		      r.err.c_str());
	std::string zero = dir + "/zero";
	if (mknod(zero.c_str(), S_IFCHR | 0600, makedev(1, 5)) == 0) {
		r = run_timersim({"plot", zero, "-o", dir + "/p"});
		ck_assert_msg(r.status == 2 && contains(r.err, "zero: larger than 64 MiB"), "%d %s", r.status,
			      r.err.c_str());
	} else {
		skip_note("mknod of a zero device needs root: the FIFO case stands for it");
	}
}
END_TEST

int main()
{
	Suite *s = suite_create("plot");
	TCase *tc = tcase_create("plot");
	tcase_set_timeout(tc, 180);
	tcase_add_test(tc, replay_pictures_are_labelled_and_reproducible);
	tcase_add_test(tc, compare_pictures_put_schemes_side_by_side);
	tcase_add_test(tc, what_if_reports_and_sweeps_are_drawn);
	tcase_add_test(tc, not_a_report_exits_2);
	tcase_add_test(tc, names_are_plain_text);
	tcase_add_test(tc, bad_reports_and_timelines_exit_2);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
