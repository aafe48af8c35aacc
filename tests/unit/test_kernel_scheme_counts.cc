// The kernel wheels' counts through the scheme layer, now partly derived
// when read (an expiry is one increment of its base's fired count, a start
// one increment of adds or restarts): over random starts, cancels and
// advances on two CPUs (moves between them, flag changes, re-arms that stay
// in their bucket), checked after every operation against a model kept from
// what the scheme returned and reported:
//   pending_on(cpu)  the timers started on cpu, not since cancelled or fired
//   insertions       starts that enqueued (placed_level() != 0)
//   removals         cancels of a pending timer, expiries, and starts of a
//                    pending timer that enqueued it again
// Each wheel at both word widths, tick by tick and skipping idle stretches.
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

constexpr unsigned NCPUS = 2, NTIMERS = 200, STEPS = 20000;
constexpr jiffies_t START = 5000;
constexpr unsigned NOWHERE = ~0u;

struct model_observer : scheme_observer {
	std::vector<unsigned> where = std::vector<unsigned>(NTIMERS, NOWHERE);	// CPU, or NOWHERE
	std::uint64_t expiries = 0;
	bool wrong_cpu = false;

	bool wants_enqueues() const override { return false; }
	void moved(timer_id, unsigned) override {}
	void cascaded(unsigned, std::uint32_t) override {}
	void tick(unsigned, jiffies_t) override {}
	void expired(timer_id t, unsigned cpu, jiffies_t) override
	{
		wrong_cpu = wrong_cpu || where[t] != cpu;
		where[t] = NOWHERE;
		expiries++;
	}
	void idle_ticks(unsigned, jiffies_t, std::uint64_t) override {}
	void empty_cascades(unsigned, std::uint64_t) override {}
};

// Returns "" when the counts hold throughout, else the first difference.
std::string run(const std::string &name, unsigned word_bits, bool stepping)
{
	scheme_options opt;
	opt.hz = 250;
	opt.word_bits = word_bits;
	opt.stepping = stepping;
	auto s = make_scheme(name, opt);
	model_observer obs;
	s->reset(NCPUS, START, &obs);
	std::mt19937_64 rng(word_bits * 2 + stepping);
	jiffies_t now = START;
	std::uint64_t insertions = 0, removals = 0;
	for (unsigned step = 0; step < STEPS; step++) {
		const timer_id t = static_cast<timer_id>(rng() % NTIMERS);
		const unsigned op = rng() % 10;
		const std::string at = name + "/" + std::to_string(word_bits) + " step " + std::to_string(step);
		if (op < 6) {
			const unsigned cpu = rng() % 4 == 0 ? 1 : 0;
			// Mostly short timeouts (some fire), sometimes long ones.
			const jiffies_t expires = now + (rng() % 8 == 0 ? rng() % 100000 : rng() % 300);
			const std::uint32_t flags = (rng() % 5 == 0 ? std::uint32_t{TF_DEFERRABLE} : 0u) | (rng() % 2 ? std::uint32_t{TF_PINNED} : 0u);
			const bool was = s->start(t, cpu, expires, flags);
			if (was != (obs.where[t] != NOWHERE))
				return at + ": start returned " + std::to_string(was);
			if (s->placed_level()) {
				insertions++;
				removals += was;
			}
			obs.where[t] = cpu;
		} else if (op < 7) {
			const bool was = s->cancel(t);
			if (was != (obs.where[t] != NOWHERE))
				return at + ": cancel returned " + std::to_string(was);
			removals += was;
			obs.where[t] = NOWHERE;
		} else {
			now += rng() % 4 == 0 ? rng() % 2000 : rng() % 8;
			for (unsigned cpu = 0; cpu < NCPUS; cpu++)
				s->advance(cpu, now);
			now++;
		}
		if (obs.wrong_cpu)
			return at + ": a timer fired on another CPU than it was started on";
		for (unsigned cpu = 0; cpu < NCPUS; cpu++) {
			std::uint64_t model = 0;
			for (unsigned w : obs.where)
				model += w == cpu;
			if (s->pending_on(cpu) != model)
				return at + ": pending_on(" + std::to_string(cpu) + ") " +
				       std::to_string(s->pending_on(cpu)) + ", model " + std::to_string(model);
		}
		const cost_counters &c = s->costs();
		if (c.insertions != insertions)
			return at + ": insertions " + std::to_string(c.insertions) + ", model " + std::to_string(insertions);
		if (c.removals != removals + obs.expiries)
			return at + ": removals " + std::to_string(c.removals) + ", model " +
			       std::to_string(removals + obs.expiries);
	}
	if (obs.expiries < STEPS / 20)
		return name + ": only " + std::to_string(obs.expiries) + " expiries, too few to test";
	return "";
}

}  // namespace

// _i: the wheel (classic, v48) and the word width (32, 64), both ways
// of advancing.
START_TEST(counts_follow_the_model)
{
	const std::string name = _i / 2 ? "v48" : "classic";
	const unsigned bits = _i % 2 ? 64 : 32;
	for (bool stepping : {false, true}) {
		const std::string wrong = run(name, bits, stepping);
		ck_assert_str_eq(wrong.c_str(), "");
	}
}
END_TEST

int main()
{
	Suite *s = suite_create("kernel_scheme_counts");
	TCase *tc = tcase_create("counts");
	tcase_add_loop_test(tc, counts_follow_the_model, 0, 4);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
