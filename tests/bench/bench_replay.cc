// One replay of the same recording through every scheme of the registry:
//   replay/SCHEME     ../shared/traces/linux-6.18-http/trace.txt, whole
// The trace is read into memory once (outside the timed loop) and replayed
// from a temporary copy on tmpfs-backed /tmp, so the figure is the reader
// plus the core plus the scheme. Counters: events/s, and the scheme's cost
// units per event.
#include <unistd.h>

#include <cstdio>
#include <string>

#include "sim/core/replay.h"
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
	benchmark::Initialize(&argc, argv);
	benchmark::RunSpecifiedBenchmarks();
	benchmark::Shutdown();
	return 0;
}
