// The wheel judged by the bucket the kernel ran (issue 40): where a
// timer_expire_entry prints baseclk (5.2+), an expiry is exact when the
// model fired the timer from that bucket. Another CPU's tick can move
// jiffies on while the TIMER softirq runs its buckets, so `now` is then one
// ahead of the bucket: by jiffies an early miss, by the bucket none; its
// cause is named `jiffies_moved_on`. The excerpts are real lines.
#include <cstdlib>
#include <string>

#include "sim/replay/replay.h"
#include "tests/support/cli.h"
#include "tests/support/paths.h"
#include "tests/support/replay_file.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"	// last: check.h defines a fail() macro

using namespace timersim;
using timersim::test::run_suite;

namespace {

std::uint64_t cause(const std::vector<std::pair<std::string, std::uint64_t>> &misses,
		    const std::string &why)
{
	for (const auto &[name, n] : misses)
		if (name == why)
			return n;
	ck_abort_msg("no miss cause %s", why.c_str());
	return 0;
}

replay_report replay(const std::string &path, tick_mode ticks = tick_mode::automatic)
{
	replay_options opt = test::recording_options();
	opt.ticks = ticks;
	return test::replay_file(path, opt);
}

// tests/data/network-trace.txt.gz lines 2289, 5085 and 6386-6391: one
// softirq run on CPU 1 runs tcp_delack_timer's bucket 4296280782 with
// jiffies already at 4296280783, then goes on to bucket 4296280783.
const char *const moved_on_run =
	"    kworker/u8:0-31135   [001] d..3.  5554.090222: timer_start: timer=00000000fdeb552c function=delayed_work_timer_fn expires=4296280782 [timeout=50] bucket_expiry=4296280783 cpu=1 idx=15 flags=I\n"
	"         python3-1290    [001] d.s3.  5554.244218: timer_start: timer=000000003ac1b5b1 function=tcp_delack_timer expires=4296280781 [timeout=10] bucket_expiry=4296280782 cpu=1 idx=14 flags=\n"
	"         python3-1290    [001] dNs2.  5554.290819: timer_cancel: timer=000000003ac1b5b1\n"
	"         python3-1290    [001] .Ns1.  5554.290820: timer_expire_entry: timer=000000003ac1b5b1 function=tcp_delack_timer now=4296280783 baseclk=4296280782\n"
	"         python3-1290    [001] .Ns1.  5554.290820: timer_expire_exit: timer=000000003ac1b5b1\n"
	"         python3-1290    [001] dNs2.  5554.290821: timer_cancel: timer=00000000fdeb552c\n"
	"         python3-1290    [001] dNs1.  5554.290821: timer_expire_entry: timer=00000000fdeb552c function=delayed_work_timer_fn now=4296280783 baseclk=4296280783\n"
	"         python3-1290    [001] dNs1.  5554.290830: timer_expire_exit: timer=00000000fdeb552c\n";

}  // namespace

START_TEST(jiffies_moved_on_in_one_run_is_no_miss_by_the_bucket)
{
	const std::string path = test::write_temp("moved-on.txt", test::ftrace_text(moved_on_run, 2));
	const replay_report r = replay(path);
	// By jiffies: tcp_delack_timer fired at its bucket, 4296280782, one
	// before the `now` the kernel printed.
	ck_assert_uint_eq(r.fidelity.compared, 2);
	ck_assert_uint_eq(r.fidelity.exact, 1);
	ck_assert_uint_eq(r.fidelity.early, 1);
	ck_assert_uint_eq(cause(r.fidelity.misses, "jiffies_moved_on"), 1);
	ck_assert_uint_eq(cause(r.fidelity.misses, "unexplained"), 0);
	ck_assert_uint_eq(cause(r.fidelity.misses, "tick_race"), 0);
	// By the bucket: both exact.
	const auto &b = r.fidelity.by_bucket;
	ck_assert_uint_eq(b.judged, 2);
	ck_assert_uint_eq(b.matched(), 2);
	ck_assert_uint_eq(b.exact, 2);
	ck_assert_uint_eq(b.early + b.late + b.unmatched, 0);
}
END_TEST

// The same run where the kernel's bucket was not the model's: baseclk
// printed one older than the bucket_expiry the timer was queued for. The
// model fired it from 4296280782: by the bucket, late.
START_TEST(another_bucket_is_a_miss_by_the_bucket)
{
	std::string lines = moved_on_run;
	const std::string from = "now=4296280783 baseclk=4296280782";
	lines.replace(lines.find(from), from.size(), "now=4296280783 baseclk=4296280781");
	const std::string path = test::write_temp("other-bucket.txt", test::ftrace_text(lines, 2));
	const replay_report r = replay(path);
	const auto &b = r.fidelity.by_bucket;
	ck_assert_uint_eq(b.judged, 2);
	ck_assert_uint_eq(b.exact, 1);
	ck_assert_uint_eq(b.late, 1);
	// Jiffies-early and not exact by the bucket: not jiffies_moved_on.
	ck_assert_uint_eq(cause(r.fidelity.misses, "jiffies_moved_on"), 0);
}
END_TEST

// A trace without baseclk (3.x) is judged by jiffies alone.
START_TEST(no_baseclk_no_bucket_judgement)
{
	using test::ftrace_line;
	const std::string path = test::write_temp("old.txt", test::ftrace_text(
		ftrace_line(0, 1000000, "timer_start: timer=ffff880000001000 function=fa expires=1010 [timeout=10]") +
		ftrace_line(0, 1044000, "timer_expire_entry: timer=ffff880000001000 function=fa now=1010")));
	const replay_report r = replay(path, tick_mode::every_jiffy);
	ck_assert_uint_eq(r.fidelity.exact, 1);
	ck_assert_uint_eq(r.fidelity.by_bucket.judged, 0);
}
END_TEST

// Every 6.x recording of tests/data: by the bucket, at least 99.9% of the
// matched expiries exact, and no miss left unexplained.
START_TEST(recordings_hold_by_the_bucket)
{
	for (const char *name : {"default-trace.txt.gz", "busy-idle-trace.txt.gz", "network-trace.txt.gz",
				 "measured-idle.txt.gz", "measured-network.txt.gz",
				 "measured-network-quiet.txt.gz", "sleep-net.txt.gz", "idle-nohz.txt.gz",
				 "load.txt.gz"}) {
		const replay_report r = replay(std::string("tests/data/") + name);
		const auto &b = r.fidelity.by_bucket;
		ck_assert_msg(b.judged == r.fidelity.compared, "%s: every expiry printed baseclk", name);
		ck_assert_msg(b.exact * 1000 >= b.judged_on_model() * 999, "%s: %llu of %llu exact by the bucket",
			      name, (unsigned long long)b.exact, (unsigned long long)b.judged_on_model());
		ck_assert_msg(cause(b.misses, "unexplained") == 0, "%s: unexplained by the bucket", name);
		ck_assert_msg(cause(r.fidelity.misses, "unexplained") == 0, "%s: unexplained by jiffies", name);
		// The hrtimers (issue 40's must-hold): at least 99.5% of the
		// traced arms run in the same interrupt, no miss unexplained,
		// and the model's interrupts within 1% of the recorded ones it
		// could predict.
		const hrtimer_summary &h = r.hrtimers;
		if (!h.present)
			continue;
		ck_assert_msg(h.traced_arms_same() * 1000 >= h.traced_arms() * 995, "%s: %llu of %llu in the same interrupt",
			      name, (unsigned long long)h.traced_arms_same(), (unsigned long long)h.traced_arms());
		ck_assert_msg(h.miss_causes.unexplained == 0, "%s: %llu hrtimer misses unexplained", name,
			      (unsigned long long)h.miss_causes.unexplained);
		std::int64_t recorded = 0, predicted = 0;
		for (const hrtimer_cpu_figures &f : h.cpus) {
			recorded += std::int64_t(f.recorded_interrupts - f.recorded_trace_caused);
			predicted += std::int64_t(f.predicted_interrupts);
		}
		ck_assert_msg(std::abs(predicted - recorded) * 100 <= recorded, "%s: %lld interrupts predicted, %lld recorded",
			      name, (long long)predicted, (long long)recorded);
		// These tracefs recordings lost no events: no interrupt is
		// taken for a lost one.
		for (const hrtimer_cpu_figures &f : h.cpus)
			ck_assert_msg(f.predicted_trace_caused == 0, "%s: lost interrupts", name);
	}
}
END_TEST

// perf script prints no timer flags: the misses that follows are the
// trace's (flags_lost), counted apart from the figure.
START_TEST(lost_flags_are_the_traces)
{
	const std::string path = test::shared_trace_or_skip("linux-6.18-tcp/perf-script.txt");
	if (path.empty())
		return;
	const replay_report r = replay(path);
	const auto &b = r.fidelity.by_bucket;
	ck_assert_uint_gt(b.trace_caused, 0);
	ck_assert_uint_eq(b.trace_caused, cause(b.misses, "flags_lost"));
	ck_assert_uint_eq(b.judged_on_model() + b.trace_caused, b.matched());
	ck_assert_uint_eq(cause(b.misses, "unexplained"), 0);
}
END_TEST

// A callback re-arming its timer in a late catch-up run (the deferrable
// tcp_orphan_update of linux-6.18-http, line 8978: run from bucket
// 4295131323 at jiffies 4295131392, re-armed for 4295131417 on level 1,
// bucket_expiry 4295131424): the kernel's base clock was just past the
// bucket it ran, forwarded no further than its next due bucket, where the
// replay has run the whole softirq. Placed against the kernel's clock the
// model fires it from the kernel's bucket (it was 3 misses, 99.75%). A
// start after the callback returned (delayed_work_timer_fn re-armed by its
// kworker, line 10933) is placed as any start: the softirq run was over.
// Every expiry the model knew armed is then exact by the bucket.
START_TEST(catch_up_rearm_is_placed_as_the_kernel_did)
{
	const std::string path = test::shared_trace_or_skip("linux-6.18-http/trace.txt");
	if (path.empty())
		return;
	const replay_report r = replay(path);
	const auto &b = r.fidelity.by_bucket;
	ck_assert_msg(b.exact * 1000 >= b.judged_on_model() * 999, "%llu of %llu exact by the bucket",
		      (unsigned long long)b.exact, (unsigned long long)b.judged_on_model());
	ck_assert_uint_eq(cause(b.misses, "catch_up_rearm"), 0);
	ck_assert_uint_eq(b.exact, b.judged_on_model());
	ck_assert_uint_eq(cause(b.misses, "unexplained"), 0);
}
END_TEST

// The hrtimer side: the first 39 events of tests/data/sleep-net.txt.gz.
// Each CPU's tick expires first with no start before it (armed before the
// trace: the trace's, counted apart), then again as re-armed at that
// expiry, in the same interrupt in the model.
START_TEST(hrtimer_armed_before_trace_is_counted_apart)
{
	const std::string path = test::write_temp("hr.txt", test::ftrace_text(
	"     rcu_preempt-15      [001] ..... 14028.698964: timer_init: timer=00000000b5199443\n"
	"     rcu_preempt-15      [001] d..1. 14028.698967: timer_start: timer=00000000b5199443 function=process_timeout expires=4298399412 [timeout=1] bucket_expiry=4298399413 cpu=1 idx=53 flags=\n"
	"            bash-12642   [001] ..... 14028.699374: hrtimer_setup: hrtimer=0000000067907618 clockid=CLOCK_MONOTONIC mode=REL|HARD\n"
	"            bash-12642   [001] ..... 14028.699376: hrtimer_setup: hrtimer=0000000036d3f8ca clockid=CLOCK_MONOTONIC mode=REL|HARD\n"
	"            bash-12642   [001] ..... 14028.699385: hrtimer_setup: hrtimer=000000004a77ea1a clockid=CLOCK_MONOTONIC mode=REL\n"
	"            bash-12642   [001] ..... 14028.701348: hrtimer_setup: hrtimer=00000000bcdf2262 clockid=CLOCK_MONOTONIC mode=REL|HARD\n"
	"            bash-12642   [001] ..... 14028.701351: hrtimer_setup: hrtimer=000000008b754cfb clockid=CLOCK_MONOTONIC mode=REL|HARD\n"
	"            bash-12642   [001] ..... 14028.701356: hrtimer_setup: hrtimer=000000001d2d474d clockid=CLOCK_MONOTONIC mode=REL\n"
	"            bash-12642   [001] d.h3. 14028.702924: local_timer_entry: vector=236\n"
	"            bash-12642   [001] d.h3. 14028.702928: hrtimer_expire_entry: hrtimer=00000000326470d6 function=tick_nohz_handler now=14028680047585\n"
	"         cc1plus-13421   [000] d.h.. 14028.702930: local_timer_entry: vector=236\n"
	"            bash-12642   [001] dNh3. 14028.702934: hrtimer_expire_exit: hrtimer=00000000326470d6\n"
	"            bash-12642   [001] dNh4. 14028.702935: hrtimer_start: hrtimer=00000000326470d6 function=tick_nohz_handler expires=14028684000000 softexpires=14028684000000 mode=ABS was_armed=0\n"
	"         cc1plus-13421   [000] d.h.. 14028.702937: hrtimer_expire_entry: hrtimer=00000000046cd983 function=tick_nohz_handler now=14028680056222\n"
	"            bash-12642   [001] dNh3. 14028.702939: local_timer_exit: vector=236\n"
	"         cc1plus-13421   [000] dNh.. 14028.702947: hrtimer_expire_exit: hrtimer=00000000046cd983\n"
	"         cc1plus-13421   [000] dNh1. 14028.702948: hrtimer_start: hrtimer=00000000046cd983 function=tick_nohz_handler expires=14028684000000 softexpires=14028684000000 mode=ABS was_armed=0\n"
	"         cc1plus-13421   [000] dNh.. 14028.702953: local_timer_exit: vector=236\n"
	"            bash-13550   [000] ..... 14028.705884: hrtimer_setup: hrtimer=00000000f12ec7cd clockid=CLOCK_MONOTONIC mode=REL|HARD\n"
	"            bash-13550   [000] ..... 14028.705887: hrtimer_setup: hrtimer=000000004c066343 clockid=CLOCK_MONOTONIC mode=REL|HARD\n"
	"            bash-13550   [000] ..... 14028.705899: hrtimer_setup: hrtimer=0000000061c6096c clockid=CLOCK_MONOTONIC mode=REL\n"
	"            dpkg-13204   [001] d.h.. 14028.706918: local_timer_entry: vector=236\n"
	"            dpkg-13204   [001] d.h.. 14028.706922: hrtimer_expire_entry: hrtimer=00000000326470d6 function=tick_nohz_handler now=14028684041090\n"
	"            dpkg-13204   [001] d.h.. 14028.706924: softirq_raise: vec=1 [action=TIMER]\n"
	"            dpkg-13204   [001] dNh.. 14028.706928: hrtimer_expire_exit: hrtimer=00000000326470d6\n"
	"            dpkg-13204   [001] dNh1. 14028.706928: hrtimer_start: hrtimer=00000000326470d6 function=tick_nohz_handler expires=14028688000000 softexpires=14028688000000 mode=ABS was_armed=0\n"
	"            dpkg-13204   [001] dNh.. 14028.706932: local_timer_exit: vector=236\n"
	"         cc1plus-13427   [000] d.h.. 14028.706932: local_timer_entry: vector=236\n"
	"            dpkg-13204   [001] .Ns.. 14028.706933: softirq_entry: vec=1 [action=TIMER]\n"
	"            dpkg-13204   [001] dNs1. 14028.706936: timer_cancel: timer=00000000b5199443\n"
	"            dpkg-13204   [001] .Ns.. 14028.706938: timer_expire_entry: timer=00000000b5199443 function=process_timeout now=4298399413 baseclk=4298399413\n"
	"         cc1plus-13427   [000] d.h.. 14028.706938: hrtimer_expire_entry: hrtimer=00000000046cd983 function=tick_nohz_handler now=14028684057682\n"
	"            dpkg-13204   [001] .Ns.. 14028.706943: timer_expire_exit: timer=00000000b5199443\n"
	"            dpkg-13204   [001] .Ns.. 14028.706945: softirq_exit: vec=1 [action=TIMER]\n"
	"         cc1plus-13427   [000] dNh.. 14028.706946: hrtimer_expire_exit: hrtimer=00000000046cd983\n"
	"         cc1plus-13427   [000] dNh1. 14028.706947: hrtimer_start: hrtimer=00000000046cd983 function=tick_nohz_handler expires=14028688000000 softexpires=14028688000000 mode=ABS was_armed=0\n"
	"     rcu_preempt-15      [001] ..... 14028.706951: timer_init: timer=00000000b5199443\n"
	"     rcu_preempt-15      [001] d..1. 14028.706953: timer_start: timer=00000000b5199443 function=process_timeout expires=4298399414 [timeout=1] bucket_expiry=4298399415 cpu=1 idx=55 flags=\n"
	"         cc1plus-13427   [000] dNh.. 14028.706953: local_timer_exit: vector=236\n"
		, 2));
	const replay_report r = replay(path);
	const hrtimer_summary &h = r.hrtimers;
	ck_assert_uint_eq(h.expiries, 4);
	ck_assert_uint_eq(h.not_armed, 2);
	ck_assert_uint_eq(h.rearmed_untraced, 0);
	ck_assert_uint_eq(h.traced_arms(), 2);
	ck_assert_uint_eq(h.traced_arms_same(), 2);
	// The interrupts that ran the two ticks armed before the trace: the
	// model could not predict them, and they are the trace's.
	std::uint64_t recorded = 0, predicted = 0, trace_caused = 0;
	for (const hrtimer_cpu_figures &f : h.cpus) {
		recorded += f.recorded_interrupts;
		predicted += f.predicted_interrupts;
		trace_caused += f.recorded_trace_caused;
	}
	ck_assert_uint_eq(recorded, 4);
	ck_assert_uint_eq(trace_caused, 2);
	ck_assert_uint_eq(predicted, recorded - trace_caused);
}
END_TEST

// ../shared/traces/linux-6.18-tcp/perf-script.txt lines 4-12, 531-532, 640
// and 1813: python3 sleeps 200 ms on CPU 1 (hrtimer_wakeup, expires
// 976.347176063 s); no expiry or cancel of it follows (line 640: CPU 1 has
// gone past it), yet the same
// hrtimer is set up again at 977.04 (on the stack of its next sleep). The
// kernel never sets up a queued hrtimer: the perf capture lost the
// expiry, and the interrupt the model predicts for it is the trace's
// (lost), not the model's.
const char *const perf_lost_expiry =
	"    workload2.sh 14385 [001]   975.992236: timer:hrtimer_expire_entry: hrtimer=0xffff888627d1c6f8 function=tick_nohz_handler now=975992001969\n"
	"    workload2.sh 14387 [000]   975.992237: timer:hrtimer_expire_entry: hrtimer=0xffff888627c1c6f8 function=tick_nohz_handler now=975992001706\n"
	"    workload2.sh 14385 [001]   975.992243:  timer:hrtimer_expire_exit: hrtimer=0xffff888627d1c6f8\n"
	"    workload2.sh 14387 [000]   975.992243:  timer:hrtimer_expire_exit: hrtimer=0xffff888627c1c6f8\n"
	"    workload2.sh 14385 [001]   975.992244:        timer:hrtimer_start: hrtimer=0xffff888627d1c6f8 function=tick_nohz_handler expires=975996000000 softexpires=975996000000 mode=0x0 was_armed=0\n"
	"    workload2.sh 14387 [000]   975.992244:        timer:hrtimer_start: hrtimer=0xffff888627c1c6f8 function=tick_nohz_handler expires=975996000000 softexpires=975996000000 mode=0x0 was_armed=0\n"
	"    workload2.sh 14385 [001]   975.992249:         timer:timer_cancel: timer=0xffff888627d28f50\n"
	"    workload2.sh 14385 [001]   975.992250:   timer:timer_expire_entry: timer=0xffff888627d28f50 function=mix_interrupt_randomness now=4295136264 baseclk=4295136264\n"
	"    workload2.sh 14385 [001]   975.992251:    timer:timer_expire_exit: timer=0xffff888627d28f50\n"
	"         python3 14387 [001]   976.147361:        timer:hrtimer_setup: hrtimer=0xffffc90002d6faa8 clockid=CLOCK_MONOTONIC mode=0x0\n"
	"         python3 14387 [001]   976.147362:        timer:hrtimer_start: hrtimer=0xffffc90002d6faa8 function=hrtimer_wakeup expires=976347176063 softexpires=976347126063 mode=0x0 was_armed=0\n"
	"         python3 14387 [001]   976.347642:        timer:hrtimer_setup: hrtimer=0xffff88817cecc868 clockid=CLOCK_MONOTONIC mode=0x6\n";
const char *const perf_lost_expiry_evidence =
	"         python3 14387 [000]   977.040535:        timer:hrtimer_setup: hrtimer=0xffffc90002d6faa8 clockid=CLOCK_MONOTONIC mode=0x0\n";

START_TEST(a_lost_expiry_is_the_traces)
{
	std::uint64_t lost[2] = {};
	for (int with_evidence = 0; with_evidence < 2; with_evidence++) {
		const std::string text = std::string(perf_lost_expiry) + (with_evidence ? perf_lost_expiry_evidence : "");
		const std::string path = test::write_temp("lost.txt", text);
		const replay_report r = replay(path);
		for (const hrtimer_cpu_figures &f : r.hrtimers.cpus)
			lost[with_evidence] += f.predicted_trace_caused;
		// The sleep's interrupt is predicted either way.
		ck_assert_uint_ge(r.hrtimers.cpus[1].predicted_interrupts, 1);
	}
	ck_assert_uint_eq(lost[0], 0);
	ck_assert_uint_eq(lost[1], 1);
}
END_TEST

int main()
{
	Suite *s = suite_create("fidelity_bucket");
	TCase *tc = tcase_create("bucket");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, jiffies_moved_on_in_one_run_is_no_miss_by_the_bucket);
	tcase_add_test(tc, another_bucket_is_a_miss_by_the_bucket);
	tcase_add_test(tc, no_baseclk_no_bucket_judgement);
	tcase_add_test(tc, recordings_hold_by_the_bucket);
	tcase_add_test(tc, lost_flags_are_the_traces);
	tcase_add_test(tc, catch_up_rearm_is_placed_as_the_kernel_did);
	tcase_add_test(tc, hrtimer_armed_before_trace_is_counted_apart);
	tcase_add_test(tc, a_lost_expiry_is_the_traces);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
