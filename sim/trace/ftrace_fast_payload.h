// The payload half of the one-pass parse of the common tracefs line
// (ftrace_fast.h): "key=value key=value ..." after the event's name, the
// keys in the order the kernel prints them (payload_layouts), each value
// read as parse_payload reads it when it reads cleanly. Apart from the
// head (ftrace_fast.cc) to keep each file to one job.
#pragma once

#include "sim/trace/event.h"
#include "sim/trace/text_event_names.h"
#include "sim/trace/text_fields.h"
#include "sim/trace/text_scan.h"

namespace timersim {

// P at a token's end: END or a blank.
inline bool ends_token(const char *p, const char *end) { return p == end || is_blank(*p); }

// The payload [P, END) of an event of one layout, EV's kind and head set:
// true with EV's fields and ctx.keys as the general parse sets them, false
// for anything it would read otherwise (EV may then hold parts of it).
using payload_parser = bool (*)(const char *p, const char *end, trace_event &ev,
				line_context &ctx);
// In event_layout's order.
extern const payload_parser common_payload_parsers[];

}  // namespace timersim
