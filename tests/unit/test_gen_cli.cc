// The command line of the workload issue: `timersim gen` (same seed, same
// bytes; --list-workloads; --like with --show-fit; bad input exits 2),
// `replay/compare --what-if-hz` and `--own-expiries`, `compare --estimate`.
#include <unistd.h>

#include <cstdio>
#include <string>

#include "sim/base/errors.h"
#include "sim/estimate/estimate.h"
#include "sim/trace/reader.h"
#include "tests/support/cli.h"
#include "tests/support/gen_trace.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"

using namespace timersim;
using namespace timersim::test;

namespace {

bool contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

std::string calibration_file(const std::string &dir)
{
	std::string path = dir + "/calib.json";
	std::FILE *f = std::fopen(path.c_str(), "w");
	std::fputs("{\"schemes\": {\"classic\": {\"ns_per_unit\": 20.0}, \"v48\": {\"ns_per_unit\": 10.0}}}\n", f);
	std::fclose(f);
	return path;
}

}  // namespace

START_TEST(gen_same_seed_same_bytes)
{
	std::string dir = temp_subdir("gencli");
	std::vector<std::string> args = {"gen", "-w", "networking:rate=80;periodic:timers=4", "--cpus", "2",
					 "--hz", "1000", "--duration", "1.5", "--seed", "42", "-o"};
	auto a = args, b = args;
	a.push_back(dir + "/a.txt");
	b.push_back(dir + "/b.txt");
	cli_result ra = run_timersim(a), rb = run_timersim(b);
	ck_assert_msg(ra.status == 0, "%s", ra.err.c_str());
	ck_assert_int_eq(rb.status, 0);
	std::string text = read_whole_file(dir + "/a.txt");
	ck_assert(text == read_whole_file(dir + "/b.txt"));
	ck_assert(contains(text, "# generated: timersim gen --seed 42 --hz 1000 --cpus 2 --duration 1.5s"));
	// And it is what the library writes for the same options.
	gen::gen_options o = gen_opts("networking:rate=80;periodic:timers=4", 1000, 2, 1.5, 42);
	ck_assert(text == gen_text(o));

	cli_result r = run_timersim({"replay", dir + "/a.txt"});
	ck_assert_int_eq(r.status, 0);
	ck_assert(contains(r.out, "its wheel is the `classic` scheme"));
	ck_assert(contains(r.out, "(100.00%)"));

	r = run_timersim({"gen", "-w", "lognormal", "--kernel", "6", "--duration", "1"});
	ck_assert_int_eq(r.status, 0);
	ck_assert(contains(r.out, "bucket_expiry="));
}
END_TEST

START_TEST(gen_errors_and_listing)
{
	cli_result r = run_timersim({"gen", "--list-workloads"});
	ck_assert_int_eq(r.status, 0);
	for (const char *k : {"networking:", "lognormal:", "exponential:", "periodic:", "guards:", "adversarial:",
			      "bursts:", "fitted:", "delack_fire"})
		ck_assert_msg(contains(r.out, k), "--list-workloads lacks %s", k);

	// --help names both kernels it generates for (it said "Linux 3.x"
	// alone, though --kernel 6 exists).
	r = run_timersim({"gen", "--help"});
	ck_assert_int_eq(r.status, 0);
	ck_assert_msg(!contains(r.out, "ideal Linux 3.x kernel would record") && contains(r.out, "6.8+ with --kernel 6"),
		      "%s", r.out.c_str());

	r = run_timersim({"gen", "-w", "networking:speed=3"});
	ck_assert_int_eq(r.status, 2);
	ck_assert(contains(r.err, "unknown parameter speed=3"));
	r = run_timersim({"gen"});
	ck_assert_int_eq(r.status, 2);
	ck_assert(contains(r.err, "no workload given"));
	r = run_timersim({"gen", "-w", "periodic", "--duration", "soon"});
	ck_assert_int_eq(r.status, 2);
	r = run_timersim({"gen", "-w", "periodic", "--kernel", "5"});
	ck_assert_int_eq(r.status, 2);
	// A failed run leaves no output file.
	std::string dir = temp_subdir("genfail");
	r = run_timersim({"gen", "-w", "adversarial:level=9", "-o", dir + "/x.txt"});
	ck_assert_int_eq(r.status, 2);
	ck_assert(access((dir + "/x.txt").c_str(), F_OK) != 0);
}
END_TEST

START_TEST(gen_like_a_trace)
{
	std::string dir = temp_subdir("like");
	std::string src = gen_file(gen_opts("periodic:timers=10,period=100ms;lognormal:rate=300,median=40ms", 300, 2, 3.0),
				   "src.txt");
	cli_result r = run_timersim({"gen", "--like", src, "--show-fit"});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	ck_assert(contains(r.out, "HZ 300, 2 CPUs"));
	ck_assert(contains(r.out, "fitted:fn=delayed_work_timer_fn,"));
	ck_assert(contains(r.out, "fitted:fn=process_timeout,"));

	r = run_timersim({"gen", "--like", src, "--scale", "3", "--seed", "5", "-o", dir + "/big.txt"});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	replay_report a = replay_path(src), b = replay_path(dir + "/big.txt");
	ck_assert_uint_eq(b.input.hz, 300);
	ck_assert_uint_eq(b.input.cpus, 2);
	double ratio = double(b.timers.started) / double(a.timers.started);
	ck_assert_msg(ratio > 2.5 && ratio < 3.5, "--scale 3 gave %.2fx the starts", ratio);
	ck_assert_uint_eq(b.fidelity.exact, b.fidelity.compared);
}
END_TEST

START_TEST(what_if_and_own_expiries_on_the_command_line)
{
	std::string t = gen_file(gen_opts("networking:rate=100;periodic:timers=6,period=80ms", 250, 2, 2.0), "w.txt");
	cli_result r = run_timersim({"replay", "--what-if-hz", "1000", t});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	ck_assert(contains(r.out, "recorded (HZ 250)"));
	ck_assert(contains(r.out, "what-if (HZ 1000)"));
	r = run_timersim({"replay", "--what-if-hz", "250", "--json", "-", t});
	ck_assert_int_eq(r.status, 0);
	ck_assert(contains(r.out, "\"recorded\": {") && contains(r.out, "\"what_if\": {"));

	r = run_timersim({"compare", "--schemes", "classic,v48", "--what-if-hz", "100", t});
	ck_assert_int_eq(r.status, 0);
	ck_assert(contains(r.out, "recorded (HZ 250)"));
	ck_assert(contains(r.out, "what-if (HZ 100"));

	r = run_timersim({"replay", "--own-expiries", "--json", "-", t});
	ck_assert_int_eq(r.status, 0);
	ck_assert(contains(r.out, "\"timer_expire_entry\": 0,"));
	r = run_timersim({"replay", "--what-if-hz", "5", t});
	ck_assert_int_eq(r.status, 2);
}
END_TEST

START_TEST(estimates_from_a_calibration)
{
	std::string dir = temp_subdir("est");
	std::string calib = calibration_file(dir);
	calibration c = load_calibration(calib);
	ck_assert_uint_eq(c.ns_per_unit.size(), 2);

	replay_report r;
	r.scheme = "classic";
	r.costs.insertions = 10;
	r.costs.removals = 8;
	r.costs.relinks = 3;
	r.costs.slot_visits = 100;
	r.costs.key_comparisons = 0;
	r.timers.expired = 5;
	// What the replay booked where: starts and cancels in process
	// context, the rest in the softirq.
	r.work.process = {10, 3, 0, 0, 0};
	r.work.softirq = {0, 5, 3, 100, 0};
	cost_estimate e = estimate(r, c);
	ck_assert(e.known);
	ck_assert_uint_eq(e.units, 121);
	ck_assert_uint_eq(e.softirq_units, 108);
	ck_assert_uint_eq(e.process_units, 13);
	ck_assert(e.total_ns == 2420.0 && e.softirq_ns == 2160.0 && e.process_ns == 260.0);
	r.scheme = "heap";
	ck_assert(!estimate(r, c).known);

	std::string t = gen_file(gen_opts("networking:rate=100", 250, 1, 2.0), "e.txt");
	cli_result out = run_timersim({"compare", "--schemes", "classic,v48,heap", "--estimate", calib, t});
	ck_assert_msg(out.status == 0, "%s", out.err.c_str());
	ck_assert(contains(out.out, "estimated CPU time (calibration " + calib + ")"));
	ck_assert(contains(out.out, "1.00x"));
	out = run_timersim({"compare", "--schemes", "classic,heap", "--estimate", calib, "--json", "-", t});
	ck_assert_int_eq(out.status, 0);
	ck_assert(contains(out.out, "\"estimates\": ["));
	ck_assert(contains(out.out, "\"calibrated\": false"));
	ck_assert(contains(out.out, "\"ns_per_unit\": 20.000"));

	// Bad calibrations name the file and what is wrong.
	struct {
		const char *text, *says;
	} bad[] = {
		{"{\"schemes\": ", "not JSON"},
		{"[1, 2]", "no \"schemes\" object"},
		{"{\"schemes\": {\"classic\": {\"ns\": 1}}}", "scheme \"classic\" has no number ns_per_unit"},
		{"{\"schemes\": {\"classic\": {\"ns_per_unit\": -1}}}", "must be positive"},
		{"{\"schemes\": {}}", "no scheme calibrated"},
	};
	for (const auto &b : bad) {
		std::string path = write_temp("bad-calib.json", b.text);
		try {
			load_calibration(path);
			ck_abort_msg("accepted %s", b.text);
		} catch (const input_error &e) {
			ck_assert_msg(contains(e.what(), b.says) && contains(e.what(), path), "%s -> %s", b.text, e.what());
		}
		cli_result x = run_timersim({"compare", "--estimate", path, t});
		ck_assert_int_eq(x.status, 2);
	}
}
END_TEST

int main()
{
	Suite *s = suite_create("gen_cli");
	TCase *tc = tcase_create("gen_cli");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, gen_same_seed_same_bytes);
	tcase_add_test(tc, gen_errors_and_listing);
	tcase_add_test(tc, gen_like_a_trace);
	tcase_add_test(tc, what_if_and_own_expiries_on_the_command_line);
	tcase_add_test(tc, estimates_from_a_calibration);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
