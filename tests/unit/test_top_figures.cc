// top_figures::add (sim/output/top_figures.h): two intervals' figures add
// up as a run's: callbacks merged by name and levels by name, each in the
// order first seen, every count summed, `measured` held by either.
#include <string>

#include "sim/output/top_figures.h"
#include "tests/support/check_main.h"

using timersim::top_callback;
using timersim::top_figures;

namespace {

top_callback callback(const char *name, std::uint64_t base, bool measured)
{
	top_callback c;
	c.function = name;
	c.measured = measured;
	c.measured_ns = base;
	c.runs = base + 1;
	c.model_units = base + 2;
	c.expired = base + 3;
	c.wakeups = base + 4;
	return c;
}

START_TEST(intervals_add_up_by_name)
{
	top_figures run, next;
	run.pending_levels = {{"0", 5}, {"2", 7}};
	run.callbacks = {callback("tcp_write_timer", 10, false), callback("process_timeout", 20, true)};
	next.pending_levels = {{"1", 1}, {"2", 3}};
	next.callbacks = {callback("process_timeout", 100, false), callback("delayed_work_timer_fn", 30, true),
			  callback("tcp_write_timer", 40, true)};
	run.add(next);

	ck_assert_uint_eq(run.pending_levels.size(), 3);
	ck_assert_str_eq(run.pending_levels[0].first.c_str(), "0");
	ck_assert_uint_eq(run.pending_levels[0].second, 5);
	ck_assert_str_eq(run.pending_levels[1].first.c_str(), "2");
	ck_assert_uint_eq(run.pending_levels[1].second, 10);
	ck_assert_str_eq(run.pending_levels[2].first.c_str(), "1");
	ck_assert_uint_eq(run.pending_levels[2].second, 1);

	ck_assert_uint_eq(run.callbacks.size(), 3);
	const top_callback &tcp = run.callbacks[0], &pt = run.callbacks[1], &dw = run.callbacks[2];
	ck_assert_str_eq(tcp.function.c_str(), "tcp_write_timer");
	ck_assert(tcp.measured);	// the second interval measured it
	ck_assert_uint_eq(tcp.measured_ns, 50);
	ck_assert_uint_eq(tcp.runs, 52);
	ck_assert_uint_eq(tcp.model_units, 54);
	ck_assert_uint_eq(tcp.expired, 56);
	ck_assert_uint_eq(tcp.wakeups, 58);
	ck_assert_str_eq(pt.function.c_str(), "process_timeout");
	ck_assert(pt.measured);		// the first did
	ck_assert_uint_eq(pt.measured_ns, 120);
	ck_assert_uint_eq(pt.wakeups, 128);
	ck_assert_str_eq(dw.function.c_str(), "delayed_work_timer_fn");
	ck_assert_uint_eq(dw.runs, 31);

	// Adding nothing changes nothing.
	run.add(top_figures{});
	ck_assert_uint_eq(run.callbacks.size(), 3);
	ck_assert_uint_eq(run.callbacks[0].measured_ns, 50);
}
END_TEST

}  // namespace

int main()
{
	Suite *s = suite_create("top_figures");
	TCase *tc = tcase_create("top_figures");
	tcase_add_test(tc, intervals_add_up_by_name);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
