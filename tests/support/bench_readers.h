// What the reader benches share: reading a trace to its end, and the
// throughput counters. Header-only: only bench binaries include it.
#pragma once

#include <cstdint>

#include <benchmark/benchmark.h>

#include "sim/trace/reader.h"

namespace timersim::test {

// Reads everything; returns the number of events.
inline std::uint64_t drain(trace_reader &r)
{
	trace_event ev;
	std::uint64_t n = 0;
	while (r.next(ev)) {
		benchmark::DoNotOptimize(ev.expires);
		n++;
	}
	return n;
}

// bytes/s, events/s and MB/s over the whole timed loop.
inline void report_throughput(benchmark::State &state, std::uint64_t bytes, std::uint64_t events)
{
	state.SetBytesProcessed(std::int64_t(bytes));
	state.counters["events/s"] = benchmark::Counter(double(events), benchmark::Counter::kIsRate);
	state.counters["MB/s"] = benchmark::Counter(double(bytes) / 1e6, benchmark::Counter::kIsRate);
}

}  // namespace timersim::test
