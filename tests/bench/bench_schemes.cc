// Every scheme of the registry, one benchmark per operation, at 10^3 .. 10^6
// pending timers on one base:
//   schemes/add/SCHEME/N       start of a timer that is not pending
//   schemes/rearm/SCHEME/N     start of a pending timer (mod_timer)
//   schemes/del/SCHEME/N       cancel of a pending timer
//   schemes/advance/SCHEME/N   one jiffy processed (firing what is due)
// Each iteration is a batch of operations; ns_per_op is the time per
// operation, relinks/op and slot_visits/op the scheme's own cost units per
// operation. Workloads come from a fixed seed and are built outside the
// timed sections; the pending count is restored between batches (untimed),
// so every batch sees N pending timers. Timeouts follow the mix of the
// 6.18 recordings: 1, 25, 50, 250 and 15000 jiffies dominate, with a tail
// of random ones up to 5 minutes and a few hours. For `advance`, the
// pending timers are the long ones that make up most of what stays pending
// in a real system (up to 400 s ahead, uniformly), and those that fire are
// re-armed as far, so a jiffy fires N/100000 timers, not a tenth of them.
// Times are CPU time (the machine is shared).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "sim/scheme/scheme.h"

using namespace timersim;

namespace {

std::uint64_t timeout(std::mt19937_64 &rng)
{
	static const std::uint64_t common[] = {1, 25, 50, 51, 250, 10, 125, 15000};
	unsigned r = rng() % 100;
	if (r < 80)
		return common[rng() % 8];
	if (r < 98)
		return rng() % 75000;	// up to 5 minutes at HZ 250
	return 75000 + rng() % 3600000;
}

class counting : public scheme_observer {
public:
	std::vector<timer_id> fired;
	void enqueued(timer_id, unsigned) override {}
	void moved(timer_id, unsigned) override {}
	void cascaded(unsigned, std::uint32_t) override {}
	void tick(unsigned, jiffies_t) override {}
	void expired(timer_id t, unsigned, jiffies_t) override { fired.push_back(t); }
	void idle_ticks(unsigned, jiffies_t, std::uint64_t) override {}
	void empty_cascades(unsigned, std::uint64_t) override {}
};

// N pending timers (ids 0..N-1) on base 0, plus N spare ids for adds.
struct fixture {
	std::string name;
	std::size_t n = 0;
	std::unique_ptr<reported_scheme> s;
	counting obs;
	std::mt19937_64 rng{12345};
	std::vector<std::uint64_t> timeouts;	// pre-drawn, cycled through
	std::size_t next_timeout = 0;
	bool long_only = false;	// the fill of the `advance` benchmark

	std::uint64_t draw() { return timeouts[next_timeout++ % timeouts.size()]; }
};

// One fixture at a time, reused across Google Benchmark's calibration runs
// and the four operations of a (scheme, size): building 10^6 timers is
// slower than measuring them.
std::uint64_t far_ahead(std::mt19937_64 &rng) { return 1 + rng() % 100000; }

fixture &get(const std::string &name, std::size_t n, bool long_only = false)
{
	static std::unique_ptr<fixture> f;
	if (f && f->name == name && f->n == n && f->long_only == long_only)
		return *f;
	f.reset();
	f = std::make_unique<fixture>();
	f->name = name;
	f->n = n;
	f->long_only = long_only;
	scheme_options opt;
	opt.hz = 250;
	f->s = make_scheme(name, opt);
	f->s->reset(1, 4294892296ull, &f->obs);
	f->timeouts.resize(1 << 16);
	for (auto &t : f->timeouts)
		t = timeout(f->rng);
	// Fill in expiry order: an ordered list's tail walk is then short.
	std::vector<std::pair<std::uint64_t, timer_id>> fill(n);
	for (std::size_t i = 0; i < n; i++)
		fill[i] = {long_only ? far_ahead(f->rng) : f->draw(), static_cast<timer_id>(i)};
	std::sort(fill.begin(), fill.end());
	jiffies_t now = f->s->clock(0);
	for (auto [to, id] : fill)
		f->s->start(id, 0, now + to, 0);
	return *f;
}

constexpr std::size_t BATCH = 256;

struct cost_mark {
	std::uint64_t relinks = 0, visits = 0;
	void begin(const reported_scheme &s) { relinks -= s.costs().relinks, visits -= s.costs().slot_visits; }
	void end(const reported_scheme &s) { relinks += s.costs().relinks, visits += s.costs().slot_visits; }
};

void counters(benchmark::State &state, const cost_mark &m, std::size_t ops_per_iter)
{
	double ops = double(state.iterations()) * double(ops_per_iter);
	state.counters["ns_per_op"] =
		benchmark::Counter(double(ops_per_iter), benchmark::Counter::kIsIterationInvariantRate |
								 benchmark::Counter::kInvert);
	state.counters["relinks/op"] = double(m.relinks) / ops;
	state.counters["slot_visits/op"] = double(m.visits) / ops;
}

// Keeps N pending: re-arm whatever fired, far ahead, untimed.
void refill(fixture &f)
{
	jiffies_t now = f.s->clock(0);
	for (timer_id t : f.obs.fired)
		if (!f.s->pending(t))
			f.s->start(t, 0, now + far_ahead(f.rng), 0);
	f.obs.fired.clear();
}

void bench_add(benchmark::State &state, const std::string &name, std::size_t n)
{
	fixture &f = get(name, n);
	reported_scheme &s = *f.s;
	cost_mark m;
	timer_id spare = static_cast<timer_id>(n);
	for (auto _ : state) {
		jiffies_t now = s.clock(0);
		m.begin(s);
		for (std::size_t i = 0; i < BATCH; i++)
			s.start(spare + static_cast<timer_id>(i), 0, now + f.draw(), 0);
		m.end(s);
		state.PauseTiming();
		for (std::size_t i = 0; i < BATCH; i++)
			s.cancel(spare + static_cast<timer_id>(i));
		state.ResumeTiming();
	}
	counters(state, m, BATCH);
}

void bench_rearm(benchmark::State &state, const std::string &name, std::size_t n)
{
	fixture &f = get(name, n);
	reported_scheme &s = *f.s;
	cost_mark m;
	std::size_t at = 0;
	for (auto _ : state) {
		jiffies_t now = s.clock(0);
		m.begin(s);
		for (std::size_t i = 0; i < BATCH; i++)
			s.start(static_cast<timer_id>((at + i * 7919) % n), 0, now + f.draw(), 0);
		m.end(s);
		at += BATCH;
	}
	counters(state, m, BATCH);
}

void bench_del(benchmark::State &state, const std::string &name, std::size_t n)
{
	fixture &f = get(name, n);
	reported_scheme &s = *f.s;
	cost_mark m;
	std::size_t at = 0;
	std::vector<timer_id> batch(BATCH);
	for (auto _ : state) {
		for (std::size_t i = 0; i < BATCH; i++)
			batch[i] = static_cast<timer_id>((at + i * 7919) % n);
		at += BATCH;
		m.begin(s);
		for (timer_id t : batch)
			s.cancel(t);
		m.end(s);
		state.PauseTiming();
		jiffies_t now = s.clock(0);
		for (timer_id t : batch)
			if (!s.pending(t))
				s.start(t, 0, now + f.draw(), 0);
		state.ResumeTiming();
	}
	counters(state, m, BATCH);
}

void bench_advance(benchmark::State &state, const std::string &name, std::size_t n)
{
	fixture &f = get(name, n, true);
	reported_scheme &s = *f.s;
	cost_mark m;
	constexpr std::size_t JIFFIES = 16;
	for (auto _ : state) {
		m.begin(s);
		for (std::size_t j = 0; j < JIFFIES; j++)
			s.advance(0, s.clock(0));
		m.end(s);
		state.PauseTiming();
		refill(f);
		state.ResumeTiming();
	}
	counters(state, m, JIFFIES);
}

void register_all()
{
	using fn = void (*)(benchmark::State &, const std::string &, std::size_t);
	const std::pair<const char *, fn> ops[] = {
		{"add", bench_add}, {"rearm", bench_rearm}, {"del", bench_del}, {"advance", bench_advance}};
	for (const auto &name : scheme_names())
		for (std::size_t n : {std::size_t{1000}, std::size_t{10000}, std::size_t{100000}, std::size_t{1000000}})
			for (const auto &[op, f] : ops) {
				std::string bench = std::string("schemes/") + op + "/" + name + "/" + std::to_string(n);
				auto *b = benchmark::RegisterBenchmark(bench.c_str(), f, name, n);
				b->Unit(benchmark::kMicrosecond);
				// O(n) schemes: each batch, or the untimed restore after
				// it, costs milliseconds; a fixed count keeps the sweep to
				// minutes. (wheel-overflow counts its overflow walks
				// without making them, as sorted-list does:
				// schemes/rearm/wheel-overflow/1000000 is the bench of it.)
				if ((name == "sorted-list" || name == "list") && n >= 10000)
					b->Iterations(n >= 1000000 ? 3 : 20);
				else
					b->MinTime(0.1);
			}
}

}  // namespace

int main(int argc, char **argv)
{
	register_all();
	benchmark::Initialize(&argc, argv);
	if (benchmark::ReportUnrecognizedArguments(argc, argv))
		return 1;
	benchmark::RunSpecifiedBenchmarks();
	benchmark::Shutdown();
	return 0;
}
