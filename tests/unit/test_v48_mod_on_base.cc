// kernel::v48::mod_timer_on_base(), the re-arm of a timer that stays on its
// base, against __mod_timer() (mod_timer()) itself: two copies of the same
// two CPUs run the same random operations, one with mod_timer() only, the
// other with mod_timer_on_base() wherever a pending timer's base is the one
// base_for() picks on the calling CPU. After every operation both copies
// must be the same wheel: every timer's pending state, bucket, expires and
// base; every base's clk, next_expiry and flags, pending bits and the order
// of every bucket; the same enqueues, and mod_timer_on_base() returning
// true exactly when mod_timer() enqueued. Both depths, 64- and 32-bit
// jiffies near the 32-bit wrap.
#include <cstdint>
#include <random>
#include <vector>

#include "kernel/v48_check.h"
#include "kernel/v48_wheel.h"

#include "tests/support/check_main.h"

using namespace kernel::v48;

namespace {

template <class Timer>
struct enqueue_counter {
	unsigned long enqueues = 0;
	template <class Word> void enqueued(const Timer &, unsigned, Word) { enqueues++; }
	void visited(unsigned) {}
	void compared(unsigned) {}
	template <class Word> void collecting(Word, Word) {}
	template <class Word> void expiring(const Timer &, Word) {}
};

template <class Config>
struct machine {
	cpu_bases<Config> cpu[2];
	std::vector<timer_list<Config>> timers;

	void init(typename Config::word start, unsigned n)
	{
		for (unsigned c = 0; c < 2; c++)
			init_cpu_bases(cpu[c], c, start);
		timers.resize(n);
		for (unsigned i = 0; i < n; i++)
			init_timer(&timers[i], i,
				   (i % 3 == 0 ? unsigned{TIMER_PINNED} : 0u) | (i % 7 == 0 ? unsigned{TIMER_DEFERRABLE} : 0u));
	}
	unsigned long enqueues() const
	{
		unsigned long n = 0;
		for (auto &c : cpu)
			for (auto &b : c.base)
				n += b.observer.enqueues;
		return n;
	}
	// Where a timer is, as an index that means the same in both copies.
	int base_of(const timer_list<Config> &t) const
	{
		for (unsigned c = 0; c < 2; c++)
			for (unsigned b = 0; b < NR_BASES; b++)
				if (t.base == &cpu[c].base[b])
					return static_cast<int>(c * NR_BASES + b);
		return -1;
	}
	long timer_index(const hlist_node *n) const { return static_cast<long>(timer_of<Config>(const_cast<hlist_node *>(n)) - timers.data()); }
};

// Whether both copies are the same wheel (one assertion per operation:
// each of Check's is a write to its log).
template <class Config>
bool same_wheel(const machine<Config> &a, const machine<Config> &b)
{
	for (std::size_t i = 0; i < a.timers.size(); i++) {
		const auto &x = a.timers[i], &y = b.timers[i];
		if (timer_pending(&x) != timer_pending(&y) || x.expires != y.expires || a.base_of(x) != b.base_of(y) ||
		    (timer_pending(&x) && x.idx != y.idx))
			return false;
	}
	for (unsigned c = 0; c < 2; c++)
		for (unsigned k = 0; k < NR_BASES; k++) {
			const auto &x = a.cpu[c].base[k], &y = b.cpu[c].base[k];
			if (x.clk != y.clk || x.next_expiry != y.next_expiry ||
			    x.next_expiry_recalc != y.next_expiry_recalc || x.timers_pending != y.timers_pending ||
			    !wheel_check(y))
				return false;
			for (unsigned w = 0; w < timer_base<Config>::MAP_WORDS; w++)
				if (x.pending_map[w] != y.pending_map[w])
					return false;
			for (unsigned i = 0; i < Config::geometry::WHEEL_SIZE; i++) {
				const hlist_node *p = x.vectors[i].first, *q = y.vectors[i].first;
				for (; p && q; p = p->next, q = q->next)
					if (a.timer_index(p) != b.timer_index(q))
						return false;
				if (p || q)
					return false;
			}
		}
	return true;
}

template <class Config>
void against_mod_timer(std::uint64_t seed, typename Config::word start, unsigned ops)
{
	using word = typename Config::word;
	static machine<Config> a, b;
	a.init(start, 40);
	b.init(start, 40);
	std::mt19937_64 rng(seed);
	word now = start;
	unsigned long on_base = 0, moved = 0, shortcuts = 0;

	for (unsigned op = 0; op < ops; op++) {
		unsigned i = static_cast<unsigned>(rng() % a.timers.size());
		unsigned c = rng() % 4 == 0 ? 1 : 0;
		unsigned r = rng() % 100;
		if (r < 70) {
			std::uint64_t span = rng() % 4 == 0 ? rng() % 3000000 : rng() % 3000;
			if (rng() % 500 == 0)
				span = Config::geometry::WHEEL_TIMEOUT_CUTOFF + rng() % 100000;
			// Re-arming to the same expiry, and to the same bucket, too.
			word expires = rng() % 10 == 0 ? a.timers[i].expires : static_cast<word>(now + span);
			unsigned long before = a.enqueues();
			int was = mod_timer(a.cpu[c], &a.timers[i], expires, now);
			bool enqueued = a.enqueues() != before;
			timer_list<Config> *t = &b.timers[i];
			if (timer_pending(t) && t->base == &base_for(b.cpu[c], t->flags)) {
				ck_assert_int_eq(was, 1);
				ck_assert_msg(mod_timer_on_base(*t->base, t, expires, now) == enqueued, "op %u", op);
				on_base++;
				shortcuts += !enqueued;
			} else {
				ck_assert_int_eq(mod_timer(b.cpu[c], t, expires, now), was);
				moved += was;
			}
		} else if (r < 80) {
			del_timer(&a.timers[i]);
			del_timer(&b.timers[i]);
		} else {
			now += static_cast<word>(rng() % 16 == 0 ? rng() % 2000 : rng() % 10);
			for (machine<Config> *m : {&a, &b})
				for (auto &cb : m->cpu)
					run_timers(cb, now);
			now++;
		}
		ck_assert_msg(a.enqueues() == b.enqueues() && same_wheel(a, b), "seed %llu op %u: the wheels differ",
			      (unsigned long long)seed, op);
	}
	// Each path was taken often enough to mean something.
	ck_assert_msg(on_base > ops / 4 && shortcuts > ops / 50 && moved > ops / 100, "%lu %lu %lu", on_base, shortcuts, moved);
}

}  // namespace

START_TEST(mod_timer_on_base_is_mod_timer)
{
	using kernel::v48::wheel_config;
	against_mod_timer<wheel_config<geometry_hz_gt_100, std::uint64_t, enqueue_counter>>(11, 4294892296ull, 20000);
	against_mod_timer<wheel_config<geometry_hz_le_100, std::uint64_t, enqueue_counter>>(12, 4294937296ull, 20000);
	against_mod_timer<wheel_config<geometry_hz_gt_100, std::uint32_t, enqueue_counter>>(
		13, static_cast<std::uint32_t>(-300 * 250), 20000);
	against_mod_timer<wheel_config<geometry_hz_le_100, std::uint32_t, enqueue_counter>>(
		14, static_cast<std::uint32_t>(-300 * 100), 20000);
}
END_TEST

int main()
{
	Suite *s = suite_create("v48_mod_on_base");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, mod_timer_on_base_is_mod_timer);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
