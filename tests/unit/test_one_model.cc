// One model for every scheme of one recording, wherever the figure is
// shown (docs/costs.md, "The model every replay uses"): a replay of another
// scheme alone is priced as `compare` prices that scheme (the model its
// kernel's runs fit, in the same read); and the measured section is the
// recording's whatever the replay feeds the scheme (--own-expiries).
#include <cmath>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/replay/replay.h"
#include "sim/whatif/own_expiries.h"
#include "tests/support/check_main.h"
#include "tests/support/cli.h"

using namespace timersim;
using namespace timersim::test;
using nlohmann::json;

namespace {

json run_json(const std::string &command, const std::vector<std::string> &args)
{
	std::vector<std::string> all = {command, "--json", "-"};
	all.insert(all.end(), args.begin(), args.end());
	cli_result r = run_timersim(all);
	ck_assert_msg(r.status == 0, "%s failed: %s", command.c_str(), r.err.c_str());
	return json::parse(r.out);
}

const json &scheme_of(const json &compare, const std::string &name)
{
	for (const json &s : compare["schemes"])
		if (s["scheme"]["name"] == name)
			return s;
	ck_abort_msg("compare has no scheme %s", name.c_str());
	return compare;
}

// The modelled figures a replay of one scheme shows: the same in both.
void same_modelled(const json &a, const json &b)
{
	ck_assert_string_eq(a["source"].get<std::string>().c_str(), b["source"].get<std::string>().c_str());
	for (const char *k : {"softirq_overhead_ns", "softirq_overhead_low_ns", "softirq_overhead_high_ns", "runs",
			      "borrowed_ns", "state_ns"})
		ck_assert_msg(a[k] == b[k], "%s: %s against %s", k, a[k].dump().c_str(), b[k].dump().c_str());
}

}  // namespace

// classic alone on a v48 recording: priced by the model the recording's
// own runs fit (its kernel's scheme replayed beside it, for its price), the
// figures compare's classic cell shows; its per-second figures likewise.
START_TEST(another_scheme_alone_is_priced_as_compare_prices_it)
{
	for (const char *trace : {"tests/data/sleep-net.txt.gz", "tests/data/measured-idle.txt.gz"}) {
		const json alone = run_json("replay", {"--scheme", "classic", trace});
		const json both = run_json("compare", {"--schemes", "classic,v48", trace});
		ck_assert_string_eq(alone["input"]["kernel_scheme"].get<std::string>().c_str(), "v48");
		ck_assert_string_eq(alone["scheme"]["name"].get<std::string>().c_str(), "classic");
		const json &m = alone["modelled"];
		ck_assert_string_eq(m["source"].get<std::string>().c_str(), "self-calibrated");
		same_modelled(m, scheme_of(both, "classic")["modelled"]);
		// The pricing engine's own check and verdict are not classic's.
		ck_assert(m["check"].is_null());
		ck_assert(m["verdict"].is_null());
		ck_assert(alone["time"]["per_second"] == scheme_of(both, "classic")["time"]["per_second"]);
		// The kernel's own scheme alone, as before: its column of compare.
		const json own = run_json("replay", {trace});
		same_modelled(own["modelled"], scheme_of(both, "v48")["modelled"]);
	}
}
END_TEST

// --own-expiries keeps the recorded expiries from the scheme, not from the
// measurement: what the recording spent (its TIMER runs' callbacks and
// overhead, each callback's own time) is the same with and without it.
START_TEST(own_expiries_measure_the_recording_as_recorded)
{
	for (const char *trace : {"tests/data/sleep-net.txt.gz", "tests/data/measured-idle.txt.gz"}) {
		const json plain = run_json("replay", {trace});
		const json own = run_json("replay", {"--own-expiries", trace});
		ck_assert(plain["measured"]["timer_softirq"]["callbacks_ns"].get<double>() > 0);
		ck_assert_msg(plain["measured"] == own["measured"], "%s: measured %s against %s", trace,
			      plain["measured"]["timer_softirq"].dump().c_str(),
			      own["measured"]["timer_softirq"].dump().c_str());
		ck_assert(plain["time"]["cpus"] == own["time"]["cpus"]);
		// The expiries still are not the scheme's: none recorded compared.
		ck_assert_uint_eq(own["events"]["timer_expire_entry"].get<std::uint64_t>(), 0);
		ck_assert(plain["events"]["timer_expire_entry"].get<std::uint64_t>() > 0);
	}
}
END_TEST

// A replay that kept the recorded expiries from its schemes, given no
// model fitted with them (a library caller; the CLI always fits one first):
// no run pairs with its kernel's work, so it is not fitted on them.
START_TEST(own_expiries_without_the_recording_s_model_are_not_fitted_on)
{
	const std::string path = "tests/data/measured-idle.txt.gz";
	auto own = make_own_expiries_reader(open_trace(path, trace_format::auto_detect, {}));
	replay_options opt;
	opt.scheme = "v48";
	const replay_report r = replay_trace(*own, path, opt);
	ck_assert(r.modelled.model.source == measured::model_source::reference);
	ck_assert(r.modelled.note.find("--own-expiries") != std::string::npos);
	// The measurement is the recording's all the same.
	ck_assert(r.measured.all.timer_softirq.callbacks_ns > 0);
	// Given the recording's model, as the CLI does: priced by it.
	opt.recording_model = std::make_shared<const measured::calibrated_model>(
		recording_model(path, trace_format::auto_detect, {}, opt));
	auto again = make_own_expiries_reader(open_trace(path, trace_format::auto_detect, {}));
	ck_assert(replay_trace(*again, path, opt).modelled.model.source == measured::model_source::self);
}
END_TEST

namespace {

double ns_or_0(const json &row, const char *key) { return row[key].is_null() ? 0.0 : row[key].get<double>(); }

// Each scheme's per-second softirq figures, summed over the seconds of a
// stretch, are that stretch's prediction, and the stretches the whole;
// some stretch priced off the mean state. True when the model follows the
// state.
bool seconds_add_up_to_stretches(const json &scheme, const char *what)
{
	const json &m = scheme["modelled"];
	if (!m.contains("stretches"))
		return false;
	const json &st = m["stretches"];
	ck_assert_uint_eq(st.size(), m["cross_validation"]["blocks"].size());
	std::vector<double> sums(st.size(), 0.0);
	std::vector<unsigned> rows(st.size(), 0);
	for (const json &row : scheme["time"]["per_second"]) {
		const std::uint32_t k = row["second"].get<std::uint32_t>();
		std::size_t b = 0;
		while (b + 1 < st.size() && st[b + 1]["first_second"].get<std::uint32_t>() <= k)
			b++;
		sums[b] += ns_or_0(row, "softirq_ns");
		rows[b]++;
	}
	double whole = 0;
	bool varies = false;
	for (std::size_t b = 0; b < st.size(); b++) {
		const double want = st[b]["softirq_overhead_ns"].get<double>();
		// Each row and the stretch are rounded to the ns.
		ck_assert_msg(std::fabs(sums[b] - want) <= 0.5 * rows[b] + 1, "%s stretch %zu: seconds %.0f, stretch %.0f",
			      what, b + 1, sums[b], want);
		varies = varies || std::fabs(st[b]["factor"].get<double>() - 1) > 0.01;
		whole += want;
	}
	ck_assert_msg(varies, "%s: every stretch at the mean state: nothing tested", what);
	ck_assert_double_eq_tol(whole, m["softirq_overhead_ns"].get<double>(), 0.5 * st.size() + 1);
	return true;
}

}  // namespace

// The model follows the state: each second is priced at its stretch's, so
// the seconds of a stretch add up to its prediction, and the stretches to
// the whole - for the kernel's scheme and for another (compare's columns).
START_TEST(each_second_is_priced_at_its_stretch_s_state)
{
	unsigned followed = 0;
	for (const char *trace : {"tests/data/sleep-net.txt.gz", "tests/data/measured-idle.txt.gz",
				  "tests/data/measured-network.txt.gz"}) {
		const json both = run_json("compare", {"--schemes", "v48,classic", trace});
		for (const char *scheme : {"v48", "classic"}) {
			const std::string what = std::string(trace) + " " + scheme;
			followed += seconds_add_up_to_stretches(scheme_of(both, scheme), what.c_str());
		}
	}
	ck_assert_msg(followed >= 2, "no recording's model follows the state (e = 0 on all): nothing tested");
}
END_TEST

int main()
{
	Suite *s = suite_create("one_model");
	TCase *tc = tcase_create("one_model");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, another_scheme_alone_is_priced_as_compare_prices_it);
	tcase_add_test(tc, own_expiries_measure_the_recording_as_recorded);
	tcase_add_test(tc, each_second_is_priced_at_its_stretch_s_state);
	tcase_add_test(tc, own_expiries_without_the_recording_s_model_are_not_fitted_on);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
