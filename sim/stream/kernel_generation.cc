#include "sim/stream/kernel_generation.h"

#include <charconv>

namespace timersim {

namespace {

constexpr unsigned v_rt_zero_slack = 612;
constexpr unsigned v_tmigr_available = 619;
constexpr unsigned v_deferred_rearm = 701;

void rules_of(kernel_generation &g, unsigned v)
{
	g.rt_zero_slack = v >= v_rt_zero_slack;
	g.tmigr_available = v >= v_tmigr_available;
	g.deferred_rearm = v >= v_deferred_rearm;
}

// What the trace has raises the oldest possible version; what it lacks
// (where it would have printed it) lowers the newest.
struct bounds {
	kernel_generation &g;
	void at_least(unsigned v, const std::string &why)
	{
		if (v <= g.from)
			return;
		g.from = v;
		note(why + ": " + kernel_version_text(v) + "+");
	}
	void at_most(unsigned v, const std::string &why)
	{
		if (g.to && v >= g.to)
			return;
		g.to = v;
		note(why + ": up to " + kernel_version_text(v));
	}
	void note(const std::string &s)
	{
		g.evidence += (g.evidence.empty() ? "" : "; ") + s;
	}
};

}  // namespace

std::string kernel_version_text(unsigned v)
{
	return std::to_string(v / 100) + "." + std::to_string(v % 100);
}

bool parse_kernel_version(std::string_view text, unsigned &v, std::string &err)
{
	unsigned major = 0, minor = 0;
	const char *p = text.data(), *end = p + text.size();
	auto r = std::from_chars(p, end, major);
	bool ok = r.ec == std::errc() && r.ptr < end && *r.ptr == '.';
	if (ok) {
		r = std::from_chars(r.ptr + 1, end, minor);
		ok = r.ec == std::errc() && r.ptr == end && r.ptr > p;
	}
	if (!ok || major < 2 || major > 99 || minor > 99) {
		err = "'" + std::string(text) + "' is not a kernel version MAJOR.MINOR (e.g. 6.19, 7.1)";
		return false;
	}
	v = major * 100 + minor;
	return true;
}

std::string kernel_generation::range() const
{
	if (to && to == from)
		return kernel_version_text(from);
	if (!to)
		return kernel_version_text(from) + "+";
	return kernel_version_text(from) + ".." + kernel_version_text(to);
}

std::string kernel_generation::rules() const
{
	std::string out;
	auto add = [&](bool on, const char *name) {
		if (on)
			out += (out.empty() ? "" : ", ") + std::string(name);
	};
	add(rt_zero_slack, "rt_zero_slack");
	add(tmigr_available, "tmigr_available");
	add(deferred_rearm, "deferred_rearm");
	return out.empty() ? "none" : out;
}

std::string kernel_generation::undecided() const
{
	if (overridden)
		return "";
	std::string out;
	auto add = [&](unsigned v, const char *name) {
		if (v > from && (!to || v <= to))
			out += (out.empty() ? "" : ", ") + std::string(name) + " (" + kernel_version_text(v) + "+)";
	};
	add(v_rt_zero_slack, "rt_zero_slack");
	add(v_tmigr_available, "tmigr_available");
	add(v_deferred_rearm, "deferred_rearm");
	return out;
}

kernel_generation detect_kernel_generation(const trace_shape &shape)
{
	kernel_generation g;
	g.from = 300;
	bounds b{g};
	const std::uint32_t start = shape.start_fields, expire = shape.expire_fields;
	const bool starts = start != 0, expiries = expire != 0;
	// The wheel's tracepoints (include/trace/events/timer.h of each).
	if (start & EF_BUCKET_EXPIRY)
		b.at_least(608, "timer_start bucket_expiry=");
	else if (expire & EF_BASECLK) {
		b.at_least(502, "timer_expire_entry baseclk=");
		if (starts)
			b.at_most(607, "timer_start without bucket_expiry=");
	} else if (start & (EF_TARGET_CPU | EF_IDX)) {
		b.at_least(411, "timer_start cpu= idx=");
		if (expiries)
			b.at_most(501, "timer_expire_entry without baseclk=");
	} else if (start & EF_FLAGS) {
		b.at_least(402, "timer_start flags=0x");
		b.at_most(410, "timer_start without cpu= idx=");
	} else if (starts) {
		b.at_most(401, "timer_start without flags=");
	}
	if (shape.base_idles)
		b.at_least(608, "timer_base_idle");
	// The hrtimer tracepoints: was_armed= on hrtimer_start came with the
	// 7.1 rework and to 6.18 stable (this project's 6.18.44 prints it);
	// a start that prints mode= but no was_armed= is older. (trace-cmd
	// report's plugin prints neither: then nothing is told.)
	const std::uint32_t hr = shape.hrtimer_start_fields;
	if (hr & EF_WAS_ARMED)
		b.at_least(618, "hrtimer_start was_armed=");
	else if (hr & EF_HRTIMER_MODE)
		b.at_most(700, "hrtimer_start mode= without was_armed=");
	if (shape.hrtimer_rearms)
		b.at_least(701, "hrtimer_rearm");
	if (shape.hrtimer_start_expired)
		b.at_least(701, "hrtimer_start_expired");
	// kernel/time/timer_migration.c: 6.19 keeps isolated CPUs out of the
	// hierarchy by an available mask, and its CPU hotplug events are
	// tmigr_cpu_available/unavailable; before, tmigr_cpu_online/offline.
	if (shape.tmigr_available)
		b.at_least(619, "tmigr_cpu_available/unavailable");
	else if (shape.tmigr_online)
		b.at_most(618, "tmigr_cpu_online/offline");
	// 7.1 rearms the device after every hrtimer interrupt: expiries with
	// no hrtimer_rearm are an older kernel's (or the event was left off).
	if (shape.hrtimer_expiries && !shape.hrtimer_rearms)
		b.at_most(700, "hrtimer expiries without hrtimer_rearm");
	if (g.to && g.to < g.from) {
		// The fields disagree (a reader's rendering, a backport): the
		// newest evidence wins, and says so.
		b.note("the bounds cross: taken as " + kernel_version_text(g.from));
		g.to = g.from;
	}
	rules_of(g, g.from);
	return g;
}

void set_kernel_rules(kernel_generation &g, unsigned v)
{
	g.overridden = true;
	rules_of(g, v);
	g.evidence += (g.evidence.empty() ? "" : "; ") + std::string("--kernel-rules ") +
		      kernel_version_text(v);
}

}  // namespace timersim
