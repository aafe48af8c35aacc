// Idle stretches: every scheme skips the jiffies in which nothing fires or
// moves in one step (idle_ticks, empty_cascades), and a drain goes from one
// next_event() to the next. Both must give what stepping gives:
//
// - random workloads with gaps of up to 110000 jiffies, run in lockstep
//   through a scheme that skips and the same scheme forced to step
//   (scheme_options::stepping): the same results, clocks and pending
//   counts after every operation, the same expiries in the same order, and
//   at the end the same report figures (ticks, moves per tick, cascade
//   calls and moves per level, enqueues per level), costs and peak memory;
//   then a drain by next_event() against a drain jiffy by jiffy;
// - a leap of 2^32 jiffies and a drain of a timer 2^62 jiffies ahead take
//   a handful of observer calls (the work, counted), not billions.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "sim/scheme/per_cpu_scheme.h"
#include "sim/scheme/scheme.h"
#include "sim/trace/event.h"

#include "tests/support/check_main.h"

using namespace timersim;

namespace {

constexpr unsigned NCPUS = 3;
constexpr timer_id NTIMERS = 400;

struct expiry {
	timer_id t;
	unsigned cpu;
	jiffies_t jiffy;
	bool operator==(const expiry &o) const = default;
};

// The report's figures, as the replay's cost accounting makes them, and
// the number of calls it took to tell them (the work).
class totals : public scheme_observer {
public:
	unsigned advancing = 0;		// the base being advanced (moves belong to its tick)
	std::uint64_t ticks = 0, calls = 0;
	std::map<std::uint64_t, std::uint64_t> moves_per_tick;	// moves -> ticks
	std::map<unsigned, std::uint64_t> cascade_calls, moves, enqueues;
	std::vector<expiry> fired;		// this operation's
	std::uint64_t expiries = 0;
	jiffies_t last_expiry_on[NCPUS] = {};

	void enqueued(timer_id, unsigned level) override
	{
		calls++;
		enqueues[level]++;
	}
	void moved(timer_id, unsigned from_level) override
	{
		calls++;
		moves[from_level]++;
		tick_moves_[advancing]++;
	}
	void cascaded(unsigned level, std::uint32_t) override
	{
		calls++;
		cascade_calls[level]++;
	}
	void tick(unsigned cpu, jiffies_t) override
	{
		calls++;
		close(cpu);
		open_[cpu] = true;
		ticks++;
	}
	void expired(timer_id t, unsigned cpu, jiffies_t jiffy) override
	{
		calls++;
		fired.push_back({t, cpu, jiffy});
		expiries++;
		last_expiry_on[cpu] = std::max(last_expiry_on[cpu], jiffy);
	}
	void idle_ticks(unsigned cpu, jiffies_t, std::uint64_t count) override
	{
		calls++;
		CK_REQUIRE(count > 0, "idle_ticks of no ticks");
		close(cpu);
		moves_per_tick[0] += count;
		ticks += count;
	}
	void empty_cascades(unsigned level, std::uint64_t n) override
	{
		calls++;
		CK_REQUIRE(n > 0, "empty_cascades of no calls");
		cascade_calls[level] += n;
	}

	void finish()
	{
		for (unsigned cpu = 0; cpu < NCPUS; cpu++)
			close(cpu);
	}

private:
	void close(unsigned cpu)
	{
		if (open_[cpu])
			moves_per_tick[tick_moves_[cpu]]++;
		open_[cpu] = false;
		tick_moves_[cpu] = 0;
	}

	bool open_[NCPUS] = {};
	std::uint64_t tick_moves_[NCPUS] = {};
};

struct variant {
	const char *name;
	std::vector<std::pair<std::string, std::string>> params;
	unsigned word_bits = 64;
	bool base_small = false;
};

std::unique_ptr<reported_scheme> make(const variant &v, bool stepping)
{
	scheme_options opt;
	opt.hz = 250;
	opt.word_bits = v.word_bits;
	opt.base_small = v.base_small;
	opt.params = v.params;
	opt.stepping = stepping;
	return make_scheme(v.name, opt);
}

enum class op_kind { start, cancel, advance, gap, idle, wake };

struct op {
	op_kind kind;
	timer_id t = 0;
	unsigned cpu = 0;
	std::uint64_t value = 0;
	std::uint32_t flags = 0;
};

// Mostly short timeouts, some of minutes, a few of days (classic's tv5,
// v48's top levels, Kafka's overflow wheels, the overflow list).
std::uint64_t timeout(std::mt19937_64 &rng)
{
	static const std::uint64_t below[] = {300, 30000, 1u << 18, 1u << 20};
	unsigned r = rng() % 100;
	return rng() % below[r < 50 ? 0 : r < 85 ? 1 : r < 97 ? 2 : 3];
}

// Per mille: 45% starts, 15% cancels, short advances of one base, 0.3%
// gaps of up to 110000 jiffies on every base, idle and wake.
std::vector<op> workload(std::uint64_t seed, std::size_t n)
{
	static const std::pair<unsigned, op_kind> mix[] = {
		{450, op_kind::start}, {600, op_kind::cancel}, {987, op_kind::advance},
		{990, op_kind::gap},   {995, op_kind::idle},   {1000, op_kind::wake},
	};
	std::mt19937_64 rng(seed);
	std::vector<op> ops(n);
	for (op &o : ops) {
		unsigned r = rng() % 1000;
		o.kind = std::find_if(std::begin(mix), std::end(mix), [r](const auto &m) { return r < m.first; })->second;
		o.cpu = static_cast<unsigned>(rng() % NCPUS);
		o.t = static_cast<timer_id>(rng() % NTIMERS);
		if (o.kind == op_kind::start) {
			o.value = timeout(rng);
			o.flags = (rng() % 6 == 0 ? std::uint32_t{TF_DEFERRABLE} : 0u) |
				  (rng() % 3 == 0 ? std::uint32_t{TF_PINNED} : 0u);
		} else if (o.kind == op_kind::advance) {
			o.value = rng() % 4 == 0 ? rng() % 3000 : rng() % 40;
		} else if (o.kind == op_kind::gap) {
			o.value = 10000 + rng() % 100000;
		}
	}
	return ops;
}

int apply(scheme &s, totals &obs, const op &o)
{
	switch (o.kind) {
	case op_kind::start:
		return s.start(o.t, o.cpu, s.clock(o.cpu) + o.value, o.flags);
	case op_kind::cancel:
		return s.cancel(o.t);
	case op_kind::advance:
		obs.advancing = o.cpu;
		s.advance(o.cpu, s.clock(o.cpu) + o.value);
		return 2;
	case op_kind::gap: {
		jiffies_t to = s.clock(o.cpu) + o.value;
		for (unsigned cpu = 0; cpu < NCPUS; cpu++) {
			obs.advancing = cpu;
			s.advance(cpu, std::max(to, s.clock(cpu)));
		}
		return 2;
	}
	case op_kind::idle:
	case op_kind::wake:
		obs.advancing = o.cpu;
		s.set_idle(o.cpu, o.kind == op_kind::idle, s.clock(o.cpu));
		return 2;
	}
	return 2;
}

// The replay core's drain: every base awake, then each runs until it
// holds no timer. `stepping`: jiffy by jiffy; else from event to event.
void drain(scheme &s, totals &obs, bool stepping, jiffies_t limit)
{
	for (unsigned cpu = 0; cpu < NCPUS; cpu++)
		s.set_idle(cpu, false, s.clock(cpu));
	for (unsigned cpu = 0; cpu < NCPUS; cpu++) {
		obs.advancing = cpu;
		while (s.pending_on(cpu) && s.clock(cpu) <= limit)
			s.advance(cpu, stepping ? s.clock(cpu) : std::min(s.next_event(cpu), limit));
	}
}

void same_figures(const char *name, const reported_scheme &a, const totals &x, const reported_scheme &b,
		  const totals &y)
{
	CK_REQUIRE(x.ticks == y.ticks, "%s: %llu ticks skipping, %llu stepping", name,
		      (unsigned long long)x.ticks, (unsigned long long)y.ticks);
	CK_REQUIRE(x.moves_per_tick == y.moves_per_tick, "%s: moves per tick differ", name);
	CK_REQUIRE(x.cascade_calls == y.cascade_calls, "%s: cascade calls per level differ", name);
	CK_REQUIRE(x.moves == y.moves, "%s: moves per level differ", name);
	CK_REQUIRE(x.enqueues == y.enqueues, "%s: enqueues per level differ", name);
	CK_REQUIRE(x.expiries == y.expiries, "%s: expiries differ", name);
	const cost_counters &c = a.costs(), &d = b.costs();
	CK_REQUIRE(c.insertions == d.insertions && c.removals == d.removals && c.relinks == d.relinks &&
			      c.slot_visits == d.slot_visits && c.key_comparisons == d.key_comparisons,
		      "%s: costs differ: relinks %llu/%llu, slot visits %llu/%llu, comparisons %llu/%llu", name,
		      (unsigned long long)c.relinks, (unsigned long long)d.relinks,
		      (unsigned long long)c.slot_visits, (unsigned long long)d.slot_visits,
		      (unsigned long long)c.key_comparisons, (unsigned long long)d.key_comparisons);
	CK_REQUIRE(a.peak_memory_bytes() == b.peak_memory_bytes(), "%s: peak memory differs", name);
}

void invariants(const char *name, const reported_scheme &s, std::size_t i)
{
	auto *c = dynamic_cast<const per_cpu_scheme *>(&s);
	if (!c)
		return;
	std::string err = c->check();
	CK_REQUIRE(err.empty(), "%s op %zu: %s", name, i, err.c_str());
}

// A skipping and a stepping instance in lockstep.
void lockstep(const variant &v, std::uint64_t seed)
{
	auto skip = make(v, false), step = make(v, true);
	totals x, y;
	const jiffies_t start = v.word_bits == 32 ? 4294892296ull : 1000;
	skip->reset(NCPUS, start, &x);
	step->reset(NCPUS, start, &y);
	std::vector<op> ops = workload(seed, 12000);
	std::uint64_t stepped_calls = 0;

	for (std::size_t i = 0; i < ops.size(); i++) {
		int r1 = apply(*skip, x, ops[i]);
		int r2 = apply(*step, y, ops[i]);
		CK_REQUIRE(r1 == r2, "%s op %zu: %d skipping, %d stepping", v.name, i, r1, r2);
		CK_REQUIRE(x.fired == y.fired, "%s seed %llu op %zu: expiries differ (%zu vs %zu)", v.name,
			      (unsigned long long)seed, i, x.fired.size(), y.fired.size());
		x.fired.clear();
		y.fired.clear();
		for (unsigned cpu = 0; cpu < NCPUS; cpu++) {
			CK_REQUIRE(skip->clock(cpu) == step->clock(cpu), "%s op %zu: clock of cpu%u", v.name, i, cpu);
			CK_REQUIRE(skip->pending_on(cpu) == step->pending_on(cpu), "%s op %zu: pending on cpu%u",
				      v.name, i, cpu);
			CK_REQUIRE(skip->next_event(cpu) >= skip->clock(cpu), "%s op %zu: next_event before the clock",
				      v.name, i);
		}
		if (i % 1000 == 0)
			invariants(v.name, *skip, i);
	}
	stepped_calls = y.calls;
	drain(*skip, x, false, ~jiffies_t{0} >> 2);
	drain(*step, y, true, ~jiffies_t{0} >> 2);
	CK_REQUIRE(x.fired == y.fired, "%s: the drains' expiries differ (%zu vs %zu)", v.name, x.fired.size(),
		      y.fired.size());
	for (unsigned cpu = 0; cpu < NCPUS; cpu++) {
		CK_REQUIRE(skip->pending_on(cpu) == 0 && step->pending_on(cpu) == 0, "%s: cpu%u not drained",
			      v.name, cpu);
		CK_REQUIRE(skip->clock(cpu) == step->clock(cpu), "%s: drain ends at %llu, stepping at %llu", v.name,
			      (unsigned long long)skip->clock(cpu), (unsigned long long)step->clock(cpu));
	}
	invariants(v.name, *skip, ops.size());
	x.finish();
	y.finish();
	same_figures(v.name, *skip, x, *step, y);
	// The workload has gaps: what was stepped must have been skipped for
	// the test to mean anything (v48, Kafka and the heaps never step).
	CK_REQUIRE(x.expiries > 2000, "%s: only %llu expiries", v.name, (unsigned long long)x.expiries);
	std::fprintf(stderr, "%s: %llu ticks, %llu expiries; %llu observer calls skipping, %llu stepping\n", v.name,
		     (unsigned long long)x.ticks, (unsigned long long)x.expiries, (unsigned long long)x.calls,
		     (unsigned long long)stepped_calls);
}

const std::vector<variant> &variants()
{
	static const std::vector<variant> v = {
		{"classic", {}},
		{"classic", {{"order", "lifo"}}, 32},
		{"classic", {}, 64, true},
		{"v48", {}},
		{"v48", {{"tmigr", "off"}}, 32},
		{"hashed", {}},
		{"hashed", {{"ticks_per_wheel", "8"}, {"tick", "4"}}},
		{"kafka", {}},
		{"kafka", {{"wheel_size", "4"}, {"tick", "3"}}},
		{"heap", {}},
		{"heap4", {}},
		{"sorted-list", {}},
		{"list", {}},
		{"wheel-overflow", {}},
		{"wheel-overflow", {{"slots", "16"}}},
	};
	return v;
}

}  // namespace

START_TEST(skipping_matches_stepping)
{
	const variant &v = variants()[_i];
	lockstep(v, 100 + _i);
}
END_TEST

// A leap of 2^32 jiffies over a few timers, some of them further still.
START_TEST(leap_of_2_32_is_cheap)
{
	const variant &v = variants()[_i];
	auto s = make(v, false);
	totals obs;
	const jiffies_t start = 4294892296ull;
	s->reset(NCPUS, start, &obs);
	for (timer_id t = 0; t < 30; t++)
		s->start(t, t % NCPUS, start + (jiffies_t{1} << (t % 31)) + t, t % 5 == 0 ? std::uint32_t{TF_DEFERRABLE} : 0u);
	jiffies_t to = start + (jiffies_t{1} << 32);
	for (unsigned cpu = 0; cpu < NCPUS; cpu++) {
		obs.advancing = cpu;
		s->advance(cpu, to);
		ck_assert_uint_eq(s->clock(cpu), to + 1);
	}
	// Every timer was due within the leap (a 32-bit wheel's timers are
	// nearer still); the work is a few calls per timer and per level.
	std::uint64_t left = 0;
	for (unsigned cpu = 0; cpu < NCPUS; cpu++)
		left += s->pending_on(cpu);
	CK_REQUIRE(left == 0 || v.word_bits == 32, "%s: %llu timers left", v.name, (unsigned long long)left);
	CK_REQUIRE(obs.calls < 20000, "%s: %llu observer calls for a leap of 2^32", v.name,
		      (unsigned long long)obs.calls);
	// A wheel that ticks every jiffy still counts every one of them.
	if (std::string(v.name) == "classic")
		ck_assert_uint_eq(obs.ticks, NCPUS * ((jiffies_t{1} << 32) + 1));
}
END_TEST

// --drain of a timer 2^62 jiffies ahead (and a few near ones) from event
// to event: it fires at its jiffy (v48: at the wheel's capacity), and the
// base stops there.
START_TEST(drain_to_2_62_is_cheap)
{
	const variant &v = variants()[_i];
	if (v.word_bits == 32)
		return;	// a 32-bit wheel cannot hold such a timer
	// classic re-clamps a timer beyond MAX_TVAL at each pass of its tv5
	// slot (every 2^32 jiffies, 2^22 with CONFIG_BASE_SMALL): a move each
	// time, which the report counts one by one. Its drain goes 2^12 such
	// passes ahead.
	const bool classic = std::string(v.name) == "classic";
	const unsigned bits = classic ? (v.base_small ? 22 : 32) + 12 : 62;
	const jiffies_t far = jiffies_t{1} << bits;
	auto s = make(v, false);
	totals obs;
	const jiffies_t start = 1000;
	s->reset(NCPUS, start, &obs);
	s->start(1, 0, start + far, 0);
	s->start(2, 0, start + 10, 0);
	s->start(3, 1, start + 100000, TF_DEFERRABLE);
	drain(*s, obs, false, ~jiffies_t{0} >> 1);
	for (unsigned cpu = 0; cpu < NCPUS; cpu++)
		ck_assert_uint_eq(s->pending_on(cpu), 0);
	ck_assert_uint_eq(obs.expiries, 3);
	// The drain stops in the jiffy of the base's last expiry: the far
	// timer's (exact schemes: its own jiffy).
	ck_assert_uint_eq(s->clock(0), obs.last_expiry_on[0] + 1);
	if (std::string(v.name) != "v48" && (v.params.empty() || std::string(v.name) == "wheel-overflow"))
		ck_assert_uint_eq(obs.last_expiry_on[0], start + far);
	else
		CK_REQUIRE(obs.last_expiry_on[0] > start + (jiffies_t{1} << 29), "%s: the far timer fired at %llu",
			      v.name, (unsigned long long)obs.last_expiry_on[0]);
	std::uint64_t moves = 0;
	for (const auto &[level, n] : obs.moves)
		moves += n;
	// Each move of classic's is a busy jiffy among idle ones: its tick,
	// cascades, the move, and the idle stretch before it.
	CK_REQUIRE(obs.calls < 1000 + 16 * moves, "%s: %llu observer calls (%llu moves) for a drain to 2^%u",
		      v.name, (unsigned long long)obs.calls, (unsigned long long)moves, bits);
	// A pass every 2^32 - 2^26 jiffies (2^22 - 2^18): 4096 * 64/63 (16/15), give or take the first and last.
	if (classic)
		CK_REQUIRE(moves >= 4096 && moves <= 4104u + 4096u / (v.base_small ? 15u : 63u), "classic: %llu moves",
			      (unsigned long long)moves);
}
END_TEST

int main()
{
	Suite *s = suite_create("schemes_skipping");
	TCase *tc = tcase_create("skipping");
	tcase_set_timeout(tc, 300);
	int n = static_cast<int>(variants().size());
	tcase_add_loop_test(tc, skipping_matches_stepping, 0, n);
	tcase_add_loop_test(tc, leap_of_2_32_is_cheap, 0, n);
	tcase_add_loop_test(tc, drain_to_2_62_is_cheap, 0, n);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
