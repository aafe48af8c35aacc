// The timeline CSV's `pending` column in rows of an --interval where the
// wheel did nothing (only hrtimer expiries or interrupts on that CPU): the
// timers pending then are those of the CPU's row before (nothing was
// started, canceled, moved or fired in between), never an unset 0. Counted
// here from the CSV itself on a 6.18 recording with hrtimer events.
// (Where the wheel did something, `pending` is what the wheel held then.)
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/check_main.h"
#include "tests/support/cli.h"
#include "tests/support/text_trace_util.h"

using namespace timersim::test;

START_TEST(hrtimer_only_rows_carry_the_pending_timers)
{
	const std::string dir = temp_subdir("timeline-pending");
	const std::string csv = dir + "/t.csv";
	cli_result r = run_timersim({"replay", "--timeline", csv, "--interval", "4ms", "tests/data/sleep-net.txt.gz"});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	std::ifstream in(csv);
	std::string line;
	std::getline(in, line);
	std::vector<std::string> names;
	{
		std::istringstream h(line);
		for (std::string f; std::getline(h, f, ',');)
			names.push_back(f);
	}
	auto col = [&](const char *n) {
		for (std::size_t i = 0; i < names.size(); i++)
			if (names[i] == n)
				return i;
		ck_abort_msg("no column %s", n);
		return std::size_t(0);
	};
	const std::size_t cpu = col("cpu"), pending = col("pending"), hr = col("hrtimer_expiries");
	// A row the wheel had no part in: none of its columns count anything.
	const std::size_t changes[] = {col("ticks"),	     col("enqueued"),	   col("moved"),
				       col("cascades"),	     col("expired"),	   col("canceled"),
				       col("process_units"), col("softirq_units"), col("softirq_runs")};
	std::map<std::string, long> last;	// by CPU
	unsigned hr_only = 0, carried = 0;
	while (std::getline(in, line)) {
		std::vector<std::string> f;
		std::istringstream l(line);
		for (std::string x; std::getline(l, x, ',');)
			f.push_back(x);
		bool wheel = false;
		for (std::size_t c : changes)
			wheel = wheel || f[c] != "0";
		const long p = std::stol(f[pending]);
		if (!wheel && last.count(f[cpu])) {
			ck_assert_msg(p == last[f[cpu]], "row %s: pending %ld, the CPU's row before %ld", line.c_str(), p,
				      last[f[cpu]]);
			hr_only += f[hr] != "0";
			carried += p > 0;
		}
		last[f[cpu]] = p;
	}
	// The rows this is about are there, with timers pending in them.
	ck_assert_uint_gt(hr_only, 10);
	ck_assert_uint_gt(carried, 10);
}
END_TEST

int main()
{
	Suite *s = suite_create("timeline_pending");
	TCase *tc = tcase_create("timeline_pending");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, hrtimer_only_rows_carry_the_pending_timers);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
