// docs/timersim-pandas.ipynb, executed as a researcher would run it
// (jupyter nbconvert --execute, the Debian packages scripts/setup.sh
// installs): through the Python module (make python) it loads a replay's
// report, timeline and events and a sweep into pandas, checks the events
// against the report's counts and its own interval arithmetic against
// `merge --summary`, and draws the figures. A cell that raises fails the run.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "tests/support/paths.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"

using namespace timersim::test;

START_TEST(notebook_runs)
{
	if (std::system("/usr/bin/jupyter-nbconvert --version >/dev/null 2>&1") != 0) {
		skip_note("jupyter-nbconvert is not installed (scripts/setup.sh installs it): the notebook not run");
		return;
	}
	std::string dir = temp_subdir("notebook");
	// The module the notebook imports: $TIMERSIM_PYTHONPATH (make test
	// passes build/python), absolute, since the notebook runs in docs/.
	const char *env = std::getenv("TIMERSIM_PYTHONPATH");
	std::string module_dir = env && *env ? env : "build/python";
	// make test builds it; check-asan does not (an ASan module cannot load
	// into Debian's python3): there the notebook is not run.
	char *abs = realpath(module_dir.c_str(), nullptr);
	if (!abs || access((std::string(abs) + "/timersim/_core.so").c_str(), R_OK) != 0) {
		std::free(abs);
		skip_note("no Python module in " + module_dir + " (make python builds it): the notebook not run");
		return;
	}
	std::string pythonpath = abs;
	std::free(abs);
	// The kernel is Debian's python3 (/usr/bin/python3, with pandas): a
	// python3 earlier on PATH (pyenv, a venv) would lack it.
	std::string cmd = "cd docs && PATH=/usr/bin:/bin TIMERSIM_PYTHONPATH='" + pythonpath +
			  "' /usr/bin/jupyter-nbconvert --to notebook --execute --ExecutePreprocessor.timeout=300 "
			  "--output-dir '" + dir + "' timersim-pandas.ipynb > '" + dir + "/log' 2>&1";
	int st = std::system(cmd.c_str());
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the notebook failed:\n%s",
		      read_whole_file(dir + "/log").c_str());
	std::string out = read_whole_file(dir + "/timersim-pandas.ipynb");
	// Every code cell ran, and the figures are in the output.
	ck_assert_msg(out.find("\"output_type\": \"error\"") == std::string::npos, "an error cell");
	ck_assert_msg(out.find("image/png") != std::string::npos, "no figure drawn");
}
END_TEST

int main()
{
	Suite *s = suite_create("notebook");
	TCase *tc = tcase_create("notebook");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, notebook_runs);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
