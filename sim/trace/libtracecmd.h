// libtracecmd + libtraceevent, as C++ can include them.
//
// trace-cmd.h pulls in tracefs.h, whose inline functions are not valid C++
// (implicit int-to-enum conversions). We use nothing from libtracefs, so its
// include guard is set beforehand to skip it; trace-cmd.h only needs
// cpu_set_t from <sched.h> and event-parse.h, included here first.
#pragma once

#include <sched.h>
#include <stdarg.h>

#include <event-parse.h>

#ifndef _TRACE_FS_H
#define _TRACE_FS_H
#define TIMERSIM_SKIPPED_TRACEFS_H
#endif
#include <trace-cmd.h>
#ifdef TIMERSIM_SKIPPED_TRACEFS_H
#undef _TRACE_FS_H
#undef TIMERSIM_SKIPPED_TRACEFS_H
#endif

extern "C" {
// Exported by libtracecmd but declared only in its private header: the
// recording kernel's `uname -a` line ("Linux host 6.18.44 ..."), or NULL.
const char *tracecmd_get_uname(struct tracecmd_input *handle);
// Likewise: the per-CPU ring buffer statistics saved at recording time
// ("CPU: 0\nentries: 0\n...read events: 17131\n" per CPU), or NULL.
const char *tracecmd_get_cpustats(struct tracecmd_input *handle);
// libtraceevent's documented override point for every message that it and
// libtracecmd print (event-utils.h, which is not C++-clean).
int tep_vprint(const char *name, enum tep_loglevel level, bool print_err,
	       const char *fmt, va_list ap);
// libtraceevent's (kbuffer.h, which has no extern "C" of its own).
struct kbuffer;
int kbuffer_load_subbuffer(struct kbuffer *kbuf, void *subbuffer);
}
