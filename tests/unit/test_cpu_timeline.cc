// One CPU timeline of both halves (sim/base/cpu_activity.h) in every
// output that draws a CPU over time: --perfetto's lanes, --timeline's
// hrtimer columns and replay --why. Figures worked by hand on a few
// trace lines (one interrupt running the tick and an hrtimer_wakeup, the
// TIMER softirq after it running a wheel timer, then a tick alone), and
// on a bundled recording counted independently from its lines.
#include <algorithm>
#include <map>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/base/trace_clock.h"
#include "sim/gen/tracefs_header.h"
#include "sim/view/view_hrlane.h"
#include "sim/view/view_window.h"
#include "tests/support/check_main.h"
#include "tests/support/cli.h"
#include "tests/support/text_trace_util.h"

using namespace timersim::test;
using nlohmann::json;

namespace {

const std::string header = timersim::gen::tracefs_header(timersim::gen::kernel_gen::linux6, 21, 1);

// CLOCK_MONOTONIC equals the trace clock here (each interrupt's now is the
// timestamp of its first expiry). The tick is armed for 100.004 and a
// sleeper for 100.00395..100.004 (its slack): the model's device is
// programmed for 100.004000 (a hard expires), the interrupt is entered at
// 100.004003 and runs both (one now), then the TIMER softirq runs
// process_timeout (armed one jiffy ahead). The tick re-armed for 100.008
// comes at 100.008001 with nothing after it.
const char lines[] =
	"           sleep-100     [000] d..1. 100.000000: timer_start: timer=00000000b5199443 function=process_timeout expires=4295000001 [timeout=1] bucket_expiry=4295000001 cpu=0 idx=1 flags=\n"
	"           sleep-100     [000] d.h1. 100.000010: hrtimer_start: hrtimer=00000000046cd983 function=tick_nohz_handler expires=100004000000 softexpires=100004000000 mode=ABS was_armed=0\n"
	"           sleep-100     [000] d..1. 100.000020: hrtimer_start: hrtimer=000000004a060fd1 function=hrtimer_wakeup expires=100004000000 softexpires=100003950000 mode=ABS was_armed=0\n"
	"          <idle>-0       [000] d.h.. 100.004003: local_timer_entry: vector=236\n"
	"          <idle>-0       [000] d.h.. 100.004005: hrtimer_expire_entry: hrtimer=00000000046cd983 function=tick_nohz_handler now=100004005000\n"
	"          <idle>-0       [000] d.h.. 100.004009: hrtimer_expire_exit: hrtimer=00000000046cd983\n"
	"          <idle>-0       [000] d.h1. 100.004010: hrtimer_start: hrtimer=00000000046cd983 function=tick_nohz_handler expires=100008000000 softexpires=100008000000 mode=ABS was_armed=0\n"
	"          <idle>-0       [000] d.h.. 100.004012: hrtimer_expire_entry: hrtimer=000000004a060fd1 function=hrtimer_wakeup now=100004005000\n"
	"          <idle>-0       [000] d.h.. 100.004015: hrtimer_expire_exit: hrtimer=000000004a060fd1\n"
	"          <idle>-0       [000] d.h.. 100.004016: softirq_raise: vec=1 [action=TIMER]\n"
	"          <idle>-0       [000] d.h.. 100.004018: local_timer_exit: vector=236\n"
	"          <idle>-0       [000] ..s.. 100.004020: softirq_entry: vec=1 [action=TIMER]\n"
	"          <idle>-0       [000] ..s.. 100.004022: timer_expire_entry: timer=00000000b5199443 function=process_timeout now=4295000001 baseclk=4295000001\n"
	"          <idle>-0       [000] ..s.. 100.004027: timer_expire_exit: timer=00000000b5199443\n"
	"          <idle>-0       [000] ..s.. 100.004030: softirq_exit: vec=1 [action=TIMER]\n"
	"          <idle>-0       [000] d.h.. 100.008001: local_timer_entry: vector=236\n"
	"          <idle>-0       [000] d.h.. 100.008003: hrtimer_expire_entry: hrtimer=00000000046cd983 function=tick_nohz_handler now=100008003000\n"
	"          <idle>-0       [000] d.h.. 100.008006: hrtimer_expire_exit: hrtimer=00000000046cd983\n"
	"          <idle>-0       [000] d.h.. 100.008007: local_timer_exit: vector=236\n";

// The lines, without the interrupt events or with the tick's callback
// named as kernels before 6.9 name it.
std::string fixture(const std::string &name, bool irq_events = true, const std::string &tick = "tick_nohz_handler")
{
	std::string body;
	std::istringstream in(lines);
	for (std::string line; std::getline(in, line);) {
		if (!irq_events && line.find("local_timer_") != std::string::npos)
			continue;
		for (std::size_t at = line.find("tick_nohz_handler"); at != std::string::npos;
		     at = line.find("tick_nohz_handler", at + tick.size()))
			line.replace(at, 17, tick);
		body += line + "\n";
	}
	return write_temp(name, std::string(header) + body);
}

cli_result replay(const std::vector<std::string> &args)
{
	std::vector<std::string> all = {"replay"};
	all.insert(all.end(), args.begin(), args.end());
	cli_result r = run_timersim(all);
	ck_assert_msg(r.status == 0, "replay failed: %s", r.err.c_str());
	return r;
}

// The rows of a timeline CSV as maps from column to value.
std::vector<std::map<std::string, std::string>> csv_rows(const std::string &path)
{
	std::istringstream in(read_whole_file(path));
	std::string line;
	std::getline(in, line);
	std::vector<std::string> head;
	std::stringstream hs(line);
	for (std::string c; std::getline(hs, c, ',');)
		head.push_back(c);
	std::vector<std::map<std::string, std::string>> rows;
	while (std::getline(in, line)) {
		std::stringstream ls(line);
		std::map<std::string, std::string> row;
		std::size_t i = 0;
		for (std::string v; std::getline(ls, v, ','); i++)
			row[i < head.size() ? head[i] : "?"] = v;
		ck_assert_uint_eq(i, head.size());
		rows.push_back(row);
	}
	return rows;
}

std::uint64_t column_sum(const std::vector<std::map<std::string, std::string>> &rows, const std::string &col)
{
	std::uint64_t n = 0;
	for (const auto &r : rows) {
		ck_assert_msg(r.count(col), "no column %s", col.c_str());
		n += std::stoull(r.at(col));
	}
	return n;
}

// The lane events (tid 3 and up) of a --perfetto file, per tid.
std::map<int, std::vector<json>> lanes_of(const std::string &path)
{
	json doc = json::parse(read_whole_file(path));
	std::map<int, std::vector<json>> lanes;
	for (const json &e : doc["traceEvents"])
		if (e["tid"].get<int>() >= 3 && e["ph"] != "M")
			lanes[e["tid"].get<int>()].push_back(e);
	return lanes;
}

// Runs scripts/check-trace-events.py: empty when the file keeps the rules.
std::string rules_broken(const std::string &path)
{
	std::string cmd = "/usr/bin/python3 scripts/check-trace-events.py '" + path + "' 2>&1 >/dev/null";
	std::string out;
	if (FILE *p = popen(cmd.c_str(), "r")) {
		char buf[4096];
		std::size_t n;
		while ((n = fread(buf, 1, sizeof buf, p)) > 0)
			out.append(buf, n);
		if (pclose(p) != 0 && out.empty())
			out = "failed";
	}
	return out;
}

}  // namespace

START_TEST(perfetto_lanes_worked_by_hand)
{
	std::string trace = fixture("cpu-timeline.txt");
	std::string dir = temp_subdir("cpu-timeline-perfetto");
	replay({"--perfetto", dir + "/p.json", trace});
	ck_assert_msg(rules_broken(dir + "/p.json").empty(), "%s", rules_broken(dir + "/p.json").c_str());
	auto lanes = lanes_of(dir + "/p.json");

	// tid 3: the two recorded interrupts, entry to exit.
	ck_assert_uint_eq(lanes[3].size(), 2);
	const json &irq = lanes[3][0];
	ck_assert_msg(irq["ph"] == "X", "%s", irq["ph"].dump().c_str());
	ck_assert_double_eq_tol(irq["ts"].get<double>(), 100004003.0, 1e-6);
	ck_assert_double_eq_tol(irq["dur"].get<double>(), 15.0, 1e-6);
	ck_assert_msg(irq["args"]["cause"] == "wheel", "%s", irq["args"]["cause"].dump().c_str());
	ck_assert_msg(irq["args"]["woke_for"] == "process_timeout", "%s", irq["args"]["woke_for"].dump().c_str());
	ck_assert_msg(irq["args"]["first"] == "tick_nohz_handler", "%s", irq["args"]["first"].dump().c_str());
	ck_assert_int_eq(irq["args"]["expiries"].get<int>(), 2);
	ck_assert_msg(irq["args"]["model"] == "predicted", "%s", irq["args"]["model"].dump().c_str());
	ck_assert_msg(lanes[3][1]["args"]["cause"] == "tick", "%s", lanes[3][1]["args"]["cause"].dump().c_str());
	ck_assert_double_eq_tol(lanes[3][1]["dur"].get<double>(), 6.0, 1e-6);

	// tid 4: the hard hrtimer expiries, the tick's marked.
	ck_assert_uint_eq(lanes[4].size(), 3);
	ck_assert_msg(lanes[4][0]["name"] == "tick_nohz_handler", "%s", lanes[4][0]["name"].dump().c_str());
	ck_assert_msg(lanes[4][0]["cat"] == "tick", "%s", lanes[4][0]["cat"].dump().c_str());
	ck_assert_double_eq_tol(lanes[4][0]["dur"].get<double>(), 4.0, 1e-6);
	ck_assert_msg(lanes[4][1]["name"] == "hrtimer_wakeup", "%s", lanes[4][1]["name"].dump().c_str());
	ck_assert_msg(lanes[4][1]["cat"] == "hrtimer", "%s", lanes[4][1]["cat"].dump().c_str());
	ck_assert_double_eq_tol(lanes[4][1]["dur"].get<double>(), 3.0, 1e-6);

	// tid 5: the measured TIMER softirq run; tid 7: the wheel callback in it.
	ck_assert_uint_eq(lanes[5].size(), 1);
	ck_assert_double_eq_tol(lanes[5][0]["ts"].get<double>(), 100004020.0, 1e-6);
	ck_assert_int_eq(lanes[5][0]["args"]["own_ns"].get<int>(), 10000);
	ck_assert_int_eq(lanes[5][0]["args"]["callbacks"].get<int>(), 1);
	ck_assert_uint_eq(lanes.count(6), 0);	// no HRTIMER softirq
	ck_assert_uint_eq(lanes[7].size(), 1);
	ck_assert_msg(lanes[7][0]["name"] == "process_timeout", "%s", lanes[7][0]["name"].dump().c_str());
	ck_assert_msg(lanes[7][0]["args"]["in"] == "TIMER softirq", "%s", lanes[7][0]["args"]["in"].dump().c_str());

	// tid 8: the model's two interrupts (at the first hard expiry of each,
	// due both times) and the three hrtimers they ran, the tick first.
	std::vector<json> interrupts, expiries;
	for (const json &e : lanes[8])
		(e["name"] == "model interrupt" ? interrupts : expiries).push_back(e);
	ck_assert_uint_eq(interrupts.size(), 2);
	ck_assert_uint_eq(expiries.size(), 3);
	ck_assert_double_eq_tol(interrupts[0]["ts"].get<double>(), 100004005.0, 1e-6);
	ck_assert(interrupts[0]["args"]["due"].get<bool>());
	ck_assert_int_eq(interrupts[0]["args"]["expiries"].get<int>(), 2);
	ck_assert_msg(interrupts[0]["args"]["first"] == "tick_nohz_handler", "%s", interrupts[0]["args"]["first"].dump().c_str());
	ck_assert_msg(expiries[0]["cat"] == "tick", "%s", expiries[0]["cat"].dump().c_str());
	ck_assert_msg(expiries[1]["name"] == "hrtimer_wakeup", "%s", expiries[1]["name"].dump().c_str());
}
END_TEST

// Before 6.9 the tick's hrtimer is tick_sched_timer: marked the same.
START_TEST(tick_sched_timer_is_the_tick_before_69)
{
	std::string trace = fixture("cpu-timeline-69.txt", true, "tick_sched_timer");
	std::string dir = temp_subdir("cpu-timeline-69");
	cli_result r = replay({"--perfetto", dir + "/p.json", "--why", "0@100.004", trace});
	auto lanes = lanes_of(dir + "/p.json");
	ck_assert_uint_eq(lanes[4].size(), 3);
	ck_assert_msg(lanes[4][0]["name"] == "tick_sched_timer", "%s", lanes[4][0].dump().c_str());
	ck_assert_msg(lanes[4][0]["cat"] == "tick", "%s", lanes[4][0].dump().c_str());
	ck_assert_msg(lanes[4][1]["cat"] == "hrtimer", "%s", lanes[4][1].dump().c_str());
	ck_assert_msg(lanes[3][1]["args"]["cause"] == "tick", "%s", lanes[3][1].dump().c_str());
	ck_assert(r.out.find("  ran        2 hrtimer expiries, first tick_sched_timer (the tick's hrtimer)\n"
			     "  cause      the wheel: process_timeout, run by the TIMER softirq after the tick "
			     "(tick_sched_timer)\n") != std::string::npos);
}
END_TEST

START_TEST(timeline_columns_worked_by_hand)
{
	std::string trace = fixture("cpu-timeline-csv.txt");
	std::string dir = temp_subdir("cpu-timeline-csv");
	replay({"--timeline", dir + "/t.csv", "--interval", "1s", trace});
	auto rows = csv_rows(dir + "/t.csv");
	ck_assert_uint_eq(rows.size(), 1);
	auto &r = rows[0];
	ck_assert_str_eq(r["hrtimer_expiries"].c_str(), "3");
	ck_assert_str_eq(r["interrupts"].c_str(), "2");
	ck_assert_str_eq(r["interrupts_predicted"].c_str(), "2");
	ck_assert_str_eq(r["wakeups_wheel"].c_str(), "1");
	ck_assert_str_eq(r["wakeups_tick"].c_str(), "1");
	ck_assert_str_eq(r["wakeups_hrtimer"].c_str(), "0");
	ck_assert_str_eq(r["wakeups_none"].c_str(), "0");
	// The wheel's columns come first, as before.
	std::string head = read_whole_file(dir + "/t.csv");
	head = head.substr(0, head.find('\n'));
	ck_assert_msg(head.find(",softirq_units,softirq_runs,hrtimer_expiries,interrupts,interrupts_predicted,"
				"wakeups_wheel,wakeups_tick,wakeups_hrtimer,wakeups_none") != std::string::npos,
		      "%s", head.c_str());
}
END_TEST

START_TEST(why_worked_by_hand)
{
	std::string trace = fixture("cpu-timeline-why.txt");
	cli_result r = replay({"--why", "0@100.004", "--why", "0@100.0079", trace});
	std::string want =
		"\nwhy CPU 0 woke at 100.004000000 s\n"
		"  interrupt  100.004003000 s, 3.000 us after the time asked (its entry; exit 15.000 us later)\n"
		"  ran        2 hrtimer expiries, first tick_nohz_handler (the tick's hrtimer)\n"
		"  cause      the wheel: process_timeout, run by the TIMER softirq after the tick (tick_nohz_handler)\n"
		"  measured   the interrupt 15.000 us; the TIMER softirq after it at 100.004020000 s: 10.000 us, "
		"5.000 us in 1 callback\n"
		"  model      predicted it: its device was programmed for 100.004000000 s (3.000 us before the "
		"interrupt); it ran 2 hrtimers, first tick_nohz_handler\n"
		"\nwhy CPU 0 woke at 100.007900000 s\n"
		"  interrupt  100.008001000 s, 101.000 us after the time asked (its entry; exit 6.000 us later)\n"
		"  ran        1 hrtimer expiry, first tick_nohz_handler (the tick's hrtimer)\n"
		"  cause      the tick alone (tick_nohz_handler): no wheel timer ran after it\n"
		"  measured   the interrupt 6.000 us; no TIMER softirq run recorded after it\n"
		"  model      predicted it: its device was programmed for 100.008000000 s (1.000 us before the "
		"interrupt); it ran 1 hrtimer, first tick_nohz_handler\n";
	ck_assert_msg(r.out.size() >= want.size() && r.out.substr(r.out.size() - want.size()) == want,
		      "answer:\n%s", r.out.substr(r.out.rfind("\nwhy CPU 0 woke at 100.004") ).c_str());

	// Without the interrupt events the interrupt is the group of hard
	// expiries with one now: at the first expiry, nothing measured.
	std::string bare = fixture("cpu-timeline-why-bare.txt", false);
	cli_result b = replay({"--why", "0@100.004", bare});
	ck_assert_msg(b.out.find("  interrupt  100.004005000 s, 5.000 us after the time asked (its first hrtimer "
				 "expiry: the trace records no timer interrupt events)\n"
				 "  ran        2 hrtimer expiries, first tick_nohz_handler (the tick's hrtimer)\n"
				 "  cause      the wheel: process_timeout") != std::string::npos,
		      "%s", b.out.c_str());
	ck_assert(b.out.find("  measured   the interrupt not recorded; the TIMER softirq after it") != std::string::npos);

	// The answer's words: CPU@SECONDS, and stdout free for it.
	for (const char *bad : {"0", "x@1", "0@", "0@1.", "0@1.1234567890", "0@-1", "0@1e3"}) {
		cli_result e = run_timersim({"replay", "--why", bad, trace});
		ck_assert_msg(e.status == 2 && e.err.find("--why") != std::string::npos, "%s: %d %s", bad, e.status,
			      e.err.c_str());
	}
	cli_result clash = run_timersim({"replay", "--why", "0@100", "--json", "-", trace});
	ck_assert_int_eq(clash.status, 2);
	// A CPU the trace does not have (it has CPU 0 only), a time before its
	// first event (100.000) or after its last: errors, exit 2, no report.
	cli_result none = run_timersim({"replay", "--why", "3@100", trace});
	ck_assert_msg(none.status == 2 && none.err.find("the trace has no CPU 3 (its CPUs are 0..0)") != std::string::npos,
		      "%d %s", none.status, none.err.c_str());
	ck_assert(none.out.empty());
	for (const char *outside : {"0@99.5", "0@5000"}) {
		cli_result late = run_timersim({"replay", "--why", outside, trace});
		ck_assert_msg(late.status == 2 && late.err.find("the time is outside the trace (") != std::string::npos,
			      "%s: %d %s", outside, late.status, late.err.c_str());
	}
}
END_TEST

// sleep-net (a 6.18 recording with irq and softirq events): every
// recorded interrupt, hrtimer expiry and softirq run is in the lanes and
// the columns, counted here from the trace's own lines; the lanes keep the
// format's rules; the wheel's timeline rows are the same as without the
// hrtimer half (only columns appended).
START_TEST(bundled_recording_counted_from_its_lines)
{
	const std::string trace = "tests/data/sleep-net.txt.gz";
	std::string dir = temp_subdir("cpu-timeline-bundled");
	std::string text;
	{
		std::string cmd = "gzip -dc " + trace;
		FILE *p = popen(cmd.c_str(), "r");
		char buf[65536];
		std::size_t n;
		while ((n = fread(buf, 1, sizeof buf, p)) > 0)
			text.append(buf, n);
		pclose(p);
	}
	std::map<std::string, std::uint64_t> count;
	std::istringstream in(text);
	for (std::string line; std::getline(in, line);) {
		for (const char *ev : {"local_timer_entry:", "hrtimer_expire_entry:", "hrtimer_expire_exit:",
				       "timer_expire_exit:"})
			if (line.find(std::string(" ") + ev) != std::string::npos)
				count[ev]++;
		if (line.find(" softirq_exit: vec=1 ") != std::string::npos)
			count["timer softirq"]++;
		if (line.find(" softirq_exit: vec=8 ") != std::string::npos)
			count["hrtimer softirq"]++;
	}
	ck_assert_uint_gt(count["local_timer_entry:"], 1000);
	ck_assert_uint_eq(count["hrtimer_expire_entry:"], count["hrtimer_expire_exit:"]);

	replay({"--perfetto", dir + "/p.json", "--timeline", dir + "/t.csv", "--interval", "1s", "--json",
		dir + "/r.json", trace});
	ck_assert_msg(rules_broken(dir + "/p.json").empty(), "%s", rules_broken(dir + "/p.json").c_str());
	auto lanes = lanes_of(dir + "/p.json");
	// The trace's first events may be the inside of a run begun before it:
	// runs and callbacks are those with both ends recorded.
	ck_assert_uint_eq(lanes[3].size(), count["local_timer_entry:"]);
	ck_assert_uint_eq(lanes[4].size(), count["hrtimer_expire_exit:"]);
	ck_assert_uint_le(lanes[5].size(), count["timer softirq"]);
	ck_assert_uint_ge(lanes[5].size() + 2, count["timer softirq"]);
	ck_assert_uint_le(lanes[7].size(), count["timer_expire_exit:"]);
	ck_assert_uint_ge(lanes[7].size() + 2, count["timer_expire_exit:"]);

	json report = json::parse(read_whole_file(dir + "/r.json"));
	std::uint64_t recorded = 0, predicted = 0;
	for (const json &c : report["hrtimers"]["cpus"]) {
		recorded += c["recorded_interrupts"].get<std::uint64_t>();
		predicted += c["predicted_interrupts"].get<std::uint64_t>();
	}
	auto rows = csv_rows(dir + "/t.csv");
	ck_assert_uint_eq(column_sum(rows, "interrupts"), count["local_timer_entry:"]);
	ck_assert_uint_eq(column_sum(rows, "interrupts"), recorded);
	ck_assert_uint_eq(column_sum(rows, "interrupts_predicted"), predicted);
	ck_assert_uint_eq(column_sum(rows, "hrtimer_expiries"), count["hrtimer_expire_exit:"]);
	ck_assert_uint_eq(column_sum(rows, "wakeups_wheel") + column_sum(rows, "wakeups_tick") +
				  column_sum(rows, "wakeups_hrtimer") + column_sum(rows, "wakeups_none"),
			  count["local_timer_entry:"]);
	ck_assert_uint_gt(column_sum(rows, "wakeups_wheel"), 0);
	ck_assert_uint_gt(column_sum(rows, "wakeups_hrtimer"), 0);
	// As the measurement credits them: the wakeups of the hrtimers'
	// callbacks (other than the tick's) are the interrupts they caused.
	std::uint64_t tick_wakeups = 0;
	for (const json &cb : report["measured"]["callbacks"])
		if (cb["function"] == "tick_nohz_handler")
			tick_wakeups = cb["wakeups"].get<std::uint64_t>();
	ck_assert_uint_eq(column_sum(rows, "wakeups_tick"), tick_wakeups);
}
END_TEST

namespace {

// The page's data of a view.
json page_data(const std::string &html)
{
	const std::string open = "<script type=\"application/json\" id=\"timersim-data\">";
	std::size_t from = html.find(open);
	ck_assert(from != std::string::npos);
	from += open.size();
	return json::parse(html.substr(from, html.find("</script>", from) - from));
}

// The timestamps (ns) of the lines with `event` per CPU, from the text of
// a raw tracefs trace with microsecond timestamps.
std::map<unsigned, std::vector<std::uint64_t>> stamps(const std::string &text, const std::string &event)
{
	std::map<unsigned, std::vector<std::uint64_t>> out;
	std::istringstream in(text);
	for (std::string line; std::getline(in, line);) {
		std::size_t at = line.find(" " + event + ": ");
		if (at == std::string::npos)
			continue;
		std::size_t cpu = line.find('[');
		std::size_t colon = line.rfind(':', at);
		std::size_t sp = line.rfind(' ', colon);
		std::string ts = line.substr(sp + 1, colon - sp - 1);
		std::size_t dot = ts.find('.');
		std::uint64_t ns = std::stoull(ts.substr(0, dot)) * 1'000'000'000ull +
				   std::stoull(ts.substr(dot + 1)) * 1000ull;
		out[unsigned(std::stoul(line.substr(cpu + 1)))].push_back(ns);
	}
	return out;
}

std::string gunzip(const std::string &path)
{
	std::string text, cmd = "gzip -dc " + path;
	FILE *p = popen(cmd.c_str(), "r");
	char buf[65536];
	std::size_t n;
	while ((n = fread(buf, 1, sizeof buf, p)) > 0)
		text.append(buf, n);
	pclose(p);
	return text;
}

}  // namespace

// The view's hrtimer lane on sleep-net: its interrupts and expiries are
// exactly the recorded ones of a stretch of each CPU (every one at a
// local_timer_entry or hrtimer_expire_entry of the trace, none of the
// trace's missing between the first and the last), within the window;
// same input, same bytes; a scenario's page has no lane.
START_TEST(view_lane_holds_the_window)
{
	const std::string trace = "tests/data/sleep-net.txt.gz";
	std::string dir = temp_subdir("cpu-timeline-view");
	ck_assert_int_eq(run_timersim({"view", trace, "-o", dir + "/a.html"}).status, 0);
	ck_assert_int_eq(run_timersim({"view", trace, "-o", dir + "/b.html"}).status, 0);
	std::string html = read_whole_file(dir + "/a.html");
	ck_assert(html == read_whole_file(dir + "/b.html"));
	ck_assert(html.find("hrtimers and timer interrupts in the window") != std::string::npos);
	json d = page_data(html);
	ck_assert(d.contains("hrtimers"));
	const json &h = d["hrtimers"];
	ck_assert(!h["truncated"].get<bool>());
	const double from = d["window"]["from_seconds"].get<double>(), to = d["window"]["to_seconds"].get<double>();
	const double jiffy = 1.0 / d["hz"].get<double>();
	std::string text = gunzip(trace);
	struct kind {
		const char *list, *event;
	};
	for (kind k : {kind{"interrupts", "local_timer_entry"}, kind{"expiries", "hrtimer_expire_entry"}}) {
		auto recorded = stamps(text, k.event);
		std::map<unsigned, std::vector<std::uint64_t>> shown;
		for (const json &i : h[k.list])
			shown[i[0].get<unsigned>()].push_back(i[1].get<std::uint64_t>());
		ck_assert_uint_eq(shown.size(), 2);
		for (auto &[cpu, ns] : shown) {
			ck_assert_uint_gt(ns.size(), 10);
			const auto &all = recorded[cpu];
			auto first = std::find(all.begin(), all.end(), ns.front());
			ck_assert_msg(first != all.end(), "%s: %llu not recorded", k.list, (unsigned long long)ns.front());
			std::vector<std::uint64_t> stretch(first, first + std::ptrdiff_t(std::min<std::size_t>(
									    ns.size(), std::size_t(all.end() - first))));
			ck_assert_msg(stretch == ns, "%s on CPU %u: not the recorded stretch", k.list, cpu);
			ck_assert(double(ns.front()) / 1e9 >= from - jiffy && double(ns.back()) / 1e9 <= to + 2 * jiffy);
		}
	}
	ck_assert_uint_gt(h["model"].size(), 10);
	// A scenario's page draws statements, not a trace: no lane.
	cli_result sc = run_timersim({"view", "docs/lab/scenarios/first-cascade.txt", "-o", dir + "/s.html"});
	ck_assert_msg(sc.status == 0, "%s", sc.err.c_str());
	ck_assert(!page_data(read_whole_file(dir + "/s.html")).contains("hrtimers"));
}
END_TEST

// measured-network-quiet runs soft hrtimers (tcp_pace_kick) in the
// HRTIMER softirq: each run a slice on its lane, as many as the trace's
// softirq_exit vec=8 lines, its callbacks on the softirq callbacks' lane.
START_TEST(hrtimer_softirq_runs_on_their_lane)
{
	const std::string trace = "tests/data/measured-network-quiet.txt.gz";
	std::string dir = temp_subdir("cpu-timeline-hrsoftirq");
	replay({"--perfetto", dir + "/p.json", trace});
	std::string text = gunzip(trace), page = read_whole_file(dir + "/p.json");
	auto count = [](const std::string &in, const std::string &what) {
		std::uint64_t n = 0;
		for (std::size_t at = in.find(what); at != std::string::npos; at = in.find(what, at + 1))
			n++;
		return n;
	};
	const std::uint64_t runs = count(text, " softirq_exit: vec=8 ");
	ck_assert_uint_gt(runs, 1000);
	ck_assert_uint_eq(count(page, "\"tid\":6,\"ts\""), runs);
	ck_assert_uint_gt(count(page, "\"cat\":\"hrtimer\",\"name\":\"tcp_pace_kick\",\"args\":{\"in\":\"HRTIMER softirq\"}"), 0);
	ck_assert_msg(rules_broken(dir + "/p.json").empty(), "%s", rules_broken(dir + "/p.json").c_str());
}
END_TEST

// sleep-net in three formats of one recording: the timeline's hrtimer
// columns add up to the same figures in each.
START_TEST(same_counts_in_every_format)
{
	std::string dir = temp_subdir("cpu-timeline-formats");
	std::map<std::string, std::uint64_t> first;
	for (const char *f : {"tests/data/sleep-net.txt.gz", "tests/data/sleep-net.dat",
			      "tests/data/sleep-net.trace-cmd-report.txt.gz"}) {
		replay({"--timeline", dir + "/t.csv", "--interval", "1s", f});
		auto rows = csv_rows(dir + "/t.csv");
		std::map<std::string, std::uint64_t> sums;
		for (const char *c : {"hrtimer_expiries", "interrupts", "interrupts_predicted", "wakeups_wheel",
				      "wakeups_tick", "wakeups_hrtimer", "wakeups_none"})
			sums[c] = column_sum(rows, c);
		if (first.empty())
			first = sums;
		ck_assert_msg(sums == first, "%s differs", f);
	}
	ck_assert_uint_eq(first["interrupts"], 1441);	// its local_timer_entry lines
}
END_TEST

// The lane keeps what lies in the window's jiffies, at most max_items
// of it, and says it was truncated.
START_TEST(view_lane_is_bounded)
{
	timersim::trace_clock clock;
	clock.set_hz(250);
	clock.observe(1000, 4'000'000'000ull);	// jiffy 1000 at 4 s: 4 ms a jiffy
	timersim::replay_setup setup;
	setup.cpus = 1;
	setup.hz = 250;
	setup.clock = &clock;
	timersim::view_window window(1010, 1019, false);
	timersim::view_hrlane lane(window, 5);
	window.begin(setup);
	lane.begin(setup);
	timersim::cpu_activity a;
	a.what = timersim::cpu_activity::kind::model_interrupt;
	// Before the window (jiffy 1009), then one a jiffy from 1010 on.
	a.start_ns = a.end_ns = 4'036'000'000ull;
	lane.activity(a);
	ck_assert_uint_eq(lane.items(), 0);
	for (unsigned k = 0; k < 8; k++) {
		a.start_ns = a.end_ns = 4'040'000'000ull + k * 4'000'000ull;
		lane.activity(a);
	}
	ck_assert_uint_eq(lane.items(), 5);
	ck_assert(lane.truncated());
}
END_TEST

// Same input, same bytes; the --why answer changes no other output.
START_TEST(same_input_same_bytes)
{
	std::string trace = fixture("cpu-timeline-bytes.txt");
	std::string dir = temp_subdir("cpu-timeline-bytes");
	replay({"--perfetto", dir + "/a.json", "--timeline", dir + "/a.csv", trace});
	replay({"--perfetto", dir + "/b.json", "--timeline", dir + "/b.csv", "--why", "0@100", trace});
	ck_assert(read_whole_file(dir + "/a.json") == read_whole_file(dir + "/b.json"));
	ck_assert(read_whole_file(dir + "/a.csv") == read_whole_file(dir + "/b.csv"));
}
END_TEST

int main()
{
	Suite *s = suite_create("cpu_timeline");
	TCase *tc = tcase_create("cpu_timeline");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, perfetto_lanes_worked_by_hand);
	tcase_add_test(tc, timeline_columns_worked_by_hand);
	tcase_add_test(tc, tick_sched_timer_is_the_tick_before_69);
	tcase_add_test(tc, why_worked_by_hand);
	tcase_add_test(tc, bundled_recording_counted_from_its_lines);
	tcase_add_test(tc, same_input_same_bytes);
	tcase_add_test(tc, view_lane_holds_the_window);
	tcase_add_test(tc, view_lane_is_bounded);
	tcase_add_test(tc, same_counts_in_every_format);
	tcase_add_test(tc, hrtimer_softirq_runs_on_their_lane);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
