// LTTng CTF reader (a directory with `metadata` and channel files), through
// libbabeltrace 1.x.
//
// Why 1.x and not babeltrace2: the LTTng 2.1 traces we have (linux-3.6
// scp_dest) have packets whose timestamps step back behind the previous
// packet's end; babeltrace2's muxer refuses them, 1.x reads every event and
// still merges the streams in timestamp order.
//
// libbabeltrace 1.x reports damage only as "[error] ..." lines on stderr
// and, for a packet it cannot index, by ending the stream early; on some
// damage it corrupts its heap or loops. So the reader opens in two passes:
// the first, in a child process, reads every event with stderr caught and
// turns any error, crash or stall into an input_error (a damaged trace
// gives no events at all, never a silent part of them); the second hands
// the events out. Reading is cheap next to the replay, and memory stays
// constant.
#include <babeltrace/babeltrace.h>
#include <babeltrace/ctf/events.h>
#include <babeltrace/ctf/iterator.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <unordered_map>

#include "sim/trace/binary_names.h"
#include "sim/trace/ctf_metadata.h"
#include "sim/trace/reader.h"
#include "sim/trace/stderr_capture.h"
#include "sim/trace/symbols.h"

namespace timersim {

namespace {

// The value of an integer field; false when DEF is null or not an integer.
// Signed fields (hrtimer expires, now) keep their bits.
bool int_value(const bt_definition *def, std::uint64_t &out, unsigned *bits = nullptr)
{
	if (!def)
		return false;
	const bt_declaration *decl = bt_ctf_get_decl_from_def(def);
	if (!decl || bt_ctf_field_type(decl) != CTF_TYPE_INTEGER)
		return false;
	out = bt_ctf_get_int_signedness(decl) == 1
		? static_cast<std::uint64_t>(bt_ctf_get_int64(def))
		: bt_ctf_get_uint64(def);
	if (bits)
		*bits = static_cast<unsigned>(bt_ctf_get_int_len(decl));
	return bt_ctf_field_get_error() == 0;
}

// The fields we read, by name. Their places in an event's payload are found
// once per event class: babeltrace's lookups by name (a string hash and a
// mutex each) cost more than all the rest of reading.
enum field_slot {
	S_TIMER, S_HRTIMER, S_FUNCTION, S_EXPIRES, S_NOW, S_TIMEOUT, S_BUCKET_EXPIRY,
	S_BASECLK, S_FLAGS, S_CPU, S_IS_IDLE, S_COUNT
};
constexpr const char *slot_names[S_COUNT] = {
	"timer", "hrtimer", "function", "expires", "now", "timeout", "bucket_expiry",
	"baseclk", "flags", "cpu", "is_idle",
};

struct event_class {
	std::string name;	// the kernel's name
	event_kind kind = event_kind::other;
	unsigned fields = ~0u;	// payload field count the slots were found for
	int slot[S_COUNT];	// index in the payload, -1 when absent
};

// A scope's field list, and the index of NAME in it (-1 when absent).
int field_index(const bt_definition *const *list, unsigned count, const char *name)
{
	for (unsigned i = 0; i < count; i++) {
		const char *n = bt_ctf_field_name(list[i]);
		if (n && std::strcmp(n, name) == 0)
			return static_cast<int>(i);
	}
	return -1;
}

// The env block of the metadata names the recording kernel:
// kernel_release = "3.6.11-1-ARCH";
unsigned metadata_release(const std::string &text)
{
	const std::string key = "kernel_release = \"";
	std::size_t at = text.find(key);
	if (at == std::string::npos)
		return 0;
	return kernel_release(std::string_view(text).substr(at + key.size(), 16));
}

class ctf_reader : public trace_reader {
public:
	ctf_reader(const std::string &path, const reader_options &opt);

	bool next(trace_event &ev) override;
	const reader_stats &stats() const override { return stats_; }
	trace_format format() const override { return trace_format::ctf; }
	unsigned declared_cpus() const override { return cpus_; }

private:
	[[noreturn]] void fail(const std::string &why) const
	{
		throw input_error(path_, 0, why);
	}
	void list_streams();
	void open_iter();
	void close_iter();
	struct first_pass {
		std::uint64_t events = 0;
		unsigned cpus = 0;
		std::string error;	// empty: the trace read cleanly
	};
	first_pass read_through(void (*progress)(int), int arg);
	void validate();
	void open_context();
	void decode(const bt_ctf_event *e, trace_event &ev);
	bool cpu_of(const bt_ctf_event *e, std::uint64_t &cpu);
	event_class &class_of(const bt_ctf_event *e);

	std::string path_;
	// Owns the babeltrace context and iterator. A member, so that a
	// constructor that throws still releases them.
	struct library_state {
		bt_context *ctx = nullptr;
		bt_ctf_iter *iter = nullptr;
		library_state() = default;
		library_state(const library_state &) = delete;
		library_state &operator=(const library_state &) = delete;
		~library_state() { reset(); }
		void reset()
		{
			if (iter)
				bt_ctf_iter_destroy(iter);
			if (ctx)
				bt_context_put(ctx);
			iter = nullptr;
			ctx = nullptr;
		}
	} lib_;
	bool started_ = false;		// the iterator stands on an unread event
	unsigned cpus_ = 0;
	unsigned release_ = 0;
	std::uint64_t total_ = 0;	// events the first pass counted
	std::uint64_t bytes_ = 0;	// metadata + stream files
	// By babeltrace's interned event name (a stable pointer).
	std::unordered_map<const char *, event_class> classes_;
	// The packet context last seen and the place of cpu_id in it.
	const bt_definition *packet_scope_ = nullptr;
	int cpu_index_ = -1;
	symbol_table symbols_;
	std::string function_;
	reader_stats stats_;
};

ctf_reader::ctf_reader(const std::string &path, const reader_options &opt) : path_(path)
{
	list_streams();
	if (!opt.symbols.empty())
		symbols_.load(opt.symbols);
	release_ = metadata_release(read_ctf_metadata(path + "/metadata"));
	validate();
	open_context();
	open_iter();
}

void ctf_reader::open_context()
{
	lib_.ctx = bt_context_create();
	if (!lib_.ctx)
		fail("cannot create a babeltrace context");
	stderr_capture cap;
	int id = bt_context_add_trace(lib_.ctx, path_.c_str(), "ctf", nullptr, nullptr, nullptr);
	std::string text = cap.text();
	if (id < 0)
		fail("babeltrace cannot open the CTF trace: " +
		     (text.empty() ? std::string("bad metadata or stream files")
				   : first_error_line(text)));
	if (text.find("[error]") != std::string::npos)
		fail("damaged CTF trace: " + first_error_line(text));
}

// The stream files (every regular file but the metadata) must exist and
// be readable; their sizes are the bytes the reader consumes.
void ctf_reader::list_streams()
{
	struct stat st;
	if (stat(path_.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
		fail("not a CTF trace directory");
	std::string meta = path_ + "/metadata";
	if (stat(meta.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
		fail("not a CTF trace: no metadata file");
	bytes_ = st.st_size;
	DIR *d = opendir(path_.c_str());
	if (!d)
		fail("cannot list the trace directory");
	unsigned streams = 0;
	while (dirent *de = readdir(d)) {
		std::string name = de->d_name;
		if (name == "metadata" || name.empty() || name[0] == '.')
			continue;
		std::string file = path_ + "/" + name;
		if (stat(file.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
			// A tracer writes at least one packet per stream file.
			if (!st.st_size) {
				closedir(d);
				fail("stream file " + name + " is empty (truncated?)");
			}
			bytes_ += st.st_size;
			streams++;
		}
	}
	closedir(d);
	if (!streams)
		fail("CTF trace without stream files");
}

void ctf_reader::open_iter()
{
	lib_.iter = bt_ctf_iter_create(lib_.ctx, nullptr, nullptr);
	if (!lib_.iter)
		fail("babeltrace cannot iterate over the trace");
	started_ = false;
}

void ctf_reader::close_iter()
{
	if (lib_.iter)
		bt_ctf_iter_destroy(lib_.iter);
	lib_.iter = nullptr;
}

// The first pass: the trace opened and every event read, stderr caught,
// the CPUs counted. PROGRESS, when set, is called every 4096 events.
ctf_reader::first_pass ctf_reader::read_through(void (*progress)(int), int arg)
{
	first_pass r;
	try {
		open_context();
		stderr_capture cap;
		open_iter();
		std::uint64_t max_cpu = 0;
		bool any_cpu = false;
		int ret = 0;
		while (const bt_ctf_event *e = bt_ctf_iter_read_event(lib_.iter)) {
			if (++r.events % 4096 == 0 && progress)
				progress(arg);
			std::uint64_t cpu;
			if (cpu_of(e, cpu)) {
				any_cpu = true;
				max_cpu = std::max(max_cpu, cpu);
			}
			ret = bt_iter_next(bt_ctf_get_iter(lib_.iter));
			if (ret < 0)
				break;
		}
		close_iter();
		std::string text = cap.text();
		if (ret < 0 || text.find("[error]") != std::string::npos)
			r.error = "damaged CTF stream, reading stops after event " +
				  std::to_string(r.events) + ": " +
				  (text.empty() ? "babeltrace error " + std::to_string(ret)
						: first_error_line(text));
		r.cpus = any_cpu && max_cpu < 65536 ? static_cast<unsigned>(max_cpu + 1) : 0;
	} catch (const input_error &e) {
		r.error = e.reason();
	} catch (const std::exception &e) {
		r.error = e.what();
	}
	return r;
}

namespace {

void write_all(int fd, const std::string &s)
{
	for (std::size_t done = 0; done < s.size();) {
		ssize_t n = ::write(fd, s.data() + done, s.size() - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		done += n;
	}
}

void progress_dot(int fd)
{
	write_all(fd, ".");
}

constexpr int stall_ms = 10000;	// no progress for that long: a hang

// A damaged length can make libbabeltrace allocate and fill gigabytes; the
// child gets an address-space limit well above what reading needs (it maps
// one packet at a time). Not under AddressSanitizer, whose shadow memory
// needs terabytes of address space.
void limit_memory(std::uint64_t trace_bytes)
{
#if !defined(__SANITIZE_ADDRESS__)
	rlimit lim;
	lim.rlim_cur = lim.rlim_max = (std::uint64_t(4) << 30) + trace_bytes;
	setrlimit(RLIMIT_AS, &lim);
#else
	(void)trace_bytes;
#endif
}

}  // namespace

// libbabeltrace 1.x can corrupt its heap on a damaged sequence length, or
// loop on odd metadata. So the first pass runs in a child process: a crash
// or a stall there is an input_error here, and a trace that read cleanly
// there reads the same way in this process. Where fork() fails, the pass
// runs here.
void ctf_reader::validate()
{
	int fds[2];
	pid_t pid = -1;
	const pid_t parent = getpid();
	if (pipe2(fds, O_CLOEXEC) == 0) {
		pid = fork();
		if (pid < 0) {
			::close(fds[0]);
			::close(fds[1]);
		}
	}
	if (pid < 0) {
		first_pass r = read_through(nullptr, -1);
		lib_.reset();	// the second pass opens its own
		if (!r.error.empty())
			fail(r.error);
		total_ = r.events;
		cpus_ = r.cpus;
		return;
	}
	if (pid == 0) {
		// Dies with us, whatever kills us.
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);
		::close(fds[0]);
		limit_memory(bytes_);
		first_pass r = read_through(progress_dot, fds[1]);
		write_all(fds[1], "R " + std::to_string(r.events) + " " + std::to_string(r.cpus) +
					  "\n" + r.error);
		_exit(0);	// no atexit handlers, no stdio flush: they are the parent's
	}
	::close(fds[1]);
	std::string out;
	bool stalled = false;
	for (;;) {
		pollfd p = {fds[0], POLLIN, 0};
		int k = poll(&p, 1, stall_ms);
		if (k == 0) {
			stalled = true;
			break;
		}
		if (k < 0 && errno == EINTR)
			continue;
		char buf[4096];
		ssize_t n = k < 0 ? -1 : ::read(fds[0], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		out.append(buf, n);
	}
	::close(fds[0]);
	if (stalled)
		kill(pid, SIGKILL);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (stalled)
		fail("babeltrace made no progress for " + std::to_string(stall_ms / 1000) +
		     " s: damaged trace?");
	if (WIFSIGNALED(status))
		fail("babeltrace crashed (" + std::string(strsignal(WTERMSIG(status))) +
		     ") reading the trace: damaged data");
	std::size_t r = out.find('R');
	unsigned long long events = 0;
	unsigned cpus = 0;
	int used = 0;
	if (r == std::string::npos ||
	    std::sscanf(out.c_str() + r, "R %llu %u\n%n", &events, &cpus, &used) < 2)
		fail("the first pass over the trace ended without a result");
	std::string error = out.substr(r + used);
	if (!error.empty())
		fail(error);
	total_ = events;
	cpus_ = cpus;
}

// cpu_id of the stream's packet context.
bool ctf_reader::cpu_of(const bt_ctf_event *e, std::uint64_t &cpu)
{
	const bt_definition *scope = bt_ctf_get_top_level_scope(e, BT_STREAM_PACKET_CONTEXT);
	const bt_definition *const *list;
	unsigned count;
	if (!scope || bt_ctf_get_field_list(e, scope, &list, &count) != 0)
		return false;
	// One stream's packet contexts share a definition, so its layout.
	if (scope != packet_scope_ || (cpu_index_ >= 0 && unsigned(cpu_index_) >= count)) {
		packet_scope_ = scope;
		cpu_index_ = field_index(list, count, "cpu_id");
	}
	return cpu_index_ >= 0 && int_value(list[cpu_index_], cpu);
}

event_class &ctf_reader::class_of(const bt_ctf_event *e)
{
	const char *raw = bt_ctf_event_name(e);
	if (!raw)
		fail("event " + std::to_string(stats_.lines) + " has no name");
	auto it = classes_.find(raw);
	if (it == classes_.end()) {
		event_class c;
		c.name = kernel_event_name(raw);
		c.kind = event_kind_of(c.name);
		it = classes_.emplace(raw, std::move(c)).first;
	}
	return it->second;
}

void ctf_reader::decode(const bt_ctf_event *e, trace_event &ev)
{
	ev = trace_event{};
	event_class &c = class_of(e);
	ev.name = c.name;
	ev.kind = c.kind;
	ev.ts_ns = bt_ctf_get_timestamp(e);
	ev.line = stats_.lines;
	ev.has = EF_TIMESTAMP;
	std::uint64_t v;
	if (cpu_of(e, v))
		ev.cpu = static_cast<std::uint32_t>(v);
	if (ev.kind == event_kind::other)
		return;

	const bt_definition *scope = bt_ctf_get_top_level_scope(e, BT_EVENT_FIELDS);
	const bt_definition *const *list = nullptr;
	unsigned count = 0;
	if (!scope || bt_ctf_get_field_list(e, scope, &list, &count) != 0)
		count = 0;
	if (count != c.fields) {
		for (int k = 0; k < S_COUNT; k++)
			c.slot[k] = field_index(list, count, slot_names[k]);
		c.fields = count;
	}
	auto field = [&](field_slot k, std::uint64_t &out, unsigned *bits = nullptr) {
		return c.slot[k] >= 0 && int_value(list[c.slot[k]], out, bits);
	};

	unsigned bits = 0;
	if (field(S_TIMER, ev.timer, &bits) || field(S_HRTIMER, ev.timer, &bits))
		ev.timer_digits = static_cast<std::uint8_t>(bits / 4);
	if (field(S_FUNCTION, v)) {
		std::string_view sym = symbols_.lookup(v);
		if (sym.empty()) {
			function_ = hex_address(v);
			sym = function_;
		}
		ev.function = sym;
	}
	bool expires = field(S_EXPIRES, ev.expires);
	bool now = field(S_NOW, ev.now);
	if (field(S_TIMEOUT, v)) {
		ev.timeout = static_cast<std::int64_t>(v);
		ev.has |= EF_TIMEOUT;
	} else if (ev.kind == event_kind::timer_start && expires && now) {
		// The kernel prints [timeout=%ld] as expires - now; LTTng
		// records the two.
		ev.timeout = static_cast<std::int64_t>(ev.expires - ev.now);
		ev.has |= EF_TIMEOUT;
	}
	if (field(S_BUCKET_EXPIRY, ev.bucket_expiry))
		ev.has |= EF_BUCKET_EXPIRY;
	if (field(S_BASECLK, ev.baseclk))
		ev.has |= EF_BASECLK;
	if (ev.kind != event_kind::hrtimer && field(S_FLAGS, v)) {
		timer_flag_word w = decode_timer_flags(static_cast<std::uint32_t>(v), release_);
		ev.flags = w.flags;
		ev.has |= EF_FLAGS;
		if (ev.kind == event_kind::timer_start && (!release_ || release_ >= 411)) {
			ev.target_cpu = w.cpu;
			ev.idx = w.idx;
			ev.has |= EF_TARGET_CPU;
			if (w.has_idx)
				ev.has |= EF_IDX;
		}
	}
	if (field(S_CPU, v)) {
		ev.target_cpu = static_cast<std::uint32_t>(v);
		ev.has |= EF_TARGET_CPU;
	}
	if (field(S_IS_IDLE, v))
		ev.is_idle = v != 0;
}

bool ctf_reader::next(trace_event &ev)
{
	if (!lib_.iter)
		return false;
	if (started_ && bt_iter_next(bt_ctf_get_iter(lib_.iter)) < 0)
		fail("babeltrace failed after event " + std::to_string(stats_.lines) +
		     " although the first pass read the trace");
	started_ = true;
	const bt_ctf_event *e = bt_ctf_iter_read_event(lib_.iter);
	if (!e) {
		if (stats_.lines != total_)
			fail("the second pass ended after " + std::to_string(stats_.lines) +
			     " events, the first read " + std::to_string(total_));
		close_iter();
		stats_.bytes = bytes_;
		return false;
	}
	stats_.lines++;
	decode(e, ev);
	stats_.events++;
	return true;
}

}  // namespace

#if defined(__SANITIZE_ADDRESS__)
// The libraries leak on damaged input: libbabeltrace 1.x the half-built
// trace when bt_context_add_trace() fails, libtraceevent a field of a
// garbled event format. Those are their leaks, not ours, and LeakSanitizer
// would fail every sanitizer run that reads a damaged trace. Their frames
// lack frame pointers, so the fast unwinder often stops at the allocator:
// glib's (only babeltrace uses glib here) and the metadata memstream's. A
// handle we forgot to close would still show: it is allocated in
// libtracecmd or by our own code.
extern "C" const char *__lsan_default_suppressions()
{
	return "leak:bt_context_add_trace\n"
	       "leak:libbabeltrace\n"
	       "leak:libglib-2.0.so\n"
	       "leak:_IO_mem_finish\n"
	       "leak:libtraceevent.so\n";
}
#endif

std::unique_ptr<trace_reader> make_ctf_reader(const std::string &path, const reader_options &opt)
{
	return std::make_unique<ctf_reader>(path, opt);
}

}  // namespace timersim
