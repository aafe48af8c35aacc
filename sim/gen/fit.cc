#include "sim/gen/fit.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <unordered_map>

#include "sim/base/errors.h"
#include "sim/whatif/whatif.h"

namespace timersim::gen {

namespace {

// Mean and standard deviation of log(x), accumulated (Welford).
struct log_fit {
	std::uint64_t n = 0;
	double mean = 0, m2 = 0;
	void add(double x)
	{
		double l = std::log(x);
		n++;
		double d = l - mean;
		mean += d / double(n);
		m2 += d * (l - mean);
	}
	double median() const { return std::exp(mean); }
	double sigma() const { return n > 1 ? std::sqrt(m2 / double(n - 1)) : 0.0; }
};

// Chains are counted as already running when the trace began (`initial`)
// if they start within the first timeout of their callback, at most this
// far into the trace.
constexpr std::uint64_t initial_window_ns = 1'000'000'000;

struct callback_acc {
	fitted_callback out;
	log_fit timeout_ms, life_ms;
	std::vector<std::uint64_t> early_chains;	// start offsets within initial_window_ns
};

struct timer_state {
	std::uint32_t fn = 0;
	std::uint64_t start_ts = 0;
	bool pending = false;
};

struct cpu_state {
	bool cancel_open = false;	// a timer_cancel waiting for its meaning
	std::uint64_t cancel_timer = 0;
	std::uint64_t cancel_ts = 0;
	bool in_callback = false;	// between expire_entry and expire_exit
	std::uint64_t callback_timer = 0;
	bool callback_rearmed = false;
};

class fitter {
public:
	fitter(unsigned hz) : hz_(hz) {}

	void add(const trace_event &ev)
	{
		if (!is_timer_event(ev.kind))
			return;
		if (ev.carries(EF_TIMESTAMP)) {
			if (!timed_)
				first_ts_ = ev.ts_ns;
			timed_ = true;
			last_ts_ = std::max(last_ts_, ev.ts_ns);
		}
		if (cpus_.size() <= ev.cpu)
			cpus_.resize(ev.cpu + 1);
		cpu_state &c = cpus_[ev.cpu];
		resolve_cancel(c, ev);

		switch (ev.kind) {
		case event_kind::timer_cancel:
			if (timers_[ev.timer].pending) {
				c.cancel_open = true;
				c.cancel_timer = ev.timer;
				c.cancel_ts = ev.ts_ns;
			}
			break;
		case event_kind::timer_start:
			on_start(c, ev);
			break;
		case event_kind::timer_expire_entry:
			on_expire(c, ev);
			break;
		case event_kind::timer_expire_exit:
			end_callback(c);
			break;
		default:
			break;
		}
	}

	trace_fit finish(std::uint64_t min_armings)
	{
		for (cpu_state &c : cpus_) {
			if (c.cancel_open)
				end_arming(c.cancel_timer, 'C', c.cancel_ts);
			end_callback(c);
		}
		trace_fit fit;
		fit.hz = hz_;
		fit.cpus = static_cast<unsigned>(cpus_.size());
		fit.duration_ns = last_ts_ - first_ts_;
		double seconds = std::max(1e-9, double(fit.duration_ns) / 1e9);
		for (callback_acc &a : accs_) {
			if (a.out.armings < min_armings)
				continue;
			fitted_callback f = a.out;
			f.timeout_median_ms = a.timeout_ms.n ? a.timeout_ms.median() : 1000.0 / hz_;
			// Chains arrive at the rate seen after the first timeout;
			// those that began within it beyond that rate were (most
			// likely) running before the trace.
			double window_ns = std::min(double(initial_window_ns), f.timeout_median_ms * 1e6);
			std::uint64_t early = 0;
			for (std::uint64_t at : a.early_chains)
				early += double(at) < window_ns;
			double later_s = std::max(1e-9, seconds - window_ns / 1e9);
			f.rate = double(f.chains - early) / later_s;
			f.initial = static_cast<std::uint64_t>(std::max(0.0, std::round(double(early) - f.rate * window_ns / 1e9)));
			f.initial_window_ms = window_ns / 1e6;
			f.timeout_sigma = a.timeout_ms.sigma();
			f.life_median_ms = a.life_ms.n ? a.life_ms.median() : f.timeout_median_ms / 2;
			f.life_sigma = a.life_ms.sigma();
			fit.callbacks.push_back(f);
		}
		std::sort(fit.callbacks.begin(), fit.callbacks.end(),
			  [](const fitted_callback &a, const fitted_callback &b) {
				  return a.armings != b.armings ? a.armings > b.armings : a.function < b.function;
			  });
		for (const fitted_callback &f : fit.callbacks)
			fit.workloads.push_back(as_workload(f));
		return fit;
	}

private:
	std::uint32_t fn_id(std::string_view name)
	{
		auto [it, fresh] = fn_ids_.try_emplace(std::string(name), static_cast<std::uint32_t>(accs_.size()));
		if (fresh) {
			accs_.emplace_back();
			accs_.back().out.function = std::string(name);
		}
		return it->second;
	}

	// A pending timer_cancel on this CPU meets the next timer event there.
	void resolve_cancel(cpu_state &c, const trace_event &ev)
	{
		if (!c.cancel_open)
			return;
		bool same = ev.timer == c.cancel_timer;
		if (same && (ev.kind == event_kind::timer_expire_entry || ev.kind == event_kind::timer_start)) {
			c.cancel_open = false;	// part of the expiry or the re-arm: handled there
			return;
		}
		c.cancel_open = false;
		end_arming(c.cancel_timer, 'C', c.cancel_ts);
	}

	void on_start(cpu_state &c, const trace_event &ev)
	{
		timer_state &t = timers_[ev.timer];
		std::int64_t timeout = 0;
		bool known = false;
		if (ev.carries(EF_TIMEOUT)) {
			timeout = ev.timeout;
			known = true;
			jiffies_ = ev.expires - static_cast<std::uint64_t>(ev.timeout);
			have_jiffies_ = true;
		} else if (have_jiffies_) {
			timeout = static_cast<std::int64_t>(ev.expires - jiffies_);
			known = true;
		}
		const bool was_pending = t.pending;
		const bool self = c.in_callback && c.callback_timer == ev.timer && !was_pending;
		if (was_pending)
			end_arming(ev.timer, 'R', ev.ts_ns);
		std::uint32_t fn = fn_id(ev.function);
		callback_acc &a = accs_[fn];
		a.out.armings++;
		if (self) {
			if (!c.callback_rearmed)
				a.out.self_rearmed++;
			c.callback_rearmed = true;
		} else if (!was_pending) {
			a.out.chains++;
			if (ev.ts_ns - first_ts_ < initial_window_ns)
				a.early_chains.push_back(ev.ts_ns - first_ts_);
		}
		if (known && timeout > 0)
			a.timeout_ms.add((double(timeout) - 0.5) * 1000.0 / hz_);
		t.fn = fn;
		t.start_ts = ev.ts_ns;
		t.pending = true;
	}

	void on_expire(cpu_state &c, const trace_event &ev)
	{
		jiffies_ = ev.now;
		have_jiffies_ = true;
		end_callback(c);
		timer_state &t = timers_[ev.timer];
		bool known = t.pending;
		if (known)
			end_arming(ev.timer, 'E', ev.ts_ns);
		c.in_callback = known;
		c.callback_timer = ev.timer;
		c.callback_rearmed = false;
	}

	void end_callback(cpu_state &c) { c.in_callback = false; }

	void end_arming(std::uint64_t timer, char how, std::uint64_t ts)
	{
		timer_state &t = timers_[timer];
		if (!t.pending)
			return;
		t.pending = false;
		callback_acc &a = accs_[t.fn];
		if (how == 'E') {
			a.out.expired++;
			return;
		}
		(how == 'R' ? a.out.rearmed : a.out.canceled)++;
		double life_ms = double(ts > t.start_ts ? ts - t.start_ts : 0) / 1e6;
		a.life_ms.add(std::max(life_ms, 0.001));
	}

	// A recorded name as a fn= value (sim/gen/workload.h: a symbol's
	// characters, bounded), so that the fitted workload is one `gen -w`
	// takes back and its trace one the replay reads.
	static std::string clean(const std::string &fn)
	{
		std::string s = fn.empty() ? "unknown" : fn.substr(0, max_function_name);
		for (char &ch : s)
			if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_' && ch != '.' && ch != '$')
				ch = '_';
		return s;
	}

	static std::string g(double v, const char *unit = "")
	{
		char buf[48];
		std::snprintf(buf, sizeof buf, "%.6g%s", v, unit);
		return buf;
	}

	workload as_workload(const fitted_callback &f) const
	{
		double ended = double(f.expired + f.rearmed + f.canceled);
		auto share = [&](std::uint64_t n) { return g(ended > 0 ? double(n) / ended : 0.0); };
		workload w;
		w.kind = "fitted";
		w.given = {
			{"fn", clean(f.function)},
			{"rate", g(f.rate)},
			{"initial", std::to_string(f.initial)},
			{"median", g(f.timeout_median_ms, "ms")},
			{"sigma", g(f.timeout_sigma)},
			{"expire", ended > 0 ? share(f.expired) : "1"},
			{"rearm", share(f.rearmed)},
			{"cancel", share(f.canceled)},
			{"life", g(f.life_median_ms, "ms")},
			{"life_sigma", g(f.life_sigma)},
			{"self", g(f.expired ? std::min(1.0, double(f.self_rearmed) / double(f.expired)) : 0.0)},
		};
		return w;
	}

	unsigned hz_;
	bool timed_ = false, have_jiffies_ = false;
	std::uint64_t first_ts_ = 0, last_ts_ = 0, jiffies_ = 0;
	std::vector<cpu_state> cpus_;
	std::unordered_map<std::uint64_t, timer_state> timers_;
	std::unordered_map<std::string, std::uint32_t> fn_ids_;
	std::vector<callback_acc> accs_;
};

}  // namespace

trace_fit fit_trace(const std::string &path, trace_format fmt, const reader_options &ropt, unsigned hz,
		    std::uint64_t min_armings)
{
	recorded_clock clock = probe_recorded_clock(path, fmt, ropt, hz, 0);
	std::unique_ptr<trace_reader> reader = open_trace(path, fmt, ropt);
	fitter f(clock.hz);
	trace_event ev;
	while (reader->next(ev))
		f.add(ev);
	trace_fit fit = f.finish(min_armings);
	fit.cpus = std::max(fit.cpus, reader->declared_cpus());
	if (fit.workloads.empty())
		throw input_error(path, 0, "no callback with " + std::to_string(min_armings) +
					   " or more timer starts to fit a workload to");
	return fit;
}

}  // namespace timersim::gen
