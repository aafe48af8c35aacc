#include "tests/support/cli.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

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

// stdout_to: nullptr captures stdout, "" closes it, else a path to open.
cli_result run(const std::vector<std::string> &args, const std::string *stdout_to)
{
	std::string out_path = write_temp("timersim.out", ""), err_path = write_temp("timersim.err", "");
	cli_result r;
	pid_t pid = fork();
	if (pid == 0) {
		int out = open(stdout_to ? stdout_to->c_str() : out_path.c_str(), O_WRONLY | O_TRUNC);
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
	waitpid(pid, &status, 0);
	r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	int fd = open(out_path.c_str(), O_RDONLY);
	r.out = slurp_fd(fd);
	close(fd);
	fd = open(err_path.c_str(), O_RDONLY);
	r.err = slurp_fd(fd);
	close(fd);
	return r;
}

}  // namespace

cli_result run_timersim(const std::vector<std::string> &args)
{
	return run(args, nullptr);
}

cli_result run_timersim_to(const std::vector<std::string> &args, const std::string &stdout_path)
{
	return run(args, &stdout_path);
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

}  // namespace timersim::test
