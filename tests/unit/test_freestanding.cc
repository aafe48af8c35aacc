// scripts/check-freestanding.sh must FAIL when kernel/ stops being
// freestanding. Each test builds a small kernel/ in a temporary directory
// (copies of list.h and jiffies.h plus a .cc using them), checks that the
// script passes it, then breaks it one way and checks that the script fails
// and says why. FREESTANDING_ROOT/FREESTANDING_OUT point the script there.
//
// Run from the repository root (as `make test` does), or set TIMERSIM_ROOT.
#include "tests/support/classic_fixture.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

std::string repo_root()
{
	const char *env = std::getenv("TIMERSIM_ROOT");
	std::string root = env && *env ? env : ".";
	struct stat st;
	ck_assert_msg(stat((root + "/scripts/check-freestanding.sh").c_str(), &st) == 0,
		      "scripts/check-freestanding.sh not found from %s (set TIMERSIM_ROOT)", root.c_str());
	return root;
}

struct script_result {
	int status;
	std::string output;
};

std::string slurp(const std::string &path)
{
	std::ifstream in(path);
	std::stringstream ss;
	ss << in.rdbuf();
	return ss.str();
}

void append(const std::string &path, const std::string &text)
{
	std::ofstream out(path, std::ios::app);
	out << text;
	ck_assert(out.good());
}

// A temporary root holding a healthy little kernel/.
struct sandbox {
	std::string root, dir;

	sandbox()
	{
		root = repo_root();
		char tmpl[] = "/tmp/timersim-freestanding.XXXXXX";
		ck_assert_ptr_nonnull(mkdtemp(tmpl));
		dir = tmpl;
		ck_assert_int_eq(mkdir((dir + "/kernel").c_str(), 0755), 0);
		for (const char *h : {"list.h", "jiffies.h"}) {
			std::ofstream out(dir + "/kernel/" + h);
			out << slurp(root + "/kernel/" + h);
		}
		std::ofstream cc(dir + "/kernel/probe.cc");
		cc << "#include \"kernel/jiffies.h\"\n#include \"kernel/list.h\"\n"
		      "namespace kernel {\n"
		      "bool probe(unsigned long a, unsigned long b, list_head *h)\n"
		      "{\n\tINIT_LIST_HEAD(h);\n\treturn time_after(a, b) && list_empty(h);\n}\n"
		      "}\n";
	}
	~sandbox() { std::system(("rm -rf '" + dir + "'").c_str()); }

	script_result run() const
	{
		const std::string cmd = "FREESTANDING_ROOT='" + dir + "' FREESTANDING_OUT='" + dir +
					"/out' '" + root + "/scripts/check-freestanding.sh' 2>&1";
		FILE *p = popen(cmd.c_str(), "r");
		ck_assert_ptr_nonnull(p);
		std::string out;
		char buf[4096];
		std::size_t n;
		while ((n = std::fread(buf, 1, sizeof(buf), p)) > 0)
			out.append(buf, n);
		const int st = pclose(p);
		return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, out};
	}

	// The healthy copy passes: whatever fails later is the doctoring.
	void expect_pass() const
	{
		const script_result r = run();
		ck_assert_msg(r.status == 0, "healthy kernel/ failed:\n%s", r.output.c_str());
	}

	void expect_fail(const char *why) const
	{
		const script_result r = run();
		ck_assert_msg(r.status != 0, "script passed though it should fail (%s):\n%s", why, r.output.c_str());
		ck_assert_msg(r.output.find(why) != std::string::npos, "no \"%s\" in:\n%s", why, r.output.c_str());
	}
};

}  // namespace

START_TEST(hosted_header)
{
	sandbox s;
	s.expect_pass();
	append(s.dir + "/kernel/list.h", "#include <vector>\n");
	s.expect_fail("hosted header: kernel/list.h");
}
END_TEST

START_TEST(outside_symbol)
{
	sandbox s;
	s.expect_pass();
	append(s.dir + "/kernel/probe.cc",
	       "extern \"C\" int puts(const char *);\nint say(void) { return puts(\"hi\"); }\n");
	s.expect_fail("references outside symbols: puts");
}
END_TEST

// A quoted include is searched on the system path too.
START_TEST(quoted_hosted_include)
{
	sandbox s;
	s.expect_pass();
	append(s.dir + "/kernel/jiffies.h", "#include \"vector\"\n");
	s.expect_fail("include outside kernel/");
}
END_TEST

START_TEST(include_outside_kernel)
{
	sandbox s;
	s.expect_pass();
	append(s.dir + "/kernel/probe.cc", "#include \"sim/base/errors.h\"\n");
	s.expect_fail("include outside kernel/: kernel/probe.cc");
}
END_TEST

// A header no .cc includes is still compiled with the kernel's flags.
START_TEST(lone_header_with_exceptions)
{
	sandbox s;
	s.expect_pass();
	append(s.dir + "/kernel/lonely.h", "#pragma once\ninline void boom() { throw 1; }\n");
	s.expect_fail("kernel/lonely.h does not compile on its own");
}
END_TEST

START_TEST(rtti_in_source)
{
	sandbox s;
	s.expect_pass();
	append(s.dir + "/kernel/probe.cc",
	       "struct poly { virtual ~poly(); };\nstruct derived : poly {};\n"
	       "derived *as(poly *p) { return dynamic_cast<derived *>(p); }\n");
	s.expect_fail("does not compile freestanding");
}
END_TEST

int main()
{
	Suite *s = suite_create("freestanding");
	TCase *tc = tcase_create("script");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, hosted_header);
	tcase_add_test(tc, outside_symbol);
	tcase_add_test(tc, quoted_hosted_include);
	tcase_add_test(tc, include_outside_kernel);
	tcase_add_test(tc, lone_header_with_exceptions);
	tcase_add_test(tc, rtti_in_source);
	suite_add_tcase(s, tc);
	return ctest::run_suite(s);
}
