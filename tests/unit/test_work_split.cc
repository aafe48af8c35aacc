// Where each scheme's work runs: process context (start, cancel, re-arm,
// with the sifts they make) and softirq (expiry, cascades, slot and bucket
// visits). The heap's sift steps are worked out by hand; every scheme's
// split adds up to its costs, kind by kind, and the work credited to the
// callbacks adds up to the split.
#include <string>

#include <nlohmann/json.hpp>

#include "sim/estimate/estimate.h"
#include "tests/support/cli.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"

using namespace timersim;
using namespace timersim::test;
using json = nlohmann::json;

namespace {

const char default_trace[] = "tests/data/default-trace.txt.gz";
const char *const kinds[] = {"insertions", "removals", "relinks", "slot_visits", "key_comparisons"};

std::string start(unsigned long long usec, const char *timer, const char *fn, unsigned long long expires,
		  unsigned timeout)
{
	return ftrace_line(0, usec, std::string("timer_start: timer=") + timer + " function=" + fn +
					    " expires=" + std::to_string(expires) + " [timeout=" +
					    std::to_string(timeout) + "]");
}

}  // namespace

// Three starts and a cancel at jiffy J, then a drain fires the other two.
// By hand, for a binary (and a 4-ary) heap of one base:
//   start A (J+10): empty heap, placed at the root         1 insertion, 1 visit
//   start B (J+20): 1 comparison with A, stays a leaf      1 insertion, 1 comparison, 1 visit
//   start C (J+5):  1 comparison with A, A moves down,     1 insertion, 1 comparison, 2 visits
//                   C placed at the root
//   cancel B (index 1): A takes its place, 1 comparison    1 removal, 1 comparison, 1 visit
//                   with the root, no child to sift to
// process context: 3 insertions, 1 removal, 3 comparisons, 5 visits = 12 units.
//   C fires: A to the root, no child                       1 removal, 1 visit
//   A fires: the last entry, popped                        1 removal
// softirq: 2 removals, 1 visit = 3 units. Not one sift of a start or cancel
// may land in the softirq.
START_TEST(heap_sifts_of_start_and_cancel_are_process_context)
{
	const unsigned long long J = 4295000000ull;
	std::string body = start(100000000, "ffff0000000000a0", "fn_a", J + 10, 10) +
			   start(100000001, "ffff0000000000b0", "fn_b", J + 20, 20) +
			   start(100000002, "ffff0000000000c0", "fn_c", J + 5, 5) +
			   ftrace_line(0, 100000003, "timer_cancel: timer=ffff0000000000b0");
	std::string t = write_temp("heap-sifts.txt", ftrace_text(body));
	for (const char *scheme : {"heap", "heap4"}) {
		json r = json_of({"replay", "--scheme", scheme, "--hz", "250", "--ticks", "every-jiffy",
				      "--own-expiries", "--drain", "--json", "-", t});
		const json &p = r["work"]["process"], &s = r["work"]["softirq"];
		ck_assert_msg(p["insertions"] == 3 && p["removals"] == 1 && p["key_comparisons"] == 3 &&
				      p["slot_visits"] == 5 && p["relinks"] == 0 && p["units"] == 12,
			      "%s process %s", scheme, p.dump().c_str());
		ck_assert_msg(s["insertions"] == 0 && s["removals"] == 2 && s["key_comparisons"] == 0 &&
				      s["slot_visits"] == 1 && s["units"] == 3,
			      "%s softirq %s", scheme, s.dump().c_str());
		// Per callback: B only started and canceled; C's expiry woke
		// the first run, A's the second.
		for (const json &f : r["functions"]) {
			std::string fn = f["function"];
			std::uint64_t want_process = fn == "fn_a" ? 2 : fn == "fn_b" ? 3 + 3 : 4;
			std::uint64_t want_softirq = fn == "fn_a" ? 1 : fn == "fn_b" ? 0 : 2;
			ck_assert_msg(f["process_units"] == want_process && f["softirq_units"] == want_softirq,
				      "%s %s", scheme, f.dump().c_str());
			ck_assert_uint_eq(f["wakeups"].get<std::uint64_t>(), fn == "fn_b" ? 0 : 1);
			ck_assert(f["measured"] == "not recorded");
		}
	}
}
END_TEST

// For every scheme: process + softirq = costs, kind by kind, and what the
// callbacks were credited with plus the softirq work of no callback is
// all of it.
START_TEST(split_adds_up_for_every_scheme)
{
	json c = json_of({"compare", "--json", "-", default_trace});
	ck_assert_uint_eq(c["schemes"].size(), 9);
	for (const json &r : c["schemes"]) {
		std::string name = r["scheme"]["name"];
		const json &w = r["work"];
		std::uint64_t all = 0;
		for (const char *k : kinds) {
			ck_assert_msg(w["process"][k].get<std::uint64_t>() + w["softirq"][k].get<std::uint64_t>() ==
					      r["costs"][k].get<std::uint64_t>(),
				      "%s: %s", name.c_str(), k);
			all += r["costs"][k].get<std::uint64_t>();
		}
		std::uint64_t credited = w["softirq_unattributed"];
		for (const json &f : r["functions"])
			credited += f["work_units"].get<std::uint64_t>();
		ck_assert_msg(credited == all, "%s: %llu credited of %llu", name.c_str(),
			      (unsigned long long)credited, (unsigned long long)all);
		ck_assert_msg(w["runs_expiring"] <= w["runs"], "%s", name.c_str());
	}
}
END_TEST

// Without a sink that wants the units by kind (compare, a plain replay),
// the engine takes only their total at each credit and the split at each
// change of context: the same split, kind by kind, as a replay whose
// timeline takes every credit's units.
START_TEST(split_is_the_same_with_and_without_units_by_kind)
{
	const std::string timeline = temp_subdir("work_split") + "/timeline.csv";
	for (const char *trace : {default_trace, "tests/data/measured-network-quiet.txt.gz"}) {
		json c = json_of({"compare", "--json", "-", trace});
		for (const json &r : c["schemes"]) {
			const std::string name = r["scheme"]["name"];
			json t = json_of({"replay", "--scheme", name, "--json", "-", "--timeline", timeline,
					      trace});
			ck_assert_msg(r["work"] == t["work"], "%s on %s: work %s, with a timeline %s",
				      name.c_str(), trace, r["work"].dump().c_str(),
				      t["work"].dump().c_str());
		}
	}
}
END_TEST

// The wheels' starts and cancels never visit a slot or bucket, and their
// softirq never inserts: v48 and classic, under recorded ticks and every
// jiffy (where v48, advancing one CPU, searches the other CPUs' global
// bases for their next expiry without a word: a later start there must
// not take that work as its own).
START_TEST(wheels_visit_no_slot_in_process_context)
{
	for (const char *ticks : {"auto", "every-jiffy"})
		for (const char *scheme : {"v48", "classic"}) {
			json r = json_of({"replay", "--scheme", scheme, "--ticks", ticks, "--json", "-",
					      default_trace});
			const json &p = r["work"]["process"], &s = r["work"]["softirq"];
			ck_assert_msg(p["slot_visits"] == 0 && p["relinks"] == 0 && s["insertions"] == 0,
				      "%s %s: process %s softirq %s", scheme, ticks, p.dump().c_str(),
				      s.dump().c_str());
			ck_assert_msg(p["insertions"] == r["costs"]["insertions"], "%s %s", scheme, ticks);
			ck_assert_uint_gt(s["slot_visits"].get<std::uint64_t>(), 0);
		}
}
END_TEST

// v48 meters its work per CPU, and the engine reads a CPU's meter again
// only after the scheme worked (replay_engine::scheme_worked()): starts
// one after another on one CPU, and expiries one after another in one
// softirq run, must each still be credited with their own work. Each
// start enqueues (an insertion, a comparison), each expiry detaches (a
// removal), so no callback may go without process or softirq units.
START_TEST(v48_credits_each_start_and_expiry_its_own_work)
{
	const unsigned long long J = 4295000000ull;
	std::string body = start(100000000, "ffff0000000000a0", "fn_a", J + 10, 10) +
			   start(100000001, "ffff0000000000b0", "fn_b", J + 10, 10) +
			   start(100000002, "ffff0000000000c0", "fn_c", J + 10, 10);
	std::string t = write_temp("v48-meter.txt", ftrace_text(body));
	for (const char *ticks : {"every-jiffy", "auto"}) {
		json r = json_of({"replay", "--scheme", "v48", "--hz", "250", "--ticks", ticks,
				      "--own-expiries", "--drain", "--json", "-", t});
		ck_assert_uint_eq(r["functions"].size(), 3);
		std::uint64_t process = 0, softirq = 0;
		for (const json &f : r["functions"]) {
			ck_assert_msg(f["process_units"].get<std::uint64_t>() >= 2 &&
					      f["softirq_units"].get<std::uint64_t>() >= 1,
				      "%s: %s", ticks, f.dump().c_str());
			process += f["process_units"].get<std::uint64_t>();
			softirq += f["softirq_units"].get<std::uint64_t>();
		}
		ck_assert_uint_eq(process, r["work"]["process"]["units"].get<std::uint64_t>());
		ck_assert_uint_eq(r["work"]["softirq"]["removals"].get<std::uint64_t>(), 3);
	}
}
END_TEST

// compare --estimate: the heap's process-context sifts are not softirq
// time, and the last column is each scheme's softirq time as a multiple of
// the first's (heap4 with 4x classic's softirq units at the same ns/unit
// reads 4.00x, not 0.25x).
START_TEST(estimate_columns_read_in_the_natural_direction)
{
	std::string calib = write_temp("calib.json", "{\"schemes\": {\"classic\": {\"ns_per_unit\": 10.0}, "
						     "\"heap4\": {\"ns_per_unit\": 10.0}}}\n");
	calibration c = load_calibration(calib);
	replay_report classic, heap4;
	classic.scheme = "classic";
	classic.work.process = {50, 10, 0, 0, 0};
	classic.work.softirq = {0, 40, 0, 60, 0};	// 100 units: 1.0 us
	heap4.scheme = "heap4";
	heap4.work.process = {50, 10, 0, 900, 1000};	// sifts of starts: process
	heap4.work.softirq = {0, 40, 0, 160, 200};	// 400 units: 4.0 us
	for (replay_report *r : {&classic, &heap4})
		r->costs = {r->work.process.insertions + r->work.softirq.insertions,
			    r->work.process.removals + r->work.softirq.removals, 0,
			    r->work.process.slot_visits + r->work.softirq.slot_visits,
			    r->work.process.key_comparisons + r->work.softirq.key_comparisons};
	cost_estimate e = estimate(heap4, c);
	ck_assert_uint_eq(e.softirq_units, 400);
	ck_assert_uint_eq(e.process_units, 1960);
	std::string table = estimate_table({classic, heap4}, c);
	ck_assert_msg(table.find("process units") != std::string::npos &&
			      table.find("softirq / classic") != std::string::npos,
		      "%s", table.c_str());
	std::size_t row = table.find("\n  heap4");
	ck_assert_msg(row != std::string::npos, "%s", table.c_str());
	std::string line = table.substr(row + 1, table.find('\n', row + 1) - row - 1);
	ck_assert_msg(line.find(" 4.0 ") != std::string::npos && line.find("4.00x") != std::string::npos,
		      "%s", line.c_str());
	ck_assert_msg(line.find(" 19.6 ") != std::string::npos, "process us: %s", line.c_str());

	// Through the CLI on the hand-worked heap trace: 3 softirq units.
	const unsigned long long J = 4295000000ull;
	std::string body = start(100000000, "ffff0000000000a0", "fn_a", J + 10, 10) +
			   start(100000001, "ffff0000000000b0", "fn_b", J + 20, 20) +
			   start(100000002, "ffff0000000000c0", "fn_c", J + 5, 5) +
			   ftrace_line(0, 100000003, "timer_cancel: timer=ffff0000000000b0");
	std::string t = write_temp("heap-est.txt", ftrace_text(body));
	json r = json_of({"compare", "--schemes", "heap4", "--hz", "250", "--ticks", "every-jiffy",
			      "--own-expiries", "--drain", "--estimate", calib, "--json", "-", t});
	const json &est = r["estimates"][0];
	ck_assert_msg(est["softirq_units"] == 3 && est["process_units"] == 12, "%s", est.dump().c_str());
}
END_TEST

int main()
{
	Suite *s = suite_create("work_split");
	TCase *tc = tcase_create("work_split");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, heap_sifts_of_start_and_cancel_are_process_context);
	tcase_add_test(tc, split_adds_up_for_every_scheme);
	tcase_add_test(tc, split_is_the_same_with_and_without_units_by_kind);
	tcase_add_test(tc, wheels_visit_no_slot_in_process_context);
	tcase_add_test(tc, v48_credits_each_start_and_expiry_its_own_work);
	tcase_add_test(tc, estimate_columns_read_in_the_natural_direction);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
