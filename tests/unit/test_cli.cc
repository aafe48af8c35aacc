// The command line as a user meets it: options, suggestions, exit
// statuses, and outputs that never lie (a full disk, an interrupted run, an
// output onto the input).
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/cli.h"
#include "tests/support/paths.h"
#include "tests/support/text_trace_util.h"

// Last: check.h defines macros that clash with <iostream> internals.
#include "tests/support/check_main.h"

using namespace timersim::test;

namespace {

bool contains(const std::string &hay, const std::string &needle)
{
	return hay.find(needle) != std::string::npos;
}

// A small 6.x-style trace on two CPUs: two timers, one expiry each.
std::string two_cpu_trace(const std::string &fn = "process_timeout")
{
	std::string body =
		"          <idle>-0       [000] d..1.   100.000000: timer_start: timer=00000000aaaa0000 "
		"function=" + fn + " expires=4295000010 [timeout=10] bucket_expiry=4295000010 cpu=0 "
		"idx=10 flags=\n"
		"          <idle>-0       [001] d..1.   100.000004: timer_start: timer=00000000bbbb0000 "
		"function=tcp_write_timer expires=4295000020 [timeout=20] bucket_expiry=4295000020 "
		"cpu=1 idx=20 flags=\n"
		"          <idle>-0       [000] d.s1.   100.040000: timer_cancel: timer=00000000aaaa0000\n"
		"          <idle>-0       [000] d.s1.   100.040001: timer_expire_entry: timer=00000000aaaa0000 "
		"function=" + fn + " now=4295000010 baseclk=4295000010\n"
		"          <idle>-0       [001] d.s1.   100.080000: timer_cancel: timer=00000000bbbb0000\n"
		"          <idle>-0       [001] d.s1.   100.080001: timer_expire_entry: timer=00000000bbbb0000 "
		"function=tcp_write_timer now=4295000020 baseclk=4295000020\n";
	return ftrace_text(body, 2);
}

std::vector<std::string> files_in(const std::string &dir)
{
	std::vector<std::string> names;
	if (DIR *d = opendir(dir.c_str())) {
		while (dirent *e = readdir(d))
			if (e->d_name[0] != '.' || (std::string(e->d_name) != "." && std::string(e->d_name) != ".."))
				names.push_back(e->d_name);
		closedir(d);
	}
	return names;
}

bool exists(const std::string &path)
{
	struct stat st;
	return stat(path.c_str(), &st) == 0;
}

// Valid JSON, by a real parser.
bool valid_json(const std::string &path)
{
	std::string cmd = "python3 -c 'import json,sys; json.load(open(sys.argv[1], encoding=\"utf-8\"))' '" +
			  path + "' 2>/dev/null";
	return std::system(cmd.c_str()) == 0;
}

}  // namespace

START_TEST(version_and_help)
{
	cli_result v = run_timersim({"--version"});
	ck_assert_int_eq(v.status, 0);
	ck_assert(contains(v.out, "timersim "));
	cli_result h = run_timersim({"replay", "--help"});
	ck_assert_int_eq(h.status, 0);
	ck_assert(contains(h.out, "--expiry-log"));
	ck_assert(contains(h.out, "examples:"));
	cli_result c = run_timersim({"compare", "--help"});
	ck_assert(contains(c.out, "--schemes"));
	ck_assert(!contains(c.out, "--expiry-log"));
}
END_TEST

START_TEST(equals_form_and_auto_scheme)
{
	std::string t = write_temp("auto.txt", two_cpu_trace());
	cli_result r = run_timersim({"replay", "--scheme=auto", "--top=3", t});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	// A 6.8+ trace replays through v48 by default, and says why.
	ck_assert(contains(r.out, "scheme   v48"));
	ck_assert(contains(r.out, "auto: the recording kernel's wheel"));
	cli_result d = run_timersim({"replay", t});
	ck_assert_str_eq(d.out.c_str(), r.out.c_str());
	// Times are given in trace seconds too.
	ck_assert(contains(r.out, "(100.000 s .. 100.080 s)"));
}
END_TEST

START_TEST(typos_get_suggestions)
{
	std::string t = write_temp("typo.txt", two_cpu_trace());
	cli_result o = run_timersim({"replay", "--shceme", "classic", t});
	ck_assert_int_eq(o.status, 2);
	ck_assert_msg(contains(o.err, "did you mean '--scheme'"), "%s", o.err.c_str());
	cli_result s = run_timersim({"replay", "--scheme", "clasic", t});
	ck_assert_int_eq(s.status, 2);
	ck_assert_msg(contains(s.err, "did you mean 'classic'"), "%s", s.err.c_str());
	cli_result f = run_timersim({"replay", "--format", "ftarce", t});
	ck_assert_int_eq(f.status, 2);
	ck_assert_msg(contains(f.err, "did you mean 'ftrace'"), "%s", f.err.c_str());
	cli_result cmd = run_timersim({"replya", t});
	ck_assert_int_eq(cmd.status, 2);
}
END_TEST

START_TEST(options_that_do_not_apply_are_errors)
{
	std::string t = write_temp("apply.txt", two_cpu_trace());
	ck_assert_int_eq(run_timersim({"compare", "--scheme", "classic", t}).status, 2);
	ck_assert_int_eq(run_timersim({"replay", "--schemes", "classic", t}).status, 2);
	ck_assert_int_eq(run_timersim({"compare", "--expiry-log", "x.csv", t}).status, 2);
	cli_result d = run_timersim({"replay", "--drain-limit", "100", t});
	ck_assert_int_eq(d.status, 2);
	ck_assert(contains(d.err, "--drain"));
}
END_TEST

START_TEST(scheme_lists_are_checked)
{
	std::string t = write_temp("lists.txt", two_cpu_trace());
	for (const char *bad : {"", ",", "classic,,heap", "classic,classic", "classic,nosuch"}) {
		cli_result r = run_timersim({"compare", "--schemes", bad, t});
		ck_assert_msg(r.status == 2, "--schemes '%s' gave %d", bad, r.status);
	}
	cli_result p = run_timersim({"compare", "--schemes", "classic,heap", "--param", "nosuch:x=1", t});
	ck_assert_int_eq(p.status, 2);
	ck_assert(contains(p.err, "nosuch"));
	cli_result k = run_timersim({"compare", "--schemes", "classic", "--param", "classic:nokey=1", t});
	ck_assert_int_eq(k.status, 2);
	cli_result ok = run_timersim({"compare", "--schemes", "auto,classic", t});
	ck_assert_msg(ok.status == 0, "%s", ok.err.c_str());
	ck_assert(contains(ok.out, "v48"));
	ck_assert(contains(ok.out, "classic"));
}
END_TEST

START_TEST(messages_blame_the_right_thing)
{
	std::string t = write_temp("blame.txt", two_cpu_trace());
	// --start far before the trace is the option's fault, not the trace's.
	cli_result s = run_timersim({"replay", "--start", "0", t});
	ck_assert_int_eq(s.status, 2);
	ck_assert_msg(contains(s.err, "--start 0") && !contains(s.err, "corrupt"), "%s", s.err.c_str());
	// --cpus 1 on a 2-CPU trace names the option.
	cli_result c = run_timersim({"replay", "--cpus", "1", t});
	ck_assert_int_eq(c.status, 2);
	ck_assert_msg(contains(c.err, "beyond --cpus 1"), "%s", c.err.c_str());
	// --hz on a recording says what it changes.
	cli_result h = run_timersim({"replay", "--scheme", "classic", "--hz", "1000", t});
	ck_assert_int_eq(h.status, 0);
	ck_assert_msg(contains(h.out, "the trace's is 250"), "%s", h.out.c_str());
}
END_TEST

START_TEST(a_full_disk_is_an_error)
{
	std::string t = write_temp("full.txt", two_cpu_trace());
	for (std::vector<std::string> args : std::vector<std::vector<std::string>>{
		     {"replay", t}, {"replay", "--json", "-", t}, {"compare", t},
		     {"replay", "--expiry-log", "-", t}}) {
		cli_result r = run_timersim_to(args, "/dev/full");
		ck_assert_msg(r.status == 1, "%s > /dev/full gave %d", args[0].c_str(), r.status);
		ck_assert_msg(contains(r.err, "No space left on device"), "%s", r.err.c_str());
	}
	cli_result closed = run_timersim_to({"replay", t}, "");
	ck_assert_int_ne(closed.status, 0);
}
END_TEST

START_TEST(bad_input_leaves_no_output_file)
{
	std::string dir = temp_subdir("partial");
	// Good events first, then a line that is not an event: the expiry log
	// has rows by the time the error is found.
	std::string body = two_cpu_trace() + "this is not a trace line\n";
	std::string t = write_temp("partial.txt", body);
	std::string log = dir + "/fired.csv", json = dir + "/report.json";
	cli_result r = run_timersim({"replay", "--drain", "--expiry-log", log, "--json", json, t});
	ck_assert_int_eq(r.status, 2);
	ck_assert(files_in(dir).empty());
	// An earlier output at the same path is not clobbered by a failed run.
	{
		std::ofstream(log) << "old\n";
	}
	run_timersim({"replay", "--expiry-log", log, t + ".missing"});
	std::string kept = read_whole_file(log);
	ck_assert(kept == "old\n");
}
END_TEST

START_TEST(an_interrupted_run_leaves_no_output_file)
{
	std::string dir = temp_subdir("interrupted");
	std::string fifo = dir + "/trace.fifo", log = dir + "/fired.csv";
	ck_assert_int_eq(mkfifo(fifo.c_str(), 0600), 0);
	for (int sig : {SIGINT, SIGTERM}) {
		pid_t pid = fork();
		if (pid == 0) {
			int null = open("/dev/null", O_WRONLY);
			dup2(null, 1);
			dup2(null, 2);
			std::string bin = timersim_bin();
			execl(bin.c_str(), bin.c_str(), "replay", "--format", "ftrace", "--expiry-log",
			      log.c_str(), fifo.c_str(), static_cast<char *>(nullptr));
			_exit(127);
		}
		// Half a trace, then the writer stalls: timersim is mid-run.
		int w = open(fifo.c_str(), O_WRONLY);
		std::string half = two_cpu_trace();
		ck_assert(write(w, half.data(), half.size()) == static_cast<ssize_t>(half.size()));
		usleep(300000);
		kill(pid, sig);
		int status = 0;
		waitpid(pid, &status, 0);
		close(w);
		ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == sig);
		std::vector<std::string> left = files_in(dir);
		ck_assert_msg(left.size() == 1 && left[0] == "trace.fifo", "left %zu files", left.size());
	}
}
END_TEST

START_TEST(an_output_onto_an_input_is_a_usage_error)
{
	std::string t = write_temp("onto.txt", two_cpu_trace());
	std::string before = read_whole_file(t);
	cli_result r = run_timersim({"replay", "--expiry-log", t, t});
	ck_assert_int_eq(r.status, 2);
	std::string after = read_whole_file(t);
	ck_assert(after == before);
	ck_assert_int_eq(run_timersim({"replay", "--json", t, t}).status, 2);
	std::string dir = temp_subdir("twice");
	std::string out = dir + "/same";
	cli_result two = run_timersim({"replay", "--json", out, "--expiry-log", out, t});
	ck_assert_int_eq(two.status, 2);
	ck_assert(!exists(out));
}
END_TEST

START_TEST(json_is_valid_whatever_the_names)
{
	// A callback name with bytes that are not UTF-8, a quote and a comma.
	std::string t = write_temp("names.txt", two_cpu_trace("bad\xff\xfe\"name,x"));
	std::string dir = temp_subdir("json");
	std::string json = dir + "/r.json";
	cli_result r = run_timersim({"replay", "--scheme", "classic", "--json", json, t});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	ck_assert(valid_json(json));
	ck_assert(contains(read_whole_file(json), "bad\\u00ff\\u00fe\\\"name,x"));
}
END_TEST

// A superlinear scheme on a large population is stopped by the guard, with
// its name, instead of running for hours.
START_TEST(max_cost_stops_a_runaway_scheme)
{
	cli_result r = run_timersim({"compare", "--schemes", "classic,sorted-list,list,heap", "--max-cost",
				     "100000", "tests/data/default-trace.txt.gz"});
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(contains(r.err, "sorted-list passed --max-cost 100000"), "%s", r.err.c_str());
	ck_assert_msg(contains(r.err, "(a start walks the sorted list: O(n) in the timers pending); leave it out"),
		      "%s", r.err.c_str());
	// Said up front, before the replay: both list schemes, in the order
	// named, then the limit; and no report.
	auto sorted = r.err.find("timersim compare: sorted-list is superlinear (a start walks");
	auto list = r.err.find("timersim compare: list is superlinear (every jiffy");
	auto limit = r.err.find("timersim compare: --max-cost 100000 stops a scheme past that many cost units");
	auto stopped = r.err.find("passed --max-cost");
	ck_assert_msg(sorted < list && list < limit && limit < stopped && stopped != std::string::npos, "%s",
		      r.err.c_str());
	ck_assert_msg(!contains(r.err, "classic is superlinear") && !contains(r.err, "heap is superlinear"), "%s",
		      r.err.c_str());
	ck_assert(r.out.empty());

	cli_result ok = run_timersim({"compare", "--schemes", "classic,heap", "--max-cost", "0",
				      "tests/data/default-trace.txt.gz"});
	ck_assert_int_eq(ok.status, 0);
	ck_assert_msg(!contains(ok.err, "superlinear"), "%s", ok.err.c_str());
	// Without a limit the note says so, and the run completes.
	cli_result unlimited = run_timersim({"compare", "--schemes", "wheel-overflow", "--max-cost", "0",
					     "tests/data/default-trace.txt.gz"});
	ck_assert_int_eq(unlimited.status, 0);
	ck_assert_msg(contains(unlimited.err, "timersim compare: wheel-overflow is superlinear (a start beyond the "
						"wheel walks") &&
			      contains(unlimited.err, "--max-cost 0: no scheme is stopped"),
		      "%s", unlimited.err.c_str());
}
END_TEST

// Every numeric option reads decimal digits only, within its type: a
// negative value does not wrap, 2^64 does not saturate, '' and '5x' are
// not numbers. One case per option of each subcommand.
START_TEST(numbers_are_read_strictly)
{
	std::string t = write_temp("numbers.txt", two_cpu_trace());
	std::string dir = temp_subdir("numbers");
	std::string spec = write_temp("numbers.spec", "trace = " + t + "\nscheme = classic\n");
	struct numeric {
		std::vector<std::string> before;	// the command and what it needs
		const char *option;
	};
	std::vector<numeric> options;
	for (const char *cmd : {"replay", "compare"})
		for (const char *o : {"--hz", "--what-if-hz", "--word-bits", "--cpus", "--start", "--max-cost",
				      "--top"})
			options.push_back({{cmd, t}, o});
	options.push_back({{"replay", t, "--drain"}, "--drain-limit"});
	options.push_back({{"view", t, "-o", dir + "/v.html"}, "--from"});
	options.push_back({{"view", t, "-o", dir + "/v.html"}, "--to"});
	for (const char *o : {"--seed", "--hz", "--cpus", "--kernel", "--start"})
		options.push_back({{"gen", "-w", "networking", "-o", dir + "/g.txt"}, o});
	for (const char *o : {"--hz", "--word-bits"})
		options.push_back({{"step", "--trace", t}, o});
	for (const char *o : {"--from", "--to", "--cpu"})
		options.push_back({{"step", "--trace", t}, o});
	for (const char *o : {"--count", "--hz", "--word-bits"})
		options.push_back({{"lab", "place"}, o});
	options.push_back({{"sweep", spec, "--list"}, "--jobs"});
	for (const numeric &n : options)
		for (const char *bad : {"-1", "18446744073709551616", "", "5x", " 5", "+5", "0x10"}) {
			std::vector<std::string> args = n.before;
			args.push_back(n.option);
			args.push_back(bad);
			cli_result r = run_timersim(args);
			ck_assert_msg(r.status == 2 && contains(r.err, n.option),
				      "%s %s '%s' gave %d: %s", n.before[0].c_str(), n.option, bad, r.status,
				      r.err.c_str());
		}
	// The messages say what was wrong.
	cli_result neg = run_timersim({"replay", "--start", "-1", t});
	ck_assert_msg(contains(neg.err, "--start: '-1' is negative"), "%s", neg.err.c_str());
	cli_result big = run_timersim({"replay", "--max-cost", "18446744073709551616", t});
	ck_assert_msg(contains(big.err, "out of range; expected a whole number from 0 to 18446744073709551615"),
		      "%s", big.err.c_str());
	// The largest value is a value; a real number is strict too.
	cli_result most = run_timersim({"replay", "--scheme", "classic", "--max-cost", "18446744073709551615", t});
	ck_assert_msg(most.status == 0, "%s", most.err.c_str());
	for (const char *bad : {"", "2x", "inf", "nan", "0x1p3", " 2"}) {
		cli_result r = run_timersim({"gen", "-w", "networking", "-o", dir + "/g.txt", "--scale", bad});
		ck_assert_msg(r.status == 2 && contains(r.err, "--scale"), "--scale '%s' gave %d", bad, r.status);
	}
	ck_assert(files_in(dir).empty());
}
END_TEST

// An empty path is not "no output": it is an error, and nothing runs.
START_TEST(empty_paths_are_errors)
{
	std::string t = write_temp("empty.txt", two_cpu_trace());
	std::string spec = write_temp("empty.spec", "trace = " + t + "\nscheme = classic\n");
	std::vector<std::vector<std::string>> runs = {
		{"replay", t, "--json"}, {"replay", t, "--expiry-log"}, {"replay", t, "--timeline"},
		{"replay", t, "--perfetto"}, {"replay", t, "--timeline", "-", "--interval"},
		{"compare", t, "--json"}, {"compare", t, "--estimate"}, {"replay", t, "--symbols"},
		{"view", t, "--output"}, {"gen", "-w", "networking", "--output"},
		{"gen", "--like"}, {"step", "--trace", t, "--json"}, {"step", "--trace"},
		{"lab", "place", "--json"}, {"sweep", spec, "--list", "--output"}, {"sweep", spec, "--cell"}, {"sweep", spec, "--emit"},
		{"merge", spec, "--output"}, {"plot", t, "--output"},
	};
	for (std::vector<std::string> args : runs) {
		std::string option = args.back();
		args.push_back("");
		cli_result r = run_timersim(args);
		ck_assert_msg(r.status == 2 && contains(r.err, option + ": empty "), "%s %s '' gave %d: %s",
			      args[0].c_str(), option.c_str(), r.status, r.err.c_str());
		ck_assert_msg(r.out.empty(), "%s %s '' printed %s", args[0].c_str(), option.c_str(), r.out.c_str());
	}
	// CLI11 reads "--json=" as a missing value: an error too.
	cli_result eq = run_timersim({"replay", t, "--json="});
	ck_assert_msg(eq.status == 2 && contains(eq.err, "--json"), "%s", eq.err.c_str());
}
END_TEST

// A mistyped subcommand is suggested, as a mistyped option is.
START_TEST(a_mistyped_command_is_suggested)
{
	cli_result r = run_timersim({"repaly", "x"});
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(contains(r.err, "unknown command 'repaly' (did you mean 'replay'?)"), "%s", r.err.c_str());
	ck_assert_msg(!contains(r.err, "A subcommand is required"), "%s", r.err.c_str());
	cli_result c = run_timersim({"--timing", "comapre"});
	ck_assert_msg(c.status == 2 && contains(c.err, "did you mean 'compare'"), "%s", c.err.c_str());
	cli_result far = run_timersim({"frobnicate"});
	ck_assert_msg(far.status == 2 && contains(far.err, "unknown command 'frobnicate'") &&
			      !contains(far.err, "did you mean"),
		      "%s", far.err.c_str());
	cli_result none = run_timersim({});
	ck_assert_msg(none.status == 2 && contains(none.err, "A subcommand is required"), "%s", none.err.c_str());
}
END_TEST

// A forced --format that is not the file's says so, with the file and the
// line, instead of reading nothing.
START_TEST(a_forced_format_that_does_not_match_is_an_error)
{
	std::string ftrace = write_temp("forced.txt", two_cpu_trace());
	for (const char *fmt : {"trace-cmd-report", "perf-script"}) {
		cli_result r = run_timersim({"replay", "--format", fmt, ftrace});
		ck_assert_msg(r.status == 2, "--format %s gave %d", fmt, r.status);
		ck_assert_msg(contains(r.err, ftrace + ":") && contains(r.err, "ftrace"), "%s", r.err.c_str());
	}
	for (const char *fmt : {"trace-dat", "ctf"}) {
		cli_result r = run_timersim({"replay", "--format", fmt, ftrace});
		ck_assert_msg(r.status == 2 && contains(r.err, ftrace), "--format %s gave %d: %s", fmt, r.status,
			      r.err.c_str());
	}
	std::string report = "../shared/traces/linux-6.18-http/trace-cmd-report.txt";
	std::string perf = "../shared/traces/linux-6.18-tcp/perf-script.txt";
	for (auto [path, fmt] : std::vector<std::pair<std::string, const char *>>{
		     {report, "ftrace"}, {report, "perf-script"}, {perf, "ftrace"}, {perf, "trace-cmd-report"}}) {
		if (!exists(path))
			continue;
		cli_result r = run_timersim({"replay", "--format", fmt, path});
		ck_assert_msg(r.status == 2 && contains(r.err, path + ":"), "%s --format %s gave %d: %s",
			      path.c_str(), fmt, r.status, r.err.c_str());
	}
}
END_TEST

// Options a scheme (or a scenario) has no use for are errors, as the
// README says, not silently ignored.
START_TEST(inapplicable_options_are_errors)
{
	std::string t = write_temp("inapplicable.txt", two_cpu_trace());
	cli_result v = run_timersim({"replay", "--scheme", "v48", "--base-small", t});
	ck_assert_int_eq(v.status, 2);
	ck_assert_msg(contains(v.err, "--base-small") && contains(v.err, "v48"), "%s", v.err.c_str());
	// auto is the recording kernel's wheel: v48 for this trace.
	ck_assert_int_eq(run_timersim({"replay", "--base-small", t}).status, 2);
	ck_assert_int_eq(run_timersim({"compare", "--schemes", "v48,heap", "--base-small", t}).status, 2);
	ck_assert_int_eq(run_timersim({"replay", "--scheme", "heap", "--base-small", t}).status, 2);
	cli_result c = run_timersim({"replay", "--scheme", "classic", "--base-small", t});
	ck_assert_msg(c.status == 0 && contains(c.out, "geometry=base_small"), "%s", c.err.c_str());
	cli_result all = run_timersim({"compare", "--base-small", t});
	ck_assert_msg(all.status == 0, "%s", all.err.c_str());

	std::string dir = temp_subdir("inapplicable");
	cli_result w = run_timersim({"view", "--what-if-hz", "1000", t, "-o", dir + "/w.html"});
	ck_assert_msg(w.status == 2 && contains(w.err, "--what-if-hz"), "%s", w.err.c_str());
	std::string scenario = "docs/lab/scenarios/first-cascade.txt";
	for (std::vector<std::string> extra : std::vector<std::vector<std::string>>{
		     {"--drain"}, {"--what-if-hz", "1000"}, {"--param", "order=lifo"}, {"--lenient"}}) {
		std::vector<std::string> args = {"view", scenario, "-o", dir + "/s.html"};
		args.insert(args.end(), extra.begin(), extra.end());
		cli_result r = run_timersim(args);
		ck_assert_msg(r.status == 2 && contains(r.err, extra[0]), "view scenario %s gave %d: %s",
			      extra[0].c_str(), r.status, r.err.c_str());
	}
	ck_assert(files_in(dir).empty());
	cli_result ok = run_timersim({"view", scenario, "--scheme", "v48", "-o", dir + "/s.html"});
	ck_assert_msg(ok.status == 0, "%s", ok.err.c_str());
}
END_TEST

// docs/replay.md's option tables are the CLI's own definitions.
START_TEST(readme_option_tables_match_the_cli)
{
	std::string readme = read_whole_file("docs/replay.md");
	for (const char *cmd : {"replay", "compare"}) {
		cli_result r = run_timersim({"options-table", cmd});
		ck_assert_int_eq(r.status, 0);
		std::string begin = std::string("<!-- options: ") + cmd + " -->\n";
		auto at = readme.find(begin);
		ck_assert_msg(at != std::string::npos, "docs/replay.md has no %s", begin.c_str());
		auto end = readme.find("<!-- end options -->", at);
		ck_assert(end != std::string::npos);
		std::string table = readme.substr(at + begin.size(), end - at - begin.size());
		ck_assert_msg(table == r.out,
			      "docs/replay.md's %s table differs from `timersim options-table %s` "
			      "(scripts/readme-options.sh rewrites it)", cmd, cmd);
	}
}
END_TEST

int main()
{
	Suite *s = suite_create("cli");
	TCase *tc = tcase_create("cli");
	tcase_set_timeout(tc, 300);	// a safety net: ASan runs the CLI many times
	tcase_add_test(tc, version_and_help);
	tcase_add_test(tc, equals_form_and_auto_scheme);
	tcase_add_test(tc, typos_get_suggestions);
	tcase_add_test(tc, options_that_do_not_apply_are_errors);
	tcase_add_test(tc, scheme_lists_are_checked);
	tcase_add_test(tc, messages_blame_the_right_thing);
	tcase_add_test(tc, a_full_disk_is_an_error);
	tcase_add_test(tc, bad_input_leaves_no_output_file);
	tcase_add_test(tc, an_interrupted_run_leaves_no_output_file);
	tcase_add_test(tc, an_output_onto_an_input_is_a_usage_error);
	tcase_add_test(tc, json_is_valid_whatever_the_names);
	tcase_add_test(tc, max_cost_stops_a_runaway_scheme);
	tcase_add_test(tc, readme_option_tables_match_the_cli);
	tcase_add_test(tc, numbers_are_read_strictly);
	tcase_add_test(tc, empty_paths_are_errors);
	tcase_add_test(tc, a_mistyped_command_is_suggested);
	tcase_add_test(tc, a_forced_format_that_does_not_match_is_an_error);
	tcase_add_test(tc, inapplicable_options_are_errors);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
