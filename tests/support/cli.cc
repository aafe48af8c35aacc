#include "tests/support/cli.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include <check.h>
#include <nlohmann/json.hpp>

#include "tests/support/paths.h"
#include "tests/support/text_trace_util.h"

namespace timersim::test {

namespace {
std::string slurp_fd(int fd)
{
	std::string s;
	char buf[65536];
	for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;)
		s.append(buf, static_cast<std::size_t>(n));
	return s;
}
}  // namespace

namespace {

long rss_kib(pid_t pid)
{
	std::FILE *f = std::fopen(("/proc/" + std::to_string(pid) + "/statm").c_str(), "r");
	if (!f)
		return 0;
	long pages = 0, resident = 0;
	int n = std::fscanf(f, "%ld %ld", &pages, &resident);
	std::fclose(f);
	return n == 2 ? resident * (sysconf(_SC_PAGESIZE) / 1024) : 0;
}

// Waits for the child, killing it past the watched bounds: the note why,
// or "".
std::string wait_within(pid_t pid, const cli_limits &lim, int &status)
{
	if (!lim.rss_mib && !lim.seconds) {
		waitpid(pid, &status, 0);
		return "";
	}
	auto t0 = std::chrono::steady_clock::now();
	std::string killed;
	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (killed.empty() && lim.rss_mib && rss_kib(pid) > long{lim.rss_mib} * 1024)
			killed = "killed: past " + std::to_string(lim.rss_mib) + " MiB of memory";
		if (killed.empty() && lim.seconds &&
		    std::chrono::steady_clock::now() - t0 > std::chrono::seconds(lim.seconds))
			killed = "killed: still running after " + std::to_string(lim.seconds) + " s";
		if (!killed.empty())
			kill(pid, SIGKILL);
		std::this_thread::sleep_for(std::chrono::milliseconds(10));
	}
	return killed;
}

// stdout_to: nullptr captures stdout, "" closes it, else a path to open
// (created when missing).
cli_result run(const std::vector<std::string> &args, const std::string *stdout_to, const cli_limits &lim)
{
	std::string out_path = write_temp("timersim.out", ""), err_path = write_temp("timersim.err", "");
	cli_result r;
	pid_t pid = fork();
	if (pid == 0) {
#ifndef __SANITIZE_ADDRESS__
		if (lim.address_space_mib) {
			struct rlimit cap = {rlim_t{lim.address_space_mib} << 20, rlim_t{lim.address_space_mib} << 20};
			setrlimit(RLIMIT_AS, &cap);
		}
#endif
		int out = open(stdout_to ? stdout_to->c_str() : out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int err = open(err_path.c_str(), O_WRONLY | O_TRUNC);
		if (stdout_to && stdout_to->empty())
			close(1);
		else
			dup2(out, 1);
		dup2(err, 2);
		std::string bin = timersim_bin();
		std::vector<char *> argv{bin.data()};
		std::vector<std::string> copy = args;
		for (auto &a : copy)
			argv.push_back(a.data());
		argv.push_back(nullptr);
		execv(bin.c_str(), argv.data());
		_exit(127);
	}
	int status = 0;
	const std::string killed = wait_within(pid, lim, status);
	r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	int fd = open(out_path.c_str(), O_RDONLY);
	r.out = slurp_fd(fd);
	close(fd);
	fd = open(err_path.c_str(), O_RDONLY);
	r.err = slurp_fd(fd) + killed;
	close(fd);
	return r;
}

}  // namespace

cli_result run_timersim(const std::vector<std::string> &args)
{
	return run(args, nullptr, {});
}

cli_result run_timersim_to(const std::vector<std::string> &args, const std::string &stdout_path)
{
	return run(args, &stdout_path, {});
}

cli_result run_timersim_limited(const std::vector<std::string> &args, const cli_limits &limits,
				const std::string *stdout_path)
{
	return run(args, stdout_path, limits);
}

std::string ftrace_text(const std::string &body, unsigned cpus)
{
	return "# tracer: nop\n#\n# entries-in-buffer/entries-written: 1/1   #P:" + std::to_string(cpus) +
	       "\n#\n#           TASK-PID   CPU#  ||||    TIMESTAMP  FUNCTION\n"
	       "#              | |       |   ||||       |         |\n" + body;
}

std::string ftrace_line(unsigned cpu, unsigned long long usec, const std::string &payload)
{
	char head[96];
	std::snprintf(head, sizeof head, "          <idle>-0     [%03u] d.h1.  %llu.%06llu: ", cpu,
		      usec / 1000000, usec % 1000000);
	return head + payload + "\n";
}

nlohmann::json json_of(const std::vector<std::string> &args)
{
	cli_result r = run_timersim(args);
	ck_assert_msg(r.status == 0, "timersim %s failed: %s", args.empty() ? "" : args[0].c_str(),
		      r.err.c_str());
	return nlohmann::json::parse(r.out);
}

nlohmann::json replay_json(const std::vector<std::string> &args)
{
	std::vector<std::string> all = {"replay", "--json", "-"};
	all.insert(all.end(), args.begin(), args.end());
	return json_of(all);
}

}  // namespace timersim::test
