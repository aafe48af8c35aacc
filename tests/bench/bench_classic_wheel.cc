// The classic wheel's operations at 10^3..10^6 pending timers: add, re-arm
// (mod_timer of a pending timer), del, and run_timers per tick with every
// expired timer re-armed (steady state). Normal geometry, 64-bit, and the
// same on 32-bit jiffies.
//
// Workloads are built from a fixed seed outside the timed loop, with a
// realistic mix at HZ=250: most timeouts short (networking retransmits,
// 1..300 jiffies), some of seconds, a few of minutes. A counting observer
// gives the domain figures per operation: timers moved by cascades
// (moves/op), cascade() calls (cascades/op) and expiries (expired/op).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "kernel/classic_wheel.h"

namespace {

template <class Timer>
struct counting_observer {
	std::uint64_t moves = 0, cascades = 0, expired = 0;
	void enqueued(const Timer &, unsigned) {}
	void moved(const Timer &, unsigned, unsigned) { moves++; }
	void cascaded(unsigned, unsigned) { cascades++; }
	template <class Word> void tick(Word) {}
	template <class Word> void expiring(const Timer &, Word) { expired++; }
};

using normal_64 = kernel::wheel_config<kernel::geometry_normal, std::uint64_t, kernel::slot_order::fifo,
				       counting_observer>;
using normal_32 = kernel::wheel_config<kernel::geometry_normal, std::uint32_t, kernel::slot_order::fifo,
				       counting_observer>;

constexpr unsigned HZ = 250;

// 70% 1..300 jiffies, 25% 1..60 s, 5% 1..10 min.
std::vector<std::uint32_t> timeout_mix(std::size_t n, std::uint64_t seed)
{
	std::mt19937_64 rng(seed);
	std::vector<std::uint32_t> v(n);
	for (auto &t : v) {
		const unsigned r = rng() % 100;
		if (r < 70)
			t = 1 + rng() % 300;
		else if (r < 95)
			t = HZ + rng() % (59 * HZ);
		else
			t = 60 * HZ + rng() % (540 * HZ);
	}
	return v;
}

// A base at INITIAL_JIFFIES with n pending timers from the mix, plus a
// spare pool that is not pending. Timers re-arm themselves from the mix
// when they fire, so a run keeps n pending.
template <class Config>
struct wheel_fixture {
	using word = typename Config::word;
	using timer_t = kernel::timer_list<Config>;

	word jiffies;
	kernel::tvec_base<Config> base;
	std::unique_ptr<timer_t[]> timers;
	std::size_t n, spare;
	std::vector<std::uint32_t> mix;
	std::size_t next = 0;

	static inline wheel_fixture *self;

	wheel_fixture(std::size_t pending, std::size_t spare_timers)
		: timers(new timer_t[pending + spare_timers]), n(pending), spare(spare_timers),
		  mix(timeout_mix(1 << 20, 0xbe4c4 + pending))
	{
		self = this;
		const word start = kernel::initial_jiffies<word>(HZ);
		jiffies = static_cast<word>(start - 1);
		kernel::init_timer_base(base, &jiffies, 0, start);
		for (std::size_t i = 0; i < n + spare; i++) {
			kernel::init_timer(&timers[i], rearm, i);
			timers[i].slack = 0;
		}
		for (std::size_t i = 0; i < n; i++)
			kernel::mod_timer(base, &timers[i], jiffies + timeout());
	}

	std::uint32_t timeout() { return mix[next++ & (mix.size() - 1)]; }

	static void rearm(unsigned long i)
	{
		self->rearm_timer(&self->timers[i]);
	}
	void rearm_timer(timer_t *t) { kernel::mod_timer(base, t, jiffies + timeout()); }

	// Advance one jiffy, firing (and re-arming) what is due.
	void tick()
	{
		++jiffies;
		kernel::run_timers(base, jiffies);
	}

	// Warm up to a steady state: every short timer has cycled a few times
	// and the cascades have spread the long ones.
	void warm_up(unsigned ticks)
	{
		for (unsigned i = 0; i < ticks; i++)
			tick();
	}

	void counters(benchmark::State &state, std::uint64_t moves0, std::uint64_t cascades0,
		      std::uint64_t expired0) const
	{
		using benchmark::Counter;
		state.counters["moves/op"] = Counter(static_cast<double>(base.observer.moves - moves0),
						     Counter::kAvgIterations);
		state.counters["cascades/op"] = Counter(static_cast<double>(base.observer.cascades - cascades0),
							Counter::kAvgIterations);
		state.counters["expired/op"] = Counter(static_cast<double>(base.observer.expired - expired0),
						       Counter::kAvgIterations);
		state.counters["pending"] = static_cast<double>(base.active_timers);
	}
};

constexpr std::size_t BATCH = 4096;

// add: mod_timer of a timer that is not pending. Batches of BATCH spare
// timers are added, then deleted with the clock stopped.
template <class Config>
void BM_classic_add(benchmark::State &state)
{
	wheel_fixture<Config> w(state.range(0), BATCH);
	w.warm_up(1000);
	const auto m0 = w.base.observer.moves, c0 = w.base.observer.cascades, e0 = w.base.observer.expired;
	std::size_t k = 0;
	for (auto _ : state) {
		kernel::mod_timer(w.base, &w.timers[w.n + k], w.jiffies + w.timeout());
		if (++k == BATCH) {
			state.PauseTiming();
			for (std::size_t i = 0; i < BATCH; i++)
				kernel::del_timer(&w.timers[w.n + i]);
			k = 0;
			state.ResumeTiming();
		}
	}
	w.counters(state, m0, c0, e0);
}

// re-arm: mod_timer of a pending timer to a new expiry (the common case
// for networking timers, which are re-armed long before they expire).
template <class Config>
void BM_classic_rearm(benchmark::State &state)
{
	wheel_fixture<Config> w(state.range(0), 0);
	w.warm_up(1000);
	std::mt19937_64 rng(42);
	std::vector<std::uint32_t> order(1 << 16);
	for (auto &i : order)
		i = rng() % w.n;
	const auto m0 = w.base.observer.moves, c0 = w.base.observer.cascades, e0 = w.base.observer.expired;
	std::size_t k = 0;
	for (auto _ : state) {
		benchmark::DoNotOptimize(
			kernel::mod_timer(w.base, &w.timers[order[k & (order.size() - 1)]], w.jiffies + w.timeout()));
		k++;
	}
	w.counters(state, m0, c0, e0);
}

// del: del_timer of a pending timer; each batch is re-added untimed.
template <class Config>
void BM_classic_del(benchmark::State &state)
{
	wheel_fixture<Config> w(state.range(0), BATCH);
	w.warm_up(1000);
	for (std::size_t i = 0; i < BATCH; i++)
		kernel::mod_timer(w.base, &w.timers[w.n + i], w.jiffies + w.timeout());
	const auto m0 = w.base.observer.moves, c0 = w.base.observer.cascades, e0 = w.base.observer.expired;
	std::size_t k = 0;
	for (auto _ : state) {
		benchmark::DoNotOptimize(kernel::del_timer(&w.timers[w.n + k]));
		if (++k == BATCH) {
			state.PauseTiming();
			for (std::size_t i = 0; i < BATCH; i++)
				kernel::mod_timer(w.base, &w.timers[w.n + i], w.jiffies + w.timeout());
			k = 0;
			state.ResumeTiming();
		}
	}
	w.counters(state, m0, c0, e0);
}

// run_timers per tick: one jiffy processed, expired timers run and re-arm
// themselves (their mod_timer is part of the cost), cascades every 256.
template <class Config>
void BM_classic_tick(benchmark::State &state)
{
	wheel_fixture<Config> w(state.range(0), 0);
	// 20000 ticks (80 s at HZ=250) cycle the short timers many times;
	// at 10^6 timers a tick costs ~0.1 ms, so fewer there.
	w.warm_up(w.n >= 1000000 ? 3000 : 20000);
	const auto m0 = w.base.observer.moves, c0 = w.base.observer.cascades, e0 = w.base.observer.expired;
	for (auto _ : state)
		w.tick();
	w.counters(state, m0, c0, e0);
}

void sizes(benchmark::internal::Benchmark *b)
{
	for (long n : {1000, 10000, 100000, 1000000})
		b->Arg(n);
}

}  // namespace

BENCHMARK_TEMPLATE(BM_classic_add, normal_64)->Apply(sizes);
BENCHMARK_TEMPLATE(BM_classic_rearm, normal_64)->Apply(sizes);
BENCHMARK_TEMPLATE(BM_classic_del, normal_64)->Apply(sizes);
BENCHMARK_TEMPLATE(BM_classic_tick, normal_64)->Apply(sizes);
BENCHMARK_TEMPLATE(BM_classic_add, normal_32)->Apply(sizes);
BENCHMARK_TEMPLATE(BM_classic_rearm, normal_32)->Apply(sizes);
BENCHMARK_TEMPLATE(BM_classic_del, normal_32)->Apply(sizes);
BENCHMARK_TEMPLATE(BM_classic_tick, normal_32)->Apply(sizes);

BENCHMARK_MAIN();
