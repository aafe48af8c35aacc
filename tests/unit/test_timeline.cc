// --timeline: the CSV per CPU and tick (or interval) adds up to the report,
// counts pending timers per level as the wheel itself holds them, keeps
// idle stretches to one row, and is the same bytes run after run.
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "sim/replay/replay.h"
#include "sim/output/output_file.h"
#include "sim/output/pending_levels.h"
#include "sim/output/timeline.h"
#include "sim/trace/reader.h"
#include "tests/support/cli.h"
#include "tests/support/text_trace_util.h"

// Last: check.h defines macros that clash with <iostream> internals.
#include "tests/support/check_main.h"

using namespace timersim;
using namespace timersim::test;

namespace {

const char default_trace[] = "tests/data/default-trace.txt.gz";

struct csv {
	std::vector<std::string> header;
	std::vector<std::vector<std::string>> rows;

	std::size_t col(const std::string &name) const
	{
		for (std::size_t i = 0; i < header.size(); i++)
			if (header[i] == name)
				return i;
		ck_abort_msg("no column %s", name.c_str());
		return 0;
	}
	std::uint64_t num(std::size_t row, const std::string &name) const
	{
		return std::stoull(rows[row][col(name)]);
	}
	std::uint64_t sum(const std::string &name) const
	{
		std::uint64_t s = 0;
		for (std::size_t r = 0; r < rows.size(); r++)
			s += num(r, name);
		return s;
	}
};

std::vector<std::string> split(const std::string &line)
{
	std::vector<std::string> out;
	std::stringstream ss(line);
	std::string f;
	while (std::getline(ss, f, ','))
		out.push_back(f);
	if (!line.empty() && line.back() == ',')
		out.push_back("");	// an empty last cell (the time columns of a row per tick)
	return out;
}

csv parse_csv(const std::string &text)
{
	csv c;
	std::stringstream ss(text);
	std::string line;
	std::getline(ss, line);
	c.header = split(line);
	while (std::getline(ss, line)) {
		c.rows.push_back(split(line));
		ck_assert_uint_eq(c.rows.back().size(), c.header.size());
	}
	return c;
}

// The replay of `path` through `scheme` with a timeline into `out_path`.
replay_report replay_with_timeline(const std::string &path, const std::string &scheme,
				   const std::string &out_path, timeline_interval iv = {})
{
	output_file out(out_path);
	timeline tl(out, iv);
	auto reader = open_trace(path, trace_format::auto_detect, {});
	replay_options opt;
	opt.scheme = scheme;
	replay_report r = replay_trace(*reader, path, opt, {&tl});
	out.commit();
	return r;
}

void check_adds_up(const std::string &scheme)
{
	std::string dir = temp_subdir("timeline-" + scheme);
	replay_report r = replay_with_timeline(default_trace, scheme, dir + "/t.csv");
	csv c = parse_csv(read_whole_file(dir + "/t.csv"));
	ck_assert_uint_gt(c.rows.size(), 100);
	ck_assert_uint_eq(c.sum("enqueued"), r.timers.started);
	ck_assert_uint_eq(c.sum("canceled"), r.timers.canceled);
	ck_assert_uint_eq(c.sum("expired"), r.timers.expired);
	ck_assert_uint_eq(c.sum("moved"), r.cascade.moved_total);
	ck_assert_uint_eq(c.sum("ticks"), r.ticks_processed);
	std::uint64_t calls = 0;
	for (const level_cascade &l : r.cascade.levels)
		calls += l.calls;
	ck_assert_uint_eq(c.sum("cascades"), calls);

	// pending is the sum of its levels in every row; the last row of each
	// CPU holds what the report finds pending at the end.
	std::map<std::string, std::uint64_t> last;
	for (std::size_t i = 0; i < c.rows.size(); i++) {
		std::uint64_t levels = 0;
		for (const level_enqueue &l : r.enqueue)
			levels += c.num(i, "pending_" + l.level);
		ck_assert_uint_eq(levels, c.num(i, "pending"));
		last[c.rows[i][c.col("cpu")]] = c.num(i, "pending");
	}
	std::uint64_t at_end = 0;
	for (const auto &[cpu, n] : last)
		at_end += n;
	ck_assert_uint_eq(at_end, r.timers.pending_at_end);
}

// A sink that compares pending_levels with the wheel's own slots at every tick.
class level_checker final : public replay_sink {
public:
	void begin(const replay_setup &setup) override
	{
		setup_ = &setup;
		levels_.begin(setup);
	}
	void started(const timer_ref &t, unsigned cpu, jiffies_t, jiffies_t, unsigned level,
		     bool) override
	{
		levels_.started(t, cpu, level);
	}
	void canceled(const timer_ref &t, unsigned, jiffies_t) override { levels_.removed(t); }
	void moved(const timer_ref &t, unsigned, jiffies_t, unsigned) override { levels_.moved(t); }
	void expired(const timer_ref &t, unsigned, jiffies_t, jiffies_t) override
	{
		levels_.removed(t);
	}
	void fidelity(const timer_ref &t, unsigned, jiffies_t recorded, jiffies_t simulated,
		      verdict v) override
	{
		if (expired_by_replay(v, recorded, simulated))
			levels_.removed(t);
	}
	void tick(unsigned cpu, jiffies_t) override
	{
		std::vector<std::uint64_t> seen(setup_->levels + 1, 0);
		for (const wheel_base_state &b : setup_->wheel->inspect(cpu))
			for (std::size_t l = 0; l < b.levels.size(); l++)
				for (const wheel_slot_state &s : b.levels[l].slots) {
					seen[l + 1] += s.timers.size();
					seen[0] += s.timers.size();
				}
		ck_assert_msg(seen == levels_.of(cpu), "CPU %u: counted %llu pending, the wheel holds %llu",
			      cpu, (unsigned long long)levels_.of(cpu)[0], (unsigned long long)seen[0]);
		checked++;
	}
	std::uint64_t checked = 0;

private:
	const replay_setup *setup_ = nullptr;
	pending_levels levels_;
};

}  // namespace

START_TEST(per_tick_rows_add_up_to_the_report)
{
	check_adds_up("classic");
	check_adds_up("v48");
}
END_TEST

START_TEST(pending_per_level_is_what_the_wheel_holds)
{
	for (const char *scheme : {"classic", "v48"}) {
		level_checker check;
		auto reader = open_trace(default_trace, trace_format::auto_detect, {});
		replay_options opt;
		opt.scheme = scheme;
		replay_report r = replay_trace(*reader, default_trace, opt, {&check});
		ck_assert_uint_gt(check.checked, 1000);
		if (std::string(scheme) == "classic")
			ck_assert_uint_gt(r.cascade.moved_total, 0);	// moves were followed
	}
}
END_TEST

START_TEST(interval_rows_are_sorted_and_aligned)
{
	std::string dir = temp_subdir("timeline-interval");
	replay_report r = replay_with_timeline(default_trace, "classic", dir + "/t.csv",
					       timeline_interval::parse("250"));
	csv c = parse_csv(read_whole_file(dir + "/t.csv"));
	ck_assert_uint_eq(c.sum("ticks"), r.ticks_processed);
	ck_assert_uint_eq(c.sum("moved"), r.cascade.moved_total);
	ck_assert_uint_eq(c.sum("expired"), r.timers.expired);
	for (std::size_t i = 0; i < c.rows.size(); i++) {
		ck_assert_uint_eq((c.num(i, "jiffy") - r.input.first_jiffies) % 250, 0);
		if (i)
			ck_assert(c.num(i, "jiffy") > c.num(i - 1, "jiffy") ||
				  (c.num(i, "jiffy") == c.num(i - 1, "jiffy") &&
				   c.num(i, "cpu") > c.num(i - 1, "cpu")));
	}
	// About one row per CPU and interval: 15 s at HZ 250, 2 CPUs.
	ck_assert_uint_le(c.rows.size(), 2 * (r.input.last_jiffies - r.input.first_jiffies) / 250 + 2);
	// A duration is turned into jiffies at the trace's HZ.
	ck_assert_uint_eq(timeline_interval::parse("1s").jiffies_at(250), 250);
	ck_assert_uint_eq(timeline_interval::parse("10ms").jiffies_at(1000), 10);
}
END_TEST

// An idle stretch of 2^32 jiffies is one row, not 2^32 of them.
START_TEST(idle_stretch_is_one_row)
{
	std::string dir = temp_subdir("timeline-idle");
	trace_clock clock;
	clock.set_hz(250);
	clock.observe(1000, 4'000'000'000);
	replay_setup setup;
	setup.cpus = 1;
	setup.hz = 250;
	setup.start = 1000;
	setup.clock = &clock;
	{
		output_file out(dir + "/t.csv");
		timeline tl(out);
		tl.begin(setup);
		tl.tick(0, 1000);
		tl.idle_ticks(0, 1001, std::uint64_t{1} << 32);
		tl.tick(0, 1001 + (std::uint64_t{1} << 32));
		replay_report r;
		tl.end(r);
		out.commit();
	}
	csv c = parse_csv(read_whole_file(dir + "/t.csv"));
	ck_assert_uint_eq(c.rows.size(), 3);
	ck_assert_uint_eq(c.num(1, "ticks"), std::uint64_t{1} << 32);
	ck_assert_uint_eq(c.num(1, "jiffy"), 1001);
	ck_assert_str_eq(c.rows[0][c.col("seconds")].c_str(), "4.000000");
	ck_assert_str_eq(c.rows[1][c.col("seconds")].c_str(), "4.004000");
	ck_assert_uint_eq(c.sum("ticks"), (std::uint64_t{1} << 32) + 2);
}
END_TEST

START_TEST(same_input_same_bytes_and_bad_interval)
{
	std::string dir = temp_subdir("timeline-cli");
	std::string a = dir + "/a.csv", b = dir + "/b.csv";
	ck_assert_int_eq(run_timersim({"replay", "--timeline", a, default_trace}).status, 0);
	ck_assert_int_eq(run_timersim({"replay", "--timeline", b, default_trace}).status, 0);
	ck_assert(read_whole_file(a) == read_whole_file(b));
	ck_assert_uint_gt(read_whole_file(a).size(), 1000);

	cli_result bad = run_timersim({"replay", "--timeline", dir + "/c.csv", "--interval", "5h", default_trace});
	ck_assert_int_eq(bad.status, 2);
	ck_assert(bad.err.find("--interval 5h") != std::string::npos);
	cli_result alone = run_timersim({"replay", "--interval", "5", default_trace});
	ck_assert_int_eq(alone.status, 2);
	ck_assert(alone.err.find("--interval requires --timeline") != std::string::npos);
}
END_TEST

int main()
{
	Suite *s = suite_create("timeline");
	TCase *tc = tcase_create("timeline");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, per_tick_rows_add_up_to_the_report);
	tcase_add_test(tc, pending_per_level_is_what_the_wheel_holds);
	tcase_add_test(tc, interval_rows_are_sorted_and_aligned);
	tcase_add_test(tc, idle_stretch_is_one_row);
	tcase_add_test(tc, same_input_same_bytes_and_bad_interval);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
