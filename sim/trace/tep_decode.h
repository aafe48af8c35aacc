// tep records (libtraceevent) as trace_events: one decoder for every reader
// whose records libtraceevent describes - the trace.dat files libtracecmd
// reads (trace_dat_libtracecmd.cc) and the live kernel's ring buffers
// (live_tracefs.cc).
//
// Fields are read by name from the event formats the tep handle holds, so
// one decoder serves every kernel version: optional fields (bucket_expiry,
// baseclk, ...) are simply present or not.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>

#include "sim/trace/binary_fields.h"
#include "sim/trace/event.h"
#include "sim/trace/irq_events.h"

struct tep_handle;
struct tep_record;
struct tep_format_field;

namespace timersim {

class tep_decoder {
public:
	// PATH names the input in errors; RELEASE the recording kernel
	// (kernel_release(), 0 unknown or 6.8+); NAMES the callbacks.
	// OTHER_NAMES, when given: ids of event formats the reader left
	// unparsed, by name (their records are `other` events).
	tep_decoder(std::string path, tep_handle *tep, unsigned release, callback_names &names,
		    const std::unordered_map<int, std::string> *other_names = nullptr)
		: path_(std::move(path)), tep_(tep), release_(release), names_(names),
		  other_names_(other_names)
	{
	}

	// REC as EV, record number LINE. Throws input_error (PATH, line 0)
	// for a record of an event the formats do not describe or too short
	// for its fields.
	void decode(tep_record *rec, std::uint64_t line, trace_event &ev);

private:
	// Per event id: its kind and the fields we read, found once by name.
	struct event_info {
		event_kind kind = event_kind::other;
		const char *name = "";
		tep_format_field *slot[BS_COUNT] = {};
		tep_format_field *irq_name = nullptr;	// irq_handler_entry's name
	};
	[[noreturn]] void fail(const std::string &why) const;
	const event_info &info_of(tep_record *rec, std::uint64_t line);
	std::uint64_t field(const tep_format_field *f, tep_record *rec, std::uint64_t line) const;

	std::string path_;
	tep_handle *tep_;
	unsigned release_;
	callback_names &names_;
	const std::unordered_map<int, std::string> *other_names_;
	std::unordered_map<int, event_info> infos_;
	timer_irq_memory timer_irqs_;	// irq_handler_exit has no name to tell
};

}  // namespace timersim
