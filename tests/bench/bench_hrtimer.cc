// The hrtimer model (kernel/hrtimer.h) at 10^2..10^5 pending timers on one
// CPU in high resolution mode: start (re-arm a pending timer, with the
// reprogramming it implies), cancel + start of a timer, and the interrupt
// (periodic timers of 1..10 ms re-arming themselves: the steady state of a
// busy CPU). Then every queue design of sim/hrtimer/queue_design.h on the
// same re-arm workload. Workloads come from a fixed seed, built outside the
// timed loop; counters give the domain figures per operation: tree
// comparisons, rotations, device programmings, timers expired.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "kernel/hrtimer.h"
#include "sim/hrtimer/queue_design.h"

namespace {

using namespace kernel::hr;

constexpr ktime_t MS = NSEC_PER_MSEC;

// Offsets ahead of now: 80% within 10 ms (hrtick, sleeps), 20% up to 1 s.
std::vector<ktime_t> offsets(std::size_t n, std::uint64_t seed)
{
	std::mt19937_64 rng(seed);
	std::vector<ktime_t> v(n);
	for (ktime_t &o : v)
		o = rng() % 5 ? 1000 + static_cast<ktime_t>(rng() % (10 * MS)) : static_cast<ktime_t>(rng() % (1000 * MS));
	return v;
}

hrtimer_restart periodic(hrtimer *t, void *context)
{
	hrtimer_forward_now(t, *static_cast<ktime_t *>(context));
	return HRTIMER_RESTART;
}

struct model {
	hrtimer_machine m;
	hrtimer_cpu_base cpu;
	std::vector<hrtimer> timers;
	std::vector<ktime_t> periods;
	std::vector<ktime_t> offs = offsets(1 << 16, 0x4e7);
	std::size_t next = 0;

	model(std::size_t n, std::size_t spare, bool periodic_timers) : timers(n + spare), periods(n + spare)
	{
		m.now = NSEC_PER_SEC;
		hrtimer_cpu_base_init(&cpu, &m, 0, hrtimer_generation::soft_bases, true);
		std::mt19937_64 rng(n);
		for (std::size_t i = 0; i < timers.size(); i++) {
			periods[i] = MS + static_cast<ktime_t>(rng() % (9 * MS));
			hrtimer_setup(&timers[i], periodic_timers ? periodic : nullptr, &periods[i], HR_CLOCK_MONOTONIC,
				      HRTIMER_MODE_ABS, &cpu);
		}
		for (std::size_t i = 0; i < n; i++)
			hrtimer_start(&cpu, &timers[i], m.now + offset(), HRTIMER_MODE_ABS);
	}
	ktime_t offset() { return offs[next++ & (offs.size() - 1)]; }

	void counters(benchmark::State &state, const timerqueue_costs &q0, std::uint64_t rot0, std::uint64_t prog0,
		      std::uint64_t exp0)
	{
		using benchmark::Counter;
		std::uint64_t rot = 0;
		timerqueue_costs q = hrtimer_queue_costs(&cpu, &rot);
		state.counters["cmp/op"] = Counter(static_cast<double>(q.comparisons - q0.comparisons), Counter::kAvgIterations);
		state.counters["rot/op"] = Counter(static_cast<double>(rot - rot0), Counter::kAvgIterations);
		state.counters["programs/op"] = Counter(static_cast<double>(cpu.dev.programs - prog0), Counter::kAvgIterations);
		state.counters["expired/op"] = Counter(static_cast<double>(cpu.costs.expiries_hard - exp0), Counter::kAvgIterations);
	}
};

void BM_hrtimer_start(benchmark::State &state)
{
	const std::size_t n = static_cast<std::size_t>(state.range(0));
	model md(n, 0, false);
	std::uint64_t rot0 = 0;
	const timerqueue_costs q0 = hrtimer_queue_costs(&md.cpu, &rot0);
	const std::uint64_t prog0 = md.cpu.dev.programs;
	std::size_t i = 0;
	for (auto _ : state) {
		hrtimer_start(&md.cpu, &md.timers[i], md.m.now + md.offset(), HRTIMER_MODE_ABS);
		if (++i == n)
			i = 0;
	}
	md.counters(state, q0, rot0, prog0, 0);
}

void BM_hrtimer_cancel_start(benchmark::State &state)
{
	const std::size_t n = static_cast<std::size_t>(state.range(0));
	model md(n, 1, false);
	std::uint64_t rot0 = 0;
	const timerqueue_costs q0 = hrtimer_queue_costs(&md.cpu, &rot0);
	const std::uint64_t prog0 = md.cpu.dev.programs;
	std::vector<hrtimer *> pending(n);
	for (std::size_t j = 0; j < n; j++)
		pending[j] = &md.timers[j];
	hrtimer *spare = &md.timers[n];
	std::size_t i = 0;
	for (auto _ : state) {
		// Cancel a pending timer and start the spare one: n stay pending.
		hrtimer_try_to_cancel(&md.cpu, pending[i]);
		hrtimer_start(&md.cpu, spare, md.m.now + md.offset(), HRTIMER_MODE_ABS);
		std::swap(pending[i], spare);
		if (++i == n)
			i = 0;
	}
	md.counters(state, q0, rot0, prog0, 0);
}

void BM_hrtimer_interrupt(benchmark::State &state)
{
	const std::size_t n = static_cast<std::size_t>(state.range(0));
	model md(n, 0, true);
	std::uint64_t rot0 = 0;
	const timerqueue_costs q0 = hrtimer_queue_costs(&md.cpu, &rot0);
	const std::uint64_t prog0 = md.cpu.dev.programs, exp0 = md.cpu.costs.expiries_hard;
	for (auto _ : state) {
		md.m.now = md.cpu.dev.fires_at;
		hrtimer_interrupt(&md.cpu);
	}
	md.counters(state, q0, rot0, prog0, exp0);
}

// Re-arm of a random pending timer through a queue design.
void BM_queue_rearm(benchmark::State &state, const std::string &design)
{
	using namespace timersim::hrq;
	const std::size_t n = static_cast<std::size_t>(state.range(0));
	std::unique_ptr<queue_design> q = make_queue_design(design);
	const std::vector<ktime_t> offs = offsets(1 << 16, 0x4e7);
	std::vector<ktime> armed(n);
	ktime now = NSEC_PER_SEC;
	q->reset(n, now);
	std::size_t k = 0;
	for (std::size_t i = 0; i < n; i++)
		q->arm(static_cast<qid>(i), armed[i] = now + offs[k++ & 0xffff]);
	const queue_costs c0 = q->costs();
	std::mt19937_64 rng(n);
	std::vector<std::uint32_t> order(1 << 16);
	for (auto &o : order)
		o = static_cast<std::uint32_t>(rng() % n);
	for (auto _ : state) {
		const qid t = order[k & 0xffff];
		// Half pushed back a little (the hrtick's re-arm), half anywhere.
		armed[t] = k & 1 ? armed[t] + 50000 : now + offs[k & 0xffff];
		q->arm(t, armed[t]);
		k++;
	}
	using benchmark::Counter;
	const queue_costs c = q->costs();
	state.counters["cmp/op"] = Counter(static_cast<double>(c.comparisons - c0.comparisons), Counter::kAvgIterations);
	state.counters["in_place/op"] = Counter(static_cast<double>(c.in_place - c0.in_place), Counter::kAvgIterations);
	state.counters["visits/op"] = Counter(static_cast<double>(c.slot_visits - c0.slot_visits), Counter::kAvgIterations);
}

void sizes(benchmark::internal::Benchmark *b)
{
	for (long n : {100, 1000, 10000, 100000})
		b->Arg(n);
}

const int registered = [] {
	for (const std::string &name : timersim::hrq::queue_design_names())
		benchmark::RegisterBenchmark(("BM_queue_rearm/" + name).c_str(), BM_queue_rearm, name)->Apply(sizes);
	return 0;
}();

}  // namespace

BENCHMARK(BM_hrtimer_start)->Apply(sizes);
BENCHMARK(BM_hrtimer_cancel_start)->Apply(sizes);
BENCHMARK(BM_hrtimer_interrupt)->Apply(sizes);

BENCHMARK_MAIN();
