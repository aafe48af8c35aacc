// One replay of the same recording through every scheme of the registry:
//   replay/SCHEME     ../shared/traces/linux-6.18-http/trace.txt, whole
//   compare/all       every scheme in one pass over the trace, against one
//                     parse plus one engine per scheme (x_parse_plus_engines
//                     ~1 means compare costs what it should) and against a
//                     single replay (x_replay)
// The trace is read into memory once (outside the timed loop) and replayed
// from a temporary copy on tmpfs-backed /tmp, so the figure is the reader
// plus the core plus the scheme. Counters: events/s, and the scheme's cost
// units per event.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <functional>
#include <string>

#include "sim/replay/replay.h"
#include "sim/scheme/scheme.h"
#include "sim/trace/reader.h"
#include "tests/support/paths.h"

#include <benchmark/benchmark.h>

using namespace timersim;

namespace {

void replay_scheme(benchmark::State &state, const std::string &scheme, const std::string &path)
{
	replay_report last;
	for (auto _ : state) {
		auto reader = open_trace(path, trace_format::auto_detect, {});
		replay_options opt;
		opt.scheme = scheme;
		last = replay_trace(*reader, path, opt);
		benchmark::DoNotOptimize(last.timers.expired);
	}
	double events = static_cast<double>(last.input.events);
	state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * last.input.bytes));
	state.counters["events/s"] = benchmark::Counter(events * state.iterations(),
							benchmark::Counter::kIsRate);
	state.counters["relinks/event"] = static_cast<double>(last.costs.relinks) / events;
	state.counters["slot_visits/event"] = static_cast<double>(last.costs.slot_visits) / events;
	state.counters["exact"] = last.fidelity.compared
		? static_cast<double>(last.fidelity.exact) / last.fidelity.compared : 0.0;
}

double seconds_of(const std::function<void()> &f)
{
	auto t0 = std::chrono::steady_clock::now();
	f();
	return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The trace read and nothing else: the parse every scheme would repeat.
void parse_only(const std::string &path)
{
	auto reader = open_trace(path, trace_format::auto_detect, {});
	trace_event ev;
	while (reader->next(ev))
		benchmark::DoNotOptimize(ev.timer);
}

void replay_one(const std::string &path, const std::string &scheme)
{
	auto reader = open_trace(path, trace_format::auto_detect, {});
	replay_options opt;
	opt.scheme = scheme;
	benchmark::DoNotOptimize(replay_trace(*reader, path, opt).timers.expired);
}

void compare_all(benchmark::State &state, const std::string &path)
{
	std::vector<scheme_run> runs;
	for (const std::string &s : scheme_names())
		runs.push_back({s, {}, {}});
	double compare = 0, parse = 0, single = 0, engines = 0;
	for (auto _ : state) {
		double c = seconds_of([&] {
			auto reader = open_trace(path, trace_format::auto_detect, {});
			benchmark::DoNotOptimize(replay_schemes(*reader, path, {}, runs).size());
		});
		state.SetIterationTime(c);
		compare += c;
		// The yardsticks, untimed by the framework.
		double p = seconds_of([&] { parse_only(path); });
		parse += p;
		for (const std::string &s : scheme_names()) {
			double r = seconds_of([&] { replay_one(path, s); });
			engines += r - p;
			if (s == "classic")
				single += r;
		}
	}
	state.counters["x_parse_plus_engines"] = compare / (parse + engines);
	state.counters["x_replay"] = compare / single;
	state.counters["schemes"] = static_cast<double>(runs.size());
}

}  // namespace

int main(int argc, char **argv)
{
	std::string path = timersim::test::shared_trace("linux-6.18-http/trace.txt");
	if (path.empty())
		timersim::test::skip_note("../shared/traces/linux-6.18-http/trace.txt is absent: no replay benches");
	else
		for (const std::string &s : scheme_names())
			benchmark::RegisterBenchmark(("replay/" + s).c_str(), replay_scheme, s, path)
				->Unit(benchmark::kMillisecond);
	if (!path.empty())
		benchmark::RegisterBenchmark("compare/all", compare_all, path)
			->UseManualTime()
			->Iterations(5)
			->Unit(benchmark::kMillisecond);
	benchmark::Initialize(&argc, argv);
	benchmark::RunSpecifiedBenchmarks();
	benchmark::Shutdown();
	return 0;
}
