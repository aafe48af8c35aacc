// What one cascade relink costs the kernel/ classic wheel's code on this
// machine: N timers in one tv2 slot (expires within one 256-jiffy window,
// armed 256 jiffies ahead), and the one tick whose cascade() moves them
// all into tv1 is timed - nothing else runs in it (no timer is due).
// `warm`: the timers were touched just before (armed, then 255 empty
// ticks); `cold`: a 64 MiB buffer is written between arming and the
// cascade, so that the timers' cache lines come from memory, as a cascade
// of timers left untouched for a second finds them. items/s is relinks/s:
// 1e9 / items_per_second is ns per relinked timer. The cost model's relink
// term (sim/measured/reference_model.h) can only be bounded by the one
// cascading recording (linux-3.6-scp_dest: 0 .. 67 ns); this gives the
// code's own price beside it, without the kernel's locking and tracepoints.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "kernel/classic_wheel.h"

namespace {

template <class Timer>
struct relink_observer {
	std::uint64_t moves = 0;
	void enqueued(const Timer &, unsigned) {}
	void moved(const Timer &, unsigned, unsigned) { moves++; }
	void cascaded(unsigned, unsigned) {}
	template <class Word> void tick(Word) {}
	template <class Word> void expiring(const Timer &, Word) {}
};

using config = kernel::wheel_config<kernel::geometry_normal, std::uint64_t, kernel::slot_order::fifo,
				    relink_observer>;
using timer_t = kernel::timer_list<config>;

void nothing(unsigned long) {}

// A multiple of 256 (tv1's index 0), far from 0.
constexpr std::uint64_t start = 256ull * 4096;

void relink(benchmark::State &state, bool cold)
{
	const std::size_t n = std::size_t(state.range(0));
	std::unique_ptr<timer_t[]> timers(new timer_t[n]);
	std::vector<std::uint64_t> evict(cold ? (64u << 20) / sizeof(std::uint64_t) : 0);
	std::uint64_t jiffies = 0, moves = 0;
	kernel::tvec_base<config> base;
	for (auto _ : state) {
		state.PauseTiming();
		jiffies = start - 1;
		kernel::init_timer_base(base, &jiffies, 0, start);
		// Expires in [start + 256, start + 511]: one tv2 slot, moved
		// at jiffy start + 256.
		for (std::size_t i = 0; i < n; i++) {
			kernel::init_timer(&timers[i], nothing, i);
			timers[i].slack = 0;
			kernel::mod_timer(base, &timers[i], start + 256 + (i * 7) % 256);
		}
		for (jiffies = start; jiffies < start + 256; jiffies++)
			kernel::run_timers(base, jiffies);
		for (std::size_t i = 0; i < evict.size(); i += 8)
			evict[i] += i;
		benchmark::ClobberMemory();
		const std::uint64_t before = base.observer.moves;
		state.ResumeTiming();
		kernel::run_timers(base, jiffies);	// jiffy start + 256: the cascade
		benchmark::ClobberMemory();
		state.PauseTiming();
		moves += base.observer.moves - before;
		state.ResumeTiming();
	}
	state.SetItemsProcessed(std::int64_t(moves));
	state.counters["relinks/op"] = benchmark::Counter(double(moves), benchmark::Counter::kAvgIterations);
}

void BM_relink_warm(benchmark::State &state) { relink(state, false); }
void BM_relink_cold(benchmark::State &state) { relink(state, true); }

}  // namespace

// Each iteration re-arms N timers and runs 256 ticks (paused), and the cold
// one writes 64 MiB: a fixed count keeps the run short.
BENCHMARK(BM_relink_warm)->Arg(64)->Arg(1024)->Arg(8192)->Iterations(200);
BENCHMARK(BM_relink_cold)->Arg(64)->Arg(1024)->Arg(8192)->Iterations(30);

BENCHMARK_MAIN();
