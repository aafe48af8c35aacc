#include "sim/lab/trace_window.h"

#include <cctype>
#include <limits>
#include <map>
#include <memory>

#include "sim/core/errors.h"
#include "sim/core/replay.h"
#include "sim/core/replay_sink.h"
#include "sim/lab/snapshot_json.h"
#include "sim/report/json_writer.h"

namespace timersim::lab {

namespace {

std::string num(std::uint64_t v) { return std::to_string(v); }

// A callback name as a scenario timer name: letters, digits, _ . - :
std::string name_from(std::string_view function)
{
	std::string s;
	for (char c : function)
		s += std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-' || c == ':' ? c : '_';
	if (s.empty())
		return "timer";
	// A callback printed as an address (no symbols): its low digits.
	if (s.size() > 8 && s[0] == '0' && s[1] == 'x')
		return "cb_" + s.substr(s.size() - 8);
	if (!std::isalpha(static_cast<unsigned char>(s[0])) && s[0] != '_')
		s = "_" + s;
	return s;
}

class lab_sink final : public replay_sink {
public:
	lab_sink(const trace_window_options &opt, const std::function<void(const lab_wheel &)> &begin,
		 const std::function<void(const step_record &)> &each, trace_window_summary &summary)
		: opt_(opt), begin_(begin), each_(each), summary_(summary)
	{
	}

	void begin(const replay_setup &s) override
	{
		setup_ = s;
		if (opt_.cpu >= s.cpus)
			throw usage_error("--cpu " + num(opt_.cpu) + ": the trace has " + num(s.cpus) + " CPU" +
					  (s.cpus == 1 ? "" : "s") + " (0.." + num(s.cpus - 1) + ")");
		wheel_setup w;
		w.scheme = opt_.scheme;
		w.hz = s.hz;
		w.word_bits = s.word_bits;
		w.base_small = opt_.base_small;
		w.lifo = opt_.lifo;
		w.start = s.narrow(s.start);
		wheel_ = make_lab_wheel(w);
		from_ = opt_.from ? unwrap(*opt_.from) : 0;
		to_ = opt_.to ? unwrap(*opt_.to) : std::numeric_limits<jiffies_t>::max();
		if (from_ > to_)
			throw usage_error("--from " + num(*opt_.from) + " is after --to " + num(*opt_.to));
		begin_(*wheel_);
	}

	void started(const timer_ref &t, unsigned cpu, jiffies_t now, jiffies_t expires, unsigned, bool) override
	{
		const std::string &name = name_of(t);
		if (cpu != opt_.cpu) {
			if (wheel_->known(name) && wheel_->pending(name))
				step(now, "timer_start " + name + " on CPU " + num(cpu) + ": it leaves this base",
				     [&](std::vector<wheel_event> &ev) { wheel_->del(name, ev); });
			return;
		}
		step(now, "timer_start " + name + " expires " + num(setup_.narrow(expires)),
		     [&](std::vector<wheel_event> &ev) {
			     arm_options o;
			     o.exact = true;
			     wheel_->arm(name, setup_.narrow(expires), o, false, ev);
		     });
	}

	void canceled(const timer_ref &t, unsigned cpu, jiffies_t now) override
	{
		if (cpu != opt_.cpu)
			return;
		const std::string &name = name_of(t);
		step(now, "timer_cancel " + name + ": del_timer()",
		     [&](std::vector<wheel_event> &ev) { wheel_->del(name, ev); });
	}

	void fidelity(const timer_ref &t, unsigned cpu, jiffies_t recorded, jiffies_t simulated, verdict v) override
	{
		const std::string &name = name_of(t);
		const bool held = wheel_->known(name) && wheel_->pending(name);
		if (v == verdict::simulated_only || (cpu != opt_.cpu && !(v == verdict::late && held)))
			return;
		std::string what;
		switch (v) {
		case verdict::exact: what = "the wheel fired it in this jiffy: exact"; break;
		case verdict::early: what = "the wheel fired it earlier, at " + num(setup_.narrow(simulated)) + ": early"; break;
		case verdict::late: what = "the wheel still holds it: late, expired now as the kernel did"; break;
		default: what = "the wheel never had it armed: unmatched"; break;
		}
		// The replay processes the recorded jiffy itself first.
		step(
			recorded, "timer_expire_entry " + name + " (recorded): " + what,
			[&](std::vector<wheel_event> &ev) {
				if (v == verdict::late && held)
					wheel_->del(name, ev);
			},
			true);
	}

	void expired(const timer_ref &t, unsigned cpu, jiffies_t jiffy, jiffies_t) override
	{
		if (cpu == opt_.cpu && jiffy >= from_ && jiffy <= to_)
			summary_.scheme_fired.emplace_back(name_of(t), setup_.narrow(jiffy));
	}

private:
	// A trace's jiffies value on the replay's timeline: the first at or
	// after the start with those low bits.
	jiffies_t unwrap(std::uint64_t v) const
	{
		if (setup_.word_bits == 64)
			return v;
		return setup_.start + ((v - setup_.start) & 0xffffffffull);
	}

	std::uint64_t lab_time(jiffies_t j) const { return j - setup_.start + setup_.narrow(setup_.start); }

	const std::string &name_of(const timer_ref &t)
	{
		auto it = names_.find(t.ptr);
		if (it != names_.end())
			return it->second;
		std::string base = name_from(t.name);
		unsigned &n = uses_[base];
		std::string name = ++n == 1 ? base : base + "." + num(n);
		return names_.emplace(t.ptr, name).first->second;
	}

	// One step on the base at jiffy `at`: the base first processes every
	// jiffy before it (`through`: `at` itself too). Shown in the window.
	void step(jiffies_t at, const std::string &text, const std::function<void(std::vector<wheel_event> &)> &apply,
		  bool through = false)
	{
		if (closed_)
			return;
		step_record r;
		if (at > to_) {
			// The window closes: catch up to its last jiffy, and stop.
			closed_ = true;
			if (in_window_ && lab_time(to_) + 1 > wheel_->now()) {
				r.text = "jiffy " + num(setup_.narrow(to_)) + ": end of the window";
				r.at = wheel_->now_word();
				wheel_->run_to(lab_time(to_), r.events);
				emit(r);
			}
			return;
		}
		if (!in_window_ && at >= from_) {
			// Expiries before the window are not shown.
			in_window_ = true;
			std::vector<wheel_event> before;
			if (lab_time(from_) > wheel_->now())
				wheel_->run_to(lab_time(from_) - 1, before);
		}
		r.text = "jiffy " + num(setup_.narrow(at)) + ": " + text;
		r.at = wheel_->now_word();
		const wheel_counters before = wheel_->counters();
		const std::uint64_t upto = lab_time(at) - (through ? 0 : 1);
		if (upto + 1 > wheel_->now())
			wheel_->run_to(upto, r.events);
		apply(r.events);
		r.work.ticks = wheel_->counters().ticks - before.ticks;
		r.work.cascade_calls = wheel_->counters().cascade_calls - before.cascade_calls;
		if (in_window_)
			emit(r);
	}

	void emit(step_record &r)
	{
		for (const wheel_event &e : r.events)
			if (e.kind == wheel_event_kind::expired)
				summary_.lab_fired.emplace_back(e.timer, e.jiffy);
		r.after = wheel_->snapshot();
		summary_.steps++;
		each_(r);
	}

	const trace_window_options &opt_;
	const std::function<void(const lab_wheel &)> &begin_;
	const std::function<void(const step_record &)> &each_;
	trace_window_summary &summary_;
	replay_setup setup_;
	std::unique_ptr<lab_wheel> wheel_;
	jiffies_t from_ = 0, to_ = 0;
	bool in_window_ = false, closed_ = false;
	std::map<std::uint64_t, std::string> names_;
	std::map<std::string, unsigned> uses_;
};

}  // namespace

trace_window_summary run_trace_window(const trace_window_options &opt,
				      const std::function<void(const lab_wheel &)> &begin,
				      const std::function<void(const step_record &)> &each)
{
	if (opt.scheme != "classic" && opt.scheme != "v48")
		throw usage_error("step shows the classic and v48 wheels, not '" + opt.scheme + "'");
	trace_window_summary summary;
	lab_sink sink(opt, begin, each, summary);
	replay_options r;
	r.scheme = opt.scheme;
	r.hz = opt.hz.value_or(0);
	r.word_bits = opt.word_bits.value_or(0);
	r.base_small = opt.base_small;
	// One CPU's bases as the lab wheel has them: every jiffy processed (the
	// lab steps the wheel jiffy by jiffy), no timer migration, no idle.
	r.ticks = tick_mode::every_jiffy;
	if (opt.scheme == "classic")
		r.params = {{"order", opt.lifo ? "lifo" : "fifo"}};
	else
		r.params = {{"tmigr", "off"}, {"idle", "off"}};
	auto reader = open_trace(opt.path, opt.format, opt.reader);
	replay_trace(*reader, opt.path, r, {&sink});
	return summary;
}

std::string trace_window_text(const trace_window_options &opt)
{
	std::string out, title = "timersim step --trace " + opt.path + " --cpu " + num(opt.cpu) + " --scheme " + opt.scheme;
	if (opt.from)
		title += " --from " + num(*opt.from);
	if (opt.to)
		title += " --to " + num(*opt.to);
	step_totals totals;
	wheel_snapshot last;
	trace_window_summary s = run_trace_window(
		opt, [&](const lab_wheel &w) { out += format_header(title, w); },
		[&](const step_record &r) {
			totals.add(r);
			last = r.after;
			out += format_step(r, opt.explain);
		});
	if (!s.steps)
		out += "\n(no events on CPU " + num(opt.cpu) + " in the window)\n";
	else
		out += format_totals(totals, last);
	return out;
}

std::string trace_window_json(const trace_window_options &opt)
{
	std::string out;
	json_writer j(out);
	j.begin_object();
	j.field("source", opt.path);
	j.field("cpu", opt.cpu);
	bool open = false;
	run_trace_window(
		opt,
		[&](const lab_wheel &w) {
			write_setup(j, w.setup());
			j.field("wheel", w.describe());
			j.key("steps");
			j.begin_array();
			open = true;
		},
		[&](const step_record &r) { write_step(j, r); });
	if (open)
		j.end_array();
	j.end_object();
	return out;
}

}  // namespace timersim::lab
