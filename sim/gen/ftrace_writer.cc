// write_ftrace(): a generated trace as `cat /sys/kernel/tracing/trace` of
// a 64-bit Linux 3.x kernel prints it (kernel/trace/trace_output.c and
// include/trace/events/timer.h of 3.10): the header with #P:, then
//   "<task>-<pid> [CPU] <flags> <sec>.<usec>: <event>: <fields>"
// with pointers as 16 hex digits without 0x and callbacks by name. A 6.x
// trace has the fifth flag column and the 6.8+ fields: timer_start's
// bucket_expiry=, cpu=, idx=, flags=, timer_expire_entry's baseclk=.
//
// The header's entry count comes first, so the trace is generated twice:
// once to count, once to write (it is deterministic, so both agree).
#include <cinttypes>
#include <cstdio>

#include "sim/base/errors.h"
#include "sim/gen/generator.h"
#include "sim/gen/tracefs_header.h"

namespace timersim::gen {

namespace {

// The flag block: the softirq column for what the timer softirq does,
// irqs off under the base lock for mod_timer/del_timer.
const char *flags_of(const gen_event &ev)
{
	if (ev.softirq)
		return ev.v6 ? "..s1." : "..s.";
	if (ev.kind == event_kind::timer_init)
		return ev.v6 ? "....." : "....";
	return ev.v6 ? "d..1." : "d..1";
}

void write_event(std::FILE *out, const machine &m, const gen_event &ev)
{
	const task_name &task = m.tasks()[ev.task];
	unsigned pid = ev.softirq ? 0 : task.pid_base + ev.cpu;
	const char *comm = ev.softirq ? "<idle>" : task.comm.c_str();
	std::fprintf(out, "%16s-%-5u [%03u] %s %5" PRIu64 ".%06" PRIu64 ": ", comm, pid, ev.cpu,
		     flags_of(ev), ev.ts_ns / 1'000'000'000, ev.ts_ns / 1000 % 1'000'000);
	const char *fn = m.functions()[ev.function].c_str();
	switch (ev.kind) {
	case event_kind::timer_init:
		std::fprintf(out, "timer_init: timer=%016" PRIx64 "\n", ev.timer);
		break;
	case event_kind::timer_start:
		std::fprintf(out, "timer_start: timer=%016" PRIx64 " function=%s expires=%" PRIu64
			     " [timeout=%" PRId64 "]", ev.timer, fn, ev.expires, ev.timeout);
		if (ev.v6)
			std::fprintf(out, " bucket_expiry=%" PRIu64 " cpu=%u idx=%u flags=P", ev.bucket_expiry, ev.cpu,
				     ev.idx);
		std::fputc('\n', out);
		break;
	case event_kind::timer_cancel:
		std::fprintf(out, "timer_cancel: timer=%016" PRIx64 "\n", ev.timer);
		break;
	case event_kind::timer_expire_entry:
		std::fprintf(out, "timer_expire_entry: timer=%016" PRIx64 " function=%s now=%" PRIu64, ev.timer, fn,
			     ev.now);
		if (ev.v6)
			std::fprintf(out, " baseclk=%" PRIu64, ev.now);
		std::fputc('\n', out);
		break;
	case event_kind::timer_expire_exit:
		std::fprintf(out, "timer_expire_exit: timer=%016" PRIx64 "\n", ev.timer);
		break;
	default:
		break;
	}
}

}  // namespace

std::uint64_t write_ftrace(const gen_options &opt, std::FILE *out)
{
	std::uint64_t count = 0;
	std::vector<gen_event> buf;
	{
		generator g(opt);
		while (g.step(buf)) {
			count += buf.size();
			buf.clear();
		}
	}
	// Refused before a byte is written: a header without events is not a
	// trace its replay reads.
	if (count == 0) {
		char scale[40] = "";
		if (opt.scale != 1.0)
			std::snprintf(scale, sizeof scale, " at --scale %g", opt.scale);
		throw usage_error("gen: the workloads generate no timer event in --duration " +
				  seconds_text(opt.duration_ns) + scale +
				  ": raise their rates or populations, --scale or --duration");
	}

	generator g(opt);
	std::fputs(tracefs_header(opt.kernel, count, opt.cpus, describe(opt)).c_str(), out);
	while (g.step(buf)) {
		for (const gen_event &ev : buf)
			write_event(out, g.the_machine(), ev);
		buf.clear();
	}
	return count;
}

}  // namespace timersim::gen
