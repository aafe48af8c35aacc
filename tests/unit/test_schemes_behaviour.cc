// What is particular to each scheme, beyond firing in the right jiffy (the
// differential test covers that): Netty's rounds and lazy cancellation,
// Kafka's overflow wheels and bucket re-adds, the heaps' index, the
// overflow list's migration into the wheel; and the registry and parameter
// handling every scheme shares.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "sim/base/errors.h"
#include "sim/report/report_writers.h"
#include "sim/scheme/per_cpu_scheme.h"
#include "sim/scheme/scheme.h"
#include "sim/trace/event.h"

#include "tests/support/check_main.h"

using namespace timersim;

namespace {

struct event_log : scheme_observer {
	struct fire {
		timer_id t;
		unsigned cpu;
		jiffies_t jiffy;
	};
	std::vector<fire> fired;
	std::vector<std::pair<timer_id, unsigned>> enqueues, moves;	// (timer, level)
	std::vector<jiffies_t> move_jiffy;
	std::vector<std::pair<unsigned, std::uint32_t>> cascades;
	jiffies_t now = 0;

	void enqueued(timer_id t, unsigned level) override { enqueues.emplace_back(t, level); }
	void moved(timer_id t, unsigned from) override
	{
		moves.emplace_back(t, from);
		move_jiffy.push_back(now);
	}
	void cascaded(unsigned level, std::uint32_t n) override { cascades.emplace_back(level, n); }
	void tick(unsigned, jiffies_t j) override { now = j; }
	void expired(timer_id t, unsigned cpu, jiffies_t j) override { fired.push_back({t, cpu, j}); }
	void idle_ticks(unsigned, jiffies_t, std::uint64_t) override {}
	void empty_cascades(unsigned, std::uint64_t) override {}
};

std::unique_ptr<reported_scheme> make(const std::string &name, std::vector<std::pair<std::string, std::string>> params = {})
{
	scheme_options opt;
	opt.hz = 250;
	opt.params = std::move(params);
	return make_scheme(name, opt);
}

std::string check_of(const scheme &s)
{
	auto *c = dynamic_cast<const per_cpu_scheme *>(&s);
	ck_assert(c != nullptr);
	return c->check();
}

// The message must outlive the assertion: keep the string here.
void invariants_hold(const std::string &err)
{
	ck_assert_msg(err.empty(), "invariant: %s", err.c_str());
}

}  // namespace

// ---- Netty ----------------------------------------------------------------------

START_TEST(hashed_rounds_decrement_per_visit)
{
	auto s = make("hashed", {{"ticks_per_wheel", "8"}});
	event_log log;
	s->reset(1, 100, &log);
	// Due 20 ticks ahead on an 8-bucket wheel: its bucket comes round at
	// +4 and +12 with rounds 2 and 1 left (decremented), fires at +20.
	s->start(1, 0, 120, 0);
	s->advance(0, 119);
	ck_assert(log.fired.empty());
	ck_assert_uint_eq(s->costs().relinks, 2);
	s->advance(0, 120);
	ck_assert_uint_eq(log.fired.size(), 1);
	ck_assert_uint_eq(log.fired[0].jiffy, 120);
	ck_assert_uint_eq(s->costs().relinks, 2);
	invariants_hold(check_of(*s));
}
END_TEST

START_TEST(hashed_cancel_is_lazy)
{
	auto s = make("hashed");
	event_log log;
	s->reset(2, 0, &log);
	auto *c = dynamic_cast<per_cpu_scheme *>(s.get());
	s->start(1, 0, 50, 0);
	s->advance(0, 3);			// transferred into its bucket
	ck_assert(s->cancel(1));
	ck_assert(!s->pending(1));		// at once, for the caller
	ck_assert_uint_eq(s->pending_on(0), 0);
	invariants_hold(c->check());
	std::uint64_t visits = s->costs().slot_visits;
	s->advance(0, 4);			// unlinked at the next tick
	ck_assert_uint_eq(s->costs().slot_visits, visits + 2);	// the unlink + the bucket
	s->advance(0, 100);
	ck_assert(log.fired.empty());

	// A re-arm is cancel + new timeout; a migration too.
	s->start(2, 0, 200, 0);
	s->start(2, 0, 210, 0);
	s->start(2, 1, 220, 0);
	ck_assert_uint_eq(s->pending_on(0), 0);
	ck_assert_uint_eq(s->pending_on(1), 1);
	s->advance(0, 300);
	s->advance(1, 300);
	ck_assert_uint_eq(log.fired.size(), 1);
	ck_assert_uint_eq(log.fired[0].t, 2);
	ck_assert_uint_eq(log.fired[0].cpu, 1);
	ck_assert_uint_eq(log.fired[0].jiffy, 220);
	invariants_hold(c->check());
}
END_TEST

START_TEST(hashed_past_and_long_ticks)
{
	auto s = make("hashed", {{"tick", "4"}});
	event_log log;
	s->reset(1, 1000, &log);
	s->advance(0, 1009);
	// Ticks cover 1000..1003, 1004..1007, ... and run at their last jiffy.
	// Already past at insertion: the tick in progress (1008..1011).
	s->start(1, 0, 900, 0);
	// Due 1021: its tick covers 1020..1023 and runs at 1023 (late by 2).
	s->start(2, 0, 1021, 0);
	s->advance(0, 1030);
	ck_assert_uint_eq(log.fired.size(), 2);
	ck_assert_uint_eq(log.fired[0].t, 1);
	ck_assert_uint_eq(log.fired[0].jiffy, 1011);
	ck_assert_uint_eq(log.fired[1].jiffy, 1023);
}
END_TEST

// ---- Kafka -------------------------------------------------------------------------

START_TEST(kafka_overflow_wheels_on_demand)
{
	auto s = make("kafka");
	event_log log;
	s->reset(1, 1, &log);	// currentTime 0
	s->start(1, 0, 10, 0);		// < 20: wheel 1
	s->start(2, 0, 100, 0);		// < 400: wheel 2 (tick 20), created now
	s->start(3, 0, 10000, 0);	// < 160000: wheel 4 (tick 8000)
	ck_assert_uint_eq(log.enqueues.size(), 3);
	ck_assert_uint_eq(log.enqueues[0].second, 1);
	ck_assert_uint_eq(log.enqueues[1].second, 2);
	ck_assert_uint_eq(log.enqueues[2].second, 4);
	invariants_hold(check_of(*s));
	s->advance(0, 20000);
	ck_assert_uint_eq(log.fired.size(), 3);
	ck_assert_uint_eq(log.fired[0].jiffy, 10);
	ck_assert_uint_eq(log.fired[1].jiffy, 100);
	ck_assert_uint_eq(log.fired[2].jiffy, 10000);
}
END_TEST

START_TEST(kafka_bucket_readd_cascades)
{
	auto s = make("kafka");
	event_log log;
	s->reset(1, 1, &log);
	// 1000: wheel 3 (tick 400) bucket expiring 800; flushed at 800 it
	// drops into wheel 2's bucket expiring 1000, which fires it.
	s->start(1, 0, 1000, 0);
	// 1010: the same way down to 1000, then into wheel 1, fires at 1010.
	s->start(2, 0, 1010, 0);
	s->advance(0, 799);
	ck_assert(log.moves.empty());
	s->advance(0, 2000);
	std::vector<std::pair<timer_id, unsigned>> want = {{1, 3}, {2, 3}, {2, 2}};
	ck_assert(log.moves == want);
	ck_assert_uint_eq(log.move_jiffy[0], 800);
	ck_assert_uint_eq(log.move_jiffy[2], 1000);
	ck_assert_uint_eq(s->costs().relinks, 3);
	ck_assert_uint_eq(log.fired.size(), 2);
	ck_assert_uint_eq(log.fired[0].jiffy, 1000);
	ck_assert_uint_eq(log.fired[1].jiffy, 1010);
	// Cascades are reported per flushed overflow bucket.
	ck_assert(!log.cascades.empty() && log.cascades[0].first == 3 && log.cascades[0].second == 2);
}
END_TEST

START_TEST(kafka_long_tick_fires_in_containing_tick)
{
	auto s = make("kafka", {{"tick", "10"}});
	event_log log;
	s->reset(1, 1, &log);
	s->start(1, 0, 1005, 0);	// tick 1000..1009: fires at 1000, 5 early
	s->advance(0, 2000);
	ck_assert_uint_eq(log.fired.size(), 1);
	ck_assert_uint_eq(log.fired[0].jiffy, 1000);
	// Cancel unlinks at once; the emptied bucket is still polled.
	s->start(2, 0, 3000, 0);
	ck_assert(s->cancel(2));
	invariants_hold(check_of(*s));
	s->advance(0, 5000);
	ck_assert_uint_eq(log.fired.size(), 1);
}
END_TEST

// ---- heaps --------------------------------------------------------------------------

START_TEST(heap_index_integrity)
{
	for (const char *name : {"heap", "heap4"}) {
		auto s = make(name);
		event_log log;
		s->reset(2, 0, &log);
		std::mt19937_64 rng(42);
		for (int op = 0; op < 20000; op++) {
			timer_id t = static_cast<timer_id>(rng() % 300);
			unsigned cpu = static_cast<unsigned>(rng() % 2);
			switch (rng() % 4) {
			case 0:
			case 1:
				s->start(t, cpu, s->clock(cpu) + rng() % 500, 0);
				break;
			case 2:
				s->cancel(t);	// often from the middle of the heap
				break;
			default:
				s->advance(cpu, s->clock(cpu) + rng() % 30);
			}
			std::string err = check_of(*s);
			ck_assert_msg(err.empty(), "%s op %d: %s", name, op, err.c_str());
		}
		ck_assert(s->costs().key_comparisons > 0 && !log.fired.empty());
		// FIFO within a jiffy: by start order.
		auto h = make(name);
		event_log l2;
		h->reset(1, 0, &l2);
		for (timer_id t = 0; t < 50; t++)
			h->start(t, 0, 10, 0);
		h->advance(0, 10);
		for (timer_id t = 0; t < 50; t++)
			ck_assert_uint_eq(l2.fired[t].t, t);
	}
}
END_TEST

// ---- wheel + overflow list -----------------------------------------------------------

START_TEST(wheel_overflow_migrates)
{
	auto s = make("wheel-overflow", {{"slots", "16"}});
	event_log log;
	s->reset(1, 0, &log);
	ck_assert_uint_eq(s->levels(), 2);
	s->start(1, 0, 10, 0);		// within 16: the wheel
	s->start(2, 0, 40, 0);		// beyond: the overflow list
	s->start(3, 0, 30, 0);		// overflow, kept in order before 2
	ck_assert_uint_eq(log.enqueues[0].second, 1);
	ck_assert_uint_eq(log.enqueues[1].second, 2);
	ck_assert_uint_eq(log.enqueues[2].second, 2);
	invariants_hold(check_of(*s));
	s->advance(0, 14);
	ck_assert(log.moves.empty());
	s->advance(0, 15);		// 30 is now within 16 of 15
	ck_assert_uint_eq(log.moves.size(), 1);
	ck_assert_uint_eq(log.moves[0].first, 3);
	ck_assert_uint_eq(log.moves[0].second, 2);
	ck_assert_uint_eq(log.move_jiffy[0], 15);
	invariants_hold(check_of(*s));
	s->advance(0, 100);
	ck_assert_uint_eq(log.moves.size(), 2);
	ck_assert_uint_eq(log.move_jiffy[1], 25);
	ck_assert_uint_eq(s->costs().relinks, 2);
	ck_assert_uint_eq(log.fired.size(), 3);
	ck_assert_uint_eq(log.fired[0].jiffy, 10);
	ck_assert_uint_eq(log.fired[1].jiffy, 30);
	ck_assert_uint_eq(log.fired[2].jiffy, 40);
}
END_TEST

// ---- shared: registry, parameters, memory ----------------------------------------------

START_TEST(registry_lists_every_scheme)
{
	const auto &names = scheme_names();
	std::vector<std::string> want = {"classic", "v48",  "hashed", "kafka",         "heap",
					 "heap4",   "sorted-list", "list", "wheel-overflow"};
	ck_assert(names == want);
	for (const auto &n : names) {
		auto s = make(n);
		ck_assert(s->name() == n);
		auto p = s->params();
		ck_assert(!p.empty() && p[0].key == "hz" && p[0].value == "250" && p[0].integer);
	}
}
END_TEST

START_TEST(parameters_are_checked)
{
	struct known {
		const char *scheme, *key;
	};
	for (known k : {known{"v48", "tmigr"}, known{"hashed", "ticks_per_wheel"}, known{"kafka", "wheel_size"},
			known{"wheel-overflow", "slots"}}) {
		bool thrown = false;
		try {
			make(k.scheme, {{"bogus", "1"}});
		} catch (const usage_error &e) {
			thrown = true;
			std::string msg = e.what();
			ck_assert_msg(msg.find("bogus") != std::string::npos && msg.find(k.key) != std::string::npos,
				      "%s: message should name the bad and the known keys: %s", k.scheme, msg.c_str());
		}
		ck_assert_msg(thrown, "%s accepted an unknown parameter", k.scheme);
	}
	for (const char *n : {"heap", "heap4", "list", "sorted-list"}) {
		bool thrown = false;
		try {
			make(n, {{"slots", "4"}});
		} catch (const usage_error &) {
			thrown = true;
		}
		ck_assert(thrown);
	}
	bool thrown = false;
	try {
		make("hashed", {{"ticks_per_wheel", "100"}});
	} catch (const usage_error &) {
		thrown = true;
	}
	ck_assert_msg(thrown, "hashed: 100 is not a power of two");
	auto h = make("hashed", {{"ticks_per_wheel", "64"}});
	auto p = h->params();
	auto has = [&p](const char *key, const char *value) {
		return std::find_if(p.begin(), p.end(), [&](const scheme_param &q) {
			       return q.key == key && q.value == value && q.integer;
		       }) != p.end();
	};
	ck_assert(has("ticks_per_wheel", "64"));
	ck_assert(has("tick", "1"));
}
END_TEST

// classic reads its parameters through the one parser: the same errors as
// every scheme, --base-small as the default of geometry, a parameter over it.
START_TEST(classic_parameters_use_the_common_parser)
{
	auto message = [](std::vector<std::pair<std::string, std::string>> params) {
		try {
			make("classic", std::move(params));
		} catch (const usage_error &e) {
			return std::string(e.what());
		}
		return std::string();
	};
	// (The strings must outlive the assertions.)
	std::string unknown = message({{"bogus", "1"}}), bad = message({{"order", "random"}});
	ck_assert_str_eq(unknown.c_str(),
			 "classic: unknown parameter bogus=1 (known: order=fifo|lifo, geometry=normal|base_small)");
	ck_assert_str_eq(bad.c_str(), "classic: parameter order=random must be fifo|lifo");

	auto value = [](const reported_scheme &s, const char *key) {
		for (const scheme_param &p : s.params())
			if (p.key == key)
				return p.value;
		return std::string("(none)");
	};
	scheme_options opt;
	opt.base_small = true;
	auto small = make_scheme("classic", opt);
	std::string geometry = value(*small, "geometry"), tvr_bits = value(*small, "tvr_bits");
	ck_assert_str_eq(geometry.c_str(), "base_small");
	ck_assert_str_eq(tvr_bits.c_str(), "6");
	opt.params = {{"geometry", "normal"}, {"order", "lifo"}};
	auto normal = make_scheme("classic", opt);
	geometry = value(*normal, "geometry");
	std::string order = value(*normal, "order");
	ck_assert_str_eq(geometry.c_str(), "normal");
	ck_assert_str_eq(order.c_str(), "lifo");
}
END_TEST

// Parameters are typed: numbers are JSON numbers, words JSON strings; the
// text report prints both as key=value.
START_TEST(parameters_are_typed_in_reports)
{
	auto s = make("hashed", {{"ticks_per_wheel", "0064"}});
	replay_report r;
	r.scheme = s->name();
	r.scheme_params = s->params();
	std::string json = json_report(r, false);
	ck_assert_msg(json.find("\"hz\": 250,") != std::string::npos, "%s", json.c_str());
	ck_assert_msg(json.find("\"ticks_per_wheel\": 64,") != std::string::npos, "%s", json.c_str());
	auto v = make("v48");
	r.scheme_params = v->params();
	json = json_report(r, false);
	ck_assert_msg(json.find("\"lvl_depth\": 9,") != std::string::npos, "%s", json.c_str());
	ck_assert_msg(json.find("\"idle\": \"on\",") != std::string::npos, "%s", json.c_str());
	std::string text = text_report(r, {});
	ck_assert_msg(text.find("hz=250 word_bits=64 lvl_depth=9 idle=on tmigr=on") != std::string::npos, "%s",
		      text.c_str());
}
END_TEST

START_TEST(peak_memory_grows_with_timers)
{
	for (const auto &n : scheme_names()) {
		auto s = make(n);
		event_log log;
		s->reset(2, 1000, &log);
		for (timer_id t = 0; t < 10; t++)
			s->start(t, 0, 2000 + t, 0);
		std::uint64_t small = s->peak_memory_bytes();
		for (timer_id t = 0; t < 5000; t++)
			s->start(t, t % 2, 2000 + t * 7, 0);
		std::uint64_t big = s->peak_memory_bytes();
		ck_assert_msg(small > 0 && big > small, "%s: peak %llu then %llu", n.c_str(),
			      (unsigned long long)small, (unsigned long long)big);
		for (timer_id t = 0; t < 5000; t++)
			s->cancel(t);
		ck_assert_uint_eq(s->peak_memory_bytes(), big);	// a peak does not shrink
	}
}
END_TEST

// The replay's work meter reads live_costs() in place of costs(): where a
// scheme offers them, they are costs() itself, current after every kind of
// work (start, re-arm, cancel, expiry), not a copy taken once.
START_TEST(live_costs_are_costs)
{
	for (const auto &n : scheme_names()) {
		auto s = make(n);
		event_log log;
		s->reset(2, 1000, &log);
		const cost_counters *live = s->live_costs();
		if (!live) {
			ck_assert_msg(!dynamic_cast<const per_cpu_scheme *>(s.get()),
				      "%s keeps its counters current but offers none", n.c_str());
			continue;
		}
		auto same = [&](const char *after) {
			const cost_counters &c = s->costs();
			ck_assert_msg(live == &c && live->insertions == c.insertions &&
					      live->removals == c.removals && live->relinks == c.relinks &&
					      live->slot_visits == c.slot_visits &&
					      live->key_comparisons == c.key_comparisons &&
					      live->skipped_idle == c.skipped_idle && c.total() != 0,
				      "%s after %s: live counters are not costs()", n.c_str(), after);
		};
		for (timer_id t = 0; t < 200; t++)
			s->start(t, t % 2, 1001 + (t * 37) % 3000, 0);
		same("starts");
		const std::uint64_t started = live->total();
		for (timer_id t = 0; t < 200; t += 3)
			s->start(t, (t + 1) % 2, 1500 + t, 0);
		same("re-arms");
		for (timer_id t = 1; t < 200; t += 5)
			s->cancel(t);
		same("cancels");
		s->advance(0, 5000);
		s->advance(1, 100000);
		same("expiries");
		ck_assert_msg(live->total() > started && !log.fired.empty(), "%s did no work", n.c_str());
	}
}
END_TEST

int main()
{
	Suite *s = suite_create("schemes_behaviour");
	TCase *tc = tcase_create("schemes");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, hashed_rounds_decrement_per_visit);
	tcase_add_test(tc, hashed_cancel_is_lazy);
	tcase_add_test(tc, hashed_past_and_long_ticks);
	tcase_add_test(tc, kafka_overflow_wheels_on_demand);
	tcase_add_test(tc, kafka_bucket_readd_cascades);
	tcase_add_test(tc, kafka_long_tick_fires_in_containing_tick);
	tcase_add_test(tc, heap_index_integrity);
	tcase_add_test(tc, wheel_overflow_migrates);
	tcase_add_test(tc, registry_lists_every_scheme);
	tcase_add_test(tc, parameters_are_checked);
	tcase_add_test(tc, classic_parameters_use_the_common_parser);
	tcase_add_test(tc, parameters_are_typed_in_reports);
	tcase_add_test(tc, peak_memory_grows_with_timers);
	tcase_add_test(tc, live_costs_are_costs);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
