#include "sim/replay/time_table.h"

#include <algorithm>
#include <map>

#include "sim/measured/reference_model.h"
#include "sim/replay/replay_report.h"
#include "sim/replay/stretch_pricing.h"

namespace timersim {

namespace {

time_cell measured_cell(double ns)
{
	time_cell c;
	c.known = true;
	c.ns = c.low = c.high = ns;
	return c;
}

time_cell modelled_cell(double ns, double low, double high)
{
	time_cell c;
	c.known = c.modelled = true;
	c.ns = ns;
	c.low = low;
	c.high = high;
	return c;
}

time_cell times(const time_cell &price, double n)
{
	time_cell c = price;
	c.ns *= n;
	c.low *= n;
	c.high *= n;
	return c;
}

void add(time_cell &sum, const time_cell &c)
{
	if (!c.known)
		return;
	sum.known = true;
	sum.modelled = sum.modelled || c.modelled;
	sum.ns += c.ns;
	sum.low += c.low;
	sum.high += c.high;
}

// One unit of a term at the model's prices: its own term scaled by the
// trace's state, or the reference's where borrowed; the interval the
// model's (its ratios; the fit's bootstrap per term where it has one).
time_cell term_price(const measured::calibrated_model &m, unsigned t)
{
	const measured::reference_fit &ref = measured::builtin_reference();
	if (m.borrowed[t]) {
		const double k = m.borrowed_scale;
		return modelled_cell(ref.model.ns[t] * k, ref.model.low[t] * k * (1 + m.borrowed_low_ratio),
				     ref.model.high[t] * k * (1 + m.borrowed_high_ratio));
	}
	if (!m.model.fitted[t])
		return {};
	const double k = m.scale;
	const double ns = m.model.ns[t] * k;
	return modelled_cell(ns, std::min(ns * (1 + m.low_ratio), m.model.low[t] * k),
			     std::max(ns * (1 + m.high_ratio), m.model.high[t] * k));
}

time_cell price_cell(const measured::priced &p)
{
	return modelled_cell(p.ns, p.low, p.high);
}

// The table's seconds: what each CPU's runs and interrupts measured in
// each, and its starts, cancels and softirq work priced as the callback
// rows are.
void add_seconds(time_table &tt, const replay_report &r, const second_grid &grid)
{
	const measured::cost_report &mr = r.measured;
	const bool priced = r.modelled.given;
	std::map<second_key, second_time_row> rows;
	auto row_of = [&](const second_key &k) -> second_time_row & {
		second_time_row &row = rows[k];
		row.second = k.first;
		row.cpu = k.second;
		return row;
	};
	if (mr.softirqs_recorded || mr.interrupts_recorded)
		for (const auto &[k, c] : mr.seconds) {
			second_time_row &row = row_of(k);
			if (mr.softirqs_recorded) {
				row.timer_softirq = measured_cell(double(c.timer_softirq_ns));
				row.hrtimer_softirq = measured_cell(double(c.hrtimer_softirq_ns));
				row.callbacks = measured_cell(double(c.callbacks_ns));
			}
			if (mr.interrupts_recorded)
				row.interrupts = measured_cell(double(c.interrupts_ns));
		}
	if (priced) {
		const bool ticks_recorded = r.softirq_work.ticks > 0;
		// Each second's softirq work at the state of its stretch.
		const stretch_prices sp(r.modelled.model, grid);
		for (const auto &[k, w] : r.seconds_work) {
			second_time_row &row = row_of(k);
			if (tt.start_price.known)
				add(row.process, times(tt.start_price, double(w.starts + w.cancels)));
			const double runs = double(scheme_softirq_runs(r.scheme, w.softirq, w.processed, ticks_recorded));
			if (runs > 0 || !w.softirq.empty())
				row.softirq = price_cell(sp.price_second(k.first, measured::terms_of(w.softirq, runs)));
		}
		if (tt.start_price.known)
			for (const auto &[k, n] : r.hrtimers.ops_by_second)
				add(row_of(k).process, times(tt.start_price, double(n)));
	}
	for (auto &[k, row] : rows) {
		for (const time_cell *c : {&row.timer_softirq, &row.hrtimer_softirq, &row.callbacks, &row.interrupts})
			add(row.measured, *c);
		add(row.modelled, row.process);
		add(row.modelled, row.softirq);
		if (row.measured.ns == 0 && row.modelled.ns == 0)
			continue;
		const std::uint64_t j = grid.first_jiffy(k.first);
		row.jiffy = r.input.word_bits == 32 ? j & 0xffffffffull : j;
		row.seconds = grid.on() ? grid.clock->seconds(j) : 0.0;
		tt.per_second.push_back(row);
	}
}

}  // namespace

std::uint64_t scheme_softirq_runs(const std::string &scheme, const measured::softirq_work &w,
				  std::uint64_t processed, bool ticks_recorded)
{
	if (scheme != "classic")
		return w.runs;
	return ticks_recorded ? w.ticks : processed;
}

time_table make_time_table(const replay_report &r, const second_grid &grid)
{
	time_table tt;
	const measured::cost_report &mr = r.measured;
	tt.seconds = mr.last_ns > mr.first_ns ? double(mr.last_ns - mr.first_ns) / 1e9
						: r.input.last_seconds - r.input.first_seconds;
	const bool priced = r.modelled.given;
	const measured::calibrated_model &m = r.modelled.model;
	time_cell expiry, run, relink, cold;
	if (priced) {
		expiry = term_price(m, measured::term_expiry);
		run = term_price(m, measured::term_run);
		relink = term_price(m, measured::term_relink);
		cold = term_price(m, measured::term_cold_relink);
		if (expiry.known) {
			tt.start_price = modelled_cell(expiry.ns, expiry.low / 2, expiry.high);
			tt.start_price_from = "one expiry of the " + std::string(measured::model_source_name(m.source)) +
					      " model (the same link/unlink under the base lock; one tracepoint "
					      "where an expiry has two and a call): half of it .. all of it";
		}
	}
	std::map<std::string, time_row> rows;
	for (const function_stats &f : r.functions) {
		time_row &row = rows[f.function];
		row.name = f.function;
		row.starts += f.started;
		row.cancels += f.canceled;
		row.expiries += f.expired;
		if (priced && expiry.known) {
			add(row.process, times(tt.start_price, double(f.started + f.canceled)));
			add(row.softirq, times(expiry, double(f.expired)));
			if (run.known)
				add(row.softirq, times(run, double(f.wakeups)));
			if (f.moved && relink.known)
				add(row.softirq, times(relink, double(f.moved)));
		}
	}
	for (const hrtimer_callback_figures &h : r.hrtimers.callbacks) {
		auto it = rows.find(h.function);
		time_row &row = rows[h.function];
		if (it == rows.end()) {
			row.name = h.function;
			row.hrtimer = true;
		}
		row.starts += h.starts;
		row.cancels += h.cancels;
		if (row.hrtimer)
			row.expiries += h.expiries;
		if (priced && tt.start_price.known)
			add(row.process, times(tt.start_price, double(h.starts + h.cancels)));
	}
	if (mr.callbacks_recorded || mr.interrupts_recorded) {
		for (const auto &[name, c] : mr.callbacks) {
			time_row &row = rows[name];
			if (row.name.empty()) {
				row.name = name;
				row.hrtimer = c.in_hardirq + c.in_hrtimer_softirq > 0;
			}
			row.wakeups = c.wakeups;
			if (mr.callbacks_recorded)
				row.callbacks = measured_cell(double(c.runs.total_ns));
			if (mr.interrupts_recorded)
				row.interrupts = measured_cell(double(c.wakeup_ns));
		}
	}
	// What no callback holds: the softirq work no share priced, and the
	// interrupts that ran no callback.
	if (priced) {
		time_cell shares;
		for (const auto &[name, row] : rows)
			add(shares, row.softirq);
		const measured::prediction &whole = r.modelled.softirq;
		// Expiries the replay forced at a recorded one are a callback's
		// but not the scheme's softirq work: shares never exceed the
		// whole (scaled down to it where they would).
		if (shares.ns > whole.ns) {
			auto ratio = [](double a, double b) { return b > 0 ? a / b : 0.0; };
			const double k = ratio(whole.ns, shares.ns), kl = ratio(whole.low, shares.low),
				     kh = ratio(whole.high, shares.high);
			for (auto &[name, row] : rows) {
				row.softirq.ns *= k;
				row.softirq.low *= std::min(kl, 1.0);
				row.softirq.high *= std::min(kh, 1.0);
				row.softirq.low = std::min(row.softirq.low, row.softirq.ns);
				row.softirq.high = std::max(row.softirq.high, row.softirq.ns);
			}
			shares.ns = whole.ns;
		}
		if (whole.ns > shares.ns) {
			time_row &rest = rows["(softirq work of no callback)"];
			rest.name = "(softirq work of no callback)";
			// Its interval: the whole's, as factors of it (an interval of
			// the model is a factor on what it prices; the whole's low less
			// the shares' lows could fall below, or exceed, the high's).
			const double rest_ns = whole.ns - shares.ns;
			const double f = rest_ns / whole.ns;
			rest.softirq = modelled_cell(rest_ns, whole.low * f, whole.high * f);
		}
	}
	// The HRTIMER softirq's measured overhead, shared out by cpu_time
	// over the callbacks each run ran (after the modelled shares above
	// were fitted to their whole, which it is no part of).
	if (mr.softirqs_recorded) {
		for (const auto &[name, c] : mr.callbacks)
			if (c.in_hrtimer_softirq)
				add(rows[name].softirq, measured_cell(double(c.hrtimer_softirq_ns)));
		if (mr.hrtimer_softirq_no_callback_ns) {
			time_row &none = rows["(HRTIMER softirq runs of no callback)"];
			none.name = "(HRTIMER softirq runs of no callback)";
			none.softirq = measured_cell(double(mr.hrtimer_softirq_no_callback_ns));
		}
	}
	if (mr.interrupts_recorded && mr.wakeups_without_expiry) {
		time_row &none = rows["(interrupts that ran no callback)"];
		none.name = "(interrupts that ran no callback)";
		none.wakeups = mr.wakeups_without_expiry;
		none.interrupts = measured_cell(double(mr.wakeups_without_expiry_ns));
	}
	for (auto &[name, row] : rows) {
		add(row.total, row.process);
		add(row.total, row.softirq);
		add(row.total, row.callbacks);
		add(row.total, row.interrupts);
		if (row.total.known)
			tt.callbacks.push_back(row);
	}
	std::stable_sort(tt.callbacks.begin(), tt.callbacks.end(),
			 [](const time_row &a, const time_row &b) { return a.total.ns > b.total.ns; });
	for (unsigned cpu = 0; cpu < mr.cpus.size(); cpu++) {
		const measured::cpu_cost &c = mr.cpus[cpu];
		cpu_time_row row;
		row.cpu = cpu;
		if (mr.softirqs_recorded) {
			row.timer_softirq = measured_cell(double(c.timer_softirq.overhead_ns()));
			row.hrtimer_softirq = measured_cell(double(c.hrtimer_softirq.overhead_ns()));
			row.callbacks = measured_cell(double(c.timer_softirq.callbacks_ns + c.hrtimer_softirq.callbacks_ns));
		}
		if (mr.interrupts_recorded)
			row.interrupts = measured_cell(double(c.interrupts.timer.total_ns));
		add(row.total, row.timer_softirq);
		add(row.total, row.hrtimer_softirq);
		add(row.total, row.callbacks);
		add(row.total, row.interrupts);
		if (row.total.known)
			tt.cpus.push_back(row);
	}
	tt.per_second_cut = r.seconds_cut || r.measured.seconds_cut || r.hrtimers.ops_by_second_cut;
	if (!tt.per_second_cut)
		add_seconds(tt, r, grid);
	return tt;
}

}  // namespace timersim
