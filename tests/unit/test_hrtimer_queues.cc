// The hrtimer queue designs of sim/hrtimer/queue_design.h against each
// other on seeded random streams of arms (new timers, re-arms a little
// later or earlier as the hrtick and tick re-arms are, far ones, ties,
// expiries already past), removes, and expiries as time advances:
//
// - after every operation all designs hold the same number of timers and
//   the same first expiry; the designs that re-queue on every re-arm
//   (timerqueue, heap, heap4, wheel) agree on the first timer itself, and
//   on "is it now the first" for every arm;
// - every advance expires the same timers in the same order in those
//   four; in `linked` the same expiries in the same order, and the same
//   timers within each run of equal expiries (its in-place re-arm keeps a
//   timer's place among equals, the 2026 kernel's rule); on streams with
//   no equal expiries, exactly the same sequence;
// - the in-place rule fires (linked counts in-place re-arms) and the wheel
//   cascades; a design's name is what the registry was asked for.
#include <cstdint>
#include <set>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "sim/hrtimer/queue_design.h"

#include "tests/support/check_main.h"

using namespace timersim::hrq;

namespace {

constexpr std::size_t NTIMERS = 512;

struct stream_result {
	std::vector<std::vector<std::pair<qid, ktime>>> designs;	// expiries per design
	std::uint64_t in_place = 0, cascades = 0;
};

stream_result run_stream(std::uint64_t seed, bool ties, unsigned steps)
{
	std::vector<std::unique_ptr<queue_design>> qs;
	for (const std::string &n : queue_design_names()) {
		qs.push_back(make_queue_design(n));
		ck_assert_ptr_nonnull(qs.back().get());
		// Named: ck_assert_str_eq reads its strings after the temporaries end.
		const std::string got = qs.back()->name();
		ck_assert_str_eq(got.c_str(), n.c_str());
	}
	const std::size_t linked = 1;	// its index in queue_design_names()
	stream_result r;
	r.designs.resize(qs.size());
	std::mt19937_64 rng(seed);
	ktime now = 1000000000;
	for (auto &q : qs)
		q->reset(NTIMERS, now);
	std::uint64_t unique = 0;
	std::vector<ktime> armed(NTIMERS, 0);

	for (unsigned step = 0; step < steps; step++) {
		const unsigned op = static_cast<unsigned>(rng() % 100);
		if (op < 55) {
			const qid t = static_cast<qid>(rng() % NTIMERS);
			ktime e;
			const unsigned kind = static_cast<unsigned>(rng() % 8);
			ktime cur;
			qid f;
			const bool have = qs[0]->first(&f, &cur);
			if (kind == 0 && have)
				e = cur + static_cast<ktime>(rng() % 3);	// near the first: in-place and ties
			else if (kind == 3 && qs[0]->queued(t))
				e = armed[t] + static_cast<ktime>(rng() % 2000);	// pushed back a little
			else if (kind == 1)
				e = now - static_cast<ktime>(rng() % 100000);	// already expired
			else if (kind == 2)
				e = now + static_cast<ktime>(rng() % (std::uint64_t{1} << 40));	// far
			else
				e = now + static_cast<ktime>(rng() % 4000000);
			if (!ties)	// distinct expiries: a unique low part
				e = (e & ~ktime{0xffff}) | static_cast<ktime>(++unique & 0xffff);
			armed[t] = e;
			bool want_first = false;
			for (std::size_t i = 0; i < qs.size(); i++) {
				const bool is_first = qs[i]->arm(t, e);
				if (i == 0)
					want_first = is_first;
				else if (i != linked || !ties)
					CK_REQUIRE(is_first == want_first, "%s: arm first=%d, timerqueue %d",
						   qs[i]->name().c_str(), is_first, want_first);
			}
		} else if (op < 70) {
			const qid t = static_cast<qid>(rng() % NTIMERS);
			const bool want = qs[0]->remove(t);
			for (std::size_t i = 1; i < qs.size(); i++)
				CK_REQUIRE(qs[i]->remove(t) == want, "%s: remove differs", qs[i]->name().c_str());
		} else {
			now += static_cast<ktime>(rng() % 2000000);
			for (std::size_t i = 0; i < qs.size(); i++)
				expire_due(*qs[i], now, [&](qid t, ktime e) { r.designs[i].push_back({t, e}); });
		}
		qid f0 = 0;
		ktime e0 = 0;
		const bool have0 = qs[0]->first(&f0, &e0);
		for (std::size_t i = 1; i < qs.size(); i++) {
			qid f;
			ktime e;
			const bool have = qs[i]->first(&f, &e);
			CK_REQUIRE(have == have0 && qs[i]->size() == qs[0]->size(), "%s: size differs",
				   qs[i]->name().c_str());
			CK_REQUIRE(!have || e == e0, "%s: first expiry %lld, timerqueue %lld", qs[i]->name().c_str(),
				   (long long)e, (long long)e0);
			if (i != linked || !ties)
				CK_REQUIRE(!have || f == f0, "%s: first timer %u, timerqueue %u", qs[i]->name().c_str(), f, f0);
		}
	}
	r.in_place = qs[linked]->costs().in_place;
	r.cascades = qs.back()->costs().cascades;
	return r;
}

void same_up_to_ties(const std::vector<std::pair<qid, ktime>> &a, const std::vector<std::pair<qid, ktime>> &b)
{
	ck_assert_uint_eq(a.size(), b.size());
	std::size_t i = 0;
	while (i < a.size()) {
		std::size_t j = i;
		std::multiset<qid> sa, sb;
		while (j < a.size() && a[j].second == a[i].second) {
			CK_REQUIRE(b[j].second == a[i].second, "expiry %zu differs", j);
			sa.insert(a[j].first);
			sb.insert(b[j].first);
			j++;
		}
		CK_REQUIRE(sa == sb, "timers expiring at %lld differ", (long long)a[i].second);
		i = j;
	}
}

}  // namespace

START_TEST(designs_agree_with_ties)
{
	std::uint64_t in_place = 0, cascades = 0, expired = 0;
	for (std::uint64_t seed = 1; seed <= 16; seed++) {
		stream_result r = run_stream(seed, true, 20000);
		for (std::size_t i = 2; i < r.designs.size(); i++)
			CK_REQUIRE(r.designs[i] == r.designs[0], "%s expired differently from timerqueue (seed %llu)",
				   queue_design_names()[i].c_str(), (unsigned long long)seed);
		same_up_to_ties(r.designs[0], r.designs[1]);
		in_place += r.in_place;
		cascades += r.cascades;
		expired += r.designs[0].size();
	}
	ck_assert(expired > 50000);
	ck_assert_msg(in_place > 1000, "in-place re-arms %llu", (unsigned long long)in_place);
	ck_assert_msg(cascades > 200, "cascades %llu", (unsigned long long)cascades);
}
END_TEST

START_TEST(designs_agree_exactly_without_ties)
{
	for (std::uint64_t seed = 100; seed <= 108; seed++) {
		stream_result r = run_stream(seed, false, 20000);
		for (std::size_t i = 1; i < r.designs.size(); i++)
			CK_REQUIRE(r.designs[i] == r.designs[0], "%s expired differently from timerqueue (seed %llu)",
				   queue_design_names()[i].c_str(), (unsigned long long)seed);
	}
}
END_TEST

// The in-place rule's own tie: re-armed to the next timer's expiry, a
// linked timer stays in front of it; the re-queueing designs put it behind.
START_TEST(linked_keeps_place_among_equals)
{
	auto tq = make_queue_design("timerqueue"), ln = make_queue_design("linked");
	for (auto *q : {tq.get(), ln.get()}) {
		q->reset(4, 0);
		q->arm(0, 100);
		q->arm(1, 200);
		q->arm(0, 200);
	}
	qid t;
	ktime e;
	ck_assert(tq->first(&t, &e) && t == 1 && e == 200);
	ck_assert(ln->first(&t, &e) && t == 0 && e == 200);
	ck_assert_uint_eq(ln->costs().in_place, 1);
	ck_assert_uint_eq(tq->costs().in_place, 0);
	ck_assert_ptr_null(make_queue_design("nonesuch").get());
}
END_TEST

int main()
{
	Suite *s = suite_create("hrtimer_queues");
	TCase *tc = tcase_create("queues");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, designs_agree_with_ties);
	tcase_add_test(tc, designs_agree_exactly_without_ties);
	tcase_add_test(tc, linked_keeps_place_among_equals);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
