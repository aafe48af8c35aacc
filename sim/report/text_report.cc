// The human report: what was read, what the scheme did, where the cascade
// work went, and how closely the simulation followed the recorded kernel.
#include <cstdio>

#include <fmt/format.h>

#include "sim/report/report_writers.h"
#include "sim/report/text_table.h"

namespace timersim {

namespace {

// Packets with lost events the text report names (the JSON report has all).
constexpr std::size_t max_lost_rows = 8;

std::string params_line(const replay_report &r)
{
	std::string s = r.scheme;
	const char *sep = ": ";
	for (const scheme_param &p : r.scheme_params) {
		s += sep + p.key + "=" + p.value;
		sep = " ";
	}
	return s;
}

std::string buckets_line(const std::vector<moves_bucket> &buckets)
{
	std::string s;
	for (const moves_bucket &b : buckets) {
		if (!b.ticks)
			continue;
		if (!s.empty())
			s += "   ";
		s += b.low == b.high ? num(b.low) : num(b.low) + "-" + num(b.high);
		s += ": " + num(b.ticks);
	}
	return s.empty() ? "-" : s;
}

// Jiffies are also given in the trace's own seconds, where it has them.
std::string seconds_range(const input_summary &in)
{
	if (in.first_seconds == 0 && in.last_seconds == 0)
		return "";
	return fmt::format(" ({:.3f} s .. {:.3f} s)", in.first_seconds, in.last_seconds);
}

std::string at_second(const input_summary &in, double seconds)
{
	if (in.first_seconds == 0 && in.last_seconds == 0)
		return "";
	return fmt::format(" ({:.3f} s)", seconds);
}

// --hz does not rescale a recording's jiffies: it says how long a jiffy is.
// "Linux 6.18..7.0 (hrtimer_start was_armed=: 6.18+; ...); its rules: rt_zero_slack".
std::string generation_line(const kernel_generation &g)
{
	const std::string undecided = g.undecided();
	return "Linux " + g.range() + " (" + g.evidence + "); " +
	       (g.overridden ? "rules set by --kernel-rules: " : "its rules: ") + g.rules() +
	       (undecided.empty() ? "" : "; within the range, not followed (--kernel-rules decides): " + undecided);
}

std::string hz_origin(const input_summary &in)
{
	if (in.hz_inferred)
		return " (inferred)";
	if (in.hz_trace && in.hz_trace != in.hz)
		return fmt::format(" (given; the trace's is {}: its jiffies are kept, only seconds change)",
				   in.hz_trace);
	return " (given or default)";
}

// Which tick model ran and why; for recorded ticks, how the tick was found
// and placed on jiffies, and how many runs the trace itself settled.
void tick_rows(text_table &t, const tick_summary &ticks)
{
	t.row({"ticks", ticks.model + " (" + ticks.reason + ")"});
	if (ticks.model != "recorded")
		return;
	t.row({"", "the tick: " + ticks.tick.describe()});
	t.row({"", ticks.grid.describe()});
	t.row({"", num(ticks.runs.ticks) + " softirq runs, " + num(ticks.runs.settled) +
			   " at the jiffies their expiries printed, " +
			   num(ticks.runs.owner_ticks) + " on the CPU updating jiffies"});
}

}  // namespace

std::string text_input_rows(const replay_report &r)
{
	const input_summary &in = r.input;
	text_table t("  ", text_table::words);
	// A binary trace has no lines: its records are events, replayed or skipped.
	if (in.unit == "lines")
		t.row({"input", in.format + ", " + num(in.bytes) + " bytes, " + num(in.lines) +
					" lines: " + num(in.events) + " events, " + num(in.skipped) +
					" skipped (" + num(in.malformed) + " malformed)"});
	else
		t.row({"input", in.format + ", " + num(in.bytes) + " bytes, " + num(in.lines) +
					" " + in.unit + " recorded: " + num(in.events) + " replayed, " +
					num(in.skipped) + " skipped (" + num(in.malformed) + " malformed)"});
	if (!in.clock.empty())
		t.row({"clock", in.clock});
	if (const symbol_fit &f = in.symbols; f.looked_up)
		t.row({"symbols", f.file + ": " + num(f.looked_up) + " callback look-ups, " +
					  num(f.at_start) + " at a symbol's start" +
					  (f.at_start == f.looked_up
						   ? ""
						   : ", " + num(f.inside) + " inside one (sym+0xoff), " +
							     num(f.unfit) + " in none (hex): " +
							     f.example_text + "; another kernel's map?")});
	if (in.truncated_at)
		t.row({"lost", "the rest of the input: the gzip stream is cut short at byte offset " +
				       num(in.truncated_at) + " (--lenient replayed up to the cut)"});
	if (!in.lost_cpus.empty()) {
		// The tracer's own notes of an overrun ring buffer.
		std::string where;
		for (const lost_on_cpu &l : in.lost_cpus)
			where += (where.empty() ? "" : ", ") + ("CPU " + num(l.cpu)) + ": " +
				 num(l.events) + " in " + num(l.notes) +
				 (l.notes == 1 ? " note" : " notes");
		t.row({"lost", num(in.lost_events) + " events the tracer lost (its notes say so; "
				   "misses after them may be theirs): " + where});
	} else if (in.lost_events) {
		// The tracer's own losses: the replay cannot see those events.
		std::string where;
		for (std::size_t i = 0; i < in.lost_packets.size() && i < max_lost_rows; i++) {
			const lost_packet &p = in.lost_packets[i];
			where += (i ? ", " : "") + p.stream + " packet " + num(p.packet) + " (offset " +
				 num(p.offset) + "): " + num(p.events);
		}
		if (in.lost_packets.size() > max_lost_rows)
			where += ", and " + num(in.lost_packets.size() - max_lost_rows) + " more packets";
		t.row({"lost", num(in.lost_events) + " events the tracer discarded: " + where});
	}
	t.row({"machine", num(in.cpus) + (in.cpus == 1 ? " CPU" : " CPUs") + ", HZ " + num(in.hz) +
				  hz_origin(in) + ", " +
				  num(in.word_bits) + "-bit jiffies" +
				  (in.word_bits_inferred ? " (inferred)" : "") + ", jiffies " +
				  num(in.first_jiffies) + " .. " + num(in.last_jiffies) +
				  seconds_range(in)});
	t.row({"kernel", in.kernel + ": its wheel is the `" + in.kernel_scheme + "` scheme" +
				 (in.kernel_scheme == r.scheme ? "" : "; this replay models another")});
	t.row({"", "generation " + generation_line(in.generation)});
	t.row({"scheme", params_line(r) +
				 (r.scheme_choice.empty() ? "" : " (" + r.scheme_choice + ")")});
	tick_rows(t, r.ticks);
	return t.render();
}

namespace {

void input_section(std::string &out, const replay_report &r)
{
	out += "timersim replay of " + r.input.path + "\n";
	out += text_input_rows(r);
}

void activity_section(std::string &out, const replay_report &r)
{
	const event_counts &e = r.events;
	const timer_counts &tc = r.timers;
	out += "\n";
	text_table t("", text_table::words);
	std::vector<std::string> row = {
		"events", "init " + num(e.timer_init), "start " + num(e.timer_start),
		"cancel " + num(e.timer_cancel), "expire " + num(e.timer_expire_entry),
		"exit " + num(e.timer_expire_exit), "base_idle " + num(e.timer_base_idle),
		"hrtimer " + num(e.hrtimer), "softirq " + num(e.softirq), "irq " + num(e.irq)};
	// The NOHZ idle events, where the trace has them.
	if (e.tick_stop || e.cpu_idle || e.tmigr)
		for (std::string s : {"tick_stop " + num(e.tick_stop), "cpu_idle " + num(e.cpu_idle),
				      "tmigr " + num(e.tmigr)})
			row.push_back(std::move(s));
	row.push_back("other " + num(e.other));
	t.row(row);
	out += t.render();
	text_table u("", text_table::words);
	u.row({"timers", "distinct " + num(tc.distinct), "started " + num(tc.started),
	       "re-armed " + num(tc.rearmed), "canceled " + num(tc.canceled),
	       "expired " + num(tc.expired), "pending at end " + num(tc.pending_at_end)});
	out += u.render();
	out += "ticks   processed " + num(r.ticks_processed) + (r.drained ? " (drained)" : "");
	if (r.drain_stopped_at)
		out += " (drain stopped at jiffy " + num(r.drain_stopped_at) + ": " +
		       num(r.timers.pending_at_end) + " timers lie further out)";
	out += "\n";
}

void level_section(std::string &out, const replay_report &r)
{
	out += "\nenqueues and cascades by level\n";
	text_table t;
	t.row({"level", "enqueued", "cascades", "moved out"});
	for (const level_enqueue &e : r.enqueue) {
		std::string calls = "-", moved = "-";
		for (const level_cascade &c : r.cascade.levels)
			if (c.level == e.level) {
				calls = num(c.calls);
				moved = num(c.moved);
			}
		t.row({e.level, num(e.count), calls, moved});
	}
	out += t.render();

	const cascade_summary &c = r.cascade;
	out += "cascade moves  " + num(c.moved_total) + " in all; " + num(c.moved_then_canceled) +
	       " wasted (moved, then canceled); " + num(c.moved_then_rearmed) +
	       " moved, then re-armed\n";
	if (c.max_moved_in_one_tick)
		out += "  worst tick     " + num(c.max_moved_in_one_tick) + " moves at jiffy " +
		       num(c.max_moved_jiffy) + at_second(r.input, c.max_moved_seconds) +
		       " on CPU " + num(c.max_moved_cpu) + "\n";
	out += "  moves per tick " + buckets_line(c.moves_per_tick) + "\n";
}

// The callbacks ranked by the scheme's work credited to them (replay_sink::
// worked): on a v48 trace, where nothing cascades, the hot spots still show.
void function_section(std::string &out, const replay_report &r, unsigned top)
{
	if (r.functions.empty() || !top)
		return;
	// The shares: of the scheme's softirq work (modelled, in its cost
	// units), and of the TIMER softirq time the trace measured.
	const std::uint64_t softirq_units = r.work.softirq.total();
	const bool timer_time = r.measured.softirqs_recorded && r.measured.all.timer_softirq.runs.total_ns;
	out += "\ntop callbacks by work (cost units: process context + softirq)\n";
	text_table t;
	t.row({"function", "work", "process", "softirq", "softirq %", "expired", "wakeups", "moved",
	       "started", "canceled", "measured us", "measured %"});
	unsigned n = 0;
	bool measured = false;
	for (const function_stats &f : r.functions) {
		if (n++ == top)
			break;
		measured = measured || f.measured_ns;
		std::string share = "-";
		if (f.measured_ns && timer_time)
			share = fmt::format("{:.2f}%", 100.0 * *f.measured_ns /
							double(r.measured.all.timer_softirq.runs.total_ns));
		t.row({f.function, num(f.work()), num(f.process_units), num(f.softirq_units),
		       percent(f.softirq_units, softirq_units), num(f.expired), num(f.wakeups), num(f.moved),
		       num(f.started), num(f.canceled),
		       f.measured_ns ? fmt::format("{:.1f}", *f.measured_ns / 1e3) : "-", share});
	}
	out += t.render();
	if (r.functions.size() > top)
		out += "  (" + num(r.functions.size() - top) + " more callbacks in the JSON report)\n";
	out += "  process: its starts and cancels; softirq: its expiries and moves, and the work\n"
	       "  before them in the run; wakeups: softirq runs whose first expiry it was (they\n"
	       "  carry the run's work after its last expiry too). softirq %: its share of the\n"
	       "  scheme's softirq work (modelled); measured us: its runs' own time in the trace,\n"
	       "  measured %: that, of the TIMER softirq time the trace measured.";
	out += measured ? "\n" : " '-': not recorded.\n";
	if (r.work.softirq_unattributed)
		out += "  softirq work of no callback (runs that fired nothing, idle stretches): " +
		       num(r.work.softirq_unattributed) + " units\n";
}

void fidelity_section(std::string &out, const replay_report &r)
{
	const fidelity_summary &f = r.fidelity;
	out += "\nfidelity against " + num(f.compared) + " recorded expiries\n";
	out += "  exact " + num(f.exact) + " (" + percent(f.exact, f.compared) + ")   early " +
	       num(f.early) + "   late " + num(f.late) + "   unmatched " + num(f.unmatched) +
	       "   simulated only " + num(f.simulated_only) + "\n";

	std::string causes;
	for (const auto &[why, n] : f.misses)
		if (n)
			causes += (causes.empty() ? "" : ", ") + why + " " + num(n);
	if (!causes.empty())
		out += "  misses by cause: " + causes + "\n";

	// docs/fidelity.md: the figure, where the trace prints baseclk; the
	// lines above compare jiffies.
	const fidelity_summary::by_bucket_summary &b = f.by_bucket;
	if (b.judged) {
		out += "  by the bucket the kernel ran (baseclk; the lines above compare jiffies): exact " +
		       num(b.exact) + " of " + num(b.judged_on_model()) + " (" +
		       percent(b.exact, b.judged_on_model()) + ")   early " + num(b.early) + "   late " +
		       num(b.late) + "   unmatched " + num(b.unmatched) + "   the trace's " +
		       num(b.trace_caused) + "\n";
		std::string bc;
		for (const auto &[why, n] : b.misses)
			if (n)
				bc += (bc.empty() ? "" : ", ") + why + " " + num(n);
		if (!bc.empty())
			out += "    misses by cause: " + bc + "\n";
	}

	const lateness_summary &l = r.lateness;
	// Not the `late` verdict above (against the recorded expiry): how far
	// each simulated expiry fell behind the one its timer requested.
	out += "delay of simulated expiries, jiffies after the requested expiry (JSON: lateness)\n";
	out += "  on time " + num(l.on_time) + " of " + num(l.expiries) + ", before it " +
	       num(l.early) + ", max " + num(l.max) + ", mean " +
	       fmt::format("{:.2f}", l.expiries ? static_cast<double>(l.total) / l.expiries : 0.0) + "\n";
	if (l.max)
		out += "  distribution   " + buckets_line(l.buckets) + "\n";
}

// The callbacks the simulation followed least well.
void function_fidelity_section(std::string &out, const replay_report &r, unsigned top)
{
	if (r.fidelity_by_function.empty() || !top)
		return;
	out += "\nfidelity by callback (most missed first)\n";
	text_table t;
	t.row({"function", "compared", "exact", "early", "late", "unmatched", "sim. only"});
	unsigned n = 0;
	for (const function_fidelity &f : r.fidelity_by_function) {
		if (n++ == top)
			break;
		t.row({f.function, num(f.compared()), num(f.exact), num(f.early), num(f.late),
		       num(f.unmatched), num(f.simulated_only)});
	}
	out += t.render();
	if (r.fidelity_by_function.size() > top)
		out += "  (" + num(r.fidelity_by_function.size() - top) +
		       " more callbacks in the JSON report)\n";
}

void cost_section(std::string &out, const replay_report &r, bool timing)
{
	const cost_counters &c = r.costs;
	out += "\ncosts   insertions " + num(c.insertions) + "   removals " + num(c.removals) +
	       "   relinks " + num(c.relinks) + "   slot visits " + num(c.slot_visits) +
	       "   key comparisons " + num(c.key_comparisons) + "   peak memory " +
	       num(r.peak_scheme_bytes) + " bytes\n";
	auto split = [](const cost_counters &k) {
		return num(k.total()) + " units (insertions " + num(k.insertions) + ", removals " +
		       num(k.removals) + ", relinks " + num(k.relinks) + ", slot visits " +
		       num(k.slot_visits) + ", comparisons " + num(k.key_comparisons) + ")";
	};
	out += "work    process context " + split(r.work.process) + "\n";
	out += "        softirq " + split(r.work.softirq) + "\n";
	out += "        in " + num(r.work.runs) + " simulated softirq runs, " +
	       num(r.work.runs_expiring) + " of them firing a timer\n";
	if (timing)
		out += fmt::format("time    {:.3f} s, {:.1f} ns per event\n", r.wall_seconds,
				   r.input.events ? r.wall_seconds * 1e9 / r.input.events : 0.0);
}

}  // namespace

std::string text_report(const replay_report &r, const text_report_options &opt)
{
	std::string out;
	input_section(out, r);
	activity_section(out, r);
	level_section(out, r);
	function_section(out, r, opt.top_functions);
	fidelity_section(out, r);
	function_fidelity_section(out, r, opt.top_functions);
	cost_section(out, r, opt.timing);
	out += text_measured_section(r.measured, opt.top_functions);
	out += text_modelled_section(r);
	out += text_time_section(r, opt.top_functions);
	out += text_hrtimer_section(r.hrtimers, opt.top_functions);
	return out;
}

}  // namespace timersim
