// timersim plot: PNG and SVG pictures of a JSON report (a what-if one too)
// or of a merged sweep CSV, drawn by
// scripts/plot.py with Debian's python3-matplotlib (the pictures and their
// rules are documented there). Exit status: 2 for bad input (the script
// says what was wrong), 1 when the pictures could not be drawn.
#include <sys/wait.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "sim/base/errors.h"
#include "sim/output/output_file.h"
#include "tools/commands.h"
#include "tools/numbers.h"

namespace timersim::cli {

namespace {

struct plot_args {
	std::string report, output, timeline;
	bool timeline_given = false;	// --timeline '' is an error, not no timeline
};

bool readable(const std::string &path)
{
	return !path.empty() && access(path.c_str(), R_OK) == 0;
}

// Where plot.py is, found from this binary's own location so that it works
// from any folder: $TIMERSIM_SCRIPTS if set; else an installed binary's
// (PREFIX/bin/timersim -> PREFIX/share/timersim/, as `make install` puts
// it); else the checkout's it was built in (build/timersim or
// build/asan/timersim -> scripts/). Empty when none is there.
std::string plot_script()
{
	if (const char *dir = std::getenv("TIMERSIM_SCRIPTS"))
		return std::string(dir) + "/plot.py";
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		return "";
	std::string path(exe, static_cast<std::size_t>(n));
	std::string dir = path.substr(0, path.rfind('/'));
	for (const char *up : {"/../share/timersim/plot.py", "/../scripts/plot.py", "/../../scripts/plot.py"})
		if (readable(dir + up))
			return dir + up;
	return "";
}

std::string python()
{
	if (const char *p = std::getenv("TIMERSIM_PYTHON"))
		return p;
	// Debian's interpreter, which python3-matplotlib belongs to.
	return readable("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
}

int run_plot(const plot_args &a)
{
	if (a.report.empty())
		throw usage_error("plot: REPORT: the file name is empty");
	if (!readable(a.report))
		throw usage_error(a.report + ": cannot read the report");
	if (a.timeline_given && !readable(a.timeline))
		throw usage_error((a.timeline.empty() ? "--timeline: the file name is empty"
						      : a.timeline + ": cannot read the timeline"));
	if (a.output.empty())
		throw usage_error("plot: -o: the folder name is empty");
	std::string script = plot_script();
	if (script.empty())
		throw output_error("plot: plot.py is neither installed beside this binary (../share/timersim/, "
				   "make install) nor in the checkout it was built in (scripts/); set "
				   "TIMERSIM_SCRIPTS to its folder");
	if (!readable(script))
		throw output_error("plot: " + script + " is missing");
	std::vector<std::string> args = {python(), script, a.report, "-o", a.output};
	if (a.timeline_given) {
		args.push_back("--timeline");
		args.push_back(a.timeline);
	}
	std::vector<char *> argv;
	for (std::string &s : args)
		argv.push_back(s.data());
	argv.push_back(nullptr);
	pid_t pid = fork();
	if (pid < 0)
		throw output_error("plot: cannot start " + args[0]);
	if (pid == 0) {
		execvp(argv[0], argv.data());
		_exit(127);
	}
	int status = 0;
	while (waitpid(pid, &status, 0) < 0)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 2)
		return 2;
	throw output_error("plot: " + script + " failed");
}

}  // namespace

void add_plot(CLI::App &app, command_list &commands)
{
	auto a = std::make_shared<plot_args>();
	CLI::App *sub = app.add_subcommand("plot", "PNG and SVG pictures of a JSON report (replay --json or "
						   "compare --json, with --what-if-hz too) or of a merged sweep CSV");
	sub->add_option("REPORT", a->report,
			"the JSON report of replay --json or compare --json (--what-if-hz: both sides), or the CSV "
			"of timersim merge")
		->required();
	sub->add_option("-o,--output", a->output, "the folder the pictures go to")
		->type_name("DIR")
		->check(non_empty("path"))
		->required();
	sub->add_option_function<std::string>(
		   "--timeline",
		   [a](const std::string &path) {
			   a->timeline = path;
			   a->timeline_given = true;
		   },
		   "replay --timeline CSV of the same run: moves per tick over trace time")
		->type_name("CSV");
	sub->footer("examples:\n"
		    "  timersim replay --json r.json --timeline t.csv trace.txt && timersim plot r.json --timeline t.csv -o plots\n"
		    "  timersim compare --json c.json trace.txt && timersim plot c.json -o plots\n"
		    "  timersim replay --what-if-hz 1000 --json w.json trace.txt && timersim plot w.json -o plots\n"
		    "  timersim merge study.spec -o study.csv && timersim plot study.csv -o plots");
	commands.push_back({sub, [a] { return run_plot(*a); }});
}

}  // namespace timersim::cli
