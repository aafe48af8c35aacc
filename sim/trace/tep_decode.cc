#include "sim/trace/tep_decode.h"

#include <string_view>

#include "sim/trace/binary_names.h"
#include "sim/trace/libtracecmd.h"
#include "sim/trace/libtracecmd_load.h"
#include "sim/trace/reader.h"

namespace timersim {

void tep_decoder::fail(const std::string &why) const
{
	throw input_error(path_, 0, why);
}

const tep_decoder::event_info &tep_decoder::info_of(tep_record *rec, std::uint64_t line)
{
	const libtracecmd_api &lib = libtracecmd();
	int id = lib.tep_data_type(tep_, rec);
	auto it = infos_.find(id);
	if (it != infos_.end())
		return it->second;
	tep_event *e = lib.tep_find_event(tep_, id);
	if (!e && other_names_) {
		auto other = other_names_->find(id);
		if (other != other_names_->end()) {	// a format the reader left unparsed
			event_info ei;
			ei.name = other->second.c_str();
			ei.kind = event_kind_of(ei.name);
			return infos_.emplace(id, ei).first->second;
		}
	}
	if (!e)
		fail("record " + std::to_string(line) + " (CPU " + std::to_string(rec->cpu) +
		     ") has event id " + std::to_string(id) +
		     ", which the file does not describe: corrupt data");
	event_info ei;
	ei.name = e->name;
	ei.kind = event_kind_of(e->name);
	for (int k = 0; k < BS_COUNT; k++)
		if (binary_slot_read(ei.kind, binary_slot(k)))
			ei.slot[k] = lib.tep_find_field(e, binary_slot_names[k]);
	if (ei.kind == event_kind::irq_entry)
		ei.irq_name = lib.tep_find_field(e, "name");
	return infos_.emplace(id, ei).first->second;
}

std::uint64_t tep_decoder::field(const tep_format_field *f, tep_record *rec, std::uint64_t line) const
{
	unsigned long long v = 0;
	if (f->offset < 0 || f->offset + f->size > rec->size ||
	    libtracecmd().tep_read_number_field(const_cast<tep_format_field *>(f), rec->data, &v) != 0)
		fail("record " + std::to_string(line) + " (CPU " + std::to_string(rec->cpu) +
		     "): field " + f->name + " lies outside the record");
	return v;
}

void tep_decoder::decode(tep_record *rec, std::uint64_t line, trace_event &ev)
{
	const event_info &ei = info_of(rec, line);
	ev = trace_event{};
	ev.kind = ei.kind;
	ev.name = ei.name;
	ev.cpu = rec->cpu;
	ev.ts_ns = rec->ts;
	ev.line = line;
	ev.has = EF_TIMESTAMP;
	if (ei.kind == event_kind::other)
		return;
	binary_slot_values v;
	for (int k = 0; k < BS_COUNT; k++)
		if (const tep_format_field *f = ei.slot[k]) {
			v.set(binary_slot(k), field(f, rec, line));
			if (k == BS_TIMER || k == BS_HRTIMER)
				v.timer_bits = 8 * f->size;
		}
	if (ei.irq_name) {
		// __data_loc: offset (low 16 bits) and length of the string.
		std::uint64_t loc = field(ei.irq_name, rec, line);
		std::uint64_t off = loc & 0xffff, len = loc >> 16;
		if (off > std::uint64_t(rec->size) || len > std::uint64_t(rec->size) - off)
			fail("record " + std::to_string(line) + " (CPU " + std::to_string(rec->cpu) +
			     "): its name lies outside the record");
		std::string_view name(static_cast<const char *>(rec->data) + off, len);
		if (std::size_t nul = name.find('\0'); nul != name.npos)
			name = name.substr(0, nul);
		v.timer_irq_name = is_timer_irq_name(name);
	}
	apply_binary_slots(v, release_, names_, ev);
	timer_irqs_.settle(ev);
}

}  // namespace timersim
