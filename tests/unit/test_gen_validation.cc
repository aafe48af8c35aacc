// `timersim gen` writes only traces its own replay reads, and refuses
// (exit 2, naming the option or key and what is wrong) what would not be
// one: names that break the line format (blanks, tabs, CR, newlines, empty,
// too long), rates of 0, a period of 0, a key given twice, populations past
// the bound, durations shorter than a jiffy, no events at all, and seeds or
// first jiffies that are negative, past 2^64 - 1 or empty. The generator's
// memory stays bounded whatever the rates (machine_options' limits).
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "sim/base/errors.h"
#include "sim/gen/generator.h"
#include "sim/gen/machine.h"
#include "tests/support/cli.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"

using namespace timersim;
using namespace timersim::test;

namespace {

bool contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

// The "N/N" of the header's entries-in-buffer line.
unsigned long long header_entries(const std::string &trace)
{
	unsigned long long n = 0, m = 0;
	std::size_t at = trace.find("entries-in-buffer/entries-written: ");
	if (at == std::string::npos ||
	    std::sscanf(trace.c_str() + at, "entries-in-buffer/entries-written: %llu/%llu", &n, &m) != 2)
		return ~0ull;
	return n;
}

// A JSON report's number after "KEY": (the first one).
long long json_number(const std::string &json, const std::string &key)
{
	std::size_t at = json.find("\"" + key + "\": ");
	if (at == std::string::npos)
		return -1;
	return std::atoll(json.c_str() + at + key.size() + 4);
}

}  // namespace

// For a range of workloads, kernels and options, and names at the edges of
// what gen takes, the replay reads every event gen wrote: exit 0, as many
// events as the header says, no line malformed.
START_TEST(replay_reads_what_gen_writes)
{
	const std::string long_fn(128, 'f');
	const std::vector<std::vector<std::string>> runs = {
		{"-w", "networking:rate=60"},
		{"-w", "networking:rate=60,fn_rto=a.b$c_1,fn_delack=tcp_delack_timer.cold,task=kworker/0:1",
		 "--kernel", "6"},
		{"-w", "lognormal:rate=200,fn=" + long_fn + ",task=[x]-1:y|z'\"%s{"},
		{"-w", "exponential:rate=100,task=123456789012345,fn=$", "--no-expiries"},
		{"-w", "periodic:timers=5,period=100ms,task=a", "--cpus", "3", "--hz", "1000"},
		{"-w", "guards:timers=20,life=500ms,refresh=2,min=1s,max=10s", "--no-slack"},
		{"-w", "adversarial:timers=10,level=2,cancel=0.5", "--hz", "100"},
		{"-w", "bursts:size=20,every=200ms,timeout=100ms,sigma=0.5", "--kernel", "6", "--cpus", "2"},
		{"-w", "fitted:rate=20,initial=5,rearm=0.5,cancel=0.3,expire=0.2,self=0.5,fn=x"},
		{"-w", "periodic:timers=2,period=10ms", "--start", "0"},
		// The last jiffy of 2 s at HZ 250 plus the longest timeout (2^30 - 1)
		// at 2^64 - 1: the highest start.
		{"-w", "guards:timers=20,life=1s", "--start", "18446744072635809292"},
		{"-w", "periodic:timers=2,period=10ms", "--start", "4294967000", "--seed", "18446744073709551615"},
		{"-w", "lognormal:rate=100;periodic:timers=3;guards:timers=5,life=1s", "--scale", "0.5"},
		{"-w", "periodic:timers=1,period=1s", "--duration", "4ms"},
	};
	std::string dir = temp_subdir("gen-replay");
	int n = 0;
	for (const auto &extra : runs) {
		std::string trace = dir + "/t" + std::to_string(n++) + ".txt";
		std::vector<std::string> args = {"gen", "-o", trace};
		args.insert(args.end(), extra.begin(), extra.end());
		if (std::find(extra.begin(), extra.end(), "--duration") == extra.end())
			args.insert(args.end(), {"--duration", "2s"});
		cli_result g = run_timersim(args);
		ck_assert_msg(g.status == 0, "gen %s: %d %s", extra[1].c_str(), g.status, g.err.c_str());
		std::string text = read_whole_file(trace);
		unsigned long long entries = header_entries(text);
		ck_assert_msg(entries > 0 && entries != ~0ull, "gen %s: %llu entries", extra[1].c_str(), entries);

		cli_result r = run_timersim({"replay", "--json", "-", trace});
		ck_assert_msg(r.status == 0, "replay of gen %s: %d %s", extra[1].c_str(), r.status, r.err.c_str());
		ck_assert_msg(json_number(r.out, "events") == static_cast<long long>(entries),
			      "gen %s: replay read %lld events of %llu", extra[1].c_str(), json_number(r.out, "events"),
			      entries);
		ck_assert_msg(json_number(r.out, "malformed") == 0, "gen %s: malformed lines", extra[1].c_str());
	}
}
END_TEST

// Whatever gen is given, it either refuses it (exit 2) or writes a trace
// the replay reads without a malformed line.
START_TEST(gen_refuses_or_replay_reads)
{
	const std::vector<std::string> names = {
		"a b", "a\tb", "a\rb", "x\n  <idle>-0     [000] ..s. 1.000000: timer_cancel: timer=0000000000000001", "x:",
		"x: y", "", " ", "kworker/0:1", "a.b$c", "caf\xc3\xa9", std::string(65536, 'n'), "[000]", "a=b",
	};
	std::vector<std::vector<std::string>> runs;
	for (const std::string &n : names) {
		runs.push_back({"-w", "periodic:timers=2,fn=" + n});
		runs.push_back({"-w", "lognormal:rate=50,task=" + n});
	}
	runs.push_back({"-w", "networking:rate=0"});
	runs.push_back({"-w", "periodic:period=0"});
	runs.push_back({"-w", "lognormal", "--duration", "0.000000001"});
	runs.push_back({"-w", "lognormal", "--scale", "1e-300"});
	runs.push_back({"-w", "periodic", "--start", "18446744073709551615"});
	runs.push_back({"-w", "guards:timers=10,life=1s", "--start", "18446744073709551000"});
	std::string dir = temp_subdir("gen-either");
	int n = 0;
	for (const auto &extra : runs) {
		std::string trace = dir + "/t" + std::to_string(n++) + ".txt";
		std::vector<std::string> args = {"gen", "-o", trace};
		args.insert(args.end(), extra.begin(), extra.end());
		if (std::find(extra.begin(), extra.end(), "--duration") == extra.end())
			args.insert(args.end(), {"--duration", "1s"});
		std::string what = extra[1].substr(0, 60) + (extra.size() > 2 ? " " + extra[2] + " " + extra[3] : "");
		cli_result g = run_timersim(args);
		ck_assert_msg(g.status == 0 || g.status == 2, "gen %s: exit %d", what.c_str(), g.status);
		if (g.status == 2)
			continue;
		cli_result r = run_timersim({"replay", "--json", "-", trace});
		ck_assert_msg(r.status == 0, "gen %s wrote a trace its replay refuses: %s", what.c_str(), r.err.c_str());
		unsigned long long entries = header_entries(read_whole_file(trace));
		ck_assert_msg(json_number(r.out, "events") == static_cast<long long>(entries) &&
				      json_number(r.out, "malformed") == 0,
			      "gen %s: replay read %lld events of %llu", what.c_str(), json_number(r.out, "events"),
			      entries);
	}
}
END_TEST

// What would not replay, or would not finish, is refused before a byte is
// written: exit 2, the option or key named, no output file.
START_TEST(bad_values_exit_2_naming_what_is_wrong)
{
	struct bad_case {
		std::vector<std::string> args;
		std::string says;
	} cases[] = {
		// Names the line format cannot carry.
		{{"-w", "periodic:fn=a b"}, "fn=a b must be a callback name"},
		{{"-w", "periodic:fn=a\tb"}, "fn=a\\x09b must be a callback name"},
		{{"-w", "periodic:fn=a\rb"}, "fn=a\\x0db must be a callback name"},
		{{"-w", "periodic:fn=x\n  <idle>-0 [000] ..s. 1.000000: timer_cancel: timer=0"}, "fn=x\\x0a"},
		{{"-w", "periodic:fn=x:"}, "fn=x: must be a callback name"},
		{{"-w", "periodic:fn=x: y"}, "must be a callback name"},
		{{"-w", "periodic:fn="}, "fn= must be a callback name"},
		{{"-w", "periodic:fn=" + std::string(129, 'f')}, "1 to 128"},
		{{"-w", "networking:fn_rto=a b"}, "fn_rto=a b must be a callback name"},
		{{"-w", "lognormal:task=my app"}, "task=my app must be a task name"},
		{{"-w", "lognormal:task=a\tb"}, "task=a\\x09b must be a task name"},
		{{"-w", "lognormal:task=a\nb"}, "task=a\\x0ab must be a task name"},
		{{"-w", "lognormal:task="}, "task= must be a task name"},
		{{"-w", "lognormal:task=" + std::string(16, 't')}, "1 to 15 printable"},
		{{"-w", "bursts:task=x: y"}, "must be a task name"},
		// Values that generate nothing, or never stop.
		{{"-w", "networking:rate=0"}, "networking: parameter rate=0 must be more than 0"},
		{{"-w", "lognormal:rate=0"}, "lognormal: parameter rate=0 must be more than 0"},
		{{"-w", "exponential:rate=0/s"}, "exponential: parameter rate=0/s must be more than 0"},
		{{"-w", "fitted:rate=0"}, "rate=0 and initial=0"},
		{{"-w", "periodic:period=0"}, "periodic: parameter period=0 must be more than 0"},
		{{"-w", "guards:life=0"}, "guards: parameter life=0 must be more than 0"},
		{{"-w", "periodic:timers=0"}, "timers=0 must be at least 1 timer"},
		{{"-w", "networking:rate=5,rate=500"}, "rate= given twice (rate=5 and rate=500)"},
		{{"-w", "periodic:fn=a,timers=3,fn=b"}, "fn= given twice"},
		// Populations past the bound run out of memory.
		{{"-w", "guards:timers=1e9"}, "guards: parameter timers=1e9 must be at most 1000000 timers"},
		{{"-w", "adversarial:timers=1000000000"}, "must be at most 1000000 timers"},
		{{"-w", "bursts:size=1e9"}, "bursts: parameter size=1e9 must be at most"},
		{{"-w", "periodic:timers=1e9"}, "periodic: parameter timers=1e9 must be at most"},
		{{"-w", "fitted:initial=1e9"}, "fitted: parameter initial=1e9 must be at most"},
		{{"-w", "guards:timers=100000", "--scale", "100"}, "(times --scale 100)"},
		{{"-w", "periodic:timers=16", "--scale", "1e-300"}, "at least 1 timer (times --scale 1e-300)"},
		{{"-w", "networking", "--scale", "1e-300"}, "no timer event in --duration 10s at --scale 1e-300"},
		// Durations.
		{{"-w", "periodic", "--duration", "0.000000001"},
		 "--duration 0.000000001s is shorter than a jiffy (0.004s at --hz 250)"},
		{{"-w", "periodic", "--duration", "0"}, "--duration 0s is shorter than a jiffy"},
		{{"-w", "periodic", "--duration", "1ns"}, "--duration: '1ns' is not a duration"},
		{{"-w", "periodic", "--duration", "3ms"}, "shorter than a jiffy"},
		{{"-w", "periodic", "--duration", ""}, "--duration: '' is not a duration"},
		{{"-w", "lognormal:rate=0.001", "--duration", "1s"}, "no timer event"},
		// Seeds and first jiffies: whole numbers 0..2^64-1 as written.
		// One message shape for both (tools/numbers), as for every number.
		{{"-w", "periodic", "--seed", "-1"}, "--seed: '-1' is negative; expected a whole number from 0 to"},
		{{"-w", "periodic", "--seed", "18446744073709551616"}, "--seed: '18446744073709551616' is out of range"},
		{{"-w", "periodic", "--seed", ""}, "--seed: empty value"},
		{{"-w", "periodic", "--seed", "1x"}, "--seed: '1x' is not a whole number from 0 to"},
		{{"-w", "periodic", "--seed", " 5"}, "not a whole number"},
		{{"-w", "periodic", "--start", "-1"}, "--start: '-1' is negative; expected a whole number from 0 to"},
		{{"-w", "periodic", "--start", "18446744073709551616"}, "--start: '18446744073709551616' is out of range"},
		{{"-w", "periodic", "--start", ""}, "--start: empty value"},
		{{"-w", "periodic", "--start", " 5"}, "not a whole number"},
		{{"-w", "periodic", "--start", "18446744073709551615"},
		 "--start 18446744073709551615: the jiffies and expiries would pass 2^64 - 1 within --duration 10s"},
		{{"-w", "periodic", "--start", "18446744072635807293"}, "at most 18446744072635807292"},
	};
	std::string dir = temp_subdir("gen-bad");
	std::string out = dir + "/never.txt";
	for (const bad_case &c : cases) {
		std::vector<std::string> args = {"gen", "-o", out};
		args.insert(args.end(), c.args.begin(), c.args.end());
		cli_result r = run_timersim(args);
		std::string what = c.args[1] + (c.args.size() > 2 ? " " + c.args[2] + " " + c.args[3] : "");
		ck_assert_msg(r.status == 2, "gen %s: exit %d (%s)", what.c_str(), r.status, r.err.c_str());
		ck_assert_msg(contains(r.err, c.says), "gen %s: says '%s', not '%s'", what.c_str(), r.err.c_str(),
			      c.says.c_str());
		// One line of message: a newline in a value is shown, not printed.
		ck_assert_msg(r.err.find('\n') == r.err.size() - 1 || contains(r.err, "\ntry 'timersim gen --help'"),
			      "gen %s: message of several lines: %s", what.c_str(), r.err.c_str());
		ck_assert_msg(access(out.c_str(), F_OK) != 0, "gen %s left %s", what.c_str(), out.c_str());
	}
}
END_TEST

// check_options() (what sweeps check their SPEC with) refuses what the
// generator would: populations times --scale included.
START_TEST(check_options_refuses_what_gen_would)
{
	gen::gen_options o;
	o.workloads = gen::parse_mixture("periodic;guards:timers=1000");
	gen::check_options(o);
	o.scale = 2000;
	try {
		gen::check_options(o);
		ck_abort_msg("guards:timers=1000 at --scale 2000 accepted");
	} catch (const usage_error &e) {
		ck_assert_msg(contains(e.what(), "guards: parameter timers=1000 must be at most 1000000 timers "
						 "(times --scale 2000)"),
			      "%s", e.what());
	}
}
END_TEST

// A source that arms `per_jiffy` new timers every jiffy and never lets one go.
class hoarder final : public gen::source {
public:
	explicit hoarder(unsigned per_jiffy) : per_jiffy_(per_jiffy) {}
	void begin(gen::machine &m) override
	{
		fn_ = m.function("hoard_fn");
		task_ = m.task("hoarder");
		pool_ = m.pool(0xffff880100000000ull, 0x40);
		m.at(0, this, 0, task_);
	}
	void act(gen::machine &m, std::uint64_t) override
	{
		for (unsigned i = 0; i < per_jiffy_; i++)
			m.mod_timer(m.new_timer(this, pool_, fn_, 0, i), gen::machine::max_timeout);
		m.at(m.jiffy_ns(m.jiffies() + 1), this, 0, task_);
	}
	void fired(gen::machine &, gen::timer_h) override {}

private:
	unsigned per_jiffy_;
	std::uint32_t fn_ = 0, task_ = 0, pool_ = 0;
};

// Whatever the rates, the generator's memory is bounded: past the timers
// alive at once or the events of one jiffy it stops with a usage error that
// says when and what to lower.
START_TEST(generator_memory_is_bounded)
{
	struct {
		std::size_t timers, events;
		unsigned per_jiffy;
		const char *says;
	} cases[] = {
		{1000, 1'000'000, 100, "more than 1000 timers alive at once (at 0.040000 s of the trace)"},
		{1'000'000, 500, 300, "more than 500 events in one jiffy (at 0.000000 s of the trace)"},
	};
	for (const auto &c : cases) {
		gen::machine_options mo;
		mo.hz = 250;
		mo.duration_ns = 10'000'000'000;
		mo.max_timers = c.timers;
		mo.max_events_per_jiffy = c.events;
		gen::machine m(mo);
		hoarder h(c.per_jiffy);
		h.begin(m);
		std::vector<gen::gen_event> buf;
		try {
			for (int j = 0; j < 2500 && m.step(buf); j++)
				buf.clear();
			ck_abort_msg("no limit stopped %u timers a jiffy", c.per_jiffy);
		} catch (const usage_error &e) {
			ck_assert_msg(contains(e.what(), c.says), "%s", e.what());
			ck_assert(contains(e.what(), "lower the workloads' rates or populations, or --scale"));
		}
	}
}
END_TEST

int main()
{
	Suite *s = suite_create("gen_validation");
	TCase *tc = tcase_create("gen_validation");
	tcase_set_timeout(tc, 180);
	tcase_add_test(tc, replay_reads_what_gen_writes);
	tcase_add_test(tc, gen_refuses_or_replay_reads);
	tcase_add_test(tc, bad_values_exit_2_naming_what_is_wrong);
	tcase_add_test(tc, generator_memory_is_bounded);
	tcase_add_test(tc, check_options_refuses_what_gen_would);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
