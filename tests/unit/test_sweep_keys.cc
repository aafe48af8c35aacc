// A sweep cell's key (sim/sweep/cell_key.h): SHA-256 against its test
// vectors, and a resumed sweep re-running exactly the cells whose program,
// trace bytes or calibration changed, saying why; merge refusing results
// made under another key. The "other program" is a real second build id:
// a copy of the timersim binary with a byte appended (still the same ELF,
// other bytes, so another exe-sha256).
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/sweep/cell_key.h"
#include "sim/sweep/digest.h"
#include "sim/sweep/run.h"
#include "sim/sweep/spec.h"
#include "tests/support/cli.h"
#include "tests/support/gen_trace.h"
#include "tests/support/paths.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"

using namespace timersim;
using namespace timersim::test;

namespace {

void write_file(const std::string &path, const std::string &text)
{
	std::FILE *f = std::fopen(path.c_str(), "w");
	ck_assert_msg(f, "cannot write %s", path.c_str());
	std::fwrite(text.data(), 1, text.size(), f);
	std::fclose(f);
}

void append_file(const std::string &path, const std::string &text)
{
	std::FILE *f = std::fopen(path.c_str(), "a");
	ck_assert_msg(f, "cannot append to %s", path.c_str());
	std::fwrite(text.data(), 1, text.size(), f);
	std::fclose(f);
}

// Two strings equal (named: ck_assert_str_eq would read temporaries after
// their end).
void expect_eq(const std::string &got, const std::string &want)
{
	ck_assert_msg(got == want, "got '%s', want '%s'", got.c_str(), want.c_str());
}

bool contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

// `bin ARGS` through the shell (arguments are plain test paths), stdout
// and stderr together, and its exit status.
std::string run_bin(const std::string &bin, const std::string &args, int &status)
{
	std::string out;
	std::FILE *p = popen(("'" + bin + "' " + args + " 2>&1").c_str(), "r");
	ck_assert(p);
	char buf[4096];
	std::size_t n;
	while ((n = std::fread(buf, 1, sizeof buf, p)) > 0)
		out.append(buf, n);
	int st = pclose(p);
	status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	return out;
}

const char calibration_json[] =
	"{\"schemes\": {\"classic\": {\"ns_per_unit\": 20, \"min\": 10, \"max\": 40},"
	" \"v48\": {\"ns_per_unit\": 18, \"min\": 12, \"max\": 27}}}\n";

// A recording and a workload at two seeds, classic and v48: 2 trace cells
// and 4 workload cells.
std::string write_sweep(const std::string &dir)
{
	std::string text = gen_text(gen_opts("networking:rate=60;periodic:timers=6,period=90ms", 250, 1, 1.0, 4));
	write_file(dir + "/rec.txt", text);
	write_file(dir + "/cal.json", calibration_json);
	std::string spec = dir + "/k.spec";
	write_file(spec, "trace = rec.txt\n"
			 "workload = networking:rate=40\n"
			 "duration = 500ms\n"
			 "seed = 1, 2\n"
			 "calibration = cal.json\n");
	return spec;
}

}  // namespace

START_TEST(sha256_test_vectors)
{
	// FIPS 180-2 examples.
	expect_eq(sweep::sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	expect_eq(sweep::sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	expect_eq(sweep::sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	// A file is hashed in blocks: a million 'a's spans several.
	std::string dir = temp_subdir("sha");
	write_file(dir + "/a", std::string(1000000, 'a'));
	expect_eq(sweep::sha256_file(dir + "/a"), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}
END_TEST

// A folder input (a CTF trace): its files' names and bytes make its hash,
// so that editing, adding or renaming one makes the cells stale.
START_TEST(folder_input_hash)
{
	std::string dir = temp_subdir("ctf-like");
	temp_subdir("ctf-like/sub");
	write_temp("ctf-like/metadata", "metadata");
	write_temp("ctf-like/sub/stream_0", "events");
	std::string h = sweep::sha256_input(dir);
	ck_assert_uint_eq(h.size(), 64);
	std::string again = sweep::sha256_input(dir);
	ck_assert_str_eq(again.c_str(), h.c_str());	// stable
	std::string file = sweep::sha256_input(dir + "/metadata"), bytes = sweep::sha256_file(dir + "/metadata");
	ck_assert_str_eq(file.c_str(), bytes.c_str());
	write_temp("ctf-like/sub/stream_0", "eventz");
	std::string edited = sweep::sha256_input(dir);
	ck_assert_str_ne(edited.c_str(), h.c_str());
	ck_assert_int_eq(std::rename((dir + "/sub/stream_0").c_str(), (dir + "/sub/stream_1").c_str()), 0);
	std::string renamed = sweep::sha256_input(dir);
	ck_assert_str_ne(renamed.c_str(), edited.c_str());
}
END_TEST

START_TEST(result_records_its_key)
{
	std::string dir = temp_subdir("record");
	std::string spec = write_sweep(dir);
	cli_result r = run_timersim({"sweep", spec, "-j", "2"});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	sweep::spec s = sweep::load_spec(spec);
	ck_assert_uint_eq(s.cells.size(), 6);
	nlohmann::json j = nlohmann::json::parse(read_whole_file(s.result_path(s.cells[0])));
	expect_eq(j["key_of"]["trace"].get<std::string>(), sweep::sha256_file(dir + "/rec.txt"));
	expect_eq(j["key_of"]["calibration"].get<std::string>(), sweep::sha256_file(dir + "/cal.json"));
	expect_eq(j["key_of"]["options"].get<std::string>(), s.cells[0].key);
	std::string program = j["key_of"]["program"].get<std::string>();
	ck_assert_msg(program == "timersim 0.2.0 exe-sha256:" + sweep::sha256_file(timersim_bin()), "%s",
		      program.c_str());
	ck_assert_uint_eq(j["key"].get<std::string>().size(), 64);
	// A workload cell reads no trace.
	nlohmann::json w = nlohmann::json::parse(read_whole_file(s.result_path(s.cells[2])));
	expect_eq(w["key_of"]["trace"].get<std::string>(), "");

	// The calibration's spread is the estimate's interval: units x min, x max.
	double units = j["softirq_units"].get<double>();
	ck_assert(units > 0);
	ck_assert(j["scheme"] == "classic");
	ck_assert_double_eq_tol(j["softirq_us"].get<double>(), units * 20 / 1e3, 1e-3);
	ck_assert_double_eq_tol(j["softirq_us_lo"].get<double>(), units * 10 / 1e3, 1e-3);
	ck_assert_double_eq_tol(j["softirq_us_hi"].get<double>(), units * 40 / 1e3, 1e-3);
	ck_assert_double_eq_tol(j["total_us_hi"].get<double>(), j["units"].get<double>() * 40 / 1e3, 1e-3);
}
END_TEST

// The must-hold: changing the trace's bytes, the calibration or the
// program makes a resumed sweep re-run exactly the cells that depend on it.
START_TEST(changed_inputs_and_program_rerun_their_cells)
{
	std::string dir = temp_subdir("stale");
	std::string spec = write_sweep(dir);
	cli_result r = run_timersim({"sweep", spec, "-j", "2"});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	std::string before = run_timersim({"merge", spec}).out;

	// The trace's bytes (a comment line: same events): its 2 cells only.
	append_file(dir + "/rec.txt", "# touched\n");
	r = run_timersim({"sweep", spec, "-j", "2"});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	ck_assert_msg(contains(r.out, "k.spec: 2 stale: the trace changed\n"), "%s", r.out.c_str());
	ck_assert_msg(contains(r.out, "6 cells, 4 done before, 2 stale, 2 run now, 0 failed"), "%s", r.out.c_str());
	ck_assert(run_timersim({"merge", spec}).out == before);	// the same events: the same numbers

	// The calibration: every cell (each estimate reads it).
	write_file(dir + "/cal.json", std::string(calibration_json).replace(std::string(calibration_json).find("20"), 2,
									      "40"));
	r = run_timersim({"sweep", spec, "-j", "2"});
	ck_assert_msg(contains(r.out, "k.spec: 6 stale: the calibration changed\n"), "%s", r.out.c_str());
	ck_assert_msg(contains(r.out, "0 done before, 6 stale, 6 run now, 0 failed"), "%s", r.out.c_str());
	std::string doubled = run_timersim({"merge", spec}).out;
	ck_assert(doubled != before);

	// The program: another build of timersim (other bytes).
	std::string other = dir + "/timersim-other";
	ck_assert_int_eq(std::system(("cp '" + timersim_bin() + "' '" + other + "'").c_str()), 0);
	append_file(other, std::string(1, '\0'));
	int status = 0;
	std::string out = run_bin(other, "sweep '" + spec + "' -j 2", status);
	ck_assert_msg(status == 0, "%s", out.c_str());
	ck_assert_msg(contains(out, "k.spec: 6 stale: the program changed\n"), "%s", out.c_str());
	// ... whose results this program does not merge as its own.
	r = run_timersim({"merge", spec});
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(contains(r.err, "6 stale: the program changed (0, 1, 2, 3, 4, 5): run the sweep again"), "%s",
		      r.err.c_str());
	// With --list, each cell says why.
	r = run_timersim({"sweep", spec, "--list"});
	ck_assert_msg(contains(r.out, ",stale: the program changed,"), "%s", r.out.c_str());
	// Run again by this program: all 6 again, then nothing.
	r = run_timersim({"sweep", spec, "-j", "2"});
	ck_assert_msg(contains(r.out, "0 done before, 6 stale, 6 run now"), "%s", r.out.c_str());
	r = run_timersim({"sweep", spec});
	ck_assert_msg(contains(r.out, "6 done before, 0 stale, 0 run now"), "%s", r.out.c_str());
	ck_assert(run_timersim({"merge", spec}).out == doubled);

	// A result written without a key (an older timersim) is not trusted.
	sweep::spec s = sweep::load_spec(spec);
	std::string line = read_whole_file(s.result_path(s.cells[3]));
	write_file(s.result_path(s.cells[3]), line.substr(0, line.find(",\"key\":")) + "}\n");
	r = run_timersim({"sweep", spec, "--cell", "3"});
	ck_assert_msg(r.status == 0 && contains(r.err, "cell 3 (" + s.cells[3].id + ") done"), "%s", r.err.c_str());
	ck_assert(read_whole_file(s.result_path(s.cells[3])) == line);
}
END_TEST

int main()
{
	Suite *s = suite_create("sweep_keys");
	TCase *tc = tcase_create("sweep_keys");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, sha256_test_vectors);
	tcase_add_test(tc, folder_input_hash);
	tcase_add_test(tc, result_records_its_key);
	tcase_add_test(tc, changed_inputs_and_program_rerun_their_cells);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
