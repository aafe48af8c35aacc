// libtracecmd loaded only when a trace.dat needs it (libtracecmd_load.h):
// our own reader's files leave it unloaded, a file with a date option goes
// through it and replays as the same events, and the binary links neither
// it nor libbabeltrace.
#include <cstdio>
#include <dlfcn.h>
#include <string>
#include <vector>

#include "sim/trace/trace_dat.h"
#include "tests/support/binary_test_util.h"
#include "tests/support/cli.h"
#include "tests/support/paths.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"	// last: check.h defines a fail() macro

using namespace timersim;
using test::owned_event;

namespace {

// A recording of this machine (6.18, trace-cmd extract -B): version 7,
// options in plain text.
const std::string dat_path = "tests/data/sleep-net.dat";

bool libtracecmd_loaded()
{
	void *lib = dlopen("libtracecmd.so.1", RTLD_LAZY | RTLD_NOLOAD);
	if (lib)
		dlclose(lib);
	return lib != nullptr;
}

// A copy of the recording whose uname option (id 5) is made a date option
// (id 1) of the same size: our reader leaves such a file to libtracecmd,
// which reads the text as a zero offset.
std::string date_option_copy()
{
	std::string d = test::read_whole_file(dat_path);
	const std::string uname = "Linux vm";
	std::size_t at = d.find(uname);
	ck_assert_msg(at != std::string::npos && at >= 6, "no uname option in %s", dat_path.c_str());
	ck_assert_msg(d[at - 6] == 5 && d[at - 5] == 0, "the uname text is not an option's");
	d[at - 6] = 1;
	return test::write_temp("date-option.dat", d);
}

std::vector<std::string> needed_libraries(const std::string &binary)
{
	std::vector<std::string> out;
	FILE *p = popen(("readelf -d '" + binary + "' 2>/dev/null").c_str(), "r");
	ck_assert_msg(p, "cannot run readelf");
	char line[512];
	while (std::fgets(line, sizeof line, p)) {
		std::string s(line);
		std::size_t a = s.find("(NEEDED)"), l = s.find('['), r = s.find(']');
		if (a != std::string::npos && l != std::string::npos && r > l)
			out.push_back(s.substr(l + 1, r - l - 1));
	}
	pclose(p);
	return out;
}

}  // namespace

START_TEST(our_reader_leaves_libtracecmd_unloaded)
{
	ck_assert(!libtracecmd_loaded());
	auto r = make_trace_dat_reader(dat_path, {});
	std::vector<owned_event> all = test::read_all(*r);
	ck_assert_uint_gt(all.size(), 10000);
	ck_assert_msg(!libtracecmd_loaded(), "reading %s loaded libtracecmd", dat_path.c_str());
}
END_TEST

START_TEST(date_option_file_reads_through_libtracecmd)
{
	std::string dated = date_option_copy();
	std::vector<owned_event> ours = test::read_all(*make_trace_dat_reader(dat_path, {}));
	ck_assert(!libtracecmd_loaded());
	std::vector<owned_event> lib = test::read_all(*make_trace_dat_reader(dated, {}));
	ck_assert_msg(libtracecmd_loaded(), "a date option file did not go through libtracecmd");
	ck_assert_uint_eq(lib.size(), ours.size());
	for (std::size_t i = 0; i < ours.size(); i++)
		ck_assert_msg(lib[i] == ours[i], "record %zu (%s) differs through libtracecmd", i,
			      ours[i].name.c_str());
}
END_TEST

START_TEST(cli_replays_a_date_option_file)
{
	std::string dated = date_option_copy();
	test::cli_result a = test::run_timersim({"replay", dat_path});
	test::cli_result b = test::run_timersim({"replay", dated});
	ck_assert_msg(a.status == 0 && b.status == 0, "exit %d / %d: %s", a.status, b.status,
		      b.err.c_str());
	// The same report but for the first line, which names the file.
	std::string report_a = a.out.substr(a.out.find('\n')), report_b = b.out.substr(b.out.find('\n'));
	ck_assert_msg(!report_a.empty() && report_a == report_b,
		      "the date-option copy's report differs:\n%s\n---\n%s", report_a.c_str(),
		      report_b.c_str());
}
END_TEST

START_TEST(binary_links_no_trace_library)
{
	std::vector<std::string> needed = needed_libraries(test::timersim_bin());
	ck_assert_msg(!needed.empty(), "readelf lists no NEEDED library of %s",
		      test::timersim_bin().c_str());
	for (const std::string &lib : needed)
		for (const char *name : {"tracecmd", "traceevent", "tracefs", "babeltrace"})
			ck_assert_msg(lib.find(name) == std::string::npos,
				      "%s links %s: every run loads it", test::timersim_bin().c_str(),
				      lib.c_str());
}
END_TEST

static Suite *libtracecmd_load_suite()
{
	Suite *s = suite_create("libtracecmd_load");
	TCase *tc = tcase_create("load");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, our_reader_leaves_libtracecmd_unloaded);
	tcase_add_test(tc, date_option_file_reads_through_libtracecmd);
	tcase_add_test(tc, cli_replays_a_date_option_file);
	tcase_add_test(tc, binary_links_no_trace_library);
	suite_add_tcase(s, tc);
	return s;
}

int main()
{
	return timersim::test::run_suite(libtracecmd_load_suite());
}
