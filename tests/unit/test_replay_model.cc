// The replay model of ../shared/docs/replay-contract.md, rule by rule, on
// small hand-written raw ftrace traces through the real reader and core.

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "sim/replay/replay.h"
#include "sim/output/expiry_log.h"
#include "sim/output/output_file.h"
#include "sim/trace/reader.h"
#include "tests/support/cli.h"
#include "tests/support/text_trace_util.h"

// Last: check.h defines macros that clash with <iostream> internals.
#include "tests/support/check_main.h"

using namespace timersim;
using timersim::test::ftrace_text;
using timersim::test::write_temp;

namespace {

// One raw ftrace line: CPU column, timestamp in microseconds, payload.
std::string ev(unsigned cpu, unsigned long long usec, const std::string &payload)
{
	char head[96];
	std::snprintf(head, sizeof head, "          <idle>-0     [%03u] ..s.  %llu.%06llu: ", cpu,
		      usec / 1000000, usec % 1000000);
	return head + payload + "\n";
}

std::string start(const char *timer, unsigned long long expires, long timeout,
		  const char *fn = "foo")
{
	return std::string("timer_start: timer=") + timer + " function=" + fn +
	       " expires=" + std::to_string(expires) + " [timeout=" + std::to_string(timeout) + "]";
}

std::string start_on(const char *timer, unsigned long long expires, long timeout, unsigned cpu)
{
	return start(timer, expires, timeout) + " cpu=" + std::to_string(cpu) + " idx=0 flags=";
}

std::string cancel(const char *timer) { return std::string("timer_cancel: timer=") + timer; }

std::string expire(const char *timer, unsigned long long now, const char *fn = "foo")
{
	return std::string("timer_expire_entry: timer=") + timer + " function=" + fn +
	       " now=" + std::to_string(now);
}

const char *A = "ffff880000000a00";
const char *B = "ffff880000000b00";
const char *C = "ffff880000000c00";

replay_report replay_body(const std::string &body, replay_options opt = {}, unsigned cpus = 1)
{
	if (!opt.hz)
		opt.hz = 250;
	std::string path = write_temp("model.txt", ftrace_text(body, cpus));
	reader_options ro;
	ro.lenient = opt.lenient;
	auto reader = open_trace(path, trace_format::auto_detect, ro);
	return replay_trace(*reader, path, opt);
}

}  // namespace

START_TEST(recorded_expiry_in_the_same_jiffy_is_exact)
{
	replay_report r = replay_body(ev(0, 100000000, start(A, 1010, 10)) +
				      ev(0, 100040000, cancel(A)) +
				      ev(0, 100040001, expire(A, 1010)) +
				      ev(0, 100040002, "timer_expire_exit: timer=ffff880000000a00"));
	ck_assert_uint_eq(r.fidelity.compared, 1);
	ck_assert_uint_eq(r.fidelity.exact, 1);
	// The cancel that precedes an expiry is part of it, not a cancellation.
	ck_assert_uint_eq(r.timers.canceled, 0);
	ck_assert_uint_eq(r.timers.expired, 1);
	ck_assert_uint_eq(r.timers.pending_at_end, 0);
	ck_assert_uint_eq(r.events.timer_cancel, 1);
	ck_assert_uint_eq(r.events.timer_expire_exit, 1);
}
END_TEST

START_TEST(kernel_later_than_simulation_is_early)
{
	replay_report r = replay_body(ev(0, 100000000, start(A, 1010, 10)) +
				      ev(0, 100050000, cancel(A)) + ev(0, 100050001, expire(A, 1012)));
	ck_assert_uint_eq(r.fidelity.early, 1);
	ck_assert_uint_eq(r.fidelity.exact, 0);
}
END_TEST

START_TEST(kernel_earlier_than_simulation_is_late_and_state_follows_kernel)
{
	replay_report r = replay_body(ev(0, 100000000, start(A, 1010, 10)) +
				      ev(0, 100020000, cancel(A)) + ev(0, 100020001, expire(A, 1005)) +
				      ev(0, 100200000, start(B, 1060, 10)));
	ck_assert_uint_eq(r.fidelity.late, 1);
	// Expired at the recorded jiffy: it must not fire again at 1010.
	ck_assert_uint_eq(r.timers.expired, 1);
	ck_assert_uint_eq(r.lateness.expiries, 0);
	ck_assert_uint_eq(r.timers.pending_at_end, 1);
}
END_TEST

START_TEST(expiry_of_a_timer_never_started_is_unmatched)
{
	replay_report r = replay_body(ev(0, 100000000, start(A, 1010, 10)) +
				      ev(0, 100000100, cancel(B)) + ev(0, 100000101, expire(B, 1000)));
	ck_assert_uint_eq(r.fidelity.unmatched, 1);
	ck_assert_uint_eq(r.fidelity.compared, 1);
	ck_assert_uint_eq(r.timers.distinct, 2);
}
END_TEST

START_TEST(cancel_then_start_is_one_rearm)
{
	replay_report r = replay_body(ev(0, 100000000, start(A, 1010, 10)) +
				      ev(0, 100020000, cancel(A)) +
				      ev(0, 100020001, start(A, 1020, 15)) +
				      ev(0, 100200000, start(B, 1060, 10)));
	ck_assert_uint_eq(r.timers.started, 3);
	ck_assert_uint_eq(r.timers.rearmed, 1);
	ck_assert_uint_eq(r.timers.canceled, 0);
	// A fired at 1020 (its new expiry), not at 1010.
	ck_assert_uint_eq(r.timers.expired, 1);
	ck_assert_uint_eq(r.lateness.on_time, 1);
}
END_TEST

START_TEST(plain_cancel_removes_the_timer)
{
	replay_report r = replay_body(ev(0, 100000000, start(A, 1010, 10)) +
				      ev(0, 100020000, cancel(A)) +
				      ev(0, 100020001, start(B, 1020, 15)) +
				      ev(0, 100400000, start(C, 1200, 100)));
	ck_assert_uint_eq(r.timers.canceled, 1);
	ck_assert_uint_eq(r.timers.rearmed, 0);
	ck_assert_uint_eq(r.timers.expired, 1);	// B only
	// A second cancel of an idle timer changes nothing.
	replay_report r2 = replay_body(ev(0, 100000000, start(A, 1010, 10)) +
				       ev(0, 100020000, cancel(A)) + ev(0, 100020001, cancel(A)) +
				       ev(0, 100020002, start(B, 1020, 15)));
	ck_assert_uint_eq(r2.timers.canceled, 1);
}
END_TEST

START_TEST(cancel_pairs_with_its_expiry_across_other_cpus_events)
{
	replay_report r = replay_body(ev(0, 100000000, start(A, 1010, 10)) +
				      ev(0, 100040000, cancel(A)) +
				      ev(1, 100040000, start(B, 1030, 20)) +
				      ev(0, 100040001, expire(A, 1010)),
				      {}, 2);
	ck_assert_uint_eq(r.timers.canceled, 0);
	ck_assert_uint_eq(r.fidelity.exact, 1);
}
END_TEST

// A tv2 timer cascaded into tv1, then canceled: wasted cascade work.
START_TEST(moved_then_canceled_counts_wasted_cascades)
{
	// Expires at 1300: idx 300 -> tv2 slot (1300 >> 8) & 63 = 5, cascaded
	// at jiffy 1280. The base passes 1024 and 1280 before jiffy 1290.
	replay_report r = replay_body(ev(0, 100000000, start(A, 1300, 300)) +
				      ev(0, 101160000, start(B, 1400, 110)) +
				      ev(0, 101160001, cancel(A)) +
				      ev(0, 101160002, start(C, 1500, 210)));
	ck_assert_uint_eq(r.enqueue.at(1).level == "tv2" ? r.enqueue.at(1).count : 99, 1);
	ck_assert_str_eq(r.cascade.levels.at(0).level.c_str(), "tv2");
	ck_assert_uint_eq(r.cascade.levels.at(0).calls, 2);	// at 1024 and 1280
	ck_assert_uint_eq(r.cascade.levels.at(0).moved, 1);
	ck_assert_uint_eq(r.cascade.moved_total, 1);
	ck_assert_uint_eq(r.cascade.moved_then_canceled, 1);
	ck_assert_uint_eq(r.cascade.max_moved_in_one_tick, 1);
	ck_assert_uint_eq(r.cascade.max_moved_jiffy, 1280);
	ck_assert_uint_eq(r.ticks_processed, 1289 - 1000 + 1);
	ck_assert_uint_eq(r.functions.at(0).moved, 1);
}
END_TEST

// 4.11+: cpu= names the base; the expiry is recorded on that CPU.
START_TEST(start_goes_to_the_base_named_by_cpu_field)
{
	replay_report r = replay_body(ev(0, 100000000, start_on(A, 1010, 10, 1)) +
				      ev(1, 100040000, cancel(A)) + ev(1, 100040001, expire(A, 1010)),
				      {}, 2);
	ck_assert_uint_eq(r.fidelity.exact, 1);
	// Queued on CPU 0's base instead, base 1 would not have fired it.
	replay_report wrong = replay_body(ev(0, 100000000, start(A, 1010, 10)) +
					  ev(1, 100040000, cancel(A)) + ev(1, 100040001, expire(A, 1010)),
					  {}, 2);
	ck_assert_uint_eq(wrong.fidelity.late, 1);
}
END_TEST

START_TEST(drain_runs_until_the_last_timer_fired)
{
	std::string body = ev(0, 100000000, start(A, 1100, 100)) + ev(0, 100000001, start(B, 1050, 50));
	replay_report plain = replay_body(body);
	ck_assert_uint_eq(plain.timers.pending_at_end, 2);
	ck_assert_uint_eq(plain.ticks_processed, 0);

	replay_options opt;
	opt.drain = true;
	replay_report drained = replay_body(body, opt);
	ck_assert_uint_eq(drained.timers.pending_at_end, 0);
	ck_assert_uint_eq(drained.timers.expired, 2);
	ck_assert(drained.drained);
	ck_assert_uint_eq(drained.ticks_processed, 1100 - 1000 + 1);
}
END_TEST

// An event with jiffies J is applied after jiffies < J were processed, but
// before J itself: a timer started at J for J fires in J.
START_TEST(softirq_runs_after_events_of_the_same_jiffy)
{
	replay_report r = replay_body(ev(0, 100000000, start(A, 1005, 5)) +
				      ev(0, 100020000, start(B, 1005, 0)) +
				      ev(0, 100020100, cancel(A)) + ev(0, 100020101, expire(A, 1005)) +
				      ev(0, 100020102, cancel(B)) + ev(0, 100020103, expire(B, 1005)));
	ck_assert_uint_eq(r.fidelity.exact, 2);
}
END_TEST

START_TEST(jiffies_going_backwards_is_an_input_error)
{
	std::string body = ev(0, 100000000, start(A, 1010, 10)) + ev(0, 100000001, start(B, 1000, 10)) +
			    ev(0, 100000002, start(C, 1030, 20));
	bool thrown = false;
	try {
		replay_body(body);
	} catch (const input_error &e) {
		thrown = true;
		// Header lines 1-6, then the events: the second start is line 8.
		ck_assert_uint_eq(e.line(), 8);
		ck_assert(std::string(e.what()).find("backwards on CPU 0") != std::string::npos);
	}
	ck_assert(thrown);

	replay_options opt;
	opt.lenient = true;
	replay_report r = replay_body(body, opt);
	ck_assert_uint_eq(r.input.malformed, 1);
	ck_assert_uint_eq(r.input.events, 2);
	ck_assert_uint_eq(r.input.events + r.input.skipped, r.input.lines);
	ck_assert_uint_eq(r.timers.started, 2);
}
END_TEST

// A 32-bit kernel (8-digit pointers): jiffies wrap at 2^32.
START_TEST(thirty_two_bit_jiffies_wrap)
{
	// Started at 2^32 - 256 with timeout 512: expires is printed as 256.
	std::string body = ev(0, 100000000, "timer_start: timer=c0001000 function=foo expires=256 [timeout=512]") +
			   ev(0, 102048000, "timer_cancel: timer=c0001000") +
			   ev(0, 102048001, "timer_expire_entry: timer=c0001000 function=foo now=256");
	replay_report r = replay_body(body);
	ck_assert_uint_eq(r.input.word_bits, 32);
	ck_assert(r.input.word_bits_inferred);
	ck_assert_uint_eq(r.input.first_jiffies, 4294967040u);
	ck_assert_uint_eq(r.input.last_jiffies, 256);
	ck_assert_uint_eq(r.fidelity.exact, 1);
	ck_assert_uint_eq(r.enqueue.at(1).count, 1);	// idx 512: tv2
	ck_assert_uint_eq(r.cascade.moved_total, 1);
	ck_assert_uint_eq(r.cascade.max_moved_jiffy, 256);
	ck_assert_uint_eq(r.ticks_processed, 513);
}
END_TEST

START_TEST(hz_is_inferred_from_timestamps_and_jiffies)
{
	for (unsigned hz : {100u, 250u, 300u, 1000u}) {
		std::string body;
		for (unsigned s = 0; s <= 3; s++)
			body += ev(0, 100000000ull + s * 1000000ull,
				   start(A, 1000 + s * hz + 10, 10));
		replay_options opt;
		opt.hz = 0;
		std::string path = write_temp("hz.txt", ftrace_text(body));
		auto reader = open_trace(path, trace_format::auto_detect, {});
		replay_report r = replay_trace(*reader, path, opt);
		ck_assert_uint_eq(r.input.hz, hz);
		ck_assert(r.input.hz_inferred);
	}
}
END_TEST

START_TEST(expiry_log_rows)
{
	std::string log_path = write_temp("expiries.csv", "");
	{
		output_file out(log_path);
		expiry_log log(out);
		std::string path = write_temp("model.txt",
			ftrace_text(ev(0, 100000000, start(A, 1010, 10, "bar")) +
				    ev(0, 100000001, start(B, 1005, 5)) +
				    ev(0, 100020000, expire(B, 1005)) +
				    ev(0, 100048000, expire(A, 1012, "bar")) +
				    ev(0, 100200000, start(C, 1100, 50, "a,\"quoted\""))));
		auto reader = open_trace(path, trace_format::auto_detect, {});
		replay_options opt;
		opt.hz = 250;
		opt.drain = true;
		replay_trace(*reader, path, opt, {&log});
		out.commit();
	}
	std::ifstream in(log_path);
	std::stringstream ss;
	ss << in.rdbuf();
	const std::string rows = ss.str();
	// Each row carries the recorded expiry that judged it; one no
	// recorded expiry claimed has none. A name with a comma or a quote is
	// one RFC 4180 field.
	ck_assert_str_eq(rows.c_str(),
			 "cpu,timer,function,expires,fired,recorded,verdict\n"
			 "0,0xffff880000000b00,foo,1005,1005,1005,exact\n"
			 "0,0xffff880000000a00,bar,1010,1010,1012,early\n"
			 "0,0xffff880000000c00,\"a,\"\"quoted\"\"\",1100,1100,,simulated_only\n");
}
END_TEST

// Corrupt jiffies must not make a base process 2^40 jiffies.
START_TEST(a_corrupt_jiffies_leap_is_an_input_error)
{
	std::string body = ev(0, 100000000, start(A, 1010, 10)) +
			   ev(0, 100000001, start(B, (1ull << 40) + 10, 10));
	bool thrown = false;
	try {
		replay_body(body);
	} catch (const input_error &e) {
		thrown = true;
		ck_assert_uint_eq(e.line(), 8);
		ck_assert(std::string(e.what()).find("leap forward") != std::string::npos);
	}
	ck_assert(thrown);
}
END_TEST

// Jiffy 0, and a trace without any jiffies at all, replay without
// underflowing "the jiffy before".
START_TEST(jiffy_zero_and_no_jiffies_at_all)
{
	replay_report r = replay_body(ev(0, 100000000, start(A, 5, 5)) +
				      ev(0, 100000001, start(B, 3, 3)) +
				      ev(0, 100020000, cancel(B)) + ev(0, 100020001, expire(B, 3)));
	ck_assert_uint_eq(r.input.first_jiffies, 0);
	ck_assert_uint_eq(r.fidelity.exact, 1);
	replay_report none = replay_body(ev(0, 100000000, cancel(A)) +
					 ev(0, 100000001, "timer_init: timer=ffff880000000b00"));
	ck_assert_uint_eq(none.ticks_processed, 0);
	ck_assert_uint_eq(none.events.timer_cancel, 1);
}
END_TEST

// --drain gives up past its horizon instead of running 2^40 jiffies.
START_TEST(drain_stops_at_its_horizon)
{
	replay_options opt;
	opt.drain = true;
	opt.drain_limit = 4096;
	replay_report r = replay_body(ev(0, 100000000, start(A, 1000 + (1ull << 40), 1ull << 40)) +
				      ev(0, 100000001, start(B, 1050, 50)),
				      opt);
	ck_assert(!r.drained);
	ck_assert_uint_eq(r.timers.expired, 1);
	ck_assert_uint_eq(r.timers.pending_at_end, 1);
	ck_assert_uint_eq(r.drain_stopped_at, 1000 + 4096);
	ck_assert_uint_eq(r.ticks_processed, 4096 + 1);	// jiffies 1000 .. 1000 + 4096
}
END_TEST

// The CPU numbers in a trace must not size the replay: a huge CPU column is
// checked against the count the trace declares, or a cap of 4096 bases.
START_TEST(cpu_numbers_are_checked_not_trusted)
{
	std::string huge = ev(999999, 100000000, start(A, 1010, 10)) + ev(0, 100000001, start(B, 1005, 5));
	std::string declared;
	try {
		replay_body(huge, {}, 2);
	} catch (const input_error &e) {
		declared = e.what();
	}
	ck_assert_msg(declared.find("CPU 999999 is beyond the 2 CPUs the trace declares") !=
			      std::string::npos, "%s", declared.c_str());

	// No #P: header: the bases are capped, and the replay is small.
	std::string path = write_temp("undeclared.txt", huge);
	auto reader = open_trace(path, trace_format::ftrace, {});
	std::string capped;
	try {
		replay_trace(*reader, path, {});
	} catch (const input_error &e) {
		capped = e.what();
	}
	ck_assert_msg(capped.find("cap of 4096 CPUs") != std::string::npos, "%s", capped.c_str());
}
END_TEST

int main()
{
	Suite *s = suite_create("replay_model");
	TCase *tc = tcase_create("contract");
	tcase_add_test(tc, recorded_expiry_in_the_same_jiffy_is_exact);
	tcase_add_test(tc, kernel_later_than_simulation_is_early);
	tcase_add_test(tc, kernel_earlier_than_simulation_is_late_and_state_follows_kernel);
	tcase_add_test(tc, expiry_of_a_timer_never_started_is_unmatched);
	tcase_add_test(tc, cancel_then_start_is_one_rearm);
	tcase_add_test(tc, plain_cancel_removes_the_timer);
	tcase_add_test(tc, cancel_pairs_with_its_expiry_across_other_cpus_events);
	tcase_add_test(tc, moved_then_canceled_counts_wasted_cascades);
	tcase_add_test(tc, start_goes_to_the_base_named_by_cpu_field);
	tcase_add_test(tc, drain_runs_until_the_last_timer_fired);
	tcase_add_test(tc, softirq_runs_after_events_of_the_same_jiffy);
	tcase_add_test(tc, jiffies_going_backwards_is_an_input_error);
	tcase_add_test(tc, thirty_two_bit_jiffies_wrap);
	tcase_add_test(tc, hz_is_inferred_from_timestamps_and_jiffies);
	tcase_add_test(tc, expiry_log_rows);
	tcase_add_test(tc, a_corrupt_jiffies_leap_is_an_input_error);
	tcase_add_test(tc, jiffy_zero_and_no_jiffies_at_all);
	tcase_add_test(tc, drain_stops_at_its_horizon);
	tcase_add_test(tc, cpu_numbers_are_checked_not_trusted);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
