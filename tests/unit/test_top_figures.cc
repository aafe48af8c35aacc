// The parts `timersim top` is made of, each alone:
// - top_figures::add (sim/output/top_figures.h): two intervals' figures
//   add up as a run's: callbacks merged by name and levels by name, each
//   in the order first seen, every count summed, `measured` held by either;
// - the readers that hand stored events on as a trace
//   (sim/trace/stored_events.h): every event once, in order, each counted,
//   and the queue's end with its source's counts.
#include <string>
#include <thread>
#include <vector>

#include "sim/output/top_figures.h"
#include "sim/trace/stored_events.h"
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
	c.what_if_units = base + 5;
	c.wakeups_on_cpu = {base, 4};
	return c;
}

START_TEST(intervals_add_up_by_name)
{
	top_figures run, next;
	run.callbacks = {callback("tcp_write_timer", 10, false), callback("process_timeout", 20, true)};
	next.callbacks = {callback("process_timeout", 100, false), callback("delayed_work_timer_fn", 30, true),
			  callback("tcp_write_timer", 40, true)};
	run.add(next);

	ck_assert_uint_eq(run.callbacks.size(), 3);
	const top_callback &tcp = run.callbacks[0], &pt = run.callbacks[1], &dw = run.callbacks[2];
	ck_assert_str_eq(tcp.function.c_str(), "tcp_write_timer");
	ck_assert(tcp.measured);	// the second interval measured it
	ck_assert_uint_eq(tcp.measured_ns, 50);
	ck_assert_uint_eq(tcp.runs, 52);
	ck_assert_uint_eq(tcp.model_units, 54);
	ck_assert_uint_eq(tcp.expired, 56);
	ck_assert_uint_eq(tcp.wakeups, 58);
	ck_assert_uint_eq(tcp.what_if_units, 60);
	ck_assert_uint_eq(tcp.wakeups_on_cpu.size(), 2);	// per CPU, summed CPU by CPU
	ck_assert_uint_eq(tcp.wakeups_on_cpu[0], 50);
	ck_assert_uint_eq(tcp.wakeups_on_cpu[1], 8);
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

std::vector<timersim::trace_event> three_events()
{
	std::vector<timersim::trace_event> v(3);
	for (unsigned i = 0; i < v.size(); i++) {
		v[i].cpu = i;
		v[i].ts_ns = 1000 * (i + 1);
	}
	return v;
}

START_TEST(stored_readers_count_every_event)
{
	const std::vector<timersim::trace_event> events = three_events();
	timersim::stored_reader list(events, 4, timersim::trace_format::ftrace);
	timersim::trace_event ev;
	for (unsigned i = 0; i < events.size(); i++) {
		ck_assert(list.next(ev));
		ck_assert_uint_eq(ev.ts_ns, events[i].ts_ns);
	}
	ck_assert(!list.next(ev));
	ck_assert_uint_eq(list.stats().events, 3);
	ck_assert_uint_eq(list.stats().lines, 3);
	ck_assert_uint_eq(list.declared_cpus(), 4);
	ck_assert(list.format() == timersim::trace_format::ftrace);
	ck_assert_str_eq(list.unit(), "events");

	timersim::event_queue queue(2, timersim::trace_format::trace_dat);
	std::thread feeder([&] {
		queue.push(events);
		queue.push({events[0]});
		timersim::reader_stats source;
		source.lines = 9;
		source.events = 4;
		source.skipped = 5;
		queue.close(source);
	});
	unsigned n = 0;
	while (queue.next(ev)) {
		n++;
		if (n <= 4)
			ck_assert_uint_eq(queue.stats().events, n);
	}
	feeder.join();
	ck_assert_uint_eq(n, 4);
	ck_assert_uint_eq(queue.stats().lines, 9);	// the source's, at the end
	ck_assert_uint_eq(queue.stats().skipped, 5);
	ck_assert_uint_eq(queue.declared_cpus(), 2);
	ck_assert(queue.format() == timersim::trace_format::trace_dat);
}
END_TEST

}  // namespace

int main()
{
	Suite *s = suite_create("top_figures");
	TCase *tc = tcase_create("top_figures");
	tcase_add_test(tc, intervals_add_up_by_name);
	tcase_add_test(tc, stored_readers_count_every_event);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
