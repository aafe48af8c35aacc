// Attribution on a 6.x recording (tests/data/default-trace.txt.gz, Linux
// 6.18 on this machine), replayed through its own wheel, v48, where no
// timer ever cascades: ranking callbacks by cascade moves would rank
// nothing. The callback table ranks by the work credited to each callback
// and the view opens at the run with most work, not at "0 moves at jiffy 0".
#include <algorithm>
#include <regex>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/cli.h"
#include "tests/support/paths.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"

using namespace timersim::test;
using json = nlohmann::json;

namespace {

const char six_x_trace[] = "tests/data/default-trace.txt.gz";

}  // namespace

// The ranking of one 6.x trace's callbacks under v48; returns the report.
static json check_v48_ranking(const std::string &trace)
{
	cli_result c = run_timersim({"replay", "--json", "-", trace});
	ck_assert_msg(c.status == 0, "%s", c.err.c_str());
	json r = json::parse(c.out);
	ck_assert(r["scheme"]["name"] == "v48");
	ck_assert_uint_eq(r["cascade"]["moved_total"].get<std::uint64_t>(), 0);

	const json &fns = r["functions"];
	ck_assert_uint_ge(fns.size(), 5);
	std::uint64_t prev = ~std::uint64_t{0};
	for (const json &f : fns) {
		std::uint64_t p = f["process_units"], s = f["softirq_units"];
		std::uint64_t work = p + s;
		ck_assert_uint_eq(f["work_units"].get<std::uint64_t>(), work);
		ck_assert_msg(work <= prev, "%s out of order", f["function"].get<std::string>().c_str());
		prev = work;
		// Every cancel of a pending timer is a removal in process
		// context, every expiry one in the softirq; a wakeup is a run
		// that one of its expiries opened.
		ck_assert_uint_ge(p, f["canceled"].get<std::uint64_t>());
		ck_assert_uint_ge(s, f["expired"].get<std::uint64_t>());
		ck_assert_uint_le(f["wakeups"].get<std::uint64_t>(), f["expired"].get<std::uint64_t>());
	}
	// Not a flat ranking: the top five worked, and not all alike.
	for (int i = 0; i < 5; i++)
		ck_assert_uint_gt(fns[i]["work_units"].get<std::uint64_t>(), 0);
	ck_assert_uint_gt(fns[0]["work_units"].get<std::uint64_t>(), fns[4]["work_units"].get<std::uint64_t>());
	// Some callback woke the softirq, and the softirq's work is credited.
	std::uint64_t wakeups = 0, softirq = r["work"]["softirq_unattributed"];
	for (const json &f : fns) {
		wakeups += f["wakeups"].get<std::uint64_t>();
		softirq += f["softirq_units"].get<std::uint64_t>();
	}
	ck_assert_uint_eq(wakeups, r["work"]["runs_expiring"].get<std::uint64_t>());
	ck_assert_uint_eq(softirq, r["work"]["softirq"]["units"].get<std::uint64_t>());
	ck_assert_uint_gt(wakeups, 0);
	return r;
}

START_TEST(v48_callback_ranking_is_by_work)
{
	// The shared recording of a 6.18 web server too, when it is there.
	std::string http = shared_trace_or_skip("linux-6.18-http/trace.txt");
	if (!http.empty())
		check_v48_ranking(http);
	json r = check_v48_ranking(six_x_trace);
	const json &fns = r["functions"];

	// The text table: the same order, its first row the JSON's first.
	cli_result c = run_timersim({"replay", six_x_trace});
	ck_assert_int_eq(c.status, 0);
	std::size_t at = c.out.find("top callbacks by work");
	ck_assert_msg(at != std::string::npos, "%s", c.out.c_str());
	std::string first_row = c.out.substr(c.out.find('\n', c.out.find('\n', at) + 1) + 1);
	first_row = first_row.substr(0, first_row.find('\n'));
	std::string top = fns[0]["function"];
	ck_assert_msg(first_row.find("  " + top + " ") == 0 &&
			      first_row.find(" " + std::to_string(fns[0]["work_units"].get<std::uint64_t>()) + " ") !=
				      std::string::npos,
		      "%s", first_row.c_str());
}
END_TEST

// The view opens at the busiest softirq run: work done, in the trace's
// jiffies, and (on v48) firing timers.
START_TEST(v48_view_opens_at_the_busiest_run)
{
	std::string page = temp_subdir("attrib-view") + "/v.html";
	cli_result c = run_timersim({"view", six_x_trace, "-o", page});
	ck_assert_msg(c.status == 0, "%s", c.err.c_str());
	std::string html = read_whole_file(page);
	std::smatch m;
	ck_assert(std::regex_search(html, m, std::regex("\"worst\":(\\{[^}]*\\})")));
	json w = json::parse(m[1].str());
	c = run_timersim({"replay", "--json", "-", six_x_trace});
	json r = json::parse(c.out);
	std::uint64_t first = r["input"]["first_jiffies"], last = r["input"]["last_jiffies"];
	ck_assert_uint_gt(w["units"].get<std::uint64_t>(), 0);
	ck_assert_msg(w["jiffy"].get<std::uint64_t>() >= first && w["jiffy"].get<std::uint64_t>() <= last,
		      "%s", w.dump().c_str());
	ck_assert_uint_gt(w["expired"].get<std::uint64_t>(), 0);
	// The timeline's per-tick rows add up to the report's split.
	std::string csv = temp_subdir("attrib-tl") + "/t.csv";
	c = run_timersim({"replay", "--timeline", csv, six_x_trace});
	ck_assert_msg(c.status == 0, "%s", c.err.c_str());
	std::string text = read_whole_file(csv);
	std::string head = text.substr(0, text.find('\n'));
	ck_assert_msg(head.find(",process_units,softirq_units,softirq_runs") != std::string::npos, "%s", head.c_str());
	// The columns, by their names in the header (more are appended after them).
	auto fields = [](const std::string &line) {
		std::vector<std::string> f;
		std::size_t at = 0;
		for (std::size_t comma; (comma = line.find(',', at)) != std::string::npos; at = comma + 1)
			f.push_back(line.substr(at, comma - at));
		f.push_back(line.substr(at));
		return f;
	};
	std::vector<std::string> names = fields(head);
	auto column = [&](const char *name) {
		return std::size_t(std::find(names.begin(), names.end(), name) - names.begin());
	};
	const std::size_t c1 = column("process_units"), c2 = column("softirq_units"), c3 = column("softirq_runs");
	ck_assert_uint_lt(c3, names.size());
	std::uint64_t process = 0, softirq = 0, runs = 0, busiest_row = 0;
	std::size_t from = text.find('\n') + 1;
	while (from < text.size()) {
		std::size_t to = text.find('\n', from);
		std::vector<std::string> row = fields(text.substr(from, to - from));
		from = to + 1;
		ck_assert_uint_eq(row.size(), names.size());
		process += std::stoull(row[c1]);
		std::uint64_t s = std::stoull(row[c2]);
		softirq += s;
		runs += std::stoull(row[c3]);
		busiest_row = std::max(busiest_row, s);
	}
	ck_assert_uint_eq(process, r["work"]["process"]["units"].get<std::uint64_t>());
	ck_assert_uint_eq(softirq, r["work"]["softirq"]["units"].get<std::uint64_t>());
	ck_assert_uint_eq(runs, r["work"]["runs"].get<std::uint64_t>());
	// A row per tick holds its run and what followed until the next:
	// no run did more than the busiest row.
	ck_assert_uint_ge(busiest_row, w["units"].get<std::uint64_t>());
}
END_TEST

int main()
{
	Suite *s = suite_create("attribution");
	TCase *tc = tcase_create("attribution");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, v48_callback_ranking_is_by_work);
	tcase_add_test(tc, v48_view_opens_at_the_busiest_run);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
