// libtracecmd and libtraceevent, loaded (dlopen) the first time a trace.dat
// needs them, not linked.
//
// Our own reader (trace_dat.cc) reads the trace.dat files of a replay; the
// libraries only read what it leaves to them (timestamp conversions) and
// serve the tests as the reference. Linked, they and what they pull in
// (libtracefs, libzstd's twin, ...) would be loaded and relocated by every
// run of the binary, a fixed cost a small replay should not pay: they are
// loaded (dlopen) only when asked for.
//
// The hooks of libtracecmd_hooks.cc still take the libraries' calls: the
// executable exports them (the Makefile's HOOK_EXPORTS), and symbols the
// global scope defines win over a dlopen'ed library's own. Loading checks
// that they do: without them a damaged page could crash libtraceevent.
#pragma once

#include "sim/trace/libtracecmd.h"

namespace timersim {

// The functions we call, each a member of its own name.
#define TIMERSIM_LIBTRACECMD_FUNCTIONS(X)                                                      \
	X(tracecmd_open_head) X(tracecmd_init_data) X(tracecmd_close) X(tracecmd_get_tep)        \
	X(tracecmd_read_data) X(tracecmd_free_record) X(tracecmd_buffer_instances)               \
	X(tracecmd_buffer_instance_name) X(tracecmd_buffer_instance_handle)                      \
	X(tracecmd_get_cpustats) X(tracecmd_get_uname) X(tracecmd_set_loglevel)                  \
	X(tep_set_loglevel) X(tep_get_page_size) X(tep_get_sub_buffer_size)                      \
	X(tep_get_header_page_size) X(tep_is_file_bigendian) X(tep_get_cpus) X(tep_data_type)    \
	X(tep_find_event) X(tep_find_event_by_name) X(tep_find_field) X(tep_read_number_field)

struct libtracecmd_api {
#define TIMERSIM_API_MEMBER(name) decltype(&::name) name = nullptr;
	TIMERSIM_LIBTRACECMD_FUNCTIONS(TIMERSIM_API_MEMBER)
#undef TIMERSIM_API_MEMBER
};

// The libraries' functions, loaded on the first call (thread-safe). Throws
// std::runtime_error saying what is missing when they cannot be loaded.
const libtracecmd_api &libtracecmd();

// libtraceevent's own definition of NAME (one our hooks stand in for), or
// nullptr before the libraries are loaded.
void *libtraceevent_symbol(const char *name);

}  // namespace timersim
