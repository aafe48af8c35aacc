// timersim gen: the generated trace is deterministic, is what a 3.x kernel
// would trace (checked event by event against the kernel's rules, not
// against the replay), replays with every expiry exact through classic -
// the ideal kernel it was generated on - at every HZ and CPU count, reads
// the same through the in-memory reader as through the text, and v48
// fires each timer within its level's granularity.
#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "kernel/v48_wheel.h"
#include "sim/replay/replay_sink.h"
#include "sim/base/errors.h"
#include "sim/gen/generator.h"
#include "sim/gen/kinds.h"
#include "tests/support/gen_trace.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"

using namespace timersim;
using namespace timersim::test;

namespace {

// Every kind, with parameters that make it fire within a short trace
// (adversarial: its first cluster expires up to 3 * 256 jiffies in, 7.7 s
// at HZ 100).
struct kind_case {
	const char *text;
	double seconds;
};
const kind_case every_kind[] = {
	{"networking:rate=200", 1.5},
	{"lognormal:rate=500,median=50ms", 1.5},
	{"exponential:rate=500,mean=30ms,cancel=0.3", 1.5},
	{"periodic:timers=40,period=100ms,jitter=0.2", 1.5},
	{"guards:timers=300,min=500ms,max=3s,refresh=2,life=2s", 1.5},
	{"adversarial:timers=300,level=2,cancel=0.3", 8},
	{"bursts:every=200ms,size=100,timeout=150ms,sigma=0.5", 1.5},
	{"fitted:fn=tcp_write_timer,rate=300,median=40ms,sigma=0.7,expire=0.2,rearm=0.5,cancel=0.3,"
	 "life=10ms,life_sigma=1,self=0.5", 1.5},
	{"networking:rate=100;periodic:timers=8,period=50ms;guards:timers=200,min=1s,max=2s;"
	 "lognormal:rate=200,median=20ms", 1.5},
};

std::vector<owned_event> events_of(const std::string &path)
{
	auto reader = open_trace(path, trace_format::auto_detect, {});
	return read_all(*reader);
}

}  // namespace

START_TEST(same_seed_same_bytes)
{
	for (const kind_case &k : every_kind) {
		const char *w = k.text;
		gen::gen_options o = gen_opts(w, 250, 2, k.seconds, 7);
		std::string a = gen_text(o), b = gen_text(o);
		ck_assert_msg(a == b, "%s: two runs with seed 7 differ", w);
		ck_assert_msg(a.size() > 2000, "%s: only %zu bytes", w, a.size());
		o.seed = 8;
		ck_assert_msg(gen_text(o) != a, "%s: seeds 7 and 8 give the same trace", w);
	}
}
END_TEST

// Adding a workload to a mixture leaves the others' draws as they were:
// each draws from its own stream.
START_TEST(mixture_streams_are_independent)
{
	// The timeouts of one callback's starts, in trace order.
	auto timeouts_of = [](const std::string &text, const std::string &fn) {
		std::vector<std::string> out;
		std::istringstream in(text);
		for (std::string line; std::getline(in, line);)
			if (line.find("function=" + fn + " ") != std::string::npos &&
			    line.find("timer_start") != std::string::npos)
				out.push_back(line.substr(line.find("[timeout=")));
		return out;
	};
	std::string alone = gen_text(gen_opts("lognormal:rate=300,fn=alpha", 250, 1, 1.0));
	std::string mixed = gen_text(gen_opts("lognormal:rate=300,fn=alpha;exponential:rate=300,fn=beta", 250, 1, 1.0));
	std::vector<std::string> a = timeouts_of(alone, "alpha");
	ck_assert_uint_gt(a.size(), 200);
	ck_assert(a == timeouts_of(mixed, "alpha"));
	ck_assert_uint_gt(timeouts_of(mixed, "beta").size(), 200);
}
END_TEST

// The trace obeys the 3.x kernel's rules, checked on the events alone:
// an expiry is the timer's cancel then expire_entry on its CPU with now =
// its expires; a cancel is only traced for a pending timer; a pending
// timer is re-started only right after its cancel; timeout = expires -
// jiffies at the call; jiffies follow the timestamps at HZ; nothing goes
// back in time.
START_TEST(events_follow_the_3x_kernel)
{
	for (unsigned hz : {100u, 250u, 300u, 1000u})
		for (const kind_case &k : every_kind) {
			const char *w = k.text;
			gen::gen_options o = gen_opts(w, hz, 3, k.seconds, 3);
			std::vector<owned_event> evs = events_of(gen_file(o, "rules.txt"));
			struct st { bool pending = false; std::uint64_t expires = 0; };
			std::unordered_map<std::uint64_t, st> timers;
			std::map<unsigned, const owned_event *> last_on_cpu;
			const std::uint64_t j0 = kernel::initial_jiffies<std::uint64_t>(hz) + 1000ull * hz;
			std::uint64_t last_ts = 0, last_j = j0, expiries = 0;
			for (const owned_event &ev : evs) {
				ck_assert_uint_ge(ev.ts_ns, last_ts);
				last_ts = ev.ts_ns;
				std::uint64_t j = 0;
				bool has_j = false;
				st &t = timers[ev.timer];
				const owned_event *prev = last_on_cpu[ev.cpu];
				switch (ev.kind) {
				case event_kind::timer_start:
					ck_assert(ev.carries(EF_TIMEOUT));
					ck_assert_int_ge(ev.timeout, 1);
					j = ev.expires - static_cast<std::uint64_t>(ev.timeout);
					has_j = true;
					if (t.pending)
						ck_assert_msg(prev && prev->kind == event_kind::timer_cancel &&
							      prev->timer == ev.timer,
							      "%s HZ %u line %llu: pending timer restarted without cancel", w,
							      hz, (unsigned long long)ev.line);
					t.pending = true;
					t.expires = ev.expires;
					break;
				case event_kind::timer_cancel:
					ck_assert_msg(t.pending, "%s: cancel of an idle timer, line %llu", w,
						      (unsigned long long)ev.line);
					t.pending = false;
					break;
				case event_kind::timer_expire_entry:
					ck_assert(prev && prev->kind == event_kind::timer_cancel && prev->timer == ev.timer);
					ck_assert_uint_eq(ev.now, t.expires);
					j = ev.now;
					has_j = true;
					expiries++;
					break;
				default:
					break;
				}
				if (has_j) {
					ck_assert_uint_ge(j, last_j);
					last_j = j;
					// The jiffy the timestamp falls in (timestamps are whole us).
					double secs = double(ev.ts_ns) / 1e9 - 1000.0;
					double at = double(j - j0) / hz;
					ck_assert_msg(secs >= at - 1e-6 && secs < at + 1.0 / hz + 1e-6,
						      "%s HZ %u: jiffy %llu at %.6f s", w, hz, (unsigned long long)j, secs);
				}
				last_on_cpu[ev.cpu] = &ev;
			}
			ck_assert_msg(expiries > 0, "%s HZ %u: nothing expired", w, hz);
		}
}
END_TEST

// Classic is the ideal kernel the trace was generated on: every recorded
// expiry is matched in the same jiffy, and the report sees a 3.x trace at
// the generated HZ and CPU count.
START_TEST(classic_replays_every_expiry_exactly)
{
	for (unsigned hz : {100u, 250u, 300u, 1000u})
		for (unsigned cpus : {1u, 4u})
			for (const kind_case &k : every_kind) {
				const char *w = k.text;
				gen::gen_options o = gen_opts(w, hz, cpus, std::max(k.seconds, 2.0), 11);
				replay_report r = replay_path(gen_file(o, "exact.txt"));
				const fidelity_summary &f = r.fidelity;
				ck_assert_str_eq(r.input.kernel_scheme.c_str(), "classic");
				ck_assert_uint_eq(r.input.hz, hz);
				ck_assert(r.input.hz_inferred);
				ck_assert_uint_eq(r.input.word_bits, 64);
				ck_assert_uint_eq(r.input.cpus, cpus);
				ck_assert_uint_eq(r.input.malformed, 0);
				ck_assert_msg(f.compared > 0, "%s: no expiry to compare", w);
				ck_assert_msg(f.exact == f.compared && !f.early && !f.late && !f.unmatched &&
						      !f.simulated_only,
					      "%s HZ %u CPUs %u: exact %llu of %llu (early %llu late %llu unmatched %llu "
					      "simulated only %llu)",
					      w, hz, cpus, (unsigned long long)f.exact, (unsigned long long)f.compared,
					      (unsigned long long)f.early, (unsigned long long)f.late,
					      (unsigned long long)f.unmatched, (unsigned long long)f.simulated_only);
				ck_assert_uint_eq(r.lateness.max, 0);
			}
}
END_TEST

// As a 6.x kernel the trace is v48's: every recorded expiry is at the
// bucket's expiry, which v48 matches exactly; classic fires every timer
// before its recorded expiry (bucket_expiry is at least expires + 1), so it
// does its own expiry work too.
START_TEST(v48_replays_a_6x_trace_exactly)
{
	for (unsigned hz : {100u, 250u, 300u, 1000u})
		for (unsigned cpus : {1u, 3u})
			for (const kind_case &k : every_kind) {
				const char *w = k.text;
				gen::gen_options o = gen_opts(w, hz, cpus, std::max(k.seconds, 2.0), 13);
				o.kernel = gen::kernel_gen::linux6;
				std::string path = gen_file(o, "k6.txt");
				replay_report r = replay_path(path, "v48");
				const fidelity_summary &f = r.fidelity;
				ck_assert_str_eq(r.input.kernel_scheme.c_str(), "v48");
				ck_assert_uint_eq(r.input.hz, hz);
				ck_assert_msg(f.compared > 0, "%s: no expiry to compare", w);
				ck_assert_msg(f.exact == f.compared && !f.simulated_only,
					      "%s HZ %u CPUs %u: v48 exact %llu of %llu (early %llu late %llu unmatched "
					      "%llu simulated only %llu)",
					      w, hz, cpus, (unsigned long long)f.exact, (unsigned long long)f.compared,
					      (unsigned long long)f.early, (unsigned long long)f.late,
					      (unsigned long long)f.unmatched, (unsigned long long)f.simulated_only);
				replay_report c = replay_path(path, "classic");
				ck_assert_uint_eq(c.fidelity.early + c.fidelity.unmatched, c.fidelity.compared);
				ck_assert_uint_eq(c.fidelity.late, 0);
				ck_assert_uint_eq(c.lateness.max, 0);
			}
}
END_TEST

// A long adversarial round on tv3: one tick moves the whole cluster, and
// classic still fires each of them exactly.
START_TEST(adversarial_cluster_cascades_in_one_tick)
{
	gen::gen_options o = gen_opts("adversarial:timers=2000,level=3,rounds=1", 1000, 1, 50.0, 5);
	replay_report r = replay_path(gen_file(o, "adv.txt"));
	ck_assert_uint_eq(r.cascade.max_moved_in_one_tick, 2000);
	ck_assert_uint_eq(r.cascade.max_moved_jiffy % 16384, 0);
	ck_assert_uint_eq(r.fidelity.exact, 2000);
	ck_assert_uint_eq(r.fidelity.compared, 2000);
	// tv3 cascades them all at once; those outside the first 256 jiffies
	// of the slot go to tv2 and move once more.
	ck_assert_uint_eq(r.cascade.levels[1].moved, 2000);
	ck_assert_uint_gt(r.cascade.levels[0].moved, 1900);
	ck_assert_uint_lt(r.cascade.levels[0].moved, 2000);
}
END_TEST

START_TEST(reader_matches_the_text)
{
	for (const kind_case &k : every_kind) {
		const char *w = k.text;
		gen::gen_options o = gen_opts(w, 300, 2, k.seconds, 2);
		if (&k - every_kind >= 4)	// half of them as 6.x traces
			o.kernel = gen::kernel_gen::linux6;
		std::vector<owned_event> text = events_of(gen_file(o, "same.txt"));
		auto reader = gen::make_gen_reader(o);
		std::vector<owned_event> mem = read_all(*reader);
		ck_assert_uint_eq(text.size(), mem.size());
		ck_assert_uint_eq(reader->stats().events, mem.size());
		for (std::size_t i = 0; i < text.size(); i++) {
			owned_event a = text[i], b = mem[i];
			a.line = b.line = 0;
			ck_assert_msg(a == b, "%s: event %zu differs (%s at line %llu)", w, i, a.name.c_str(),
				      (unsigned long long)text[i].line);
		}
	}
}
END_TEST

// With --no-expiries every scheme fires the timers on its own. v48 rounds
// each expiry up to its level's granularity (calc_index adds one granule):
// it fires every timer at least one jiffy and at most one granule late.
START_TEST(v48_lateness_within_level_granularity)
{
	for (unsigned hz : {100u, 250u, 1000u}) {
		gen::gen_options o = gen_opts("lognormal:rate=1000,median=100ms,sigma=1.5,cancel=0.2;"
					      "bursts:every=300ms,size=200,timeout=2s,sigma=1",
					      hz, 2, 6.0, 4);
		o.expiries = false;
		std::string path = gen_file(o, "noexp.txt");

		// The jiffy each arming was made at, by (timer, expires).
		std::map<std::pair<std::uint64_t, std::uint64_t>, std::uint64_t> armed_at;
		for (const owned_event &ev : events_of(path))
			if (ev.kind == event_kind::timer_start)
				armed_at[{ev.timer, ev.expires}] = ev.expires - static_cast<std::uint64_t>(ev.timeout);

		// Every simulated expiry, as the replay reports it to its sinks.
		struct fired_rec {
			std::uint64_t timer, expires, fired;
		};
		struct recorder final : replay_sink {
			std::vector<fired_rec> rows;
			void expired(const timer_ref &t, unsigned, jiffies_t jiffy, jiffies_t expires) override
			{
				rows.push_back({t.ptr, expires, jiffy});
			}
		} rec;
		auto reader = open_trace(path, trace_format::auto_detect, {});
		replay_options opt;
		opt.scheme = "v48";
		replay_report r = replay_trace(*reader, path, opt, {&rec});
		ck_assert_uint_gt(r.lateness.expiries, 1000);

		std::uint64_t rows = 0, at_bucket = 0;
		for (const fired_rec &x : rec.rows) {
			const std::uint64_t expires = x.expires, fired = x.fired;
			auto it = armed_at.find({x.timer, expires});
			ck_assert_msg(it != armed_at.end(), "expiry of an arming never traced: timer %llx expires %llu",
				      (unsigned long long)x.timer, (unsigned long long)expires);
			std::uint64_t bucket = 0;
			auto level = [&](auto geometry) {
				using G = decltype(geometry);
				std::uint64_t delta = expires - it->second;
				unsigned lvl = 0;
				while (lvl < G::LVL_DEPTH - 1 && delta >= G::LVL_START(lvl + 1))
					lvl++;
				kernel::v48::calc_wheel_index<G, std::uint64_t>(expires, it->second, &bucket);
				return G::LVL_GRAN(lvl);
			};
			std::uint64_t gran = hz > 100 ? level(kernel::v48::geometry_hz_gt_100{})
						      : level(kernel::v48::geometry_hz_le_100{});
			ck_assert_msg(fired > expires && fired - expires <= gran,
				      "HZ %u: timer %llx fired %llu jiffies late, granularity %llu", hz,
				      (unsigned long long)x.timer, (unsigned long long)(fired - expires),
				      (unsigned long long)gran);
			at_bucket += fired == bucket;
			rows++;
		}
		ck_assert_uint_eq(rows, r.lateness.expiries);
		std::fprintf(stderr, "HZ %u: v48 fired %llu timers, %llu at the bucket expiry of their arming jiffy\n",
			     hz, (unsigned long long)rows, (unsigned long long)at_bucket);
	}
}
END_TEST

// --no-expiries leaves out exactly the expiries' events (each
// timer_expire_entry, the timer_cancel just before it, its
// timer_expire_exit) and changes nothing else.
START_TEST(no_expiries_only_drops_the_expiries)
{
	auto body = [](const std::string &text, bool drop_expiries) {
		std::vector<std::string> lines;
		std::istringstream in(text);
		for (std::string line; std::getline(in, line);) {
			if (line.empty() || line[0] == '#')
				continue;
			if (drop_expiries && line.find("timer_expire_entry:") != std::string::npos) {
				ck_assert(lines.back().find("timer_cancel:") != std::string::npos);
				lines.pop_back();
				continue;
			}
			if (drop_expiries && line.find("timer_expire_exit:") != std::string::npos)
				continue;
			lines.push_back(line);
		}
		return lines;
	};
	for (const kind_case &k : every_kind) {
		gen::gen_options o = gen_opts(k.text, 250, 2, k.seconds, 5);
		std::vector<std::string> with = body(gen_text(o), true);
		o.expiries = false;
		std::vector<std::string> without = body(gen_text(o), false);
		ck_assert_msg(with == without, "%s: --no-expiries changed more than the expiries", k.text);
	}
}
END_TEST

START_TEST(bad_workloads_are_usage_errors)
{
	struct {
		const char *text, *says;
	} cases[] = {
		{"nosuch", "unknown kind 'nosuch'"},
		{"networking:rtt", "expected KEY=VALUE"},
		{"networking:speed=3", "unknown parameter speed=3"},
		{"lognormal:median=fast", "median=fast must be a duration"},
		{"networking:loss=2", "loss=2 must be a fraction"},
		{"periodic:timers=1.5", "timers=1.5 must be a whole number"},
		{"guards:cpu=-1", "cpu=-1 must be a CPU number"},
		{"lognormal:rate=-5", "rate=-5 must be a rate"},
		{"adversarial:level=5", "level=5 must be 2, 3 or 4"},
		{"", "unknown kind ''"},
	};
	for (const auto &c : cases) {
		try {
			gen::parse_workload(c.text);
			ck_abort_msg("%s: accepted", c.text);
		} catch (const usage_error &e) {
			ck_assert_msg(std::string(e.what()).find(c.says) != std::string::npos, "%s: %s", c.text,
				      e.what());
		}
	}
	gen::gen_options o = gen_opts("periodic");
	o.hz = 5;
	ck_assert_msg([&] {
		try {
			gen::generator g(o);
		} catch (const usage_error &e) {
			return std::string(e.what()).find("--hz 5") != std::string::npos;
		}
		return false;
	}(), "HZ 5 accepted");
}
END_TEST

int main()
{
	Suite *s = suite_create("gen");
	TCase *tc = tcase_create("gen");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, same_seed_same_bytes);
	tcase_add_test(tc, mixture_streams_are_independent);
	tcase_add_test(tc, events_follow_the_3x_kernel);
	tcase_add_test(tc, classic_replays_every_expiry_exactly);
	tcase_add_test(tc, v48_replays_a_6x_trace_exactly);
	tcase_add_test(tc, adversarial_cluster_cascades_in_one_tick);
	tcase_add_test(tc, reader_matches_the_text);
	tcase_add_test(tc, v48_lateness_within_level_granularity);
	tcase_add_test(tc, no_expiries_only_drops_the_expiries);
	tcase_add_test(tc, bad_workloads_are_usage_errors);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
