#include "sim/output/output_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "sim/base/errors.h"

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

// Names that reach an already open file through the kernel's fd links:
// their link targets ("pipe:[123]", "/dev/pts/0") are no place to create a
// file beside, and the user meant that open file.
bool names_open_file(const std::string &path)
{
	for (const char *prefix : {"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/"})
		if (path.rfind(prefix, 0) == 0)
			return true;
	if (path == "/dev/stdout" || path == "/dev/stderr")
		return true;
	// /proc/PID/fd/N
	if (path.rfind("/proc/", 0) != 0)
		return false;
	std::size_t i = 6;
	while (i < path.size() && path[i] >= '0' && path[i] <= '9')
		i++;
	return i > 6 && path.compare(i, 4, "/fd/") == 0;
}

// Follows a chain of symlinks to the path it ends on, which may not exist
// yet (a dangling link creates its target, as the shell's `>` does).
// Returns false (errno set) on a loop or an unreadable link.
bool final_target(std::string path, std::string &target, struct stat &st, bool &exists)
{
	for (int hops = 0; hops < 40; hops++) {
		if (lstat(path.c_str(), &st) != 0) {
			if (errno != ENOENT)
				return false;
			exists = false;
			target = path;
			return true;
		}
		if (!S_ISLNK(st.st_mode)) {
			exists = true;
			target = path;
			return true;
		}
		std::string link(4096, '\0');
		ssize_t n = readlink(path.c_str(), link.data(), link.size());
		if (n < 0)
			return false;
		if (static_cast<std::size_t>(n) >= link.size()) {
			errno = ENAMETOOLONG;
			return false;
		}
		link.resize(static_cast<std::size_t>(n));
		path = link[0] == '/' ? link : dir_of(path) + "/" + link;
	}
	errno = ELOOP;
	return false;
}

}  // namespace

output_file::output_file(std::string path, output_owner owner) : path_(std::move(path))
{
	if (path_.empty())
		throw usage_error("an output path is empty");
	struct stat st;
	if (owner == output_owner::tool) {
		// The rename replaces the entry itself, whatever it is; only a
		// folder cannot be renamed over (and may hold the user's files).
		bool exists = lstat(path_.c_str(), &st) == 0;
		if (exists && S_ISDIR(st.st_mode))
			throw output_error(path_ + ": is a directory");
		open_beside(path_, exists && S_ISREG(st.st_mode) ? &st : nullptr);
		return;
	}
	if (is_stdout()) {
		f_ = stdout;
		return;
	}
	if (stat(path_.c_str(), &st) == 0) {
		if (S_ISDIR(st.st_mode))
			throw output_error(path_ + ": is a directory");
		if (!S_ISREG(st.st_mode)) {
			open_in_place(0);	// a device, FIFO or socket
			return;
		}
		if (names_open_file(path_)) {
			// A regular file the caller holds open (`3>file`, stdout
			// sent to a file): appended to, never renamed over or
			// truncated under the caller's other writes.
			open_in_place(O_APPEND);
			return;
		}
	}
	std::string target;
	bool exists = false;
	if (!final_target(path_, target, st, exists))
		throw output_error(path_ + ": cannot follow: " + std::strerror(errno));
	open_beside(target, exists ? &st : nullptr);
}

void output_file::open_in_place(int flags)
{
	in_place_ = true;
	int fd = open(path_.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC | flags);
	if (fd < 0)
		throw output_error(path_ + ": cannot open: " + std::strerror(errno));
	f_ = fdopen(fd, "w");
	if (!f_) {
		int e = errno;
		close(fd);
		throw output_error(path_ + ": cannot write: " + std::strerror(e));
	}
	std::setvbuf(f_, nullptr, _IOFBF, 1 << 16);
}

void output_file::open_beside(const std::string &target, const struct stat *existing)
{
	target_ = target;
	std::string templ = dir_of(target_) + "/." + base_of(target_) + ".XXXXXX";
	int fd = mkstemp(templ.data());
	if (fd < 0)
		throw output_error(path_ + ": cannot create: " + std::strerror(errno));
	temp_ = templ;
	remember(temp_);
	// mkstemp makes 0600. A file replaced keeps its permissions; a new
	// output is an ordinary file.
	mode_t mode;
	if (existing) {
		mode = existing->st_mode & 07777;
	} else {
		mode_t mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}
	fchmod(fd, mode);
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
	if (in_place_)
		return;		// what was written to a device or FIFO is gone
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
	if (in_place_) {
		committed_ = true;
		return;
	}
	if (std::rename(temp_.c_str(), target_.c_str()) != 0)
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

namespace {

// An output that cannot be written is said before the work, not after a
// replay of minutes: a folder, or a file whose folder is not there or
// not writable. (A symlink is followed when the output is opened.)
void check_writable(const std::string &option, const std::string &path)
{
	struct stat st;
	if (lstat(path.c_str(), &st) == 0) {
		if (S_ISLNK(st.st_mode))
			return;
		if (S_ISDIR(st.st_mode))
			throw usage_error(option + " " + path + ": is a folder; give a file name");
		if (!S_ISREG(st.st_mode))
			return;	// a FIFO or socket: written in place
	} else if (!path.empty() && path.back() == '/') {
		throw usage_error(option + " " + path + ": names a folder, not a file");
	}
	const std::string dir = dir_of(path);
	if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
		throw usage_error(option + " " + path + ": cannot be written: there is no folder " + dir);
	if (access(dir.c_str(), W_OK | X_OK) != 0)
		throw usage_error(option + " " + path + ": cannot be written in " + dir + ": " + std::strerror(errno));
}

}  // namespace

void check_output_paths(const std::vector<std::string> &inputs,
			const std::vector<std::pair<std::string, std::string>> &outputs)
{
	std::vector<std::pair<file_id, std::string>> seen;	// inputs, then outputs so far
	for (const std::string &in : inputs) {
		// An input not given is none: an empty name would stand for
		// the current folder, and clash with an output named for it.
		file_id id;
		if (!in.empty() && identify(in, id))
			seen.push_back({id, "the input " + in});
	}
	for (const auto &[option, path] : outputs) {
		if (path.empty() || path == "-")
			continue;
		struct stat st;
		if (stat(path.c_str(), &st) == 0 && S_ISCHR(st.st_mode))
			continue;	// /dev/null twice is no clash
		check_writable(option, path);
		file_id id;
		if (!identify(path, id))
			continue;
		for (const auto &[other, what] : seen)
			if (other == id)
				throw usage_error(option + " " + path + ": the same file as " + what);
		seen.push_back({id, option + " " + path});
	}
}

}  // namespace timersim
