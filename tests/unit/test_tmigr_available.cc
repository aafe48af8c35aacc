// 6.19's timer migration available mask (issue 40): a CPU out of it
// (tmigr_cpu_unavailable, or isolated at boot: --isolated-cpus) takes no
// part in the hierarchy. Each rule of kernel/time/timer_migration.c the v48
// scheme follows, tested on the scheme, then on a trace in 6.19's format
// (docs/fidelity.md "The tmigr available mask" names the source lines).
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sim/base/errors.h"
#include "sim/replay/replay.h"
#include "sim/scheme/scheme.h"
#include "sim/trace/event.h"
#include "tests/support/cli.h"
#include "tests/support/replay_file.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"	// last: check.h defines a fail() macro

using namespace timersim;
using timersim::test::run_suite;

namespace {

struct fire_log : scheme_observer {
	struct fire {
		timer_id t;
		unsigned cpu;
		jiffies_t jiffy;
	};
	std::vector<fire> fired;
	void enqueued(timer_id, unsigned) override {}
	void moved(timer_id, unsigned) override {}
	void cascaded(unsigned, std::uint32_t) override {}
	void tick(unsigned, jiffies_t) override {}
	void expired(timer_id t, unsigned cpu, jiffies_t j) override { fired.push_back({t, cpu, j}); }
	void idle_ticks(unsigned, jiffies_t, std::uint64_t) override {}
	void empty_cascades(unsigned, std::uint64_t) override {}
	// The jiffy t fired at, 0 when it did not.
	jiffies_t at(timer_id t) const
	{
		for (const fire &f : fired)
			if (f.t == t)
				return f.jiffy;
		return 0;
	}
};

std::unique_ptr<reported_scheme> v48()
{
	scheme_options opt;
	opt.hz = 250;
	return make_scheme("v48", opt);
}

constexpr jiffies_t J = 1000;
constexpr timer_id GLOBAL = 1, DEFERRABLE = 2;

// The v48 scheme (HZ 250) on two CPUs at jiffy J, its fires logged;
// TICK_DRIVEN as the replay that follows recorded ticks sets it.
struct two_cpus {
	fire_log log;	// first: it outlives the scheme that reports to it
	std::unique_ptr<reported_scheme> s = v48();
	explicit two_cpus(bool tick_driven = false)
	{
		if (tick_driven)
			s->set_tick_driven(true);
		s->reset(2, J, &log);
	}
};

// One global (not pinned) timer on CPU `owner` due at J+10; CPU `runner`
// moves on to J+20 alone. Returns the jiffy the timer fired at (0: not).
jiffies_t global_fired_by_other(unsigned owner, unsigned runner, int unavailable)
{
	two_cpus w;
	if (unavailable >= 0)
		w.s->set_tmigr_available(static_cast<unsigned>(unavailable), false);
	w.s->start(GLOBAL, owner, J + 10, 0);
	w.s->advance(runner, J + 20);
	return w.log.at(GLOBAL);
}

}  // namespace

// tmigr_cpu_deactivate() and tmigr_cpu_new_timer(): `if
// (tmigr_is_not_available(tmc)) return nextexp;` - an unavailable CPU's
// next global timer is handed back to it, never queued in a group, so no
// migrator expires it remotely. It fires when its own CPU moves on.
START_TEST(unavailable_cpus_global_timers_are_not_expired_remotely)
{
	const jiffies_t due = global_fired_by_other(1, 0, -1);	// control: CPU 0 expires it
	ck_assert(due >= J + 10 && due <= J + 20);
	ck_assert_uint_eq(global_fired_by_other(1, 0, 1), 0);

	two_cpus w;
	w.s->set_tmigr_available(1, false);
	ck_assert(!w.s->tmigr_available(1) && w.s->tmigr_available(0));
	w.s->start(GLOBAL, 1, J + 10, 0);
	w.s->advance(0, J + 20);
	w.s->advance(1, J + 20);
	ck_assert_uint_eq(w.log.fired.size(), 1);
	ck_assert_uint_eq(w.log.fired[0].cpu, 1);
	ck_assert_uint_eq(w.log.fired[0].jiffy, due);
}
END_TEST

// tmigr_requires_handle_remote() and tmigr_handle_remote(): `if
// (tmigr_is_not_available(tmc)) return` - an unavailable CPU expires no
// other CPU's global timers.
START_TEST(unavailable_cpu_expires_no_other_cpus_global_timers)
{
	ck_assert_uint_eq(global_fired_by_other(1, 0, 0), 0);
	ck_assert_uint_eq(global_fired_by_other(0, 1, 1), 0);
	ck_assert_uint_ne(global_fired_by_other(0, 1, -1), 0);	// control
}
END_TEST

namespace {

// CPU 0, idle, holds a deferrable timer; CPU 1 runs a global one. While
// CPU `cpu` is available the deferrable runs when the global does (CPU 0
// woken as the migrator); made unavailable, not before CPU 0's own wake.
void idle_cpu0_deferrable_waits_for_its_own_wake(unsigned cpu)
{
	for (bool available : {true, false}) {
		two_cpus w;
		w.s->set_tmigr_available(cpu, available);
		w.s->start(DEFERRABLE, 0, J + 3, TF_DEFERRABLE);
		w.s->set_idle(0, true, J);
		w.s->start(GLOBAL, 1, J + 5, 0);
		w.s->advance(1, J + 10);
		const jiffies_t global = w.log.at(GLOBAL);
		ck_assert(global > J && global <= J + 10);
		w.s->advance(0, J + 20);
		ck_assert_msg(w.log.at(DEFERRABLE) == (available ? global : 0), "available %d: fired at %llu",
			      available, (unsigned long long)w.log.at(DEFERRABLE));
	}
}

}  // namespace

// tmigr_clear_cpu_available(): `WRITE_ONCE(tmc->wakeup, KTIME_MAX)`, and
// with tmigr_cpu_deactivate() returning its own nextexp the hierarchy never
// sets it again: an idle unavailable CPU is never woken as a migrator for
// other CPUs' global timers, so its deferrable timers wait for its own
// wake. (An available idle CPU wakes at the jiffies global timers fire.)
START_TEST(idle_unavailable_cpu_is_not_woken_for_other_cpus_timers)
{
	idle_cpu0_deferrable_waits_for_its_own_wake(0);
}
END_TEST

// The same from the other side: an unavailable CPU's global timers are not
// queued in any group (tmigr_cpu_deactivate() returns its nextexp), so
// their expiry is no event of the hierarchy's and wakes no idle migrator.
START_TEST(unavailable_cpus_expiries_wake_no_migrator)
{
	idle_cpu0_deferrable_waits_for_its_own_wake(1);
}
END_TEST

// tmigr_set_cpu_available() (tmigr_cpu_available): the CPU is back in the
// hierarchy, its global timers expired remotely again.
START_TEST(available_again_rejoins_the_hierarchy)
{
	two_cpus w;
	w.s->set_tmigr_available(1, false);
	w.s->set_tmigr_available(1, true);
	w.s->start(GLOBAL, 1, J + 10, 0);
	w.s->advance(0, J + 20);
	ck_assert_uint_ne(w.log.at(GLOBAL), 0);
	// reset(): every CPU available.
	w.s->set_tmigr_available(1, false);
	w.s->reset(2, J, &w.log);
	ck_assert(w.s->tmigr_available(1));
}
END_TEST

// Tick-driven replay: timer_expire_remote() of an unavailable CPU's global
// base does not happen (the same rule as above, where the replay follows
// recorded ticks).
START_TEST(tick_driven_remote_expiry_skips_unavailable_cpus)
{
	two_cpus w(true);
	w.s->start(GLOBAL, 1, J + 10, 0);
	w.s->set_tmigr_available(1, false);
	w.s->advance_remote(1, J + 20);
	ck_assert_uint_eq(w.log.fired.size(), 0);
	w.s->set_tmigr_available(1, true);
	w.s->advance_remote(1, J + 20);
	ck_assert_uint_eq(w.log.at(GLOBAL), J + 20);	// the remote run's jiffies
}
END_TEST

namespace {

// 6.19's format, written from the rules (HZ 250, 2 CPUs; jiffies
// 4295000000 at 100.000000). CPU 0 leaves the hierarchy
// (tmigr_clear_cpu_available() traces tmigr_cpu_unavailable on the CPU),
// arms a deferrable timer (bucket 4295000003: calc_index() puts a level-0
// timer in the bucket after `expires`) and goes idle; CPU 1's global timer
// fires at 4295000005, and CPU 1 arms another at 4295000015. CPU 0, out of
// the hierarchy, is not woken for CPU 1's timer: it runs its deferrable
// timer when it wakes on its own, at 4295000015 (a late run: baseclk= its
// bucket).
const char *const unavailable_line =
	"         cpuhp/0-20      [000] d..1.   100.000000: tmigr_cpu_unavailable: cpu=0 parent=00000000b957d7c4 wakeup=9223372036854775807\n";
const char *const fixture_events =
	"     kworker/0:1-30      [000] d..2.   100.000010: timer_start: timer=00000000aaaa0001 function=delayed_work_timer_fn expires=4295000002 [timeout=2] bucket_expiry=4295000003 cpu=0 idx=3 flags=D\n"
	"          <idle>-0       [000] d..1.   100.000020: timer_base_idle: is_idle=1 cpu=0\n"
	"           sleep-40      [001] d..1.   100.000030: timer_start: timer=00000000bbbb0002 function=process_timeout expires=4295000004 [timeout=4] bucket_expiry=4295000005 cpu=1 idx=5 flags=\n"
	"          <idle>-0       [001] ..s1.   100.020010: timer_expire_entry: timer=00000000bbbb0002 function=process_timeout now=4295000005 baseclk=4295000005\n"
	"          <idle>-0       [001] ..s1.   100.020020: timer_expire_exit: timer=00000000bbbb0002\n"
	"           sleep-40      [001] d..1.   100.059990: timer_start: timer=00000000cccc0003 function=process_timeout expires=4295000025 [timeout=10] bucket_expiry=4295000026 cpu=1 idx=26 flags=\n"
	"          <idle>-0       [000] d..1.   100.060000: timer_base_idle: is_idle=0 cpu=0\n"
	"          <idle>-0       [000] ..s1.   100.060010: timer_expire_entry: timer=00000000aaaa0001 function=delayed_work_timer_fn now=4295000015 baseclk=4295000003\n"
	"          <idle>-0       [000] ..s1.   100.060020: timer_expire_exit: timer=00000000aaaa0001\n";

replay_report replay(const std::string &path, unsigned rules, std::vector<unsigned> isolated = {})
{
	replay_options opt = test::recording_options();
	opt.kernel_rules = rules;
	opt.isolated_cpus = std::move(isolated);
	return test::replay_file(path, opt);
}

}  // namespace

// The fixture under the rules it was written from: the deferrable timer is
// exact; under 6.18's (the same trace, --kernel-rules 6.18) the model wakes
// CPU 0 at CPU 1's global expiry and fires it early.
START_TEST(fixture_6_19_unavailable_cpu)
{
	const std::string path = test::write_temp(
		"tmigr-6.19.txt", test::ftrace_text(std::string(unavailable_line) + fixture_events, 2));
	const replay_report r = replay(path, 0);
	ck_assert_msg(r.input.generation.tmigr_available, "%s", r.input.generation.range().c_str());
	ck_assert_uint_eq(r.input.generation.from, 619);
	ck_assert_uint_eq(r.fidelity.compared, 2);
	ck_assert_uint_eq(r.fidelity.exact, 2);
	ck_assert_uint_eq(r.fidelity.early, 0);

	const replay_report old = replay(path, 618);
	ck_assert(!old.input.generation.tmigr_available);
	ck_assert_uint_eq(old.fidelity.exact, 1);
	ck_assert_uint_eq(old.fidelity.early, 1);
}
END_TEST

// tmigr_init_isolation() (isolcpus= domain CPUs, at boot: no trace shows
// it): --isolated-cpus marks them unavailable from the start, under the
// 6.19 rules only.
START_TEST(isolated_cpus_are_unavailable_from_the_start)
{
	const std::string path = test::write_temp("tmigr-isolated.txt", test::ftrace_text(fixture_events, 2));
	const replay_report plain = replay(path, 619);
	ck_assert_uint_eq(plain.fidelity.early, 1);
	const replay_report isolated = replay(path, 619, {0});
	ck_assert_uint_eq(isolated.fidelity.exact, 2);
	ck_assert_uint_eq(isolated.fidelity.early, 0);

	bool thrown = false;
	try {
		replay(path, 618, {0});
	} catch (const usage_error &e) {
		thrown = std::string(e.what()).find("--kernel-rules 6.19") != std::string::npos;
	}
	ck_assert_msg(thrown, "--isolated-cpus under 6.18's rules should be refused");
	thrown = false;
	try {
		replay(path, 619, {2});
	} catch (const usage_error &e) {
		thrown = std::string(e.what()).find("CPU 2") != std::string::npos;
	}
	ck_assert(thrown);
}
END_TEST

int main()
{
	Suite *s = suite_create("tmigr_available");
	TCase *tc = tcase_create("rules");
	tcase_add_test(tc, unavailable_cpus_global_timers_are_not_expired_remotely);
	tcase_add_test(tc, unavailable_cpu_expires_no_other_cpus_global_timers);
	tcase_add_test(tc, idle_unavailable_cpu_is_not_woken_for_other_cpus_timers);
	tcase_add_test(tc, unavailable_cpus_expiries_wake_no_migrator);
	tcase_add_test(tc, available_again_rejoins_the_hierarchy);
	tcase_add_test(tc, tick_driven_remote_expiry_skips_unavailable_cpus);
	tcase_add_test(tc, fixture_6_19_unavailable_cpu);
	tcase_add_test(tc, isolated_cpus_are_unavailable_from_the_start);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
