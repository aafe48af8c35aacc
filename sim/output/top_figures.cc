#include "sim/output/top_figures.h"

#include <algorithm>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <map>

#include "sim/output/json_string.h"

namespace timersim {

namespace {

std::string fmt_str(const char *f, ...) __attribute__((format(printf, 1, 2)));
std::string fmt_str(const char *f, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, f);
	std::vsnprintf(buf, sizeof buf, f, ap);
	va_end(ap);
	return buf;
}

// A count per second of the span, or the count when the span is unknown.
std::string rate(std::uint64_t n, double seconds)
{
	return seconds > 0 ? fmt_str("%.0f", double(n) / seconds) : std::to_string(n);
}

std::string us(std::uint64_t ns)
{
	return fmt_str("%.1f", double(ns) / 1e3);
}

std::string clip(const std::string &s, std::size_t n)
{
	return s.size() <= n ? s : s.substr(0, n - 1) + "~";
}

void cpu_json(std::string &o, const top_cpu_row &c, const std::vector<std::string> &levels)
{
	o += fmt_str("{\"interrupts\":%" PRIu64 ",\"interrupt_ns\":%" PRIu64 ",\"timer_softirq_runs\":%" PRIu64
		     ",\"timer_softirq_ns\":%" PRIu64 ",\"hrtimer_softirq_runs\":%" PRIu64
		     ",\"hrtimer_softirq_ns\":%" PRIu64 ",\"predicted_interrupts\":%" PRIu64
		     ",\"wakeups\":%" PRIu64 ",\"wakeups_without_expiry\":%" PRIu64,
		     c.interrupts, c.interrupt_ns, c.timer_runs, c.timer_ns, c.hrtimer_runs, c.hrtimer_ns,
		     c.predicted, c.wakeups, c.wakeups_without_expiry);
	o += fmt_str(",\"pending_wheel\":{\"all\":%" PRIu64, c.pending.empty() ? 0 : c.pending[0]);
	for (std::size_t l = 0; l < levels.size() && l + 1 < c.pending.size(); l++) {
		o += ',';
		append_json_string(o, levels[l]);
		o += fmt_str(":%" PRIu64, c.pending[l + 1]);
	}
	o += "},\"pending_hrtimers\":{";
	for (unsigned b = 0; b < hrtimer_clock_bases; b++)
		o += fmt_str("%s\"%s\":%" PRIu64, b ? "," : "", hrtimer_base_name(b), c.hr_pending[b]);
	o += "}}";
}

void figures_json(std::string &o, const top_figures &f)
{
	o += fmt_str("{\"seconds\":%.9f,\"events\":%" PRIu64 ",\"lost_events\":%" PRIu64, f.seconds, f.events,
		     f.lost);
	o += ",\"all\":";
	cpu_json(o, f.all, f.level_names);
	o += ",\"cpus\":[";
	for (std::size_t i = 0; i < f.cpus.size(); i++) {
		if (i)
			o += ',';
		cpu_json(o, f.cpus[i], f.level_names);
	}
	o += fmt_str("],\"wakeups\":%" PRIu64 ",\"wakeups_without_expiry\":%" PRIu64
		     ",\"expiries\":%" PRIu64 ",\"fidelity_compared\":%" PRIu64 ",\"fidelity_exact\":%" PRIu64
		     ",\"hrtimer_expiries\":%" PRIu64 ",\"hrtimer_same_interrupt\":%" PRIu64
		     ",\"pending\":%" PRIu64 ",\"timer_overhead_ns\":%" PRIu64 ",\"model_overhead_ns\":%s",
		     f.wakeups, f.wakeups_without_expiry, f.expiries, f.compared, f.exact, f.hr_expiries,
		     f.hr_same_interrupt, f.pending, f.overhead_ns,
		     f.model_given ? fmt_str("%.0f", f.model_ns).c_str() : "null");
	o += fmt_str(",\"units\":%" PRIu64 ",\"what_ifs\":[", f.units);
	for (std::size_t i = 0; i < f.what_ifs.size(); i++) {
		const top_what_if &w = f.what_ifs[i];
		o += i ? ",{\"label\":" : "{\"label\":";
		append_json_string(o, w.label);
		if (w.wheel)
			o += fmt_str(",\"units\":%" PRIu64 ",\"expired\":%" PRIu64 ",\"model_overhead_ns\":%s}", w.units,
				     w.expired, w.model_given ? fmt_str("%.0f", w.model_ns).c_str() : "null");
		else
			o += fmt_str(",\"interrupts\":%" PRIu64 ",\"model_interrupts\":%" PRIu64 "}", w.interrupts,
				     w.model_interrupts);
	}
	o += "]";
	o += ",\"callbacks\":[";
	bool first = true;
	for (const top_callback &c : ranked(f.callbacks, top_sort::measured)) {
		if (!first)
			o += ',';
		first = false;
		o += "{\"function\":";
		append_json_string(o, c.function);
		o += fmt_str(",\"measured_ns\":%s,\"runs\":%" PRIu64 ",\"model_units\":%" PRIu64
			     ",\"expired\":%" PRIu64 ",\"wakeups\":%" PRIu64 ",\"what_if_units\":%" PRIu64
			     ",\"wakeups_by_cpu\":[",
			     c.measured ? std::to_string(c.measured_ns).c_str() : "null", c.runs, c.model_units,
			     c.expired, c.wakeups, c.what_if_units);
		for (std::size_t i = 0; i < f.cpus.size(); i++)
			o += fmt_str("%s%" PRIu64, i ? "," : "", c.wakeups_on(int(i)));
		o += "]}";
	}
	o += "]}";
}

// Per CPU, at the interval's end: its wakeups by cause (the count, those
// that ran no callback, the callback that caused most) and what is pending
// in the replay's state, the wheel's timers by level and the hrtimer
// model's by clock base (levels and bases pending nowhere left out).
std::string wake_pending_table(const top_figures &w, const top_figures &run, const top_block_options &opt)
{
	const bool narrow = opt.width < 100;
	std::vector<std::size_t> levels;	// indexes into pending, 1-based
	std::vector<unsigned> bases;
	for (std::size_t l = 1; l < w.all.pending.size(); l++)
		if (w.all.pending[l])
			levels.push_back(l);
	for (unsigned b = 0; b < hrtimer_clock_bases; b++)
		if (w.all.hr_pending[b])
			bases.push_back(b);
	auto base_label = [](unsigned b) {
		static const char *const short_names[hrtimer_clock_bases] = {"mono", "real", "boot", "tai",
									      "mono/s", "real/s", "boot/s", "tai/s"};
		return short_names[b];
	};
	const int cause_w = narrow ? 14 : 24;
	std::string head = fmt_str("CPU  wakes nocb %-*s %5s", cause_w, "top cause", "wheel");
	for (std::size_t l : levels)
		head += fmt_str(" %5s", clip(l - 1 < w.level_names.size() ? w.level_names[l - 1] : "?", 5).c_str());
	head += fmt_str(" %5s", "hrt");
	for (unsigned b : bases)
		head += fmt_str(" %6s", base_label(b));
	if (!narrow)
		head += "  run wakes";
	std::string o = clip(head, opt.width) + "\n";
	auto line = [&](const std::string &name, const top_cpu_row &c, const top_cpu_row &rc, int cpu) {
		const top_callback *cause = nullptr;
		for (const top_callback &t : w.callbacks)
			if (t.wakeups_on(cpu) &&
			    (!cause || t.wakeups_on(cpu) > cause->wakeups_on(cpu) ||
			     (t.wakeups_on(cpu) == cause->wakeups_on(cpu) && t.function < cause->function)))
				cause = &t;
		std::string l = fmt_str("%-4s %5" PRIu64 " %4" PRIu64 " %-*s %5" PRIu64, name.c_str(), c.wakeups,
					c.wakeups_without_expiry, cause_w,
					cause ? clip(cause->function, std::size_t(cause_w)).c_str() : "-",
					c.pending.empty() ? 0 : c.pending[0]);
		for (std::size_t lv : levels)
			l += fmt_str(" %5" PRIu64, lv < c.pending.size() ? c.pending[lv] : 0);
		std::uint64_t hr = 0;
		for (unsigned b = 0; b < hrtimer_clock_bases; b++)
			hr += c.hr_pending[b];
		l += fmt_str(" %5" PRIu64, hr);
		for (unsigned b : bases)
			l += fmt_str(" %6" PRIu64, c.hr_pending[b]);
		if (!narrow)
			l += fmt_str(" %10" PRIu64, rc.wakeups);
		o += clip(l, opt.width) + "\n";
	};
	for (std::size_t i = 0; i < w.cpus.size(); i++)
		if (opt.cpu < 0 || std::size_t(opt.cpu) == i)
			line(std::to_string(i), w.cpus[i], i < run.cpus.size() ? run.cpus[i] : top_cpu_row{}, int(i));
	if (opt.cpu < 0)
		line("all", w.all, run.all, -1);
	return o;
}

// Adds ITEM into V: onto the element SAME says is its, else as a new one
// at the end (first come, first placed).
template <class T, class Same, class Add>
void merge_into(std::vector<T> &v, const T &item, Same same, Add add)
{
	auto it = std::find_if(v.begin(), v.end(), [&](const T &e) { return same(e, item); });
	if (it == v.end())
		v.push_back(item);
	else
		add(*it, item);
}

bool same_callback(const top_callback &a, const top_callback &b) { return a.function == b.function; }
void add_callback(top_callback &a, const top_callback &b)
{
	a.measured = a.measured || b.measured;
	a.measured_ns += b.measured_ns;
	a.runs += b.runs;
	a.model_units += b.model_units;
	a.expired += b.expired;
	a.wakeups += b.wakeups;
	a.what_if_units += b.what_if_units;
	if (a.wakeups_on_cpu.size() < b.wakeups_on_cpu.size())
		a.wakeups_on_cpu.resize(b.wakeups_on_cpu.size(), 0);
	for (std::size_t i = 0; i < b.wakeups_on_cpu.size(); i++)
		a.wakeups_on_cpu[i] += b.wakeups_on_cpu[i];
}

}  // namespace

void top_cpu_row::add(const top_cpu_row &o)
{
	interrupts += o.interrupts;
	interrupt_ns += o.interrupt_ns;
	timer_runs += o.timer_runs;
	timer_ns += o.timer_ns;
	hrtimer_runs += o.hrtimer_runs;
	hrtimer_ns += o.hrtimer_ns;
	predicted += o.predicted;
	wakeups += o.wakeups;
	wakeups_without_expiry += o.wakeups_without_expiry;
	if (pending.size() < o.pending.size())
		pending.resize(o.pending.size(), 0);
	for (std::size_t l = 0; l < o.pending.size(); l++)
		pending[l] += o.pending[l];
	for (unsigned b = 0; b < hrtimer_clock_bases; b++)
		hr_pending[b] += o.hr_pending[b];
}

top_figures top_figures_of(const replay_report &r)
{
	top_figures f;
	const measured::cost_report &m = r.measured;
	f.scheme = r.scheme;
	f.seconds = m.last_ns > m.first_ns ? double(m.last_ns - m.first_ns) / 1e9 : 0;
	f.events = r.input.events;
	f.lost = r.input.lost_events;
	f.softirqs_recorded = m.softirqs_recorded;
	f.interrupts_recorded = m.interrupts_recorded;
	const std::size_t cpus = std::max<std::size_t>(r.input.cpus, m.cpus.size());
	f.cpus.resize(cpus);
	for (std::size_t i = 0; i < cpus; i++) {
		top_cpu_row &c = f.cpus[i];
		if (i < m.cpus.size()) {
			const measured::cpu_cost &k = m.cpus[i];
			c.interrupts = k.interrupts.timer.count;
			c.interrupt_ns = k.interrupts.timer.total_ns;
			c.timer_runs = k.timer_softirq.runs.count;
			c.timer_ns = k.timer_softirq.runs.total_ns;
			c.hrtimer_runs = k.hrtimer_softirq.runs.count;
			c.hrtimer_ns = k.hrtimer_softirq.runs.total_ns;
		}
		if (i < m.cpus.size()) {
			c.wakeups = m.cpus[i].wakeups;
			c.wakeups_without_expiry = m.cpus[i].wakeups_without_expiry;
		}
		if (i < r.hrtimers.cpus.size()) {
			c.predicted = r.hrtimers.cpus[i].predicted_interrupts;
			std::copy(std::begin(r.hrtimers.cpus[i].pending), std::end(r.hrtimers.cpus[i].pending),
				  c.hr_pending.begin());
		}
		if (i < r.timers.pending_on_cpu.size())
			c.pending = r.timers.pending_on_cpu[i];
		f.all.add(c);
	}
	f.wakeups = m.wakeups;
	f.wakeups_without_expiry = m.wakeups_without_expiry;
	f.expiries = r.events.timer_expire_entry;
	f.compared = r.fidelity.compared;
	f.exact = r.fidelity.exact;
	f.hr_expiries = r.hrtimers.expiries;
	f.hr_same_interrupt = r.hrtimers.same_interrupt;
	f.pending = r.timers.pending_at_end;
	f.overhead_ns = m.all.timer_softirq.overhead_ns();
	f.model_given = r.modelled.given;
	f.model_ns = r.modelled.softirq.ns;
	f.model_low_ns = r.modelled.softirq.low;
	f.model_high_ns = r.modelled.softirq.high;
	f.level_names = r.timers.level_names;
	f.units = r.costs.total();
	std::map<std::string, top_callback> by;
	for (const auto &[name, c] : m.callbacks) {
		top_callback &t = by[name];
		t.function = name;
		t.measured = m.callbacks_recorded;
		t.measured_ns = c.runs.total_ns;
		t.runs = c.runs.count;
		t.wakeups = c.wakeups;
		t.wakeups_on_cpu = c.wakeups_on_cpu;
	}
	for (const function_stats &s : r.functions) {
		top_callback &t = by[s.function];
		t.function = s.function;
		t.measured = t.measured || s.measured_ns.has_value();
		t.model_units = s.work();
		t.expired = s.expired;
	}
	for (auto &[name, c] : by)
		f.callbacks.push_back(std::move(c));
	return f;
}

void top_what_if::add(const top_what_if &o)
{
	units += o.units;
	expired += o.expired;
	model_given = model_given || o.model_given;
	model_ns += o.model_ns;
	model_interrupts += o.model_interrupts;
	interrupts += o.interrupts;
}

void add_hr_what_ifs(top_figures &f, const replay_report &r)
{
	for (const hrtimer_what_if &h : r.hrtimers.what_ifs) {
		top_what_if w;
		w.label = h.name == "highres" ? "highres " + h.setting : "hr " + h.name + " " + h.setting;
		w.model_interrupts = h.model.interrupts;
		w.interrupts = h.what_if.interrupts;
		f.what_ifs.push_back(w);
	}
}

void add_wheel_what_if(top_figures &f, const std::string &label, const replay_report &r)
{
	top_what_if w;
	w.label = label;
	w.wheel = true;
	w.units = r.costs.total();
	w.expired = r.timers.expired;
	w.model_given = r.modelled.given;
	w.model_ns = r.modelled.softirq.ns;
	const bool first = std::none_of(f.what_ifs.begin(), f.what_ifs.end(), [](const top_what_if &x) { return x.wheel; });
	f.what_ifs.push_back(w);
	if (!first)
		return;
	for (const function_stats &s : r.functions) {
		auto it = std::find_if(f.callbacks.begin(), f.callbacks.end(),
				       [&](const top_callback &t) { return t.function == s.function; });
		if (it == f.callbacks.end()) {
			top_callback t;
			t.function = s.function;
			f.callbacks.push_back(t);
			it = f.callbacks.end() - 1;
		}
		it->what_if_units = s.work();
	}
}

void top_figures::add(const top_figures &o)
{
	seconds += o.seconds;
	events += o.events;
	lost += o.lost;
	if (cpus.size() < o.cpus.size())
		cpus.resize(o.cpus.size());
	for (std::size_t i = 0; i < o.cpus.size(); i++) {
		cpus[i].add(o.cpus[i]);
		cpus[i].pending = o.cpus[i].pending;
		cpus[i].hr_pending = o.cpus[i].hr_pending;
	}
	all.add(o.all);
	all.pending = o.all.pending;
	all.hr_pending = o.all.hr_pending;
	if (!o.level_names.empty())
		level_names = o.level_names;
	softirqs_recorded = softirqs_recorded || o.softirqs_recorded;
	interrupts_recorded = interrupts_recorded || o.interrupts_recorded;
	wakeups += o.wakeups;
	wakeups_without_expiry += o.wakeups_without_expiry;
	expiries += o.expiries;
	compared += o.compared;
	exact += o.exact;
	hr_expiries += o.hr_expiries;
	hr_same_interrupt += o.hr_same_interrupt;
	pending = o.pending;
	overhead_ns += o.overhead_ns;
	model_given = model_given || o.model_given;
	model_ns += o.model_ns;
	model_low_ns += o.model_low_ns;
	model_high_ns += o.model_high_ns;
	for (const top_callback &c : o.callbacks)
		merge_into(callbacks, c, same_callback, add_callback);
	if (scheme.empty())
		scheme = o.scheme;
	units += o.units;
	for (const top_what_if &w : o.what_ifs)
		merge_into(
			what_ifs, w, [](const top_what_if &x, const top_what_if &y) { return x.label == y.label; },
			[](top_what_if &x, const top_what_if &y) { x.add(y); });
}

const char *top_sort_name(top_sort s)
{
	switch (s) {
	case top_sort::measured: return "measured ns";
	case top_sort::model: return "model units";
	case top_sort::wakeups: return "wakeups";
	case top_sort::expired: return "expiries";
	}
	return "";
}

std::vector<top_callback> ranked(const std::vector<top_callback> &c, top_sort by, int cpu)
{
	auto key = [by, cpu](const top_callback &t) {
		switch (by) {
		case top_sort::measured: return t.measured_ns;
		case top_sort::model: return t.model_units;
		case top_sort::wakeups: return t.wakeups_on(cpu);
		case top_sort::expired: return t.expired;
		}
		return std::uint64_t{0};
	};
	std::vector<top_callback> out = c;
	std::sort(out.begin(), out.end(), [&](const top_callback &a, const top_callback &b) {
		if (key(a) != key(b))
			return key(a) > key(b);
		if (a.measured_ns != b.measured_ns)
			return a.measured_ns > b.measured_ns;
		return a.function < b.function;
	});
	return out;
}

std::string top_text_block(const std::string &title, const top_figures &w, const top_figures &run,
			   const top_block_options &opt)
{
	const bool narrow = opt.width < 100;
	std::string o = clip(title, opt.width) + "\n";
	o += fmt_str("events %" PRIu64 " (run %" PRIu64 ")  lost %" PRIu64 " (run %" PRIu64 ")  scheme %s\n",
		     w.events, run.events, w.lost, run.lost, w.scheme.c_str());
	// Per CPU: the interval's rates and times, the run's totals.
	o += narrow ? "CPU  irq/s  irq us  TIMER/s TIMER us HRT/s  HRT us   run irqs  run TIMER us\n"
		    : "CPU  irq/s  irq us  TIMER/s TIMER us HRT/s  HRT us  model irq/s   run irqs  run irq us  "
		      "run TIMER us  run HRT us\n";
	auto cpu_line = [&](const std::string &name, const top_cpu_row &c, const top_cpu_row &rc) {
		std::string l = fmt_str("%-4s %5s %7s %7s %8s %5s %7s", name.c_str(),
					rate(c.interrupts, w.seconds).c_str(), us(c.interrupt_ns).c_str(),
					rate(c.timer_runs, w.seconds).c_str(), us(c.timer_ns).c_str(),
					rate(c.hrtimer_runs, w.seconds).c_str(), us(c.hrtimer_ns).c_str());
		if (narrow)
			l += fmt_str(" %10" PRIu64 " %13s", rc.interrupts, us(rc.timer_ns).c_str());
		else
			l += fmt_str(" %12s %10" PRIu64 " %11s %13s %11s", rate(c.predicted, w.seconds).c_str(),
				     rc.interrupts, us(rc.interrupt_ns).c_str(), us(rc.timer_ns).c_str(),
				     us(rc.hrtimer_ns).c_str());
		return l + "\n";
	};
	for (std::size_t i = 0; i < w.cpus.size(); i++)
		if (opt.cpu < 0 || std::size_t(opt.cpu) == i)
			o += cpu_line(std::to_string(i), w.cpus[i],
				      i < run.cpus.size() ? run.cpus[i] : top_cpu_row{});
	if (opt.cpu < 0)
		o += cpu_line("all", w.all, run.all);
	if (!w.interrupts_recorded || !w.softirqs_recorded)
		o += std::string("  (") + (!w.interrupts_recorded ? "timer interrupts" : "") +
		     (!w.interrupts_recorded && !w.softirqs_recorded ? ", " : "") +
		     (!w.softirqs_recorded ? "softirq runs" : "") + " not recorded: 0 means unknown)\n";
	auto pct = [](std::uint64_t a, std::uint64_t b) {
		return b ? fmt_str("%.1f%%", 100.0 * double(a) / double(b)) : std::string("-");
	};
	if (narrow)
		o += fmt_str("fidelity  wheel %s of %" PRIu64 " (run %s)  hrtimer %s of %" PRIu64 " (run %s)\n",
			     pct(w.exact, w.compared).c_str(), w.compared, pct(run.exact, run.compared).c_str(),
			     pct(w.hr_same_interrupt, w.hr_expiries).c_str(), w.hr_expiries,
			     pct(run.hr_same_interrupt, run.hr_expiries).c_str());
	else
		o += fmt_str("fidelity  wheel %s exact of %" PRIu64 " (run %s of %" PRIu64 ")  hrtimer %s same irq of %" PRIu64
			     " (run %s)\n",
			     pct(w.exact, w.compared).c_str(), w.compared, pct(run.exact, run.compared).c_str(), run.compared,
			     pct(w.hr_same_interrupt, w.hr_expiries).c_str(), w.hr_expiries,
			     pct(run.hr_same_interrupt, run.hr_expiries).c_str());
	if (w.softirqs_recorded || w.model_given) {
		std::string l = "TIMER overhead  measured " + (w.softirqs_recorded ? us(w.overhead_ns) + " us" : std::string("-"));
		if (w.model_given)
			l += fmt_str("  model %.1f us [%.1f, %.1f]", w.model_ns / 1e3, w.model_low_ns / 1e3,
				     w.model_high_ns / 1e3);
		l += "  run " + (run.softirqs_recorded ? us(run.overhead_ns) : std::string("-"));
		if (run.model_given)
			l += fmt_str(" / %.1f us", run.model_ns / 1e3);
		o += clip(l, opt.width) + "\n";
	}
	o += wake_pending_table(w, run, opt);
	for (const top_what_if &x : w.what_ifs) {
		auto it = std::find_if(run.what_ifs.begin(), run.what_ifs.end(),
				       [&](const top_what_if &y) { return y.label == x.label; });
		std::string l = "what-if " + x.label + " (modelled): ";
		if (x.wheel) {
			l += fmt_str("%" PRIu64 " units (%s %" PRIu64 "), %" PRIu64 " expired", x.units, w.scheme.c_str(),
				     w.units, x.expired);
			if (x.model_given)
				l += fmt_str(", TIMER overhead %.1f us (%s %.1f)", x.model_ns / 1e3, w.scheme.c_str(),
					     w.model_ns / 1e3);
			if (it != run.what_ifs.end())
				l += fmt_str("  run %" PRIu64 " units", it->units);
		} else {
			l += fmt_str("%s irq/s (model %s)", rate(x.interrupts, w.seconds).c_str(),
				     rate(x.model_interrupts, w.seconds).c_str());
			if (it != run.what_ifs.end())
				l += fmt_str("  run %" PRIu64 " irqs (model %" PRIu64 ")", it->interrupts, it->model_interrupts);
		}
		o += clip(l, opt.width) + "\n";
	}
	// The callbacks: measured (their runs' own time) and modelled (the
	// scheme's work credited to them) side by side, never mixed.
	o += narrow ? fmt_str("callbacks by %s\n", top_sort_name(opt.sort))
		    : fmt_str("callbacks by %s (measured = recorded runs' own time, model = the scheme's work; "
			      "run us: the run's)\n",
			      top_sort_name(opt.sort));
	const unsigned fw = narrow ? 24 : 44;
	// A CPU picked: its wakeups (the others' figures are all CPUs').
	const bool what_if_col = !narrow && std::any_of(w.what_ifs.begin(), w.what_ifs.end(),
							 [](const top_what_if &x) { return x.wheel; });
	o += fmt_str("%-*s %11s %6s %8s %7s %5s %10s%s\n", int(fw), "function", "measured us", "runs", "model u",
		     "expired", "wakes", "run us", what_if_col ? "  what-if u" : "");
	unsigned n = 0;
	for (const top_callback &c : ranked(w.callbacks, opt.sort, opt.cpu)) {
		if (n++ == opt.callbacks)
			break;
		auto it = std::find_if(run.callbacks.begin(), run.callbacks.end(),
				       [&](const top_callback &t) { return t.function == c.function; });
		o += fmt_str("%-*s %11s %6" PRIu64 " %8" PRIu64 " %7" PRIu64 " %5" PRIu64 " %10s", int(fw),
			     clip(c.function, fw).c_str(), c.measured ? us(c.measured_ns).c_str() : "-", c.runs,
			     c.model_units, c.expired, c.wakeups_on(opt.cpu),
			     it == run.callbacks.end() ? "-" : us(it->measured_ns).c_str());
		o += what_if_col ? fmt_str(" %11" PRIu64 "\n", c.what_if_units) : std::string("\n");
	}
	return o;
}

std::string top_json_line(std::uint64_t interval, double t, const top_figures &window, const top_figures &run,
			  bool final)
{
	std::string o = fmt_str("{\"interval\":%" PRIu64 ",\"t\":%.9f,\"final\":%s,\"window\":", interval, t,
				final ? "true" : "false");
	figures_json(o, window);
	o += ",\"run\":";
	figures_json(o, run);
	o += "}\n";
	return o;
}

}  // namespace timersim
