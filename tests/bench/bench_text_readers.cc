// Parse throughput of the text readers (bytes/s, events/s), per rendering,
// over inputs built from the shared recordings: their event lines repeated
// to BENCH_TEXT_MB (default 64) MiB, built when a benchmark first runs (a
// --benchmark_filter builds only what it selects).
//   memory  the reader over an in-memory buffer: parsing alone
//   file    open_trace on a page-cached temporary file (plus read(2))
//   gzip    the same file gzip-compressed (plus inflate)
// TIMERSIM_BIG_TRACE=FILE (scripts/gen-big-trace.sh; make bench-replay sets
// it) adds text_memory/big-trace (its first BENCH_TEXT_MB MiB, parsing
// alone) and text_file/big-trace (all of it through open_trace, once): the
// reader's share of `timersim replay` on the same file.
// Renderings whose recording is absent are skipped with a note.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "sim/trace/reader.h"
#include "sim/trace/text_reader.h"
#include "tests/support/bench_readers.h"
#include "tests/support/paths.h"
#include "tests/support/text_trace_util.h"

using namespace timersim;

namespace {

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

// The first WANT bytes of PATH, cut after a whole line.
std::string head_of_file(const std::string &path, std::size_t want)
{
	std::ifstream in(path, std::ios::binary);
	std::string out(want, '\0');
	in.read(out.data(), std::streamsize(want));
	out.resize(std::size_t(in.gcount()));
	out.resize(out.rfind('\n') + 1);
	return out;
}

struct bench_input {
	bench_input(const char *l, const char *r, trace_format f) : label(l), rel(r), format(f) {}

	const char *label;
	const char *rel;	// under ../shared/traces; null: TIMERSIM_BIG_TRACE
	trace_format format;
	bool built = false;
	std::string data;	// what text_memory reads
	std::string file, gzip;	// what text_file and text_gzip read

	void build()
	{
		if (built)
			return;
		built = true;
		if (!rel) {
			file = std::getenv("TIMERSIM_BIG_TRACE");
			data = head_of_file(file, target_bytes());
			return;
		}
		data = repeat_events(test::read_whole_file(test::shared_trace(rel)), target_bytes());
		file = test::write_temp(std::string(label) + ".txt", data);
		gzip = test::write_temp_gzip(std::string(label) + ".txt.gz", data);
	}
};

bench_input inputs[] = {
	{"ftrace-3.6", "linux-3.6-scp_dest/trace.txt", trace_format::ftrace},
	{"ftrace-6.18", "linux-6.18-http/trace.txt", trace_format::ftrace},
	{"trace-cmd-report", "linux-6.18-http/trace-cmd-report.txt", trace_format::trace_cmd_report},
	{"perf-script", "linux-6.18-tcp/perf-script.txt", trace_format::perf_script},
	{"big-trace", nullptr, trace_format::ftrace},
};

void bm_memory(benchmark::State &state, bench_input *in)
{
	in->build();
	reader_options opt;
	std::uint64_t bytes = 0, events = 0;
	for (auto _ : state) {
		auto r = make_text_reader_from_memory(in->data, in->label, in->format, opt);
		events += test::drain(*r);
		bytes += r->stats().bytes;
	}
	test::report_throughput(state, bytes, events);
}

void bm_path(benchmark::State &state, bench_input *in, bool gzip)
{
	in->build();
	reader_options opt;
	std::uint64_t bytes = 0, events = 0;
	for (auto _ : state) {
		auto r = open_trace(gzip ? in->gzip : in->file, trace_format::auto_detect, opt);
		events += test::drain(*r);
		bytes += r->stats().bytes;
	}
	test::report_throughput(state, bytes, events);
}

void register_all()
{
	for (auto &in : inputs) {
		std::string name = in.label;
		if (!in.rel) {
			const char *big = std::getenv("TIMERSIM_BIG_TRACE");
			if (!big || !*big)
				continue;
			benchmark::RegisterBenchmark(("text_memory/" + name).c_str(), bm_memory, &in)
				->Unit(benchmark::kMillisecond);
			benchmark::RegisterBenchmark(("text_file/" + name).c_str(), bm_path, &in, false)
				->Unit(benchmark::kMillisecond)->Iterations(1);
			continue;
		}
		if (test::shared_trace(in.rel).empty()) {
			test::skip_note(std::string("../shared/traces/") + in.rel + " absent: no " +
					in.label + " benchmarks");
			continue;
		}
		benchmark::RegisterBenchmark(("text_memory/" + name).c_str(), bm_memory, &in)
			->Unit(benchmark::kMillisecond);
		benchmark::RegisterBenchmark(("text_file/" + name).c_str(), bm_path, &in, false)
			->Unit(benchmark::kMillisecond);
		benchmark::RegisterBenchmark(("text_gzip/" + name).c_str(), bm_path, &in, true)
			->Unit(benchmark::kMillisecond);
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
