// trace-cmd trace.dat reader through libtracecmd and libtraceevent: the
// reference our own reader (trace_dat.cc) is tested against, and what it
// hands files with timestamp conversions to (trace_dat.h).
//
// Records come from each CPU's buffer in time order; next() merges the CPUs
// by timestamp (ties: lower CPU first) and tep_decoder (tep_decode.h) reads
// their fields by name from the event formats stored in the file. `timeout`, `cpu` and `idx` of timer_start are not stored by the
// kernel: its print format derives them from `now` and `flags`, and so do we.
//
// Only the "timer", "irq" and "irq_vectors" event formats are parsed, and
// callbacks are named from
// the file's kallsyms by our own symbol_table (see libtracecmd_hooks.h):
// a replay needs no other format, and parsing all of a kernel's is most of
// what opening a file with libtraceevent costs.
//
// Bad input: read_trace_dat_file() first checks the sizes the headers
// promise against the file (libtracecmd reads a cut file silently as far as
// it goes); the libraries' own messages are caught through tep_vprint and
// become input_errors instead of lines on stderr.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "sim/trace/binary_fields.h"
#include "sim/trace/binary_names.h"
#include "sim/trace/irq_events.h"
#include "sim/trace/libtracecmd.h"
#include "sim/trace/libtracecmd_hooks.h"
#include "sim/trace/libtracecmd_load.h"
#include "sim/trace/reader.h"
#include "sim/trace/stderr_capture.h"
#include "sim/trace/symbols.h"
#include "sim/trace/tep_decode.h"
#include "sim/trace/trace_dat.h"
#include "sim/trace/trace_dat_file.h"

namespace timersim {

namespace {

tracecmd_messages &messages()
{
	return tracecmd_lib_messages();
}

// The libraries, loaded by the first reader that needs them.
const libtracecmd_api &lib()
{
	return libtracecmd();
}

class libtracecmd_reader : public trace_reader {
public:
	libtracecmd_reader(const std::string &path, const reader_options &opt);

	bool next(trace_event &ev) override;
	const reader_stats &stats() const override { return stats_; }
	trace_format format() const override { return trace_format::trace_dat; }
	unsigned declared_cpus() const override { return cpus_; }
	symbol_fit symbols_fit() const override { return symbols_.fit(); }
	const char *unit() const override { return "events"; }

private:
	[[noreturn]] void fail(const std::string &why) const;
	static std::string page_damage()
	{
		return "a ring-buffer page claims more data than a page holds: corrupt data";
	}
	tep_record *read_cpu(int cpu);
	void finish();

	std::string path_;
	// Owns the handle and the records read ahead. A member, so that a
	// constructor that throws still releases them.
	struct library_state {
		tracecmd_input *handle = nullptr;
		// The lone instance of a `trace-cmd extract -B NAME` file,
		// whose top buffer is empty: the records come from it.
		tracecmd_input *instance = nullptr;
		tracecmd_input *data() const { return instance ? instance : handle; }
		std::vector<tep_record *> heads;	// next record of each CPU
		library_state() = default;
		library_state(const library_state &) = delete;
		library_state &operator=(const library_state &) = delete;
		~library_state()
		{
			for (tep_record *r : heads)
				if (r)
					lib().tracecmd_free_record(r);
			if (instance)
				lib().tracecmd_close(instance);
			if (handle)
				lib().tracecmd_close(handle);
		}
	} lib_;
	tep_handle *tep_ = nullptr;
	std::unique_ptr<tracecmd_page_check> pages_;
	unsigned cpus_ = 0;
	std::uint64_t file_size_ = 0;
	std::vector<std::uint64_t> read_;	// records read per CPU
	std::vector<std::int64_t> read_events_;	// per CPU as the kernel counted, -1 unknown
	unsigned release_ = 0;			// recording kernel, 0 unknown (or 6.8+)
	symbol_table symbols_;		// reader_options::symbols
	symbol_table file_symbols_;	// the file's own kallsyms
	std::unordered_map<int, std::string> other_names_;	// formats left unparsed
	callback_names names_{{callback_names::of(file_symbols_), callback_names::of(symbols_)}};
	std::unique_ptr<tep_decoder> decoder_;	// once the formats and the release are known
	reader_stats stats_;
	bool done_ = false;
	bool lenient_ = false;
};

libtracecmd_reader::libtracecmd_reader(const std::string &path, const reader_options &opt)
	: path_(path), lenient_(opt.lenient)
{
	trace_dat_file lay = read_trace_dat_file(path);
	file_size_ = lay.file_size;
	if (lay.latency)
		fail("a latency-tracer trace.dat holds text, not event records");
	if (!opt.symbols.empty())
		symbols_.load(opt.symbols);

	try {
		libtracecmd();
	} catch (const std::runtime_error &e) {
		fail(std::string("this file is read through libtracecmd: ") + e.what());
	}
	// Warnings and errors reach our tep_vprint (libtracecmd_hooks.h);
	// what the libraries print by other ways (perror) is caught while
	// opening.
	lib().tracecmd_set_loglevel(TEP_LOG_WARNING);
	lib().tep_set_loglevel(TEP_LOG_WARNING);
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
		lib_.handle = lib().tracecmd_open_head(path.c_str(), TRACECMD_FL_LOAD_NO_PLUGINS |
							     TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
		if (!lib_.handle)
			fail("libtracecmd cannot read the headers: " + why(cap));
		if (!divert.error.empty())
			fail(divert.error);
		tep_ = lib().tracecmd_get_tep(lib_.handle);
		if (!tep_)
			fail("libtracecmd read no event formats");
		unsigned page = lib().tep_get_page_size(tep_);
		if (lib().tep_get_sub_buffer_size(tep_) > 0)
			page = std::max(page, static_cast<unsigned>(lib().tep_get_sub_buffer_size(tep_)));
		if (page < 64 || page > (1u << 24))
			fail("bad ring-buffer page size " + std::to_string(page));
		pages_ = std::make_unique<tracecmd_page_check>(
			page, lib().tep_get_header_page_size(tep_), lib().tep_is_file_bigendian(tep_));
		tracecmd_page_check::active check(*pages_);
		if (lib().tracecmd_init_data(lib_.handle) < 0) {
			// libtracecmd 1.3 crashes in lib().tracecmd_close() on a handle
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
	int n = lib().tracecmd_buffer_instances(lib_.handle);
	const char *name = n > 0 ? lib().tracecmd_buffer_instance_name(lib_.handle, 0) : nullptr;
	if (n == 1 && name && !lay.buffer.empty() && lay.buffer == name) {
		// The top buffer is empty (read_trace_dat_file() saw it): the
		// instance is the trace.
		stderr_capture cap;
		tracecmd_page_check::active check(*pages_);
		lib_.instance = lib().tracecmd_buffer_instance_handle(lib_.handle, 0);
		if (!lib_.instance)
			fail("libtracecmd cannot open the buffer \"" + lay.buffer + "\": " + why(cap));
		n = 0;
	}
	if (n > 0) {
		fail("holds " + std::to_string(n) + " ftrace buffer instance(s) (\"" +
		     (name ? name : "?") + "\"...) besides the top buffer; reading them " +
		     "is not supported");
	}
	int cpus = lib().tep_get_cpus(tep_);
	if (cpus < 0 || cpus > 65536)
		fail("bad CPU count " + std::to_string(cpus));
	cpus_ = cpus;
	const char *stats = lib().tracecmd_get_cpustats(lib_.data());
	read_events_ = tdat_read_events(stats ? stats : "", cpus_);

	// The flag layout: 6.8+ files say it by their bucket_expiry field,
	// older ones by the recording kernel's release. The base CPU and the
	// wheel index are in the flags since 4.2 and 4.8, but the text formats
	// print them (cpu=, idx=) only from 4.11 on; we hand them on from the
	// same versions, so that every rendering of a trace replays alike.
	release_ = 0;
	tep_event *start = lib().tep_find_event_by_name(tep_, "timer", "timer_start");
	const char *uname = lib().tracecmd_get_uname(lib_.handle);
	if ((!start || !lib().tep_find_field(start, "bucket_expiry")) && uname)
		release_ = tdat_uname_release(uname);

	decoder_ = std::make_unique<tep_decoder>(path_, tep_, release_, names_, &other_names_);
	lib_.heads.assign(cpus_, nullptr);
	read_.assign(cpus_, 0);
	stderr_capture cap;	// a page that cannot be mapped is perror()ed
	for (unsigned c = 0; c < cpus_; c++)
		lib_.heads[c] = read_cpu(c);
}

void libtracecmd_reader::fail(const std::string &why) const
{
	throw input_error(path_, 0, why);
}

// The next record of one CPU. libtracecmd returns NULL both at the end of a
// CPU's data and when a page cannot be read or decompressed; only its
// message tells them apart.
tep_record *libtracecmd_reader::read_cpu(int cpu)
{
	std::uint64_t before = messages().count;
	tracecmd_page_check::active check(*pages_);
	tep_record *rec = lib().tracecmd_read_data(lib_.data(), cpu);
	if (messages().count != before) {
		if (rec)
			lib().tracecmd_free_record(rec);
		fail("CPU " + std::to_string(cpu) + " data unreadable after record " +
		     std::to_string(read_[cpu]) + " of that CPU: " +
		     (pages_->bad_pages ? page_damage() : messages().last));
	}
	if (rec)
		read_[cpu]++;
	return rec;
}

bool libtracecmd_reader::next(trace_event &ev)
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
			decoder_->decode(rec, stats_.lines, ev);
		} catch (const input_error &) {
			// A record of an event the file does not describe, or
			// too short for its fields: corrupt data. Lenient
			// reading counts it and goes on.
			if (!lenient_) {
				lib().tracecmd_free_record(rec);
				throw;
			}
			ok = false;
		}
		lib().tracecmd_free_record(rec);
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

// The end of every CPU's data: the record counts checked (--lenient reads
// a file short of the kernel's counts as it is: a file extracted after
// another reader consumed events would fail the check too).
void libtracecmd_reader::finish()
{
	if (!lenient_)
		tdat_check_counts(path_, read_, read_events_);
	done_ = true;
	stats_.bytes = file_size_;
}

}  // namespace

std::unique_ptr<trace_reader> make_trace_dat_libtracecmd_reader(const std::string &path,
								const reader_options &opt)
{
	return std::make_unique<libtracecmd_reader>(path, opt);
}

}  // namespace timersim
