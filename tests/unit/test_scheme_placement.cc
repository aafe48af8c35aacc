// scheme::placed_level(): what the replay reads instead of an enqueued()
// call per start. For every scheme, over random starts, cancels and
// advances on two CPUs (moves between them, flag changes, re-arms that stay
// in their bucket): placed_level() after each start is the level enqueued()
// was given during it (0 when there was none), and an observer that does
// not want enqueues gets none while the scheme does the same work
// (expiries, costs, pending counts).
#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "sim/scheme/scheme.h"
#include "sim/trace/event.h"

#include "tests/support/check_main.h"

using namespace timersim;

namespace {

struct recorder : scheme_observer {
	bool want = true;
	unsigned enqueues = 0;
	unsigned last_level = 0;	// of the last enqueued() call
	std::vector<std::uint64_t> log;	// expiries and ticks, in order

	bool wants_enqueues() const override { return want; }
	void enqueued(timer_id, unsigned level) override
	{
		enqueues++;
		last_level = level;
	}
	void moved(timer_id t, unsigned from) override { log.push_back(std::uint64_t{t} << 8 | from); }
	void cascaded(unsigned, std::uint32_t) override {}
	void tick(unsigned cpu, jiffies_t j) override { log.push_back(j << 1 | cpu); }
	void expired(timer_id t, unsigned cpu, jiffies_t j) override { log.push_back((j << 20 | t) << 1 | cpu); }
	void idle_ticks(unsigned, jiffies_t, std::uint64_t) override {}
	void empty_cascades(unsigned, std::uint64_t) override {}
};

constexpr unsigned NCPUS = 2, NTIMERS = 300, STEPS = 20000;
constexpr jiffies_t START = 1000;

// One run of the same random operations; `levels` gets placed_level()
// after each start, and the run checks it against enqueued() when the
// observer wants enqueues.
void run(const std::string &name, recorder &obs, std::vector<unsigned> &levels, cost_counters &costs,
	 std::vector<std::uint64_t> &pending)
{
	scheme_options opt;
	opt.hz = 250;
	auto s = make_scheme(name, opt);
	s->reset(NCPUS, START, &obs);
	std::mt19937_64 rng(13);
	jiffies_t now = START;
	std::vector<jiffies_t> last(NTIMERS, START);
	for (unsigned step = 0; step < STEPS; step++) {
		const timer_id t = static_cast<timer_id>(rng() % NTIMERS);
		const unsigned cpu = static_cast<unsigned>(rng() % 8 == 0 ? 1 : 0);
		switch (rng() % 10) {
		case 0:
			s->cancel(t);
			break;
		case 1:
		case 2:
			now += rng() % 40;
			for (unsigned c = 0; c < NCPUS; c++)
				s->advance(c, now);
			break;
		default: {
			// Short and long timeouts, now and then a re-arm to
			// nearly the same expiry (v48's same-bucket shortcut)
			// and other flags.
			jiffies_t expires = now + 1 + (rng() % 3 ? rng() % 300 : rng() % 100000);
			if (rng() % 4 == 0 && last[t] > now)
				expires = last[t] + rng() % 2;
			last[t] = expires;
			const std::uint32_t flags = rng() % 16 == 0 ? std::uint32_t{TF_DEFERRABLE}
						  : rng() % 16 == 0 ? std::uint32_t{TF_PINNED}
								    : 0u;
			const unsigned before = obs.enqueues;
			obs.last_level = 0;
			s->start(t, cpu, expires, flags);
			levels.push_back(s->placed_level());
			if (obs.want) {
				ck_assert_uint_le(obs.enqueues, before + 1);
				ck_assert_uint_eq(s->placed_level(), obs.enqueues > before ? obs.last_level : 0u);
			}
		}
		}
	}
	costs = s->costs();
	for (unsigned c = 0; c < NCPUS; c++)
		pending.push_back(s->pending_on(c));
}

// One scheme's two runs, with and without the enqueued() calls.
void placement_agrees(const std::string &name)
{
	recorder wanting, quiet;
	quiet.want = false;
	std::vector<unsigned> lw, lq;
	cost_counters cw, cq;
	std::vector<std::uint64_t> pw, pq;
	run(name, wanting, lw, cw, pw);
	run(name, quiet, lq, cq, pq);

	ck_assert_msg(wanting.enqueues > 0, "%s: no enqueue reported", name.c_str());
	ck_assert_msg(quiet.enqueues == 0, "%s: %u enqueues reported to an observer that wants none",
		      name.c_str(), quiet.enqueues);
	ck_assert_msg(lw == lq, "%s: placed levels differ with the observer", name.c_str());
	ck_assert_msg(wanting.log == quiet.log, "%s: expiries differ with the observer", name.c_str());
	ck_assert_msg(pw == pq, "%s: pending counts differ with the observer", name.c_str());
	ck_assert_uint_eq(cw.insertions, cq.insertions);
	ck_assert_uint_eq(cw.removals, cq.removals);
	ck_assert_uint_eq(cw.relinks, cq.relinks);
	ck_assert_uint_eq(cw.slot_visits, cq.slot_visits);
	ck_assert_uint_eq(cw.key_comparisons, cq.key_comparisons);
	// What was inserted and not removed is pending.
	ck_assert_uint_eq(cw.insertions - cw.removals, pw[0] + pw[1]);
	// Every classic start enqueues; some v48 re-arms stay in
	// their bucket and enqueue nothing.
	const auto unplaced = std::count(lq.begin(), lq.end(), 0u);
	if (name == "classic")
		ck_assert_int_eq(unplaced, 0);
	if (name == "v48")
		ck_assert_int_gt(unplaced, 0);
}

}  // namespace

START_TEST(kernel_wheels_place_as_they_enqueue)
{
	placement_agrees("classic");
	placement_agrees("v48");
}
END_TEST

START_TEST(other_schemes_place_as_they_enqueue)
{
	for (const std::string &name : scheme_names())
		if (name != "classic" && name != "v48")
			placement_agrees(name);
}
END_TEST

// The kernel wheels place by level (classic tv1..tv5, v48 LVL0..): a
// timer due within the first level's span lands on level 1, a far one
// higher up, and v48's re-arm into the same bucket places nothing.
START_TEST(kernel_wheels_place_by_distance)
{
	for (const char *name : {"classic", "v48"}) {
		recorder obs;
		obs.want = false;
		scheme_options opt;
		opt.hz = 250;
		auto s = make_scheme(name, opt);
		s->reset(1, START, &obs);
		s->start(1, 0, START + 10, TF_PINNED);
		ck_assert_uint_eq(s->placed_level(), 1);
		s->start(2, 0, START + 100000, TF_PINNED);
		ck_assert_uint_gt(s->placed_level(), 2);
		s->start(2, 0, START + 100001, TF_PINNED);
		if (std::string(name) == "v48")
			ck_assert_uint_eq(s->placed_level(), 0);	// same bucket: nothing enqueued
		else
			ck_assert_uint_gt(s->placed_level(), 2);
	}
}
END_TEST

int main()
{
	Suite *s = suite_create("scheme_placement");
	TCase *tc = tcase_create("placement");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, kernel_wheels_place_as_they_enqueue);
	tcase_add_test(tc, other_schemes_place_as_they_enqueue);
	tcase_add_test(tc, kernel_wheels_place_by_distance);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
