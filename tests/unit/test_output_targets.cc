// Where an output lands when its path is not a plain file. A regular file
// or a new path is written beside and renamed into place; a device, FIFO,
// socket or /dev/fd name is written in place, as the shell's `>` would; a
// symlink is followed and its target replaced, never the link. Devices are
// made with mknod in a directory of the test's own: the real /dev is never
// touched. (mknod needs root, as CI runs: elsewhere those cases skip.)
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/cli.h"
#include "tests/support/paths.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"

using namespace timersim::test;

namespace {

bool contains(const std::string &hay, const std::string &needle)
{
	return hay.find(needle) != std::string::npos;
}

std::string small_trace()
{
	std::string body =
		ftrace_line(0, 100000000, "timer_start: timer=00000000aaaa0000 function=process_timeout "
					  "expires=4295000010 [timeout=10] bucket_expiry=4295000010 cpu=0 idx=10 flags=") +
		ftrace_line(0, 100040000, "timer_cancel: timer=00000000aaaa0000") +
		ftrace_line(0, 100040001, "timer_expire_entry: timer=00000000aaaa0000 function=process_timeout "
					  "now=4295000010 baseclk=4295000010");
	return write_temp("targets.txt", ftrace_text(body));
}

mode_t type_of(const std::string &path, bool follow = false)
{
	struct stat st;
	int rc = follow ? stat(path.c_str(), &st) : lstat(path.c_str(), &st);
	return rc == 0 ? (st.st_mode & S_IFMT) : 0;
}

// Every name in DIR but those given.
std::vector<std::string> others_in(const std::string &dir, const std::vector<std::string> &known)
{
	std::vector<std::string> left;
	if (DIR *d = opendir(dir.c_str())) {
		while (dirent *e = readdir(d)) {
			std::string n = e->d_name;
			if (n == "." || n == "..")
				continue;
			bool k = false;
			for (const std::string &x : known)
				k = k || x == n;
			if (!k)
				left.push_back(n);
		}
		closedir(d);
	}
	return left;
}

// A character device like /dev/null (1,3) or /dev/full (1,7) in DIR, or ""
// when this process may not make one.
std::string make_device(const std::string &dir, const char *name, unsigned minor)
{
	std::string path = dir + "/" + name;
	if (mknod(path.c_str(), S_IFCHR | 0666, makedev(1, minor)) != 0) {
		skip_note(std::string("mknod ") + name + ": " + std::strerror(errno) + " (needs root)");
		return "";
	}
	return path;
}

// Every option that writes a file, with what else it needs.
struct output_option {
	std::vector<std::string> args;	// the path is appended after these
};

const std::vector<output_option> &replay_outputs()
{
	static const std::vector<output_option> all = {
		{{"replay", "--json"}},
		{{"replay", "--expiry-log"}},
		{{"replay", "--timeline"}},
		{{"replay", "--perfetto"}},
		{{"compare", "--json"}},
	};
	return all;
}

cli_result run_to_path(const output_option &o, const std::string &path, const std::string &trace)
{
	std::vector<std::string> args = o.args;
	args.push_back(path);
	args.push_back(trace);
	return run_timersim(args);
}

}  // namespace

START_TEST(a_null_device_stays_a_device)
{
	std::string dir = temp_subdir("null-device");
	std::string null = make_device(dir, "null", 3);
	if (null.empty())
		return;
	std::string t = small_trace();
	for (const output_option &o : replay_outputs()) {
		cli_result r = run_to_path(o, null, t);
		ck_assert_msg(r.status == 0, "%s %s: %d %s", o.args[0].c_str(), o.args[1].c_str(), r.status,
			      r.err.c_str());
		ck_assert_msg(type_of(null) == S_IFCHR, "%s %s replaced the device", o.args[0].c_str(),
			      o.args[1].c_str());
		ck_assert(others_in(dir, {"null"}).empty());
	}
	// The other commands' outputs go through the same door.
	std::vector<std::vector<std::string>> more = {
		{"gen", "--duration", "1s", "-o", null, "-w", "periodic"},
		{"view", "-o", null, t},
		{"lab", "place", "-s", "3", "-n", "2", "--json", null},
	};
	for (const auto &args : more) {
		cli_result r = run_timersim(args);
		ck_assert_msg(r.status == 0, "%s: %d %s", args[0].c_str(), r.status, r.err.c_str());
		ck_assert_msg(type_of(null) == S_IFCHR, "%s replaced the device", args[0].c_str());
		ck_assert(others_in(dir, {"null"}).empty());
	}
}
END_TEST

START_TEST(a_full_device_is_a_failed_write)
{
	std::string dir = temp_subdir("full-device");
	std::string full = make_device(dir, "full", 7);
	if (full.empty())
		return;
	std::string t = small_trace();
	for (const output_option &o : replay_outputs()) {
		cli_result r = run_to_path(o, full, t);
		ck_assert_msg(r.status == 1, "%s %s onto a full device: %d", o.args[0].c_str(), o.args[1].c_str(),
			      r.status);
		ck_assert_msg(contains(r.err, "No space left on device"), "%s", r.err.c_str());
		ck_assert(type_of(full) == S_IFCHR);
		ck_assert(others_in(dir, {"full"}).empty());
	}
}
END_TEST

START_TEST(a_fifo_reader_gets_the_report)
{
	std::string dir = temp_subdir("fifo");
	std::string fifo = dir + "/report.fifo";
	ck_assert_int_eq(mkfifo(fifo.c_str(), 0600), 0);
	std::string got;
	std::thread reader([&] {
		int fd = open(fifo.c_str(), O_RDONLY);
		char buf[4096];
		ssize_t n;
		while (fd >= 0 && (n = read(fd, buf, sizeof buf)) > 0)
			got.append(buf, static_cast<std::size_t>(n));
		if (fd >= 0)
			close(fd);
	});
	cli_result r = run_timersim({"replay", "--json", fifo, small_trace()});
	reader.join();
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	ck_assert_msg(!got.empty() && got[0] == '{' && contains(got, "\"input\""), "the reader got: %.80s",
		      got.c_str());
	ck_assert(type_of(fifo) == S_IFIFO);
	ck_assert(others_in(dir, {"report.fifo"}).empty());
}
END_TEST

START_TEST(a_symlink_replaces_its_target_not_itself)
{
	std::string dir = temp_subdir("symlink");
	std::string real = dir + "/real.json", link = dir + "/link.json";
	{
		int fd = open(real.c_str(), O_WRONLY | O_CREAT, 0640);
		ck_assert(write(fd, "old\n", 4) == 4);
		close(fd);
		chmod(real.c_str(), 0640);
	}
	ck_assert_int_eq(symlink("real.json", link.c_str()), 0);
	cli_result r = run_timersim({"replay", "--json", link, small_trace()});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	ck_assert(type_of(link) == S_IFLNK);
	std::string text = read_whole_file(real);
	ck_assert_msg(!text.empty() && text[0] == '{', "the target holds %.40s", text.c_str());
	struct stat st;
	ck_assert_int_eq(stat(real.c_str(), &st), 0);
	ck_assert_msg((st.st_mode & 0777) == 0640, "the replaced file's mode is %o", st.st_mode & 0777);

	// A dangling link creates its target; a chain of links is followed.
	std::string chain = dir + "/chain.json", later = dir + "/later.json";
	ck_assert_int_eq(symlink("link.json", chain.c_str()), 0);
	std::string dangling = dir + "/dangling.json";
	ck_assert_int_eq(symlink("later.json", dangling.c_str()), 0);
	r = run_timersim({"replay", "--json", dangling, "--expiry-log", chain, small_trace()});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	ck_assert(type_of(dangling) == S_IFLNK && type_of(chain) == S_IFLNK);
	ck_assert(type_of(later) == S_IFREG && read_whole_file(later)[0] == '{');
	ck_assert(contains(read_whole_file(real), "cpu"));	// the expiry log's header
	ck_assert(others_in(dir, {"real.json", "link.json", "chain.json", "later.json", "dangling.json"}).empty());

	// A link that loops is an output error, not a hang.
	std::string loop = dir + "/loop.json";
	ck_assert_int_eq(symlink("loop.json", loop.c_str()), 0);
	r = run_timersim({"replay", "--json", loop, small_trace()});
	ck_assert_int_eq(r.status, 1);
	ck_assert_msg(contains(r.err, "loop.json"), "%s", r.err.c_str());
}
END_TEST

START_TEST(a_symlink_to_a_device_keeps_both)
{
	std::string dir = temp_subdir("symlink-device");
	std::string null = make_device(dir, "null", 3);
	if (null.empty())
		return;
	std::string link = dir + "/out.json";
	ck_assert_int_eq(symlink("null", link.c_str()), 0);
	cli_result r = run_timersim({"replay", "--json", link, small_trace()});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	ck_assert(type_of(link) == S_IFLNK && type_of(null) == S_IFCHR);
	ck_assert(others_in(dir, {"null", "out.json"}).empty());
}
END_TEST

// /dev/fd/N names the caller's open file: a pipe here, read back whole.
START_TEST(a_dev_fd_path_writes_the_open_file)
{
	int p[2];
	ck_assert_int_eq(pipe(p), 0);
	std::string t = small_trace();
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		if (p[1] != 3) {
			dup2(p[1], 3);
			close(p[1]);
		}
		int null = open("/dev/null", O_WRONLY);	// read-only use of the real device
		dup2(null, 1);
		dup2(null, 2);
		std::string bin = timersim_bin();
		execl(bin.c_str(), bin.c_str(), "replay", "--json", "/dev/fd/3", t.c_str(), static_cast<char *>(nullptr));
		_exit(127);
	}
	close(p[1]);
	std::string got;
	char buf[4096];
	ssize_t n;
	while ((n = read(p[0], buf, sizeof buf)) > 0)
		got.append(buf, static_cast<std::size_t>(n));
	close(p[0]);
	int status = 0;
	waitpid(pid, &status, 0);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ck_assert_msg(!got.empty() && got[0] == '{', "the pipe got: %.80s", got.c_str());
}
END_TEST

START_TEST(a_socket_is_not_replaced)
{
	std::string dir = temp_subdir("socket");
	std::string path = dir + "/s";
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	sockaddr_un addr = {};
	addr.sun_family = AF_UNIX;
	ck_assert(path.size() < sizeof addr.sun_path);
	std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
	ck_assert_int_eq(bind(s, reinterpret_cast<sockaddr *>(&addr), sizeof addr), 0);
	cli_result r = run_timersim({"replay", "--json", path, small_trace()});
	close(s);
	// Linux cannot open() a socket: a failed output, and the socket stays.
	ck_assert_msg(r.status == 1, "%d %s", r.status, r.err.c_str());
	ck_assert_msg(contains(r.err, path), "%s", r.err.c_str());
	ck_assert(type_of(path) == S_IFSOCK);
	ck_assert(others_in(dir, {"s"}).empty());
}
END_TEST

// A regular file is still replaced whole and atomically, keeping its mode.
START_TEST(a_regular_file_is_replaced_keeping_its_mode)
{
	std::string dir = temp_subdir("regular");
	std::string out = dir + "/r.json";
	int fd = open(out.c_str(), O_WRONLY | O_CREAT, 0600);
	ck_assert(write(fd, "a much longer old content than any report would ever be, or so\n", 64) == 64);
	close(fd);
	chmod(out.c_str(), 0604);
	cli_result r = run_timersim({"replay", "--json", out, small_trace()});
	ck_assert_msg(r.status == 0, "%s", r.err.c_str());
	std::string text = read_whole_file(out);
	ck_assert(text[0] == '{' && !contains(text, "old content"));
	struct stat st;
	ck_assert_int_eq(stat(out.c_str(), &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0604);
	ck_assert(others_in(dir, {"r.json"}).empty());
}
END_TEST

// An output that cannot be written is refused before the replay, exit 2:
// a folder (from inside it, `--json ./` was called "the same file as the
// input": the input not given stood for the current folder), a file in a
// folder that is not there (found only after the whole replay, exit 1).
START_TEST(an_output_that_cannot_be_written_is_refused_first)
{
	const std::string trace = small_trace();
	const std::string dir = temp_subdir("unwritable");
	char cwd[4096];
	ck_assert(getcwd(cwd, sizeof cwd) != nullptr);
	for (const output_option &o : replay_outputs()) {
		for (const std::string &folder : {std::string("./"), std::string(cwd) + "/", dir, dir + "/"}) {
			cli_result r = run_to_path(o, folder, trace);
			ck_assert_msg(r.status == 2 && contains(r.err, folder + ": is a folder; give a file name") &&
					      !contains(r.err, "the same file") && r.out.empty(),
				      "%s %s: exit %d: %s", o.args[1].c_str(), folder.c_str(), r.status, r.err.c_str());
		}
		cli_result r = run_to_path(o, dir + "/absent/out", trace);
		ck_assert_msg(r.status == 2 && contains(r.err, "cannot be written: there is no folder " + dir + "/absent") &&
				      r.out.empty(),
			      "%s: exit %d: %s", o.args[1].c_str(), r.status, r.err.c_str());
	}
}
END_TEST

int main()
{
	signal(SIGPIPE, SIG_IGN);
	Suite *s = suite_create("output_targets");
	TCase *tc = tcase_create("output_targets");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, a_null_device_stays_a_device);
	tcase_add_test(tc, a_full_device_is_a_failed_write);
	tcase_add_test(tc, a_fifo_reader_gets_the_report);
	tcase_add_test(tc, a_symlink_replaces_its_target_not_itself);
	tcase_add_test(tc, a_symlink_to_a_device_keeps_both);
	tcase_add_test(tc, a_dev_fd_path_writes_the_open_file);
	tcase_add_test(tc, a_socket_is_not_replaced);
	tcase_add_test(tc, a_regular_file_is_replaced_keeping_its_mode);
	tcase_add_test(tc, an_output_that_cannot_be_written_is_refused_first);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
