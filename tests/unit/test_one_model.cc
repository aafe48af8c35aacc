// One model for every scheme of one recording, wherever the figure is
// shown (docs/costs.md, "The model every replay uses"): a replay of another
// scheme alone is priced as `compare` prices that scheme (the model its
// kernel's runs fit, in the same read); and the measured section is the
// recording's whatever the replay feeds the scheme (--own-expiries).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/check_main.h"
#include "tests/support/cli.h"

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
	ck_assert_str_eq(a["source"].get<std::string>().c_str(), b["source"].get<std::string>().c_str());
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
		ck_assert_str_eq(alone["input"]["kernel_scheme"].get<std::string>().c_str(), "v48");
		ck_assert_str_eq(alone["scheme"]["name"].get<std::string>().c_str(), "classic");
		const json &m = alone["modelled"];
		ck_assert_str_eq(m["source"].get<std::string>().c_str(), "self-calibrated");
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

int main()
{
	Suite *s = suite_create("one_model");
	TCase *tc = tcase_create("one_model");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, another_scheme_alone_is_priced_as_compare_prices_it);
	tcase_add_test(tc, own_expiries_measure_the_recording_as_recorded);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
