// The libbabeltrace 1.x CTF reader: the reference for our own (ctf.cc).
//
// Why 1.x and not babeltrace2: the LTTng 2.1 traces we have (linux-3.6
// scp_dest) have packets whose timestamps step back behind the previous
// packet's end; babeltrace2's muxer refuses them, 1.x reads every event and
// still merges the streams in timestamp order.
//
// libbabeltrace 1.x reports damage only as "[error] ..." lines on stderr;
// those become input_errors here. It is not safe on damaged data (see
// ctf.h): only tests and benchmarks use it, on intact traces.
#include <babeltrace/babeltrace.h>
#include <babeltrace/ctf/events.h>
#include <babeltrace/ctf/iterator.h>

#include <cstring>
#include <memory>
#include <sys/stat.h>
#include <unordered_map>

#include "sim/trace/binary_names.h"
#include "sim/trace/irq_events.h"
#include "sim/trace/ctf.h"
#include "sim/trace/binary_fields.h"
#include "sim/trace/ctf_metadata.h"
#include "sim/trace/ctf_streams.h"
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
	if (decl && bt_ctf_field_type(decl) == CTF_TYPE_ENUM)	// the hrtimer mode of lttng-modules 2.9+
		return int_value(bt_ctf_get_enum_int(def), out, bits);
	if (!decl || bt_ctf_field_type(decl) != CTF_TYPE_INTEGER)
		return false;
	out = bt_ctf_get_int_signedness(decl) == 1
		? static_cast<std::uint64_t>(bt_ctf_get_int64(def))
		: bt_ctf_get_uint64(def);
	if (bits)
		*bits = static_cast<unsigned>(bt_ctf_get_int_len(decl));
	return bt_ctf_field_get_error() == 0;
}

// The index of NAME in a scope's field list (-1 when absent).
int field_index(const bt_definition *const *list, unsigned count, const char *name)
{
	for (unsigned i = 0; i < count; i++) {
		const char *n = bt_ctf_field_name(list[i]);
		if (n && std::strcmp(n, name) == 0)
			return static_cast<int>(i);
	}
	return -1;
}

// Per event class: the places of the slots in its payload, found once
// (babeltrace's lookups by name cost more than all the rest of reading).
struct event_class {
	std::string name;	// the kernel's name
	event_kind kind = event_kind::other;
	unsigned fields = ~0u;	// payload field count the slots were found for
	int slot[BS_COUNT];
	int irq_name = -1;	// irq_handler_entry: its name string
};

class babeltrace_reader : public trace_reader {
public:
	babeltrace_reader(const std::string &path, const reader_options &opt);
	~babeltrace_reader() override
	{
		if (iter_)
			bt_ctf_iter_destroy(iter_);
		if (ctx_)
			bt_context_put(ctx_);
	}

	bool next(trace_event &ev) override;
	const reader_stats &stats() const override { return stats_; }
	trace_format format() const override { return trace_format::ctf; }

private:
	[[noreturn]] void fail(const std::string &why) const
	{
		throw input_error(path_, 0, why);
	}
	void decode(const bt_ctf_event *e, trace_event &ev);
	bool cpu_of(const bt_ctf_event *e, std::uint64_t &cpu);
	event_class &class_of(const bt_ctf_event *e);

	std::string path_;
	// libbabeltrace's "[error]" lines, caught while the events are read.
	std::unique_ptr<stderr_capture> cap_;
	bt_context *ctx_ = nullptr;
	bt_ctf_iter *iter_ = nullptr;
	bool started_ = false;		// the iterator stands on an unread event
	unsigned release_ = 0;
	std::uint64_t bytes_ = 0;
	std::unordered_map<const char *, event_class> classes_;	// by interned name
	const bt_definition *packet_scope_ = nullptr;
	int cpu_index_ = -1;
	symbol_table symbols_;
	callback_names names_{{callback_names::of(symbols_)}};
	timer_irq_memory timer_irqs_;	// irq_handler_exit has no name to tell
	reader_stats stats_;
};

babeltrace_reader::babeltrace_reader(const std::string &path, const reader_options &opt)
	: path_(path)
{
	if (!opt.symbols.empty())
		symbols_.load(opt.symbols);
	std::string meta = read_ctf_metadata(path + "/metadata");
	const std::string key = "kernel_release = \"";
	if (std::size_t at = meta.find(key); at != std::string::npos)
		release_ = kernel_release(std::string_view(meta).substr(at + key.size(), 16));
	struct stat st;
	if (stat((path + "/metadata").c_str(), &st) != 0)
		fail("not a CTF trace: no metadata file");
	bytes_ = st.st_size;
	for (const ctf::stream_file &f : ctf::list_stream_files(path))
		bytes_ += f.size;
	ctx_ = bt_context_create();
	if (!ctx_)
		fail("cannot create a babeltrace context");
	stderr_capture cap;
	int id = bt_context_add_trace(ctx_, path_.c_str(), "ctf", nullptr, nullptr, nullptr);
	std::string text = cap.text();
	if (id < 0 || text.find("[error]") != std::string::npos)
		fail("babeltrace cannot open the CTF trace: " + first_error_line(text));
	iter_ = bt_ctf_iter_create(ctx_, nullptr, nullptr);
	if (!iter_)
		fail("babeltrace cannot iterate over the trace");
}

bool babeltrace_reader::cpu_of(const bt_ctf_event *e, std::uint64_t &cpu)
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

event_class &babeltrace_reader::class_of(const bt_ctf_event *e)
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

void babeltrace_reader::decode(const bt_ctf_event *e, trace_event &ev)
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
		for (int k = 0; k < BS_COUNT; k++)
			c.slot[k] = field_index(list, count, binary_slot_names[k]);
		c.irq_name = c.kind == event_kind::irq_entry ? field_index(list, count, "name") : -1;
		c.fields = count;
	}
	binary_slot_values s;
	for (int k = 0; k < BS_COUNT; k++) {
		unsigned bits = 0;
		std::uint64_t value;
		if (c.slot[k] >= 0 && binary_slot_read(c.kind, binary_slot(k)) &&
		    int_value(list[c.slot[k]], value, &bits)) {
			s.set(binary_slot(k), value);
			if (k == BS_TIMER || k == BS_HRTIMER)
				s.timer_bits = bits;
		}
	}
	if (c.irq_name >= 0)
		if (const char *name = bt_ctf_get_string(list[c.irq_name]))
			s.timer_irq_name = is_timer_irq_name(name);
	apply_binary_slots(s, release_, names_, ev);
	timer_irqs_.settle(ev);
}

bool babeltrace_reader::next(trace_event &ev)
{
	if (!iter_)
		return false;
	if (!cap_)
		cap_ = std::make_unique<stderr_capture>();
	if (started_ && bt_iter_next(bt_ctf_get_iter(iter_)) < 0)
		fail("babeltrace failed after event " + std::to_string(stats_.lines) + ": " +
		     first_error_line(cap_->text()));
	started_ = true;
	const bt_ctf_event *e = bt_ctf_iter_read_event(iter_);
	if (!e) {
		bt_ctf_iter_destroy(iter_);
		iter_ = nullptr;
		std::string text = cap_->text();
		if (text.find("[error]") != std::string::npos)
			fail("babeltrace: " + first_error_line(text));
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

std::unique_ptr<trace_reader> make_ctf_babeltrace_reader(const std::string &path,
							 const reader_options &opt)
{
	return std::make_unique<babeltrace_reader>(path, opt);
}

}  // namespace timersim
