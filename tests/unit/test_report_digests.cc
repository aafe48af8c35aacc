// Reports do not change by accident: every report listed in
// tests/data/report-digests.txt (each bundled and shared trace, text and
// JSON, replay and compare, the side outputs) is written again by the
// binary under test and its SHA-256 must be the one recorded. A change
// that moves code (a refactor) leaves every digest as it was; a change
// that means to change a report regenerates the file (`make
// report-digests`), and its diff names the reports that changed.
//
// A line is `DIGEST  ARGS...` (arguments split at blanks, no quoting); a
// line whose first argument path starts with ../shared/ is skipped, with a
// note, when the shared folder is absent.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/cli.h"
#include "tests/support/paths.h"
#include "tests/support/shown_commands.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"

using namespace timersim::test;

namespace {

const char digests_path[] = "tests/data/report-digests.txt";

struct digest_line {
	unsigned line = 0;
	std::string digest;
	std::vector<std::string> args;
};

std::vector<digest_line> read_digests()
{
	std::vector<digest_line> out;
	std::istringstream in(read_text_file(digests_path));
	std::string text;
	for (unsigned n = 1; std::getline(in, text); n++) {
		if (text.empty() || text[0] == '#')
			continue;
		std::istringstream words(text);
		digest_line d;
		d.line = n;
		words >> d.digest;
		for (std::string w; words >> w;)
			d.args.push_back(w);
		out.push_back(d);
	}
	return out;
}

// sha256sum's digest of `bytes` (coreutils: the same tool the script that
// writes the file uses).
std::string sha256(const std::string &bytes)
{
	const std::string path = write_temp("report", bytes);
	std::string digest;
	if (FILE *p = popen(("sha256sum " + path).c_str(), "r")) {
		char buf[65] = {};
		if (std::fread(buf, 1, 64, p) == 64)
			digest = buf;
		pclose(p);
	}
	std::remove(path.c_str());
	return digest;
}

bool needs_shared(const digest_line &d)
{
	for (const std::string &a : d.args)
		if (a.rfind("../shared/", 0) == 0)
			return true;
	return false;
}

}  // namespace

START_TEST(the_list_covers_every_bundled_trace_and_format)
{
	std::vector<digest_line> lines = read_digests();
	ck_assert_msg(lines.size() >= 40, "%s lists %zu reports", digests_path, lines.size());
	std::string all;
	for (const digest_line &d : lines) {
		ck_assert_msg(d.digest.size() == 64, "%s:%u: not a SHA-256 digest", digests_path, d.line);
		for (const std::string &a : d.args)
			all += a + " ";
	}
	for (const char *must : {"tests/data/default-trace.txt.gz ", "tests/data/sleep-net.dat ",
				 "tests/data/sleep-net.perf-script.txt.gz ", "tests/data/sleep-net.trace-cmd-report.txt.gz ",
				 "linux-3.6-scp_dest/ctf ", "linux-6.18-http/trace.dat ", "compare ", "--json ",
				 "--timeline ", "--perfetto ", "--expiry-log "})
		ck_assert_msg(all.find(must) != std::string::npos, "%s has no report of `%s`", digests_path, must);
}
END_TEST

START_TEST(every_report_is_byte_identical_to_its_digest)
{
	unsigned run = 0, skipped = 0;
	const bool shared = !shared_trace("").empty();
	for (const digest_line &d : read_digests()) {
		if (needs_shared(d) && !shared) {
			skipped++;
			continue;
		}
		cli_result r = run_timersim(d.args);
		std::string cmd;
		for (const std::string &a : d.args)
			cmd += " " + a;
		ck_assert_msg(r.status == 0, "%s:%u: timersim%s exited %d: %s", digests_path, d.line, cmd.c_str(),
			      r.status, r.err.c_str());
		const std::string got = sha256(r.out);
		ck_assert_msg(got == d.digest,
			      "%s:%u: timersim%s wrote another report (%zu bytes, sha256 %s); "
			      "if the change means to change it, run `make report-digests`",
			      digests_path, d.line, cmd.c_str(), r.out.size(), got.c_str());
		run++;
	}
	if (skipped)
		skip_note(std::to_string(skipped) + " reports of ../shared traces (the shared folder is absent)");
	ck_assert_uint_gt(run, 0);
}
END_TEST

int main()
{
	Suite *s = suite_create("report_digests");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, the_list_covers_every_bundled_trace_and_format);
	tcase_add_test(tc, every_report_is_byte_identical_to_its_digest);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
