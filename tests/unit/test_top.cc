// timersim top: its figures are the replay's. A recorded trace played back
// (no tracefs needed) ends with the same totals as `replay` of that trace;
// a live session with --record ends with the same totals as `replay` of the
// recording (root and tracefs, else skipped with a message); no tracefs
// instance outlives a run, however it ends; the terminal UI in tmux at
// 80x24 and 200x50.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/output/top_figures.h"
#include "sim/replay/replay.h"
#include "sim/trace/reader.h"
#include "sim/trace/stored_events.h"
#include "tests/support/cli.h"
#include "tests/support/paths.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"

using namespace timersim::test;
using json = nlohmann::json;

namespace {

const char tracing[] = "/sys/kernel/tracing";

bool contains(const std::string &hay, const std::string &needle)
{
	return hay.find(needle) != std::string::npos;
}

// Why a live session cannot run here, or "".
std::string live_missing()
{
	if (geteuid() != 0)
		return "not root";
	struct stat sb;
	if (stat((std::string(tracing) + "/instances").c_str(), &sb) != 0)
		return std::string("no tracefs at ") + tracing;
	return "";
}

std::vector<std::string> top_instances()
{
	std::vector<std::string> out;
	if (DIR *d = opendir((std::string(tracing) + "/instances").c_str())) {
		while (dirent *e = readdir(d))
			if (std::string(e->d_name).rfind("timersim-top-", 0) == 0)
				out.push_back(e->d_name);
		closedir(d);
	}
	return out;
}

bool instance_of(pid_t pid)
{
	for (const std::string &n : top_instances())
		if (n == "timersim-top-" + std::to_string(pid))
			return true;
	return false;
}

// The last JSON line of a --json-lines file (the final one).
json final_line(const std::string &path)
{
	std::ifstream in(path);
	std::string line, last;
	unsigned n = 0;
	while (std::getline(in, line))
		if (!line.empty()) {
			last = line;
			n++;
		}
	ck_assert_msg(n >= 2, "%s: %u JSON lines, want intervals and a final one", path.c_str(), n);
	json j = json::parse(last);
	ck_assert_msg(j.at("final").get<bool>(), "the last line is not the final one");
	return j.at("run");
}

std::uint64_t count_of(const json &stats, const char *key)
{
	return stats.is_null() ? 0 : stats.at(key).get<std::uint64_t>();
}

// Top's final figures against the replay's report, figure for figure.
void check_same_totals(const json &top, const json &rep)
{
	const json &m = rep.at("measured");
	auto same = [](std::uint64_t a, std::uint64_t b, const std::string &what) {
		ck_assert_msg(a == b, "%s: top %llu, replay %llu", what.c_str(), (unsigned long long)a,
			      (unsigned long long)b);
	};
	same(top.at("events"), rep.at("input").at("events"), "events");
	same(top.at("wakeups"), m.at("wakeups"), "wakeups");
	same(top.at("wakeups_without_expiry"), m.at("wakeups_without_expiry"), "wakeups without expiry");
	same(top.at("expiries"), rep.at("events").at("timer_expire_entry"), "expiries");
	same(top.at("fidelity_compared"), rep.at("fidelity").at("compared"), "fidelity compared");
	same(top.at("fidelity_exact"), rep.at("fidelity").at("exact"), "fidelity exact");
	same(top.at("hrtimer_expiries"), rep.at("hrtimers").at("expiries"), "hrtimer expiries");
	same(top.at("hrtimer_same_interrupt"), rep.at("hrtimers").at("same_interrupt"), "hrtimer same interrupt");
	const json &all = top.at("all");
	same(all.at("interrupts"), count_of(m.at("timer_interrupts"), "count"), "timer interrupts");
	same(all.at("interrupt_ns"), count_of(m.at("timer_interrupts"), "total_ns"), "timer interrupt ns");
	same(all.at("timer_softirq_runs"), count_of(m.at("timer_softirq"), "count"), "TIMER softirq runs");
	same(all.at("timer_softirq_ns"), count_of(m.at("timer_softirq"), "total_ns"), "TIMER softirq ns");
	same(all.at("hrtimer_softirq_runs"), count_of(m.at("hrtimer_softirq"), "count"), "HRTIMER softirq runs");
	same(all.at("hrtimer_softirq_ns"), count_of(m.at("hrtimer_softirq"), "total_ns"), "HRTIMER softirq ns");
	const json &cpus = m.at("cpus");
	ck_assert_msg(top.at("cpus").size() >= cpus.size(), "CPUs");
	for (std::size_t i = 0; i < cpus.size(); i++) {
		const json &t = top.at("cpus").at(i);
		const std::string c = "CPU " + std::to_string(i) + " ";
		same(t.at("interrupts"), count_of(cpus[i].at("timer_interrupts"), "count"), c + "interrupts");
		same(t.at("timer_softirq_ns"), count_of(cpus[i].at("timer_softirq"), "total_ns"), c + "TIMER ns");
		same(t.at("hrtimer_softirq_ns"), count_of(cpus[i].at("hrtimer_softirq"), "total_ns"), c + "HRTIMER ns");
	}
	// Wakeups by CPU: they add up to the replay's, and each CPU's causes
	// (callbacks, and interrupts that ran none) to its count.
	std::uint64_t cpu_wakeups = 0;
	for (std::size_t i = 0; i < top.at("cpus").size(); i++) {
		const json &t = top.at("cpus").at(i);
		std::uint64_t causes = t.at("wakeups_without_expiry");
		for (const json &c : top.at("callbacks"))
			causes += c.at("wakeups_by_cpu").at(i).get<std::uint64_t>();
		same(causes, t.at("wakeups"), "CPU " + std::to_string(i) + " wakeups by cause");
		cpu_wakeups += t.at("wakeups").get<std::uint64_t>();
	}
	same(cpu_wakeups, m.at("wakeups"), "wakeups of every CPU");
	// Every callback's measured time and wakeups.
	std::size_t matched = 0;
	for (const json &c : m.at("callbacks")) {
		for (const json &t : top.at("callbacks"))
			if (t.at("function") == c.at("function")) {
				same(t.at("measured_ns"), c.at("total_ns"), "measured ns of " + c.at("function").get<std::string>());
				same(t.at("wakeups"), c.at("wakeups"), "wakeups of " + c.at("function").get<std::string>());
				matched++;
			}
	}
	ck_assert_msg(matched == m.at("callbacks").size(), "callbacks: %zu of %zu in top's final block", matched,
		      m.at("callbacks").size());
}

// Starts `timersim ARGS` with stdout and stderr to files; returns its pid.
pid_t start_top(const std::vector<std::string> &args, const std::string &out)
{
	pid_t pid = fork();
	if (pid == 0) {
		FILE *f = std::freopen(out.c_str(), "w", stdout);
		FILE *g = std::freopen((out + ".err").c_str(), "w", stderr);
		(void)f;
		(void)g;
		std::vector<char *> argv;
		std::string bin = timersim_bin();
		argv.push_back(bin.data());
		std::vector<std::string> copy = args;
		for (std::string &s : copy)
			argv.push_back(s.data());
		argv.push_back(nullptr);
		execv(bin.c_str(), argv.data());
		_exit(127);
	}
	return pid;
}

int wait_status(pid_t pid)
{
	int st = 0;
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st);
}

// Waits until top's instance exists (it has started tracing).
void wait_instance(pid_t pid)
{
	for (int i = 0; i < 100 && !instance_of(pid); i++)
		std::this_thread::sleep_for(std::chrono::milliseconds(50));
	ck_assert_msg(instance_of(pid), "no instance timersim-top-%d while it runs", int(pid));
}

}  // namespace

START_TEST(trace_playback_ends_with_the_replays_totals)
{
	const std::string trace = shared_trace_or_skip("linux-6.18-http/trace.dat");
	if (trace.empty())
		return;
	std::string dir = temp_subdir("top_playback");
	std::string lines = dir + "/top.jsonl";
	cli_result r = run_timersim({"top", "--trace", trace, "--speed", "0", "--batch", "--interval", "2",
				     "--json-lines", lines});
	ck_assert_msg(r.status == 0, "top --trace: %d %s", r.status, r.err.c_str());
	ck_assert_msg(contains(r.out, "final: the whole run"), "no final block:\n%s", r.out.c_str());
	ck_assert_msg(contains(r.out, "interval 2 "), "fewer than two intervals:\n%.2000s", r.out.c_str());
	check_same_totals(final_line(lines), replay_json({trace}));
}
END_TEST

// An interval is replayed after the arms still pending from the ones
// before (not as a trace of its own alone): an expiry armed in one interval
// and fired in the next is judged against its arming, and the last
// interval ends with the run's whole state pending. At --interval 1 the
// intervals' verdicts add up to the run's within a few (the run's exact
// 1174 of 1202 wheel expiries, the intervals' 1173, where intervals
// replayed alone judged 951 exact); the last interval's pending timers, per CPU, level and clock
// base, are the run's.
START_TEST(intervals_carry_pending_arms_across_their_edges)
{
	const std::string trace = shared_trace_or_skip("linux-6.18-http/trace.dat");
	if (trace.empty())
		return;
	std::string dir = temp_subdir("top_edges");
	std::string lines = dir + "/top.jsonl";
	cli_result r = run_timersim({"top", "--trace", trace, "--speed", "0", "--batch", "--interval", "1",
				     "--json-lines", lines});
	ck_assert_msg(r.status == 0, "top --trace: %d %s", r.status, r.err.c_str());
	std::ifstream in(lines);
	std::vector<json> windows;
	json run;
	for (std::string line; std::getline(in, line);) {
		json j = json::parse(line);
		if (j.at("final").get<bool>())
			run = j.at("run");
		else
			windows.push_back(j.at("window"));
	}
	ck_assert_msg(windows.size() >= 20, "%zu intervals", windows.size());
	std::uint64_t exact = 0, compared = 0, hr_same = 0;
	for (const json &w : windows) {
		exact += w.at("fidelity_exact").get<std::uint64_t>();
		compared += w.at("fidelity_compared").get<std::uint64_t>();
		hr_same += w.at("hrtimer_same_interrupt").get<std::uint64_t>();
	}
	const std::uint64_t run_exact = run.at("fidelity_exact"), run_hr_same = run.at("hrtimer_same_interrupt");
	ck_assert_uint_eq(compared, run.at("fidelity_compared").get<std::uint64_t>());
	ck_assert_msg(exact + 5 >= run_exact, "wheel: the intervals %llu exact, the run %llu",
		      (unsigned long long)exact, (unsigned long long)run_exact);
	ck_assert_msg(hr_same + 60 >= run_hr_same, "hrtimers: the intervals %llu in the same irq, the run %llu",
		      (unsigned long long)hr_same, (unsigned long long)run_hr_same);
	const json &last = windows.back();
	ck_assert_msg(run.at("all").at("pending_wheel").at("all").get<std::uint64_t>() > 100, "the run ends with %s",
		      run.at("all").at("pending_wheel").dump().c_str());
	for (std::size_t c = 0; c < run.at("cpus").size(); c++) {
		const json &a = last.at("cpus").at(c), &b = run.at("cpus").at(c);
		ck_assert_msg(a.at("pending_wheel") == b.at("pending_wheel"), "CPU %zu wheel: last interval %s, run %s",
			      c, a.at("pending_wheel").dump().c_str(), b.at("pending_wheel").dump().c_str());
		ck_assert_msg(a.at("pending_hrtimers") == b.at("pending_hrtimers"),
			      "CPU %zu hrtimers: last interval %s, run %s", c, a.at("pending_hrtimers").dump().c_str(),
			      b.at("pending_hrtimers").dump().c_str());
	}
}
END_TEST

// The run's replay in top keeps bounded memory (replay_options::
// bounded_memory): what its measurement holds after 4N events is what it
// held after N; the exact replay's grows with them (the counter counts).
START_TEST(run_replay_memory_is_flat)
{
	auto held = [](std::size_t iterations, bool bounded) {
		std::vector<timersim::trace_event> events;
		for (std::size_t i = 0; i < iterations; i++) {
			const std::uint64_t ts = 1'000'000'000 + i * 1'000'000, j = 100000 + i;
			const std::uint32_t cpu = std::uint32_t(i % 2);
			auto ev = [&](timersim::event_kind k, std::uint64_t at) {
				timersim::trace_event e;
				e.kind = k;
				e.cpu = cpu;
				e.ts_ns = at;
				e.has = timersim::EF_TIMESTAMP;
				e.line = events.size() + 1;
				return e;
			};
			auto irq = ev(timersim::event_kind::irq_entry, ts);
			irq.timer_interrupt = true;
			irq.vec = 236;
			irq.has |= timersim::EF_VEC;
			events.push_back(irq);
			irq.kind = timersim::event_kind::irq_exit;
			irq.ts_ns = ts + 2000;
			events.push_back(irq);
			auto soft = ev(timersim::event_kind::softirq_entry, ts + 3000);
			soft.vec = timersim::TIMER_SOFTIRQ;
			soft.has |= timersim::EF_VEC;
			events.push_back(soft);
			auto expire = ev(timersim::event_kind::timer_expire_entry, ts + 4000);
			expire.timer = 0xffff000000001000ull + cpu * 64;
			expire.now = j;
			expire.function = "process_timeout";
			events.push_back(expire);
			expire.kind = timersim::event_kind::timer_expire_exit;
			expire.ts_ns = ts + 5000;
			events.push_back(expire);
			auto start = ev(timersim::event_kind::timer_start, ts + 5500);
			start.timer = expire.timer;
			start.function = "process_timeout";
			start.expires = j + 2;
			start.timeout = 2;
			start.has |= timersim::EF_TIMEOUT;
			events.push_back(start);
			soft.kind = timersim::event_kind::softirq_exit;
			soft.ts_ns = ts + 6000;
			events.push_back(soft);
		}
		timersim::stored_reader reader(events, 2, timersim::trace_format::ftrace);
		timersim::replay_options opt;
		opt.scheme = "v48";
		opt.hz = 1000;
		opt.bounded_memory = bounded;
		timersim::replay_report r = timersim::replay_trace(reader, "synthetic", opt);
		ck_assert_uint_eq(r.measured.all.timer_softirq.runs.count, iterations);
		ck_assert_uint_eq(r.measured.all.interrupts.timer.count, iterations);
		return r.sample_bytes;
	};
	const std::size_t n = 20000;
	const std::uint64_t bounded_n = held(n, true), bounded_4n = held(4 * n, true);
	ck_assert_msg(bounded_4n == bounded_n, "bounded: %llu bytes after %zu iterations, %llu after %zu",
		      (unsigned long long)bounded_n, n, (unsigned long long)bounded_4n, 4 * n);
	const std::uint64_t exact_n = held(n, false), exact_4n = held(4 * n, false);
	ck_assert_msg(exact_4n > exact_n + 3 * n * 100, "exact: %llu bytes after %zu iterations, %llu after %zu",
		      (unsigned long long)exact_n, n, (unsigned long long)exact_4n, 4 * n);
}
END_TEST

// The what-if columns are the replay's own what-ifs: with one interval
// over the whole trace, the what-if scheme's work and expiries are
// `replay --scheme`'s, the slack what-if's interrupts `replay
// --what-if-hr-slack`'s, the HZ what-if's work `replay --what-if-hz`'s.
START_TEST(what_if_columns_are_the_replays)
{
	const std::string trace = shared_trace_or_skip("linux-6.18-http/trace.dat");
	if (trace.empty())
		return;
	std::string dir = temp_subdir("top_what_if");
	std::string lines = dir + "/top.jsonl";
	cli_result r = run_timersim({"top", "--trace", trace, "--speed", "0", "--batch", "--interval", "1000",
				     "--what-if-scheme", "classic", "--what-if-hz", "1000", "--what-if-hr-slack",
				     "exact", "--json-lines", lines});
	ck_assert_msg(r.status == 0, "top --trace: %d %s", r.status, r.err.c_str());
	ck_assert_msg(contains(r.out, "what-if scheme classic (modelled)") && contains(r.out, "what-if u"),
		      "no what-if lines:\n%.3000s", r.out.c_str());
	std::ifstream in(lines);
	std::string first;
	std::getline(in, first);
	const json w = json::parse(first).at("window");
	auto what_if = [&](const std::string &label) {
		for (const json &x : w.at("what_ifs"))
			if (x.at("label") == label)
				return x;
		ck_abort_msg("no what-if %s in %s", label.c_str(), w.at("what_ifs").dump().c_str());
		return json();
	};
	auto units = [](const json &rep) {
		std::uint64_t n = 0;
		for (const char *k : {"insertions", "removals", "relinks", "slot_visits", "key_comparisons"})
			n += rep.at("costs").at(k).get<std::uint64_t>();
		return n;
	};
	cli_result c = run_timersim({"replay", "--scheme", "classic", "--json", "-", trace});
	ck_assert_msg(c.status == 0, "%s", c.err.c_str());
	const json classic = json::parse(c.out);
	ck_assert_uint_eq(what_if("scheme classic").at("units").get<std::uint64_t>(), units(classic));
	ck_assert_uint_eq(what_if("scheme classic").at("expired").get<std::uint64_t>(),
			  classic.at("timers").at("expired").get<std::uint64_t>());
	cli_result h = run_timersim({"replay", "--what-if-hz", "1000", "--json", "-", trace});
	ck_assert_msg(h.status == 0, "%s", h.err.c_str());
	ck_assert_uint_eq(what_if("HZ 1000").at("units").get<std::uint64_t>(), units(json::parse(h.out).at("what_if")));
	cli_result sl = run_timersim({"replay", "--what-if-hr-slack", "exact", "--json", "-", trace});
	ck_assert_msg(sl.status == 0, "%s", sl.err.c_str());
	const json slack_report = json::parse(sl.out);
	const json &slack = slack_report.at("hrtimers").at("what_ifs").at(0);
	ck_assert_uint_eq(what_if("hr slack exact").at("interrupts").get<std::uint64_t>(),
			  slack.at("what_if").at("interrupts").get<std::uint64_t>());
	ck_assert_uint_eq(what_if("hr slack exact").at("model_interrupts").get<std::uint64_t>(),
			  slack.at("model").at("interrupts").get<std::uint64_t>());

	// What-ifs that change nothing (the recording's own scheme and HZ), at
	// intervals of 1 s with arms carried into them: each interval's work is
	// the scheme's to the unit, the carried arms' re-arming taken off alike.
	std::string lines1 = dir + "/top1.jsonl";
	cli_result same_run = run_timersim({"top", "--trace", trace, "--speed", "0", "--batch", "--interval", "1",
					    "--what-if-scheme", "v48", "--what-if-hz", "250", "--json-lines", lines1});
	ck_assert_msg(same_run.status == 0, "%s", same_run.err.c_str());
	std::ifstream in1(lines1);
	unsigned n = 0;
	for (std::string line; std::getline(in1, line);) {
		const json j = json::parse(line);
		if (j.at("final").get<bool>())
			break;
		const json &win = j.at("window");
		for (const json &x : win.at("what_ifs"))
			ck_assert_msg(x.at("units") == win.at("units"), "interval %u: %s %s units, v48 at HZ 250 %s", n,
				      x.at("label").get<std::string>().c_str(), x.at("units").dump().c_str(),
				      win.at("units").dump().c_str());
		for (const json &c : win.at("callbacks"))
			ck_assert_msg(c.at("what_if_units") == c.at("model_units"), "interval %u: %s", n, c.dump().c_str());
		n++;
	}
	ck_assert_uint_ge(n, 20);
}
END_TEST

START_TEST(live_record_replays_to_top_final_totals)
{
	std::string why = live_missing();
	if (!why.empty()) {
		std::printf("live_record_replays_to_top_final_totals: skipped: %s\n", why.c_str());
		return;
	}
	std::string dir = temp_subdir("top_live");
	std::string lines = dir + "/top.jsonl", rec = dir + "/live.dat", out = dir + "/top.txt";
	pid_t pid = start_top({"top", "--batch", "--interval", "0.5", "--json-lines", lines, "--record", rec}, out);
	wait_instance(pid);
	std::this_thread::sleep_for(std::chrono::milliseconds(2500));
	kill(pid, SIGINT);
	int st = wait_status(pid);
	ck_assert_msg(st == 0, "top ended %d: %s", st, read_whole_file(out + ".err").c_str());
	ck_assert_msg(!instance_of(pid), "instance left after SIGINT");
	json top = final_line(lines);
	ck_assert_msg(top.at("events").get<std::uint64_t>() > 0, "a live session read no event");
	check_same_totals(top, replay_json({rec}));
}
END_TEST

START_TEST(no_instance_left_however_top_ends)
{
	std::string why = live_missing();
	if (!why.empty()) {
		std::printf("no_instance_left_however_top_ends: skipped: %s\n", why.c_str());
		return;
	}
	std::string dir = temp_subdir("top_signals");
	for (int sig : {SIGTERM, SIGHUP, SIGINT}) {
		pid_t pid = start_top({"top", "--batch"}, dir + "/out");
		wait_instance(pid);
		kill(pid, sig);
		int st = wait_status(pid);
		ck_assert_msg(st == 0, "signal %d: top ended %d", sig, st);
		ck_assert_msg(!instance_of(pid), "instance left after signal %d", sig);
	}
	// kill -9 leaves it; the next start removes it.
	pid_t dead = start_top({"top", "--batch"}, dir + "/out");
	wait_instance(dead);
	kill(dead, SIGKILL);
	wait_status(dead);
	ck_assert_msg(instance_of(dead), "kill -9 removed the instance (the test proves nothing)");
	cli_result r = run_timersim({"top", "--batch", "--iterations", "1"});
	ck_assert_msg(r.status == 0, "restart: %s", r.err.c_str());
	ck_assert_msg(!instance_of(dead), "the instance of a killed run survived the next start");
}
END_TEST

START_TEST(missing_tracefs_says_what_and_how)
{
	cli_result r = run_timersim({"top", "--batch", "--tracing-dir", "/nonexistent/tracing"});
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(contains(r.err, "no tracefs") && contains(r.err, "mount -t tracefs"), "%s", r.err.c_str());
	ck_assert_msg(contains(r.err, "--trace FILE"), "no word of what still works: %s", r.err.c_str());
	// Not root: the instance cannot be made.
	if (geteuid() == 0 && live_missing().empty()) {
		pid_t pid = fork();
		if (pid == 0) {
			if (setgid(65534) != 0 || setuid(65534) != 0)
				_exit(99);
			std::string bin = timersim_bin();
			int fd = open("/dev/null", O_WRONLY);
			dup2(fd, 1);
			execl(bin.c_str(), bin.c_str(), "top", "--batch", (char *)nullptr);
			_exit(127);
		}
		int st = wait_status(pid);
		if (st != 127 && st != 99)
			ck_assert_msg(st == 2, "not root: exit %d, want 2", st);
	}
}
END_TEST

// The block fits the width it is given: 80 columns hold every line whole.
START_TEST(block_fits_80_columns)
{
	const std::string trace = shared_trace_or_skip("linux-6.18-http/trace.dat");
	if (trace.empty())
		return;
	auto reader = timersim::open_trace(trace, timersim::trace_format::auto_detect, {});
	timersim::replay_options opt;
	opt.scheme = timersim::auto_scheme;
	timersim::top_figures f = timersim::top_figures_of(timersim::replay_trace(*reader, trace, opt));
	for (unsigned width : {80u, 200u}) {
		timersim::top_block_options view;
		view.width = width;
		std::string block = timersim::top_text_block("timersim top  " + trace, f, f, view);
		std::istringstream in(block);
		std::string line;
		unsigned rows = 0;
		while (std::getline(in, line)) {
			rows++;
			ck_assert_msg(line.size() <= width, "%zu columns for %u:\n%s", line.size(), width,
				      block.c_str());
		}
		ck_assert_msg(rows >= 15, "%u rows:\n%s", rows, block.c_str());
	}
}
END_TEST

// The terminal UI in tmux: it fits the terminal, its keys work, q ends it
// with the final block.
void ui_at(int cols, int rows)
{
	if (std::system("command -v tmux > /dev/null 2>&1") != 0) {
		std::printf("terminal UI test skipped: no tmux (apt-get install tmux)\n");
		return;
	}
	const std::string trace = shared_trace_or_skip("linux-6.18-http/trace.dat");
	if (trace.empty())
		return;
	std::string dir = temp_subdir("top_ui_" + std::to_string(cols));
	std::string session = "timersim-top-test-" + std::to_string(getpid()) + "-" + std::to_string(cols);
	std::string after = dir + "/after.txt";
	auto sh = [](const std::string &cmd) { return std::system(cmd.c_str()); };
	auto capture = [&](const std::string &file) {
		sh("tmux capture-pane -p -S -200 -t " + session + " > " + file);
		return read_whole_file(file);
	};
	ck_assert_int_eq(sh("tmux new-session -d -s " + session + " -x " + std::to_string(cols) + " -y " +
			    std::to_string(rows) + " '" + timersim_bin() + " top --trace " + trace +
			    " --speed 4 --interval 1; sleep 30'"),
			 0);
	std::this_thread::sleep_for(std::chrono::milliseconds(2500));
	std::string screen = capture(dir + "/screen.txt");
	std::printf("top at %dx%d (tmux capture-pane):\n%s\n", cols, rows, screen.c_str());
	std::istringstream in(screen);
	std::string line;
	unsigned n = 0;
	while (std::getline(in, line)) {
		n++;
		ck_assert_msg(line.size() <= std::size_t(cols), "a line of %zu columns in %d:\n%s", line.size(), cols,
			      screen.c_str());
	}
	ck_assert_msg(n <= unsigned(rows), "%u rows in %d", n, rows);
	ck_assert_msg(contains(screen, "timersim top") && contains(screen, "q quit") && contains(screen, "tick_nohz_handler"),
		      "screen:\n%s", screen.c_str());
	ck_assert_msg(contains(screen, "sort: measured ns"), "screen:\n%s", screen.c_str());
	sh("tmux send-keys -t " + session + " s");
	std::this_thread::sleep_for(std::chrono::milliseconds(400));
	screen = capture(dir + "/sorted.txt");
	ck_assert_msg(contains(screen, "sort: model units") && contains(screen, "callbacks by model units"),
		      "s did not sort by model units:\n%s", screen.c_str());
	sh("tmux send-keys -t " + session + " c");
	std::this_thread::sleep_for(std::chrono::milliseconds(400));
	screen = capture(dir + "/cpu.txt");
	ck_assert_msg(contains(screen, "CPU: 0") && !contains(screen, "\nall "), "c did not pick CPU 0:\n%s",
		      screen.c_str());
	sh("tmux send-keys -t " + session + " q");
	std::this_thread::sleep_for(std::chrono::milliseconds(1500));
	std::string final_text = capture(after);
	sh("tmux kill-session -t " + session + " 2>/dev/null");
	ck_assert_msg(contains(final_text, "final: the whole run"), "q did not end with the final block:\n%s",
		      final_text.c_str());
}

START_TEST(ui_80x24)
{
	ui_at(80, 24);
}
END_TEST

START_TEST(ui_200x50)
{
	ui_at(200, 50);
}
END_TEST

int main()
{
	Suite *s = suite_create("top");
	TCase *tc = tcase_create("top");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, trace_playback_ends_with_the_replays_totals);
	tcase_add_test(tc, intervals_carry_pending_arms_across_their_edges);
	tcase_add_test(tc, run_replay_memory_is_flat);
	tcase_add_test(tc, what_if_columns_are_the_replays);
	tcase_add_test(tc, live_record_replays_to_top_final_totals);
	tcase_add_test(tc, no_instance_left_however_top_ends);
	tcase_add_test(tc, missing_tracefs_says_what_and_how);
	tcase_add_test(tc, block_fits_80_columns);
	tcase_add_test(tc, ui_80x24);
	tcase_add_test(tc, ui_200x50);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
