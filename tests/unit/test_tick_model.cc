// The tick model (sim/ticks/): finding each CPU's tick hrtimer, mapping an
// hrtimer's monotonic `now` to jiffies, and who sees which jiffy at a tick.
// On the shared recordings (SKIP when ../shared/traces is absent), the
// recording in tests/data, and small hand-written traces.

#include <cstdio>
#include <string>

#include "sim/stream/event_stream.h"
#include "sim/base/interner.h"
#include "sim/ticks/tick_grid.h"
#include "sim/ticks/tick_identity.h"
#include "sim/ticks/tick_model.h"
#include "sim/trace/reader.h"
#include "tests/support/cli.h"
#include "tests/support/paths.h"
#include "tests/support/text_trace_util.h"

// Last: check.h defines macros that clash with <iostream> internals.
#include "tests/support/check_main.h"

using namespace timersim;

namespace {

constexpr std::size_t prologue = 65536;

struct looked {
	tick_identity id;
	tick_grid grid;
};

looked look(const std::string &path, unsigned hz, unsigned word_bits = 64)
{
	auto reader = open_trace(path, trace_format::auto_detect, {});
	interner names;
	event_stream stream(*reader, names);
	looked l;
	l.id = identify_tick(stream, names, hz, prologue);
	l.grid = fit_tick_grid(stream, l.id, word_bits, prologue);
	return l;
}

using test::ftrace_line;

std::string hr_expire(const char *hrtimer, const char *fn, unsigned long long now)
{
	return std::string("hrtimer_expire_entry: hrtimer=") + hrtimer + " function=" + fn +
	       " now=" + std::to_string(now);
}

std::string hr_start(const char *hrtimer, const char *fn, unsigned long long expires)
{
	return std::string("hrtimer_start: hrtimer=") + hrtimer + " function=" + fn +
	       " expires=" + std::to_string(expires) + " softexpires=" + std::to_string(expires) +
	       " mode=ABS";
}

}  // namespace

// ---- identification ---------------------------------------------------------------

START_TEST(the_6_18_tick_is_found_by_name_in_every_rendering)
{
	for (const char *rel : {"linux-6.18-http/trace.txt", "linux-6.18-http/trace.dat",
				"linux-6.18-http/trace-cmd-report.txt", "linux-6.18-tcp/perf-script.txt"}) {
		std::string path = test::shared_trace_or_skip(rel);
		if (path.empty())
			continue;
		looked l = look(path, 250);
		ck_assert_msg(l.id.how == tick_found::by_name, "%s: %s", rel, l.id.describe().c_str());
		ck_assert_str_eq(l.id.function_name.c_str(), "tick_nohz_handler");
		ck_assert_uint_eq(l.id.cpus, 2);
		ck_assert_uint_eq(l.id.tick_nsec, 4000000);
	}
}
END_TEST

START_TEST(the_3_6_tick_is_found_by_its_period)
{
	std::string path = test::shared_trace_or_skip("linux-3.6-scp_dest/trace.txt");
	if (path.empty())
		return;
	looked l = look(path, 300);
	// The 3.x rendering prints callbacks as addresses: no name to go by.
	ck_assert_msg(l.id.how == tick_found::by_period, "%s", l.id.describe().c_str());
	ck_assert_str_eq(l.id.function_name.c_str(), "0xffffffff810ae0d0");
	ck_assert_uint_eq(l.id.tick_nsec, 3333333);
	ck_assert_uint_eq(l.id.cpus, 1);
}
END_TEST

START_TEST(the_bundled_recording_has_its_tick_named)
{
	looked l = look("tests/data/default-trace.txt.gz", 250);
	ck_assert_msg(l.id.how == tick_found::by_name, "%s", l.id.describe().c_str());
	ck_assert_uint_eq(l.id.cpus, 2);
}
END_TEST

START_TEST(sleeps_off_the_grid_are_not_a_tick)
{
	// hrtimer_wakeup re-armed at odd nanoseconds: a sleep, not the tick.
	std::string body;
	unsigned long long t = 1000000000ull;
	for (unsigned i = 0; i < 40; i++) {
		t += 1234567 + 7919ull * i;
		body += ftrace_line(0, t / 1000, hr_start("ffff8800000a0000", "hrtimer_wakeup", t));
		body += ftrace_line(0, t / 1000 + 3, hr_expire("ffff8800000a0000", "hrtimer_wakeup", t + 900));
	}
	// One timer event: a trace with none is refused by the readers.
	body += ftrace_line(0, t / 1000 + 10, "timer_init: timer=ffff880000000a00");
	std::string path = test::write_temp("sleeps.txt", test::ftrace_text(body, 1));
	looked l = look(path, 250);
	ck_assert_msg(l.id.how == tick_found::none, "%s", l.id.describe().c_str());
	ck_assert(!l.grid.known());
}
END_TEST

START_TEST(an_address_on_the_grid_is_the_tick_without_starts)
{
	// Only expiries recorded (no hrtimer_start): they run a few
	// microseconds after each 4 ms grid line, on two CPUs.
	std::string body;
	for (unsigned i = 1; i <= 30; i++) {
		unsigned long long g = 2000000000ull + 4000000ull * i;
		body += ftrace_line(0, g / 1000 + 5, hr_expire("ffff888627c1c6f8", "0xffffffff81100000",
							g + 2000 + 13 * i));
		body += ftrace_line(1, g / 1000 + 9, hr_expire("ffff888627d1c6f8", "0xffffffff81100000",
							g + 6000 + 7 * i));
		body += ftrace_line(1, g / 1000 + 1700, hr_expire("ffff8800000b0000", "0xffffffff81200000",
							   g + 1700000 + 104729ull * i));
	}
	body += ftrace_line(0, 2200000000ull / 1000, "timer_init: timer=ffff880000000a00");
	std::string path = test::write_temp("grid.txt", test::ftrace_text(body, 2));
	looked l = look(path, 250);
	ck_assert_msg(l.id.how == tick_found::by_period, "%s", l.id.describe().c_str());
	ck_assert_str_eq(l.id.function_name.c_str(), "0xffffffff81100000");
	ck_assert_uint_eq(l.id.cpus, 2);
	ck_assert_uint_eq(l.id.expiries, 60);
}
END_TEST

// ---- the grid: monotonic ns -> jiffies ------------------------------------------------

START_TEST(the_6_18_grid_maps_a_tick_to_the_jiffies_its_softirq_printed)
{
	for (const char *rel : {"linux-6.18-http/trace.txt", "linux-6.18-http/trace.dat",
				"linux-6.18-http/trace-cmd-report.txt"}) {
		std::string path = test::shared_trace_or_skip(rel);
		if (path.empty())
			continue;
		looked l = look(path, 250);
		ck_assert_msg(l.grid.known(), "%s: %s", rel, l.grid.describe().c_str());
		ck_assert_uint_eq(l.grid.tick_nsec, 4000000);
		ck_assert_uint_eq(l.grid.phase, 0);
		ck_assert_uint_eq(l.grid.offset, 4294892266ull);
		// CPU 1's tick at 949.468768 (now=949444001531) was followed by
		// process_timeout with now=4295129627.
		ck_assert_uint_eq(l.grid.jiffies(949444001531ull), 4295129627ull);
		// The line itself and the last nanosecond before the next one.
		ck_assert_uint_eq(l.grid.jiffies(949444000000ull), 4295129627ull);
		ck_assert_uint_eq(l.grid.jiffies(949447999999ull), 4295129627ull);
		ck_assert_uint_eq(l.grid.jiffies(949448000000ull), 4295129628ull);
		ck_assert_msg(l.grid.agreeing * 10 >= l.grid.pairs * 9, "%s: %s", rel,
			      l.grid.describe().c_str());
	}
}
END_TEST

START_TEST(the_perf_script_grid_agrees_with_its_timestamps)
{
	std::string path = test::shared_trace_or_skip("linux-6.18-tcp/perf-script.txt");
	if (path.empty())
		return;
	looked l = look(path, 250);
	ck_assert(l.grid.known());
	ck_assert_uint_eq(l.grid.offset, 4294892266ull);	// the same boot as http
	// CPU 0's tick now=977952023540 ran tcp_orphan_update with now=4295136754.
	ck_assert_uint_eq(l.grid.jiffies(977952023540ull), 4295136754ull);
}
END_TEST

START_TEST(the_3_6_grid_starts_at_initial_jiffies)
{
	std::string path = test::shared_trace_or_skip("linux-3.6-scp_dest/trace.txt");
	if (path.empty())
		return;
	looked l = look(path, 300);
	ck_assert(l.grid.known());
	ck_assert_uint_eq(l.grid.tick_nsec, 3333333);
	ck_assert_uint_eq(l.grid.phase, 0);
	// INITIAL_JIFFIES at HZ 300 is -300 * 300 on the 32-bit count.
	ck_assert_uint_eq(l.grid.offset, (1ull << 32) - 90000);
	// The tick at now=10509628979865 ran a callback with now=4298030185.
	ck_assert_uint_eq(l.grid.jiffies(10509628979865ull), 4298030185ull);
}
END_TEST

START_TEST(a_32_bit_grid_wraps_in_the_word)
{
	tick_grid_fit fit(4000000, 32);
	// A tick on the grid at 4 ms multiples; the trace clock runs 2 ms
	// ahead of CLOCK_MONOTONIC.
	for (unsigned i = 0; i < 10; i++) {
		std::uint64_t g = 8000000000ull + 4000000ull * i;
		fit.tick_expires(g);
		fit.tick_expiry(g + 2000000 + 3000, g + 3000);
		// jiffies 0xfffffffe at the first line: wraps after two.
		fit.jiffies_at(g + 2000000 + 50000, (0xfffffffeull + i) & 0xffffffffull);
	}
	tick_grid g = fit.fit();
	ck_assert(g.known());
	ck_assert_uint_eq(g.jiffies(8000000000ull), 0xfffffffeull);
	ck_assert_uint_eq(g.jiffies(8008000000ull), 0);
	ck_assert_uint_eq(g.jiffies(8012000001ull), 1);
}
END_TEST

START_TEST(a_stale_pair_is_outvoted)
{
	tick_grid_fit fit(1000000, 64);
	for (unsigned i = 0; i < 20; i++) {
		std::uint64_t g = 5000000000ull + 1000000ull * i;
		fit.tick_expiry(g + 1000, g + 1000);
		// Right after the line, jiffies may not have moved yet.
		fit.jiffies_at(g + 2000, 100 + i - (i % 5 == 0));
		fit.jiffies_at(g + 500000, 100 + i);
	}
	tick_grid g = fit.fit();
	// Without re-arms the line is placed where the earliest expiry ran.
	ck_assert_uint_eq(g.phase, 1000);
	ck_assert_uint_eq(g.jiffies(5000001000ull), 100);
	ck_assert_uint_eq(g.jiffies(5019001000ull), 119);
	ck_assert_uint_eq(g.pairs, 40);
	ck_assert_uint_eq(g.agreeing, 36);
}
END_TEST

START_TEST(pairs_that_disagree_give_no_grid)
{
	// A "tick" that does not keep time with jiffies (a periodic hrtimer
	// of some program, on its own clock): no offset wins.
	tick_grid_fit fit(4000000, 64);
	for (unsigned i = 0; i < 12; i++) {
		std::uint64_t g = 9000000000ull + 4000000ull * i;
		fit.tick_expiry(g + 1000, g + 1000);
		fit.jiffies_at(g + 2000, 5000 + 7 * i * i);
	}
	ck_assert(!fit.fit().known());
}
END_TEST

// ---- who sees which jiffy ---------------------------------------------------------------

START_TEST(one_cpu_always_sees_its_grid_line)
{
	tick_model m(1);
	tick_run r = m.tick(0, 1000, std::nullopt, false);
	ck_assert_uint_eq(r.limit, 1000);
	ck_assert_uint_eq(r.label, 1000);
	ck_assert(!r.settled);
}
END_TEST

START_TEST(the_owner_is_learnt_from_a_softirq_and_handed_over_on_idle)
{
	tick_model m(2);
	// Nobody is known to own the update: only the previous jiffy is sure.
	tick_run r = m.tick(1, 1000, std::nullopt, false);
	ck_assert_uint_eq(r.limit, 999);
	// CPU 0 ticks first on 1001 and its softirq printed 1001: it moved
	// jiffies itself.
	r = m.tick(0, 1001, 1001, false);
	ck_assert(r.settled);
	ck_assert_uint_eq(r.label, 1001);
	ck_assert(m.owner() && *m.owner() == 0);
	// CPU 1 ticked on 1001 after CPU 0: that proves nothing about CPU 1.
	m.tick(1, 1001, 1001, false);
	ck_assert(*m.owner() == 0);
	ck_assert_uint_eq(m.tick(0, 1002, std::nullopt, false).limit, 1002);
	ck_assert_uint_eq(m.tick(1, 1002, std::nullopt, false).limit, 1001);
	// The owner's base goes idle: it drops the duty, CPU 1 takes it at its
	// next tick.
	m.base_idle(0, true);
	ck_assert(!m.owner());
	ck_assert_uint_eq(m.tick(1, 1003, std::nullopt, false).limit, 1003);
	ck_assert(*m.owner() == 1);
	// CPU 0's tick that ends its idle stretch updated jiffies on waking.
	ck_assert_uint_eq(m.tick(0, 1010, std::nullopt, false).limit, 1010);
	m.base_idle(0, false);
	ck_assert_uint_eq(m.tick(0, 1011, std::nullopt, false).limit, 1010);
}
END_TEST

START_TEST(a_late_owner_tick_holds_the_other_cpus_back)
{
	tick_model m(2);
	m.tick(0, 1000, 1000, false);
	ck_assert(*m.owner() == 0);
	// The owner's ticks on 1001 and 1002 run late (a long interrupt):
	// CPU 1 ticking on them still sees the owner's last update, 1000.
	ck_assert_uint_eq(m.tick(1, 1001, std::nullopt, false).limit, 1000);
	ck_assert_uint_eq(m.tick(1, 1002, std::nullopt, false).limit, 1000);
	// The owner catches up; CPU 1 is back to the previous jiffy.
	m.tick(0, 1002, std::nullopt, false);
	ck_assert_uint_eq(m.tick(1, 1003, std::nullopt, false).limit, 1002);
	// An owner silent for longer stopped its tick: no hold any more.
	ck_assert_uint_eq(m.tick(1, 1009, std::nullopt, false).limit, 1008);
}
END_TEST

START_TEST(a_waking_cpu_that_saw_its_grid_line_does_not_take_the_duty)
{
	tick_model m(2);
	m.tick(0, 1000, 1000, false);
	m.tick(1, 1000, 1000, true);
	ck_assert(*m.owner() == 0);
	// CPU 1's tick was stopped from 1000 to 1020: waking, it updated
	// jiffies itself (tick_nohz_irq_enter) before CPU 0 ticked 1020.
	tick_run r = m.tick(1, 1020, 1020, false);
	ck_assert_uint_eq(r.label, 1020);
	ck_assert(*m.owner() == 0);
	// A CPU ticking every jiffy that sees its line first does move jiffies.
	m.tick(1, 1021, 1021, false);
	ck_assert(*m.owner() == 1);
}
END_TEST

START_TEST(a_softirq_that_saw_the_old_jiffy_unseats_the_owner)
{
	tick_model m(2);
	m.tick(0, 1001, 1001, false);
	ck_assert(*m.owner() == 0);
	tick_run r = m.tick(0, 1002, 1001, false);
	ck_assert_uint_eq(r.limit, 1001);
	ck_assert(!m.owner());
}
END_TEST

int main()
{
	Suite *s = suite_create("tick_model");
	TCase *id = tcase_create("identity");
	tcase_set_timeout(id, 120);
	tcase_add_test(id, the_6_18_tick_is_found_by_name_in_every_rendering);
	tcase_add_test(id, the_3_6_tick_is_found_by_its_period);
	tcase_add_test(id, the_bundled_recording_has_its_tick_named);
	tcase_add_test(id, sleeps_off_the_grid_are_not_a_tick);
	tcase_add_test(id, an_address_on_the_grid_is_the_tick_without_starts);
	suite_add_tcase(s, id);
	TCase *grid = tcase_create("grid");
	tcase_set_timeout(grid, 120);
	tcase_add_test(grid, the_6_18_grid_maps_a_tick_to_the_jiffies_its_softirq_printed);
	tcase_add_test(grid, the_perf_script_grid_agrees_with_its_timestamps);
	tcase_add_test(grid, the_3_6_grid_starts_at_initial_jiffies);
	tcase_add_test(grid, a_32_bit_grid_wraps_in_the_word);
	tcase_add_test(grid, a_stale_pair_is_outvoted);
	tcase_add_test(grid, pairs_that_disagree_give_no_grid);
	suite_add_tcase(s, grid);
	TCase *model = tcase_create("model");
	tcase_add_test(model, one_cpu_always_sees_its_grid_line);
	tcase_add_test(model, the_owner_is_learnt_from_a_softirq_and_handed_over_on_idle);
	tcase_add_test(model, a_softirq_that_saw_the_old_jiffy_unseats_the_owner);
	tcase_add_test(model, a_late_owner_tick_holds_the_other_cpus_back);
	tcase_add_test(model, a_waking_cpu_that_saw_its_grid_line_does_not_take_the_duty);
	suite_add_tcase(s, model);
	return timersim::test::run_suite(s);
}
