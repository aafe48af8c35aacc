// Sweeps on distributed engines: a job list for GNU parallel and a Slurm
// job-array script. Both run `timersim sweep SPEC` on one cell per job, so
// the results are the same files a local sweep writes, and `timersim merge`
// works the same whoever ran the cells.
#include <climits>
#include <cstdlib>
#include <unistd.h>

#include "sim/core/errors.h"
#include "sim/sweep/run.h"

namespace timersim::sweep {

namespace {

// A word for the shell: single-quoted.
std::string quoted(const std::string &s)
{
	std::string out = "'";
	for (char c : s)
		out += c == '\'' ? std::string("'\\''") : std::string(1, c);
	return out + "'";
}

}  // namespace

std::string absolute_path(const std::string &path)
{
	char buf[PATH_MAX];
	if (!realpath(path.c_str(), buf))
		throw usage_error(path + ": cannot resolve the path");
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
	std::string spec_path = quoted(absolute_path(s.path));
	std::string bin = quoted(timersim);
	std::string out;
	for (const cell &c : s.cells)
		out += bin + " sweep " + spec_path + " --cell " + c.id + "\n";
	return out;
}

std::string emit_slurm(const spec &s, const std::string &timersim)
{
	std::string spec_path = absolute_path(s.path);
	make_dirs(s.out);	// Slurm opens the task logs there before the task runs
	std::string logs = absolute_path(s.out);
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
	out += "#SBATCH --output=" + logs + "/slurm-%A_%a.out\n";
	out += "set -euo pipefail\n";
	out += ": \"${SLURM_ARRAY_TASK_ID:?not a Slurm array task: set SLURM_ARRAY_TASK_ID}\"\n";
	out += "exec " + quoted(timersim) + " sweep " + quoted(spec_path) + " --task \"$SLURM_ARRAY_TASK_ID\"\n";
	return out;
}

}  // namespace timersim::sweep
