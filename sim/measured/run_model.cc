#include "sim/measured/run_model.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace timersim::measured {

namespace {

// splitmix64: the bootstrap's draws, the same on every machine.
std::uint64_t next_random(std::uint64_t &state)
{
	std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

// Least squares over the terms in `set` (a bit mask), by Gaussian
// elimination with partial pivoting. False when the system is singular (a
// term the samples never vary, or two that vary together).
bool solve_subset(const normal_equations &n, unsigned set, term_vector &c)
{
	unsigned idx[model_terms], k = 0;
	for (unsigned t = 0; t < model_terms; t++)
		if (set & (1u << t))
			idx[k++] = t;
	double a[model_terms][model_terms + 1] = {};
	double scale = 0;	// for the singularity test: the largest diagonal entry
	for (unsigned i = 0; i < k; i++) {
		for (unsigned j = 0; j < k; j++)
			a[i][j] = n.g[idx[i]][idx[j]];
		a[i][k] = n.b[idx[i]];
		scale = std::max(scale, a[i][i]);
	}
	for (unsigned col = 0; col < k; col++) {
		unsigned piv = col;
		for (unsigned r = col + 1; r < k; r++)
			if (std::fabs(a[r][col]) > std::fabs(a[piv][col]))
				piv = r;
		if (std::fabs(a[piv][col]) <= scale * 1e-12)
			return false;
		for (unsigned j = 0; j <= k; j++)
			std::swap(a[col][j], a[piv][j]);
		for (unsigned r = 0; r < k; r++) {
			if (r == col)
				continue;
			double f = a[r][col] / a[col][col];
			for (unsigned j = col; j <= k; j++)
				a[r][j] -= f * a[col][j];
		}
	}
	c = {};
	for (unsigned i = 0; i < k; i++)
		c[idx[i]] = a[i][k] / a[i][i];
	return true;
}

// |A c - y|^2 = y'y - 2 c'b + c'Gc
double residual(const normal_equations &n, const term_vector &c)
{
	double r = n.yy;
	for (unsigned i = 0; i < model_terms; i++) {
		r -= 2 * c[i] * n.b[i];
		for (unsigned j = 0; j < model_terms; j++)
			r += c[i] * n.g[i][j] * c[j];
	}
	return r;
}

double dot(const term_vector &c, const term_vector &x)
{
	double v = 0;
	for (unsigned t = 0; t < model_terms; t++)
		v += c[t] * x[t];
	return v;
}

// Nearest rank of sorted values (p in percent).
double rank(std::vector<double> &v, double p)
{
	if (v.empty())
		return 0;
	std::sort(v.begin(), v.end());
	std::size_t r = std::size_t(std::ceil(double(v.size()) * p / 100.0));
	return v[r ? r - 1 : 0];
}

}  // namespace

normal_equations normal_of(const std::vector<run_sample> &s)
{
	normal_equations n;
	for (const run_sample &r : s)
		n.add(r);
	n.mirror();
	return n;
}

void normal_equations::add(const run_sample &r)
{
	for (unsigned i = 0; i < model_terms; i++) {
		for (unsigned j = i; j < model_terms; j++)
			g[i][j] += r.x[i] * r.x[j];
		b[i] += r.x[i] * r.overhead_ns;
	}
	yy += r.overhead_ns * r.overhead_ns;
}

void normal_equations::mirror()
{
	for (unsigned i = 0; i < model_terms; i++)
		for (unsigned j = 0; j < i; j++)
			g[i][j] = g[j][i];
}

void normal_equations::add(const run_sample &r, double k)
{
	for (unsigned i = 0; i < model_terms; i++) {
		for (unsigned j = 0; j < model_terms; j++)
			g[i][j] += k * k * r.x[i] * r.x[j];
		b[i] += k * r.x[i] * r.overhead_ns;
	}
	yy += r.overhead_ns * r.overhead_ns;
}

void normal_equations::add(const normal_equations &o, double k)
{
	for (unsigned i = 0; i < model_terms; i++) {
		for (unsigned j = 0; j < model_terms; j++)
			g[i][j] += k * k * o.g[i][j];
		b[i] += k * o.b[i];
	}
	yy += o.yy;
}

const char *model_term_name(unsigned term)
{
	static const char *const names[model_terms] = {"run", "expiry", "visit", "relink",
						       "cold_relink"};
	return term < model_terms ? names[term] : "?";
}

term_vector terms_of(const softirq_work &w, double runs)
{
	term_vector x{};
	x[term_run] = runs;
	x[term_expiry] = double(w.expiries);
	x[term_visit] = double(w.slot_visits + w.key_comparisons);
	x[term_relink] = double(w.relinks);
	x[term_cold_relink] = double(w.cold_relinks);
	return x;
}

std::vector<run_sample> samples_of(const std::vector<softirq_run> &runs,
				   const std::vector<softirq_work> &work)
{
	std::vector<run_sample> s;
	for (std::size_t i = 0; i < runs.size() && i < work.size(); i++)
		s.push_back({terms_of(work[i], 1.0), double(runs[i].overhead_ns())});
	return s;
}

// Every subset of the usable terms is solved; the best one whose
// coefficients are all non-negative is the constrained optimum (the
// optimum of a convex problem lies on one such face).
term_vector nnls(const std::vector<run_sample> &samples, const std::array<bool, model_terms> &use)
{
	return nnls(normal_of(samples), use);
}

term_vector nnls(const normal_equations &n, const std::array<bool, model_terms> &use)
{
	unsigned usable = 0;
	for (unsigned t = 0; t < model_terms; t++)
		if (use[t])
			usable |= 1u << t;
	term_vector best{};
	double best_res = residual(n, best);
	for (unsigned set = 1; set < (1u << model_terms); set++) {
		if ((set & usable) != set)
			continue;
		term_vector c;
		if (!solve_subset(n, set, c))
			continue;
		bool ok = true;
		for (unsigned t = 0; t < model_terms; t++)
			ok = ok && c[t] >= 0;
		if (!ok)
			continue;
		double res = residual(n, c);
		if (res < best_res) {
			best_res = res;
			best = c;
		}
	}
	return best;
}

cost_model fit(const std::vector<run_sample> &samples, unsigned resamples, std::uint64_t seed)
{
	cost_model m;
	m.runs = samples.size();
	m.seed = seed;
	for (const run_sample &r : samples)
		for (unsigned t = 0; t < model_terms; t++)
			m.fitted[t] = m.fitted[t] || r.x[t] != 0;
	m.ns = nnls(samples, m.fitted);
	// Each resample's normal equations are summed straight from its draws,
	// in the order drawn: what nnls() of the drawn samples would sum. A
	// draw lands anywhere in samples too big for the cache, so each is
	// fetched `ahead` draws before it is added.
	constexpr std::size_t ahead = 16;
	const std::size_t size = samples.size();
	std::uint64_t state = seed;
	for (unsigned b = 0; b < resamples && size; b++) {
		std::size_t due[ahead];
		for (std::size_t i = 0; i < ahead && i < size; i++) {
			due[i] = next_random(state) % size;
			__builtin_prefetch(&samples[due[i]]);
		}
		normal_equations n;
		for (std::size_t i = 0; i < size; i++) {
			const run_sample &r = samples[due[i % ahead]];
			if (i + ahead < size) {
				due[i % ahead] = next_random(state) % size;
				__builtin_prefetch(&samples[due[i % ahead]]);
			}
			n.add(r);
		}
		n.mirror();
		m.draws.push_back(nnls(n, m.fitted));
	}
	for (unsigned t = 0; t < model_terms; t++) {
		std::vector<double> v;
		for (const term_vector &d : m.draws)
			v.push_back(d[t]);
		m.low[t] = v.empty() ? m.ns[t] : rank(v, 2.5);
		m.high[t] = v.empty() ? m.ns[t] : rank(v, 97.5);
	}
	return m;
}

prediction predict(const cost_model &m, const term_vector &x)
{
	prediction p;
	p.ns = dot(m.ns, x);
	std::vector<double> v;
	for (const term_vector &d : m.draws)
		v.push_back(dot(d, x));
	p.low = v.empty() ? p.ns : rank(v, 2.5);
	p.high = v.empty() ? p.ns : rank(v, 97.5);
	for (unsigned t = 0; t < model_terms; t++)
		if (x[t] != 0 && !m.fitted[t])
			p.unfitted.push_back(model_term_name(t));
	return p;
}

model_check check(const cost_model &m, const std::vector<run_sample> &samples)
{
	model_check c;
	c.runs = samples.size();
	std::vector<double> err;
	term_vector total{};
	for (const run_sample &r : samples) {
		double pred = dot(m.ns, r.x);
		err.push_back(std::fabs(pred - r.overhead_ns));
		c.measured_ns += r.overhead_ns;
		for (unsigned t = 0; t < model_terms; t++)
			total[t] += r.x[t];
	}
	c.median_abs_error_ns = rank(err, 50);
	c.p90_abs_error_ns = rank(err, 90);
	prediction p = predict(m, total);
	c.predicted_ns = p.ns;
	c.predicted_low_ns = p.low;
	c.predicted_high_ns = p.high;
	return c;
}

}  // namespace timersim::measured
