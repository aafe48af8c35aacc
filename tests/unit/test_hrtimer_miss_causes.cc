// The hrtimer judge's misses by cause (docs/fidelity.md "hrtimers: the
// misses by cause"), each on the lines of a recording where it happens,
// and the model's fix for the class that was its own: a timer started
// from another CPU while its callback runs stays on the callback's CPU.
#include <string>

#include <nlohmann/json.hpp>

#include "sim/gen/tracefs_header.h"
#include "tests/support/check_main.h"
#include "tests/support/cli.h"
#include "tests/support/text_trace_util.h"

using namespace timersim::test;
using nlohmann::json;

namespace {

const std::string header_6 = timersim::gen::tracefs_header(timersim::gen::kernel_gen::linux6, 93864, 2);

json hrtimers_of(const std::string &name, const std::string &text)
{
	std::string path = write_temp(name, text);
	cli_result r = run_timersim({"replay", "--json", "-", path});
	ck_assert_msg(r.status == 0, "replay failed: %s", r.err.c_str());
	return json::parse(r.out)["hrtimers"];
}

std::uint64_t u(const json &j, const char *k) { return j[k].get<std::uint64_t>(); }
// Each excerpt keeps one wheel timer_start of its recording (the replay
// takes no trace without one).
std::uint64_t cause(const json &h, const char *k) { return h["miss_causes"][k].get<std::uint64_t>(); }

}  // namespace

// tests/data/measured-network-quiet.txt.gz, 15136.401131: tcp_pace_kick
// runs on CPU 1 and CPU 0 starts the same timer (PINNED) before it
// returns; switch_hrtimer_base() keeps a running timer on its base, so
// the kernel queues it on CPU 1, whose next interrupt raises the softirq
// that runs it. Queued on CPU 0 (the start's), the model held it there,
// not yet due on CPU 1 (queued_on_other_cpu).
START_TEST(a_start_while_its_callback_runs_elsewhere_stays_there)
{
	std::string text = header_6 +
	"           <...>-31786   [001] ..s.. 15136.401131: hrtimer_expire_entry: hrtimer=000000004c9e985b function=tcp_pace_kick now=15136378251281\n"
	"         python3-30318   [000] d.s3. 15136.401137: timer_start: timer=0000000085f803ea function=tcp_write_timer expires=4298676387 [timeout=51] bucket_expiry=4298676388 cpu=0 idx=36 flags=\n"
	"         python3-30318   [000] d.s3. 15136.401138: hrtimer_start: hrtimer=000000004c9e985b function=tcp_pace_kick expires=15136378260076 softexpires=15136378260076 mode=ABS|PINNED|SOFT was_armed=0\n"
	"           <...>-31786   [001] ..s.. 15136.401139: hrtimer_expire_exit: hrtimer=000000004c9e985b\n"
	"           <...>-31786   [001] d.H1. 15136.401148: local_timer_entry: vector=236\n"
	"           <...>-31786   [001] d.H2. 15136.401148: softirq_raise: vec=8 [action=HRTIMER]\n"
	"           <...>-31786   [001] d.H1. 15136.401151: local_timer_exit: vector=236\n"
	"           <...>-31786   [001] ..s.. 15136.401152: softirq_exit: vec=8 [action=HRTIMER]\n"
	"           <...>-31786   [001] ..s.. 15136.401152: softirq_entry: vec=8 [action=HRTIMER]\n"
	"           <...>-31786   [001] ..s.. 15136.401152: hrtimer_expire_entry: hrtimer=000000004c9e985b function=tcp_pace_kick now=15136378272711\n"
	;
	json h = hrtimers_of("hr-running.txt", text);
	ck_assert_uint_eq(u(h, "expiries"), 2);
	ck_assert_uint_eq(u(h, "late"), 0);
	ck_assert_uint_eq(cause(h, "queued_on_other_cpu"), 0);
	ck_assert_uint_eq(u(h, "same_interrupt"), 1);
	ck_assert_uint_eq(u(h, "starts_while_running_elsewhere"), 1);
}
END_TEST

// measured-network-quiet, CPU 1 at 15131.410878: one timer interrupt runs
// a sleeper at now=...387999596, then the tick (due ...388000000) with
// now=...388009305: hrtimer_interrupt() read the clock again (its retry
// pass). The model's interrupt has one now, before the tick was due.
START_TEST(the_interrupts_later_pass_is_named)
{
	std::string text = header_6 +
	"            bash-30398   [001] dNh3. 15131.406950: hrtimer_start: hrtimer=00000000326470d6 function=tick_nohz_handler expires=15131388000000 softexpires=15131388000000 mode=ABS was_armed=0\n"
	"      kcompactd0-36      [001] d..1. 15131.406996: timer_start: timer=00000000fbe5f49b function=process_timeout expires=4298675213 [timeout=125] bucket_expiry=4298675216 cpu=1 idx=66 flags=\n"
	"            bash-30402   [001] d.h2. 15131.410878: local_timer_entry: vector=236\n"
	"            bash-30402   [001] d.h2. 15131.410880: hrtimer_expire_entry: hrtimer=00000000e223fe4a function=hrtimer_wakeup now=15131387999596\n"
	"            bash-30402   [001] dNh2. 15131.410888: hrtimer_expire_exit: hrtimer=00000000e223fe4a\n"
	"            bash-30402   [001] dNh2. 15131.410890: hrtimer_expire_entry: hrtimer=00000000326470d6 function=tick_nohz_handler now=15131388009305\n"
	"            bash-30402   [001] dNh2. 15131.410896: hrtimer_expire_exit: hrtimer=00000000326470d6\n"
	"            bash-30402   [001] dNh3. 15131.410896: hrtimer_start: hrtimer=00000000326470d6 function=tick_nohz_handler expires=15131392000000 softexpires=15131392000000 mode=ABS was_armed=0\n"
	;
	json h = hrtimers_of("hr-later.txt", text);
	ck_assert_uint_eq(u(h, "late"), 1);
	ck_assert_uint_eq(cause(h, "later_pass"), 1);
	ck_assert_uint_eq(cause(h, "unexplained"), 0);
}
END_TEST

// measured-network-quiet, CPU 0 at 15136.962851: tcp_pace_kick (SOFT) is
// started already due; the interrupt at .962875 raises HRTIMER, the tick's
// at .962929 comes before the softirq runs it at .962945. The model ran it
// in the first interrupt: the right one, though not the latest.
START_TEST(a_softirq_run_after_a_later_interrupt_is_named)
{
	std::string text = header_6 +
	"         python3-30318   [000] d.s3. 15136.962851: hrtimer_start: hrtimer=000000001de24780 function=tcp_pace_kick expires=15136939967926 softexpires=15136939967926 mode=ABS|PINNED|SOFT was_armed=0\n"
	"         python3-30318   [000] d.H3. 15136.962875: local_timer_entry: vector=236\n"
	"         python3-30318   [000] d.H4. 15136.962876: softirq_raise: vec=8 [action=HRTIMER]\n"
	"         python3-30318   [000] d.H3. 15136.962924: local_timer_exit: vector=236\n"
	"         python3-30318   [000] d.H3. 15136.962929: local_timer_entry: vector=236\n"
	"         python3-30318   [000] d.H3. 15136.962930: hrtimer_expire_entry: hrtimer=00000000046cd983 function=tick_nohz_handler now=15136940049966\n"
	"         python3-30318   [000] d.H3. 15136.962934: hrtimer_expire_exit: hrtimer=00000000046cd983\n"
	"         python3-30318   [000] d.H4. 15136.962934: hrtimer_start: hrtimer=00000000046cd983 function=tick_nohz_handler expires=15136944000000 softexpires=15136944000000 mode=ABS was_armed=0\n"
	"         python3-30318   [000] d.H3. 15136.962938: local_timer_exit: vector=236\n"
	"         python3-30318   [000] d.s3. 15136.962939: timer_start: timer=00000000c6cc3031 function=tcp_write_timer expires=4298676478 [timeout=1] bucket_expiry=4298676479 cpu=0 idx=63 flags=\n"
	"         python3-30318   [000] .Ns1. 15136.962945: softirq_entry: vec=8 [action=HRTIMER]\n"
	"         python3-30318   [000] .Ns1. 15136.962945: hrtimer_expire_entry: hrtimer=000000001de24780 function=tcp_pace_kick now=15136940065485\n"
	"         python3-30318   [000] dNs3. 15136.962948: hrtimer_start: hrtimer=000000001de24780 function=tcp_pace_kick expires=15136940068086 softexpires=15136940068086 mode=ABS|PINNED|SOFT was_armed=0\n"
	"         python3-30318   [000] .Ns1. 15136.962949: hrtimer_expire_exit: hrtimer=000000001de24780\n"
	"         python3-30318   [000] dNH2. 15136.962956: local_timer_entry: vector=236\n"
	"         python3-30318   [000] dNH3. 15136.962956: softirq_raise: vec=8 [action=HRTIMER]\n"
	"         python3-30318   [000] dNH2. 15136.962959: local_timer_exit: vector=236\n"
	"         python3-30318   [000] .Ns1. 15136.962960: softirq_exit: vec=8 [action=HRTIMER]\n"
	;
	json h = hrtimers_of("hr-softirq.txt", text);
	ck_assert_uint_eq(u(h, "other_interrupt"), 1);
	ck_assert_uint_eq(cause(h, "softirq_after_later_interrupt"), 1);
	ck_assert_uint_eq(cause(h, "unexplained"), 0);
}
END_TEST

// tests/data/load.txt.gz, CPU 0: a sleeper with 10 ms of slack (soft
// ...516062195, hard ...526062195). At the tick's interrupt (now
// ...520011151) it is due by its softexpires, but the tick re-arms itself
// to ...524000000, ahead of it by expires and not yet due: the kernel's
// run stops there, and the next tick runs it. The model re-arms the tick
// only at its recorded start after the interrupt and runs it in the first.
START_TEST(an_earlier_run_in_the_slack_range_is_named)
{
	std::string text = header_6 +
	"         python3-17747   [000] ..... 13496.522973: hrtimer_setup: hrtimer=0000000056d3c28e clockid=CLOCK_MONOTONIC mode=ABS\n"
	"         python3-17747   [000] d..1. 13496.522974: hrtimer_start: hrtimer=0000000056d3c28e function=hrtimer_wakeup expires=13496526062195 softexpires=13496516062195 mode=ABS was_armed=0\n"
	"         cc1plus-17380   [000] dNh1. 13496.542926: hrtimer_start: hrtimer=00000000503dde13 function=tick_nohz_handler expires=13496520000000 softexpires=13496520000000 mode=ABS was_armed=0\n"
	"         python3-17751   [000] dNh.. 13496.545017: hrtimer_expire_exit: hrtimer=00000000875b74fd\n"
	"         python3-17751   [000] dNh.. 13496.545017: hrtimer_expire_entry: hrtimer=00000000f1150204 function=hrtimer_wakeup now=13496518103453\n"
	"         python3-17751   [000] dNh.. 13496.545018: hrtimer_expire_exit: hrtimer=00000000f1150204\n"
	"         python3-17751   [000] dNh.. 13496.545020: local_timer_exit: vector=236\n"
	"         cc1plus-17380   [000] d.h.. 13496.546918: local_timer_entry: vector=236\n"
	"         cc1plus-17380   [000] d.h.. 13496.546922: hrtimer_expire_entry: hrtimer=00000000503dde13 function=tick_nohz_handler now=13496520011151\n"
	"         cc1plus-17380   [000] dNh.. 13496.546931: hrtimer_expire_exit: hrtimer=00000000503dde13\n"
	"         cc1plus-17380   [000] dNh1. 13496.546932: hrtimer_start: hrtimer=00000000503dde13 function=tick_nohz_handler expires=13496524000000 softexpires=13496524000000 mode=ABS was_armed=0\n"
	"         cc1plus-17380   [000] dNh.. 13496.546936: local_timer_exit: vector=236\n"
	"         python3-17750   [000] ..... 13496.546979: hrtimer_setup: hrtimer=000000006ebf1aff clockid=CLOCK_MONOTONIC mode=ABS\n"
	"         python3-17750   [000] d..1. 13496.546980: hrtimer_start: hrtimer=000000006ebf1aff function=hrtimer_wakeup expires=13496527117917 softexpires=13496527067917 mode=ABS was_armed=0\n"
	"         python3-17749   [000] ..... 13496.546997: hrtimer_setup: hrtimer=0000000032df1735 clockid=CLOCK_MONOTONIC mode=ABS\n"
	"         python3-17749   [000] d..1. 13496.546997: hrtimer_start: hrtimer=0000000032df1735 function=hrtimer_wakeup expires=13496522137073 softexpires=13496522087073 mode=ABS was_armed=0\n"
	"         python3-17751   [000] d.h.. 13496.549048: local_timer_entry: vector=236\n"
	"         python3-17751   [000] d.h.. 13496.549049: hrtimer_expire_entry: hrtimer=0000000032df1735 function=hrtimer_wakeup now=13496522139472\n"
	"         python3-17751   [000] dNh.. 13496.549053: hrtimer_expire_exit: hrtimer=0000000032df1735\n"
	"         python3-17751   [000] dNh.. 13496.549055: local_timer_exit: vector=236\n"
	"         cc1plus-17380   [000] d.h.. 13496.550918: local_timer_entry: vector=236\n"
	"         cc1plus-17380   [000] d.h.. 13496.550921: hrtimer_expire_entry: hrtimer=00000000503dde13 function=tick_nohz_handler now=13496524010681\n"
	"         cc1plus-17380   [000] dNh.. 13496.550931: hrtimer_expire_exit: hrtimer=00000000503dde13\n"
	"         cc1plus-17380   [000] dNh1. 13496.550932: hrtimer_start: hrtimer=00000000503dde13 function=tick_nohz_handler expires=13496528000000 softexpires=13496528000000 mode=ABS was_armed=0\n"
	"         cc1plus-17380   [000] dNh.. 13496.550932: hrtimer_expire_entry: hrtimer=0000000056d3c28e function=hrtimer_wakeup now=13496524010681\n"
	"         cc1plus-17380   [000] dNh.. 13496.550938: hrtimer_expire_exit: hrtimer=0000000056d3c28e\n"
	"         python3-17754   [000] dN.1. 13496.554631: timer_start: timer=00000000f1967c5f function=tcp_write_timer expires=4298266435 [timeout=51] bucket_expiry=4298266436 cpu=0 idx=4 flags=\n"
	;
	json h = hrtimers_of("hr-slack.txt", text);
	ck_assert_uint_eq(u(h, "other_interrupt"), 1);
	ck_assert_uint_eq(cause(h, "slack_order"), 1);
	ck_assert_uint_eq(cause(h, "unexplained"), 0);
}
END_TEST

int main()
{
	Suite *s = suite_create("hrtimer_miss_causes");
	TCase *tc = tcase_create("hrtimer_miss_causes");
	tcase_add_test(tc, a_start_while_its_callback_runs_elsewhere_stays_there);
	tcase_add_test(tc, the_interrupts_later_pass_is_named);
	tcase_add_test(tc, a_softirq_run_after_a_later_interrupt_is_named);
	tcase_add_test(tc, an_earlier_run_in_the_slack_range_is_named);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
