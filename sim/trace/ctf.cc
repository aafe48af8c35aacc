// LTTng CTF reader (a directory with `metadata` and channel files), our
// own: the metadata's TSDL is parsed for the layouts (ctf_tsdl.h), each
// stream file is walked packet by packet (ctf_packets.h) with every length
// checked against its packet and file, and the streams are merged by time.
//
// It replaces two passes of libbabeltrace 1.x (the first in a child
// process, because that library corrupts its heap or loops on some damaged
// data) with one pass that cannot be led out of bounds: a damaged trace is
// an input_error with the file and byte offset. libbabeltrace stays as the
// reference the tests compare against (ctf.h).
//
// Order: each stream in file order; streams merged by event time, ties to
// the stream file first by name (babeltrace 1.x orders ties by path too).
// Timestamps may step back between packets of a stream (LTTng 2.1 traces
// do): every event is still read, in its stream's order.
#include <algorithm>
#include <cstdio>
#include <sys/stat.h>

#include "sim/trace/binary_names.h"
#include "sim/trace/irq_events.h"
#include "sim/trace/binary_fields.h"
#include "sim/trace/ctf_metadata.h"
#include "sim/trace/ctf_packets.h"
#include "sim/trace/ctf_streams.h"
#include "sim/trace/ctf_tsdl.h"
#include "sim/trace/reader.h"
#include "sim/trace/symbols.h"

namespace timersim {

namespace {

// What we hand on of one event class: its kernel name, its kind, and where
// its slots are in the payload.
struct event_info {
	std::string name;
	binary_event_name named;
	event_kind kind = event_kind::other;
	// The slots it has, in slot order, and their payload fields: what
	// decode() copies, without a pass over every slot.
	std::vector<std::pair<binary_slot, unsigned>> present;
	unsigned timer_bits = 0;
	int irq_name = -1;	// irq_handler_entry: its name string
};

event_info describe(const ctf::event_class &c)
{
	event_info e;
	e.name = kernel_event_name(c.name);
	e.kind = event_kind_of(e.name);
	e.named = binary_event_name::of(e.name);
	if (!c.fields || e.kind == event_kind::other)
		return e;
	const auto &fs = c.fields->fields;
	for (int k = 0; k < BS_COUNT; k++)
		for (std::size_t i = 0; i < fs.size() && binary_slot_read(e.kind, binary_slot(k));
		     i++) {
			const ctf::type &t = *fs[i].t;
			// Integers only (arrays are not values for us), enums
			// only for the hrtimer mode (lttng-modules 2.9+ declare
			// it an enum of the HRTIMER_MODE_* values).
			if (t.kind == ctf::type_kind::integer && (t.labels.empty() || k == BS_MODE) &&
			    ctf::display_name(fs[i].name) == binary_slot_names[k]) {
				e.present.emplace_back(binary_slot(k), static_cast<unsigned>(i));
				if (k == BS_TIMER || k == BS_HRTIMER)
					e.timer_bits = std::max(e.timer_bits, t.size);
				break;
			}
		}
	if (e.kind == event_kind::irq_entry)
		for (std::size_t i = 0; i < fs.size(); i++)
			if (fs[i].t->kind == ctf::type_kind::string &&
			    ctf::display_name(fs[i].name) == "name")
				e.irq_name = static_cast<int>(i);
	return e;
}

class ctf_reader : public trace_reader {
public:
	ctf_reader(const std::string &path, const reader_options &opt);

	bool next(trace_event &ev) override;
	const reader_stats &stats() const override { return stats_; }
	trace_format format() const override { return trace_format::ctf; }
	unsigned declared_cpus() const override { return cpus_; }
	symbol_fit symbols_fit() const override { return symbols_.fit(); }
	std::string clock() const override;
	const char *unit() const override { return "events"; }

private:
	void decode(const ctf::packet_reader &s, trace_event &ev);
	// Stream I's packets with lost events, into the stats; its next
	// event follows the loss.
	void take_lost(unsigned i);
	// Heap order: the earliest event first, ties to the lower stream.
	bool later(unsigned a, unsigned b) const
	{
		const auto &x = *streams_[a], &y = *streams_[b];
		return x.ts_ns != y.ts_ns ? x.ts_ns > y.ts_ns : a > b;
	}

	std::string path_;
	ctf::trace_model model_;
	std::vector<event_info> infos_;		// by event_class::index
	std::vector<std::unique_ptr<ctf::packet_reader>> streams_;
	std::vector<unsigned> heap_;		// streams with an event to hand out
	std::vector<bool> after_loss_;		// by stream: its next event follows a loss
	unsigned cpus_ = 0;
	unsigned release_ = 0;
	std::uint64_t bytes_ = 0;
	symbol_table symbols_;
	callback_names names_{{callback_names::of(symbols_)}};
	timer_irq_memory timer_irqs_;	// irq_handler_exit has no name to tell
	reader_stats stats_;
};

ctf_reader::ctf_reader(const std::string &path, const reader_options &opt) : path_(path)
{
	std::vector<ctf::stream_file> files = ctf::list_stream_files(path);
	if (!opt.symbols.empty())
		symbols_.load(opt.symbols);
	const std::string meta = path + "/metadata";
	model_ = ctf::parse_tsdl(read_ctf_metadata(meta), meta);
	auto rel = model_.env.find("kernel_release");
	release_ = rel == model_.env.end() ? 0 : kernel_release(rel->second);
	infos_.resize(model_.event_count);
	for (const auto &[sid, sc] : model_.streams)
		for (const auto &[eid, ec] : sc.events)
			infos_[ec.index] = describe(ec);

	struct stat st;
	bytes_ = stat(meta.c_str(), &st) == 0 ? st.st_size : 0;
	std::vector<ctf::stream_identity> ids;
	for (const ctf::stream_file &f : files) {
		streams_.push_back(std::make_unique<ctf::packet_reader>(model_, path, f));
		ids.push_back(streams_.back()->identity());
		bytes_ += f.size;
	}
	ctf::check_stream_set(path, model_, ids);
	std::uint64_t top = 0;
	bool any = false;
	for (const auto &id : ids)
		if (id.has_cpu) {
			any = true;
			top = std::max(top, id.cpu);
		}
	cpus_ = any && top < 65536 ? static_cast<unsigned>(top + 1) : 0;

	auto cmp = [this](unsigned a, unsigned b) { return later(a, b); };
	after_loss_.assign(streams_.size(), false);
	for (unsigned i = 0; i < streams_.size(); i++) {
		if (streams_[i]->next()) {
			heap_.push_back(i);
			std::push_heap(heap_.begin(), heap_.end(), cmp);
		}
		take_lost(i);
	}
}

// The seconds are the clock's value plus its offset from the Epoch: what
// `babeltrace --clock-seconds` prints; babeltrace's default prints the
// same instant as a time of day, and --clock-offset / a text rendering
// that starts elsewhere shift them.
std::string ctf_reader::clock() const
{
	if (streams_.empty())
		return "";
	const ctf::packet_reader &s = *streams_.front();
	std::uint64_t off = s.clock_offset_ns();
	char offset[48];
	std::snprintf(offset, sizeof offset, "%llu.%09llu", (unsigned long long)(off / 1000000000),
		      (unsigned long long)(off % 1000000000));
	std::string name = s.clock_name().empty() ? "none named (1 GHz)" : "`" + s.clock_name() + "`";
	return "CTF clock " + name + " plus its offset from the Epoch, " + offset +
	       " s: the seconds `babeltrace --clock-seconds` prints (its default shows them as a "
	       "time of day)";
}

void ctf_reader::take_lost(unsigned i)
{
	ctf::packet_reader &s = *streams_[i];
	if (s.lost.empty())
		return;
	after_loss_[i] = true;
	for (lost_packet &p : s.lost) {
		if (!add_lost_events(stats_.lost_events, p.events))
			throw input_error::at_offset(p.stream, p.offset, lost_events_overflow);
		stats_.lost_packets.push_back(std::move(p));
	}
	s.lost.clear();
}

void ctf_reader::decode(const ctf::packet_reader &s, trace_event &ev)
{
	static const trace_event blank{};
	const event_info &info = infos_[s.event->index];
	ev = blank;
	ev.name = info.name;
	ev.kind = info.kind;
	ev.ts_ns = s.ts_ns;
	ev.line = stats_.lines;
	ev.has = EF_TIMESTAMP;
	if (s.identity().has_cpu)
		ev.cpu = static_cast<std::uint32_t>(s.identity().cpu);
	if (info.kind == event_kind::other)
		return;
	binary_slot_values v;
	v.timer_bits = info.timer_bits;
	v.named = &info.named;
	for (const auto &[k, field] : info.present)
		v.set(k, s.payload[field]);
	if (info.irq_name >= 0) {
		// NUL-terminated inside the packet's content (ctf_decode.h),
		// from the first byte boundary at its start (strings are
		// byte-aligned; the start is where the field before it ended).
		const char *name = reinterpret_cast<const char *>(
			s.packet_bytes + (s.payload_starts[info.irq_name] + 7) / 8);
		v.timer_irq_name = is_timer_irq_name(name);
	}
	apply_binary_slots(v, release_, names_, ev);
	timer_irqs_.settle(ev);
}

bool ctf_reader::next(trace_event &ev)
{
	if (heap_.empty()) {
		stats_.bytes = bytes_;
		// Streams end in the order of their events: the report lists
		// the lost ones by stream and packet.
		std::sort(stats_.lost_packets.begin(), stats_.lost_packets.end(),
			  [](const lost_packet &a, const lost_packet &b) {
				  return a.stream != b.stream ? a.stream < b.stream : a.packet < b.packet;
			  });
		return false;
	}
	auto cmp = [this](unsigned a, unsigned b) { return later(a, b); };
	std::pop_heap(heap_.begin(), heap_.end(), cmp);
	unsigned i = heap_.back();
	stats_.lines++;
	decode(*streams_[i], ev);
	if (after_loss_[i]) {
		after_loss_[i] = false;
		ev.has |= EF_AFTER_LOSS;
	}
	stats_.events++;
	// The event is copied out (its names point into infos_ and names_):
	// the stream may read on.
	if (streams_[i]->next())
		std::push_heap(heap_.begin(), heap_.end(), cmp);
	else
		heap_.pop_back();
	take_lost(i);
	return true;
}

}  // namespace

std::unique_ptr<trace_reader> make_ctf_reader(const std::string &path, const reader_options &opt)
{
	return std::make_unique<ctf_reader>(path, opt);
}

}  // namespace timersim
