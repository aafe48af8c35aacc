// The generator's distributions, checked statistically with fixed seeds
// (so a run is deterministic, never flaky): the networking workload cancels
// or re-arms ~99% of its timers before they expire, with the retransmit
// timer firing at the loss rate; log-normal timeouts are log-normal (mean,
// spread and a Kolmogorov-Smirnov test of the log); `gen --like` recovers
// the parameters a trace was generated with, and a workload fitted to a
// trace reproduces its per-callback behaviour.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "sim/gen/fit.h"
#include "sim/gen/generator.h"
#include "tests/support/gen_trace.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"

using namespace timersim;
using namespace timersim::test;

namespace {

const function_stats *fn_stats(const replay_report &r, const std::string &fn)
{
	for (const function_stats &f : r.functions)
		if (f.function == fn)
			return &f;
	return nullptr;
}

// |observed share - p| within `sigmas` binomial standard deviations of n.
void ck_share(const char *what, double observed, double p, double n, double sigmas = 4)
{
	double sd = std::sqrt(p * (1 - p) / n);
	std::fprintf(stderr, "%s: %.5f, expected %.5f +- %.5f (n %.0f)\n", what, observed, p, sigmas * sd, n);
	ck_assert_msg(std::fabs(observed - p) <= sigmas * sd, "%s: %.5f, expected %.5f +- %.5f", what, observed, p,
		      sigmas * sd);
}

// Timeouts (jiffies) of every start of `fn`, read back from a text trace.
std::vector<double> timeouts(const std::string &path, const std::string &fn)
{
	std::vector<double> out;
	auto reader = open_trace(path, trace_format::auto_detect, {});
	for (const owned_event &ev : read_all(*reader))
		if (ev.kind == event_kind::timer_start && ev.function == fn)
			out.push_back(double(ev.timeout));
	return out;
}

double normal_cdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

}  // namespace

START_TEST(networking_cancels_99_percent)
{
	const double loss = 0.01, delack_fire = 0.01;
	gen::gen_options o = gen_opts("networking:rate=200,packets=20,rtt=20ms,rtt_sigma=0.3,loss=0.01,"
				      "delack_fire=0.01",
				      250, 2, 10.0, 1);
	replay_report r = replay_path(gen_file(o, "net.txt"));
	ck_assert_uint_eq(r.fidelity.exact, r.fidelity.compared);

	// The retransmit timer: each send's arming fires when its segment is
	// lost, and each firing re-arms once (the retransmission).
	const function_stats *rto = fn_stats(r, "tcp_write_timer");
	ck_assert_ptr_nonnull(rto);
	ck_share("tcp_write_timer expired/started", double(rto->expired) / double(rto->started),
		 loss / (1 + loss), double(rto->started));

	// Keepalive: armed per connection, never fires in 10 s.
	const function_stats *ka = fn_stats(r, "tcp_keepalive_timer");
	ck_assert_ptr_nonnull(ka);
	ck_assert_uint_eq(ka->expired, 0);
	ck_assert_uint_gt(ka->started, 1800);

	// Delayed ACKs: a `delack_fire` share is left to fire, less those
	// the connection's close deletes first (its last round trips).
	const function_stats *da = fn_stats(r, "tcp_delack_timer");
	ck_assert_ptr_nonnull(da);
	double da_share = double(da->expired) / double(da->started);
	ck_assert_msg(da_share > 0.7 * delack_fire && da_share < 1.1 * delack_fire, "delack fired %.4f", da_share);

	// All together: ~99% of the armings that ended were canceled or
	// re-armed before they expired.
	double ended = double(r.timers.started - r.timers.pending_at_end);
	double canceled = 1.0 - double(r.timers.expired) / ended;
	std::fprintf(stderr, "networking: %.4f of %.0f armings canceled or re-armed before expiry\n", canceled, ended);
	ck_assert_msg(canceled > 0.985 && canceled < 0.995, "canceled share %.4f", canceled);
	ck_assert_uint_gt(r.timers.rearmed, r.timers.started / 3);
}
END_TEST

START_TEST(lognormal_timeouts_are_lognormal)
{
	const double median_ms = 200, sigma = 0.8;
	gen::gen_options o = gen_opts("lognormal:rate=2000,median=200ms,sigma=0.8,cancel=0.3", 1000, 1, 10.0, 3);
	o.slack = false;	// slack would stretch timeouts over 256 jiffies by up to 0.4%
	std::string path = gen_file(o, "ln.txt");

	// The log of each timeout, taken at the middle of the durations that
	// round up to it, is normal(log median, sigma).
	std::vector<double> x;
	for (double t : timeouts(path, "process_timeout"))
		x.push_back(std::log(t - 0.5));
	double n = double(x.size());
	ck_assert_uint_gt(x.size(), 18000);
	double mean = 0, m2 = 0;
	for (double v : x)
		mean += v / n;
	for (double v : x)
		m2 += (v - mean) * (v - mean);
	double sd = std::sqrt(m2 / (n - 1));
	std::fprintf(stderr, "lognormal: median %.2f ms (%.0f), sigma %.4f (%.1f), n %.0f\n", std::exp(mean),
		     median_ms, sd, sigma, n);
	// Standard errors: sigma/sqrt(n) = 0.006 for the mean, sigma/sqrt(2n) for sd.
	ck_assert_msg(std::fabs(mean - std::log(median_ms)) < 4 * sigma / std::sqrt(n), "mean of log %.4f", mean);
	ck_assert_msg(std::fabs(sd - sigma) < 4 * sigma / std::sqrt(2 * n), "sd of log %.4f", sd);

	// Kolmogorov-Smirnov against the normal with the given parameters;
	// 1.63/sqrt(n) is the 1% critical value.
	std::sort(x.begin(), x.end());
	double d = 0;
	for (std::size_t i = 0; i < x.size(); i++) {
		double f = normal_cdf((x[i] - std::log(median_ms)) / sigma);
		d = std::max({d, std::fabs(f - double(i) / n), std::fabs(f - double(i + 1) / n)});
	}
	std::fprintf(stderr, "lognormal: KS D %.5f, 1%% critical %.5f\n", d, 1.63 / std::sqrt(n));
	ck_assert_msg(d < 1.63 / std::sqrt(n), "KS D %.5f", d);

	// gen --like recovers the parameters from the trace.
	gen::trace_fit fit = gen::fit_trace(path, trace_format::auto_detect, {}, 0);
	ck_assert_uint_eq(fit.hz, 1000);
	ck_assert_uint_eq(fit.callbacks.size(), 1);
	const gen::fitted_callback &f = fit.callbacks[0];
	ck_assert_str_eq(f.function.c_str(), "process_timeout");
	std::fprintf(stderr, "fit: rate %.1f, median %.2f ms, sigma %.4f, expire %llu rearm %llu cancel %llu\n",
		     f.rate, f.timeout_median_ms, f.timeout_sigma, (unsigned long long)f.expired,
		     (unsigned long long)f.rearmed, (unsigned long long)f.canceled);
	ck_assert_msg(std::fabs(f.timeout_median_ms / median_ms - 1) < 0.02, "fitted median %.2f", f.timeout_median_ms);
	ck_assert_msg(std::fabs(f.timeout_sigma - sigma) < 0.02, "fitted sigma %.4f", f.timeout_sigma);
	ck_assert_msg(std::fabs(f.rate / 2000 - 1) < 0.03, "fitted rate %.1f", f.rate);
	ck_assert_uint_eq(f.rearmed, 0);
	// A cancel drawn after the expiry's tick loses the race: a little
	// under 30% are canceled.
	double ended = double(f.expired + f.canceled);
	ck_share("lognormal canceled", double(f.canceled) / ended, 0.3, ended, 6);
	ck_assert_uint_eq(f.chains, f.armings);
}
END_TEST

START_TEST(exponential_mean)
{
	gen::gen_options o = gen_opts("exponential:rate=2000,mean=80ms,cancel=0", 1000, 2, 5.0, 9);
	o.slack = false;
	std::vector<double> t = timeouts(gen_file(o, "exp.txt"), "process_timeout");
	double mean = 0;
	for (double v : t)
		mean += (v - 0.5) / double(t.size());
	// Standard error of the mean: 80 ms / sqrt(n).
	std::fprintf(stderr, "exponential: mean %.2f ms of %zu\n", mean, t.size());
	ck_assert_msg(std::fabs(mean - 80) < 4 * 80 / std::sqrt(double(t.size())), "mean %.2f", mean);
}
END_TEST

// A workload fitted to a trace, generated again, behaves like the trace
// per callback: the same starts per second and the same share of
// expiries, re-arms and cancels.
START_TEST(like_reproduces_the_trace)
{
	gen::gen_options o = gen_opts("networking:rate=150;periodic:timers=20,period=250ms;"
				      "guards:timers=500,min=2s,max=4s,refresh=0.5,life=20s",
				      250, 2, 10.0, 21);
	std::string path = gen_file(o, "orig.txt");
	replay_report a = replay_path(path);

	gen::trace_fit fit = gen::fit_trace(path, trace_format::auto_detect, {}, 0);
	ck_assert_uint_eq(fit.hz, 250);
	ck_assert_uint_eq(fit.cpus, 2);
	gen::gen_options like = o;
	like.workloads.clear();
	for (const gen::workload &w : fit.workloads)
		like.workloads.push_back(gen::parse_workload(w.text()));	// the text round-trips
	like.seed = 99;
	replay_report b = replay_path(gen_file(like, "like.txt"));
	ck_assert_uint_eq(b.fidelity.exact, b.fidelity.compared);

	for (const char *fn : {"tcp_write_timer", "tcp_delack_timer", "tcp_keepalive_timer", "delayed_work_timer_fn",
			       "death_by_timeout"}) {
		const function_stats *x = fn_stats(a, fn), *y = fn_stats(b, fn);
		ck_assert_msg(x && y, "%s missing", fn);
		double sx = double(x->started), sy = double(y->started);
		std::fprintf(stderr, "%-22s started %6.0f -> %6.0f  expired %5llu -> %5llu  canceled %5llu -> %5llu\n", fn,
			     sx, sy, (unsigned long long)x->expired, (unsigned long long)y->expired,
			     (unsigned long long)x->canceled, (unsigned long long)y->canceled);
		ck_assert_msg(std::fabs(sy / sx - 1) < 0.15, "%s: %0.f starts, fitted %0.f", fn, sx, sy);
		double ex = double(x->expired) / sx, ey = double(y->expired) / sy;
		ck_assert_msg(std::fabs(ey - ex) < 0.02 + 0.15 * ex, "%s: expired share %.4f, fitted %.4f", fn, ex, ey);
	}
}
END_TEST

int main()
{
	Suite *s = suite_create("gen_stats");
	TCase *tc = tcase_create("gen_stats");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, networking_cancels_99_percent);
	tcase_add_test(tc, lognormal_timeouts_are_lognormal);
	tcase_add_test(tc, exponential_mean);
	tcase_add_test(tc, like_reproduces_the_trace);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
