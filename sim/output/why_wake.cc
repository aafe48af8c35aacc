#include "sim/output/why_wake.h"

#include <algorithm>
#include <charconv>

#include "sim/base/errors.h"
#include "sim/output/number_text.h"
#include "sim/replay/replay_report.h"

namespace timersim {

namespace {

std::uint64_t distance(std::uint64_t a, std::uint64_t b)
{
	return a > b ? a - b : b - a;
}

// Trace seconds with the nanoseconds: 12.345678000 s.
std::string seconds(std::uint64_t ns)
{
	std::string s;
	append_number(s, ns / 1'000'000'000);
	std::string frac = std::to_string(ns % 1'000'000'000);
	s += '.' + std::string(9 - frac.size(), '0') + frac + " s";
	return s;
}

// A duration in microseconds: 23.417 us (from a second on: 2.500000 s).
std::string micros(std::uint64_t ns)
{
	std::string s;
	if (ns >= 1'000'000'000) {
		append_fixed(s, double(ns) / 1e9, 6);
		return s + " s";
	}
	append_fixed(s, double(ns) / 1e3, 3);
	return s + " us";
}

// "5.000 us after the time asked", "the time asked".
std::string offset(std::uint64_t at, std::uint64_t ref, const char *what)
{
	if (at == ref)
		return std::string("at ") + what;
	return micros(distance(at, ref)) + (at > ref ? " after " : " before ") + what;
}

std::string plural(std::uint64_t n, const char *one, const char *many)
{
	return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

why_query why_query::parse(std::string_view spec)
{
	auto bad = [&](const std::string &why) {
		return usage_error("--why " + std::string(spec) + ": " + why +
				   " (CPU@SECONDS, the trace's own seconds, e.g. 1@12.345678)");
	};
	why_query q;
	const std::size_t at = spec.find('@');
	if (at == std::string_view::npos)
		throw bad("no '@'");
	const std::string_view cpu = spec.substr(0, at), secs = spec.substr(at + 1);
	auto [p, ec] = std::from_chars(cpu.data(), cpu.data() + cpu.size(), q.cpu);
	if (cpu.empty() || ec != std::errc() || p != cpu.data() + cpu.size())
		throw bad("the CPU is not a whole number");
	const std::size_t dot = secs.find('.');
	const std::string_view whole = secs.substr(0, dot);
	const std::string_view frac = dot == std::string_view::npos ? std::string_view() : secs.substr(dot + 1);
	std::uint64_t s = 0, f = 0;
	auto [p2, ec2] = std::from_chars(whole.data(), whole.data() + whole.size(), s);
	if (whole.empty() || ec2 != std::errc() || p2 != whole.data() + whole.size())
		throw bad("the seconds are not a number");
	if (frac.size() > 9 || (dot != std::string_view::npos && frac.empty()))
		throw bad("at most 9 decimals after a '.'");
	for (char c : frac) {
		if (c < '0' || c > '9')
			throw bad("the seconds are not a number");
		f = f * 10 + std::uint64_t(c - '0');
	}
	for (std::size_t i = frac.size(); i < 9; i++)
		f *= 10;
	if (s > 18'000'000'000ull)
		throw bad("more seconds than a trace clock holds");
	q.ns = s * 1'000'000'000ull + f;
	return q;
}

why_wake::why_wake(std::vector<why_query> queries)
{
	for (const why_query &q : queries)
		answers_.push_back({q, {}, false, 0, 0, 0, {}});
}

void why_wake::saw(std::uint64_t ns)
{
	first_ns_ = !seen_ || ns < first_ns_ ? ns : first_ns_;
	last_ns_ = !seen_ || ns > last_ns_ ? ns : last_ns_;
	seen_ = true;
}

void why_wake::check(const replay_report &r) const
{
	std::uint64_t first = first_ns_, last = last_ns_;
	bool any = seen_;
	auto widen = [&](std::uint64_t a, std::uint64_t b) {
		first = any ? std::min(first, a) : a;
		last = any ? std::max(last, b) : b;
		any = true;
	};
	if (r.measured.last_ns)
		widen(r.measured.first_ns, r.measured.last_ns);
	if (r.input.last_seconds > 0)
		widen(std::uint64_t(r.input.first_seconds * 1e9), std::uint64_t(r.input.last_seconds * 1e9 + 0.5));
	for (const answer &a : answers_) {
		const std::string what = "--why " + std::to_string(a.q.cpu) + "@" + seconds(a.q.ns) + ": ";
		if (a.q.cpu >= r.input.cpus)
			throw usage_error(what + "the trace has no CPU " + std::to_string(a.q.cpu) + " (its CPUs are 0.." +
					  std::to_string(r.input.cpus ? r.input.cpus - 1 : 0) + ")");
		if (!any)
			throw usage_error(what + "the trace has no timestamps to find a time in");
		if (a.q.ns < first || a.q.ns > last)
			throw usage_error(what + "the time is outside the trace (" + seconds(first) + " .. " +
					  seconds(last) + ")");
	}
}

void why_wake::woke(const wakeup &w)
{
	saw(w.entry_ns);
	for (answer &a : answers_) {
		if (a.q.cpu != w.cpu)
			continue;
		const std::uint64_t d = distance(w.entry_ns, a.q.ns);
		kept &k = a.nearest;
		// The nearest; of two as near, the earlier (they come in time order).
		if (k.found && d >= k.distance)
			continue;
		k = {true, d, w, std::string(w.first), std::string(w.cause_function), std::string(w.model_first)};
	}
}

void why_wake::activity(const cpu_activity &act)
{
	saw(act.start_ns);
	if (act.what != cpu_activity::kind::model_interrupt || act.recorded)
		return;
	for (answer &a : answers_) {
		if (a.q.cpu != act.cpu)
			continue;
		const std::uint64_t d = distance(act.start_ns, a.q.ns);
		if (a.model_own && d >= a.model_own_distance)
			continue;
		a.model_own = true;
		a.model_own_ns = act.start_ns;
		a.model_own_distance = d;
		a.model_own_expiries = act.count;
		a.model_own_first = std::string(act.function);
	}
}

std::string why_wake::text() const
{
	std::string out;
	for (const answer &a : answers_) {
		out += "\nwhy CPU " + std::to_string(a.q.cpu) + " woke at " + seconds(a.q.ns) + "\n";
		if (!a.nearest.found) {
			out += "  no timer interrupt recorded on CPU " + std::to_string(a.q.cpu) +
			       " (nor hrtimer expiries that show one)\n";
			continue;
		}
		const wakeup &w = a.nearest.w;
		const kept &k = a.nearest;
		out += "  interrupt  " + seconds(w.entry_ns) + ", " + offset(w.entry_ns, a.q.ns, "the time asked");
		out += w.irq_recorded ? " (its entry; exit " + micros(w.exit_ns - w.entry_ns) + " later)\n"
				      : " (its first hrtimer expiry: the trace records no timer interrupt events)\n";
		out += "  ran        ";
		if (!w.expiries)
			out += "no hrtimer\n";
		else
			out += plural(w.expiries, "hrtimer expiry", "hrtimer expiries") + ", first " + k.first +
			       (w.first_tick ? " (the tick's hrtimer)\n" : "\n");
		out += "  cause      ";
		switch (w.cause) {
		case wake_cause::none:
			out += "none: the interrupt ran no timer callback\n";
			break;
		case wake_cause::hrtimer:
			out += "the hrtimer " + k.cause_function + "\n";
			break;
		case wake_cause::tick:
			out += "the tick alone (" + k.cause_function + "): no wheel timer ran after it\n";
			break;
		case wake_cause::wheel:
			out += "the wheel: " + k.cause_function + ", run by the TIMER softirq after the tick (" +
			       k.first + ")\n";
			break;
		}
		out += "  measured   ";
		if (w.irq_recorded)
			out += "the interrupt " + micros(w.exit_ns - w.entry_ns);
		else
			out += "the interrupt not recorded";
		if (w.softirq)
			out += "; the TIMER softirq after it at " + seconds(w.softirq_entry_ns) + ": " +
			       micros(w.softirq_own_ns) + ", " + micros(w.softirq_callbacks_ns) + " in " +
			       plural(w.softirq_callbacks, "callback", "callbacks") + "\n";
		else
			out += "; no TIMER softirq run recorded after it\n";
		out += "  model      ";
		if (!w.modelled) {
			out += "ran no interrupt here\n";
		} else {
			out += w.predicted ? "predicted it: " : "did not predict it: ";
			if (w.deadline_known)
				out += "its device was programmed for " + seconds(w.deadline_ns) + " (" +
				       offset(w.deadline_ns, w.entry_ns, "the interrupt") + ")";
			else
				out += "its device was not programmed";
			out += "; it ran " + (w.model_expiries ? plural(w.model_expiries, "hrtimer", "hrtimers") +
									 ", first " + k.model_first
								       : std::string("no hrtimer")) +
			       "\n";
		}
		if (a.model_own)
			out += "  the model's nearest interrupt of its own (none recorded there): " +
			       seconds(a.model_own_ns) + ", " + offset(a.model_own_ns, a.q.ns, "the time asked") + ", " +
			       (a.model_own_expiries ? plural(a.model_own_expiries, "hrtimer", "hrtimers") + ", first " +
							       a.model_own_first
						     : std::string("no hrtimer")) +
			       "\n";
	}
	return out;
}

}  // namespace timersim
