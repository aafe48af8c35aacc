// --what-if-hz: timeouts re-expressed in time at another HZ, rounding as
// the kernel's msecs_to_jiffies does; the same HZ changes nothing, on the
// shared recordings and on generated traces; points in time map linearly
// and stay monotonic (also across a 32-bit wrap); a what-if replay never
// fires a timer before the recorded kernel did.
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "sim/base/errors.h"
#include "sim/report/report_writers.h"
#include "sim/whatif/hz_rescale.h"
#include "sim/whatif/kernel_time.h"
#include "sim/whatif/own_expiries.h"
#include "sim/whatif/whatif.h"
#include "tests/support/cli.h"
#include "tests/support/gen_trace.h"
#include "tests/support/paths.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"

using namespace timersim;
using namespace timersim::test;

namespace {

// The kernel's own conversions (include/linux/jiffies.h, kernel/time/time.c
// with the constants kernel/time/timeconst.bc generates), written out per
// branch, for a 64-bit kernel.
std::uint64_t fmul(unsigned b, std::uint64_t n, std::uint64_t d)
{
	return static_cast<std::uint64_t>(((static_cast<unsigned __int128>(1) << b) * n + d - 1) / d);
}

std::uint64_t kernel_msecs_to_jiffies(std::uint64_t m, unsigned hz)
{
	if (hz <= 1000 && 1000 % hz == 0)
		return (m + 1000 / hz - 1) / (1000 / hz);
	if (hz > 1000 && hz % 1000 == 0)
		return m * (hz / 1000);
	// MSEC_TO_HZ_MUL32 / ADJ32 / SHR32
	unsigned s = 0;
	while (fmul(s, hz, 1000) < (std::uint64_t{1} << 31))
		s++;
	std::uint64_t gcd = std::gcd(std::uint64_t{hz}, std::uint64_t{1000});
	std::uint64_t d = 1000 / gcd;
	std::uint64_t adj = static_cast<std::uint64_t>((static_cast<unsigned __int128>(1) << s) * (d - 1) / d);
	return static_cast<std::uint64_t>((static_cast<unsigned __int128>(fmul(s, hz, 1000)) * m + adj) >> s);
}

std::uint64_t kernel_jiffies_to_msecs(std::uint64_t j, unsigned hz)
{
	if (hz <= 1000 && 1000 % hz == 0)
		return (1000 / hz) * j;
	if (hz > 1000 && hz % 1000 == 0)
		return (j + hz / 1000 - 1) / (hz / 1000);
	std::uint64_t gcd = std::gcd(std::uint64_t{hz}, std::uint64_t{1000});
	std::uint64_t num = 1000 / gcd, den = hz / gcd;	// HZ_TO_MSEC_NUM / DEN
	return (j * num + den - 1) / den;		// DIV_ROUND_UP
}

const unsigned kernel_hz[] = {100, 250, 300, 1000};

std::vector<owned_event> read_events(std::unique_ptr<trace_reader> r) { return read_all(*r); }

}  // namespace

START_TEST(conversions_follow_the_kernel)
{
	// Counted, then asserted once: a Check assertion per value is slow.
	std::uint64_t bad = 0, checked = 0;
	for (unsigned hz : kernel_hz) {
		for (std::uint64_t m = 0; m <= 2'000'000; m++, checked++)
			bad += msecs_to_jiffies(m, hz) != kernel_msecs_to_jiffies(m, hz);
		for (std::uint64_t j = 0; j <= 2'000'000; j++, checked++)
			bad += jiffies_to_msecs(j, hz) != kernel_jiffies_to_msecs(j, hz);
	}
	ck_assert_msg(bad == 0, "%llu of %llu conversions differ from the kernel's", (unsigned long long)bad,
		      (unsigned long long)checked);

	// Re-expressing a timeout is the kernel's round trip through
	// milliseconds, which for these HZ is ceil(t * to / from); the same HZ
	// leaves it alone (the round trip would not at HZ 300: 1 -> 4 ms -> 2).
	for (unsigned from : kernel_hz)
		for (unsigned to : kernel_hz)
			for (std::int64_t t = 1; t <= 300'000; t++) {
				std::int64_t r = rescale_timeout(t, from, to);
				if (from == to) {
					bad += r != t;
					continue;
				}
				std::uint64_t k = kernel_msecs_to_jiffies(kernel_jiffies_to_msecs(t, from), to);
				bad += std::uint64_t(r) != k;
				bad += std::uint64_t(r) != mul_div_up(std::uint64_t(t), to, from);
				bad += rescale_timeout(-t, from, to) != -r;
			}
	ck_assert_msg(bad == 0, "%llu rescaled timeouts differ from the kernel's round trip", (unsigned long long)bad);
	ck_assert_int_eq(rescale_timeout(0, 250, 1000), 0);
	ck_assert_uint_eq(kernel_msecs_to_jiffies(4, 300), 2);
	ck_assert_uint_eq(kernel_jiffies_to_msecs(1, 300), 4);
	ck_assert_uint_eq(msecs_to_jiffies(1, 300), 1);
	ck_assert_uint_eq(msecs_to_jiffies(4, 300), 2);
}
END_TEST

// The mapping on a hand-made trace: HZ 250 -> 1000 and 1000 -> 300, with
// a 32-bit counter that wraps in between.
START_TEST(values_map_as_documented)
{
	std::string body =
		"  a-1 [000] .... 100.000000: timer_start: timer=c0001000 function=f expires=4294967290 [timeout=10]\n"
		"  a-1 [000] .... 100.010000: timer_start: timer=c0002000 function=g expires=6 [timeout=7]\n"
		"  a-1 [000] ..s. 100.020000: timer_cancel: timer=c0001000\n"
		"  a-1 [000] ..s. 100.020000: timer_expire_entry: timer=c0001000 function=f now=4294967290\n"
		"  a-1 [000] ..s. 100.020000: timer_expire_exit: timer=c0001000\n"
		"  a-1 [000] ..s. 100.030000: timer_expire_entry: timer=c0002000 function=g now=6\n";
	std::string path = write_temp("wrap.txt", ftrace_text(body));
	// J0 = 4294967280 (the first call); the call of g is 4294967295 (-1):
	// 15 jiffies after J0 at HZ 250, 60 at HZ 1000.
	std::vector<owned_event> ev = read_events(
		make_hz_rescale_reader(open_trace(path, trace_format::auto_detect, {}), 250, 1000, 32));
	ck_assert_uint_eq(ev.size(), 6);
	ck_assert_int_eq(ev[0].timeout, 40);
	ck_assert_uint_eq(ev[0].expires, 4294967280u + 40);
	ck_assert_int_eq(ev[1].timeout, 28);
	ck_assert_uint_eq(ev[1].expires, (4294967280ull + 60 + 28) & 0xffffffff);	// wrapped: 24
	ck_assert_uint_eq(ev[3].now, 4294967280u + 40);
	ck_assert_uint_eq(ev[5].now, (4294967280ull + 4 * 22) & 0xffffffff);
	ck_assert_uint_eq(ev[2].timer, ev[0].timer);
	ck_assert_uint_eq(ev[3].ts_ns, 100'020'000'000ull);	// time stays

	// 1000 -> 300: points round down, timeouts up.
	ev = read_events(make_hz_rescale_reader(open_trace(path, trace_format::auto_detect, {}), 1000, 300, 32));
	ck_assert_int_eq(ev[0].timeout, 3);	// ceil(10 * 0.3)
	ck_assert_uint_eq(ev[0].expires, 4294967280u + 3);
	ck_assert_int_eq(ev[1].timeout, 3);	// ceil(7 * 0.3)
	ck_assert_uint_eq(ev[1].expires, 4294967280u + 4 + 3);	// floor(15 * 0.3) = 4
	ck_assert_uint_eq(ev[3].now, 4294967280u + 3);
	ck_assert_uint_eq(ev[5].now, 4294967280u + 6);	// floor(22 * 0.3)
}
END_TEST

// The same HZ changes nothing: every event, and the whole report.
START_TEST(same_hz_changes_nothing)
{
	std::vector<std::string> paths;
	for (const char *rel : {"linux-3.6-scp_dest/trace.txt", "linux-6.18-http/trace.txt",
				"linux-6.18-tcp/perf-script.txt", "linux-6.18-http/trace.dat"}) {
		std::string p = shared_trace(rel);
		if (p.empty())
			skip_note(std::string("../shared/traces/") + rel + " is absent: what-if identity not checked on it");
		else
			paths.push_back(p);
	}
	paths.push_back(gen_file(gen_opts("networking:rate=100;periodic:timers=10,period=300ms", 300, 2, 3.0), "g.txt"));
	paths.push_back("tests/data/default-trace.txt.gz");
	paths.push_back("tests/data/network-trace.txt.gz");

	for (const std::string &path : paths) {
		recorded_clock clock = probe_recorded_clock(path, trace_format::auto_detect, {}, 0, 0);
		std::vector<owned_event> a = read_events(open_trace(path, trace_format::auto_detect, {}));
		std::vector<owned_event> b = read_events(open_what_if(path, trace_format::auto_detect, {}, clock, clock.hz));
		ck_assert_msg(a == b, "%s: events changed at the same HZ", path.c_str());

		for (const char *scheme : {"classic", "v48"}) {
			replay_options opt;
			opt.scheme = scheme;
			what_if_reports r = replay_what_if(path, trace_format::auto_detect, {}, opt, clock.hz);
			ck_assert_msg(json_report(r.recorded, false) == json_report(r.what_if, false),
				      "%s through %s: the report changed at the same HZ", path.c_str(), scheme);
		}
	}
}
END_TEST

// A generated trace at HZ 1000 seen at 100, 250 and 300: every value as
// documented, and a replay never fires a timer before the recorded expiry
// (timeouts round up, the recorded times down); ticks scale with HZ.
START_TEST(what_if_of_a_generated_trace)
{
	gen::gen_options o = gen_opts("networking:rate=150;lognormal:rate=300,median=40ms;periodic:timers=30,period=70ms",
				      1000, 2, 4.0, 6);
	std::string path = gen_file(o, "k.txt");
	std::vector<owned_event> rec = read_events(open_trace(path, trace_format::auto_detect, {}));
	recorded_clock clock = probe_recorded_clock(path, trace_format::auto_detect, {}, 0, 0);
	ck_assert_uint_eq(clock.hz, 1000);
	ck_assert_uint_eq(clock.word_bits, 64);
	std::uint64_t j0 = 0;
	for (const owned_event &e : rec)
		if (e.kind == event_kind::timer_start) {
			j0 = e.expires - std::uint64_t(e.timeout);
			break;
		}

	for (unsigned to : {100u, 250u, 300u}) {
		std::vector<owned_event> w = read_events(open_what_if(path, trace_format::auto_detect, {}, clock, to));
		ck_assert_uint_eq(w.size(), rec.size());
		std::map<unsigned, std::uint64_t> last;
		std::uint64_t bad = 0;
		for (std::size_t i = 0; i < w.size(); i++) {
			const owned_event &a = rec[i], &b = w[i];
			bad += a.ts_ns != b.ts_ns || a.timer != b.timer;
			std::uint64_t j = 0;
			if (a.kind == event_kind::timer_start) {
				std::uint64_t call = a.expires - std::uint64_t(a.timeout);
				bad += b.timeout != std::int64_t(mul_div_up(std::uint64_t(a.timeout), to, 1000));
				j = j0 + mul_div_down(call - j0, to, 1000);
				bad += b.expires - std::uint64_t(b.timeout) != j;
			} else if (a.kind == event_kind::timer_expire_entry) {
				j = j0 + mul_div_down(a.now - j0, to, 1000);
				bad += b.now != j;
			} else {
				continue;
			}
			bad += j < last[a.cpu];
			last[a.cpu] = j;
		}
		ck_assert_msg(bad == 0, "HZ 1000 -> %u: %llu values not as documented", to, (unsigned long long)bad);

		replay_options opt;
		what_if_reports r = replay_what_if(path, trace_format::auto_detect, {}, opt, to);
		const fidelity_summary &f = r.what_if.fidelity;
		ck_assert_uint_eq(r.what_if.input.hz, to);
		ck_assert_uint_eq(f.compared, r.recorded.fidelity.compared);
		ck_assert_uint_eq(f.early, 0);
		ck_assert_uint_eq(f.unmatched, 0);
		ck_assert_uint_eq(f.exact + f.late, f.compared);
		ck_assert_uint_eq(r.what_if.timers.started, r.recorded.timers.started);
		double ticks = double(r.what_if.ticks_processed) / double(r.recorded.ticks_processed);
		ck_assert_msg(std::fabs(ticks * 1000 / to - 1) < 0.01, "HZ %u: ticks ratio %.4f", to, ticks);
		std::string table = what_if_table(r);
		ck_assert(table.find("recorded (HZ 1000)") != std::string::npos);
		ck_assert(table.find("what-if (HZ " + std::to_string(to) + ")") != std::string::npos);
		std::fprintf(stderr, "HZ 1000 -> %u: exact %llu late %llu of %llu; moves %llu -> %llu\n", to,
			     (unsigned long long)f.exact, (unsigned long long)f.late, (unsigned long long)f.compared,
			     (unsigned long long)r.recorded.cascade.moved_total,
			     (unsigned long long)r.what_if.cascade.moved_total);
	}
}
END_TEST

// --own-expiries drops exactly the expiries: on a generated trace it
// reads as the same trace generated with --no-expiries, and every dropped
// line is counted as skipped. The expiries' entries and exits go on for
// the measurement alone (EF_MEASURE_ONLY): exactly those of the full trace.
START_TEST(own_expiries_drops_exactly_the_expiries)
{
	for (const char *w : {"networking:rate=150;periodic:timers=20,period=60ms",
			      "lognormal:rate=400,median=20ms;bursts:every=100ms,size=50,timeout=30ms"}) {
		gen::gen_options o = gen_opts(w, 250, 3, 2.0, 8);
		std::string path = gen_file(o, "full.txt");
		auto reader = make_own_expiries_reader(open_trace(path, trace_format::auto_detect, {}));
		std::vector<owned_event> got, measure_only;
		for (const owned_event &e : read_all(*reader))
			(e.carries(EF_MEASURE_ONLY) ? measure_only : got).push_back(e);
		std::vector<owned_event> expiries;
		for (const owned_event &e : read_events(open_trace(path, trace_format::auto_detect, {})))
			if (e.kind == event_kind::timer_expire_entry || e.kind == event_kind::timer_expire_exit)
				expiries.push_back(e);
		ck_assert_uint_eq(measure_only.size(), expiries.size());
		for (std::size_t i = 0; i < expiries.size(); i++) {
			owned_event a = measure_only[i];
			a.has &= ~std::uint32_t{EF_MEASURE_ONLY};
			ck_assert(a == expiries[i]);
		}
		o.expiries = false;
		std::vector<owned_event> want = read_events(open_trace(gen_file(o, "none.txt"), trace_format::auto_detect, {}));
		ck_assert_uint_eq(got.size(), want.size());
		std::uint64_t differ = 0;
		for (std::size_t i = 0; i < got.size(); i++) {
			owned_event a = got[i], b = want[i];
			a.line = b.line = 0;
			differ += !(a == b);
		}
		ck_assert_msg(differ == 0, "%s: %llu events differ", w, (unsigned long long)differ);
		const reader_stats &st = reader->stats();
		ck_assert_uint_eq(st.events, got.size());
		ck_assert_uint_eq(st.lines, st.events + st.skipped);

		// A replay sees no recorded expiry, and classic fires the timers
		// itself - all of them where no callback re-arms its own timer;
		// a periodic timer's re-arm in its callback comes (in the replay)
		// before the tick that would fire it, so it looks like a re-arm.
		auto again = make_own_expiries_reader(open_trace(path, trace_format::auto_detect, {}));
		replay_report r = replay_trace(*again, path, replay_options{});
		replay_report full = replay_path(path);
		ck_assert_uint_eq(r.fidelity.compared, 0);
		if (std::string(w).find("periodic") == std::string::npos)
			ck_assert_uint_eq(r.timers.expired, full.timers.expired);
		else
			ck_assert_uint_lt(r.timers.expired, full.timers.expired);
	}
	// A recording: the expiries go, and only they.
	std::string rec = shared_trace("linux-6.18-http/trace.txt");
	if (rec.empty()) {
		skip_note("../shared/traces/linux-6.18-http/trace.txt is absent: --own-expiries not checked on it");
		return;
	}
	replay_options opt;
	opt.scheme = "v48";
	auto plain = open_trace(rec, trace_format::auto_detect, {});
	replay_report a = replay_trace(*plain, rec, opt);
	auto own = make_own_expiries_reader(open_trace(rec, trace_format::auto_detect, {}));
	replay_report b = replay_trace(*own, rec, opt);
	ck_assert_uint_eq(b.events.timer_expire_entry, 0);
	ck_assert_uint_eq(b.events.timer_expire_exit, 0);
	ck_assert_uint_eq(b.events.timer_start, a.events.timer_start);
	ck_assert_uint_eq(b.events.timer_cancel + a.events.timer_expire_entry, a.events.timer_cancel);
	ck_assert_uint_eq(b.input.lines, a.input.lines);
}
END_TEST

START_TEST(unknown_hz_is_a_usage_error)
{
	// Two events a microsecond apart: nothing to infer HZ from.
	std::string path = write_temp("short.txt", ftrace_text(
		"  a-1 [000] .... 1.000000: timer_start: timer=ffff880000001000 function=f expires=1010 [timeout=10]\n"
		"  a-1 [000] .... 1.000001: timer_cancel: timer=ffff880000001000\n"));
	try {
		probe_recorded_clock(path, trace_format::auto_detect, {}, 0, 0);
		ck_abort_msg("no error");
	} catch (const usage_error &e) {
		ck_assert(std::string(e.what()).find("give --hz") != std::string::npos);
	}
	ck_assert_uint_eq(probe_recorded_clock(path, trace_format::auto_detect, {}, 300, 0).hz, 300);
}
END_TEST

// A what-if HZ ticks at its own rate: the recorded ticks are those of the
// recording's HZ (issue 25: classic on the 250 HZ http recording at
// --what-if-hz 1000 ran only at the 250 Hz ticks, 0.29 -> 3.44 jiffies
// late). The side by side table shows each side's input, machine and ticks.
START_TEST(what_if_hz_ticks_at_its_own_rate)
{
	std::string path = shared_trace_or_skip("linux-6.18-http/trace.txt");
	if (path.empty())
		return;
	replay_options opt;
	opt.scheme = "classic";
	what_if_reports r = replay_what_if(path, trace_format::auto_detect, {}, opt, 1000);
	ck_assert_str_eq(r.recorded.ticks.model.c_str(), "recorded");
	ck_assert_str_eq(r.what_if.ticks.model.c_str(), "every-jiffy");
	ck_assert_msg(r.what_if.ticks.reason.find("--what-if-hz 1000") != std::string::npos,
		      "reason: %s", r.what_if.ticks.reason.c_str());
	// Classic fires its timers at their expiry when it ticks every jiffy:
	// on average well under a jiffy late (not 3.44).
	ck_assert_uint_gt(r.what_if.lateness.expiries, 1000);
	ck_assert_msg(r.what_if.lateness.total * 20 < r.what_if.lateness.expiries,
		      "what-if delay %llu over %llu expiries",
		      (unsigned long long)r.what_if.lateness.total,
		      (unsigned long long)r.what_if.lateness.expiries);

	std::string table = what_if_table(r);
	for (const char *want : {"recorded (HZ 250)", "what-if (HZ 1000)", "ticks", "machine",
				 "input"})
		ck_assert_msg(table.find(want) != std::string::npos, "no '%s' in:\n%s", want,
			      table.c_str());
	ck_assert_msg(table.find("the trace's ticks are the HZ 250 kernel's") != std::string::npos,
		      "%s", table.c_str());
	// Recorded ticks beside every jiffy are not like for like: the table
	// says so (it did not), and --ticks every-jiffy runs both alike.
	ck_assert_msg(table.find("Not like for like: the recorded side ran its timers at recorded ticks, the "
				 "what-if side\n  at every-jiffy ones; --ticks every-jiffy runs both sides alike.") !=
			      std::string::npos,
		      "%s", table.c_str());
	replay_options alike = opt;
	alike.ticks = tick_mode::every_jiffy;
	const std::string both = what_if_table(replay_what_if(path, trace_format::auto_detect, {}, alike, 1000));
	ck_assert_msg(both.find("Not like for like") == std::string::npos, "%s", both.c_str());

	// At the recorded HZ the what-if is the recording, ticks and all.
	replay_options same = what_if_options(opt, {250, 64}, 250);
	ck_assert(same.ticks == opt.ticks);
	ck_assert(same.ticks_why.empty());
}
END_TEST

int main()
{
	Suite *s = suite_create("whatif");
	TCase *tc = tcase_create("whatif");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, conversions_follow_the_kernel);
	tcase_add_test(tc, values_map_as_documented);
	tcase_add_test(tc, same_hz_changes_nothing);
	tcase_add_test(tc, what_if_of_a_generated_trace);
	tcase_add_test(tc, own_expiries_drops_exactly_the_expiries);
	tcase_add_test(tc, unknown_hz_is_a_usage_error);
	tcase_add_test(tc, what_if_hz_ticks_at_its_own_rate);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
