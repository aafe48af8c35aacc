// The wheel goals of issue 13, with exactly its parameters, for the raw
// kernel/ wheels (classic, v48) and the same wheels through the scheme
// layer (what a replay drives):
//
//   goals/rearm/IMPL   100k live timers, each re-armed once per round in
//                      shuffled order, timeouts uniform in [2000, 2200]
//                      jiffies; nothing fires. The clock moves one jiffy
//                      per round. One iteration is one round; ns_per_op
//                      is per re-arm.
//   goals/short/IMPL   10M arm+expire: 10000 timers armed with timeouts
//                      uniform in [1, 256), each re-armed the same way
//                      when it fires, jiffy by jiffy until 10M expiries.
//                      One iteration is the whole run; ns_per_op is per
//                      arm+expire.
//
// Every implementation runs the same loop: advance one jiffy, collect what
// fired, arm it again. Shuffled orders and timeouts are drawn from fixed
// seeds outside the timed loop. IMPL: classic, v48 (raw wheels, the
// observer compiled out), scheme-classic, scheme-v48 (make_scheme(), the
// virtual interface, an observer that collects expiries).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "kernel/classic_wheel.h"
#include "kernel/v48_wheel.h"
#include "sim/scheme/scheme.h"

namespace {

constexpr std::size_t REARM_TIMERS = 100000;
constexpr std::uint64_t REARM_MIN = 2000, REARM_MAX = 2200;
constexpr std::size_t SHORT_OPS = 10000000;
constexpr std::size_t SHORT_TIMERS = 10000;
constexpr std::uint64_t SHORT_MIN = 1, SHORT_END = 256;
constexpr unsigned HZ = 250;

// Timeouts uniform in [lo, hi), pre-drawn and cycled through.
class timeouts {
public:
	timeouts(std::uint64_t lo, std::uint64_t hi, std::uint64_t seed) : v_(1 << 20)
	{
		std::mt19937_64 rng(seed);
		for (auto &t : v_)
			t = static_cast<std::uint32_t>(lo + rng() % (hi - lo));
	}
	std::uint32_t next() { return v_[i_++ & (v_.size() - 1)]; }

private:
	std::vector<std::uint32_t> v_;
	std::size_t i_ = 0;
};

// ---- the implementations: arm(id, timeout) and tick() -> fired ids -----------

std::vector<std::uint32_t> *g_fired;	// where the raw wheels' expiries go

void collect(unsigned long data) { g_fired->push_back(static_cast<std::uint32_t>(data)); }

struct classic_raw {
	using config = kernel::wheel_config<kernel::geometry_normal, std::uint64_t>;
	std::uint64_t jiffies = kernel::initial_jiffies<std::uint64_t>(HZ);
	kernel::tvec_base<config> base;
	std::unique_ptr<kernel::timer_list<config>[]> timers;
	std::vector<std::uint32_t> fired;

	explicit classic_raw(std::size_t n) : timers(new kernel::timer_list<config>[n])
	{
		kernel::init_timer_base(base, &jiffies, 0, jiffies);
		for (std::size_t i = 0; i < n; i++) {
			kernel::init_timer(&timers[i], collect, i);
			timers[i].slack = 0;
		}
		g_fired = &fired;
	}
	void arm(std::uint32_t id, std::uint32_t timeout) { kernel::mod_timer(base, &timers[id], jiffies + timeout); }
	void tick()
	{
		++jiffies;
		kernel::run_timers(base, jiffies);
	}
};

template <class Timer>
struct v48_collector {
	template <class Word> void enqueued(const Timer &, unsigned, Word) {}
	void visited(unsigned) {}
	void compared(unsigned) {}
	template <class Word> void collecting(Word, Word) {}
	template <class Word>
	void expiring(const Timer &t, Word)
	{
		g_fired->push_back(static_cast<std::uint32_t>(t.data));
	}
};

struct v48_raw {
	using config = kernel::v48::wheel_config<kernel::v48::geometry_hz_gt_100, std::uint64_t, v48_collector>;
	std::uint64_t jiffies = kernel::initial_jiffies<std::uint64_t>(HZ);
	kernel::v48::cpu_bases<config> bases;
	std::unique_ptr<kernel::v48::timer_list<config>[]> timers;
	std::vector<std::uint32_t> fired;

	explicit v48_raw(std::size_t n) : timers(new kernel::v48::timer_list<config>[n])
	{
		kernel::v48::init_cpu_bases(bases, 0, jiffies);
		for (std::size_t i = 0; i < n; i++)
			kernel::v48::init_timer(&timers[i], i, kernel::v48::TIMER_PINNED);
		g_fired = &fired;
	}
	void arm(std::uint32_t id, std::uint32_t timeout)
	{
		kernel::v48::mod_timer(bases, &timers[id], jiffies + timeout, jiffies);
	}
	void tick()
	{
		++jiffies;
		kernel::v48::run_timers(bases, jiffies);
	}
};

class collecting_observer final : public timersim::scheme_observer {
public:
	std::vector<std::uint32_t> fired;
	bool wants_enqueues() const override { return false; }	// as the replay
	void moved(timersim::timer_id, unsigned) override {}
	void cascaded(unsigned, std::uint32_t) override {}
	void tick(unsigned, timersim::jiffies_t) override {}
	void expired(timersim::timer_id t, unsigned, timersim::jiffies_t) override { fired.push_back(t); }
	void idle_ticks(unsigned, timersim::jiffies_t, std::uint64_t) override {}
	void empty_cascades(unsigned, std::uint64_t) override {}
};

template <const char *Name>
struct through_scheme {
	collecting_observer obs;
	std::unique_ptr<timersim::scheme> s;
	std::vector<std::uint32_t> &fired = obs.fired;
	timersim::jiffies_t now;

	explicit through_scheme(std::size_t)
	{
		timersim::scheme_options opt;
		opt.hz = HZ;
		s = timersim::make_scheme(Name, opt);
		now = kernel::initial_jiffies<std::uint64_t>(HZ);
		s->reset(1, now, &obs);
		s->advance(0, now);	// now: the jiffy just processed, as for the raw wheels
	}
	void arm(std::uint32_t id, std::uint32_t timeout) { s->start(id, 0, now + timeout, 0); }
	void tick() { s->advance(0, ++now); }
};

constexpr char classic_name[] = "classic";
constexpr char v48_name[] = "v48";
using classic_scheme = through_scheme<classic_name>;
using v48_scheme = through_scheme<v48_name>;

// ---- the workloads ---------------------------------------------------------------

void per_op(benchmark::State &state, std::size_t ops_per_iter)
{
	state.counters["ns_per_op"] = benchmark::Counter(
		double(ops_per_iter), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

template <class Impl>
void BM_rearm(benchmark::State &state)
{
	Impl w(REARM_TIMERS);
	timeouts to(REARM_MIN, REARM_MAX + 1, 13);
	std::mt19937_64 rng(42);
	std::vector<std::vector<std::uint32_t>> orders(8, std::vector<std::uint32_t>(REARM_TIMERS));
	for (auto &o : orders) {
		for (std::uint32_t i = 0; i < REARM_TIMERS; i++)
			o[i] = i;
		std::shuffle(o.begin(), o.end(), rng);
	}
	for (std::uint32_t i = 0; i < REARM_TIMERS; i++)
		w.arm(i, to.next());
	std::size_t round = 0;
	for (auto _ : state) {
		for (std::uint32_t id : orders[round++ % orders.size()])
			w.arm(id, to.next());
		w.tick();
	}
	if (!w.fired.empty())
		state.SkipWithError("a re-armed timer fired");
	per_op(state, REARM_TIMERS);
}

template <class Impl>
void BM_short(benchmark::State &state)
{
	for (auto _ : state) {
		state.PauseTiming();
		auto w = std::make_unique<Impl>(SHORT_TIMERS);
		timeouts to(SHORT_MIN, SHORT_END, 7);
		std::vector<std::uint32_t> again;
		state.ResumeTiming();
		for (std::uint32_t i = 0; i < SHORT_TIMERS; i++)
			w->arm(i, to.next());
		std::size_t expired = 0;
		while (expired < SHORT_OPS) {
			w->tick();
			again.swap(w->fired);
			w->fired.clear();
			expired += again.size();
			for (std::uint32_t id : again)
				w->arm(id, to.next());
		}
		benchmark::DoNotOptimize(expired);
	}
	per_op(state, SHORT_OPS);
}

}  // namespace

BENCHMARK_TEMPLATE(BM_rearm, classic_raw)->Name("goals/rearm/classic")->MinTime(0.5);
BENCHMARK_TEMPLATE(BM_rearm, v48_raw)->Name("goals/rearm/v48")->MinTime(0.5);
BENCHMARK_TEMPLATE(BM_rearm, classic_scheme)->Name("goals/rearm/scheme-classic")->MinTime(0.5);
BENCHMARK_TEMPLATE(BM_rearm, v48_scheme)->Name("goals/rearm/scheme-v48")->MinTime(0.5);
BENCHMARK_TEMPLATE(BM_short, classic_raw)->Name("goals/short/classic")->Iterations(3)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_short, v48_raw)->Name("goals/short/v48")->Iterations(3)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_short, classic_scheme)->Name("goals/short/scheme-classic")->Iterations(3)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_short, v48_scheme)->Name("goals/short/scheme-v48")->Iterations(3)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
