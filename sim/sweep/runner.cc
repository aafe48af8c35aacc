// Running cells: one at a time in this process (--cell, --task: what GNU
// parallel and Slurm call), or all pending ones, `jobs` processes at once.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>

#include "sim/core/errors.h"
#include "sim/output/output_file.h"
#include "sim/sweep/run.h"
#include "sim/trace/reader.h"

namespace timersim::sweep {

void make_dirs(const std::string &path)
{
	std::string at;
	for (std::size_t i = 0; i <= path.size(); i++) {
		if (i < path.size() && path[i] != '/')
			continue;
		at = path.substr(0, i);
		if (at.empty())
			continue;
		if (mkdir(at.c_str(), 0777) != 0 && errno != EEXIST)
			throw output_error(at + ": cannot create the folder: " + std::strerror(errno));
	}
}

bool cell_done(const spec &s, const cell &c)
{
	struct stat st;
	return stat(s.result_path(c).c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool run_and_write(const spec &s, const cell &c)
{
	if (cell_done(s, c))
		return false;
	std::string line = run_cell(s, c) + "\n";
	make_dirs(s.cells_dir());
	output_file out(s.result_path(c));
	out.write(line);
	out.commit();
	return true;
}

run_status run_sweep(const spec &s, unsigned jobs, bool progress)
{
	run_status st;
	st.total = s.cells.size();
	std::vector<const cell *> todo;
	for (const cell &c : s.cells) {
		if (cell_done(s, c))
			st.done_before++;
		else
			todo.push_back(&c);
	}
	if (jobs < 1)
		jobs = 1;
	make_dirs(s.cells_dir());

	std::map<pid_t, const cell *> running;
	std::size_t next = 0, finished = 0;
	auto reap = [&] {
		int status = 0;
		pid_t pid = wait(&status);
		if (pid < 0)
			return;
		const cell *c = running[pid];
		running.erase(pid);
		finished++;
		bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
		if (ok)
			st.ran++;
		else
			st.failed++;
		if (progress || !ok)
			std::fprintf(stderr, "timersim sweep: cell %zu (%s) %s [%zu/%zu]\n", c->index, c->id.c_str(),
				     ok ? "done" : "FAILED", finished, todo.size());
	};
	while (next < todo.size() || !running.empty()) {
		if (next < todo.size() && running.size() < jobs) {
			const cell *c = todo[next++];
			std::fflush(stdout);
			std::fflush(stderr);
			pid_t pid = fork();
			if (pid < 0)
				throw output_error(std::string("sweep: fork: ") + std::strerror(errno));
			if (pid == 0) {
				int code = 0;
				try {
					run_and_write(s, *c);
				} catch (const std::exception &e) {
					std::fprintf(stderr, "timersim sweep: cell %zu (%s): %s\n", c->index,
						     c->id.c_str(), e.what());
					code = dynamic_cast<const output_error *>(&e) ? 1 : 2;
				}
				std::fflush(stderr);
				_exit(code);
			}
			running[pid] = c;
			continue;
		}
		reap();
	}
	return st;
}

}  // namespace timersim::sweep
