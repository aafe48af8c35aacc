// `lab cost` can be worked by hand: its question states how the classic
// wheel's work is counted. This test is the student: it reads each
// question's words (the timers' story, the first and last jiffy, the
// geometry), applies the stated rules with a small counter of its own (no
// scheme, no wheel of sim/ or kernel/), and must arrive at the tool's answer
// and at the classic row of its working, for 200 seeds on each geometry and
// both fixed cases. Were a rule in the question untrue, the totals would part.
#include <cstdint>
#include <algorithm>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/check_main.h"
#include "tests/support/cli.h"

using timersim::test::cli_result;
using timersim::test::run_timersim;

namespace {

// One timer of a question's story.
struct story_timer {
	std::string name;
	std::uint64_t at = 0, timeout = 0, every = 0, until = 0;
	bool rearmed = false, deleted = false;
	std::uint64_t deleted_at = 0;
};

struct question {
	std::string id;
	std::uint64_t start = 0, end = 0;	// every jiffy start..end is processed
	bool base_small = false;
	std::vector<story_timer> timers;
	std::string answer;			// "work=N moves=N"
	std::string classic_row;		// the working's classic line
};

bool starts_with(const std::string &s, const std::string &p) { return s.compare(0, p.size(), p) == 0; }

std::uint64_t number_after(const std::string &line, const std::string &marker)
{
	const auto at = line.find(marker);
	ck_assert_msg(at != std::string::npos, "no '%s' in '%s'", marker.c_str(), line.c_str());
	return std::stoull(line.substr(at + marker.size()));
}

std::string trim(const std::string &s)
{
	const auto b = s.find_first_not_of(' ');
	return b == std::string::npos ? "" : s.substr(b);
}

// The questions of `lab cost ... -c` output, read from their words.
std::vector<question> read_questions(const std::string &out)
{
	std::vector<question> qs;
	std::istringstream in(out);
	for (std::string raw; std::getline(in, raw);) {
		const std::string line = trim(raw);
		if (starts_with(line, "Question ")) {
			qs.emplace_back();
			qs.back().id = line.substr(line.find(": cost ") + 7);
			continue;
		}
		if (qs.empty())
			continue;
		question &q = qs.back();
		if (starts_with(line, "A workload on one CPU")) {
			q.start = number_after(line, "starting at jiffy ");
		} else if (starts_with(line, "It runs to jiffy ")) {
			q.end = number_after(line, "It runs to jiffy ");
		} else if (line.find("tv1 index (jiffy & 63)") != std::string::npos) {
			q.base_small = true;
		} else if (line.size() > 3 && line[1] == ':' && line.find("armed at ") != std::string::npos) {
			story_timer t;
			t.name = line.substr(0, 1);
			t.at = number_after(line, "armed at ");
			t.timeout = number_after(line, "with a timeout of ");
			if (line.find("re-armed") != std::string::npos) {
				t.rearmed = true;
				t.every = number_after(line, " every ");
				t.until = number_after(line, " until ");
			}
			if (line.find("deleted at ") != std::string::npos) {
				t.deleted = true;
				t.deleted_at = number_after(line, "deleted at ");
			} else {
				ck_assert_msg(line.find("it fires") != std::string::npos, "%s", line.c_str());
			}
			q.timers.push_back(t);
		} else if (starts_with(line, "Answer: ")) {
			q.answer = line.substr(8);
		} else if (starts_with(line, "classic ")) {
			q.classic_row = line;
		}
	}
	return qs;
}

std::vector<std::string> words(const std::string &s)
{
	std::istringstream in(s);
	std::vector<std::string> w;
	for (std::string x; in >> x;)
		w.push_back(x);
	return w;
}

struct counts {
	std::uint64_t insertions = 0, removals = 0, relinks = 0, slot_visits = 0;
	std::uint64_t total() const { return insertions + removals + relinks + slot_visits; }
};

// The wheel's shape as the question and lab 1 give it.
struct geometry {
	unsigned tv1_bits, tvn_bits;
	// The level a timer lands on from idx = expires - timer_jiffies
	// (1 = tv1), and the width of one of that level's slots.
	unsigned level(std::uint64_t idx) const
	{
		unsigned l = 1;
		for (std::uint64_t top = std::uint64_t{1} << tv1_bits; idx >= top && l < 5; top <<= tvn_bits)
			l++;
		return l;
	}
	std::uint64_t slot_width(unsigned level) const
	{
		return level == 1 ? 1 : std::uint64_t{1} << (tv1_bits + tvn_bits * (level - 2));
	}
};

// cascade() calls at one jiffy: tv2's when the tv1 index is 0, and one
// more level each time the level just cascaded had index 0.
unsigned cascade_calls(const geometry &g, std::uint64_t jiffy)
{
	if (jiffy & ((std::uint64_t{1} << g.tv1_bits) - 1))
		return 0;
	unsigned calls = 0;
	for (unsigned level = 2; level <= 5; level++) {
		calls++;
		const std::uint64_t index = (jiffy >> (g.tv1_bits + g.tvn_bits * (level - 2))) & ((1u << g.tvn_bits) - 1);
		if (index != 0)
			break;
	}
	return calls;
}

// One arming of a timer at jiffy `at` (a statement at `at` happens before
// jiffy `at` is processed) until `gone` (its next re-arm or del, or never):
// the moves its cascades make before then. A timer on level L sits in the
// slot of its expiry's bits; that slot is cascaded at the expiry rounded
// down to a level-L slot's width, where it is placed again by its new idx.
std::uint64_t moves_of(const geometry &g, std::uint64_t at, std::uint64_t expires, std::uint64_t gone,
		       std::uint64_t end)
{
	std::uint64_t moves = 0, tj = at;
	for (unsigned level = g.level(expires - tj); level > 1; level = g.level(expires - tj)) {
		const std::uint64_t cascade_at = expires & ~(g.slot_width(level) - 1);
		if (cascade_at >= gone || cascade_at > end)
			break;
		moves++;
		tj = cascade_at;
	}
	return moves;
}

counts by_hand(const question &q)
{
	const geometry g = q.base_small ? geometry{6, 4} : geometry{8, 6};
	counts c;
	constexpr std::uint64_t never = std::numeric_limits<std::uint64_t>::max();
	for (const story_timer &t : q.timers) {
		// The armings: at, at + every, ... up to until.
		std::vector<std::uint64_t> arms = {t.at};
		if (t.rearmed)
			for (std::uint64_t a = t.at + t.every; a <= t.until; a += t.every)
				arms.push_back(a);
		for (std::size_t i = 0; i < arms.size(); i++) {
			const std::uint64_t expires = arms[i] + t.timeout;
			// What ends this arming: the next re-arm, the del, or none.
			std::uint64_t gone = i + 1 < arms.size() ? arms[i + 1] : (t.deleted ? t.deleted_at : never);
			c.insertions++;
			// Pending when it goes (not yet expired: its jiffy is
			// processed after the statement) -> detached, a removal;
			// otherwise it expired, also a removal, if within the run.
			if (gone != never && expires >= gone)
				c.removals++;
			else if (expires <= q.end)
				c.removals++, gone = std::min(gone, expires + 1);
			c.relinks += moves_of(g, arms[i], expires, gone, q.end);
		}
	}
	for (std::uint64_t j = q.start; j <= q.end; j++)
		c.slot_visits += 1 + cascade_calls(g, j);
	return c;
}

void check_all(const std::vector<std::string> &args, unsigned expected)
{
	cli_result r = run_timersim(args);
	ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err.c_str());
	const std::vector<question> qs = read_questions(r.out);
	ck_assert_uint_eq(qs.size(), expected);
	for (const question &q : qs) {
		ck_assert_msg(!q.timers.empty() && q.end > q.start, "cost %s: question not read", q.id.c_str());
		const counts c = by_hand(q);
		const std::string mine = "work=" + std::to_string(c.total()) + " moves=" + std::to_string(c.relinks);
		// The working's classic row: insertions removals relinks slot_visits comparisons total.
		const std::vector<std::string> row = {"classic", std::to_string(c.insertions), std::to_string(c.removals),
						      std::to_string(c.relinks), std::to_string(c.slot_visits), "0",
						      std::to_string(c.total())};
		ck_assert_msg(q.answer == mine, "cost %s: the tool says '%s', the stated rules give '%s'", q.id.c_str(),
			      q.answer.c_str(), mine.c_str());
		ck_assert_msg(words(q.classic_row) == row, "cost %s: working '%s', by hand insertions %s removals %s",
			      q.id.c_str(), q.classic_row.c_str(), row[1].c_str(), row[2].c_str());
	}
}

}  // namespace

START_TEST(seeds_worked_by_the_stated_rules)
{
	check_all({"lab", "cost", "-s", "0", "-n", "200", "-c"}, 200);
}
END_TEST

START_TEST(base_small_seeds_worked_by_the_stated_rules)
{
	check_all({"lab", "cost", "-s", "0", "-n", "200", "-c", "--base-small"}, 200);
}
END_TEST

START_TEST(fixed_cases_worked_by_the_stated_rules)
{
	check_all({"lab", "cost", "-s", "F1", "-c"}, 1);
	check_all({"lab", "cost", "-s", "F2", "-c"}, 1);
	check_all({"lab", "cost", "-s", "F1", "-n", "2", "-c", "--word-bits", "32"}, 2);
}
END_TEST

int main()
{
	Suite *s = suite_create("lab_cost_rules");
	TCase *tc = tcase_create("rules");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, seeds_worked_by_the_stated_rules);
	tcase_add_test(tc, base_small_seeds_worked_by_the_stated_rules);
	tcase_add_test(tc, fixed_cases_worked_by_the_stated_rules);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
