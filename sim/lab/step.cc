#include "sim/lab/step.h"

#include "kernel/jiffies.h"
#include "sim/lab/explain.h"
#include "sim/lab/hr_step.h"
#include "sim/lab/indent_lines.h"
#include "sim/lab/snapshot_json.h"
#include "sim/base/json_writer.h"
#include "sim/trace/reader.h"

namespace timersim::lab {

namespace {

// The most jiffies one statement may process (the lab's documented limit;
// idle stretches cost nothing, busy jiffies at most one per timer and level).
constexpr std::uint64_t max_run = std::uint64_t{1} << 32;
// The last jiffy a statement may process: now (the next one) must stay
// countable in 64 bits.
constexpr std::uint64_t last_jiffy = ~std::uint64_t{0} - 1;

std::string place(const std::string &level, unsigned slot) { return level + "[" + num(slot) + "]"; }

[[noreturn]] void fail(const std::string &source, std::uint64_t line, const std::string &reason)
{
	throw input_error(source, line, reason);
}

}  // namespace

wheel_setup resolve_setup(const scenario &s, const step_options &opt)
{
	wheel_setup w;
	w.scheme = opt.scheme;
	w.hz = opt.hz.value_or(s.hz.value_or(250));
	w.word_bits = opt.word_bits.value_or(s.word_bits.value_or(64));
	w.base_small = opt.base_small.value_or(s.base_small.value_or(false));
	w.lifo = opt.lifo.value_or(s.lifo.value_or(false));
	validate(w);
	if (s.start_initial)
		w.start = w.word_bits == 32 ? kernel::initial_jiffies<std::uint32_t>(w.hz)
					    : kernel::initial_jiffies<std::uint64_t>(w.hz);
	else
		w.start = s.start.value_or(0);
	validate(w);
	return w;
}

std::uint64_t statement_expiry(const scenario_op &op, const std::string &source, std::uint64_t now,
			       unsigned word_bits)
{
	const std::uint64_t mask = word_bits == 32 ? 0xffffffffull : ~std::uint64_t{0};
	if (op.relative > 0)
		return (now + op.value) & mask;
	if (op.relative < 0)
		return (now - op.value) & mask;
	if (op.value & ~mask)
		fail(source, op.line, "expiry " + num(op.value) + " does not fit " + num(word_bits) + "-bit jiffies");
	return op.value;
}

std::uint64_t statement_upto(const scenario_op &op, const std::string &source, std::uint64_t now,
			     unsigned word_bits)
{
	const std::uint64_t mask = word_bits == 32 ? 0xffffffffull : ~std::uint64_t{0};
	const std::string what = op.kind == op_kind::tick ? "tick " + num(op.value) : "run-to " + num(op.value);
	if (op.kind == op_kind::tick) {
		if (op.value > max_run)
			fail(source, op.line, what + ": at most 2^32 jiffies in one statement");
		if (now > last_jiffy || op.value - 1 > last_jiffy - now)
			fail(source, op.line, what + ": runs past jiffy " + num(last_jiffy) + ", the last one a 64-bit count reaches");
		return now + op.value - 1;
	}
	if (word_bits == 32 && op.value > mask)
		fail(source, op.line, "jiffy " + num(op.value) + " does not fit 32-bit jiffies");
	std::uint64_t upto = op.value;
	if (word_bits == 32) {
		// A value in the word names the jiffy nearest to now.
		auto d = static_cast<std::int32_t>(static_cast<std::uint32_t>(op.value) - static_cast<std::uint32_t>(now));
		const std::uint64_t back = d < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(static_cast<std::int64_t>(d)) : 0;
		if (back > now)
			fail(source, op.line, what + ": that jiffy was processed already (now is " + num(now & mask) + ")");
		upto = d < 0 ? now - back : now + static_cast<std::uint64_t>(d);
	}
	// Compared without adding to upto: run-to 2^64 - 1 must not wrap.
	if (upto < now) {
		if (now - upto > 1)
			fail(source, op.line, what + ": that jiffy was processed already (now is " + num(now & mask) + ")");
		return upto;	// the jiffy just processed: nothing to do
	}
	if (upto - now >= max_run)
		fail(source, op.line, what + ": at most 2^32 jiffies in one statement");
	if (upto > last_jiffy)
		fail(source, op.line, what + ": runs past jiffy " + num(last_jiffy) + ", the last one a 64-bit count reaches");
	return upto;
}

step_record run_op(const scenario_op &op, const std::string &source, lab_wheel &wheel, bool picture)
{
	step_record r;
	r.line = op.line;
	r.text = op.text.empty() ? render_op(op) : op.text;
	r.at = wheel.now_word();
	const wheel_counters before = wheel.counters();

	try {
		switch (op.kind) {
		case op_kind::add:
		case op_kind::mod:
			wheel.arm(op.timer, statement_expiry(op, source, wheel.now(), wheel.setup().word_bits), op.arm,
				  op.kind == op_kind::add, r.events);
			break;
		case op_kind::del:
			r.not_pending = !wheel.del(op.timer, r.events);
			break;
		case op_kind::tick:
		case op_kind::run_to:
			wheel.run_to(statement_upto(op, source, wheel.now(), wheel.setup().word_bits), r.events);
			break;
		case op_kind::show:
			r.next_interrupt = wheel.next_interrupt();
			break;
		}
	} catch (const lab_error &e) {
		fail(source, op.line, e.what());
	}
	r.work.ticks = wheel.counters().ticks - before.ticks;
	r.work.cascade_calls = wheel.counters().cascade_calls - before.cascade_calls;
	// Empty cascades are listed for a one-jiffy step only: a longer one
	// takes its idle stretches at once and counts their cascade calls.
	if (r.work.ticks > 1)
		std::erase_if(r.events, [](const wheel_event &e) {
			return e.kind == wheel_event_kind::cascaded && !e.count;
		});
	if (picture)
		r.after = wheel.snapshot();
	else
		r.after.scheme = wheel.setup().scheme;	// the wording of its work line
	return r;
}

void run_scenario(const scenario &s, lab_wheel &wheel, const std::function<void(const step_record &)> &each)
{
	for (const scenario_op &op : s.ops)
		each(run_op(op, s.source, wheel));
}

// ---- text ------------------------------------------------------------------------

std::string format_event(const wheel_event &e)
{
	const std::string on = e.base == "base" || e.base == "global" || e.base.empty() ? "" : " on " + e.base;
	switch (e.kind) {
	case wheel_event_kind::placed: {
		std::string s = "+ " + e.timer + " -> " + place(e.level, e.slot) + "  expires " + num(e.expires);
		if (e.requested != e.expires)
			s += " (asked " + num(e.requested) + ")";
		if (e.bucket_expiry != e.expires)
			s += " runs at " + num(e.bucket_expiry);
		if (e.rearm)
			s += " (re-armed)";
		return s + on;
	}
	case wheel_event_kind::unchanged:
		return "= " + e.timer + " stays in " + place(e.level, e.slot) + "  expires " + num(e.expires) + on;
	case wheel_event_kind::deleted:
		return "- " + e.timer + " deleted from " + place(e.level, e.slot) + on;
	case wheel_event_kind::cascaded:
		return "* cascade " + place(e.level, e.slot) + " at " + num(e.jiffy) + ": " + num(e.count) +
		       (e.count == 1 ? " timer" : " timers");
	case wheel_event_kind::moved:
		return "> " + e.timer + " " + place(e.from_level, e.from_slot) + " -> " + place(e.level, e.slot);
	case wheel_event_kind::expired:
		return "! " + e.timer + " fired at " + num(e.jiffy) + " from " + place(e.level, e.slot) + on;
	}
	return "";
}

std::string format_picture(const wheel_snapshot &s)
{
	std::string out;
	bool first = true;
	for (const snapshot_base &b : s.bases) {
		const bool main = b.name == "base" || b.name == "global";
		if (!main && !b.pending())
			continue;
		out += first ? "  now " + num(s.now) + "  " : "  ";
		first = false;
		out += s.scheme == "classic" ? "timer_jiffies " + num(b.clock) : b.name + " clk " + num(b.clock);
		out += "  index";
		for (const snapshot_level &l : b.levels)
			out += " " + l.name + " " + num(l.index);
		out += "\n";
		for (const snapshot_level &l : b.levels)
			for (const snapshot_slot &sl : l.slots) {
				out += "    " + place(l.name, sl.slot) + " ";
				for (const snapshot_timer &t : sl.timers) {
					out += " " + t.name + "@" + num(t.expires);
					if (t.bucket_expiry != t.expires)
						out += ">" + num(t.bucket_expiry);
					if (t.deferrable)
						out += "~";
				}
				out += "\n";
			}
	}
	if (!s.pending())
		out += "    (no timers pending)\n";
	return out;
}

std::string format_header(const std::string &title, const lab_wheel &wheel)
{
	return title + "\nwheel: " + wheel.describe() + "\nstart: now " + num(wheel.now_word()) + "\n";
}

std::string format_step(const step_record &r, bool explain)
{
	std::string out = (r.line ? "\nline " + num(r.line) + ": " : std::string("\n")) + r.text + "\n";
	for (const wheel_event &e : r.events) {
		out += "  " + format_event(e) + "\n";
		if (explain)
			indent_lines(out, e.why, "      ");
	}
	if (r.not_pending)
		out += "  (not pending: del_timer() returns 0)\n";
	if (r.next_interrupt)
		out += "  next timer interrupt: " + num(*r.next_interrupt) + "\n";
	if (r.work.ticks > 1 || r.work.cascade_calls)
		out += "  (" + (r.after.scheme == "v48" ? num(r.work.ticks) + (r.work.ticks == 1 ? " softirq run" : " softirq runs")
							: jiffies_count(r.work.ticks) + " processed") +
		       ", " + num(r.work.cascade_calls) + (r.work.cascade_calls == 1 ? " cascade call)\n" : " cascade calls)\n");
	if (!r.after.bases.empty())
		out += format_picture(r.after);
	return out;
}

namespace {

std::string bytes_text(std::size_t n)
{
	return n && n % (std::size_t{1} << 20) == 0 ? num(n >> 20) + " MiB" : num(n) + " bytes";
}

}  // namespace

std::string format_budget_note(const budgeted_output &out, const char *what)
{
	return "\n(the output passed " + bytes_text(out.budget()) + ": from here on each statement lists what "
	       "changed, not the whole " + what + ")\n";
}

std::string format_budget_end(const budgeted_output &out, const char *what)
{
	if (!out.stopped_at())
		return "";
	return "(no picture of the " + std::string(what) + " from line " + num(out.stopped_at()) + " on: the output had passed " +
	       bytes_text(out.budget()) + "; a shorter scenario pictures every step)\n";
}

void step_totals::add(const step_record &r)
{
	statements++;
	ticks += r.work.ticks;
	cascade_calls += r.work.cascade_calls;
	for (const wheel_event &e : r.events) {
		placed += e.kind == wheel_event_kind::placed;
		moved += e.kind == wheel_event_kind::moved;
		expired += e.kind == wheel_event_kind::expired;
		deleted += e.kind == wheel_event_kind::deleted;
	}
}

std::string format_totals(const step_totals &t, const wheel_snapshot &last)
{
	return "\nend: now " + num(last.now) + ", " + num(last.pending()) + " pending; " + num(t.statements) +
	       " statements: " + num(t.placed) + " placed, " + num(t.moved) + " moved, " + num(t.expired) +
	       " fired, " + num(t.deleted) + " deleted; " + num(t.ticks) +
	       (last.scheme == "classic" ? " jiffies processed, " : " softirq runs, ") + num(t.cascade_calls) +
	       " cascade calls\n";
}

void check_scenario(const scenario &s, const step_options &opt)
{
	if (s.is_hr()) {	// the hrtimer model, not a wheel (sim/lab/hr_step.h)
		run_hr_scenario(s, [](const hr_record &) {}, false);
		return;
	}
	auto wheel = make_lab_wheel(resolve_setup(s, opt));
	for (const scenario_op &op : s.ops)
		run_op(op, s.source, *wheel, false);
}

void write_step_text(const scenario &s, const step_options &opt, const step_output &write)
{
	if (s.is_hr())
		return write_hr_step_text(s, opt.explain, write, opt.picture_budget);
	auto wheel = make_lab_wheel(resolve_setup(s, opt));
	budgeted_output out(write, opt.picture_budget);
	out(format_header("timersim step " + s.source + " --scheme " + opt.scheme, *wheel));
	step_totals totals;
	for (const scenario_op &op : s.ops) {
		const bool picture = out.pictures();
		const step_record r = run_op(op, s.source, *wheel, picture);
		totals.add(r);
		if (!picture && out.stop(r.line))
			out(format_budget_note(out, "wheel"));
		out(format_step(r, opt.explain));
	}
	out(format_totals(totals, wheel->snapshot()));
	out(format_budget_end(out, "wheel"));
}

void write_step_json(const scenario &s, const step_options &opt, const step_output &write)
{
	if (s.is_hr())
		return write_hr_step_json(s, write, opt.picture_budget);
	wheel_setup setup = resolve_setup(s, opt);
	auto wheel = make_lab_wheel(setup);
	// The writer keeps its nesting itself: its text is handed on and
	// dropped after every step.
	std::string out;
	json_writer j(out);
	j.begin_object();
	j.field("source", s.source);
	write_setup(j, setup);
	j.field("wheel", wheel->describe());
	j.key("steps");
	j.begin_array();
	budgeted_output counted(write, opt.picture_budget);
	for (const scenario_op &op : s.ops) {
		const bool picture = counted.pictures();
		const step_record r = run_op(op, s.source, *wheel, picture);
		if (!picture)
			counted.stop(r.line);
		write_step(j, r);
		counted(out);
		out.clear();
	}
	j.end_array();
	write_budget_json(j, counted);
	j.end_object();
	counted(out);
}

std::string step_text(const scenario &s, const step_options &opt)
{
	std::string out;
	write_step_text(s, opt, [&](std::string_view piece) { out += piece; });
	return out;
}

std::string step_json(const scenario &s, const step_options &opt)
{
	std::string out;
	write_step_json(s, opt, [&](std::string_view piece) { out += piece; });
	return out;
}

}  // namespace timersim::lab
