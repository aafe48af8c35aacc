// The libraries a live trace needs, loaded (dlopen) the first time one is
// opened, as libtracecmd_load.h loads libtracecmd's for trace.dat files:
// libtracefs (the instance, its events and its per-CPU raw ring buffers),
// libtraceevent's kbuffer (records out of a ring-buffer page) and
// libtracecmd's output side (--record's trace.dat).
//
// tracefs.h is not valid C++ and libtracecmd's output functions are
// declared only in its private header: the few we call are declared here,
// as libtracefs 1.6 and libtracecmd 1.3 define them.
#pragma once

#include "sim/trace/libtracecmd.h"

extern "C" {
struct tracefs_instance;
struct tracefs_cpu;
struct tracecmd_output;
struct tracecmd_event_list {
	struct tracecmd_event_list *next;
	const char *glob;
};
}

namespace timersim {

struct live_libs_api {
	// libtracefs
	tracefs_instance *(*tracefs_instance_create)(const char *name) = nullptr;
	int (*tracefs_instance_destroy)(tracefs_instance *instance) = nullptr;
	void (*tracefs_instance_free)(tracefs_instance *instance) = nullptr;
	int (*tracefs_event_enable)(tracefs_instance *instance, const char *system,
				    const char *event) = nullptr;
	tep_handle *(*tracefs_local_events_system)(const char *tracing_dir,
						   const char *const *sys_names) = nullptr;
	const char *(*tracefs_tracing_dir)(void) = nullptr;
	int (*tracefs_instance_file_write)(tracefs_instance *instance, const char *file,
					   const char *str) = nullptr;
	tracefs_cpu *(*tracefs_cpu_open)(tracefs_instance *instance, int cpu, bool nonblock) = nullptr;
	void (*tracefs_cpu_close)(tracefs_cpu *tcpu) = nullptr;
	int (*tracefs_cpu_read_size)(tracefs_cpu *tcpu) = nullptr;
	int (*tracefs_cpu_read)(tracefs_cpu *tcpu, void *buffer, bool nonblock) = nullptr;
	// libtraceevent
	kbuffer *(*tep_kbuffer)(tep_handle *tep) = nullptr;
	void (*kbuffer_free)(kbuffer *kbuf) = nullptr;
	void *(*kbuffer_read_event)(kbuffer *kbuf, unsigned long long *ts) = nullptr;
	void *(*kbuffer_next_event)(kbuffer *kbuf, unsigned long long *ts) = nullptr;
	int (*kbuffer_event_size)(kbuffer *kbuf) = nullptr;
	int (*kbuffer_missed_events)(kbuffer *kbuf) = nullptr;
	void (*tep_free)(tep_handle *tep) = nullptr;
	// libtracecmd's output
	tracecmd_output *(*tracecmd_output_create)(const char *file) = nullptr;
	int (*tracecmd_output_set_trace_dir)(tracecmd_output *h, const char *dir) = nullptr;
	int (*tracecmd_output_set_kallsyms)(tracecmd_output *h, const char *kallsyms) = nullptr;
	int (*tracecmd_output_set_version)(tracecmd_output *h, int version) = nullptr;
	int (*tracecmd_output_set_compression)(tracecmd_output *h, const char *compression) = nullptr;
	int (*tracecmd_output_write_headers)(tracecmd_output *h, tracecmd_event_list *list) = nullptr;
	int (*tracecmd_write_cmdlines)(tracecmd_output *h) = nullptr;
	int (*tracecmd_write_cpus)(tracecmd_output *h, int cpus) = nullptr;
	int (*tracecmd_write_options)(tracecmd_output *h) = nullptr;
	int (*tracecmd_write_cpu_data)(tracecmd_output *h, int cpus, char *const *files,
				       const char *buff_name) = nullptr;
	void (*tracecmd_output_close)(tracecmd_output *h) = nullptr;
};

// Loaded on the first call (thread-safe). Throws std::runtime_error saying
// what is missing and which package installs it.
const live_libs_api &live_libs();

}  // namespace timersim
