// The hrtimer model against a plain reference: per CPU and clock base a
// sorted array of (expires, softexpires, enqueue order), written here
// without trees, caches or reprogramming. Seeded random streams of starts
// (ABS in the timer's own clock, with ranges, pinned or aimed at the other
// CPU), cancels from either CPU, periodic timers that re-arm, and advances
// that deliver every device interrupt and the softirqs they raise, on two
// CPUs, for every kernel generation. After every operation:
//
// - hrtimer_check() holds on both CPUs;
// - every clock base holds exactly the reference's timers in the
//   reference's order (equal expiries in enqueue order);
// - try_to_cancel() returns 1 exactly when the reference holds the timer;
// - each interrupt runs exactly the timers the reference says are due, in
//   its order: base by base (the generation's order), from the earliest,
//   while softexpires <= now, stopping at the first that is not; each
//   softirq likewise for the soft bases;
// - nothing is left behind: after advancing to t, no queued timer had to
//   run by t (its expiry, or its start if later, at least the device's
//   minimum delta before t). A reprogram rule that skipped when it should not would
//   leave one here.
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "tests/support/hrtimer_fixture.h"

using namespace hrtest;
using kernel::timerqueue_head;
using kernel::timerqueue_node;

namespace {

constexpr ktime_t US = NSEC_PER_USEC;
constexpr unsigned NCPUS = 2;
constexpr int NTIMERS = 48;

struct ref_entry {
	ktime_t expires, softexpires;
	std::uint64_t seq;
	int id;
};

struct reference {
	std::vector<ref_entry> q[NCPUS][HRTIMER_MAX_CLOCK_BASES];
	std::uint64_t seq = 0;

	void insert(unsigned cpu, unsigned base, ktime_t expires, ktime_t soft, int id)
	{
		auto &v = q[cpu][base];
		ref_entry e{expires, soft, ++seq, id};
		auto at = std::upper_bound(v.begin(), v.end(), e, [](const ref_entry &a, const ref_entry &b) {
			return a.expires < b.expires || (a.expires == b.expires && a.seq < b.seq);
		});
		v.insert(at, e);
	}
	bool remove(int id)
	{
		for (auto &cpu : q)
			for (auto &v : cpu)
				for (auto it = v.begin(); it != v.end(); ++it)
					if (it->id == id) {
						v.erase(it);
						return true;
					}
		return false;
	}
};

struct differential {
	fixture f;
	reference ref;
	std::mt19937_64 rng;
	std::vector<ttimer *> timers;
	std::vector<ktime_t> started;	// when each timer was last (re)queued
	std::vector<int> clock_of;
	hrtimer_generation gen;

	differential(hrtimer_generation g, std::uint64_t seed)
		: f(NCPUS, g, true, device()), rng(seed), started(NTIMERS, 0), clock_of(NTIMERS), gen(g)
	{
		// Monotonic time is never negative (ktime_add_safe() saturates it).
		f.m.now = NSEC_PER_SEC;
		f.m.offs_real = 1700000000 * NSEC_PER_SEC;
		f.m.offs_boot = 5 * NSEC_PER_SEC;
		f.m.offs_tai = f.m.offs_real + 37 * NSEC_PER_SEC;
		for (unsigned c = 0; c < NCPUS; c++)
			hrtimer_cpu_base_init(f.cpu(c), &f.m, c, g, true, device());
		const int clocks4[] = {HR_CLOCK_MONOTONIC, HR_CLOCK_REALTIME, HR_CLOCK_BOOTTIME, HR_CLOCK_TAI};
		const unsigned nclocks = g == hrtimer_generation::two_bases ? 2 : 4;
		for (int id = 0; id < NTIMERS; id++) {
			clock_of[id] = clocks4[rng() % nclocks];
			unsigned mode = HRTIMER_MODE_ABS;
			if (g == hrtimer_generation::soft_bases && rng() % 3 == 0)
				mode |= HRTIMER_MODE_SOFT;
			ttimer &t = f.add(id, static_cast<unsigned>(rng() % NCPUS), clock_of[id], mode);
			if (rng() % 4 == 0)
				t.period = static_cast<ktime_t>(10 + rng() % 3000) * US;
			timers.push_back(&t);
		}
	}

	static clock_event_device device()
	{
		clock_event_device d;
		d.min_delta_ns = 2 * US;
		d.max_delta_ns = 40 * NSEC_PER_MSEC;	// clamps happen too
		return d;
	}

	ktime_t offset_of(const hrtimer *t) const { return t->base->offset; }

	void compare_queues()
	{
		for (unsigned c = 0; c < NCPUS; c++)
			for (unsigned b = 0; b < HRTIMER_MAX_CLOCK_BASES; b++) {
				const auto &v = ref.q[c][b];
				std::size_t i = 0;
				const timerqueue_head &head = f.cpu(c)->clock_base[b].active;
				for (timerqueue_node *n = kernel::timerqueue_getnext(&head); n; n = kernel::timerqueue_iterate_next(n), i++) {
					const hrtimer *t = reinterpret_cast<const hrtimer *>(reinterpret_cast<const char *>(n) -
											  offsetof(hrtimer, node));
					const int id = static_cast<ttimer *>(t->context)->id;
					CK_REQUIRE(i < v.size(), "cpu %u base %u holds more than the reference", c, b);
					CK_REQUIRE(v[i].id == id && v[i].expires == hrtimer_get_expires(t) &&
							   v[i].softexpires == hrtimer_get_softexpires(t),
						   "cpu %u base %u position %zu: timer %d, reference %d", c, b, i, id, v[i].id);
				}
				CK_REQUIRE(i == v.size(), "cpu %u base %u holds %zu, reference %zu", c, b, i, v.size());
			}
	}

	void start()
	{
		const int id = static_cast<int>(rng() % NTIMERS);
		ttimer &t = *timers[id];
		const unsigned from = static_cast<unsigned>(rng() % NCPUS);
		hrtimer_cpu_base *target = rng() % 3 == 0 ? f.cpu(static_cast<unsigned>(rng() % NCPUS)) : nullptr;
		unsigned mode = HRTIMER_MODE_ABS | (t.timer.is_soft ? HRTIMER_MODE_SOFT : 0u);
		if (rng() % 5 == 0)
			mode |= HRTIMER_MODE_PINNED;
		const ktime_t clock_now = hrtimer_cb_get_time(&t.timer);
		ktime_t tim = clock_now + static_cast<ktime_t>(rng() % 20000) * US - 1000 * US;
		if (rng() % 8 == 0)	// a few on the same expiry: ties
			tim = clock_now + 5000 * US;
		// No range on periodic timers: one wider than the period leaves
		// softexpires behind now after hrtimer_forward_now(), and the timer
		// runs again in the same pass, for ever (in the kernel too).
		const ktime_t delta = rng() % 2 && t.period == 0 ? static_cast<ktime_t>(rng() % 2000) * US : 0;
		ref.remove(id);
		hrtimer_start_range_ns(f.cpu(from), &t.timer, tim, delta, mode, target);
		ref.insert(t.timer.base->cpu_base->cpu, t.timer.base->index, tim + delta, tim, id);
		started[id] = f.m.now;
	}

	void cancel()
	{
		const int id = static_cast<int>(rng() % NTIMERS);
		const bool had = ref.remove(id);
		const int r = hrtimer_try_to_cancel(f.cpu(static_cast<unsigned>(rng() % NCPUS)), &timers[id]->timer);
		CK_REQUIRE(r == (had ? 1 : 0), "try_to_cancel(%d) = %d, reference held it: %d", id, r, had);
	}

	// What the reference runs at `now` on cpu `c` over `mask`'s bases, in
	// order; periodic timers re-queued as their callback forwards them.
	std::vector<int> expect_run(unsigned c, ktime_t now, unsigned mask)
	{
		std::vector<int> ran;
		const hrtimer_cpu_base *cb = f.cpu(c);
		const unsigned active = cb->active_bases & mask;
		for (unsigned i = 0; i < cb->nr_bases; i++) {
			const unsigned b = cb->order[i];
			if (!(active & (1u << b)))
				continue;
			const ktime_t basenow = now + cb->clock_base[b].offset;
			auto &v = ref.q[c][b];
			while (!v.empty() && v.front().softexpires <= basenow) {
				ref_entry e = v.front();
				v.erase(v.begin());
				ran.push_back(e.id);
				const ttimer &t = *timers[e.id];
				if (t.period > 0) {
					// hrtimer_forward_now(): whole periods past now.
					const ktime_t n = (basenow - e.expires) / t.period + 1;
					ref.insert(c, b, e.expires + n * t.period, e.softexpires + n * t.period, e.id);
					started[e.id] = now;
				}
			}
		}
		return ran;
	}

	void check_ran(std::size_t from, const std::vector<int> &want, unsigned c, const char *what)
	{
		CK_REQUIRE(f.runs.size() - from == want.size(), "%s on cpu %u ran %zu timers, reference %zu", what, c,
			   f.runs.size() - from, want.size());
		for (std::size_t i = 0; i < want.size(); i++)
			CK_REQUIRE(f.runs[from + i].id == want[i] && f.runs[from + i].cpu == c,
				   "%s on cpu %u: run %zu is timer %d, reference %d", what, c, i, f.runs[from + i].id,
				   want[i]);
	}

	void advance()
	{
		const ktime_t t = f.m.now + static_cast<ktime_t>(rng() % 3000) * US;
		unsigned storm = 0;
		for (int c; (c = f.next_firing(t)) >= 0;) {
			CK_REQUIRE(++storm < 10000, "an interrupt storm: 10000 interrupts within %lld ns",
				   (long long)(t - f.m.now));
			hrtimer_cpu_base *cb = f.cpu(static_cast<unsigned>(c));
			if (cb->dev.fires_at > f.m.now)
				f.m.now = cb->dev.fires_at;
			std::size_t from = f.runs.size();
			std::vector<int> want = expect_run(static_cast<unsigned>(c), f.m.now, HRTIMER_ACTIVE_HARD);
			hrtimer_interrupt(cb);
			check_ran(from, want, static_cast<unsigned>(c), "interrupt");
			if (cb->softirq_pending) {
				from = f.runs.size();
				want = expect_run(static_cast<unsigned>(c), f.m.now, HRTIMER_ACTIVE_SOFT);
				hrtimer_run_softirq(cb);
				check_ran(from, want, static_cast<unsigned>(c), "softirq");
			}
			f.check_all();
			compare_queues();
		}
		f.m.now = t;
		// Nothing the device should have woken for by t is still queued.
		for (unsigned c = 0; c < NCPUS; c++)
			for (unsigned b = 0; b < HRTIMER_MAX_CLOCK_BASES; b++)
				for (const ref_entry &e : ref.q[c][b]) {
					const ktime_t mono = e.expires - f.cpu(c)->clock_base[b].offset;
					// Any programming closer than the minimum delta fires that late.
					const ktime_t due = std::max(mono, started[e.id]) + device().min_delta_ns;
					CK_REQUIRE(due > t, "timer %d (cpu %u base %u) due at %lld still queued at %lld", e.id,
						   c, b, (long long)due, (long long)t);
				}
	}

	void run(unsigned steps)
	{
		for (unsigned s = 0; s < steps; s++) {
			const unsigned op = rng() % 10;
			if (op < 4)
				start();
			else if (op < 6)
				cancel();
			else
				advance();
			f.check_all();
			compare_queues();
		}
	}
};

void run_generation(hrtimer_generation gen)
{
	std::uint64_t interrupts = 0, runs = 0, softirqs = 0, skips = 0;
	for (std::uint64_t seed = 1; seed <= 20; seed++) {
		differential d(gen, seed * 7919 + static_cast<unsigned>(gen));
		d.run(3000);
		for (unsigned c = 0; c < NCPUS; c++) {
			interrupts += d.f.cpu(c)->nr_events;
			softirqs += d.f.cpu(c)->costs.softirq_runs;
			for (std::uint64_t k : d.f.cpu(c)->costs.skips)
				skips += k;
		}
		runs += d.f.runs.size();
	}
	// The streams must exercise what they claim to.
	ck_assert(interrupts > 1000);
	ck_assert(runs > 1000);
	ck_assert(skips > 100);
	if (gen == hrtimer_generation::soft_bases)
		ck_assert(softirqs > 100);
}

}  // namespace

START_TEST(against_reference_two_bases) { run_generation(hrtimer_generation::two_bases); }
END_TEST
START_TEST(against_reference_four_bases) { run_generation(hrtimer_generation::four_bases); }
END_TEST
START_TEST(against_reference_soft_bases) { run_generation(hrtimer_generation::soft_bases); }
END_TEST

int main()
{
	Suite *s = suite_create("hrtimer_differential");
	TCase *tc = tcase_create("differential");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, against_reference_two_bases);
	tcase_add_test(tc, against_reference_four_bases);
	tcase_add_test(tc, against_reference_soft_bases);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
