// The measured cost of the timer code, on event sequences worked out by
// hand: a softirq run's own time, its callbacks and overhead; hard
// interrupts inside runs and callbacks subtracted once, nested ones not
// twice; runs cut by the trace's ends counted, not timed; other softirqs
// ignored; order statistics by nearest rank.
#include <string>
#include <vector>

#include "sim/measured/cpu_time.h"

#include "tests/support/check_main.h"

using namespace timersim::measured;

namespace {

// Callback names by id, as the replay's interner gives them.
std::vector<std::string> names{""};

std::uint32_t id_of(std::string_view fn)
{
	for (std::uint32_t i = 0; i < names.size(); i++)
		if (names[i] == fn)
			return i;
	names.emplace_back(fn);
	return std::uint32_t(names.size() - 1);
}

void add(cpu_time &t, cost_kind k, std::uint64_t ts, std::uint32_t cpu = 0, std::uint32_t vec = 0,
	 bool timer = false, std::string_view fn = {})
{
	t.add({k, cpu, ts, vec, timer, id_of(fn)});
}

cost_report finish(cpu_time &t)
{
	return t.finish([](std::uint32_t id) { return names.at(id); });
}

void softirq_in(cpu_time &t, std::uint64_t ts, std::uint32_t vec = 1, std::uint32_t cpu = 0)
{
	add(t, cost_kind::softirq_entry, ts, cpu, vec);
}
void softirq_out(cpu_time &t, std::uint64_t ts, std::uint32_t vec = 1, std::uint32_t cpu = 0)
{
	add(t, cost_kind::softirq_exit, ts, cpu, vec);
}
void irq_in(cpu_time &t, std::uint64_t ts, bool timer = true, std::uint32_t cpu = 0)
{
	add(t, cost_kind::hardirq_entry, ts, cpu, 0, timer);
}
void irq_out(cpu_time &t, std::uint64_t ts, bool timer = true, std::uint32_t cpu = 0)
{
	add(t, cost_kind::hardirq_exit, ts, cpu, 0, timer);
}
void cb_in(cpu_time &t, std::uint64_t ts, std::string_view fn, std::uint32_t cpu = 0)
{
	add(t, cost_kind::callback_entry, ts, cpu, 0, false, fn);
}
void cb_out(cpu_time &t, std::uint64_t ts, std::string_view fn, std::uint32_t cpu = 0)
{
	add(t, cost_kind::callback_exit, ts, cpu, 0, false, fn);
}

}  // namespace

START_TEST(a_run_splits_into_callbacks_and_overhead)
{
	cpu_time t;
	softirq_in(t, 100);
	cb_in(t, 110, "process_timeout");
	cb_out(t, 150, "process_timeout");
	cb_in(t, 160, "tcp_write_timer");
	cb_out(t, 170, "tcp_write_timer");
	softirq_out(t, 200);
	cost_report r = finish(t);
	ck_assert(r.softirqs_recorded && r.callbacks_recorded && !r.interrupts_recorded);
	const softirq_stats &s = r.cpus.at(0).timer_softirq;
	ck_assert_uint_eq(s.runs.count, 1);
	ck_assert_uint_eq(s.runs.total_ns, 100);
	ck_assert_uint_eq(s.callbacks_ns, 50);
	ck_assert_uint_eq(s.overhead_ns(), 50);
	ck_assert_uint_eq(r.callbacks.at("process_timeout").runs.total_ns, 40);
	ck_assert_uint_eq(r.callbacks.at("process_timeout").in_timer_softirq, 1);
	ck_assert_uint_eq(r.cut, 0);
}
END_TEST

// softirq 0..100 { callback 10..70 { timer irq 20..50 } }
START_TEST(a_hard_irq_inside_is_nobody_elses_time)
{
	cpu_time t;
	softirq_in(t, 0);
	cb_in(t, 10, "f");
	irq_in(t, 20);
	irq_out(t, 50);
	cb_out(t, 70, "f");
	softirq_out(t, 100);
	cost_report r = finish(t);
	ck_assert(r.interrupts_recorded);
	ck_assert_uint_eq(r.all.interrupts.timer.count, 1);
	ck_assert_uint_eq(r.all.interrupts.timer.total_ns, 30);
	ck_assert_uint_eq(r.callbacks.at("f").runs.total_ns, 30);	// 60 - 30
	ck_assert_uint_eq(r.all.timer_softirq.runs.total_ns, 70);	// 100 - 30
	ck_assert_uint_eq(r.all.timer_softirq.callbacks_ns, 30);
	ck_assert_uint_eq(r.all.timer_softirq.overhead_ns(), 40);
}
END_TEST

// softirq 0..100 { timer irq 10..60 { other irq 20..30 } }: the other irq's
// 10 ns are taken from the timer irq once and from the run once (as part of
// the timer irq's 50), not twice.
START_TEST(nested_hard_irqs_are_not_counted_twice)
{
	cpu_time t;
	softirq_in(t, 0);
	irq_in(t, 10, true);
	irq_in(t, 20, false);
	irq_out(t, 30, false);
	irq_out(t, 60, true);
	softirq_out(t, 100);
	cost_report r = finish(t);
	ck_assert_uint_eq(r.all.interrupts.other_count, 1);
	ck_assert_uint_eq(r.all.interrupts.other_ns, 10);
	ck_assert_uint_eq(r.all.interrupts.timer.total_ns, 40);
	ck_assert_uint_eq(r.all.timer_softirq.runs.total_ns, 50);
}
END_TEST

// The tick's hrtimer callback runs in the timer interrupt that interrupted
// a TIMER softirq callback: it is the interrupt's, not the softirq's.
START_TEST(a_tick_callback_in_an_interrupt_is_not_the_softirqs)
{
	cpu_time t;
	softirq_in(t, 0);
	cb_in(t, 10, "x");
	irq_in(t, 20);
	cb_in(t, 25, "tick_nohz_handler");
	cb_out(t, 35, "tick_nohz_handler");
	irq_out(t, 40);
	cb_out(t, 80, "x");
	softirq_out(t, 100);
	cost_report r = finish(t);
	const callback_cost &tick = r.callbacks.at("tick_nohz_handler");
	ck_assert_uint_eq(tick.runs.total_ns, 10);
	ck_assert_uint_eq(tick.in_hardirq, 1);
	ck_assert_uint_eq(tick.in_timer_softirq, 0);
	ck_assert_uint_eq(r.callbacks.at("x").runs.total_ns, 50);	// 70 - 20
	ck_assert_uint_eq(r.all.timer_softirq.runs.total_ns, 80);
	ck_assert_uint_eq(r.all.timer_softirq.callbacks_ns, 50);
	ck_assert_uint_eq(r.all.interrupts.timer.total_ns, 20);
}
END_TEST

START_TEST(runs_cut_by_the_trace_are_counted_not_timed)
{
	cpu_time t;
	softirq_out(t, 5);		// began before the trace
	softirq_in(t, 10);
	softirq_out(t, 30);
	softirq_in(t, 40);		// still running when the trace ends
	cost_report r = finish(t);
	ck_assert_uint_eq(r.cut, 2);
	ck_assert_uint_eq(r.all.timer_softirq.runs.count, 1);
	ck_assert_uint_eq(r.all.timer_softirq.runs.total_ns, 20);
}
END_TEST

START_TEST(other_softirqs_and_cpus_stay_apart)
{
	cpu_time t;
	softirq_in(t, 0, 3);		// NET_RX
	softirq_in(t, 0, 1, 1);		// TIMER on CPU 1, meanwhile
	add(t, cost_kind::softirq_raise, 5, 0, 1);
	add(t, cost_kind::softirq_raise, 6, 0, 8);
	add(t, cost_kind::softirq_raise, 7, 0, 3);
	softirq_out(t, 20, 3);
	softirq_in(t, 30, 8);
	softirq_out(t, 45, 8);
	softirq_out(t, 50, 1, 1);
	cost_report r = finish(t);
	ck_assert_uint_eq(r.cpus.size(), 2);
	ck_assert_uint_eq(r.cpus[0].timer_softirq.runs.count, 0);
	ck_assert_uint_eq(r.cpus[0].timer_softirq.raised, 1);
	ck_assert_uint_eq(r.cpus[0].hrtimer_softirq.raised, 1);
	ck_assert_uint_eq(r.cpus[0].hrtimer_softirq.runs.total_ns, 15);
	ck_assert_uint_eq(r.cpus[1].timer_softirq.runs.total_ns, 50);
	ck_assert_uint_eq(r.all.timer_softirq.runs.total_ns, 50);
	ck_assert_uint_eq(r.cut, 0);
}
END_TEST

START_TEST(nothing_recorded_says_so)
{
	cpu_time t;
	cb_in(t, 0, "f");
	cb_out(t, 9, "f");
	cost_report r = finish(t);
	ck_assert(!r.softirqs_recorded && !r.interrupts_recorded && r.callbacks_recorded);
	cpu_time none;
	ck_assert(!finish(none).callbacks_recorded);
}
END_TEST

// The run record the cost model is fitted to: handed back by the exit that
// closes a run, with its callbacks counted and an irq inside taken out.
START_TEST(the_closing_exit_hands_back_the_run)
{
	cpu_time t;
	softirq_in(t, 1000, 1, 1);
	cb_in(t, 1010, "a", 1);
	cb_out(t, 1030, "a", 1);
	irq_in(t, 1040, true, 1);
	ck_assert_ptr_null(t.add({cost_kind::hardirq_exit, 1, 1050, 0, true, 0}));
	cb_in(t, 1060, "b", 1);
	cb_out(t, 1065, "b", 1);
	const softirq_run *run = t.add({cost_kind::softirq_exit, 1, 1100, 1, false, 0});
	ck_assert_ptr_nonnull(run);
	ck_assert_uint_eq(run->cpu, 1);
	ck_assert_uint_eq(run->vec, 1);
	ck_assert_uint_eq(run->entry_ns, 1000);
	ck_assert_uint_eq(run->exit_ns, 1100);
	ck_assert_uint_eq(run->own_ns, 90);		// 100 - the irq's 10
	ck_assert_uint_eq(run->callbacks_ns, 25);	// 20 + 5
	ck_assert_uint_eq(run->callbacks, 2);
	ck_assert_uint_eq(run->overhead_ns(), 65);
	// Another softirq's exit closes nothing of the timer code's.
	add(t, cost_kind::softirq_entry, 1200, 1, 3);
	ck_assert_ptr_null(t.add({cost_kind::softirq_exit, 1, 1300, 3, false, 0}));
}
END_TEST

// What the state of the machine is read from (sim/measured/calibration.h):
// each closed callback with its own time and where it ran, each timer
// interrupt with its overhead and the first callback it ran, once each.
START_TEST(callbacks_and_interrupts_are_handed_back_for_the_state)
{
	cpu_time t;
	irq_in(t, 100);
	cb_in(t, 110, "tick");
	cb_out(t, 130, "tick");
	ck_assert_ptr_null(t.take_interrupt());
	const callback_time *c = t.take_callback();
	ck_assert_ptr_nonnull(c);
	ck_assert_uint_eq(c->entry_ns, 110);
	ck_assert_uint_eq(c->own_ns, 20);
	ck_assert_uint_eq(c->function, id_of("tick"));
	ck_assert(c->where == callback_context::hardirq);
	ck_assert_ptr_null(t.take_callback());	// once
	cb_in(t, 140, "wake");
	cb_out(t, 150, "wake");
	irq_out(t, 200);
	const interrupt_cost *i = t.take_interrupt();
	ck_assert_ptr_nonnull(i);
	ck_assert_uint_eq(i->entry_ns, 100);
	ck_assert_uint_eq(i->overhead_ns, 100 - 30);
	ck_assert_uint_eq(i->first_callback, id_of("tick"));	// not the second
	softirq_in(t, 300);
	cb_in(t, 310, "a");
	irq_in(t, 320);	// inside the callback: not its time, ran none
	irq_out(t, 325);
	i = t.take_interrupt();
	ck_assert_ptr_nonnull(i);
	ck_assert_uint_eq(i->first_callback, no_callback);
	cb_out(t, 340, "a");
	c = t.take_callback();
	ck_assert_ptr_nonnull(c);
	ck_assert_uint_eq(c->own_ns, 25);
	ck_assert(c->where == callback_context::timer_softirq);
	softirq_out(t, 400);
	cb_in(t, 500, "b");
	cb_out(t, 505, "b");
	ck_assert(t.take_callback()->where == callback_context::other);
}
END_TEST

// Causes of wakeups, by hand: interrupt 1 ran hrtimer_wakeup first (its
// cause); interrupt 2 ran the tick, then a TIMER softirq ran
// process_timeout then tcp_write_timer (process_timeout's); interrupt 3 ran
// the tick and nothing after it before interrupt 4 (the tick's); interrupt
// 4 ran nothing (without expiry); interrupt 5, on CPU 1, ran the tick and
// the trace ended (the tick's).
START_TEST(wakeups_are_credited_to_their_first_expiry)
{
	cpu_time t;
	auto tick_in = [&](std::uint64_t ts, std::uint32_t cpu = 0) {
		t.add({cost_kind::callback_entry, cpu, ts, 0, false, id_of("tick_nohz_handler"), true});
	};
	irq_in(t, 100);
	cb_in(t, 101, "hrtimer_wakeup");
	cb_out(t, 102, "hrtimer_wakeup");
	tick_in(103);
	cb_out(t, 104, "tick_nohz_handler");
	irq_out(t, 105);

	irq_in(t, 200);
	tick_in(201);
	cb_out(t, 202, "tick_nohz_handler");
	irq_out(t, 203);
	softirq_in(t, 204);
	cb_in(t, 205, "process_timeout");
	cb_out(t, 206, "process_timeout");
	cb_in(t, 207, "tcp_write_timer");
	cb_out(t, 208, "tcp_write_timer");
	softirq_out(t, 209);

	irq_in(t, 300);
	tick_in(301);
	cb_out(t, 302, "tick_nohz_handler");
	irq_out(t, 303);

	irq_in(t, 400);
	irq_out(t, 401);

	irq_in(t, 500, true, 1);
	tick_in(501, 1);
	cb_out(t, 502, "tick_nohz_handler", 1);
	irq_out(t, 503, true, 1);

	cost_report r = finish(t);
	ck_assert_uint_eq(r.wakeups, 5);
	ck_assert_uint_eq(r.wakeups_without_expiry, 1);
	ck_assert_uint_eq(r.callbacks.at("hrtimer_wakeup").wakeups, 1);
	ck_assert_uint_eq(r.callbacks.at("process_timeout").wakeups, 1);
	ck_assert_uint_eq(r.callbacks.at("tcp_write_timer").wakeups, 0);
	ck_assert_uint_eq(r.callbacks.at("tick_nohz_handler").wakeups, 2);
	// Per CPU (top shows them so): CPU 0 had 4 interrupts, one that ran
	// nothing; CPU 1 one, the tick's. Each CPU's causes add up to its count.
	ck_assert_uint_eq(r.cpus.at(0).wakeups, 4);
	ck_assert_uint_eq(r.cpus.at(0).wakeups_without_expiry, 1);
	ck_assert_uint_eq(r.cpus.at(1).wakeups, 1);
	ck_assert_uint_eq(r.cpus.at(1).wakeups_without_expiry, 0);
	const auto on = [&](const char *fn, std::size_t cpu) {
		const auto &v = r.callbacks.at(fn).wakeups_on_cpu;
		return cpu < v.size() ? v[cpu] : std::uint64_t{0};
	};
	ck_assert_uint_eq(on("hrtimer_wakeup", 0), 1);
	ck_assert_uint_eq(on("process_timeout", 0), 1);
	ck_assert_uint_eq(on("tick_nohz_handler", 0), 1);
	ck_assert_uint_eq(on("tick_nohz_handler", 1), 1);
	for (std::size_t cpu = 0; cpu < 2; cpu++) {
		std::uint64_t causes = r.cpus[cpu].wakeups_without_expiry;
		for (const auto &[fn, c] : r.callbacks)
			causes += on(fn.c_str(), cpu);
		ck_assert_uint_eq(causes, r.cpus[cpu].wakeups);
	}
}
END_TEST

START_TEST(order_statistics_by_nearest_rank)
{
	duration_samples v;
	for (std::uint64_t i = 100; i >= 1; i--)
		v.add(i);
	duration_stats s = summarise(v);
	ck_assert_uint_eq(s.count, 100);
	ck_assert_uint_eq(s.total_ns, 5050);
	ck_assert_uint_eq(s.p50_ns, 50);
	ck_assert_uint_eq(s.p99_ns, 99);
	ck_assert_uint_eq(s.max_ns, 100);
	duration_samples one;
	one.add(7);
	duration_stats o = summarise(one);
	ck_assert_uint_eq(o.p50_ns, 7);
	ck_assert_uint_eq(o.p99_ns, 7);
}
END_TEST

int main()
{
	Suite *s = suite_create("measured_cpu_time");
	TCase *tc = tcase_create("measured_cpu_time");
	tcase_add_test(tc, a_run_splits_into_callbacks_and_overhead);
	tcase_add_test(tc, a_hard_irq_inside_is_nobody_elses_time);
	tcase_add_test(tc, nested_hard_irqs_are_not_counted_twice);
	tcase_add_test(tc, a_tick_callback_in_an_interrupt_is_not_the_softirqs);
	tcase_add_test(tc, runs_cut_by_the_trace_are_counted_not_timed);
	tcase_add_test(tc, other_softirqs_and_cpus_stay_apart);
	tcase_add_test(tc, nothing_recorded_says_so);
	tcase_add_test(tc, the_closing_exit_hands_back_the_run);
	tcase_add_test(tc, callbacks_and_interrupts_are_handed_back_for_the_state);
	tcase_add_test(tc, wakeups_are_credited_to_their_first_expiry);
	tcase_add_test(tc, order_statistics_by_nearest_rank);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
