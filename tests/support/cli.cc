#include "tests/support/cli.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "tests/support/paths.h"

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

cli_result run_timersim(const std::vector<std::string> &args)
{
	std::string out_path = temp_file("", ".out"), err_path = temp_file("", ".err");
	cli_result r;
	pid_t pid = fork();
	if (pid == 0) {
		int out = open(out_path.c_str(), O_WRONLY | O_TRUNC);
		int err = open(err_path.c_str(), O_WRONLY | O_TRUNC);
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
	unlink(out_path.c_str());
	unlink(err_path.c_str());
	return r;
}

std::string temp_file(const std::string &content, const std::string &suffix)
{
	std::string path = "/tmp/timersim-test-XXXXXX" + suffix;
	int fd = mkstemps(path.data(), static_cast<int>(suffix.size()));
	if (fd < 0) {
		std::perror("mkstemps");
		std::abort();
	}
	if (!content.empty() && write(fd, content.data(), content.size()) != static_cast<ssize_t>(content.size()))
		std::abort();
	close(fd);
	return path;
}

std::string ftrace_text(const std::string &body, unsigned cpus)
{
	return "# tracer: nop\n#\n# entries-in-buffer/entries-written: 1/1   #P:" + std::to_string(cpus) +
	       "\n#\n#           TASK-PID   CPU#  ||||    TIMESTAMP  FUNCTION\n"
	       "#              | |       |   ||||       |         |\n" + body;
}

}  // namespace timersim::test
