// trace-cmd trace.dat reader, our own: the file's structure from
// read_trace_dat_file() (trace_dat_file.h), each CPU's ring-buffer pages
// from tdat_cpu_reader (trace_dat_pages.h), the timer event fields from the
// formats stored in the file.
//
// libtracecmd's full open reads, inflates and parses everything a file
// holds, the 5 MB kallsyms included, before the first record; here only
// what a replay needs is read, and the kallsyms are inflated and loaded the
// first time a callback needs a name. libtracecmd stays as the reference
// the tests compare against, and reads the files this reader leaves to it
// (timestamp offset or TSC conversion options: trace_dat.h).
//
// Records come from each CPU's buffer in time order; next() merges the CPUs
// by timestamp (ties: lower CPU first). `timeout`, `cpu` and `idx` of
// timer_start are not stored by the kernel: its print format derives them
// from `now` and `flags`, and so do we (binary_fields.h).
#include <algorithm>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <unistd.h>
#include <vector>

#include "sim/trace/binary_fields.h"
#include "sim/trace/binary_names.h"
#include "sim/trace/reader.h"
#include "sim/trace/symbols.h"
#include "sim/trace/trace_dat.h"
#include "sim/trace/trace_dat_file.h"
#include "sim/trace/trace_dat_pages.h"

namespace timersim {

namespace {

// Per event id: its kind and where the fields we read are.
struct event_info {
	bool known = false;
	event_kind kind = event_kind::other;
	std::string_view name;
	const tdat_field *slot[BS_COUNT] = {};
};

class trace_dat_reader : public trace_reader {
public:
	trace_dat_reader(trace_dat_file file, const reader_options &opt);
	~trace_dat_reader() override
	{
		if (fd_ >= 0)
			::close(fd_);
	}

	bool next(trace_event &ev) override;
	const reader_stats &stats() const override { return stats_; }
	trace_format format() const override { return trace_format::trace_dat; }
	unsigned declared_cpus() const override { return file_.cpus; }

private:
	[[noreturn]] void fail(const std::string &why) const
	{
		throw input_error(file_.path, 0, why);
	}
	void decode(const tdat_cpu_reader &r, trace_event &ev);
	std::uint64_t number(const tdat_cpu_reader &r, const tdat_field &f) const;
	void load_kallsyms();
	void absorb();

	trace_dat_file file_;
	int fd_ = -1;
	std::vector<event_info> infos_;		// by event id
	std::vector<std::unique_ptr<tdat_cpu_reader>> cpus_;
	std::vector<bool> live_;		// the CPU reader stands on a record
	std::uint64_t damaged_ = 0;		// pages and chunks given up, all CPUs
	std::vector<std::uint64_t> read_;	// records per CPU id
	std::vector<std::int64_t> read_events_;	// per CPU id as the kernel counted, -1 unknown
	unsigned release_ = 0;
	symbol_table symbols_;		// reader_options::symbols
	symbol_table file_symbols_;	// the file's own kallsyms, loaded on first use
	callback_names names_;
	reader_stats stats_;
	bool done_ = false;
	bool lenient_ = false;
};

trace_dat_reader::trace_dat_reader(trace_dat_file file, const reader_options &opt)
	: file_(std::move(file)),
	  names_(&file_symbols_, &symbols_, [this] { load_kallsyms(); }),
	  lenient_(opt.lenient)
{
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
	if (file_.common_type_size != 1 && file_.common_type_size != 2 &&
	    file_.common_type_size != 4)
		fail("bad common_type field size " + std::to_string(file_.common_type_size));

	int max_id = file_.events.empty() ? -1 : file_.events.rbegin()->first;
	infos_.resize(max_id + 1);
	for (const auto &[id, e] : file_.events) {
		event_info &i = infos_[id];
		i.known = true;
		i.name = e.name;
		i.kind = event_kind_of(e.name);
		for (int k = 0; k < BS_COUNT; k++)
			if (binary_slot_read(i.kind, binary_slot(k)))
				i.slot[k] = e.find(binary_slot_names[k]);
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

// The file's kallsyms: inflated, then our symbol_table.
void trace_dat_reader::load_kallsyms()
{
	if (!file_.kallsyms.present || !file_.kallsyms.size)
		return;
	const tdat_extent &k = file_.kallsyms;
	tdat_bytes text = k.compressed
				  ? tdat_inflate(file_.path, file_.compression, file_.big_endian,
						 k.offset, k.size, "kallsyms section")
				  : tdat_read(file_.path, k.offset, k.size, "kallsyms");
	std::string_view body = text.view();
	if (file_.version >= 7) {	// the section holds a 4-byte size, then the text
		if (body.size() < 4)
			throw input_error::at_offset(file_.path, k.offset, "kallsyms section too short");
		std::uint64_t n = 0;
		for (unsigned i = 0; i < 4; i++)
			n |= std::uint64_t(static_cast<unsigned char>(
				     body[file_.big_endian ? 3 - i : i]))
			     << (8 * i);
		if (n > body.size() - 4)
			throw input_error::at_offset(file_.path, k.offset,
						     "kallsyms size runs past its section");
		body = body.substr(4, n);
	}
	file_symbols_.load_text(body, file_.path + " (kallsyms)");
}

std::uint64_t trace_dat_reader::number(const tdat_cpu_reader &r, const tdat_field &f) const
{
	if (f.offset > r.size || f.size > r.size - f.offset ||
	    (f.size != 1 && f.size != 2 && f.size != 4 && f.size != 8))
		throw input_error::at_offset(file_.path, r.offset(), r.where() + ": record " +
			std::to_string(stats_.lines) + ": field " + f.name +
			" lies outside the record");
	std::uint64_t v = 0;
	const unsigned char *p = r.data + f.offset;
	for (unsigned i = 0; i < f.size; i++)
		v |= std::uint64_t(p[file_.big_endian ? f.size - 1 - i : i]) << (8 * i);
	return v;
}

void trace_dat_reader::decode(const tdat_cpu_reader &r, trace_event &ev)
{
	tdat_field type;
	type.name = "common_type";
	type.offset = file_.common_type_offset;
	type.size = file_.common_type_size;
	std::uint64_t id = number(r, type);
	if (id >= infos_.size() || !infos_[id].known)
		throw input_error::at_offset(file_.path, r.offset(), r.where() + ": record " +
			std::to_string(stats_.lines) + " has event id " + std::to_string(id) +
			", which the file does not describe: corrupt data");
	const event_info &ei = infos_[id];
	ev = trace_event{};
	ev.kind = ei.kind;
	ev.name = ei.name;
	ev.cpu = r.cpu();
	ev.ts_ns = r.ts;
	ev.line = stats_.lines;
	ev.has = EF_TIMESTAMP;
	if (ei.kind == event_kind::other)
		return;
	binary_slot_values v;
	for (int k = 0; k < BS_COUNT; k++)
		if (const tdat_field *f = ei.slot[k]) {
			v.set(binary_slot(k), number(r, *f));
			if (k == BS_TIMER || k == BS_HRTIMER)
				v.timer_bits = 8 * f->size;
		}
	apply_binary_slots(v, release_, names_, ev);
}

bool trace_dat_reader::next(trace_event &ev)
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
		bool ok = true;
		try {
			decode(r, ev);
		} catch (const input_error &) {
			// A record of an event the file does not describe, or
			// too short for its fields: corrupt data. Lenient
			// reading counts it and goes on.
			if (!lenient_)
				throw;
			ok = false;
		}
		// The record stays valid until the CPU reads on: its strings
		// live in infos_ and names_, so reading on is safe now.
		live_[best] = r.next();
		absorb();
		if (ok) {
			stats_.events++;
			return true;
		}
		stats_.skipped++;
		stats_.malformed++;
	}
	return false;
}

}  // namespace

std::unique_ptr<trace_reader> make_trace_dat_reader(const std::string &path,
						    const reader_options &opt)
{
	trace_dat_file file = read_trace_dat_file(path);
	if (!file.unsupported.empty() && !file.latency)
		return make_trace_dat_libtracecmd_reader(path, opt);
	return std::make_unique<trace_dat_reader>(std::move(file), opt);
}

}  // namespace timersim
