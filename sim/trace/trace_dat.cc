// trace-cmd trace.dat reader, through libtracecmd and libtraceevent.
//
// Records come from each CPU's buffer in time order; next() merges the CPUs
// by timestamp (ties: lower CPU first). Fields are read by name from the
// event formats stored in the file, so one reader serves every kernel
// version: optional fields (bucket_expiry, baseclk, ...) are simply present
// or not. `timeout`, `cpu` and `idx` of timer_start are not stored by the
// kernel: its print format derives them from `now` and `flags`, and so do we.
//
// Only the "timer" event formats are parsed, and callbacks are named from
// the file's kallsyms by our own symbol_table (see libtracecmd_hooks.h):
// that makes opening five times faster than libtraceevent's full parse.
//
// Bad input: check_trace_dat_layout() first checks the sizes the headers
// promise against the file (libtracecmd reads a cut file silently as far as
// it goes); the libraries' own messages are caught through tep_vprint and
// become input_errors instead of lines on stderr.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <unordered_map>
#include <vector>

#include "sim/trace/binary_names.h"
#include "sim/trace/libtracecmd.h"
#include "sim/trace/libtracecmd_hooks.h"
#include "sim/trace/reader.h"
#include "sim/trace/stderr_capture.h"
#include "sim/trace/symbols.h"
#include "sim/trace/trace_dat_layout.h"

namespace timersim {

namespace {

tracecmd_messages &messages()
{
	return tracecmd_lib_messages();
}

// "Linux host 4.7.2-arch x86_64" -> 407; 0 when unknown.
unsigned uname_release(const char *uname)
{
	char sys[64], host[256], release[256];
	if (!uname || std::sscanf(uname, "%63s %255s %255s", sys, host, release) != 3)
		return 0;
	return kernel_release(release);
}

// Per event id: its kind and the fields we read, found once by name.
struct event_info {
	event_kind kind = event_kind::other;
	const char *name = "";
	tep_format_field *timer = nullptr;	// timer or hrtimer
	tep_format_field *function = nullptr;
	tep_format_field *expires = nullptr;
	tep_format_field *now = nullptr;
	tep_format_field *timeout = nullptr;
	tep_format_field *flags = nullptr;
	tep_format_field *bucket_expiry = nullptr;
	tep_format_field *baseclk = nullptr;
	tep_format_field *cpu = nullptr;
	tep_format_field *idx = nullptr;
	tep_format_field *is_idle = nullptr;
};

class trace_dat_reader : public trace_reader {
public:
	trace_dat_reader(const std::string &path, const reader_options &opt);

	bool next(trace_event &ev) override;
	const reader_stats &stats() const override { return stats_; }
	trace_format format() const override { return trace_format::trace_dat; }
	unsigned declared_cpus() const override { return cpus_; }

private:
	[[noreturn]] void fail(const std::string &why) const;
	static std::string page_damage()
	{
		return "a ring-buffer page claims more data than a page holds: corrupt data";
	}
	tep_record *read_cpu(int cpu);
	void finish();
	const event_info &info_of(tep_record *rec);
	std::uint64_t field(const tep_format_field *f, tep_record *rec) const;
	void decode(const event_info &ei, tep_record *rec, trace_event &ev);

	std::string path_;
	// Owns the handle and the records read ahead. A member, so that a
	// constructor that throws still releases them.
	struct library_state {
		tracecmd_input *handle = nullptr;
		std::vector<tep_record *> heads;	// next record of each CPU
		library_state() = default;
		library_state(const library_state &) = delete;
		library_state &operator=(const library_state &) = delete;
		~library_state()
		{
			for (tep_record *r : heads)
				if (r)
					tracecmd_free_record(r);
			if (handle)
				tracecmd_close(handle);
		}
	} lib_;
	tep_handle *tep_ = nullptr;
	std::unique_ptr<tracecmd_page_check> pages_;
	unsigned cpus_ = 0;
	std::uint64_t file_size_ = 0;
	std::vector<std::uint64_t> read_;	// records read per CPU
	std::vector<std::int64_t> read_events_;	// per CPU as the kernel counted, -1 unknown
	bool target_cpu_ = true;		// hand on cpu= and idx= from the flags
	std::unordered_map<int, event_info> infos_;
	unsigned release_ = 0;			// recording kernel, 0 unknown (or 6.8+)
	symbol_table symbols_;		// reader_options::symbols
	symbol_table file_symbols_;	// the file's own kallsyms
	std::unordered_map<int, std::string> other_names_;	// formats left unparsed
	std::string function_;
	reader_stats stats_;
	bool done_ = false;
	bool lenient_ = false;
};

// "CPU: 1\n...\nread events: 17034\n" blocks: how many events the kernel
// handed to trace-cmd from each CPU's buffer, when the file saved it.
std::vector<std::int64_t> read_events_of(const char *cpustats, unsigned cpus)
{
	std::vector<std::int64_t> n(cpus, -1);
	if (!cpustats)
		return n;
	long cpu = -1;
	for (const char *p = cpustats; *p;) {
		const char *eol = std::strchr(p, '\n');
		std::string line(p, eol ? eol - p : std::strlen(p));
		unsigned long long v;
		if (std::sscanf(line.c_str(), "CPU: %llu", &v) == 1)
			cpu = v < cpus ? static_cast<long>(v) : -1;
		else if (cpu >= 0 && std::sscanf(line.c_str(), "read events: %llu", &v) == 1)
			n[cpu] = static_cast<std::int64_t>(v);
		if (!eol)
			break;
		p = eol + 1;
	}
	return n;
}

trace_dat_reader::trace_dat_reader(const std::string &path, const reader_options &opt)
	: path_(path), lenient_(opt.lenient)
{
	trace_dat_layout lay = check_trace_dat_layout(path);
	file_size_ = lay.file_size;
	if (lay.latency)
		fail("a latency-tracer trace.dat holds text, not event records");
	if (!opt.symbols.empty())
		symbols_.load(opt.symbols);

	// Warnings and errors reach our tep_vprint (libtracecmd_hooks.h);
	// what the libraries print by other ways (perror) is caught while
	// opening.
	tracecmd_set_loglevel(TEP_LOG_WARNING);
	tep_set_loglevel(TEP_LOG_WARNING);
	std::uint64_t before = messages().count;
	auto why = [&](stderr_capture &cap) {
		std::string text = first_error_line(cap.text());
		if (!text.empty())
			return text;
		if (messages().count != before)
			return "last library message: " + messages().last;
		return std::string("no reason given");
	};
	{
		stderr_capture cap;
		tracecmd_open_diversion divert(other_names_, file_symbols_, path + " (kallsyms)");
		lib_.handle = tracecmd_open_head(path.c_str(), TRACECMD_FL_LOAD_NO_PLUGINS |
							     TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
		if (!lib_.handle)
			fail("libtracecmd cannot read the headers: " + why(cap));
		if (!divert.error.empty())
			fail(divert.error);
		tep_ = tracecmd_get_tep(lib_.handle);
		if (!tep_)
			fail("libtracecmd read no event formats");
		unsigned page = tep_get_page_size(tep_);
		if (tep_get_sub_buffer_size(tep_) > 0)
			page = std::max(page, static_cast<unsigned>(tep_get_sub_buffer_size(tep_)));
		if (page < 64 || page > (1u << 24))
			fail("bad ring-buffer page size " + std::to_string(page));
		pages_ = std::make_unique<tracecmd_page_check>(
			page, tep_get_header_page_size(tep_), tep_is_file_bigendian(tep_));
		tracecmd_page_check::active check(*pages_);
		if (tracecmd_init_data(lib_.handle) < 0) {
			// libtracecmd 1.3 crashes in tracecmd_close() on a handle
			// whose data failed to initialise (seen with a corrupt
			// compressed chunk): such handles are never closed, only
			// kept where leak checkers see them as reachable.
			static auto *abandoned = new std::vector<tracecmd_input *>;
			abandoned->push_back(lib_.handle);
			lib_.handle = nullptr;
			fail("libtracecmd cannot read the CPU data: " +
			     (pages_->bad_pages ? page_damage() : why(cap)));
		}
	}
	// Buffer instances (trace-cmd record -B) are separate ring buffers
	// with their own CPU data. Reading only the top one would drop their
	// events without a word, so such files are refused.
	if (int n = tracecmd_buffer_instances(lib_.handle); n > 0) {
		const char *name = tracecmd_buffer_instance_name(lib_.handle, 0);
		fail("holds " + std::to_string(n) + " ftrace buffer instance(s) (\"" +
		     (name ? name : "?") + "\"...) besides the top buffer; reading them " +
		     "is not supported");
	}
	int cpus = tep_get_cpus(tep_);
	if (cpus < 0 || cpus > 65536)
		fail("bad CPU count " + std::to_string(cpus));
	cpus_ = cpus;
	read_events_ = read_events_of(tracecmd_get_cpustats(lib_.handle), cpus_);

	// The flag layout: 6.8+ files say it by their bucket_expiry field,
	// older ones by the recording kernel's release. The base CPU and the
	// wheel index are in the flags since 4.2 and 4.8, but the text formats
	// print them (cpu=, idx=) only from 4.11 on; we hand them on from the
	// same versions, so that every rendering of a trace replays alike.
	release_ = 0;
	tep_event *start = tep_find_event_by_name(tep_, "timer", "timer_start");
	if (!start || !tep_find_field(start, "bucket_expiry"))
		release_ = uname_release(tracecmd_get_uname(lib_.handle));
	target_cpu_ = !release_ || release_ >= 411;

	lib_.heads.assign(cpus_, nullptr);
	read_.assign(cpus_, 0);
	stderr_capture cap;	// a page that cannot be mapped is perror()ed
	for (unsigned c = 0; c < cpus_; c++)
		lib_.heads[c] = read_cpu(c);
}

void trace_dat_reader::fail(const std::string &why) const
{
	throw input_error(path_, 0, why);
}

// The next record of one CPU. libtracecmd returns NULL both at the end of a
// CPU's data and when a page cannot be read or decompressed; only its
// message tells them apart.
tep_record *trace_dat_reader::read_cpu(int cpu)
{
	std::uint64_t before = messages().count;
	tracecmd_page_check::active check(*pages_);
	tep_record *rec = tracecmd_read_data(lib_.handle, cpu);
	if (messages().count != before) {
		if (rec)
			tracecmd_free_record(rec);
		fail("CPU " + std::to_string(cpu) + " data unreadable after record " +
		     std::to_string(read_[cpu]) + " of that CPU: " +
		     (pages_->bad_pages ? page_damage() : messages().last));
	}
	if (rec)
		read_[cpu]++;
	return rec;
}

const event_info &trace_dat_reader::info_of(tep_record *rec)
{
	int id = tep_data_type(tep_, rec);
	auto it = infos_.find(id);
	if (it != infos_.end())
		return it->second;
	tep_event *e = tep_find_event(tep_, id);
	auto other = e ? other_names_.end() : other_names_.find(id);
	if (other != other_names_.end()) {	// a format we left unparsed
		event_info ei;
		ei.name = other->second.c_str();
		ei.kind = event_kind_of(ei.name);
		return infos_.emplace(id, ei).first->second;
	}
	if (!e)
		fail("record " + std::to_string(stats_.lines) + " (CPU " +
		     std::to_string(rec->cpu) + ") has event id " + std::to_string(id) +
		     ", which the file does not describe: corrupt data");
	event_info ei;
	ei.name = e->name;
	ei.kind = event_kind_of(e->name);
	if (ei.kind != event_kind::other) {
		ei.timer = tep_find_field(e, "timer");
		if (!ei.timer)
			ei.timer = tep_find_field(e, "hrtimer");
		ei.function = tep_find_field(e, "function");
		ei.expires = tep_find_field(e, "expires");
		ei.now = tep_find_field(e, "now");
		ei.timeout = tep_find_field(e, "timeout");
		ei.bucket_expiry = tep_find_field(e, "bucket_expiry");
		ei.baseclk = tep_find_field(e, "baseclk");
		ei.cpu = tep_find_field(e, "cpu");
		ei.idx = tep_find_field(e, "idx");
		ei.is_idle = tep_find_field(e, "is_idle");
		if (ei.kind != event_kind::hrtimer)	// hrtimer flags are modes
			ei.flags = tep_find_field(e, "flags");
	}
	return infos_.emplace(id, ei).first->second;
}

std::uint64_t trace_dat_reader::field(const tep_format_field *f, tep_record *rec) const
{
	unsigned long long v = 0;
	if (f->offset < 0 || f->offset + f->size > rec->size ||
	    tep_read_number_field(const_cast<tep_format_field *>(f), rec->data, &v) != 0)
		fail("record " + std::to_string(stats_.lines) + " (CPU " + std::to_string(rec->cpu) +
		     "): field " + f->name + " lies outside the record");
	return v;
}

void trace_dat_reader::decode(const event_info &ei, tep_record *rec, trace_event &ev)
{
	ev = trace_event{};
	ev.kind = ei.kind;
	ev.name = ei.name;
	ev.cpu = rec->cpu;
	ev.ts_ns = rec->ts;
	ev.line = stats_.lines;
	ev.has = EF_TIMESTAMP;
	if (ei.kind == event_kind::other)
		return;
	if (ei.timer) {
		ev.timer = field(ei.timer, rec);
		ev.timer_digits = static_cast<std::uint8_t>(2 * ei.timer->size);
	}
	if (ei.function) {
		std::uint64_t addr = field(ei.function, rec);
		std::string_view name = file_symbols_.lookup(addr);
		if (name.empty())
			name = symbols_.lookup(addr);
		if (name.empty()) {
			function_ = hex_address(addr);
			name = function_;
		}
		ev.function = name;
	}
	if (ei.expires)
		ev.expires = field(ei.expires, rec);
	if (ei.now)
		ev.now = field(ei.now, rec);
	if (ei.timeout) {
		ev.timeout = static_cast<std::int64_t>(field(ei.timeout, rec));
		ev.has |= EF_TIMEOUT;
	} else if (ei.kind == event_kind::timer_start && ei.expires && ei.now) {
		ev.timeout = static_cast<std::int64_t>(ev.expires - ev.now);
		ev.has |= EF_TIMEOUT;
	}
	if (ei.bucket_expiry) {
		ev.bucket_expiry = field(ei.bucket_expiry, rec);
		ev.has |= EF_BUCKET_EXPIRY;
	}
	if (ei.baseclk) {
		ev.baseclk = field(ei.baseclk, rec);
		ev.has |= EF_BASECLK;
	}
	if (ei.flags) {
		// timer->flags also holds the base CPU (and, 4.8+, the wheel
		// index); the text formats print them as cpu= and idx= (4.11+).
		timer_flag_word w = decode_timer_flags(
			static_cast<std::uint32_t>(field(ei.flags, rec)), release_);
		ev.flags = w.flags;
		ev.has |= EF_FLAGS;
		if (ei.kind == event_kind::timer_start && target_cpu_) {
			ev.target_cpu = w.cpu;
			ev.has |= EF_TARGET_CPU;
			if (w.has_idx) {
				ev.idx = w.idx;
				ev.has |= EF_IDX;
			}
		}
	}
	if (ei.cpu) {
		ev.target_cpu = static_cast<std::uint32_t>(field(ei.cpu, rec));
		ev.has |= EF_TARGET_CPU;
	}
	if (ei.idx) {
		ev.idx = static_cast<std::uint32_t>(field(ei.idx, rec));
		ev.has |= EF_IDX;
	}
	if (ei.is_idle)
		ev.is_idle = field(ei.is_idle, rec) != 0;
}

bool trace_dat_reader::next(trace_event &ev)
{
	while (!done_) {
		int best = -1;
		for (unsigned c = 0; c < cpus_; c++)
			if (lib_.heads[c] &&
			    (best < 0 || lib_.heads[c]->ts < lib_.heads[best]->ts))
				best = c;
		if (best < 0) {
			finish();
			return false;
		}
		tep_record *rec = lib_.heads[best];
		lib_.heads[best] = nullptr;
		stats_.lines++;
		bool ok = true;
		try {
			decode(info_of(rec), rec, ev);
		} catch (const input_error &) {
			// A record of an event the file does not describe, or
			// too short for its fields: corrupt data. Lenient
			// reading counts it and goes on.
			if (!lenient_) {
				tracecmd_free_record(rec);
				throw;
			}
			ok = false;
		}
		tracecmd_free_record(rec);
		lib_.heads[best] = read_cpu(best);
		if (ok) {
			stats_.events++;
			return true;
		}
		stats_.skipped++;
		stats_.malformed++;
	}
	return false;
}

// The end of every CPU's data. Damaged compressed data can decompress
// "fine" into pages with fewer records, or more; the kernel's count of the
// events it handed to trace-cmd tells. (A file extracted after another
// reader consumed events would fail this too: --lenient reads it anyway.)
void trace_dat_reader::finish()
{
	for (unsigned c = 0; c < cpus_ && !lenient_; c++)
		if (read_events_[c] >= 0 && read_[c] != static_cast<std::uint64_t>(read_events_[c]))
			fail("CPU " + std::to_string(c) + " data holds " + std::to_string(read_[c]) +
			     " records, but the recording kernel handed out " +
			     std::to_string(read_events_[c]) + " events: data lost or corrupt");
	done_ = true;
	stats_.bytes = file_size_;
}

}  // namespace

std::unique_ptr<trace_reader> make_trace_dat_reader(const std::string &path,
						    const reader_options &opt)
{
	return std::make_unique<trace_dat_reader>(path, opt);
}

}  // namespace timersim
