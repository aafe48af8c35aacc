// Calibration of `compare --estimate`: nanoseconds per cost unit for each
// scheme, on this machine (`make calibrate` turns this benchmark's JSON
// into build/calibration.json with scripts/calibrate.py).
//
//   calibrate/SCHEME/WORKLOAD   one generated workload through the scheme
//
// Each workload is generated once (sim/gen, fixed seed, HZ 250, 2 CPUs,
// without recorded expiries) and turned into the scheme calls a replay
// makes: before each start or cancel at jiffy k the timer's base processes
// every jiffy before k (every jiffy up to k for what a callback does in the
// softirq), and the scheme fires due timers itself. The timed loop resets
// the scheme and makes all those calls; the counter `units` is the cost
// units it counted (insertions + removals + relinks + slot visits + key
// comparisons) per run, so CPU time / units is the scheme's ns per unit.
// The workloads span what the estimate is used on: a webserver mix,
// conntrack-like guards, periodic timers, one-shot timeouts, and the
// adversarial cascade.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/gen/generator.h"
#include "sim/scheme/scheme.h"

using namespace timersim;

namespace {

struct workload_def {
	const char *name;
	const char *mixture;
};

const workload_def workloads[] = {
	{"webserver", "networking:rate=1500;lognormal:rate=400,median=50ms;periodic:timers=64,period=250ms"},
	{"guards", "guards:timers=5000,min=1h,max=5d,refresh=0.5,life=30s"},
	{"periodic", "periodic:timers=2000,period=100ms,jitter=0.1"},
	{"oneshot", "exponential:rate=4000,mean=300ms,cancel=0.5"},
	{"adversarial", "adversarial:timers=4000,level=2,cancel=0.5"},
};

constexpr unsigned cpus = 2;

struct op {
	bool start;
	unsigned cpu;
	timer_id id;
	jiffies_t advance_to;	// the base processes every jiffy up to this one first
	jiffies_t expires;
};

struct ops_of {
	std::vector<op> ops;
	jiffies_t first = 0, last = 0;
};

const ops_of &build(const workload_def &w)
{
	static std::unordered_map<std::string, ops_of> cache;
	auto it = cache.find(w.name);
	if (it != cache.end())
		return it->second;
	gen::gen_options o;
	o.workloads = gen::parse_mixture(w.mixture);
	o.hz = 250;
	o.cpus = cpus;
	o.duration_ns = 5'000'000'000;
	o.seed = 1;
	o.expiries = false;
	gen::generator g(o);
	ops_of out;
	std::unordered_map<std::uint64_t, timer_id> ids;
	std::vector<gen::gen_event> buf;
	out.first = g.the_machine().start_jiffies();
	while (g.step(buf)) {
		jiffies_t k = g.the_machine().jiffies();
		for (const gen::gen_event &ev : buf) {
			if (ev.kind != event_kind::timer_start && ev.kind != event_kind::timer_cancel)
				continue;
			auto [id, fresh] = ids.try_emplace(ev.timer, static_cast<timer_id>(ids.size()));
			(void)fresh;
			out.ops.push_back({ev.kind == event_kind::timer_start, ev.cpu, id->second,
					   ev.softirq ? k : k - 1, ev.expires});
		}
		buf.clear();
		out.last = k;
	}
	return cache.emplace(w.name, std::move(out)).first->second;
}

// Hears what the replay's accounting hears, and does nothing with it: like
// the replay, it takes no per-enqueue call.
class quiet final : public scheme_observer {
public:
	bool wants_enqueues() const override { return false; }
	void moved(timer_id, unsigned) override {}
	void cascaded(unsigned, std::uint32_t) override {}
	void tick(unsigned, jiffies_t) override {}
	void expired(timer_id, unsigned, jiffies_t) override {}
	void idle_ticks(unsigned, jiffies_t, std::uint64_t) override {}
	void empty_cascades(unsigned, std::uint64_t) override {}
};

std::uint64_t units_of(const scheme_reporting &s)
{
	const cost_counters &c = s.costs();
	return c.insertions + c.removals + c.relinks + c.slot_visits + c.key_comparisons;
}

void run(benchmark::State &state, const std::string &name, const workload_def &w)
{
	const ops_of &ops = build(w);
	scheme_options so;
	so.hz = 250;
	std::unique_ptr<reported_scheme> s = make_scheme(name, so);
	quiet obs;
	std::uint64_t units = 0;
	for (auto _ : state) {
		s->reset(cpus, ops.first, &obs);
		for (const op &o : ops.ops) {
			if (o.advance_to >= ops.first)
				s->advance(o.cpu, o.advance_to);
			if (o.start)
				s->start(o.id, o.cpu, o.expires, 0);
			else
				s->cancel(o.id);
		}
		for (unsigned c = 0; c < cpus; c++)
			s->advance(c, ops.last);
		units = units_of(*s);
		benchmark::DoNotOptimize(units);
	}
	state.counters["units"] = double(units);
	state.counters["ops"] = double(ops.ops.size());
	state.counters["ns_per_unit"] = benchmark::Counter(double(units), benchmark::Counter::kIsIterationInvariantRate |
									benchmark::Counter::kInvert);
}

const bool registered = [] {
	for (const std::string &name : scheme_names())
		for (const workload_def &w : workloads)
			benchmark::RegisterBenchmark(("calibrate/" + name + "/" + w.name).c_str(),
						     [name, &w](benchmark::State &st) { run(st, name, w); })
				->Unit(benchmark::kMillisecond)
				->MeasureProcessCPUTime()
				->MinTime(0.5);
	return true;
}();

}  // namespace

BENCHMARK_MAIN();
