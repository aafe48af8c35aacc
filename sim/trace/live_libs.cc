#include "sim/trace/live_libs.h"

#include <dlfcn.h>
#include <stdexcept>
#include <string>

#include "sim/base/runtime_library.h"
#include "sim/trace/libtracecmd_load.h"

namespace timersim {

namespace {

live_libs_api load_live()
{
	libtracecmd();	// libtraceevent and libtracecmd, with the hooks checked
	void *tracefs = open_runtime_library("libtracefs.so.1", "libtracefs1, the tracefs library");
	void *traceevent = open_runtime_library("libtraceevent.so.1", "trace-cmd's event parser");
	void *tracecmd = open_runtime_library("libtracecmd.so.1", "trace-cmd's library");
	live_libs_api api;
	auto find = [](void *lib, const char *soname, const char *name, auto &f) {
		f = reinterpret_cast<std::remove_reference_t<decltype(f)>>(dlsym(lib, name));
		if (!f)
			throw std::runtime_error(std::string(soname) + " has no " + name);
	};
#define TIMERSIM_FIND(lib, soname, name) find(lib, soname, #name, api.name);
	TIMERSIM_FIND(tracefs, "libtracefs.so.1", tracefs_instance_create)
	TIMERSIM_FIND(tracefs, "libtracefs.so.1", tracefs_instance_destroy)
	TIMERSIM_FIND(tracefs, "libtracefs.so.1", tracefs_instance_free)
	TIMERSIM_FIND(tracefs, "libtracefs.so.1", tracefs_event_enable)
	TIMERSIM_FIND(tracefs, "libtracefs.so.1", tracefs_local_events_system)
	TIMERSIM_FIND(tracefs, "libtracefs.so.1", tracefs_tracing_dir)
	TIMERSIM_FIND(tracefs, "libtracefs.so.1", tracefs_instance_file_write)
	TIMERSIM_FIND(tracefs, "libtracefs.so.1", tracefs_cpu_open)
	TIMERSIM_FIND(tracefs, "libtracefs.so.1", tracefs_cpu_close)
	TIMERSIM_FIND(tracefs, "libtracefs.so.1", tracefs_cpu_read_size)
	TIMERSIM_FIND(tracefs, "libtracefs.so.1", tracefs_cpu_read)
	TIMERSIM_FIND(traceevent, "libtraceevent.so.1", tep_kbuffer)
	TIMERSIM_FIND(traceevent, "libtraceevent.so.1", kbuffer_free)
	TIMERSIM_FIND(traceevent, "libtraceevent.so.1", kbuffer_read_event)
	TIMERSIM_FIND(traceevent, "libtraceevent.so.1", kbuffer_next_event)
	TIMERSIM_FIND(traceevent, "libtraceevent.so.1", kbuffer_event_size)
	TIMERSIM_FIND(traceevent, "libtraceevent.so.1", kbuffer_missed_events)
	TIMERSIM_FIND(traceevent, "libtraceevent.so.1", tep_free)
	TIMERSIM_FIND(tracecmd, "libtracecmd.so.1", tracecmd_output_create)
	TIMERSIM_FIND(tracecmd, "libtracecmd.so.1", tracecmd_output_set_trace_dir)
	TIMERSIM_FIND(tracecmd, "libtracecmd.so.1", tracecmd_output_set_kallsyms)
	TIMERSIM_FIND(tracecmd, "libtracecmd.so.1", tracecmd_output_set_version)
	TIMERSIM_FIND(tracecmd, "libtracecmd.so.1", tracecmd_output_set_compression)
	TIMERSIM_FIND(tracecmd, "libtracecmd.so.1", tracecmd_output_write_headers)
	TIMERSIM_FIND(tracecmd, "libtracecmd.so.1", tracecmd_write_cmdlines)
	TIMERSIM_FIND(tracecmd, "libtracecmd.so.1", tracecmd_write_cpus)
	TIMERSIM_FIND(tracecmd, "libtracecmd.so.1", tracecmd_write_options)
	TIMERSIM_FIND(tracecmd, "libtracecmd.so.1", tracecmd_write_cpu_data)
	TIMERSIM_FIND(tracecmd, "libtracecmd.so.1", tracecmd_output_close)
#undef TIMERSIM_FIND
	return api;
}

}  // namespace

const live_libs_api &live_libs()
{
	static const live_libs_api api = load_live();
	return api;
}

}  // namespace timersim
