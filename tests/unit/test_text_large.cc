// A text trace over 4 GiB, read through the real file path: byte counts
// and offsets past 2^32, the line after them found and numbered, memory
// flat. The file is sparse on tmpfs (/dev/shm), so nothing is written and
// the hole reads at memory speed; without a tmpfs the test is skipped.
#include <cstdio>
#include <fcntl.h>
#include <linux/magic.h>
#include <string>
#include <sys/resource.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "sim/trace/reader.h"
#include "tests/support/paths.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"	// last: check.h defines a fail() macro

using namespace timersim;

namespace {

const std::string header =
	"# tracer: nop\n"
	"# entries-in-buffer/entries-written: 2/2   #P:1\n";
const std::string first =
	"     kworker/0:1-100   [000] ..s.  1000.000002: timer_start: timer=ffff88001d49b8c0 function=0xffffffff81065e80 expires=4298033184 [timeout=3000]\n";
const std::string last =
	"     kworker/0:1-100   [000] ..s.  1000.000402: timer_cancel: timer=ffff88001d49b8c0\n";

// Header, events past what detection looks at (64 KiB), then a comment
// line whose text is a hole of zeros up to past 4 GiB, then one more event.
// Empty when there is no tmpfs.
constexpr unsigned firsts = 500;
struct big_file {
	std::string dir, path;
	std::uint64_t size = 0;

	big_file()
	{
		struct statfs fs;
		if (statfs("/dev/shm", &fs) != 0 || fs.f_type != TMPFS_MAGIC)
			return;
		char tmpl[] = "/dev/shm/timersim-large-XXXXXX";
		if (!mkdtemp(tmpl))
			return;
		dir = tmpl;
		path = dir + "/big.txt";
		int fd = ::open(path.c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0600);
		ck_assert_int_ge(fd, 0);
		std::string head = header;
		for (unsigned i = 0; i < firsts; i++)
			head += first;
		head += "# ";
		std::string tail = "\n" + last;
		off_t hole_end = (off_t(1) << 32) + 4099;
		ck_assert_int_eq(::pwrite(fd, head.data(), head.size(), 0), ssize_t(head.size()));
		ck_assert_int_eq(::pwrite(fd, tail.data(), tail.size(), hole_end), ssize_t(tail.size()));
		::close(fd);
		size = std::uint64_t(hole_end) + tail.size();
	}
	~big_file()
	{
		if (!path.empty())
			::unlink(path.c_str());
		if (!dir.empty())
			::rmdir(dir.c_str());
	}
};

long max_rss_kb()
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

}  // namespace

START_TEST(file_over_4_gib)
{
	big_file f;
	if (f.path.empty()) {
		test::skip_note("/dev/shm is not a tmpfs: no sparse file over 4 GiB to read");
		return;
	}
	long rss_before = max_rss_kb();
	reader_options opt;
	opt.lenient = true;
	auto r = open_trace(f.path, trace_format::auto_detect, opt);
	ck_assert_uint_eq(r->declared_cpus(), 1);
	auto evs = test::read_all(*r);
	ck_assert_uint_eq(evs.size(), firsts + 1);
	ck_assert(evs.back().kind == event_kind::timer_cancel);
	ck_assert_uint_eq(evs.back().line, firsts + 4);	// the 4 GiB line counts as one
	const reader_stats &st = r->stats();
	ck_assert_uint_eq(st.bytes, f.size);
	ck_assert_uint_gt(st.bytes, std::uint64_t(1) << 32);
	ck_assert_uint_eq(st.lines, firsts + 4);
	ck_assert_uint_eq(st.malformed, 1);	// the long line: longer than the buffer
	// Streamed: a few MB, not the file.
	ck_assert_int_lt(max_rss_kb() - rss_before, 64 * 1024);
	// Not lenient: the long line is refused by number, at once.
	opt.lenient = false;
	r = open_trace(f.path, trace_format::auto_detect, opt);
	try {
		test::read_all(*r);
		ck_abort_msg("a line of 4 GiB passed");
	} catch (const input_error &e) {
		ck_assert_uint_eq(e.line(), firsts + 3);
	}
}
END_TEST

static Suite *large_suite()
{
	Suite *s = suite_create("text_large");
	TCase *big = tcase_create("over_4_gib");
	tcase_set_timeout(big, 60);	// 4 GiB of zeros read and scanned
	tcase_add_test(big, file_over_4_gib);
	suite_add_tcase(s, big);
	return s;
}

int main()
{
	return timersim::test::run_suite(large_suite());
}
