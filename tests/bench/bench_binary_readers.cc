// The binary readers: ours against the libraries they replaced, and the
// whole `timersim replay` against the tools that print the same traces.
//   binary/trace-dat, binary/ctf          our readers: open + every event
//   reference/trace-dat-libtracecmd,
//   reference/ctf-babeltrace              the library readers, the same way
//   ratio/trace-dat, ratio/ctf            `timersim replay TRACE > /dev/null`
//                                         against `trace-cmd report TRACE` and
//                                         `babeltrace TRACE` (> /dev/null), run
//                                         in turns, order alternating; medians
//                                         and their ratio as counters
//                                         (goals, issue 13: >= 10x, >= 4x)
//   ratio/trace-dat-vs-text               `timersim replay trace.dat` against
//                                         `timersim replay trace.txt`, the
//                                         same recording as text (issue 41:
//                                         the binary no slower, >= 1x)
//   ratio/small-trace-dat,                the bundled small recording,
//   ratio/small-trace-dat-vs-text         tests/data/sleep-net.dat (1.2 MB,
//                                         13,010 events, a 5.4 MB kallsyms):
//                                         against `trace-cmd report` (>= 10x)
//                                         and its own text rendering,
//                                         sleep-net.txt.gz (>= 1x)
// Wall-clock times, so that the other processes compare. The ratios are
// printed once more at the end of the run. Recordings that are absent, or
// tools that are not installed, are skipped with a note.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fcntl.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "sim/trace/ctf.h"
#include "sim/trace/reader.h"
#include "sim/trace/trace_dat.h"
#include "tests/support/bench_readers.h"
#include "tests/support/paths.h"

using namespace timersim;

namespace {

using maker = std::unique_ptr<trace_reader> (*)(const std::string &, const reader_options &);

void bm_read(benchmark::State &state, std::string path, maker make)
{
	std::uint64_t bytes = 0, events = 0;
	for (auto _ : state) {
		auto r = make(path, {});
		events += test::drain(*r);
		bytes += r->stats().bytes;
	}
	test::report_throughput(state, bytes, events);
}

// Runs ARGV with stdout and stderr on /dev/null; its wall time in ms, or
// a negative number when it could not run or failed (STATUS, when not
// null, gets its exit status, 127 when it could not run).
double run_ms(const std::vector<std::string> &argv, int *exit_status = nullptr)
{
	std::vector<char *> args;
	for (const std::string &a : argv)
		args.push_back(const_cast<char *>(a.c_str()));
	args.push_back(nullptr);
	auto t0 = std::chrono::steady_clock::now();
	pid_t pid = fork();
	if (pid == 0) {
		int null = ::open("/dev/null", O_WRONLY);
		dup2(null, 1);
		dup2(null, 2);
		execvp(args[0], args.data());
		_exit(127);
	}
	int status = 0;
	bool exited = pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status);
	if (exit_status)
		*exit_status = exited ? WEXITSTATUS(status) : 127;
	if (!exited || WEXITSTATUS(status) != 0)
		return -1;
	return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
		.count();
}

double median(std::vector<double> v)
{
	std::sort(v.begin(), v.end());
	return v.empty() ? 0 : v[v.size() / 2];
}

struct ratio_result {
	std::string name;
	double ours_ms = 0, theirs_ms = 0, goal = 0;
};
std::vector<ratio_result> ratios;

void bm_ratio(benchmark::State &state, std::string name, std::vector<std::string> ours,
	      std::vector<std::string> theirs, double goal)
{
	std::vector<double> a, b;
	bool flip = false;
	for (auto _ : state) {
		double x, y;
		if ((flip = !flip)) {
			x = run_ms(ours);
			y = run_ms(theirs);
		} else {
			y = run_ms(theirs);
			x = run_ms(ours);
		}
		if (x < 0 || y < 0) {
			state.SkipWithError(((x < 0 ? ours[0] : theirs[0]) + " failed").c_str());
			return;
		}
		a.push_back(x);
		b.push_back(y);
	}
	ratio_result r{name, median(a), median(b), goal};
	state.counters["timersim_ms"] = r.ours_ms;
	state.counters["tool_ms"] = r.theirs_ms;
	state.counters["speedup"] = r.theirs_ms / r.ours_ms;
	state.counters["goal"] = goal;
	ratios.push_back(r);
}

// trace-cmd -h exits 255, babeltrace --help 0: what tells is that it ran.
bool installed(const char *tool)
{
	int status = 127;
	run_ms({tool, "--help"}, &status);
	return status != 127;
}

void register_all()
{
	const std::string bin = test::timersim_bin();
	std::string dat = test::shared_trace("linux-6.18-http/trace.dat");
	if (dat.empty()) {
		std::fprintf(stderr, "SKIP: ../shared/traces/linux-6.18-http/trace.dat absent\n");
	} else {
		benchmark::RegisterBenchmark("binary/trace-dat", bm_read, dat, make_trace_dat_reader)
			->Unit(benchmark::kMillisecond)->UseRealTime();
		benchmark::RegisterBenchmark("reference/trace-dat-libtracecmd", bm_read, dat,
					     make_trace_dat_libtracecmd_reader)
			->Unit(benchmark::kMillisecond)->UseRealTime();
		if (installed("trace-cmd"))
			benchmark::RegisterBenchmark("ratio/trace-dat", bm_ratio,
						     "trace.dat: trace-cmd report",
						     std::vector<std::string>{bin, "replay", dat},
						     std::vector<std::string>{"trace-cmd", "report", dat},
						     10.0)
				->Unit(benchmark::kMillisecond)->Iterations(15)->UseRealTime();
		else
			std::fprintf(stderr, "SKIP: trace-cmd not installed: no ratio\n");
		std::string txt = test::shared_trace("linux-6.18-http/trace.txt");
		if (!txt.empty())
			benchmark::RegisterBenchmark("ratio/trace-dat-vs-text", bm_ratio,
						     "trace.dat: its own text",
						     std::vector<std::string>{bin, "replay", dat},
						     std::vector<std::string>{bin, "replay", txt}, 1.0)
				->Unit(benchmark::kMillisecond)->Iterations(21)->UseRealTime();
	}
	// The small recording is bundled: measured without the shared folder.
	const std::string small = "tests/data/sleep-net.dat";
	if (installed("trace-cmd"))
		benchmark::RegisterBenchmark("ratio/small-trace-dat", bm_ratio, "sleep-net.dat: trace-cmd report",
					     std::vector<std::string>{bin, "replay", small},
					     std::vector<std::string>{"trace-cmd", "report", small}, 10.0)
			->Unit(benchmark::kMillisecond)->Iterations(15)->UseRealTime();
	benchmark::RegisterBenchmark("ratio/small-trace-dat-vs-text", bm_ratio, "sleep-net.dat: its own text",
				     std::vector<std::string>{bin, "replay", small},
				     std::vector<std::string>{bin, "replay", "tests/data/sleep-net.txt.gz"}, 1.0)
		->Unit(benchmark::kMillisecond)->Iterations(21)->UseRealTime();
	std::string ctf = test::shared_trace("linux-3.6-scp_dest/ctf");
	if (ctf.empty()) {
		std::fprintf(stderr, "SKIP: ../shared/traces/linux-3.6-scp_dest/ctf absent\n");
	} else {
		benchmark::RegisterBenchmark("binary/ctf", bm_read, ctf, make_ctf_reader)
			->Unit(benchmark::kMillisecond)->UseRealTime();
		benchmark::RegisterBenchmark("reference/ctf-babeltrace", bm_read, ctf,
					     make_ctf_babeltrace_reader)
			->Unit(benchmark::kMillisecond)->UseRealTime();
		if (installed("babeltrace"))
			benchmark::RegisterBenchmark("ratio/ctf", bm_ratio, "CTF: babeltrace",
						     std::vector<std::string>{bin, "replay", ctf},
						     std::vector<std::string>{"babeltrace", ctf}, 4.0)
				->Unit(benchmark::kMillisecond)->Iterations(15)->UseRealTime();
		else
			std::fprintf(stderr, "SKIP: babeltrace not installed: no ratio\n");
	}
}

}  // namespace

int main(int argc, char **argv)
{
	benchmark::Initialize(&argc, argv);
	if (benchmark::ReportUnrecognizedArguments(argc, argv))
		return 1;
	register_all();
	benchmark::RunSpecifiedBenchmarks();
	benchmark::Shutdown();
	for (const ratio_result &r : ratios)
		std::printf("ratio  %-30s timersim replay %7.1f ms, the other %7.1f ms: %5.2fx "
			    "(goal >= %.0fx)%s\n",
			    r.name.c_str(), r.ours_ms, r.theirs_ms, r.theirs_ms / r.ours_ms, r.goal,
			    r.theirs_ms / r.ours_ms >= r.goal ? "" : "  BELOW THE GOAL");
	return 0;
}
