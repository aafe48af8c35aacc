// Sweeps given hostile or broken input: a SPEC in a folder whose name
// holds a newline (the emitted scripts must not run what it spells), SPECs
// every cell would reject, SPECs that would multiply past the cap on cells
// or hold endless lines, devices, FIFOs and huge files as a SPEC, a
// calibration or a result, a result holding a number past a double, and
// an empty --cell. Each is refused with exit status 2 naming the file and
// the line (or offset), in bounded time and memory.
//
// Commands that would run away before the fixes run watched: killed past
// 1.5 GiB of memory or 60 s, so a regression fails the test, not the
// machine. Devices and FIFOs are made in a temporary folder, never /dev's.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
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

bool contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

bool exists(const std::string &path)
{
	struct stat st;
	return lstat(path.c_str(), &st) == 0;
}

void write_file(const std::string &path, const std::string &text)
{
	std::FILE *f = std::fopen(path.c_str(), "w");
	ck_assert_msg(f, "cannot write %s", path.c_str());
	std::fwrite(text.data(), 1, text.size(), f);
	std::fclose(f);
}

// A one-cell sweep that runs in a blink.
const char *tiny_spec = "workload = networking:rate=20\nduration = 200ms\nscheme = classic\n";

// A small recording beside the SPECs that name one.
std::string recording(const std::string &dir, const std::string &name = "rec.txt")
{
	std::string path = dir + "/" + name;
	write_file(path, gen_text(gen_opts("networking:rate=40", 250, 1, 1.0)));
	return path;
}

// run_timersim(), watched: killed (status -1, a note in err) when it holds
// more than 1.5 GiB or runs 60 s.
cli_result run_watched(const std::vector<std::string> &args)
{
	cli_limits lim;
	lim.rss_mib = 1536;
	lim.seconds = 60;
	return run_timersim_limited(args, lim);
}

int shell(const std::string &cmd)
{
	int st = std::system(cmd.c_str());
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

// A word for sh: single-quoted.
std::string sh_quoted(const std::string &s)
{
	std::string out = "'";
	for (char c : s)
		out += c == '\'' ? std::string("'\\''") : std::string(1, c);
	return out + "'";
}

// Runs a job list as GNU parallel does - each line one job, given to a
// shell - in DIR.
void run_job_lines(const std::string &jobs, const std::string &dir)
{
	std::string text = read_whole_file(jobs);
	std::size_t start = 0;
	while (start < text.size()) {
		std::size_t nl = text.find('\n', start);
		std::string line = text.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
		shell("cd " + sh_quoted(dir) + " && sh -c " + sh_quoted(line) + " >/dev/null 2>&1");
		start = nl == std::string::npos ? text.size() : nl + 1;
	}
}

// The words sbatch reads from a #SBATCH line (its _get_argument(): blanks
// part words, a backslash takes the next byte as it is, quotes group, an
// unquoted # ends the line), then the %-expansion of a file name (%% is %).
std::vector<std::string> sbatch_words(const std::string &line)
{
	std::vector<std::string> words;
	std::string w;
	bool in_word = false, escape = false;
	char quote = 0;
	for (char c : line) {
		if (escape) {
			w += c;
			escape = false;
			in_word = true;
		} else if (c == '\\') {
			escape = true;
		} else if (quote) {
			if (c == quote)
				quote = 0;
			else
				w += c;
		} else if (c == '"' || c == '\'') {
			quote = c;
			in_word = true;
		} else if (c == '#') {
			break;
		} else if (c == ' ' || c == '\t') {
			if (in_word)
				words.push_back(w);
			w.clear();
			in_word = false;
		} else {
			w += c;
			in_word = true;
		}
	}
	if (in_word)
		words.push_back(w);
	return words;
}

std::string slurm_file_name(const std::string &pattern)
{
	std::string out;
	for (std::size_t i = 0; i < pattern.size(); i++) {
		if (pattern[i] == '%' && i + 1 < pattern.size() && pattern[i + 1] == '%')
			i++;
		out += pattern[i];
	}
	return out;
}

// A stand-in for timersim that writes the words it was given, one a line.
std::string stub(const std::string &dir, const std::string &name, const std::string &log)
{
	std::string path = dir + "/" + name;
	write_file(path, "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done >> " + sh_quoted(log) + "\n");
	chmod(path.c_str(), 0755);
	return path;
}

}  // namespace

// A newline in the SPEC's folder or file name would end the line it is
// printed on: a job of its own in parallel's list, a command after the
// Slurm script's comment. Emitting refuses it; and what the old emitter
// wrote, run, ran the injected `touch PWNED`.
START_TEST(emit_refuses_control_characters_in_paths)
{
	std::string dir = temp_subdir("inject");
	struct {
		std::string folder, file;
	} cases[] = {
		{"x\ntouch PWNED #", "a.spec"},
		{"plain", "b\ntouch PWNED #.spec"},
		{"tab\there", "c\rtouch PWNED.spec"},
	};
	for (const auto &c : cases) {
		std::string folder = dir + "/" + c.folder;
		mkdir(folder.c_str(), 0700);
		std::string spec = folder + "/" + c.file;
		write_file(spec, tiny_spec);
		for (const char *engine : {"parallel", "slurm"}) {
			std::string jobs = dir + "/jobs-" + engine;
			unlink(jobs.c_str());
			cli_result r = run_timersim({"sweep", spec, "--emit", engine, "-o", jobs});
			if (exists(jobs)) {
				if (std::string(engine) == "parallel")
					run_job_lines(jobs, dir);
				else
					shell("cd " + sh_quoted(dir) + " && SLURM_ARRAY_TASK_ID=0 bash " + sh_quoted(jobs) +
					      " >/dev/null 2>&1");
			}
			ck_assert_msg(!exists(dir + "/PWNED"), "--emit %s of %s: the injected command ran", engine,
				      spec.c_str());
			ck_assert_msg(r.status == 2, "--emit %s of a path with a control character: status %d", engine,
				      r.status);
			ck_assert_msg(contains(r.err, "control character") && !contains(r.err, "\n\n") &&
					      std::count(r.err.begin(), r.err.end(), '\n') == 1,
				      "%s", r.err.c_str());
			ck_assert(!exists(jobs));
		}
	}
}
END_TEST

// Quotes, $( ), globs, blanks, %, # and parallel's {} in the folder's name
// hold: run with a stub for timersim, the job list and the Slurm script hand
// it the SPEC's path whole, and Slurm's --output names the sweep's folder.
START_TEST(emitted_scripts_keep_odd_names_whole)
{
	std::string dir = temp_subdir("odd");
	std::string folder = dir + "/q'u\"o $(touch PWNED) `touch PWNED` *.spec ;touch PWNED; %a #{} {.} &";
	ck_assert_int_eq(mkdir(folder.c_str(), 0700), 0);
	std::string spec = folder + "/s p'e\"c.spec";
	write_file(spec, tiny_spec);
	write_file(folder + "/other.spec", "");	// for the glob to find
	std::string log = dir + "/args";
	std::string bin = stub(folder, "time r'sim $(x)", log);
	sweep::spec s = sweep::load_spec(spec);
	ck_assert_uint_eq(s.cells.size(), 1);

	std::string jobs = sweep::emit_parallel(s, bin);
	write_file(dir + "/jobs.txt", jobs);
	ck_assert_uint_eq(std::count(jobs.begin(), jobs.end(), '\n'), 1);
	run_job_lines(dir + "/jobs.txt", dir);
	std::string want = "sweep\n" + spec + "\n--cell\n" + s.cells[0].id + "\n";
	std::string got = read_whole_file(log);
	ck_assert_msg(got == want, "the stub was given:\n%s", got.c_str());
	if (shell("parallel --version >/dev/null 2>&1") == 0) {
		unlink(log.c_str());
		ck_assert_int_eq(shell("cd " + sh_quoted(dir) + " && parallel --will-cite < jobs.txt"), 0);
		got = read_whole_file(log);
		ck_assert_msg(got == want, "through parallel the stub was given:\n%s", got.c_str());
	}
	unlink(log.c_str());

	std::string script = sweep::emit_slurm(s, bin);
	write_file(dir + "/sweep.sbatch", script);
	ck_assert_int_eq(shell("cd " + sh_quoted(dir) + " && SLURM_ARRAY_TASK_ID=0 bash sweep.sbatch"), 0);
	got = read_whole_file(log);
	ck_assert_msg(got == "sweep\n" + spec + "\n--task\n0\n", "the Slurm script gave the stub:\n%s", got.c_str());
	std::size_t at = script.find("#SBATCH --output=");
	ck_assert(at != std::string::npos);
	std::string line = script.substr(at + 7, script.find('\n', at) - at - 7);
	std::vector<std::string> words = sbatch_words(line);
	ck_assert_uint_eq(words.size(), 1);
	got = slurm_file_name(words[0]);
	ck_assert_msg(got == "--output=" + folder + "/s p'e\"c.d/slurm-%A_%a.out", "sbatch reads %s", got.c_str());
	ck_assert(!exists(dir + "/PWNED") && !exists(folder + "/PWNED"));

	// A backslash would turn Slurm's %A/%a off (every task one log).
	std::string slashed = dir + "/back\\slash";
	mkdir(slashed.c_str(), 0700);
	write_file(slashed + "/a.spec", tiny_spec);
	sweep::spec t = sweep::load_spec(slashed + "/a.spec");
	ck_assert(contains(sweep::emit_parallel(t, bin), "back\\slash"));
	try {
		sweep::emit_slurm(t, bin);
		ck_abort_msg("a folder with a backslash went into #SBATCH --output");
	} catch (const usage_error &e) {
		ck_assert_msg(contains(e.what(), "backslash"), "%s", e.what());
	}
}
END_TEST

// What every cell would reject is refused before any runs, --list
// included, at the SPEC's line; --list's CSV quotes a cell holding ".
START_TEST(list_validates_the_whole_spec)
{
	std::string dir = temp_subdir("validate");
	recording(dir);
	write_file(dir + "/calib.json", "{\"schemes\": {\"classic\": {\"ns_per_unit\": 2.5}}}");
	struct {
		std::string text, says;
	} cases[] = {
		{"workload = networking:rate=5\nscale = 1e308\n", "bad.spec:2: scale: gen: --scale must be in"},
		{"workload = networking:rate=5\nduration = 2d\n", "bad.spec:2: duration: gen: --duration must be"},
		{"trace = rec.txt\ntrace = nowhere.txt\n", "bad.spec:2: trace: "},
		{"trace = rec.txt\ncalibration = nowhere.json\n", "bad.spec:2: calibration: "},
		{"trace = rec.txt\n\ncalibration = rec.txt\n", "bad.spec:3: calibration: "},
		{"trace = calib.json\n", "bad.spec:1: trace: "},
		{"trace = rec.txt\nworkload = networking:rate=5\nscale = 1, 2e6\n", "bad.spec:3: scale: gen: --scale"},
	};
	for (const auto &c : cases) {
		write_file(dir + "/bad.spec", c.text);
		cli_result r = run_timersim({"sweep", dir + "/bad.spec", "--list"});
		ck_assert_msg(r.status == 2 && contains(r.err, c.says), "%s -> %d %s", c.text.c_str(), r.status,
			      r.err.c_str());
		ck_assert(r.out.empty());
	}
	// The same SPEC with its inputs right is listed.
	write_file(dir + "/good.spec", "trace = rec.txt\ncalibration = calib.json\nworkload = networking:rate=5\n"
				       "scale = 1, 2\nduration = 1d\n");
	cli_result r = run_timersim({"sweep", dir + "/good.spec", "--list"});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	ck_assert_uint_eq(std::count(r.out.begin(), r.out.end(), '\n'), 7);

	// A path holding a quote and a comma: one CSV field, quotes doubled.
	recording(dir, "a\"b,c.txt");
	write_file(dir + "/quote.spec", "trace = a\"b,c.txt\nscheme = classic\n");
	r = run_timersim({"sweep", dir + "/quote.spec", "--list"});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	ck_assert_msg(contains(r.out, ",no,\"v1|trace=a\"\"b,c.txt|what_if_hz=recorded|scheme=classic|params=|"
				      "geometry=normal\","),
		      "%s", r.out.c_str());
}
END_TEST

// Lines are bounded (1 MiB; a path or a mixture 4096 bytes, since it is
// copied into every cell), control characters refused, and the work is the
// input's: a long value no longer costs its length once per cell.
START_TEST(long_lines_and_control_characters)
{
	std::string dir = temp_subdir("long");
	struct {
		std::string text, says;
	} cases[] = {
		{"trace = x.txt\n# " + std::string(2u << 20, 'x') + "\n", "bad.spec:2: a line longer than 1 MiB"},
		{"trace = " + std::string(5000, 'x') + "\nwhat_if_hz = 100, 250, 300, 1000\n",
		 "bad.spec:1: 'trace' is longer than 4096 bytes"},
		{"workload = networking:rate=1," + std::string(5000, 'x') + "\n", "bad.spec:1: 'workload' is longer"},
		{"trace = x.txt\n" + std::string(500000, 'y') + "\n", "bad.spec:2: expected KEY = VALUE, got 'yyy"},
		{"trace = x.txt\n" + std::string(500000, 'y') + " = 1\n", "bad.spec:2: unknown key 'yyy"},
		{"trace = x.txt\nscheme = classic\x1b[2J, v48\n", "bad.spec:2: a control character (0x1b) at column 17"},
		{"trace = x.txt\r\nscheme = classic\rv48\r\n", "bad.spec:2: a control character (0x0d)"},
		{std::string("trace = x\0.txt\n", 15), "bad.spec:1: a control character (0x00) at column 10"},
		// The result lines are JSON: UTF-8 only (this was an internal error).
		{"trace = caf\xe9.txt\n", "bad.spec:1: byte 0xe9 at column 12 is not UTF-8"},
		{"trace = x.txt\nworkload = networking:rate=1 # \xc3\n", "bad.spec:2: byte 0xc3 at column 32"},
	};
	for (const auto &c : cases) {
		write_file(dir + "/bad.spec", c.text);
		auto t0 = std::chrono::steady_clock::now();
		cli_result r = run_watched({"sweep", dir + "/bad.spec", "--list"});
		double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
		ck_assert_msg(r.status == 2 && contains(r.err, c.says), "%.40s... -> %d %.300s", c.text.c_str(), r.status,
			      r.err.c_str());
		ck_assert_msg(secs < 10, "%.1f s", secs);
		ck_assert_msg(r.err.size() < 2000, "a message of %zu bytes", r.err.size());
	}
	// A SPEC of many lines is read in time linear in its size.
	std::string big = "workload = networking:rate=1\n";
	while (big.size() < (15u << 20))
		big += "# " + std::string(1000, 'c') + "\n";
	write_file(dir + "/big.spec", big + "seed = 1, 2\n");
	auto t0 = std::chrono::steady_clock::now();
	cli_result r = run_watched({"sweep", dir + "/big.spec", "--list"});
	double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	ck_assert_msg(secs < 10, "15 MiB of comments took %.1f s", secs);
}
END_TEST

// Repeated param lines multiplied the cells before the cap was checked:
// 22 copies of one 32-byte line filled memory.
START_TEST(param_lines_cannot_pass_the_cap)
{
	std::string dir = temp_subdir("params");
	std::string spec = "trace = x.txt\n";
	for (int i = 0; i < 22; i++)
		spec += "param = classic:order=fifo|lifo\n";
	write_file(dir + "/rep.spec", spec);
	cli_result r = run_watched({"sweep", dir + "/rep.spec", "--list"});
	ck_assert_msg(r.status == 2 && contains(r.err, "rep.spec:3: param: classic:order given twice (first at line 2)"),
		      "%d %s", r.status, r.err.c_str());

	// One line of many values: refused at its line, before any cell.
	std::string values = "fifo";
	for (int i = 0; i < 150000; i++)
		values += i % 2 ? "|fifo" : "|lifo";
	try {
		sweep::parse_spec("trace = x.txt\nparam = classic:order=" + values + "\n", "many.spec");
		ck_abort_msg("150001 values of one parameter were accepted");
	} catch (const input_error &e) {
		ck_assert_msg(contains(e.what(), "many.spec:2: 'param' is longer than 4096 bytes"), "%s", e.what());
	}
	// Axes past the cap only together: at the input that passes it.
	std::string seeds = "seed = 1";
	for (int i = 2; i <= 30000; i++)
		seeds += "," + std::to_string(i);
	try {
		sweep::parse_spec("trace = x.txt\nworkload = networking:rate=1\nworkload = networking:rate=2\n" + seeds +
					  "\n",
				  "cap.spec");
		ck_abort_msg("120002 cells were accepted");
	} catch (const input_error &e) {
		ck_assert_msg(contains(e.what(), "cap.spec:3: the sweep has more than 100000 cells"), "%s", e.what());
	}
}
END_TEST

// /dev/zero, /dev/urandom (made here, as nodes of this folder), an endless
// FIFO and a huge file as a SPEC, as its calibration and as a result.
START_TEST(devices_fifos_and_huge_files_are_bounded)
{
	std::string dir = temp_subdir("devices");
	std::string zero = dir + "/zero", urandom = dir + "/urandom";
	bool nodes = mknod(zero.c_str(), S_IFCHR | 0600, makedev(1, 5)) == 0 &&
		     mknod(urandom.c_str(), S_IFCHR | 0600, makedev(1, 9)) == 0;
	if (!nodes)
		skip_note("mknod is not permitted here: the device cases are not tested");
	std::vector<std::pair<std::string, std::string>> specs;	// path, what the message says
	if (nodes) {
		specs.push_back({zero, "zero:1: a line longer than 1 MiB"});
		specs.push_back({urandom, "urandom:"});
	}
	std::string huge = dir + "/huge.spec";
	{
		std::string block = "trace = x.txt # " + std::string(1000, 'h') + "\n";
		std::FILE *f = std::fopen(huge.c_str(), "w");
		for (std::size_t n = 0; n < (17u << 20); n += block.size())
			std::fwrite(block.data(), 1, block.size(), f);
		std::fclose(f);
	}
	specs.push_back({huge, "huge.spec:" });
	for (const auto &[path, says] : specs) {
		cli_result r = run_watched({"sweep", path, "--list"});
		ck_assert_msg(r.status == 2 && contains(r.err, says), "%s: %d %.300s", path.c_str(), r.status,
			      r.err.c_str());
	}
	cli_result r = run_watched({"sweep", huge, "--list"});
	ck_assert_msg(contains(r.err, "the spec goes on past 16 MiB"), "%.300s", r.err.c_str());

	// An endless FIFO as the SPEC.
	std::string fifo = dir + "/fifo.spec";
	ck_assert_int_eq(mkfifo(fifo.c_str(), 0600), 0);
	pid_t writer = fork();
	if (writer == 0) {
		signal(SIGPIPE, SIG_DFL);
		int fd = open(fifo.c_str(), O_WRONLY);
		std::string line = "# " + std::string(4000, 'f') + "\n";
		while (write(fd, line.data(), line.size()) > 0) {
		}
		_exit(0);
	}
	r = run_watched({"sweep", fifo, "--list"});
	kill(writer, SIGKILL);
	waitpid(writer, nullptr, 0);
	ck_assert_msg(r.status == 2 && contains(r.err, "fifo.spec:") && contains(r.err, "goes on past 16 MiB"), "%d %.300s",
		      r.status, r.err.c_str());

	// The calibration.
	if (nodes) {
		recording(dir);
		write_file(dir + "/calib.spec", "trace = rec.txt\ncalibration = zero\n");
		r = run_watched({"sweep", dir + "/calib.spec", "--list"});
		ck_assert_msg(r.status == 2 && contains(r.err, "calib.spec:2: calibration: ") &&
				      contains(r.err, "zero:1: a line longer than 1 MiB"),
			      "%d %.300s", r.status, r.err.c_str());
		r = run_watched({"compare", "--estimate", zero, dir + "/rec.txt"});
		ck_assert_msg(r.status == 2 && contains(r.err, "zero:1: a line longer than 1 MiB"), "%d %.300s",
			      r.status, r.err.c_str());
	}

	// Results: a FIFO, a device (through a symlink) and a huge file.
	write_file(dir + "/m.spec", tiny_spec);
	r = run_timersim({"sweep", dir + "/m.spec"});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	sweep::spec s = sweep::load_spec(dir + "/m.spec");
	std::string result = s.result_path(s.cells[0]);
	unlink(result.c_str());
	ck_assert_int_eq(mkfifo(result.c_str(), 0600), 0);
	r = run_watched({"merge", dir + "/m.spec"});
	ck_assert_msg(r.status == 2 && contains(r.err, result + ": not a regular file"), "%d %.300s", r.status,
		      r.err.c_str());
	unlink(result.c_str());
	if (nodes) {
		ck_assert_int_eq(symlink(zero.c_str(), result.c_str()), 0);
		r = run_watched({"merge", dir + "/m.spec"});
		ck_assert_msg(r.status == 2 && contains(r.err, "not a regular file"), "%d %.300s", r.status,
			      r.err.c_str());
		unlink(result.c_str());
	}
	write_file(result, std::string(3u << 20, '7'));
	r = run_watched({"merge", dir + "/m.spec"});
	ck_assert_msg(r.status == 2 && contains(r.err, result + ":1: a line longer than"), "%d %.300s", r.status,
		      r.err.c_str());
}
END_TEST

// A cell's result is the sweep's own file (issue 41, defect 2): a symlink
// planted in OUT/cells/ in its place - to another file of the user, to a
// path not there yet, to a FIFO - is replaced by the result, a regular
// file; nothing is written through it, and the next sweep finds the cell
// done.
START_TEST(a_link_in_cells_is_replaced_never_written_through)
{
	std::string dir = temp_subdir("links");
	write_file(dir + "/m.spec", tiny_spec);
	cli_result r = run_timersim({"sweep", dir + "/m.spec"});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	sweep::spec s = sweep::load_spec(dir + "/m.spec");
	std::string result = s.result_path(s.cells[0]);
	std::string good = read_whole_file(result);
	std::string victim = dir + "/victim.txt", absent = dir + "/absent.txt", fifo = dir + "/fifo";
	write_file(victim, "the user's own file\n");
	ck_assert_int_eq(mkfifo(fifo.c_str(), 0600), 0);
	for (const std::string &target : {victim, absent, fifo}) {
		unlink(result.c_str());
		ck_assert_int_eq(symlink(target.c_str(), result.c_str()), 0);
		r = run_watched({"sweep", dir + "/m.spec"});
		ck_assert_msg(r.status == 0, "%s: %d %s", target.c_str(), r.status, r.err.c_str());
		struct stat st;
		ck_assert_int_eq(lstat(result.c_str(), &st), 0);
		ck_assert_msg(S_ISREG(st.st_mode), "%s: the cell is still no regular file", target.c_str());
		ck_assert_msg(read_whole_file(result) == good, "%s: the cell's result differs", target.c_str());
		std::string mine = read_whole_file(victim);
		ck_assert_msg(mine == "the user's own file\n", "%s: the link's target was written: %s",
			      target.c_str(), mine.c_str());
		ck_assert_msg(!exists(absent), "the link's target was created");
		ck_assert_msg(contains(r.out, "1 stale: not a regular file"), "%s: %s", target.c_str(),
			      r.out.c_str());
		// Done: the next sweep runs nothing.
		r = run_watched({"sweep", dir + "/m.spec"});
		ck_assert_msg(r.status == 0 && contains(r.out, "1 done before, 0 stale, 0 run now"), "%s: %s",
			      target.c_str(), r.out.c_str());
	}
	struct stat st;
	ck_assert_int_eq(lstat(fifo.c_str(), &st), 0);
	ck_assert(S_ISFIFO(st.st_mode));
}
END_TEST

// A cell edited to `"events": 1e308` (issue 41, defect 4): its replicates'
// sd and interval pass a double's range, which the summary printed as
// inf,-inf,inf. Exit 2, naming the cell's file.
START_TEST(summary_refuses_statistics_past_a_double)
{
	std::string dir = temp_subdir("summary");
	write_file(dir + "/m.spec", std::string(tiny_spec) + "seed = 1, 2\n");
	cli_result r = run_timersim({"sweep", dir + "/m.spec"});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	sweep::spec s = sweep::load_spec(dir + "/m.spec");
	ck_assert_uint_eq(s.cells.size(), 2);
	std::string result = s.result_path(s.cells[1]);
	std::string good = read_whole_file(result);
	std::size_t at = good.find("\"events\":");
	ck_assert(at != std::string::npos);
	std::size_t value = at + 9, end = good.find(',', value);
	write_file(result, good.substr(0, value) + "1e308" + good.substr(end));
	r = run_timersim({"merge", dir + "/m.spec", "--summary"});
	ck_assert_msg(r.status == 2 && contains(r.err, result + ":1: \"events\" is 1e+308: the mean, sd or interval"),
		      "%d %.400s %.400s", r.status, r.err.c_str(), r.out.c_str());
	ck_assert(r.out.empty());
	// The plain merge shows the value as it stands.
	r = run_timersim({"merge", dir + "/m.spec"});
	ck_assert_msg(r.status == 0 && contains(r.out, "1e+308"), "%d %.400s", r.status, r.err.c_str());
}
END_TEST

// A result holding a number past a double's range is bad input, not an
// internal error; so is a value that is not a number or a word.
START_TEST(merge_refuses_what_is_not_a_result)
{
	std::string dir = temp_subdir("merge");
	write_file(dir + "/m.spec", tiny_spec);
	cli_result r = run_timersim({"sweep", dir + "/m.spec"});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	sweep::spec s = sweep::load_spec(dir + "/m.spec");
	std::string result = s.result_path(s.cells[0]);
	std::string good = read_whole_file(result);
	std::size_t at = good.find("\"events\":");
	ck_assert(at != std::string::npos);
	std::size_t value = at + 9, end = good.find(',', value);
	struct {
		std::string line, says;
	} cases[] = {
		{good.substr(0, value) + "1" + std::string(400, '0') + good.substr(end),
		 ": offset " + std::to_string(value + 401) + ": not JSON: a number past the range of a double"},
		{good.substr(0, value) + "[[[[[[[[[[1]]]]]]]]]]" + good.substr(end), ":1: \"events\" is not a number"},
		{"{\"id\": 7}\n", ":1: not the result of cell"},
		{good.substr(0, 20), ": offset 21: not JSON"},	// at the line end
	};
	for (const auto &c : cases) {
		write_file(result, c.line);
		r = run_timersim({"merge", dir + "/m.spec"});
		ck_assert_msg(r.status == 2 && contains(r.err, result + c.says), "%.60s -> %d %.400s", c.line.c_str(),
			      r.status, r.err.c_str());
		ck_assert(!contains(r.err, "internal error"));
	}
	write_file(result, good);
	r = run_timersim({"merge", dir + "/m.spec"});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
}
END_TEST

// An empty --cell (a job whose id did not reach it) ran the whole sweep;
// anything but an id or a plain index is no cell.
START_TEST(cell_option_names_one_cell)
{
	std::string dir = temp_subdir("cell");
	write_file(dir + "/c.spec", "workload = networking:rate=20\nduration = 200ms\n");	// 2 cells
	for (const char *bad : {"", " 0", "+0", "-1", "0x1", "1 ", "2", "00000000000000000"}) {
		cli_result r = run_timersim({"sweep", dir + "/c.spec", "--cell", bad});
		ck_assert_msg(r.status == 2, "--cell '%s': status %d", bad, r.status);
		ck_assert_msg(!exists(dir + "/c.d/cells") || shell("[ -z \"$(ls -A " + sh_quoted(dir + "/c.d/cells") +
								   ")\" ]") == 0,
			      "--cell '%s' ran cells", bad);
	}
	cli_result r = run_timersim({"sweep", dir + "/c.spec", "--cell", "1"});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	r = run_timersim({"sweep", dir + "/c.spec", "--cell", "", "--list"});
	ck_assert_int_eq(r.status, 2);
	ck_assert(contains(r.err, "exclude each other"));
}
END_TEST

int main()
{
	Suite *s = suite_create("sweep_refusals");
	TCase *tc = tcase_create("sweep_refusals");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, emit_refuses_control_characters_in_paths);
	tcase_add_test(tc, emitted_scripts_keep_odd_names_whole);
	tcase_add_test(tc, list_validates_the_whole_spec);
	tcase_add_test(tc, long_lines_and_control_characters);
	tcase_add_test(tc, param_lines_cannot_pass_the_cap);
	tcase_add_test(tc, devices_fifos_and_huge_files_are_bounded);
	tcase_add_test(tc, a_link_in_cells_is_replaced_never_written_through);
	tcase_add_test(tc, merge_refuses_what_is_not_a_result);
	tcase_add_test(tc, summary_refuses_statistics_past_a_double);
	tcase_add_test(tc, cell_option_names_one_cell);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
