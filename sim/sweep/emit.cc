// Sweeps on distributed engines: a job list for GNU parallel and a Slurm
// job-array script. Both run `timersim sweep SPEC` on one cell per job, so
// the results are the same files a local sweep writes, and `timersim merge`
// works the same whoever ran the cells.
#include <unistd.h>

#include <cctype>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "sim/base/errors.h"
#include "sim/sweep/run.h"

namespace timersim::sweep {

namespace {

// A value bound for a script, as a message shows it: control characters
// as escapes, so the message itself stays one line.
std::string shown(const std::string &s)
{
	std::string out;
	for (unsigned char c : s) {
		if (c < 0x20 || c == 0x7f) {
			char hex[8];
			std::snprintf(hex, sizeof hex, "\\x%02x", c);
			out += hex;
		} else {
			out += static_cast<char>(c);
		}
	}
	return out;
}

// Every value enters the scripts on a line of its own kind (a job for
// parallel, a #SBATCH option, a comment, a command): a newline or another
// control character would end that line and start a command of the
// value's making. Quoting cannot carry one through parallel's job list
// (a line is a job), so none is let in.
const std::string &printable(const std::string &what, const std::string &s)
{
	for (unsigned char c : s)
		if (c < 0x20 || c == 0x7f)
			throw usage_error(what + " '" + shown(s) +
					  "' holds a control character: it cannot go into a job script; rename it");
	return s;
}

// A word for the shell: single-quoted.
std::string quoted(const std::string &s)
{
	std::string out = "'";
	for (char c : s)
		out += c == '\'' ? std::string("'\\''") : std::string(1, c);
	return out + "'";
}

// An --output value on a #SBATCH line. sbatch splits the line into words
// itself (blanks part them, quotes and backslashes are its own, an
// unescaped # ends the line), then expands %A, %a, ... in the file name:
// every byte but a plain one is backslash-escaped, every % doubled. A
// backslash left in the name would turn all of Slurm's expansion off (every
// task one log), so a folder with one is refused.
std::string sbatch_word(const std::string &s)
{
	if (s.find('\\') != std::string::npos)
		throw usage_error("the sweep's folder '" + shown(s) +
				  "' holds a backslash, which Slurm's --output cannot carry; rename it");
	std::string out;
	for (char c : s) {
		bool plain = std::isalnum(static_cast<unsigned char>(c)) || std::strchr("/._-+,=:@", c);
		if (c == '%')
			out += "%%";
		else
			out += plain ? std::string(1, c) : std::string("\\") + c;
	}
	return out;
}

}  // namespace

std::string absolute_path(const std::string &path)
{
	char buf[PATH_MAX];
	if (!realpath(path.c_str(), buf))
		throw usage_error(shown(path) + ": cannot resolve the path");
	return buf;
}

std::string self_path()
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
	if (n <= 0)
		throw usage_error("cannot find this program's path (/proc/self/exe)");
	return std::string(buf, static_cast<std::size_t>(n));
}

std::string emit_parallel(const spec &s, const std::string &timersim)
{
	std::string spec_path = quoted(printable("the spec's path", absolute_path(s.path)));
	std::string bin = quoted(printable("timersim's path", timersim));
	std::string out;
	for (const cell &c : s.cells)
		out += bin + " sweep " + spec_path + " --cell " + c.id + "\n";
	return out;
}

std::string emit_slurm(const spec &s, const std::string &timersim)
{
	std::string spec_path = quoted(printable("the spec's path", absolute_path(s.path)));
	std::string bin = quoted(printable("timersim's path", timersim));
	printable("the sweep's folder", s.out);
	make_dirs(s.out);	// Slurm opens the task logs there before the task runs
	std::string logs = sbatch_word(printable("the sweep's folder", absolute_path(s.out)) + "/slurm-") +
			   "%A_%a.out";
	std::string out;
	out += "#!/bin/bash\n";
	out += "# timersim sweep " + spec_path + " as a Slurm job array: task K runs cell K.\n";
	out += "#   sbatch THIS_SCRIPT;  then: timersim merge " + spec_path + "\n";
	out += "# A task whose cell has a result already does nothing, so the array can be\n";
	out += "# resubmitted after an interruption. Set SLURM_ARRAY_TASK_ID to run one by hand.\n";
	out += "#SBATCH --job-name=timersim-sweep\n";
	out += "#SBATCH --array=0-" + std::to_string(s.cells.empty() ? 0 : s.cells.size() - 1) + "\n";
	out += "#SBATCH --ntasks=1\n";
	out += "#SBATCH --cpus-per-task=1\n";
	out += "#SBATCH --output=" + logs + "\n";
	out += "set -euo pipefail\n";
	out += ": \"${SLURM_ARRAY_TASK_ID:?not a Slurm array task: set SLURM_ARRAY_TASK_ID}\"\n";
	out += "exec " + bin + " sweep " + spec_path + " --task \"$SLURM_ARRAY_TASK_ID\"\n";
	return out;
}

}  // namespace timersim::sweep
