// Throughput of the binary readers (events/s, MB/s of input) over the
// shared recordings, opening included: for a trace.dat, opening (event
// formats, kallsyms) is most of the work.
//   binary/trace-dat        open + every event of linux-6.18-http/trace.dat
//   binary/trace-dat-open   the open alone
//   binary/ctf              open (which reads the trace once, to validate)
//                           + every event of linux-3.6-scp_dest/ctf
//   yardstick/trace-cmd-report   `trace-cmd report FILE > /dev/null`, a
//                           process per iteration, when trace-cmd is installed
// Wall-clock times, so that the yardstick (another process) compares.
// Recordings that are absent are skipped with a note.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <string>

#include "sim/trace/reader.h"
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

void bm_open(benchmark::State &state, std::string path, maker make)
{
	for (auto _ : state) {
		auto r = make(path, {});
		benchmark::DoNotOptimize(r->declared_cpus());
	}
}

void bm_trace_cmd_report(benchmark::State &state, std::string path)
{
	const std::string cmd = "trace-cmd report '" + path + "' > /dev/null 2>&1";
	for (auto _ : state)
		if (std::system(cmd.c_str()) != 0) {
			state.SkipWithError("trace-cmd report failed");
			break;
		}
}

void register_all()
{
	std::string dat = test::shared_trace("linux-6.18-http/trace.dat");
	if (dat.empty()) {
		std::fprintf(stderr, "SKIP: ../shared/traces/linux-6.18-http/trace.dat absent\n");
	} else {
		benchmark::RegisterBenchmark("binary/trace-dat", bm_read, dat, make_trace_dat_reader)
			->Unit(benchmark::kMillisecond)->UseRealTime();
		benchmark::RegisterBenchmark("binary/trace-dat-open", bm_open, dat,
					     make_trace_dat_reader)
			->Unit(benchmark::kMillisecond)->UseRealTime();
		if (std::system("trace-cmd -h > /dev/null 2>&1") != 127)
			benchmark::RegisterBenchmark("yardstick/trace-cmd-report",
						     bm_trace_cmd_report, dat)
				->Unit(benchmark::kMillisecond)->UseRealTime();
		else
			std::fprintf(stderr, "SKIP: trace-cmd not installed: no yardstick\n");
	}
	std::string ctf = test::shared_trace("linux-3.6-scp_dest/ctf");
	if (ctf.empty())
		std::fprintf(stderr, "SKIP: ../shared/traces/linux-3.6-scp_dest/ctf absent\n");
	else
		benchmark::RegisterBenchmark("binary/ctf", bm_read, ctf, make_ctf_reader)
			->Unit(benchmark::kMillisecond)->UseRealTime();
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
	return 0;
}
