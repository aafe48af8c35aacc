#include "sim/trace/live_tracefs.h"

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fstream>
#include <signal.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

#include "sim/trace/binary_fields.h"
#include "sim/trace/libtracecmd.h"
#include "sim/trace/libtracecmd_hooks.h"
#include "sim/trace/live_libs.h"
#include "sim/trace/symbols.h"
#include "sim/trace/tep_decode.h"

namespace timersim {

namespace {

// A poll keeps back the events of its last this many ns: a CPU may still be
// writing an event stamped before the poll began.
constexpr std::uint64_t hold_back_ns = 1'000'000;
// next() polls this often while nothing comes.
constexpr auto idle_poll = std::chrono::milliseconds(50);

bool path_exists(const std::string &path)
{
	struct stat sb;
	return ::stat(path.c_str(), &sb) == 0;
}

bool process_alive(long pid)
{
	return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM);
}

}  // namespace

std::string live_instance_name(long pid)
{
	return live_instance_prefix + std::to_string(pid);
}

std::vector<std::string> remove_dead_instances(const std::string &tracing_dir)
{
	std::vector<std::string> removed;
	std::string dir = tracing_dir + "/instances";
	DIR *d = ::opendir(dir.c_str());
	if (!d)
		return removed;
	const std::size_t plen = std::strlen(live_instance_prefix);
	while (dirent *e = ::readdir(d)) {
		std::string name = e->d_name;
		if (name.compare(0, plen, live_instance_prefix) != 0)
			continue;
		char *end = nullptr;
		long pid = std::strtol(name.c_str() + plen, &end, 10);
		if (!end || *end || pid <= 0 || process_alive(pid))
			continue;
		// An instance directory is removed by rmdir, its files with it.
		if (::rmdir((dir + "/" + name).c_str()) == 0)
			removed.push_back(name);
	}
	::closedir(d);
	std::sort(removed.begin(), removed.end());
	return removed;
}

struct live_reader::state {
	const live_libs_api *lib = nullptr;
	std::string tracing_dir;
	tracefs_instance *instance = nullptr;
	tep_handle *tep = nullptr;
	kbuffer *kbuf = nullptr;
	std::vector<tracefs_cpu *> cpus;
	std::vector<char> page;
	symbol_table kallsyms;
	callback_names names{{callback_names::of(kallsyms)}};
	std::unique_ptr<tep_decoder> decoder;
	// --record
	std::string record;
	std::vector<std::string> cpu_files;
	std::vector<std::FILE *> cpu_out;
	bool record_failed = false;
	std::string record_why;

	~state()
	{
		for (std::FILE *f : cpu_out)
			if (f)
				std::fclose(f);
		for (const std::string &f : cpu_files)
			std::remove(f.c_str());
		for (tracefs_cpu *c : cpus)
			if (c)
				lib->tracefs_cpu_close(c);
		if (kbuf)
			lib->kbuffer_free(kbuf);
		if (tep)
			lib->tep_free(tep);
		if (instance) {
			lib->tracefs_instance_destroy(instance);
			lib->tracefs_instance_free(instance);
		}
	}
};

std::uint64_t live_reader::now_ns()
{
	timespec t;
	::clock_gettime(CLOCK_MONOTONIC, &t);
	return std::uint64_t(t.tv_sec) * 1'000'000'000 + std::uint64_t(t.tv_nsec);
}

live_reader::live_reader(const live_options &opt) : st_(std::make_unique<state>())
{
	state &s = *st_;
	try {
		s.lib = &live_libs();
	} catch (const std::runtime_error &e) {
		throw live_unavailable(std::string("the live trace needs libtracefs and libtraceevent: ") +
				       e.what());
	}
	const live_libs_api &lib = *s.lib;
	s.tracing_dir = opt.tracing_dir;
	if (s.tracing_dir.empty()) {
		const char *d = lib.tracefs_tracing_dir();
		s.tracing_dir = d ? d : "";
	}
	if (s.tracing_dir.empty() || !path_exists(s.tracing_dir + "/instances"))
		throw live_unavailable(
			"no tracefs: it is not mounted (as root: mount -t tracefs nodev "
			"/sys/kernel/tracing), or this kernel lacks CONFIG_FTRACE");
	if (::access((s.tracing_dir + "/instances").c_str(), W_OK) != 0)
		throw live_unavailable("cannot create a tracefs instance in " + s.tracing_dir +
				       "/instances: run as root (sudo timersim top), or give this "
				       "user write access to tracefs");
	remove_dead_instances(s.tracing_dir);

	// Which events this kernel has.
	auto has = [&](const char *system, const char *event) {
		return path_exists(s.tracing_dir + "/events/" + system + "/" + event);
	};
	if (!has("timer", "timer_start"))
		throw live_unavailable("this kernel has no timer:timer_start event (tracefs " +
				       s.tracing_dir + "/events/timer): it needs CONFIG_TRACING "
				       "and the timer trace events");
	std::vector<std::pair<const char *, const char *>> enable{{"timer", nullptr}};
	for (const char *e : {"softirq_entry", "softirq_exit", "softirq_raise"})
		if (has("irq", e))
			enable.emplace_back("irq", e);
		else
			missing_.push_back(std::string("irq:") + e +
					   " (TIMER and HRTIMER softirq time and runs not shown)");
	if (has("irq_vectors", "local_timer_entry")) {
		enable.emplace_back("irq_vectors", "local_timer_entry");
		enable.emplace_back("irq_vectors", "local_timer_exit");
	} else if (has("irq", "irq_handler_entry")) {
		// Elsewhere the arch timer is an irq of its own, told by its name.
		enable.emplace_back("irq", "irq_handler_entry");
		enable.emplace_back("irq", "irq_handler_exit");
	} else {
		missing_.push_back("irq_vectors:local_timer_entry and irq:irq_handler_entry "
				   "(timer interrupts not shown)");
	}

	name_ = live_instance_name(::getpid());
	s.instance = lib.tracefs_instance_create(name_.c_str());
	if (!s.instance)
		throw live_unavailable("cannot create the tracefs instance " + name_ + ": " +
				       std::strerror(errno));
	lib.tracefs_instance_file_write(s.instance, "tracing_on", "0");
	lib.tracefs_instance_file_write(s.instance, "trace_clock", "mono");
	lib.tracefs_instance_file_write(s.instance, "buffer_size_kb",
					std::to_string(opt.buffer_kb).c_str());
	for (auto &[system, event] : enable)
		if (lib.tracefs_event_enable(s.instance, system, event) < 0)
			throw live_unavailable(std::string("cannot enable ") + system + ":" +
					       (event ? event : "*") + " in " + name_);

	const char *systems[] = {"timer", "irq", "irq_vectors", nullptr};
	s.tep = lib.tracefs_local_events_system(s.tracing_dir.c_str(), systems);
	if (!s.tep)
		throw live_unavailable("cannot read the event formats under " + s.tracing_dir + "/events");
	s.kbuf = lib.tep_kbuffer(s.tep);
	if (!s.kbuf)
		throw live_unavailable("libtraceevent has no ring-buffer page reader for this kernel");
	// The callbacks by name: kallsyms shows addresses to root only.
	try {
		s.kallsyms.load("/proc/kallsyms");
	} catch (const std::exception &) {
		missing_.push_back("/proc/kallsyms (callbacks shown by address)");
	}
	s.decoder = std::make_unique<tep_decoder>("live:" + name_, s.tep, 0, s.names);

	cpus_ = static_cast<unsigned>(std::max(1L, ::sysconf(_SC_NPROCESSORS_CONF)));
	lost_.assign(cpus_, 0);
	stats_.lost_cpus.clear();
	for (unsigned c = 0; c < cpus_; c++) {
		tracefs_cpu *t = lib.tracefs_cpu_open(s.instance, int(c), true);
		s.cpus.push_back(t);	// null: a CPU that is not there (offline)
		if (t)
			s.page.resize(std::max<std::size_t>(s.page.size(), lib.tracefs_cpu_read_size(t)));
	}
	if (s.page.empty())
		throw live_unavailable("cannot open any CPU's trace_pipe_raw in " + name_);

	if (!opt.record.empty()) {
		s.record = opt.record;
		for (unsigned c = 0; c < cpus_; c++) {
			s.cpu_files.push_back(opt.record + ".cpu" + std::to_string(c) + ".part");
			s.cpu_out.push_back(std::fopen(s.cpu_files.back().c_str(), "wb"));
			if (!s.cpu_out.back())
				throw live_unavailable("cannot write " + s.cpu_files.back() + ": " +
						       std::strerror(errno));
		}
	}
	lib.tracefs_instance_file_write(s.instance, "tracing_on", "1");
}

live_reader::~live_reader() = default;

symbol_fit live_reader::symbols_fit() const
{
	return {};
}

std::string_view live_reader::keep(std::string_view s)
{
	return *strings_.emplace(s).first;
}

// Every page CPU holds now, decoded.
void live_reader::read_cpu(unsigned cpu, std::vector<trace_event> &out)
{
	state &s = *st_;
	const live_libs_api &lib = *s.lib;
	tracefs_cpu *t = s.cpus[cpu];
	if (!t)
		return;
	for (;;) {
		int n = lib.tracefs_cpu_read(t, s.page.data(), true);
		if (n <= 0)
			return;
		pages_++;
		stats_.bytes += std::uint64_t(n);
		if (!s.cpu_out.empty() && !s.record_failed &&
		    std::fwrite(s.page.data(), 1, s.page.size(), s.cpu_out[cpu]) != s.page.size()) {
			s.record_failed = true;
			s.record_why = "cannot write " + s.cpu_files[cpu] + ": " + std::strerror(errno);
		}
		if (kbuffer_load_subbuffer(s.kbuf, s.page.data()) < 0)
			continue;
		int missed = lib.kbuffer_missed_events(s.kbuf);
		unsigned long long ts = 0;
		bool first = true;
		for (void *data = lib.kbuffer_read_event(s.kbuf, &ts); data;
		     data = lib.kbuffer_next_event(s.kbuf, &ts)) {
			tep_record rec{};
			rec.ts = ts;
			rec.data = data;
			rec.size = lib.kbuffer_event_size(s.kbuf);
			rec.cpu = int(cpu);
			stats_.lines++;
			trace_event ev;
			s.decoder->decode(&rec, stats_.lines, ev);
			ev.function = keep(ev.function);
			if (first && missed) {
				// The ring buffer overwrote events before this page:
				// the replay resynchronises after the gap.
				ev.has |= EF_AFTER_LOSS;
				std::uint64_t lost = missed > 0 ? std::uint64_t(missed) : 1;
				lost_[cpu] += lost;
				stats_.lost_events += lost;
			}
			first = false;
			out.push_back(ev);
		}
	}
}

// Sorts FRESH into the held events and moves the ones old enough (all:
// every one) to ready_.
void live_reader::release(std::vector<trace_event> &fresh, bool all)
{
	const std::uint64_t horizon = now_ns() - hold_back_ns;
	held_.insert(held_.end(), fresh.begin(), fresh.end());
	std::stable_sort(held_.begin(), held_.end(), [](const trace_event &a, const trace_event &b) {
		return a.ts_ns != b.ts_ns ? a.ts_ns < b.ts_ns : a.cpu < b.cpu;
	});
	std::size_t n = 0;
	while (n < held_.size() && (all || held_[n].ts_ns < horizon))
		n++;
	for (std::size_t i = 0; i < n; i++) {
		held_[i].line = ++stats_.events;
		ready_.push_back(held_[i]);
	}
	held_.erase(held_.begin(), held_.begin() + std::ptrdiff_t(n));
}

std::size_t live_reader::poll()
{
	if (drained_)
		return 0;
	std::size_t before = ready_.size();
	std::vector<trace_event> fresh;
	for (unsigned c = 0; c < cpus_; c++)
		read_cpu(c, fresh);
	release(fresh, stopped_);
	if (stopped_)
		drained_ = true;
	return ready_.size() - before;
}

void live_reader::stop()
{
	if (stopped_)
		return;
	stopped_ = true;
	st_->lib->tracefs_instance_file_write(st_->instance, "tracing_on", "0");
	poll();
}

bool live_reader::try_next(trace_event &ev)
{
	if (ready_.empty())
		return false;
	ev = ready_.front();
	ready_.pop_front();
	return true;
}

bool live_reader::next(trace_event &ev)
{
	while (ready_.empty()) {
		if (drained_)
			return false;
		if (!poll() && !stopped_)
			std::this_thread::sleep_for(idle_poll);
	}
	return try_next(ev);
}

bool live_reader::finish_record(std::string &why)
{
	state &s = *st_;
	if (s.record.empty())
		return true;
	for (std::FILE *&f : s.cpu_out) {
		if (std::fclose(f) != 0 && !s.record_failed) {
			s.record_failed = true;
			s.record_why = "cannot write the CPU data: " + std::string(std::strerror(errno));
		}
		f = nullptr;
	}
	if (s.record_failed) {
		why = s.record_why;
		return false;
	}
	const live_libs_api &lib = *s.lib;
	std::string part = s.record + ".part";
	tracecmd_output *h = lib.tracecmd_output_create(part.c_str());
	const char *step = "create it";
	bool ok = h != nullptr;
	auto then = [&](const char *what, int rc) {
		if (ok && rc != 0) {
			ok = false;
			step = what;
		}
	};
	// Version 6, uncompressed: what every trace.dat reader reads.
	tracecmd_event_list irq_vectors{nullptr, "irq_vectors:*"};
	tracecmd_event_list irq{&irq_vectors, "irq:*"};
	tracecmd_event_list timer{&irq, "timer:*"};
	then("set its version", ok ? lib.tracecmd_output_set_version(h, 6) : 0);
	then("read tracefs", ok ? lib.tracecmd_output_set_trace_dir(h, s.tracing_dir.c_str()) : 0);
	then("write the headers", ok ? lib.tracecmd_output_write_headers(h, &timer) : 0);
	then("write the command lines", ok ? lib.tracecmd_write_cmdlines(h) : 0);
	then("write the CPU count", ok ? lib.tracecmd_write_cpus(h, int(cpus_)) : 0);
	then("write the options", ok ? lib.tracecmd_write_options(h) : 0);
	std::vector<char *> files;
	for (std::string &f : s.cpu_files)
		files.push_back(f.data());
	then("write the CPU data", ok ? lib.tracecmd_write_cpu_data(h, int(cpus_), files.data(), nullptr) : 0);
	if (h)
		lib.tracecmd_output_close(h);
	if (ok && std::rename(part.c_str(), s.record.c_str()) != 0)
		ok = false;
	if (!ok) {
		std::remove(part.c_str());
		why = "libtracecmd could not " + std::string(step) + " of the trace.dat " + s.record +
		      (tracecmd_lib_messages().count ? " (" + tracecmd_lib_messages().last + ")" : "");
		return false;
	}
	return true;
}

}  // namespace timersim
