// Replicates: `merge --summary` reduces cells that differ only in their
// seed to n, mean, sd and a Student-t 95% interval - checked on a fixture
// computed by hand - and a real sweep over three seeds summarizes to one
// row per scheme whose mean is the mean of its three cells.
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/sweep/run.h"
#include "sim/trace/reader.h"
#include "tests/support/cli.h"
#include "tests/support/paths.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"

using namespace timersim;
using namespace timersim::test;

namespace {

// A result row: every result column, null but those given.
nlohmann::json row(const std::string &scheme, unsigned seed, double events, double softirq_us)
{
	nlohmann::json j = nlohmann::json::object();
	for (const std::string &c : sweep::result_columns())
		j[c] = nullptr;
	j["id"] = "x";
	j["input_kind"] = "workload";
	j["input"] = "networking:rate=5,x=1";	// a comma: the group's field is quoted
	j["scheme"] = scheme;
	j["hz"] = 250;
	j["seed"] = seed;
	j["events"] = events;
	j["softirq_us"] = softirq_us;
	return j;
}

std::vector<std::string> split(const std::string &line)
{
	// The fixture's fields: one quoted (no quotes inside), the others plain.
	std::vector<std::string> out;
	std::string f;
	bool quoted = false;
	for (char c : line) {
		if (c == '"')
			quoted = !quoted;
		else if (c == ',' && !quoted) {
			out.push_back(f);
			f.clear();
		} else
			f += c;
	}
	out.push_back(f);
	return out;
}

// The value of column `name` in CSV line `k` (0: the header).
std::string field(const std::string &csv, std::size_t k, const std::string &name)
{
	std::istringstream in(csv);
	std::string header, line;
	std::getline(in, header);
	for (std::size_t i = 0; i < k; i++)
		std::getline(in, line);
	std::vector<std::string> h = split(header), v = split(line);
	for (std::size_t i = 0; i < h.size(); i++)
		if (h[i] == name)
			return i < v.size() ? v[i] : "<short row>";
	return "<no column " + name + ">";
}

void expect(const std::string &csv, std::size_t k, const std::string &name, const std::string &want)
{
	std::string got = field(csv, k, name);
	ck_assert_msg(got == want, "row %zu %s: got '%s', want '%s'", k, name.c_str(), got.c_str(), want.c_str());
}

}  // namespace

START_TEST(student_t_quantiles)
{
	// scipy.stats.t.ppf(0.975, df).
	struct {
		unsigned df;
		double t;
	} known[] = {{1, 12.7062047}, {2, 4.30265273}, {4, 2.77644511}, {30, 2.04227246},
		     {31, 2.03951345}, {1000, 1.96233908}};
	for (const auto &k : known)
		ck_assert_msg(std::fabs(sweep::student_t95(k.df) - k.t) < 1e-6, "df %u: %.8f", k.df,
			      sweep::student_t95(k.df));
}
END_TEST

// By hand. classic, seeds 1-3: events 10, 12, 17: mean 13; deviations -3,
// -1, 4, squares 26, sd = sqrt(26 / 2) = sqrt(13) = 3.605551275; t(0.975, 2)
// = 4.302653, half width 4.302653 x 3.605551275 / sqrt(3) = 8.956685895:
// [4.043314105, 21.9566859]. softirq_us 1.5, 2.5, 2.0 and (seed 4) 4.0:
// mean 2.5, squares 1 + 0 + 0.25 + 2.25 = 3.5, sd = sqrt(3.5 / 3) =
// 1.08012345; t(0.975, 3) = 3.182446, half width 3.182446 x 1.08012345 / 2 =
// 1.718717441: [0.7812825591, 4.218717441]. v48: one seed, no spread.
START_TEST(summary_on_a_hand_computed_fixture)
{
	std::vector<nlohmann::json> rows = {
		row("classic", 1, 10, 1.5),
		row("v48", 1, 7, 9),
		row("classic", 2, 12, 2.5),
		row("classic", 3, 17, 2.0),
	};
	std::string csv = sweep::summary_csv(rows);
	ck_assert_msg(std::count(csv.begin(), csv.end(), '\n') == 3, "%s", csv.c_str());
	expect(csv, 1, "scheme", "classic");
	expect(csv, 1, "input", "networking:rate=5,x=1");
	expect(csv, 1, "n", "3");
	expect(csv, 1, "seeds", "1 2 3");
	expect(csv, 1, "events_mean", "13");
	expect(csv, 1, "events_sd", "3.605551275");
	expect(csv, 1, "events_ci_lo", "4.043314105");
	expect(csv, 1, "events_ci_hi", "21.9566859");
	expect(csv, 1, "softirq_us_mean", "2");
	expect(csv, 1, "total_us_mean", "");	// no value: no statistics
	expect(csv, 2, "scheme", "v48");
	expect(csv, 2, "n", "1");
	expect(csv, 2, "events_mean", "7");
	expect(csv, 2, "events_sd", "");
	expect(csv, 2, "events_ci_lo", "");

	rows.push_back(row("classic", 4, 13, 4.0));	// events 13: their mean stays 13
	csv = sweep::summary_csv(rows);
	expect(csv, 1, "n", "4");
	expect(csv, 1, "seeds", "1 2 3 4");
	expect(csv, 1, "softirq_us_mean", "2.5");
	expect(csv, 1, "softirq_us_sd", "1.08012345");
	expect(csv, 1, "softirq_us_ci_lo", "0.7812825591");
	expect(csv, 1, "softirq_us_ci_hi", "4.218717441");
}
END_TEST

// A result edited to a number no replay gives (issue 41, defect 4): its
// replicates' sd and interval would pass a double's range and print as
// inf,-inf,inf. Refused, naming the cell's file and the value.
START_TEST(statistics_past_a_double_are_refused)
{
	std::vector<nlohmann::json> rows = {
		row("classic", 1, 10, 1.5),
		row("classic", 2, 1e308, 2.5),
		row("classic", 3, 17, 2.0),
	};
	rows[1]["id"] = "big";
	try {
		std::string csv = sweep::summary_csv(rows, "out/cells");
		ck_abort_msg("summarised: %s", csv.c_str());
	} catch (const input_error &e) {
		ck_assert_str_eq(e.what(), "out/cells/big.json:1: \"events\" is 1e+308: the mean, sd or "
					   "interval of its replicates passes a double's range");
	}
	// Two near the top: their sum (the mean's) passes it too.
	rows = {row("classic", 1, 1.5e308, 1.5), row("classic", 2, 1.7e308, 2.5)};
	rows[1]["id"] = "top";
	try {
		sweep::summary_csv(rows, "c");
		ck_abort_msg("summarised");
	} catch (const input_error &e) {
		ck_assert_msg(std::string(e.what()).starts_with("c/top.json:1: \"events\" is 1.7e+308"), "%s",
			      e.what());
	}
	// One replicate: its mean is its value, which prints.
	std::string csv = sweep::summary_csv({row("classic", 1, 1e308, 1.5)});
	expect(csv, 1, "events_mean", "1e+308");
}
END_TEST

// A real sweep, three seeds: one summary row per scheme, n 3, its mean the
// mean of the merged cells.
START_TEST(summary_of_a_seeded_sweep)
{
	std::string dir = temp_subdir("seeds");
	std::string spec = write_temp("seeds/s.spec", "workload = networking:rate=40;lognormal:rate=50,median=20ms\n"
						      "duration = 500ms\nseed = 1, 2, 3\nscheme = classic, v48\n");
	cli_result r = run_timersim({"sweep", spec, "-j", "2"});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	r = run_timersim({"merge", spec});
	ck_assert_int_eq(r.status, 0);
	std::string cells = r.out;
	r = run_timersim({"merge", spec, "--summary"});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	std::string csv = r.out;
	ck_assert_msg(std::count(csv.begin(), csv.end(), '\n') == 3, "%s", csv.c_str());
	for (std::size_t k = 1; k <= 2; k++) {
		std::string scheme = field(csv, k, "scheme");
		expect(csv, k, "n", "3");
		expect(csv, k, "seeds", "1 2 3");
		double sum = 0;
		for (std::size_t c = 1; c <= 6; c++)
			if (field(cells, c, "scheme") == scheme)
				sum += std::stod(field(cells, c, "events"));
		ck_assert_msg(std::fabs(std::stod(field(csv, k, "events_mean")) - sum / 3) < 1e-6, "%s",
			      csv.c_str());
		ck_assert(std::stod(field(csv, k, "events_ci_lo")) <= sum / 3);
		ck_assert(std::stod(field(csv, k, "events_ci_hi")) >= sum / 3);
	}

	// plot-sweep draws the seeds as one mean with a band, and refuses to
	// join rows at one x that differ in more than the seed.
	write_temp("seeds/cells.csv", cells);
	std::string plot = "/usr/bin/python3 scripts/plot-sweep.py " + dir + "/cells.csv --x hz --y events ";
	int st = std::system((plot + "--by scheme -o " + dir + "/ok.png 2>" + dir + "/ok.err").c_str());
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
		ck_assert(read_whole_file(dir + "/ok.png").size() > 1000);
		st = std::system((plot + "--by '' -o " + dir + "/bad.png 2>" + dir + "/bad.err").c_str());
		ck_assert_int_eq(WEXITSTATUS(st), 2);
		std::string err = read_whole_file(dir + "/bad.err");
		ck_assert_msg(err.find("differ in scheme (not only in seed)") != std::string::npos, "%s", err.c_str());
	} else {
		ck_assert_msg(read_whole_file(dir + "/ok.err").find("No module named") != std::string::npos, "%s",
			      read_whole_file(dir + "/ok.err").c_str());
		skip_note("python3-matplotlib is missing: plot-sweep not run");
	}
}
END_TEST

// An estimate with an interval (the cost model's softirq_ns_lo/_hi): the
// summary's combined interval is the mean of the cells' low ends less the
// seeds' 95% half-width, the mean of their high ends plus it.
START_TEST(summary_combines_model_interval_and_seed_spread)
{
	std::vector<nlohmann::json> rows;
	// softirq_ns 100, 110, 120 (sd 10, half-width 4.30265273 * 10 / sqrt 3
	// = 24.8413771); lows 90, 100, 110 (mean 100); highs 115, 125, 135
	// (mean 125).
	for (unsigned seed = 1; seed <= 3; seed++) {
		nlohmann::json j = row("classic", seed, 10, 1.0);
		j["softirq_ns"] = 90.0 + 10 * seed;
		j["softirq_ns_lo"] = 80.0 + 10 * seed;
		j["softirq_ns_hi"] = 105.0 + 10 * seed;
		j["softirq_ns_is"] = "modelled";
		rows.push_back(j);
	}
	std::string csv = sweep::summary_csv(rows);
	expect(csv, 1, "softirq_ns_mean", "110");
	expect(csv, 1, "softirq_ns_ci_lo", "85.15862288");
	expect(csv, 1, "softirq_ns_combined_lo", "75.15862288");
	expect(csv, 1, "softirq_ns_combined_hi", "149.8413771");
	// A word has no statistics; a column with no interval no combined one.
	expect(csv, 1, "softirq_ns_is_mean", "");
	expect(csv, 1, "events_combined_lo", "<no column events_combined_lo>");

	// One seed: the model's interval alone.
	rows.resize(1);
	csv = sweep::summary_csv(rows);
	expect(csv, 1, "softirq_ns_combined_lo", "90");
	expect(csv, 1, "softirq_ns_combined_hi", "115");
}
END_TEST

// `cost_model = FILE` in a spec: each cell's modelled softirq ns with the
// model's interval, the measured figure where the trace recorded the
// recording kernel's own runs, and the column saying which it is; a
// changed model makes the cells stale.
START_TEST(sweep_with_a_cost_model)
{
	// Absolute: a spec's relative paths are relative to its folder.
	std::string model = std::filesystem::absolute("docs/results/cost-model/model.json").string();
	std::string trace = std::filesystem::absolute("tests/data/sleep-net.txt.gz").string();
	temp_subdir("modelled");
	std::string spec = write_temp("modelled/s.spec", "trace = " + trace + "\ncost_model = " + model +
							       "\nscheme = classic, v48\n");
	cli_result r = run_timersim({"sweep", spec, "-j", "2"});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	r = run_timersim({"merge", spec});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	std::string cells = r.out;
	// The replay's own figures: compare --cost-model on the same trace.
	r = run_timersim({"compare", "--schemes", "classic,v48", "--cost-model", model, "--json", "-", trace});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	nlohmann::json j = nlohmann::json::parse(r.out);
	for (std::size_t k = 1; k <= 2; k++) {
		const nlohmann::json &s = j["schemes"][k - 1];
		ck_assert_string_eq(field(cells, k, "scheme").c_str(), s["scheme"]["name"].get<std::string>().c_str());
		double modelled = s["modelled"]["softirq_overhead_ns"].get<double>();
		ck_assert_double_eq_tol(std::stod(field(cells, k, "modelled_softirq_ns")), modelled, 0.5);
		if (s["scheme"]["name"] == "v48") {
			// sleep-net is a 6.x recording with its softirq runs: v48's
			// figure is what the kernel measured.
			expect(cells, k, "softirq_ns_is", "measured");
			double measured = s["measured"]["timer_softirq"]["overhead_ns"].get<double>();
			ck_assert_double_eq_tol(std::stod(field(cells, k, "softirq_ns")), measured, 0.5);
			ck_assert_double_eq_tol(std::stod(field(cells, k, "measured_softirq_ns")), measured, 0.5);
		} else {
			expect(cells, k, "softirq_ns_is", "modelled");
			expect(cells, k, "measured_softirq_ns", "");
			ck_assert_double_eq_tol(std::stod(field(cells, k, "softirq_ns")), modelled, 0.5);
			ck_assert_double_eq_tol(std::stod(field(cells, k, "softirq_ns_lo")),
						s["modelled"]["softirq_overhead_low_ns"].get<double>(), 0.5);
			ck_assert_double_eq_tol(std::stod(field(cells, k, "softirq_ns_hi")),
						s["modelled"]["softirq_overhead_high_ns"].get<double>(), 0.5);
		}
	}
	// Another model: every cell stale, and says why.
	std::string other = read_whole_file(model);
	std::string copy = write_temp("modelled/model.json", other + "\n");
	write_temp("modelled/s.spec", "trace = " + trace + "\ncost_model = " + copy + "\nscheme = classic, v48\n");
	r = run_timersim({"sweep", spec, "-j", "2"});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	ck_assert_msg(r.out.find("2 stale: the cost model changed") != std::string::npos, "%s", r.out.c_str());
}
END_TEST

// No model named: every cell of a recording is priced by the recording's
// own, the one `compare` of both schemes fits (self-calibrated on the v48
// kernel's runs) - also the classic cell, which cannot pair the runs
// itself, and the cells with the expiries dropped (whose runs would keep
// their callbacks' time); the held-out fits' figures beside each.
START_TEST(sweep_prices_every_cell_by_the_recordings_model)
{
	std::string trace = std::filesystem::absolute("tests/data/sleep-net.txt.gz").string();
	temp_subdir("own");
	std::string spec = write_temp("own/s.spec", "trace = " + trace + "\nscheme = classic, v48\nexpiries = recorded, own\n");
	cli_result r = run_timersim({"sweep", spec, "-j", "2"});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	r = run_timersim({"merge", spec});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	std::string cells = r.out;
	r = run_timersim({"compare", "--schemes", "classic,v48", "--json", "-", trace});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	nlohmann::json j = nlohmann::json::parse(r.out);
	ck_assert_string_eq(j["schemes"][0]["modelled"]["source"].get<std::string>().c_str(), "self-calibrated");
	const double classic = j["schemes"][0]["modelled"]["softirq_overhead_ns"].get<double>();
	std::map<std::string, double> own;
	for (std::size_t k = 1; k <= 4; k++) {
		expect(cells, k, "softirq_model", "self-calibrated");
		const std::string scheme = field(cells, k, "scheme"), expiries = field(cells, k, "expiries");
		if (scheme == "classic" && expiries == "recorded")
			ck_assert_double_eq_tol(std::stod(field(cells, k, "modelled_softirq_ns")), classic, 0.5);
		if (expiries == "own")
			own[scheme] = std::stod(field(cells, k, "modelled_softirq_ns"));
		const std::string folds = field(cells, k, "modelled_softirq_ns_folds");
		ck_assert_uint_eq(std::count(folds.begin(), folds.end(), ';'), 4);
	}
	// Classic runs its softirq at every tick: dearer than v48 with its
	// own expiries too, by the same model.
	ck_assert_msg(own["classic"] > 2 * own["v48"], "classic %.0f, v48 %.0f", own["classic"], own["v48"]);
}
END_TEST

int main()
{
	Suite *s = suite_create("sweep_summary");
	TCase *tc = tcase_create("sweep_summary");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, student_t_quantiles);
	tcase_add_test(tc, summary_on_a_hand_computed_fixture);
	tcase_add_test(tc, statistics_past_a_double_are_refused);
	tcase_add_test(tc, summary_of_a_seeded_sweep);
	tcase_add_test(tc, summary_combines_model_interval_and_seed_spread);
	tcase_add_test(tc, sweep_with_a_cost_model);
	tcase_add_test(tc, sweep_prices_every_cell_by_the_recordings_model);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
