// Sweeps: the SPEC file, stable cell ids, one result line per cell, and the
// same merged CSV however the cells were run - locally in one go, locally
// interrupted (SIGTERM) and resumed, on GNU parallel (local jobs, and an
// --sshloginfile naming this machine as ':'), and as Slurm array tasks run
// one by one with SLURM_ARRAY_TASK_ID set.
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "sim/base/errors.h"
#include "sim/sweep/run.h"
#include "sim/sweep/spec.h"
#include "sim/trace/reader.h"
#include "tests/support/cli.h"
#include "tests/support/gen_trace.h"
#include "tests/support/paths.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"

using namespace timersim;
using namespace timersim::test;

namespace {

// A small sweep: a (generated) recording at two what-if HZ, and a mixture
// at two HZ, two CPU counts and two seeds, each through classic and v48:
// 4 + 16 = 20 cells.
std::string write_spec(const std::string &dir, const std::string &out, const std::string &extra = "")
{
	std::string trace = dir + "/rec.txt";
	if (access(trace.c_str(), F_OK) != 0) {
		std::string text = gen_text(gen_opts("networking:rate=60;periodic:timers=6,period=90ms", 250, 2, 1.5, 4));
		std::FILE *f = std::fopen(trace.c_str(), "w");
		std::fwrite(text.data(), 1, text.size(), f);
		std::fclose(f);
	}
	std::string spec = "# test sweep\n"
			   "out = " + out + "\n"
			   "trace = rec.txt\n"
			   "workload = networking:rate=40;lognormal:rate=100,median=30ms   # a mixture\n"
			   "duration = 1s\n"
			   "scheme = classic, v48\n"
			   "hz = 100, 250\n"
			   "what_if_hz = recorded, 1000\n"
			   "cpus = 1, 2\n"
			   "seed = 1, 2\n" + extra;
	std::string path = dir + "/" + out + ".spec";
	std::FILE *f = std::fopen(path.c_str(), "w");
	std::fwrite(spec.data(), 1, spec.size(), f);
	std::fclose(f);
	return path;
}

std::size_t count_files(const std::string &dir, const std::string &suffix, std::size_t *others = nullptr)
{
	std::size_t n = 0;
	if (others)
		*others = 0;
	DIR *d = opendir(dir.c_str());
	if (!d)
		return 0;
	while (dirent *e = readdir(d)) {
		std::string name = e->d_name;
		if (name == "." || name == "..")
			continue;
		if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0 &&
		    name[0] != '.')
			n++;
		else if (others)
			(*others)++;
	}
	closedir(d);
	return n;
}

std::string merged(const std::string &spec)
{
	cli_result r = run_timersim({"merge", spec});
	ck_assert_msg(r.status == 0, "merge %s: %s", spec.c_str(), r.err.c_str());
	return r.out;
}

int shell(const std::string &cmd)
{
	int st = std::system(cmd.c_str());
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

}  // namespace

START_TEST(spec_cells_and_ids)
{
	std::string dir = temp_subdir("spec");
	sweep::spec s = sweep::load_spec(write_spec(dir, "a"));
	ck_assert_uint_eq(s.cells.size(), 20);
	ck_assert(s.out == dir + "/a");
	std::set<std::string> ids;
	for (const sweep::cell &c : s.cells) {
		ck_assert_uint_eq(c.id.size(), 16);
		ids.insert(c.id);
	}
	ck_assert_uint_eq(ids.size(), 20);
	ck_assert(!s.cells[0].generated);
	ck_assert(s.cells[4].generated);
	ck_assert_uint_eq(s.cells[2].hz, 1000);
	ck_assert_str_eq(sweep::find_cell(s, "7").id.c_str(), s.cells[7].id.c_str());
	ck_assert_uint_eq(sweep::find_cell(s, s.cells[7].id).index, 7);

	// Another axis value and another output folder: the cells that were
	// there keep their ids.
	sweep::spec t = sweep::load_spec(write_spec(dir, "b", "geometry = normal, base_small\n"));
	ck_assert_uint_eq(t.cells.size(), 40);
	std::size_t kept = 0;
	for (const sweep::cell &c : t.cells)
		kept += ids.count(c.id);
	ck_assert_uint_eq(kept, 20);
}
END_TEST

START_TEST(spec_errors_name_the_line)
{
	std::string dir = temp_subdir("bad");
	gen_file(gen_opts("networking:rate=40", 250, 1, 1.0), "bad/x.txt");	// a trace that opens
	struct {
		const char *text, *says;
	} cases[] = {
		{"trace = x.txt\nspeed = 3\n", ":2: unknown key 'speed'"},
		{"trace = x.txt\nscheme = classic, nosuch\n", ":2: unknown scheme 'nosuch'"},
		{"workload = networking:rate=x\n", ":1: networking: parameter rate=x must be a rate"},
		{"trace = x.txt\nhz = 250\nhz = 100\n", ":3: 'hz' given twice (first at line 2)"},
		{"trace = x.txt\ncpus = 0\n", ":2: cpus: '0' is not a whole number in [1, 4096]"},
		{"trace = x.txt\nparam = heap:order=fifo\n", ":2: param: scheme 'heap' is not swept"},
		{"trace = x.txt\nparam = classic:order=sideways\n", ":2: classic"},
		{"trace = x.txt\ntrace = x.txt\n", ":2: this cell is in the sweep twice"},
		{"duration = 5s\n", "no input"},
		{"trace = x.txt\nduration = soon\n", ":2: duration: 'soon' is not a duration"},
		{"just words\n", ":1: expected KEY = VALUE"},
	};
	for (const auto &c : cases) {
		std::string path = dir + "/bad.spec";
		std::FILE *f = std::fopen(path.c_str(), "w");
		std::fputs(c.text, f);
		std::fclose(f);
		try {
			sweep::load_spec(path);
			ck_abort_msg("accepted: %s", c.text);
		} catch (const input_error &e) {
			ck_assert_msg(std::string(e.what()).find(c.says) != std::string::npos, "%s -> %s", c.text, e.what());
		}
	}
	// Axes whose product is past the cap on cells (400 seeds x 300 CPU
	// counts): refused at the workload's line, before the cells fill memory.
	std::string many = "workload = networking:rate=1\nseed = 1";
	for (int i = 2; i <= 400; i++)
		many += "," + std::to_string(i);
	many += "\ncpus = 1";
	for (int i = 2; i <= 300; i++)
		many += "," + std::to_string(i);
	try {
		sweep::parse_spec(many + "\n", "many.spec");
		ck_abort_msg("a sweep of 120000 cells was accepted");
	} catch (const input_error &e) {
		ck_assert_msg(std::string(e.what()).find("many.spec:1: the sweep has more than 100000 cells") !=
				      std::string::npos, "%s", e.what());
	}
	// And through the command line: exit 2, the message on stderr.
	cli_result r = run_timersim({"sweep", dir + "/bad.spec"});
	ck_assert_int_eq(r.status, 2);
	ck_assert(r.err.find("bad.spec:1:") != std::string::npos);
}
END_TEST

// One result line per cell, the columns result_columns() names, nothing
// that varies run to run: the same cell gives the same line.
START_TEST(result_lines_are_reproducible)
{
	std::string dir = temp_subdir("line");
	sweep::spec s = sweep::load_spec(write_spec(dir, "r"));
	for (std::size_t i : {0u, 3u, 5u, 19u}) {
		std::string a = sweep::run_cell(s, s.cells[i]), b = sweep::run_cell(s, s.cells[i]);
		ck_assert_msg(a == b, "cell %zu: two runs differ", i);
		ck_assert(a.find('\n') == std::string::npos);
		ck_assert(a.find("\"id\":\"" + s.cells[i].id + "\"") == 1);
	}
	// A what-if cell at the recorded HZ is the recording itself.
	std::string line = sweep::run_cell(s, s.cells[0]);
	ck_assert(line.find("\"hz\":250,\"recorded_hz\":250") != std::string::npos);
	line = sweep::run_cell(s, s.cells[2]);
	ck_assert(line.find("\"hz\":1000,\"recorded_hz\":250") != std::string::npos);
}
END_TEST

// Interrupted and resumed, the sweep merges to the same bytes as one run
// straight through; the interruption leaves no partial result file.
START_TEST(interrupted_sweep_resumes_to_the_same_csv)
{
	std::string dir = temp_subdir("resume");
	std::string straight = write_spec(dir, "straight"), broken = write_spec(dir, "broken");

	cli_result r = run_timersim({"sweep", straight, "-j", "2"});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	ck_assert(r.out.find("20 cells, 0 done before, 0 stale, 20 run now, 0 failed") != std::string::npos);
	std::string want = merged(straight);
	ck_assert_uint_eq(std::count(want.begin(), want.end(), '\n'), 21);

	// Start the other, stop it (SIGTERM to its process group) after a few cells.
	pid_t pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		std::string bin = timersim_bin();
		execl(bin.c_str(), bin.c_str(), "sweep", broken.c_str(), "-j", "1", (char *)nullptr);
		_exit(127);
	}
	setpgid(pid, pid);
	std::string cells = dir + "/broken/cells";
	auto t0 = std::chrono::steady_clock::now();
	while (count_files(cells, ".json") < 4 && std::chrono::steady_clock::now() - t0 < std::chrono::seconds(60))
		std::this_thread::sleep_for(std::chrono::milliseconds(5));
	kill(-pid, SIGTERM);
	int status = 0;
	waitpid(pid, &status, 0);
	ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM, "the sweep was not stopped by SIGTERM");
	std::this_thread::sleep_for(std::chrono::milliseconds(200));	// cells still running end too
	std::size_t others = 0, done = count_files(cells, ".json", &others);
	ck_assert_msg(done >= 4 && done < 20, "%zu cells done when interrupted", done);
	ck_assert_msg(others == 0, "%zu partial files left behind", others);
	r = run_timersim({"merge", broken});
	ck_assert_int_eq(r.status, 2);
	ck_assert(r.err.find("have no result yet") != std::string::npos);

	r = run_timersim({"sweep", broken, "-j", "2"});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	ck_assert_msg(r.out.find(std::to_string(done) + " done before, 0 stale, " + std::to_string(20 - done) + " run now") !=
			      std::string::npos,
		      "%s", r.out.c_str());
	ck_assert(merged(broken) == want);

	// Nothing left to do: nothing runs again.
	r = run_timersim({"sweep", broken});
	ck_assert(r.out.find("20 done before, 0 stale, 0 run now") != std::string::npos);
}
END_TEST

// GNU parallel, for real: the emitted job list with local jobs, then with
// --sshloginfile naming this machine as ':', with --joblog and
// --resume-failed; Slurm: the emitted script run once per array task with
// SLURM_ARRAY_TASK_ID set. All merge to the local sweep's CSV.
START_TEST(parallel_and_slurm_give_the_same_csv)
{
	if (shell("parallel --version >/dev/null 2>&1") != 0) {
		skip_note("GNU parallel is not installed (scripts/setup.sh installs it): parallel not tested");
		return;
	}
	std::string dir = temp_subdir("engines");
	std::string local = write_spec(dir, "local");
	ck_assert_int_eq(run_timersim({"sweep", local}).status, 0);
	std::string want = merged(local);

	// parallel, local jobs.
	std::string spec = write_spec(dir, "par");
	cli_result r = run_timersim({"sweep", spec, "--emit", "parallel", "-o", dir + "/jobs.txt"});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	std::string jobs = read_whole_file(dir + "/jobs.txt");
	ck_assert_uint_eq(std::count(jobs.begin(), jobs.end(), '\n'), 20);
	ck_assert(jobs.find(" --cell ") != std::string::npos);
	ck_assert_int_eq(shell("cd / && parallel --will-cite -j 2 --joblog " + dir + "/par.log < " + dir +
			       "/jobs.txt 2>/dev/null"),
			 0);
	ck_assert(merged(spec) == want);
	std::string log = read_whole_file(dir + "/par.log");
	ck_assert_uint_eq(std::count(log.begin(), log.end(), '\n'), 21);	// a header and 20 jobs
	// --resume-failed: everything succeeded, nothing runs again.
	ck_assert_int_eq(shell("cd / && parallel --will-cite -j 2 --joblog " + dir + "/par.log --resume-failed < " +
			       dir + "/jobs.txt 2>/dev/null"),
			 0);
	log = read_whole_file(dir + "/par.log");
	ck_assert_uint_eq(std::count(log.begin(), log.end(), '\n'), 21);

	// parallel through its ssh-login machinery, this machine as ':'.
	spec = write_spec(dir, "ssh");
	r = run_timersim({"sweep", spec, "--emit", "parallel", "-o", dir + "/jobs2.txt"});
	ck_assert_int_eq(r.status, 0);
	std::FILE *f = std::fopen((dir + "/hosts").c_str(), "w");
	std::fputs("2/:\n", f);
	std::fclose(f);
	ck_assert_int_eq(shell("cd / && parallel --will-cite --sshloginfile " + dir + "/hosts --joblog " + dir +
			       "/ssh.log < " + dir + "/jobs2.txt 2>/dev/null"),
			 0);
	ck_assert(merged(spec) == want);

	// Slurm: the array script, task by task.
	spec = write_spec(dir, "slurm");
	r = run_timersim({"sweep", spec, "--emit", "slurm", "-o", dir + "/sweep.sbatch"});
	ck_assert_int_eq(r.status, 0);
	std::string script = read_whole_file(dir + "/sweep.sbatch");
	ck_assert(script.find("#SBATCH --array=0-19\n") != std::string::npos);
	ck_assert_int_ne(shell("env -u SLURM_ARRAY_TASK_ID bash " + dir + "/sweep.sbatch 2>/dev/null"), 0);
	for (int task = 19; task >= 0; task--)
		ck_assert_int_eq(shell("cd / && SLURM_ARRAY_TASK_ID=" + std::to_string(task) + " bash " + dir +
				       "/sweep.sbatch 2>/dev/null"),
				 0);
	ck_assert(merged(spec) == want);
	// A task whose cell is done does nothing and succeeds (resubmission).
	ck_assert_int_eq(shell("SLURM_ARRAY_TASK_ID=3 bash " + dir + "/sweep.sbatch 2>/dev/null"), 0);
	ck_assert_int_ne(shell("SLURM_ARRAY_TASK_ID=20 bash " + dir + "/sweep.sbatch 2>/dev/null"), 0);
}
END_TEST

int main()
{
	Suite *s = suite_create("sweep");
	TCase *tc = tcase_create("sweep");
	tcase_set_timeout(tc, 180);
	tcase_add_test(tc, spec_cells_and_ids);
	tcase_add_test(tc, spec_errors_name_the_line);
	tcase_add_test(tc, result_lines_are_reproducible);
	tcase_add_test(tc, interrupted_sweep_resumes_to_the_same_csv);
	tcase_add_test(tc, parallel_and_slurm_give_the_same_csv);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
