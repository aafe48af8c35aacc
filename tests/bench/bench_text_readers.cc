// Parse throughput of the text readers (bytes/s, events/s), per rendering,
// over inputs built once, before any timing, from the shared recordings:
// their event lines repeated to BENCH_TEXT_MB (default 64) MiB.
//   memory  the reader over an in-memory buffer (parsing alone)
//   file    open_trace on a page-cached temporary file (plus read(2))
//   gzip    the same file gzip-compressed (plus inflate)
// TIMERSIM_BIG_TRACE=FILE adds a run over FILE (scripts/gen-big-trace.sh).
// Renderings whose recording is absent are skipped with a note.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

#include "sim/trace/reader.h"
#include "sim/trace/text_reader.h"
#include "tests/support/bench_readers.h"
#include "tests/support/paths.h"
#include "tests/support/text_trace_util.h"

using namespace timersim;

namespace {

struct bench_input {
	const char *label;
	const char *rel;
	trace_format format;
	std::string data;	// header once, then the events again and again
	std::string file, gzip;
};

bench_input inputs[] = {
	{"ftrace-3.6", "linux-3.6-scp_dest/trace.txt", trace_format::ftrace, {}, {}, {}},
	{"ftrace-6.18", "linux-6.18-http/trace.txt", trace_format::ftrace, {}, {}, {}},
	{"trace-cmd-report", "linux-6.18-http/trace-cmd-report.txt", trace_format::trace_cmd_report, {}, {}, {}},
	{"perf-script", "linux-6.18-tcp/perf-script.txt", trace_format::perf_script, {}, {}, {}},
};

std::size_t target_bytes()
{
	const char *mb = std::getenv("BENCH_TEXT_MB");
	long n = mb ? std::atol(mb) : 64;
	return std::size_t(n > 0 ? n : 64) << 20;
}

// Header lines (# ..., cpus=) kept once; event lines repeated.
std::string repeat_events(const std::string &text, std::size_t want)
{
	std::size_t body = 0;
	while (body < text.size() && (text[body] == '#' || text.compare(body, 5, "cpus=") == 0)) {
		std::size_t nl = text.find('\n', body);
		body = nl == std::string::npos ? text.size() : nl + 1;
	}
	std::string out = text.substr(0, body);
	out.reserve(want + text.size());
	while (out.size() < want)
		out.append(text, body, std::string::npos);
	return out;
}

void bm_memory(benchmark::State &state, const bench_input *in)
{
	reader_options opt;
	std::uint64_t bytes = 0, events = 0;
	for (auto _ : state) {
		auto r = make_text_reader_from_memory(in->data, in->label, in->format, opt);
		events += test::drain(*r);
		bytes += r->stats().bytes;
	}
	test::report_throughput(state, bytes, events);
}

void bm_path(benchmark::State &state, const std::string *path, trace_format fmt)
{
	reader_options opt;
	std::uint64_t bytes = 0, events = 0;
	for (auto _ : state) {
		auto r = open_trace(*path, fmt, opt);
		events += test::drain(*r);
		bytes += r->stats().bytes;
	}
	test::report_throughput(state, bytes, events);
}

std::string big_trace;

void register_all()
{
	std::size_t want = target_bytes();
	for (auto &in : inputs) {
		std::string path = test::shared_trace(in.rel);
		if (path.empty()) {
			test::skip_note(std::string("../shared/traces/") + in.rel + " absent: no " +
					in.label + " benchmarks");
			continue;
		}
		in.data = repeat_events(test::read_whole_file(path), want);
		in.file = test::write_temp(std::string(in.label) + ".txt", in.data);
		in.gzip = test::write_temp_gzip(std::string(in.label) + ".txt.gz", in.data);
		std::string name = in.label;
		benchmark::RegisterBenchmark(("text_memory/" + name).c_str(), bm_memory, &in)
			->Unit(benchmark::kMillisecond);
		benchmark::RegisterBenchmark(("text_file/" + name).c_str(), bm_path, &in.file,
					     trace_format::auto_detect)
			->Unit(benchmark::kMillisecond);
		benchmark::RegisterBenchmark(("text_gzip/" + name).c_str(), bm_path, &in.gzip,
					     trace_format::auto_detect)
			->Unit(benchmark::kMillisecond);
	}
	const char *big = std::getenv("TIMERSIM_BIG_TRACE");
	if (big && *big) {
		big_trace = big;
		benchmark::RegisterBenchmark("text_file/big-trace", bm_path, &big_trace,
					     trace_format::auto_detect)
			->Unit(benchmark::kMillisecond)->Iterations(1);
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
	return 0;
}
