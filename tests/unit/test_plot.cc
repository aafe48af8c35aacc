// timersim plot: PNG and SVG of a replay's and a compare's JSON report
// (scripts/plot.py, matplotlib), with labelled axes, the same bytes run
// after run, and exit status 2 with a message for input that is not a
// timersim report.
#include <unistd.h>

#include <string>
#include <vector>

#include "tests/support/cli.h"
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

}  // namespace

START_TEST(replay_pictures_are_labelled_and_reproducible)
{
	std::string dir = temp_subdir("plot");
	std::string json = dir + "/r.json", csv = dir + "/t.csv";
	ck_assert_int_eq(run_timersim({"replay", "--scheme", "classic", "--json", json, "--timeline", csv,
				       default_trace}).status, 0);
	const std::vector<std::string> names = {"levels", "lateness", "callbacks", "moves"};
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

int main()
{
	Suite *s = suite_create("plot");
	TCase *tc = tcase_create("plot");
	tcase_set_timeout(tc, 180);
	tcase_add_test(tc, replay_pictures_are_labelled_and_reproducible);
	tcase_add_test(tc, compare_pictures_put_schemes_side_by_side);
	tcase_add_test(tc, not_a_report_exits_2);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
