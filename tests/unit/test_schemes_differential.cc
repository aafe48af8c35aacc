// Every exact scheme against `classic`, in lockstep over random workloads
// (fixed seeds, >= 200k operations each): starts, re-arms, cancels and
// advances over random spans, long jumps included, on three CPUs with
// migration. After each operation both must agree on its result, on the
// timers pending on each base, and on what expired: the same (timer, cpu,
// jiffy) set for each operation. Within one jiffy the order may differ
// legitimately (classic runs a slot FIFO, heaps by start order, Netty by
// bucket position), so each operation's expiries are compared as sorted
// sets. Every 500 operations: pending(t) for every timer, and the scheme's
// own invariant checker.
//
// v48 is not exact: it must never fire a timer early, and never later than
// its level's granularity (the bucket's rounded-up expiry), unless the
// timer was armed already expired (then in the next jiffy processed).
// Deferrable timers on an idle base wait for the wake: checked with idle
// periods, never early and fired in the end. Both with 32-bit jiffies too
// (starting 75000 jiffies before the wrap).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "sim/scheme/per_cpu_scheme.h"
#include "sim/scheme/scheme.h"
#include "sim/trace/event.h"

// After the C++ headers: check.h defines macros they would trip on.
#include "tests/support/check_main.h"

using namespace timersim;

namespace {

constexpr unsigned NCPUS = 3;
constexpr timer_id NTIMERS = 3000;
constexpr std::size_t NOPS = 220000;

struct expiry {
	timer_id t;
	unsigned cpu;
	jiffies_t jiffy;
	bool operator<(const expiry &o) const
	{
		return std::tie(cpu, jiffy, t) < std::tie(o.cpu, o.jiffy, o.t);
	}
	bool operator==(const expiry &o) const = default;
};

// Records what one operation made expire, and the level of each enqueue.
class recorder : public scheme_observer {
public:
	std::vector<expiry> fired;
	std::vector<unsigned> level = std::vector<unsigned>(NTIMERS, 0);
	std::vector<bool> enqueued_now = std::vector<bool>(NTIMERS, false);
	std::uint64_t ticks = 0, moves = 0;

	void enqueued(timer_id t, unsigned lvl) override
	{
		level[t] = lvl;
		enqueued_now[t] = true;
	}
	void moved(timer_id, unsigned) override { moves++; }
	void cascaded(unsigned, std::uint32_t) override {}
	void tick(unsigned, jiffies_t) override { ticks++; }
	void expired(timer_id t, unsigned cpu, jiffies_t jiffy) override { fired.push_back({t, cpu, jiffy}); }
	void idle_ticks(unsigned, jiffies_t, std::uint64_t count) override { ticks += count; }
	void empty_cascades(unsigned, std::uint64_t) override {}
};

enum class op_kind { start, cancel, advance, jump, idle, wake };

struct op {
	op_kind kind;
	timer_id t = 0;
	unsigned cpu = 0;
	std::uint64_t value = 0;	// start: timeout (may be "past"); advance: span
	std::uint32_t flags = 0;
	bool past = false;
};

// A realistic timeout mix: most short (network, I/O), some seconds to
// minutes, a few hours; a few already expired.
std::uint64_t timeout(std::mt19937_64 &rng)
{
	unsigned r = rng() % 1000;
	if (r < 400)
		return rng() % 64;
	if (r < 700)
		return 64 + rng() % 4000;
	if (r < 900)
		return 4096 + rng() % 300000;
	if (r < 990)
		return 300000 + rng() % (1u << 24);
	return (1u << 24) + rng() % (1u << 26);
}

std::vector<op> workload(std::uint64_t seed, bool with_idle)
{
	std::mt19937_64 rng(seed);
	std::vector<op> ops;
	ops.reserve(NOPS);
	while (ops.size() < NOPS) {
		unsigned r = rng() % 10000;
		op o;
		o.cpu = static_cast<unsigned>(rng() % NCPUS);
		o.t = static_cast<timer_id>(rng() % NTIMERS);
		if (r < 5000) {
			o.kind = op_kind::start;
			o.value = timeout(rng);
			o.past = rng() % 40 == 0;
			o.flags = (rng() % 8 == 0 ? std::uint32_t{TF_DEFERRABLE} : 0u) |
				  (rng() % 3 == 0 ? std::uint32_t{TF_PINNED} : 0u);
		} else if (r < 6500) {
			o.kind = op_kind::cancel;
		} else if (r < 9985) {
			o.kind = op_kind::advance;
			o.value = rng() % 8 == 0 ? rng() % 2000 : rng() % 24;
		} else if (r < 9990) {
			o.kind = op_kind::jump;
			o.value = 10000 + rng() % 1000000;
		} else if (with_idle) {
			o.kind = r < 9995 ? op_kind::idle : op_kind::wake;
		} else {
			o.kind = op_kind::advance;
			o.value = 1;
		}
		ops.push_back(o);
	}
	return ops;
}

// Applies one operation; returns the start/cancel result (0/1), 2 otherwise.
// With `sync`, an advance moves every base to the same jiffy, as real time
// does (v48's global timers are expired by whichever CPU gets there).
int apply(scheme &s, const op &o, jiffies_t &expires_out, bool sync = false)
{
	switch (o.kind) {
	case op_kind::start: {
		jiffies_t c = s.clock(o.cpu);
		jiffies_t e = o.past ? (c > o.value ? c - o.value % 50 - 1 : 0) : c + o.value;
		expires_out = e;
		return s.start(o.t, o.cpu, e, o.flags);
	}
	case op_kind::cancel:
		return s.cancel(o.t);
	case op_kind::advance:
		if (sync) {
			jiffies_t to = 0;
			for (unsigned cpu = 0; cpu < NCPUS; cpu++)
				to = std::max(to, s.clock(cpu) + o.value);
			for (unsigned cpu = 0; cpu < NCPUS; cpu++)
				s.advance(cpu, to);
			return 2;
		}
		s.advance(o.cpu, s.clock(o.cpu) + o.value);
		return 2;
	case op_kind::jump: {
		jiffies_t to = s.clock(o.cpu) + o.value;
		for (unsigned cpu = 0; cpu < NCPUS; cpu++)
			s.advance(cpu, std::max(to, s.clock(cpu)));
		return 2;
	}
	case op_kind::idle:
	case op_kind::wake:
		s.set_idle(o.cpu, o.kind == op_kind::idle, s.clock(o.cpu));
		return 2;
	}
	return 2;
}

unsigned word_bits = 64;	// of the schemes made next (classic and v48 narrow)

std::unique_ptr<reported_scheme> make(const std::string &name, std::vector<std::pair<std::string, std::string>> params)
{
	scheme_options opt;
	opt.hz = 250;
	opt.word_bits = word_bits;
	opt.params = std::move(params);
	return make_scheme(name, opt);
}

const char *kind_name(op_kind k)
{
	switch (k) {
	case op_kind::start: return "start";
	case op_kind::cancel: return "cancel";
	case op_kind::advance: return "advance";
	case op_kind::jump: return "jump";
	case op_kind::idle: return "idle";
	case op_kind::wake: return "wake";
	}
	return "?";
}

// classic and `name` in lockstep; the first difference fails the test.
void differential(const std::string &name, std::vector<std::pair<std::string, std::string>> params,
		  std::uint64_t seed)
{
	auto ref = make("classic", {});
	auto sut = make(name, std::move(params));
	recorder ref_obs, sut_obs;
	const jiffies_t start = 4294892296ull;	// INITIAL_JIFFIES at HZ 250
	ref->reset(NCPUS, start, &ref_obs);
	sut->reset(NCPUS, start, &sut_obs);
	auto *checked = dynamic_cast<per_cpu_scheme *>(sut.get());
	std::vector<op> ops = workload(seed, false);
	std::uint64_t expiries = 0;

	for (std::size_t i = 0; i < ops.size(); i++) {
		const op &o = ops[i];
		jiffies_t e1 = 0, e2 = 0;
		int r1 = apply(*ref, o, e1);
		int r2 = apply(*sut, o, e2);
		CK_REQUIRE(r1 == r2, "%s seed %llu op %zu (%s t%u cpu%u): classic returned %d, %s %d",
			      name.c_str(), (unsigned long long)seed, i, kind_name(o.kind), o.t, o.cpu, r1,
			      name.c_str(), r2);
		std::sort(ref_obs.fired.begin(), ref_obs.fired.end());
		std::sort(sut_obs.fired.begin(), sut_obs.fired.end());
		if (ref_obs.fired != sut_obs.fired) {
			std::size_t k = 0;
			while (k < ref_obs.fired.size() && k < sut_obs.fired.size() &&
			       ref_obs.fired[k] == sut_obs.fired[k])
				k++;
			const expiry *a = k < ref_obs.fired.size() ? &ref_obs.fired[k] : nullptr;
			const expiry *b = k < sut_obs.fired.size() ? &sut_obs.fired[k] : nullptr;
			ck_abort_msg("%s seed %llu op %zu (%s cpu%u): expiries differ at #%zu: classic %s t%u cpu%u "
				     "jiffy %llu, %s %s t%u cpu%u jiffy %llu (%zu vs %zu)",
				     name.c_str(), (unsigned long long)seed, i, kind_name(o.kind), o.cpu, k,
				     a ? "" : "(none)", a ? a->t : 0, a ? a->cpu : 0,
				     (unsigned long long)(a ? a->jiffy : 0), name.c_str(), b ? "" : "(none)",
				     b ? b->t : 0, b ? b->cpu : 0, (unsigned long long)(b ? b->jiffy : 0),
				     ref_obs.fired.size(), sut_obs.fired.size());
		}
		expiries += ref_obs.fired.size();
		ref_obs.fired.clear();
		sut_obs.fired.clear();
		for (unsigned cpu = 0; cpu < NCPUS; cpu++) {
			CK_REQUIRE(ref->clock(cpu) == sut->clock(cpu), "%s op %zu: clock of cpu%u differs",
				      name.c_str(), i, cpu);
			CK_REQUIRE(ref->pending_on(cpu) == sut->pending_on(cpu),
				      "%s seed %llu op %zu (%s): cpu%u pending %llu in classic, %llu in %s",
				      name.c_str(), (unsigned long long)seed, i, kind_name(o.kind), cpu,
				      (unsigned long long)ref->pending_on(cpu),
				      (unsigned long long)sut->pending_on(cpu), name.c_str());
		}
		if (i % 500 == 0 || i + 1 == ops.size()) {
			for (timer_id t = 0; t < NTIMERS; t++)
				CK_REQUIRE(ref->pending(t) == sut->pending(t), "%s op %zu: pending(t%u) differs",
					      name.c_str(), i, t);
			if (checked) {
				std::string err = checked->check();
				CK_REQUIRE(err.empty(), "%s seed %llu op %zu: invariant: %s", name.c_str(),
					      (unsigned long long)seed, i, err.c_str());
			}
		}
	}
	// The workload must have exercised expiry and the schemes must count.
	CK_REQUIRE(expiries > 20000, "%s: only %llu expiries", name.c_str(), (unsigned long long)expiries);
	ck_assert(sut->costs().insertions > 0 && sut->costs().removals > 0);
	std::fprintf(stderr, "%s seed %llu: %zu ops, %llu expiries agree with classic\n", name.c_str(),
		     (unsigned long long)seed, ops.size(), (unsigned long long)expiries);
}

}  // namespace

START_TEST(heap_matches_classic) { differential("heap", {}, 1); }
END_TEST
START_TEST(heap4_matches_classic) { differential("heap4", {}, 2); }
END_TEST
START_TEST(sorted_list_matches_classic) { differential("sorted-list", {}, 3); }
END_TEST
START_TEST(list_matches_classic) { differential("list", {}, 4); }
END_TEST
START_TEST(wheel_overflow_matches_classic) { differential("wheel-overflow", {}, 5); }
END_TEST
START_TEST(wheel_overflow_small_matches_classic) { differential("wheel-overflow", {{"slots", "16"}}, 6); }
END_TEST
START_TEST(kafka_matches_classic) { differential("kafka", {}, 7); }
END_TEST
START_TEST(kafka_small_matches_classic) { differential("kafka", {{"wheel_size", "4"}}, 8); }
END_TEST
START_TEST(hashed_matches_classic) { differential("hashed", {}, 9); }
END_TEST
START_TEST(hashed_small_matches_classic) { differential("hashed", {{"ticks_per_wheel", "8"}}, 10); }
END_TEST

namespace {

// v48 over the same kind of workload: bounds instead of equality.
void v48_bounds(std::vector<std::pair<std::string, std::string>> params, bool with_idle, bool sync,
		std::uint64_t seed)
{
	auto sut = make("v48", params);
	recorder obs;
	const jiffies_t start = 4294892296ull;
	sut->reset(NCPUS, start, &obs);
	std::vector<op> ops = workload(seed, with_idle);

	struct armed {
		jiffies_t expires = 0, at = 0, earliest = 0;
		unsigned cpu = 0;
		std::uint32_t flags = 0;
	};
	std::vector<armed> arm(NTIMERS);
	std::vector<bool> pending(NTIMERS, false);
	std::uint64_t fired = 0, late_by_gran = 0;

	for (std::size_t i = 0; i < ops.size(); i++) {
		const op &o = ops[i];
		jiffies_t e = 0;
		std::fill(obs.enqueued_now.begin(), obs.enqueued_now.end(), false);
		int r = apply(*sut, o, e, sync);
		if (o.kind == op_kind::start) {
			CK_REQUIRE(r == static_cast<int>(pending[o.t]), "v48 op %zu: start returned %d", i, r);
			armed &a = arm[o.t];
			a.expires = e;
			a.cpu = o.cpu;
			a.flags = o.flags;
			if (obs.enqueued_now[o.t] || !pending[o.t])
				a.at = sut->clock(o.cpu);
			else	// same-bucket shortcut: still in the bucket of the first arming
				CK_REQUIRE(obs.level[o.t] >= 1, "v48 op %zu: shortcut without a level", i);
			pending[o.t] = true;
		} else if (o.kind == op_kind::cancel) {
			CK_REQUIRE(r == static_cast<int>(pending[o.t]), "v48 op %zu: cancel returned %d", i, r);
			pending[o.t] = false;
		}
		for (const expiry &x : obs.fired) {
			const armed &a = arm[x.t];
			CK_REQUIRE(pending[x.t], "v48 op %zu: t%u fired while not pending", i, x.t);
			CK_REQUIRE(x.cpu == a.cpu, "v48 op %zu: t%u fired on cpu%u, armed on cpu%u", i, x.t, x.cpu,
				      a.cpu);
			jiffies_t earliest = std::max(a.expires, a.at);
			CK_REQUIRE(x.jiffy >= earliest, "v48 op %zu: t%u fired early: jiffy %llu, expires %llu",
				      i, x.t, (unsigned long long)x.jiffy, (unsigned long long)a.expires);
			unsigned shift = 3 * (obs.level[x.t] - 1);
			jiffies_t rounded = ((a.expires >> shift) + 1) << shift;
			jiffies_t latest = std::max(rounded, a.at);
			// A deferrable timer on a base that was idle waits for a wake.
			if (!with_idle || !(a.flags & TF_DEFERRABLE))
				CK_REQUIRE(x.jiffy <= latest,
					      "v48 op %zu: t%u fired late: jiffy %llu, expires %llu level %u bound %llu",
					      i, x.t, (unsigned long long)x.jiffy, (unsigned long long)a.expires,
					      obs.level[x.t], (unsigned long long)latest);
			late_by_gran += x.jiffy > earliest;
			pending[x.t] = false;
			fired++;
		}
		obs.fired.clear();
		if (i % 500 == 0) {
			std::uint64_t n = 0;
			for (timer_id t = 0; t < NTIMERS; t++) {
				CK_REQUIRE(sut->pending(t) == pending[t], "v48 op %zu: pending(t%u)", i, t);
				n += pending[t];
			}
			std::uint64_t on = 0;
			for (unsigned cpu = 0; cpu < NCPUS; cpu++)
				on += sut->pending_on(cpu);
			CK_REQUIRE(on == n, "v48 op %zu: %llu pending, bases count %llu", i,
				      (unsigned long long)n, (unsigned long long)on);
		}
	}
	// Drain: everything fires, in the end.
	for (unsigned cpu = 0; cpu < NCPUS; cpu++)
		sut->set_idle(cpu, false, sut->clock(cpu));
	jiffies_t end = 0;
	for (unsigned cpu = 0; cpu < NCPUS; cpu++)
		end = std::max(end, sut->clock(cpu));
	for (unsigned cpu = 0; cpu < NCPUS; cpu++)
		sut->advance(cpu, end + (1ull << 31));
	std::uint64_t left = 0;
	for (timer_id t = 0; t < NTIMERS; t++)
		left += sut->pending(t);
	for (unsigned cpu = 0; cpu < NCPUS; cpu++)
		CK_REQUIRE(sut->pending_on(cpu) == 0, "v48: cpu%u still holds %llu timers after draining (%llu pending)",
			      cpu, (unsigned long long)sut->pending_on(cpu), (unsigned long long)left);
	CK_REQUIRE(fired > 20000 && late_by_gran > 1000, "v48: %llu fired, %llu after their expiry",
		      (unsigned long long)fired, (unsigned long long)late_by_gran);
	std::fprintf(stderr, "v48 seed %llu: %zu ops, %llu expiries within bounds\n", (unsigned long long)seed,
		     ops.size(), (unsigned long long)fired);
}

}  // namespace

// A 32-bit classic wheel (jiffies wrap 75000 jiffies after the start)
// against the 64-bit timeline of the heap.
START_TEST(heap_matches_classic_32bit)
{
	word_bits = 32;
	differential("heap", {}, 14);
	word_bits = 64;
}
END_TEST

START_TEST(v48_within_granularity_32bit)
{
	word_bits = 32;
	v48_bounds({{"tmigr", "off"}, {"idle", "off"}}, false, false, 15);
	word_bits = 64;
}
END_TEST

START_TEST(v48_within_granularity_one_base) { v48_bounds({{"tmigr", "off"}, {"idle", "off"}}, false, false, 11); }
END_TEST
START_TEST(v48_within_granularity_tmigr) { v48_bounds({{"idle", "off"}}, false, true, 12); }
END_TEST
START_TEST(v48_deferrable_wait_for_wake) { v48_bounds({{"tmigr", "off"}}, true, false, 13); }
END_TEST

int main()
{
	Suite *s = suite_create("schemes_differential");
	TCase *tc = tcase_create("lockstep");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, heap_matches_classic);
	tcase_add_test(tc, heap4_matches_classic);
	tcase_add_test(tc, sorted_list_matches_classic);
	tcase_add_test(tc, list_matches_classic);
	tcase_add_test(tc, wheel_overflow_matches_classic);
	tcase_add_test(tc, wheel_overflow_small_matches_classic);
	tcase_add_test(tc, kafka_matches_classic);
	tcase_add_test(tc, kafka_small_matches_classic);
	tcase_add_test(tc, hashed_matches_classic);
	tcase_add_test(tc, hashed_small_matches_classic);
	tcase_add_test(tc, heap_matches_classic_32bit);
	tcase_add_test(tc, v48_within_granularity_32bit);
	tcase_add_test(tc, v48_within_granularity_one_base);
	tcase_add_test(tc, v48_within_granularity_tmigr);
	tcase_add_test(tc, v48_deferrable_wait_for_wake);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
