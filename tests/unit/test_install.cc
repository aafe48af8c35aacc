// `make install` (the internal _install: the binary under test as it is)
// into a DESTDIR: the binary, the scripts it runs and the man page land
// where the Debian way puts them; the installed binary's `plot` works from
// a folder outside the checkout; the man page renders without a warning.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "tests/support/cli.h"
#include "tests/support/paths.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"

using namespace timersim::test;

namespace {

bool contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

// A shell command's exit status and its output (stdout and stderr).
int shell(const std::string &cmd, std::string &out)
{
	out.clear();
	std::FILE *p = popen((cmd + " 2>&1").c_str(), "r");
	if (!p)
		return -1;
	char buf[4096];
	for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;)
		out.append(buf, n);
	int status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// In single quotes for sh.
std::string quoted(const std::string &s)
{
	std::string q = "'";
	for (char ch : s)
		q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
	return q + "'";
}

bool executable(const std::string &path) { return access(path.c_str(), X_OK) == 0; }

}  // namespace

START_TEST(install_puts_everything_where_the_binary_finds_it)
{
	std::string dest = temp_subdir("install");
	std::string bin = timersim_bin();
	std::string build = bin.substr(0, bin.rfind('/'));
	std::string out;
	int status = shell("make --no-print-directory -s _install BUILD=" + quoted(build) + " DESTDIR=" +
				   quoted(dest) + " PREFIX=/usr",
			   out);
	ck_assert_msg(status == 0, "make _install: %d %s", status, out.c_str());
	const std::string usr = dest + "/usr";
	ck_assert(executable(usr + "/bin/timersim"));
	ck_assert(executable(usr + "/share/timersim/plot.py"));
	ck_assert(executable(usr + "/share/timersim/plot-sweep.py"));
	// What both import, beside them.
	ck_assert(access((usr + "/share/timersim/plot_shared.py").c_str(), R_OK) == 0);
	const std::string page = usr + "/share/man/man1/timersim.1";
	ck_assert(access(page.c_str(), R_OK) == 0);

	// plot from outside the checkout: the installed binary finds plot.py
	// at ../share/timersim of its own folder.
	std::string json = dest + "/r.json";
	ck_assert_int_eq(run_timersim({"replay", "--json", json, "tests/data/default-trace.txt.gz"}).status, 0);
	status = shell("cd " + quoted(dest) + " && env -u TIMERSIM_SCRIPTS ./usr/bin/timersim plot r.json -o pics",
		       out);
	ck_assert_msg(status == 0, "installed plot: %d %s", status, out.c_str());
	ck_assert_uint_gt(read_whole_file(dest + "/pics/levels.png").size(), 2000);

	// The Python module, where it was built (make python; make test builds
	// it): in the packaged python3's site-packages for PREFIX=/usr, and
	// importable from there outside the checkout.
	if (access((build + "/python/timersim/_core.so").c_str(), R_OK) == 0) {
		const std::string site = usr + "/lib/python3/dist-packages";
		ck_assert(access((site + "/timersim/__init__.py").c_str(), R_OK) == 0);
		status = shell("cd " + quoted(dest) + " && PYTHONPATH=" + quoted(site) +
				       " /usr/bin/python3 -c 'import timersim; print(timersim.__file__)'",
			       out);
		ck_assert_msg(status == 0 && contains(out, site + "/timersim/__init__.py"), "import: %d %s", status,
			      out.c_str());
	} else {
		skip_note("no " + build + "/python/timersim/_core.so (make python): its install not checked");
	}

	// The man page: groff's every warning on, none given; man renders the
	// commands' own help; the NAME line is one whatis reads.
	status = shell("groff -man -Tutf8 -ww -z " + quoted(page), out);
	ck_assert_msg(status == 0 && out.empty(), "groff: %d %s", status, out.c_str());
	status = shell("MANWIDTH=80 MANPAGER=cat man --warnings -l " + quoted(page), out);
	ck_assert_msg(status == 0, "man -l: %d %s", status, out.c_str());
	for (const char *s : {"TIMERSIM(1)", "NAME", "timersim gen", "--workload", "timersim lab check",
			      "timersim plot", "EXIT STATUS", "share/timersim/plot.py"})
		ck_assert_msg(contains(out, s), "the man page lacks %s", s);
	ck_assert_msg(!contains(out, "warning"), "man -l: %s", out.c_str());
	status = shell("lexgrog " + quoted(page), out);
	ck_assert_msg(status == 0 && contains(out, "\"timersim - replay recorded Linux timer traces"), "lexgrog: %s",
		      out.c_str());
}
END_TEST

int main()
{
	Suite *s = suite_create("install");
	TCase *tc = tcase_create("install");
	tcase_set_timeout(tc, 180);
	tcase_add_test(tc, install_puts_everything_where_the_binary_finds_it);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
