#include "sim/output/output_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "sim/core/errors.h"

namespace timersim {

namespace {

// Temporary names of outputs not yet committed, for the signal handler:
// fixed storage, so that removing them is async-signal-safe.
constexpr int max_live = 32;
constexpr std::size_t max_name = 4096;
char live_names[max_live][max_name];
volatile sig_atomic_t live_used[max_live];

int remember(const std::string &temp)
{
	if (temp.size() >= max_name)
		return -1;
	for (int i = 0; i < max_live; i++)
		if (!live_used[i]) {
			std::memcpy(live_names[i], temp.c_str(), temp.size() + 1);
			live_used[i] = 1;
			return i;
		}
	return -1;
}

void forget(const std::string &temp)
{
	for (int i = 0; i < max_live; i++)
		if (live_used[i] && temp == live_names[i])
			live_used[i] = 0;
}

extern "C" void remove_live_outputs(int sig)
{
	for (int i = 0; i < max_live; i++)
		if (live_used[i])
			unlink(live_names[i]);
	signal(sig, SIG_DFL);
	raise(sig);
}

std::string dir_of(const std::string &path)
{
	auto slash = path.rfind('/');
	if (slash == std::string::npos)
		return ".";
	return slash == 0 ? "/" : path.substr(0, slash);
}

std::string base_of(const std::string &path)
{
	auto slash = path.rfind('/');
	return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The identity of what a path names, or of the file it would create.
struct file_id {
	dev_t dev = 0;
	ino_t ino = 0;
	std::string name;	// for a file not there yet: its directory's id + name
	bool operator==(const file_id &o) const
	{
		return dev == o.dev && ino == o.ino && name == o.name;
	}
};

bool identify(const std::string &path, file_id &id)
{
	struct stat st;
	if (stat(path.c_str(), &st) == 0) {
		id = {st.st_dev, st.st_ino, ""};
		return true;
	}
	if (stat(dir_of(path).c_str(), &st) == 0) {
		id = {st.st_dev, st.st_ino, base_of(path)};
		return true;
	}
	return false;
}

}  // namespace

output_file::output_file(std::string path) : path_(std::move(path))
{
	if (is_stdout()) {
		f_ = stdout;
		return;
	}
	struct stat st;
	if (stat(path_.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
		throw output_error(path_ + ": is a directory");
	std::string templ = dir_of(path_) + "/." + base_of(path_) + ".XXXXXX";
	int fd = mkstemp(templ.data());
	if (fd < 0)
		throw output_error(path_ + ": cannot create: " + std::strerror(errno));
	temp_ = templ;
	remember(temp_);
	// mkstemp makes 0600; an output is an ordinary file.
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	f_ = fdopen(fd, "w");
	if (!f_) {
		int e = errno;
		close(fd);
		unlink(temp_.c_str());
		forget(temp_);
		throw output_error(path_ + ": cannot write: " + std::strerror(e));
	}
	std::setvbuf(f_, nullptr, _IOFBF, 1 << 16);
}

output_file::~output_file()
{
	if (committed_ || is_stdout())
		return;
	if (f_)
		std::fclose(f_);
	unlink(temp_.c_str());
	forget(temp_);
}

void output_file::fail(const char *what)
{
	int e = errno;
	std::string name = is_stdout() ? "standard output" : path_;
	throw output_error(name + ": " + what + ": " + (e ? std::strerror(e) : "write error"));
}

void output_file::write(std::string_view s)
{
	if (std::fwrite(s.data(), 1, s.size(), f_) != s.size())
		fail("cannot write");
}

void output_file::put(char c)
{
	if (std::fputc(c, f_) == EOF)
		fail("cannot write");
}

void output_file::commit()
{
	if (committed_)
		return;
	errno = 0;
	if (std::fflush(f_) != 0 || std::ferror(f_))
		fail("cannot write");
	if (is_stdout()) {
		committed_ = true;
		return;
	}
	std::FILE *f = f_;
	f_ = nullptr;
	errno = 0;
	if (std::fclose(f) != 0)
		fail("cannot write");
	if (std::rename(temp_.c_str(), path_.c_str()) != 0)
		fail("cannot rename the finished output into place");
	forget(temp_);
	committed_ = true;
}

void write_output(const std::string &path, std::string_view text)
{
	output_file out(path);
	out.write(text);
	out.commit();
}

void install_output_cleanup()
{
	struct sigaction sa;
	std::memset(&sa, 0, sizeof sa);
	sa.sa_handler = remove_live_outputs;
	sigemptyset(&sa.sa_mask);
	for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE})
		sigaction(sig, &sa, nullptr);
}

void check_output_paths(const std::vector<std::string> &inputs,
			const std::vector<std::pair<std::string, std::string>> &outputs)
{
	std::vector<std::pair<file_id, std::string>> seen;	// inputs, then outputs so far
	for (const std::string &in : inputs) {
		file_id id;
		if (identify(in, id))
			seen.push_back({id, "the input " + in});
	}
	for (const auto &[option, path] : outputs) {
		if (path.empty() || path == "-")
			continue;
		file_id id;
		if (!identify(path, id))
			continue;	// cannot be created: said when it is opened
		for (const auto &[other, what] : seen)
			if (other == id)
				throw usage_error(option + " " + path + ": the same file as " + what);
		seen.push_back({id, option + " " + path});
	}
}

}  // namespace timersim
