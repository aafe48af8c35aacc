#include "tests/support/text_trace_util.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ftw.h>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "sim/trace/text_reader.h"

namespace timersim::test {

namespace {

std::string dir_of_this_process;
pid_t dir_owner = 0;

int remove_entry(const char *path, const struct stat *, int, struct FTW *)
{
	return ::remove(path);
}

void remove_dir()
{
	// Check forks a process per test: each removes only what it made.
	if (dir_owner == ::getpid())
		::nftw(dir_of_this_process.c_str(), remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

const std::string &temp_dir()
{
	if (dir_owner != ::getpid()) {
		const char *tmp = std::getenv("TMPDIR");
		std::string tmpl = std::string(tmp && *tmp ? tmp : "/tmp") + "/timersim-test-XXXXXX";
		if (!::mkdtemp(tmpl.data()))
			throw std::runtime_error("mkdtemp failed");
		bool first = dir_owner == 0;
		dir_of_this_process = tmpl;
		dir_owner = ::getpid();
		if (first)
			std::atexit(remove_dir);
	}
	return dir_of_this_process;
}

}  // namespace

std::string write_temp(const std::string &name, std::string_view content)
{
	std::string path = temp_dir() + "/" + name;
	FILE *f = std::fopen(path.c_str(), "wb");
	if (!f || std::fwrite(content.data(), 1, content.size(), f) != content.size() ||
	    std::fclose(f) != 0)
		throw std::runtime_error("cannot write " + path);
	return path;
}

std::string write_temp_gzip(const std::string &name, std::string_view content)
{
	std::string path = temp_dir() + "/" + name;
	gzFile gz = gzopen(path.c_str(), "wb6");
	if (!gz)
		throw std::runtime_error("cannot write " + path);
	// In slices: gzwrite takes an unsigned length.
	for (std::size_t off = 0; off < content.size(); off += 1u << 20) {
		std::size_t n = std::min<std::size_t>(content.size() - off, 1u << 20);
		if (gzwrite(gz, content.data() + off, unsigned(n)) != int(n))
			throw std::runtime_error("gzwrite failed on " + path);
	}
	if (gzclose(gz) != Z_OK)
		throw std::runtime_error("gzclose failed on " + path);
	return path;
}

std::string temp_subdir(const std::string &name)
{
	std::string path = temp_dir() + "/" + name;
	if (::mkdir(path.c_str(), 0700) != 0)
		throw std::runtime_error("cannot create " + path);
	return path;
}

std::string read_whole_file(const std::string &path)
{
	FILE *f = std::fopen(path.c_str(), "rb");
	if (!f)
		throw std::runtime_error("cannot read " + path);
	std::string out;
	char buf[1 << 16];
	std::size_t n;
	while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
		out.append(buf, n);
	std::fclose(f);
	return out;
}

owned_event::owned_event(const trace_event &ev)
	: kind(ev.kind), name(ev.name), cpu(ev.cpu), ts_ns(ev.ts_ns), line(ev.line),
	  timer(ev.timer), timer_digits(ev.timer_digits), function(ev.function),
	  expires(ev.expires), timeout(ev.timeout), now(ev.now), baseclk(ev.baseclk),
	  bucket_expiry(ev.bucket_expiry), target_cpu(ev.target_cpu), idx(ev.idx),
	  flags(ev.flags), is_idle(ev.is_idle), has(ev.has), hrtimer(ev.hrtimer),
	  softexpires(ev.softexpires), clockid(ev.clockid), hrtimer_mode(ev.hrtimer_mode),
	  was_armed(ev.was_armed), vec(ev.vec), timer_interrupt(ev.timer_interrupt), tmigr(ev.tmigr),
	  cpu_id(ev.cpu_id), dependency(ev.dependency), idle_state(ev.idle_state), nextevt(ev.nextevt),
	  stop_success(ev.stop_success), wakeup(ev.wakeup)
{
}

std::vector<owned_event> read_all(trace_reader &reader)
{
	std::vector<owned_event> out;
	trace_event ev;
	while (reader.next(ev))
		out.emplace_back(ev);
	return out;
}

std::string error_of(const std::string &text, trace_format fmt)
{
	reader_options opt;
	try {
		auto r = make_text_reader_from_memory(text, "t.txt", fmt, opt);
		read_all(*r);
	} catch (const input_error &e) {
		return e.what();
	}
	return "";
}

}  // namespace timersim::test
