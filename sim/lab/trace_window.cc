#include "sim/lab/trace_window.h"

#include <cctype>
#include <limits>
#include <map>
#include <memory>

#include "sim/base/errors.h"
#include "sim/replay/replay.h"
#include "sim/replay/replay_sink.h"
#include "sim/lab/explain.h"
#include "sim/lab/snapshot_json.h"
#include "sim/base/json_writer.h"

namespace timersim::lab {

namespace {

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

const char *v48_base_name(unsigned index)
{
	static const char *const names[] = {"local", "global", "def"};
	return index < 3 ? names[index] : "def";
}

struct where {
	std::string base, level;
	unsigned slot = unknown_slot;
};

// The replay's own wheel, base `cpu`, as step records: each recorded start,
// cancel and expiry on that base is a statement; what the wheel did since
// the last one (cascades, moves, expiries) comes with it; the picture is
// read off the scheme's slots (wheel_inspection).
class window_sink final : public replay_sink {
public:
	window_sink(const trace_window_options &opt, const std::function<void(const wheel_setup &, const std::string &)> &begin,
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
		if (!s.wheel)
			throw usage_error("step shows the wheels with slots (classic, v48), not " + s.scheme);
		from_ = opt_.from ? unwrap(*opt_.from) : 0;
		to_ = opt_.to ? unwrap(*opt_.to) : std::numeric_limits<jiffies_t>::max();
		if (from_ > to_)
			throw usage_error("--from " + num(*opt_.from) + " is after --to " + num(*opt_.to));
		wheel_setup w;
		w.scheme = s.scheme;	// auto resolved
		w.hz = s.hz;
		w.word_bits = s.word_bits;
		w.base_small = opt_.base_small;
		w.lifo = opt_.lifo;
		w.start = s.narrow(s.start);
		classic_ = w.base_small ? classic_shape_of<kernel::geometry_small>(w.word_bits)
					: classic_shape_of<kernel::geometry_normal>(w.word_bits);
		v48_ = kernel::v48::lvl_depth_for_hz(w.hz) == 9 ? v48_shape_of<kernel::v48::geometry_hz_gt_100>(w.word_bits)
								  : v48_shape_of<kernel::v48::geometry_hz_le_100>(w.word_bits);
		begin_(w, make_lab_wheel(w)->describe());
	}

	void started(const timer_ref &t, unsigned cpu, jiffies_t now, jiffies_t expires, unsigned, bool rearm) override
	{
		const std::string name = name_of(t);
		if (cpu != opt_.cpu) {
			auto it = places_.find(t.id);
			if (it != places_.end()) {
				wheel_event gone = event(wheel_event_kind::deleted, name, now, it->second);
				places_.erase(it);
				statement(now, "timer_start " + name + " on CPU " + num(cpu) + ": it leaves this base", {gone});
			}
			return;
		}
		const wheel_place p = setup_.wheel->place(t.id);
		wheel_event e = event(wheel_event_kind::placed, name, now, at(p));
		e.expires = p.expires;
		e.requested = setup_.narrow(expires);
		e.bucket_expiry = p.bucket_expiry;
		e.clock = p.clock;
		e.rearm = rearm;
		e.why = (rearm ? std::string("it was pending: detached first, then placed again\n") : std::string()) +
			placement_why(p);
		places_[t.id] = at(p);
		statement(now, "timer_start " + name + " expires " + num(setup_.narrow(expires)), {e});
	}

	void canceled(const timer_ref &t, unsigned cpu, jiffies_t now) override
	{
		if (cpu != opt_.cpu)
			return;
		const std::string name = name_of(t);
		wheel_event e = event(wheel_event_kind::deleted, name, now, places_[t.id]);
		e.why = "del_timer(): unlinked from its slot in O(1); it never runs";
		places_.erase(t.id);
		statement(now, "timer_cancel " + name + ": del_timer()", {e});
	}

	void tick(unsigned cpu, jiffies_t jiffy) override
	{
		if (cpu != opt_.cpu)
			return;
		ticks_++;
		open_cascade_ = npos;
		(void)jiffy;
	}

	void idle_ticks(unsigned cpu, jiffies_t, std::uint64_t count) override
	{
		if (cpu == opt_.cpu)
			ticks_ += count;
	}

	void cascaded(unsigned cpu, jiffies_t jiffy, unsigned level, std::uint32_t count) override
	{
		if (cpu != opt_.cpu || !shown(jiffy))
			return;
		calls_++;
		if (open_cascade_ != npos && buffer_[open_cascade_].level == level_name(level))
			buffer_[open_cascade_].count = count;
		else
			buffer_.push_back(cascade_event(jiffy, level));
		open_cascade_ = npos;
	}

	void moved(const timer_ref &t, unsigned cpu, jiffies_t jiffy, unsigned from_level) override
	{
		if (cpu != opt_.cpu)
			return;
		if (!shown(jiffy)) {
			places_[t.id] = at(setup_.wheel->place(t.id));
			return;
		}
		// The kernel reports a cascade after its moves; it is listed first.
		if (open_cascade_ == npos || buffer_[open_cascade_].level != level_name(from_level)) {
			open_cascade_ = buffer_.size();
			buffer_.push_back(cascade_event(jiffy, from_level));
		}
		const wheel_place p = setup_.wheel->place(t.id);
		wheel_event e = event(wheel_event_kind::moved, name_of(t), jiffy, at(p));
		e.from_level = buffer_[open_cascade_].level;
		e.from_slot = buffer_[open_cascade_].slot;
		e.expires = p.expires;
		e.bucket_expiry = p.bucket_expiry;
		e.clock = p.clock;
		e.why = placement_why(p);
		places_[t.id] = at(p);
		buffer_.push_back(e);
	}

	void expired(const timer_ref &t, unsigned cpu, jiffies_t jiffy, jiffies_t expires) override
	{
		if (cpu != opt_.cpu)
			return;
		const std::string name = name_of(t);
		wheel_event e = event(wheel_event_kind::expired, name, jiffy, places_[t.id]);
		e.expires = setup_.narrow(expires);
		e.why = "jiffy " + num(setup_.narrow(jiffy)) + ": " + place_text(e.level, e.slot) + " runs; " + name +
			" expires " + num(e.expires);
		places_.erase(t.id);
		if (!shown(jiffy))
			return;
		buffer_.push_back(e);
		summary_.fired.emplace_back(name, setup_.narrow(jiffy));
	}

	void fidelity(const timer_ref &t, unsigned cpu, jiffies_t recorded, jiffies_t simulated, verdict v) override
	{
		const std::string name = name_of(t);
		const bool held = places_.count(t.id) != 0;
		if (v == verdict::simulated_only || (cpu != opt_.cpu && !(v == verdict::late && held)))
			return;
		std::vector<wheel_event> extra;
		std::string what;
		switch (v) {
		case verdict::exact: what = "the wheel fired it in this jiffy: exact"; break;
		case verdict::early:
			what = "the wheel fired it earlier, at " + num(setup_.narrow(simulated)) + ": early";
			break;
		case verdict::late:
			if (expired_by_replay(v, recorded, simulated) && held) {
				what = "the wheel still holds it: late, expired now as the kernel did";
				wheel_event e = event(wheel_event_kind::deleted, name, recorded, places_[t.id]);
				e.why = "the replay expires it at the recorded jiffy, so the wheel follows the kernel";
				places_.erase(t.id);
				extra.push_back(e);
			} else {
				what = "the wheel fired it later, at " + num(setup_.narrow(simulated)) + ": late";
			}
			break;
		default: what = "the wheel never had it armed: unmatched"; break;
		}
		statement(recorded, "timer_expire_entry " + name + " (recorded): " + what, extra);
	}

	void end(const replay_report &) override
	{
		// What the wheel did after the last statement, up to the window's end.
		if (!closed_ && in_window_ && !buffer_.empty())
			close("end of the trace");
	}

private:
	static constexpr std::size_t npos = ~std::size_t{0};

	// A trace's jiffies value on the replay's timeline: the first at or
	// after the start with those low bits.
	jiffies_t unwrap(std::uint64_t v) const
	{
		if (setup_.word_bits == 64)
			return v;
		return setup_.start + ((v - setup_.start) & 0xffffffffull);
	}

	bool classic() const { return setup_.scheme == "classic"; }
	bool shown(jiffies_t jiffy) const { return jiffy >= from_ && jiffy <= to_ && !closed_; }

	std::string level_name(unsigned level) const
	{
		return level && level <= setup_.level_names.size() ? setup_.level_names[level - 1] : "";
	}

	where at(const wheel_place &p) const
	{
		if (!p.level)
			return {};
		return {classic() ? "base" : v48_base_name(p.base), level_name(p.level), p.slot};
	}

	static std::string place_text(const std::string &level, unsigned slot)
	{
		return (level.empty() ? "?" : level) + "[" + (slot == unknown_slot ? "?" : num(slot)) + "]";
	}

	std::string placement_why(const wheel_place &p) const
	{
		if (!p.level)
			return "";
		if (classic())
			return explain_classic_place(classic_, p.clock, p.expires, p.level, p.slot);
		return explain_v48_place(v48_, p.clock, p.expires, p.level - 1, p.slot, p.bucket_expiry);
	}

	wheel_event event(wheel_event_kind kind, const std::string &name, jiffies_t jiffy, const where &w) const
	{
		wheel_event e;
		e.kind = kind;
		e.timer = name;
		e.base = w.base.empty() ? (classic() ? "base" : "global") : w.base;
		e.jiffy = setup_.narrow(jiffy);
		e.level = w.level;
		e.slot = w.slot;
		return e;
	}

	// A cascade call of the classic wheel at `jiffy`: the slot is that
	// level's bits of the jiffy.
	wheel_event cascade_event(jiffies_t jiffy, unsigned level) const
	{
		wheel_event c = event(wheel_event_kind::cascaded, "", jiffy, {});
		c.level = level_name(level);
		if (classic() && level >= 2 && level <= 5) {
			c.slot = static_cast<unsigned>(setup_.narrow(jiffy) >> classic_.shift[level]) & (classic_.slots[level] - 1);
			c.why = explain_cascade(classic_, setup_.narrow(jiffy), level, c.slot);
		}
		return c;
	}

	std::string name_of(const timer_ref &t)
	{
		auto it = names_.find(t.id);
		if (it != names_.end())
			return it->second;
		std::string base = name_from(t.name);
		unsigned &n = uses_[base];
		std::string name = ++n == 1 ? base : base + "." + num(n);
		return names_.emplace(t.id, name).first->second;
	}

	wheel_snapshot snapshot(jiffies_t now) const
	{
		wheel_snapshot s;
		s.scheme = setup_.scheme;
		s.word_bits = setup_.word_bits;
		s.now = setup_.narrow(now);
		for (const wheel_base_state &b : setup_.wheel->inspect(opt_.cpu)) {
			snapshot_base &sb = s.bases.emplace_back();
			sb.name = b.name;
			sb.clock = b.clock;
			for (const wheel_level_state &l : b.levels) {
				snapshot_level &sl = sb.levels.emplace_back();
				sl.name = l.name;
				sl.size = l.size;
				sl.index = l.index;
				sl.width = l.width;
				for (const wheel_slot_state &slot : l.slots) {
					snapshot_slot &ss = sl.slots.emplace_back();
					ss.slot = slot.slot;
					for (const wheel_timer_state &t : slot.timers) {
						auto name = names_.find(t.id);
						ss.timers.push_back({name == names_.end() ? "timer" : name->second, t.expires,
								     t.bucket_expiry, t.deferrable});
					}
				}
			}
		}
		return s;
	}

	// The base's next jiffy: the clock of the classic base, the furthest
	// of the v48 bases.
	jiffies_t base_now(jiffies_t at) const
	{
		std::uint64_t clock = 0;
		for (const wheel_base_state &b : setup_.wheel->inspect(opt_.cpu))
			clock = std::max(clock, b.clock);
		// The clock as a timeline value near the statement's jiffy.
		const std::uint64_t mask = setup_.word_bits == 32 ? 0xffffffffull : ~std::uint64_t{0};
		const std::int64_t d = setup_.word_bits == 32
					       ? static_cast<std::int32_t>(static_cast<std::uint32_t>((clock - at) & mask))
					       : static_cast<std::int64_t>(clock - at);
		return at + static_cast<std::uint64_t>(d);
	}

	void emit(const std::string &text, jiffies_t at, std::vector<wheel_event> extra)
	{
		step_record r;
		r.text = text;
		r.at = setup_.narrow(at);
		for (wheel_event &e : buffer_)
			r.events.push_back(std::move(e));
		for (wheel_event &e : extra)
			r.events.push_back(std::move(e));
		r.work.ticks = ticks_;
		r.work.cascade_calls = calls_;
		r.after = snapshot(base_now(at));
		summary_.steps++;
		each_(r);
		buffer_.clear();
		ticks_ = calls_ = 0;
		open_cascade_ = npos;
	}

	void close(const std::string &why)
	{
		closed_ = true;
		emit("jiffy " + num(setup_.narrow(std::min(to_, last_))) + ": " + why, std::min(to_, last_), {});
	}

	// One recorded event on the base, at jiffy `at`.
	void statement(jiffies_t at, const std::string &text, std::vector<wheel_event> extra)
	{
		if (closed_)
			return;
		if (at < from_) {
			buffer_.clear();
			ticks_ = calls_ = 0;
			open_cascade_ = npos;
			return;
		}
		if (at > to_) {
			if (in_window_ && !buffer_.empty())
				close("end of the window");
			closed_ = true;
			return;
		}
		in_window_ = true;
		last_ = at;
		emit("jiffy " + num(setup_.narrow(at)) + ": " + text, at, std::move(extra));
	}

	const trace_window_options &opt_;
	const std::function<void(const wheel_setup &, const std::string &)> &begin_;
	const std::function<void(const step_record &)> &each_;
	trace_window_summary &summary_;
	replay_setup setup_;
	classic_shape classic_;
	v48_shape v48_;
	jiffies_t from_ = 0, to_ = 0, last_ = 0;
	bool in_window_ = false, closed_ = false;
	std::map<timer_id, std::string> names_;
	std::map<std::string, unsigned> uses_;
	std::map<timer_id, where> places_;	// where each pending timer of the base sits
	std::vector<wheel_event> buffer_;	// what the wheel did since the last statement
	std::size_t open_cascade_ = npos;
	std::uint64_t ticks_ = 0, calls_ = 0;
};

}  // namespace

trace_window_summary run_trace_window(const trace_window_options &opt,
				      const std::function<void(const wheel_setup &, const std::string &)> &begin,
				      const std::function<void(const step_record &)> &each)
{
	if (opt.scheme != "classic" && opt.scheme != "v48" && opt.scheme != auto_scheme)
		throw usage_error("step shows the classic and v48 wheels, not '" + opt.scheme + "'");
	trace_window_summary summary;
	window_sink sink(opt, begin, each, summary);
	replay_options r;
	r.scheme = opt.scheme;
	r.hz = opt.hz.value_or(0);
	r.word_bits = opt.word_bits.value_or(0);
	r.base_small = opt.base_small;
	r.ticks = opt.ticks;
	// The order is classic's: given to auto only when asked for (a v48
	// recording then refuses it, as replay does).
	if (opt.scheme == "classic" || (opt.scheme == auto_scheme && opt.lifo))
		r.params = {{"order", opt.lifo ? "lifo" : "fifo"}};
	auto reader = open_trace(opt.path, opt.format, opt.reader);
	replay_trace(*reader, opt.path, r, {&sink});
	return summary;
}

void write_trace_window_text(const trace_window_options &opt, const step_output &write)
{
	std::string window;
	if (opt.from)
		window += " --from " + num(*opt.from);
	if (opt.to)
		window += " --to " + num(*opt.to);
	step_totals totals;
	wheel_snapshot last;
	trace_window_summary s = run_trace_window(
		opt,
		[&](const wheel_setup &w, const std::string &describe) {
			// The wheel that ran: auto names the recording kernel's.
			write("timersim step --trace " + opt.path + " --cpu " + num(opt.cpu) + " --scheme " + w.scheme +
			      window + (opt.scheme == auto_scheme ? " (auto: the recording kernel's wheel)" : "") +
			      "\nwheel: " + describe + "\nstart: now " + num(w.start) + "\n");
		},
		[&](const step_record &r) {
			totals.add(r);
			last = r.after;
			write(format_step(r, opt.explain));
		});
	if (!s.steps)
		write("\n(no events on CPU " + num(opt.cpu) + " in the window)\n");
	else
		write(format_totals(totals, last));
}

void write_trace_window_json(const trace_window_options &opt, const step_output &write)
{
	// The writer keeps its nesting itself: its text is handed on and
	// dropped after every step.
	std::string out;
	json_writer j(out);
	j.begin_object();
	j.field("source", opt.path);
	j.field("cpu", opt.cpu);
	bool open = false;
	run_trace_window(
		opt,
		[&](const wheel_setup &w, const std::string &describe) {
			write_setup(j, w);
			j.field("wheel", describe);
			j.key("steps");
			j.begin_array();
			open = true;
		},
		[&](const step_record &r) {
			write_step(j, r);
			write(out);
			out.clear();
		});
	if (open)
		j.end_array();
	j.end_object();
	write(out);
}

std::string trace_window_text(const trace_window_options &opt)
{
	std::string out;
	write_trace_window_text(opt, [&](std::string_view piece) { out += piece; });
	return out;
}

std::string trace_window_json(const trace_window_options &opt)
{
	std::string out;
	write_trace_window_json(opt, [&](std::string_view piece) { out += piece; });
	return out;
}

}  // namespace timersim::lab
