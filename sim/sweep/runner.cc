// Running cells: one at a time in this process (--cell, --task: what GNU
// parallel and Slurm call), or all pending ones, `jobs` processes at once.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>

#include "sim/base/errors.h"
#include "sim/output/output_file.h"
#include "sim/sweep/run.h"
#include "sim/trace/reader.h"
#include "sim/trace/small_input.h"

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

cell_status check_cell(const spec &s, const cell &c, const cell_key &k)
{
	std::string path = s.result_path(c);
	struct stat st;
	if (lstat(path.c_str(), &st) != 0)
		return {};
	// The result is the sweep's own regular file: a link (wherever it
	// points), a FIFO or a device there is re-run and replaced
	// (run_and_write), never read or written through.
	if (!S_ISREG(st.st_mode))
		return {cell_state::stale, "not a regular file"};
	// A result line is a few KiB (merge's bound is 2 MiB); anything else
	// there - a torn or foreign file - is re-run.
	if (st.st_size > (2 << 20))
		return {cell_state::stale, "not a result file"};
	nlohmann::json j;
	try {
		j = parse_json_input(read_small_text(path, 2u << 20, 2u << 20, "sweep result"), path);
	} catch (const input_error &) {
		return {cell_state::stale, "not a result file"};
	}
	if (!j.is_object() || !j.contains("id") || j["id"] != c.id)
		return {cell_state::stale, "not a result file"};
	std::string why = stale_reason(k, j);
	if (!why.empty())
		return {cell_state::stale, why};
	return {cell_state::done, ""};
}

bool run_and_write(const spec &s, const cell &c, const cell_key &k)
{
	if (check_cell(s, c, k).state == cell_state::done)
		return false;
	std::string line = run_cell(s, c, k) + "\n";
	make_dirs(s.cells_dir());
	output_file out(s.result_path(c), output_owner::tool);
	out.write(line);
	out.commit();
	return true;
}

run_status run_sweep(const spec &s, unsigned jobs, bool progress)
{
	run_status st;
	st.total = s.cells.size();
	std::vector<const cell *> todo;
	std::vector<cell_key> keys;
	keys.reserve(s.cells.size());
	key_maker make_key(s);
	for (const cell &c : s.cells) {
		keys.push_back(make_key.of(c));
		cell_status cs = check_cell(s, c, keys.back());
		if (cs.state == cell_state::done) {
			st.done_before++;
			continue;
		}
		if (cs.state == cell_state::stale) {
			st.stale++;
			st.stale_why[cs.why]++;
		}
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
					run_and_write(s, *c, keys[c->index]);
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
