// trace-cmd trace.dat reader, our own: the file's structure from
// read_trace_dat_file() (trace_dat_file.h), each CPU's ring-buffer pages
// from tdat_cpu_reader (trace_dat_pages.h), the timer event fields from the
// formats stored in the file.
//
// libtracecmd's full open reads, inflates and parses everything a file
// holds, the 5 MB kallsyms included, before the first record; here only
// what a replay needs is read. The kallsyms are inflated and loaded on a
// second thread (from when the options say where they are, else from the
// first record that needs a callback name); from that record on, this one
// decodes the records that follow into a queue, callbacks as addresses,
// until the kallsyms are out or the queue holds reader_options::read_ahead
// records, and names are given as records leave the queue. libtracecmd stays as
// the reference the tests compare against, and reads the files this reader
// leaves to it (timestamp offset or TSC conversion options: trace_dat.h).
//
// Records come from each CPU's buffer in time order; next() merges the CPUs
// by timestamp (ties: lower CPU first). `timeout`, `cpu` and `idx` of
// timer_start are not stored by the kernel: its print format derives them
// from `now` and `flags`, and so do we (binary_fields.h).
#include <algorithm>
#include <array>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <endian.h>
#include <fcntl.h>
#include <future>
#include <memory>
#include <mutex>
#include <unistd.h>
#include <vector>

#include "sim/trace/binary_fields.h"
#include "sim/trace/binary_names.h"
#include "sim/trace/huge_ring.h"
#include "sim/trace/irq_events.h"
#include "sim/trace/reader.h"
#include "sim/trace/symbols.h"
#include "sim/trace/trace_dat.h"
#include "sim/trace/trace_dat_file.h"
#include "sim/trace/trace_dat_kallsyms.h"
#include "sim/trace/trace_dat_pages.h"

namespace timersim {

namespace {

// Where an event's fields we read are, by binary_slot.
using event_slots = std::array<const tdat_field *, BS_COUNT>;

// Per event id: its kind and where the fields we read are. A file
// describes every event of its kernel (a 6.18 one some 2,300, ids up to as
// many), a replay reads a dozen: the slots are kept apart for those, and
// the table of all stays small (40 bytes an id), since every page of it is
// a first-touch fault that a small trace.dat pays for.
struct event_info {
	bool known = false;
	event_kind kind = event_kind::other;
	std::string_view name;
	binary_event_name named;
	const event_slots *slot = nullptr;	// when kind is not other
	const tdat_field *irq_name = nullptr;	// irq_handler_entry's __data_loc name
};

// A record decoded, its callback not named yet.
struct pending {
	const event_info *info;
	std::uint32_t cpu;
	std::uint64_t ts, line;
	binary_slot_values v;
};

// Records decoded ahead of the replay while the kallsyms load: a 6.x
// kernel's take 5-10 ms to inflate and index, time enough to decode some
// 30,000 records that would otherwise wait for it (reader_options::
// read_ahead, 32768 unless told).

// Where a file's kallsyms lie, copied: the loading thread starts before
// the trace_dat_file is complete and moved into its reader.
struct kallsyms_at {
	std::string path, compression;
	bool big_endian = false;
	unsigned version = 0;
	tdat_extent extent;

	explicit kallsyms_at(const trace_dat_file &f)
		: path(f.path), compression(f.compression), big_endian(f.big_endian), version(f.version),
		  extent(f.kallsyms)
	{
	}
};

tdat_kallsyms load_kallsyms(const kallsyms_at &file);

class trace_dat_reader : public trace_reader {
public:
	// LOADING: the kallsyms load when read_trace_dat_file() let it begin
	// early, else invalid (it begins at the first callback name).
	trace_dat_reader(trace_dat_file file, std::future<tdat_kallsyms> loading, const reader_options &opt);
	~trace_dat_reader() override
	{
		if (fd_ >= 0)
			::close(fd_);
	}

	bool next(trace_event &ev) override;
	const reader_stats &stats() const override { return stats_; }
	trace_format format() const override { return trace_format::trace_dat; }
	unsigned declared_cpus() const override { return file_.cpus; }
	symbol_fit symbols_fit() const override { return symbols_.fit(); }
	const char *unit() const override { return "events"; }

private:
	[[noreturn]] void fail(const std::string &why) const
	{
		throw input_error(file_.path, 0, why);
	}
	bool fill();
	void decode(const tdat_cpu_reader &r, pending &p);
	void read_ahead();
	std::uint64_t number(const tdat_cpu_reader &r, const tdat_field &f) const;
	void absorb();

	trace_dat_file file_;
	int fd_ = -1;
	std::vector<event_info> infos_;		// by event id
	std::deque<event_slots> slots_;		// of the events of the kinds read (they stay put)
	std::vector<std::unique_ptr<tdat_cpu_reader>> cpus_;
	std::vector<bool> live_;		// the CPU reader stands on a record
	std::uint64_t damaged_ = 0;		// pages and chunks given up, all CPUs
	std::vector<std::uint64_t> read_;	// records per CPU id
	std::vector<std::int64_t> read_events_;	// per CPU id as the kernel counted, -1 unknown
	unsigned release_ = 0;
	tdat_field type_;			// common_type: the event id
	std::size_t max_ahead_;			// reader_options::read_ahead
	bool ahead_always_;			// reader_options::read_ahead_always
	huge_ring<pending> queue_;		// at most max(max_ahead_, 1): read_ahead(), next()
	symbol_table symbols_;		// reader_options::symbols
	tdat_kallsyms kallsyms_;	// the file's own, read on first use
	std::future<tdat_kallsyms> loading_;	// ... on a second thread
	callback_names names_;
	timer_irq_memory timer_irqs_;	// irq_handler_exit has no name to tell
	reader_stats stats_;
	bool done_ = false;
	bool lenient_ = false;
	bool names_ready_ = false;	// the kallsyms load has begun
};

trace_dat_reader::trace_dat_reader(trace_dat_file file, std::future<tdat_kallsyms> loading,
				   const reader_options &opt)
	: file_(std::move(file)),
	  max_ahead_(opt.read_ahead),
	  ahead_always_(opt.read_ahead_always),
	  queue_(std::max<std::size_t>(opt.read_ahead, 1)),
	  loading_(std::move(loading)),
	  names_({[this](std::uint64_t a) { return std::string(kallsyms_.lookup(a)); },
		  callback_names::of(symbols_)},
		 [this] { kallsyms_ = loading_.valid() ? loading_.get() : load_kallsyms(kallsyms_at(file_)); }),
	  lenient_(opt.lenient)
{
	static_assert(sizeof(pending) == 272, "reader_options::read_ahead's bytes a record");
	if (file_.latency)
		fail("a latency-tracer trace.dat holds text, not event records");
	// Buffer instances (trace-cmd record -B) are separate ring buffers
	// with their own CPU data. Reading only the top one would drop their
	// events without a word, so such files are refused.
	if (!file_.instances.empty())
		fail("holds " + std::to_string(file_.instances.size()) +
		     " ftrace buffer instance(s) (\"" + file_.instances[0] +
		     "\"...) besides the top buffer; reading them is not supported");
	if (!opt.symbols.empty())
		symbols_.load(opt.symbols);
	type_.name = "common_type";
	type_.offset = file_.common_type_offset;
	type_.size = file_.common_type_size;
	if (type_.size != 1 && type_.size != 2 && type_.size != 4)
		fail("bad common_type field size " + std::to_string(type_.size));

	int max_id = file_.events.empty() ? -1 : file_.events.rbegin()->first;
	infos_.resize(max_id + 1);
	for (const auto &[id, e] : file_.events) {
		event_info &i = infos_[id];
		i.known = true;
		i.name = e.name;
		i.kind = event_kind_of(e.name);
		if (i.kind == event_kind::other)
			continue;
		i.named = binary_event_name::of(i.name);
		event_slots &slot = slots_.emplace_back();
		slot.fill(nullptr);
		i.slot = &slot;
		for (int k = 0; k < BS_COUNT; k++)
			if (binary_slot_read(i.kind, binary_slot(k)))
				slot[k] = e.find(binary_slot_names[k]);
		if (i.kind == event_kind::irq_entry)
			if (const tdat_field *f = e.find("name"); f && f->data_loc && f->size == 4)
				i.irq_name = f;
	}

	// The flag layout: 6.8+ files say it by their bucket_expiry field,
	// older ones by the recording kernel's release (binary_names.h).
	const tdat_event *start = nullptr;
	for (const auto &[id, e] : file_.events)
		if (e.system == "timer" && e.name == "timer_start")
			start = &e;
	if (!start || !start->find("bucket_expiry"))
		release_ = tdat_uname_release(file_.uname);

	fd_ = ::open(file_.path.c_str(), O_RDONLY | O_CLOEXEC);
	if (fd_ < 0)
		fail(std::string("cannot open: ") + std::strerror(errno));
	read_.assign(file_.cpus, 0);
	read_events_ = tdat_read_events(file_.cpustats, file_.cpus);
	for (const tdat_cpu_data &d : file_.cpu_data) {
		cpus_.push_back(std::make_unique<tdat_cpu_reader>(file_, d, fd_, lenient_));
		live_.push_back(cpus_.back()->next());
		absorb();
	}
}

// Pages and chunks a lenient CPU reader gave up: one malformed unit each.
void trace_dat_reader::absorb()
{
	std::uint64_t total = 0;
	for (const auto &c : cpus_)
		total += c->damaged;
	std::uint64_t fresh = total - damaged_;
	damaged_ = total;
	stats_.lines += fresh;
	stats_.skipped += fresh;
	stats_.malformed += fresh;
}

// Version 7's 4-byte size of the kallsyms text that follows it in the
// section; throws when it runs past the section's LEN bytes.
std::size_t kallsyms_size(const kallsyms_at &file, const char *text, std::size_t len)
{
	if (len < 4)
		throw input_error::at_offset(file.path, file.extent.offset, "kallsyms section too short");
	std::uint64_t n = 0;
	for (unsigned i = 0; i < 4; i++)
		n |= std::uint64_t(static_cast<unsigned char>(text[file.big_endian ? 3 - i : i])) << (8 * i);
	if (n > len - 4)
		throw input_error::at_offset(file.path, file.extent.offset,
					     "kallsyms size runs past its section");
	return n;
}

// A compressed kallsyms section (version 7). Its text's order is checked
// (kallsyms_order) on a second thread while it inflates, a piece behind
// the inflation, so that names can be looked up as soon as the last piece
// is out: a pass over a 6.x kernel's 5 MB after the inflation would add a
// fifth to the wait for the first callback name.
tdat_kallsyms inflate_kallsyms(const kallsyms_at &file)
{
	// What the inflation has put out so far, for the checking thread.
	struct inflated {
		std::mutex m;
		std::condition_variable cv;
		const char *out = nullptr;	// null: the bytes are going away
		std::size_t done = 0;
		bool over = false;		// no more will come
	} box;
	auto tell = [&box](const char *out, std::size_t done, bool over) {
		{
			std::lock_guard<std::mutex> lock(box.m);
			box.out = out;
			box.done = done;
			box.over = over;
		}
		box.cv.notify_one();
	};
	kallsyms_order order;
	auto checking = std::async(std::launch::async, [&box, &order, big = file.big_endian] {
		std::size_t checked = 4, end = 0;	// END: 4 + the text's size, once out
		std::unique_lock<std::mutex> lock(box.m);
		for (std::size_t seen = 0;;) {
			box.cv.wait(lock, [&] { return box.over || box.done > seen; });
			if (!box.out || box.done == seen)
				return;
			const char *out = box.out;
			seen = box.done;
			lock.unlock();
			if (!end && seen >= 4) {
				std::uint32_t n;
				std::memcpy(&n, out, 4);
				end = 4 + std::size_t{big ? be32toh(n) : le32toh(n)};
			}
			if (end) {
				const std::size_t to = std::min(seen, end);
				checked = order.check(out + checked, out + to, to == end) - out;
			}
			lock.lock();
		}
	});
	// However this ends, the checking thread stops before the bytes go.
	struct stop_checking {
		std::function<void()> stop;
		~stop_checking() { stop(); }
	} stop{[&] {
		tell(nullptr, 0, true);
		if (checking.valid())
			checking.wait();
	}};
	tdat_bytes text = tdat_inflate(file.path, file.compression, file.big_endian, file.extent.offset,
				       file.extent.size, "kallsyms section",
				       [&](const char *out, std::size_t done) {
					       if (out)
						       tell(out, done, false);
					       else
						       stop.stop();
				       });
	tell(text.data(), text.size(), true);
	checking.get();
	std::size_t len = kallsyms_size(file, text.data(), text.size());
	return tdat_kallsyms(std::move(text), 4, len, file.path + " (kallsyms)", &order);
}

// The file's kallsyms, inflated. Runs on the loading thread, from its own
// copy of where they lie.
tdat_kallsyms load_kallsyms(const kallsyms_at &file)
{
	const tdat_extent &k = file.extent;
	if (!k.present || !k.size)
		return {};
	if (k.compressed && file.version >= 7)
		return inflate_kallsyms(file);
	tdat_bytes text = k.compressed ? tdat_inflate(file.path, file.compression, file.big_endian,
						      k.offset, k.size, "kallsyms section")
				       : tdat_read(file.path, k.offset, k.size, "kallsyms");
	std::size_t skip = 0, len = text.size();
	if (file.version >= 7) {	// the section holds a 4-byte size, then the text
		skip = 4;
		len = kallsyms_size(file, text.data(), text.size());
	}
	return tdat_kallsyms(std::move(text), skip, len, file.path + " (kallsyms)");
}

std::uint64_t trace_dat_reader::number(const tdat_cpu_reader &r, const tdat_field &f) const
{
	if (f.offset > r.size || f.size > r.size - f.offset ||
	    (f.size != 1 && f.size != 2 && f.size != 4 && f.size != 8))
		throw input_error::at_offset(file_.path, r.offset(), r.where() + ": record " +
			std::to_string(stats_.lines) + ": field " + f.name +
			" lies outside the record");
	const unsigned char *p = r.data + f.offset;
	if (!file_.big_endian) {
		switch (f.size) {
		case 1: return p[0];
		case 2: { std::uint16_t v; std::memcpy(&v, p, 2); return le16toh(v); }
		case 4: { std::uint32_t v; std::memcpy(&v, p, 4); return le32toh(v); }
		default: { std::uint64_t v; std::memcpy(&v, p, 8); return le64toh(v); }
		}
	}
	std::uint64_t v = 0;
	for (unsigned i = 0; i < f.size; i++)
		v = v << 8 | p[i];
	return v;
}

void trace_dat_reader::decode(const tdat_cpu_reader &r, pending &p)
{
	std::uint64_t id = number(r, type_);
	if (id >= infos_.size() || !infos_[id].known)
		throw input_error::at_offset(file_.path, r.offset(), r.where() + ": record " +
			std::to_string(stats_.lines) + " has event id " + std::to_string(id) +
			", which the file does not describe: corrupt data");
	const event_info &ei = infos_[id];
	p.info = &ei;
	p.cpu = r.cpu();
	p.ts = r.ts;
	p.line = stats_.lines;
	p.v.has = 0;
	p.v.named = &ei.named;
	if (ei.kind == event_kind::other)
		return;
	for (int k = 0; k < BS_COUNT; k++)
		if (const tdat_field *f = (*ei.slot)[k]) {
			p.v.set(binary_slot(k), number(r, *f));
			if (k == BS_TIMER || k == BS_HRTIMER)
				p.v.timer_bits = 8 * f->size;
		}
	p.v.timer_irq_name = false;
	if (ei.irq_name) {
		// The string lies in the record: offset in the low 16 bits,
		// length (with its NUL) in the high 16.
		std::uint64_t loc = number(r, *ei.irq_name);
		std::uint64_t off = loc & 0xffff, len = loc >> 16;
		if (off > r.size || len > r.size - off)
			throw input_error::at_offset(file_.path, r.offset(), r.where() + ": record " +
				std::to_string(stats_.lines) + ": its name lies outside the record");
		std::string_view name(reinterpret_cast<const char *>(r.data) + off, len);
		if (std::size_t nul = name.find('\0'); nul != name.npos)
			name = name.substr(0, nul);
		p.v.timer_irq_name = is_timer_irq_name(name);
	}
}

// Decodes the next record (CPUs merged by time) onto the queue; false at
// the end of every CPU's data, where the record counts are checked.
bool trace_dat_reader::fill()
{
	while (!done_) {
		int best = -1;
		for (unsigned c = 0; c < cpus_.size(); c++)
			if (live_[c] && (best < 0 || cpus_[c]->ts < cpus_[best]->ts))
				best = c;
		if (best < 0) {
			for (const auto &c : cpus_)
				if (c->cpu() < read_.size())
					read_[c->cpu()] = c->records;
			if (!lenient_)
				tdat_check_counts(file_.path, read_, read_events_);
			done_ = true;
			stats_.bytes = file_.file_size;
			return false;
		}
		tdat_cpu_reader &r = *cpus_[best];
		stats_.lines++;
		pending p;
		bool ok = true;
		try {
			decode(r, p);
		} catch (const input_error &) {
			// A record of an event the file does not describe, or
			// too short for its fields: corrupt data. Lenient
			// reading counts it and goes on.
			if (!lenient_)
				throw;
			ok = false;
		}
		live_[best] = r.next();
		absorb();
		if (ok) {
			queue_.push_back(p);
			return true;
		}
		stats_.skipped++;
		stats_.malformed++;
	}
	return false;
}

// The front record needs a callback name: the kallsyms load on a second
// thread while this one decodes ahead.
void trace_dat_reader::read_ahead()
{
	if (!loading_.valid())
		loading_ = std::async(std::launch::async, load_kallsyms, kallsyms_at(file_));
	while (queue_.size() < max_ahead_ &&
	       (ahead_always_ || loading_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) &&
	       fill())
		;
}

bool trace_dat_reader::next(trace_event &ev)
{
	if (queue_.empty() && !fill())
		return false;
	const pending &p = queue_.front();
	if ((p.v.has >> BS_FUNCTION & 1) && !names_ready_) {
		read_ahead();
		names_ready_ = true;	// names_ waits for the loading thread
	}
	static const trace_event blank{};
	const pending &q = queue_.front();
	ev = blank;
	ev.kind = q.info->kind;
	ev.name = q.info->name;
	ev.cpu = q.cpu;
	ev.ts_ns = q.ts;
	ev.line = q.line;
	ev.has = EF_TIMESTAMP;
	if (q.info->kind != event_kind::other)
		apply_binary_slots(q.v, release_, names_, ev);
	timer_irqs_.settle(ev);
	queue_.pop_front();
	stats_.events++;
	return true;
}

}  // namespace

std::unique_ptr<trace_reader> make_trace_dat_reader(const std::string &path,
						    const reader_options &opt)
{
	// A version 7 file's kallsyms inflate on a second thread while the
	// event formats are parsed (a 6.x kernel's are 5-10 MB): the replay
	// needs them at its first timer. Not for a file this reader refuses
	// (below, and in its constructor).
	std::future<tdat_kallsyms> loading;
	trace_dat_file file = read_trace_dat_file(path, [&loading](const trace_dat_file &f) {
		if (f.unsupported.empty() && f.instances.empty() && !f.latency)
			loading = std::async(std::launch::async, load_kallsyms, kallsyms_at(f));
	});
	if (!file.unsupported.empty() && !file.latency)
		return make_trace_dat_libtracecmd_reader(path, opt);
	return std::make_unique<trace_dat_reader>(std::move(file), std::move(loading), opt);
}

}  // namespace timersim
