// The text readers over the real recordings in ../shared/traces: per-kind
// counts against an independent line count, and the same recording in two
// renderings read into the same timer events.
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "sim/trace/reader.h"
#include "tests/support/paths.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"	// last: check.h defines a fail() macro

using namespace timersim;

namespace {

const char *kinds_by_name[][2] = {
	{"timer_init", "timer_init"},
	{"timer_start", "timer_start"},
	{"timer_cancel", "timer_cancel"},
	{"timer_expire_entry", "timer_expire_entry"},
	{"timer_expire_exit", "timer_expire_exit"},
	{"timer_base_idle", "timer_base_idle"},
	{"hrtimer_init", "hrtimer"},
	{"hrtimer_setup", "hrtimer"},
	{"hrtimer_start", "hrtimer"},
	{"hrtimer_cancel", "hrtimer"},
	{"hrtimer_expire_entry", "hrtimer"},
	{"hrtimer_expire_exit", "hrtimer"},
	{"tick_stop", "tick_stop"},
	{"cpu_idle", "cpu_idle"},
};

// "NAME:" as an event column in LINE: after a blank (ftrace, trace-cmd) or
// after "timer:" (perf); plain strstr, nothing shared with the readers.
bool line_has_event(const char *line, const char *name)
{
	std::string needle = std::string(name) + ":";
	for (const char *p = std::strstr(line, needle.c_str()); p;
	     p = std::strstr(p + 1, needle.c_str()))
		if (p > line && (p[-1] == ' ' || p[-1] == ':'))
			return true;
	return false;
}

struct line_counts {
	std::map<std::string, unsigned long> by_kind;
	unsigned long lines = 0;
	unsigned long comments = 0;	// lines starting with '#' or "cpus="
};

line_counts count_by_grep(const std::string &path)
{
	line_counts c;
	FILE *f = std::fopen(path.c_str(), "r");
	ck_assert_ptr_nonnull(f);
	char *line = nullptr;
	size_t cap = 0;
	while (getline(&line, &cap, f) > 0) {
		c.lines++;
		if (line[0] == '#' || std::strncmp(line, "cpus=", 5) == 0) {
			c.comments++;
			continue;
		}
		for (const auto &k : kinds_by_name)
			if (line_has_event(line, k[0])) {
				c.by_kind[k[1]]++;
				break;
			}
	}
	std::free(line);
	std::fclose(f);
	return c;
}

std::map<std::string, unsigned long> count_by_reader(trace_reader &r)
{
	std::map<std::string, unsigned long> by_kind;
	trace_event ev;
	while (r.next(ev))
		by_kind[event_kind_name(ev.kind)]++;
	return by_kind;
}

std::string need(const char *rel)
{
	std::string path = test::shared_trace(rel);
	if (path.empty())
		test::skip_note(std::string("../shared/traces/") + rel + " absent");
	return path;
}

void check_counts(const char *rel, trace_format fmt, unsigned cpus)
{
	std::string path = need(rel);
	if (path.empty())
		return;
	reader_options opt;
	auto r = open_trace(path, trace_format::auto_detect, opt);
	ck_assert(r->format() == fmt);
	ck_assert_uint_eq(r->declared_cpus(), cpus);
	auto got = count_by_reader(*r);
	line_counts want = count_by_grep(path);
	ck_assert_msg(got == want.by_kind, "%s: per-kind counts differ", rel);
	const reader_stats &st = r->stats();
	ck_assert_uint_eq(st.lines, want.lines);
	ck_assert_uint_eq(st.lines, st.events + st.skipped);
	ck_assert_uint_eq(st.skipped, want.comments);
	ck_assert_uint_eq(st.malformed, 0);
	ck_assert_uint_eq(st.bytes, test::read_whole_file(path).size());
	ck_assert_uint_gt(want.by_kind["timer_start"], 1000);
}

}  // namespace

START_TEST(linux_36_ftrace_counts)
{
	check_counts("linux-3.6-scp_dest/trace.txt", trace_format::ftrace, 1);
}
END_TEST

START_TEST(linux_618_ftrace_counts)
{
	check_counts("linux-6.18-http/trace.txt", trace_format::ftrace, 2);
}
END_TEST

START_TEST(linux_618_trace_cmd_report_counts)
{
	check_counts("linux-6.18-http/trace-cmd-report.txt", trace_format::trace_cmd_report, 2);
}
END_TEST

START_TEST(linux_618_perf_script_counts)
{
	check_counts("linux-6.18-tcp/perf-script.txt", trace_format::perf_script, 0);
}
END_TEST

// One recording, two renderings: pointers differ (hashed against real),
// flags differ (libtraceevent's D|P|I), everything else must agree.
START_TEST(http_trace_and_report_agree)
{
	std::string txt = need("linux-6.18-http/trace.txt");
	std::string rep = need("linux-6.18-http/trace-cmd-report.txt");
	if (txt.empty() || rep.empty())
		return;
	reader_options opt;
	auto a = test::read_all(*open_trace(txt, trace_format::auto_detect, opt));
	auto b = test::read_all(*open_trace(rep, trace_format::auto_detect, opt));
	ck_assert_uint_eq(a.size(), b.size());
	unsigned long starts = 0, flagged = 0;
	for (std::size_t i = 0; i < a.size(); i++) {
		const auto &x = a[i], &y = b[i];
		ck_assert_msg(x.kind == y.kind && x.name == y.name && x.cpu == y.cpu &&
			      x.ts_ns == y.ts_ns, "event %zu: %s against %s", i, x.name.c_str(),
			      y.name.c_str());
		if (x.kind == event_kind::hrtimer || x.kind == event_kind::other)
			continue;	// the hrtimer plugin reorders, no more to compare
		ck_assert_msg(x.function == y.function && x.expires == y.expires &&
			      x.timeout == y.timeout && x.now == y.now && x.baseclk == y.baseclk &&
			      x.bucket_expiry == y.bucket_expiry && x.target_cpu == y.target_cpu &&
			      x.idx == y.idx && x.is_idle == y.is_idle &&
			      (x.has & ~EF_FLAGS) == y.has,
			      "event %zu (%s, line %llu/%llu) differs", i, x.name.c_str(),
			      (unsigned long long)x.line, (unsigned long long)y.line);
		if (x.kind == event_kind::timer_start) {
			starts++;
			ck_assert(x.carries(EF_FLAGS) && !y.carries(EF_FLAGS));
			flagged += x.flags != 0;
		}
	}
	ck_assert_uint_eq(starts, 3529);
	// Raw text has the kernel's real flags: most timers here have none.
	ck_assert_uint_gt(flagged, 0);
	ck_assert_uint_lt(flagged, starts / 2);
}
END_TEST

// The same pointer gets the same hash all through one boot: the mapping
// hashed -> real pointer is a bijection between the two renderings.
START_TEST(http_pointers_map_one_to_one)
{
	std::string txt = need("linux-6.18-http/trace.txt");
	std::string rep = need("linux-6.18-http/trace-cmd-report.txt");
	if (txt.empty() || rep.empty())
		return;
	reader_options opt;
	auto a = test::read_all(*open_trace(txt, trace_format::auto_detect, opt));
	auto b = test::read_all(*open_trace(rep, trace_format::auto_detect, opt));
	std::map<std::uint64_t, std::uint64_t> fwd, back;
	for (std::size_t i = 0; i < a.size() && i < b.size(); i++) {
		if (a[i].kind == event_kind::other || a[i].kind == event_kind::timer_base_idle)
			continue;
		auto [f, fnew] = fwd.emplace(a[i].timer, b[i].timer);
		auto [g, gnew] = back.emplace(b[i].timer, a[i].timer);
		ck_assert_msg(f->second == b[i].timer && g->second == a[i].timer,
			      "event %zu: pointer mapping is not one to one", i);
	}
	ck_assert_uint_gt(fwd.size(), 10);
}
END_TEST

START_TEST(gzip_of_a_real_trace_reads_the_same)
{
	std::string txt = need("linux-6.18-tcp/perf-script.txt");
	if (txt.empty())
		return;
	std::string gz = test::write_temp_gzip("perf.gz", test::read_whole_file(txt));
	reader_options opt;
	auto rp = open_trace(txt, trace_format::auto_detect, opt);
	auto rg = open_trace(gz, trace_format::auto_detect, opt);
	ck_assert(rg->format() == trace_format::perf_script);
	ck_assert(test::read_all(*rp) == test::read_all(*rg));
	ck_assert_uint_eq(rp->stats().bytes, rg->stats().bytes);
}
END_TEST

static Suite *traces_suite()
{
	Suite *s = suite_create("text_traces");
	TCase *tc = tcase_create("shared");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, linux_36_ftrace_counts);
	tcase_add_test(tc, linux_618_ftrace_counts);
	tcase_add_test(tc, linux_618_trace_cmd_report_counts);
	tcase_add_test(tc, linux_618_perf_script_counts);
	tcase_add_test(tc, http_trace_and_report_agree);
	tcase_add_test(tc, http_pointers_map_one_to_one);
	tcase_add_test(tc, gzip_of_a_real_trace_reads_the_same);
	suite_add_tcase(s, tc);
	return s;
}

int main()
{
	return timersim::test::run_suite(traces_suite());
}
