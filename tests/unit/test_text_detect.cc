// Content detection: every format by what is in the file, never its name;
// missing, empty, binary and unknown input refused with a reason.
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/trace/reader.h"
#include "sim/trace/text_detect.h"
#include "tests/support/paths.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"	// last: check.h defines a fail() macro

using namespace timersim;

namespace {

const char *ftrace_lines =
	"     rcu_preempt-15      [001] d..1.   949.460791: timer_cancel: timer=00000000315ef0ae\n"
	"          <idle>-0       [000] d..3.   949.460796: timer_base_idle: is_idle=1 cpu=0\n";
const char *ftrace_4col_lines =
	"     kworker/0:1-100   [000] ..s.  1000.000002: timer_init: timer=ffff88001d49b8c0\n";
const char *trace_cmd_lines =
	"     rcu_preempt-15    [001]   949.460788: timer_cancel:         timer=0xffffc9000007fdf8\n"
	"          <idle>-0     [000]   949.460796: timer_base_idle:      is_idle=1 cpu=0\n";
const char *perf_lines =
	"     rcu_preempt    15 [000]   975.992262:           timer:timer_init: timer=0xffffc9000007fdf8\n"
	"    workload2.sh 14385 [001]   975.992249:         timer:timer_cancel: timer=0xffff888627d28f50\n";

// What a file with CONTENT detects as; the error's what() goes to ERR.
trace_format detect(const std::string &name, const std::string &content, std::string *err = nullptr)
{
	std::string path = test::write_temp(name, content);
	try {
		return detect_trace_format(path);
	} catch (const input_error &e) {
		if (err)
			*err = e.what();
		return trace_format::auto_detect;
	}
}

std::string detect_error(const std::string &name, const std::string &content)
{
	std::string err;
	ck_assert(detect(name, content, &err) == trace_format::auto_detect);
	return err;
}

}  // namespace

START_TEST(ftrace_by_header_and_by_lines)
{
	ck_assert(detect("a", std::string("# tracer: nop\n#\n") + trace_cmd_lines) ==
		  trace_format::ftrace);	// the header wins (irq-info off)
	ck_assert(detect("b", ftrace_lines) == trace_format::ftrace);	// trace_pipe: no header
	ck_assert(detect("c", ftrace_4col_lines) == trace_format::ftrace);
	ck_assert(detect("d", "  bash-1234  (   1234) [001] d..1.  1.000001: timer_init: timer=1\n") ==
		  trace_format::ftrace);
}
END_TEST

START_TEST(trace_cmd_report_by_header_and_by_lines)
{
	ck_assert(detect("a", std::string("cpus=2\n") + ftrace_lines) ==
		  trace_format::trace_cmd_report);
	ck_assert(detect("b", trace_cmd_lines) == trace_format::trace_cmd_report);
}
END_TEST

START_TEST(perf_script_by_lines)
{
	ck_assert(detect("a", perf_lines) == trace_format::perf_script);
	ck_assert(detect("b", "  Web Content  4242/4250 [000]   1.000000001:  timer:timer_cancel: timer=0x1\n") ==
		  trace_format::perf_script);
	ck_assert(detect("c", std::string("# ========\n# captured on    : Sat Nov 21\n") + perf_lines) ==
		  trace_format::perf_script);
}
END_TEST

START_TEST(names_do_not_matter)
{
	ck_assert(detect("trace.dat", perf_lines) == trace_format::perf_script);
	ck_assert(detect("perf-script.txt", ftrace_lines) == trace_format::ftrace);
}
END_TEST

START_TEST(gzip_is_looked_into)
{
	auto gz = [](const std::string &name, const std::string &content) {
		return detect_trace_format(test::write_temp_gzip(name, content));
	};
	ck_assert(gz("a.gz", ftrace_lines) == trace_format::ftrace);
	ck_assert(gz("b.gz", trace_cmd_lines) == trace_format::trace_cmd_report);
	ck_assert(gz("c", perf_lines) == trace_format::perf_script);
	try {
		gz("d.gz", std::string("\0\1\2\3binary\0", 11));
		ck_abort_msg("gzip of binary data detected as a trace");
	} catch (const input_error &e) {
		ck_assert_msg(e.reason().find("binary") != std::string::npos &&
			      e.reason().find("gzip") != std::string::npos, "%s", e.what());
	}
}
END_TEST

START_TEST(binary_formats_by_magic)
{
	std::string dat("\x17\x08\x44tracing6\0", 12);
	dat += std::string(100, '\0');
	ck_assert(detect("x.txt", dat) == trace_format::trace_dat);
	std::string dir = test::temp_subdir("ctfdir");
	test::write_temp("ctfdir/metadata", "/* CTF 1.8 */\ntrace { major = 1; };\n");
	test::write_temp("ctfdir/channel0_0", std::string("\xc1\x1f\xfc\xc1", 4) + std::string(60, '\0'));
	ck_assert(detect_trace_format(dir) == trace_format::ctf);
	ck_assert(detect_trace_format(dir + "/metadata") == trace_format::ctf);
	ck_assert(detect_trace_format(dir + "/channel0_0") == trace_format::ctf);
	std::string plain = test::temp_subdir("plaindir");
	try {
		detect_trace_format(plain);
		ck_abort_msg("a directory without metadata detected");
	} catch (const input_error &e) {
		ck_assert_msg(std::string(e.what()).starts_with(plain + ": "), "%s", e.what());
		ck_assert_msg(e.reason().find("metadata") != std::string::npos, "%s", e.what());
	}
}
END_TEST

START_TEST(refused_input)
{
	std::string path = test::write_temp("gone", "") + "-missing";
	try {
		detect_trace_format(path);
		ck_abort_msg("a missing file detected");
	} catch (const input_error &e) {
		std::string want = path + ": cannot open: No such file or directory";
		ck_assert_str_eq(e.what(), want.c_str());
	}
	std::string err = detect_error("empty", "");
	ck_assert_msg(err.ends_with("/empty: empty file"), "%s", err.c_str());
	err = detect_error("nul", std::string("abc\0def\n", 8));
	ck_assert_msg(err.ends_with("/nul: binary data (NUL bytes), not a text trace"), "%s", err.c_str());
	std::string noise;
	for (int i = 0; i < 4096; i++)
		noise += char(1 + (i * 7919) % 255);
	err = detect_error("noise", noise);
	ck_assert_msg(err.find("binary data") != std::string::npos, "%s", err.c_str());
	err = detect_error("prose", "Dear diary,\ntoday I traced nothing.\n");
	ck_assert_msg(err.find("no line looks like") != std::string::npos, "%s", err.c_str());
	// open_trace refuses the same way.
	reader_options opt;
	try {
		open_trace(test::write_temp("prose2", "hello\n"), trace_format::auto_detect, opt);
		ck_abort_msg("prose opened as a trace");
	} catch (const input_error &e) {
		ck_assert_msg(e.reason().find("no line looks like") != std::string::npos, "%s", e.what());
	}
}
END_TEST

// A pipe cannot be read twice: detection must not eat what the reader needs.
START_TEST(pipe_detected_then_read)
{
	std::string fifo = test::temp_subdir("fifo") + "/trace";
	ck_assert_int_eq(mkfifo(fifo.c_str(), 0600), 0);
	std::string text = std::string("cpus=2\n") + trace_cmd_lines;
	pid_t child = fork();
	if (child == 0) {
		FILE *f = std::fopen(fifo.c_str(), "w");
		std::fwrite(text.data(), 1, text.size(), f);
		std::fclose(f);
		_exit(0);
	}
	reader_options opt;
	auto r = open_trace(fifo, trace_format::auto_detect, opt);
	ck_assert(r->format() == trace_format::trace_cmd_report);
	ck_assert_uint_eq(r->declared_cpus(), 2);
	auto evs = test::read_all(*r);
	ck_assert_uint_eq(evs.size(), 2);
	ck_assert(evs[1].kind == event_kind::timer_base_idle);
	ck_assert_uint_eq(r->stats().bytes, text.size());
	int status = 0;
	waitpid(child, &status, 0);
}
END_TEST

START_TEST(head_problems)
{
	ck_assert_str_eq(text_head_problem(""), "empty file");
	ck_assert_ptr_null(text_head_problem("plain text\twith tabs\r\n"));
	ck_assert_ptr_null(text_head_problem("task \xc3\xa9t\xc3\xa9-12 [000]\n"));	// UTF-8 is text
	ck_assert_ptr_nonnull(text_head_problem(std::string_view("a\0b", 3)));
}
END_TEST

START_TEST(shared_traces_detected)
{
	struct {
		const char *rel;
		trace_format want;
	} cases[] = {
		{"linux-3.6-scp_dest/trace.txt", trace_format::ftrace},
		{"linux-6.18-http/trace.txt", trace_format::ftrace},
		{"linux-6.18-http/trace-cmd-report.txt", trace_format::trace_cmd_report},
		{"linux-6.18-http/trace.dat", trace_format::trace_dat},
		{"linux-6.18-tcp/perf-script.txt", trace_format::perf_script},
		{"linux-3.6-scp_dest/ctf", trace_format::ctf},
	};
	for (const auto &c : cases) {
		std::string path = test::shared_trace(c.rel);
		if (path.empty()) {
			test::skip_note(std::string("../shared/traces/") + c.rel + " absent");
			continue;
		}
		trace_format got = detect_trace_format(path);
		ck_assert_msg(got == c.want, "%s detected as %s", c.rel, trace_format_name(got));
	}
}
END_TEST

static Suite *detect_suite()
{
	Suite *s = suite_create("text_detect");
	TCase *tc = tcase_create("detect");
	tcase_add_test(tc, ftrace_by_header_and_by_lines);
	tcase_add_test(tc, trace_cmd_report_by_header_and_by_lines);
	tcase_add_test(tc, perf_script_by_lines);
	tcase_add_test(tc, names_do_not_matter);
	tcase_add_test(tc, gzip_is_looked_into);
	tcase_add_test(tc, binary_formats_by_magic);
	tcase_add_test(tc, refused_input);
	tcase_add_test(tc, pipe_detected_then_read);
	tcase_add_test(tc, head_problems);
	tcase_add_test(tc, shared_traces_detected);
	suite_add_tcase(s, tc);
	return s;
}

int main()
{
	return timersim::test::run_suite(detect_suite());
}
