// timersim view's time: the report's time table (ms per callback) in full
// width under the wheel and a per-second strip of measured (bars) and
// modelled (line, band) time under the timeline, read back from the page in
// Debian's headless Chromium (scripts/view-browser-check.py --time) at 1400
// px: the rows and cells are the JSON report's, the strip has a bar per
// measured second of the CPU, and no table cell lies past the window or
// clips its text.
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/browser.h"
#include "tests/support/check_main.h"
#include "tests/support/cli.h"
#include "tests/support/text_trace_util.h"

using namespace timersim::test;
using nlohmann::json;

namespace {

bool contains(const std::string &s, const std::string &what) { return s.find(what) != std::string::npos; }

std::string ms(const json &cell)
{
	if (cell.is_null())
		return "-";
	char b[96];
	if (!cell["modelled"].get<bool>())
		std::snprintf(b, sizeof b, "%.3f", cell["ns"].get<double>() / 1e6);
	else
		std::snprintf(b, sizeof b, "~%.3f (%.3f..%.3f)", cell["ns"].get<double>() / 1e6,
			      cell["low_ns"].get<double>() / 1e6, cell["high_ns"].get<double>() / 1e6);
	return b;
}

}  // namespace

START_TEST(the_time_table_and_its_seconds_fit_1400_px)
{
	const std::string dir = temp_subdir("view-time");
	const std::string page = dir + "/v.html", report = dir + "/r.json";
	const std::string trace = "tests/data/measured-network-quiet.txt.gz";
	cli_result r = run_timersim({"view", trace, "-o", page});
	ck_assert_msg(r.status == 0, "view: %s", r.err.c_str());
	r = run_timersim({"replay", "--json", report, trace});
	ck_assert_msg(r.status == 0, "replay: %s", r.err.c_str());
	const json j = json::parse(read_whole_file(report));
	const json &t = j["time"];

	int status = 0;
	const std::string out = run_capture("/usr/bin/python3 scripts/view-browser-check.py '" + page +
						    "' --cpu 0 --frames '' --width 1400 --time 2>&1",
					    status);
	ck_assert_msg(status == 0, "the browser driver failed: %s", out.c_str());
	ck_assert_msg(contains(out, "errors 0\n"), "console errors: %s", out.substr(0, 2000).c_str());
	ck_assert_msg(contains(out, "\ncut 0\n"), "cells cut off at 1400 px: %s", out.c_str());
	const std::size_t rows = std::min<std::size_t>(20, t["callbacks"].size());
	ck_assert_msg(contains(out, "time rows " + std::to_string(rows) + "\n"), "%s", out.c_str());
	// The first row as the page shows it: the JSON's cells, in ms.
	const json &first = t["callbacks"][0];
	const std::string want = "time row 0: " + first["function"].get<std::string>() +
				 (first["hrtimer"].get<bool>() ? " (hr)" : "") + " | " + ms(first["total"]) + " | " +
				 ms(first["process"]) + " | " + ms(first["softirq"]) + " | " + ms(first["callbacks"]) +
				 " | " + ms(first["interrupts"]) + " | " + std::to_string(first["starts"].get<unsigned>());
	ck_assert_msg(contains(out, want), "want '%s' in\n%s", want.c_str(), out.c_str());
	// A bar per second of CPU 0 with measured time.
	unsigned bars = 0;
	for (const json &s : t["per_second"])
		bars += s["cpu"] == 0 && !s["measured_ns"].is_null() && s["measured_ns"].get<double>() > 0;
	ck_assert_uint_gt(bars, 10);
	ck_assert_msg(contains(out, "time seconds " + std::to_string(bars) + "\n"), "want %u bars: %s", bars, out.c_str());
}
END_TEST

int main()
{
	Suite *s = suite_create("view_time");
	TCase *tc = tcase_create("view_time");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, the_time_table_and_its_seconds_fit_1400_px);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
