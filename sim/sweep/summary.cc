// `timersim merge SPEC --summary`: replicates (cells that differ only in
// their seed) reduced to mean, standard deviation, n and a 95% interval.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "sim/output/csv.h"
#include "sim/sweep/run.h"
#include "sim/trace/reader.h"

namespace timersim::sweep {

double student_t95(unsigned df)
{
	// t(0.975, df), df = 1..30 (scipy.stats.t.ppf, 12 decimals).
	static const double table[30] = {
		12.706204736432, 4.302652729911, 3.182446305284, 2.776445105198, 2.570581836615,
		2.446911848792, 2.364624251010, 2.306004135033, 2.262157162741, 2.228138851965,
		2.200985160083, 2.178812829663, 2.160368656461, 2.144786687917, 2.131449545559,
		2.119905299221, 2.109815577833, 2.100922040241, 2.093024054408, 2.085963447266,
		2.079613844728, 2.073873067904, 2.068657610419, 2.063898561628, 2.059538552753,
		2.055529438643, 2.051830516480, 2.048407141795, 2.045229642133, 2.042272456301,
	};
	if (df >= 1 && df <= 30)
		return table[df - 1];
	// Cornish-Fisher expansion of t about the normal quantile z (Abramowitz
	// and Stegun 26.7.5): within 3e-8 of the exact value past 30.
	const double z = 1.959963984540054, n = df;
	double z2 = z * z, z3 = z2 * z, z5 = z3 * z2, z7 = z5 * z2, z9 = z7 * z2;
	double g1 = (z3 + z) / 4, g2 = (5 * z5 + 16 * z3 + 3 * z) / 96,
	       g3 = (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / 384,
	       g4 = (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / 92160;
	return z + g1 / n + g2 / (n * n) + g3 / (n * n * n) + g4 / (n * n * n * n);
}

namespace {

std::string number(double x)
{
	char buf[40];
	std::snprintf(buf, sizeof buf, "%.10g", x);
	return buf;
}

std::string text(const nlohmann::json &v)
{
	return v.is_null() ? "" : v.is_string() ? v.get<std::string>() : v.dump();
}

// One measured column over a group's replicates.
struct column_stats {
	bool known = false;	// a number in every replicate
	double mean = 0, sd = 0;
	double half = 0;	// the 95% interval's half-width of the mean (0 for one replicate)
};

column_stats stats_of(const std::vector<const nlohmann::json *> &g, const std::string &m)
{
	column_stats st;
	std::vector<double> xs;
	for (const nlohmann::json *r : g)
		if ((*r)[m].is_number())
			xs.push_back((*r)[m].get<double>());
	// A column that is not a number in every replicate (no calibration,
	// a word) has no statistics.
	if (xs.empty() || xs.size() != g.size())
		return st;
	st.known = true;
	double n = double(xs.size()), sum = 0;
	for (double x : xs)
		sum += x;
	st.mean = sum / n;
	if (xs.size() < 2)
		return st;
	double ss = 0;
	for (double x : xs)
		ss += (x - st.mean) * (x - st.mean);
	st.sd = std::sqrt(ss / (n - 1));
	st.half = student_t95(static_cast<unsigned>(xs.size() - 1)) * st.sd / std::sqrt(n);
	return st;
}

}  // namespace

namespace {

// Refuses the statistics of column M when one of them is past a double's
// range, naming the replicate of the largest magnitude.
void check_finite(std::initializer_list<double> stats, const std::string &m,
		  const std::vector<const nlohmann::json *> &group, const std::string &cells_dir)
{
	for (double x : stats)
		if (!std::isfinite(x)) {
			const nlohmann::json *big = group.front();
			for (const nlohmann::json *r : group)
				if (std::fabs((*r)[m].get<double>()) > std::fabs((*big)[m].get<double>()))
					big = r;
			throw input_error(cells_dir + "/" + text((*big)["id"]) + ".json", 1,
					  "\"" + m + "\" is " + (*big)[m].dump() +
						  ": the mean, sd or interval of its replicates passes a double's range");
		}
}

}  // namespace

std::string summary_csv(const std::vector<nlohmann::json> &rows, const std::string &cells_dir)
{
	const std::vector<std::string> &cols = result_columns();
	std::vector<std::string> what, measured;	// group columns, measured columns
	bool past = false;
	for (const std::string &c : cols) {
		past = past || c == "events";
		if (past)
			measured.push_back(c);
		else if (c != "id" && c != "index" && c != "seed")
			what.push_back(c);
	}

	// Groups in the order of their first cell.
	std::vector<std::string> order;
	std::map<std::string, std::vector<const nlohmann::json *>> groups;
	for (const nlohmann::json &r : rows) {
		std::string key;
		for (const std::string &c : what)
			append_csv_field(key += ',', text(r[c]));
		auto [it, fresh] = groups.try_emplace(key);
		if (fresh)
			order.push_back(key);
		it->second.push_back(&r);
	}

	// A column M with M_lo and M_hi beside it (the estimate's interval:
	// the cost model's, or the calibration's range) also gets M_combined_lo
	// and M_combined_hi.
	std::vector<std::string> ranged;
	for (const std::string &m : measured)
		if (std::find(measured.begin(), measured.end(), m + "_lo") != measured.end() &&
		    std::find(measured.begin(), measured.end(), m + "_hi") != measured.end())
			ranged.push_back(m);

	std::string out;
	for (const std::string &c : what)
		out += c + ",";
	out += "n,seeds";
	for (const std::string &m : measured)
		out += "," + m + "_mean," + m + "_sd," + m + "_ci_lo," + m + "_ci_hi";
	for (const std::string &m : ranged)
		out += "," + m + "_combined_lo," + m + "_combined_hi";
	out += "\n";
	for (const std::string &key : order) {
		const auto &g = groups[key];
		out += key.substr(1) + "," + std::to_string(g.size()) + ",";
		std::string seeds;
		for (const nlohmann::json *r : g)
			seeds += (seeds.empty() ? "" : " ") + text((*r)["seed"]);
		append_csv_field(out, seeds);
		for (const std::string &m : measured) {
			column_stats st = stats_of(g, m);
			if (!st.known) {
				out += ",,,,";
				continue;
			}
			check_finite({st.mean}, m, g, cells_dir);
			out += "," + number(st.mean);
			if (g.size() < 2) {
				out += ",,,";
				continue;
			}
			check_finite({st.sd, st.mean - st.half, st.mean + st.half}, m, g, cells_dir);
			out += "," + number(st.sd) + "," + number(st.mean - st.half) + "," + number(st.mean + st.half);
		}
		// The model's interval and the seeds' spread, combined: the same
		// model prices every seed, so its error does not average out over
		// them; the mean of the cells' low ends less the seeds' 95%
		// half-width, the mean of their high ends plus it (one seed: the
		// model's interval alone).
		for (const std::string &m : ranged) {
			column_stats mid = stats_of(g, m), lo = stats_of(g, m + "_lo"), hi = stats_of(g, m + "_hi");
			if (!mid.known || !lo.known || !hi.known) {
				out += ",,";
				continue;
			}
			check_finite({lo.mean - mid.half, hi.mean + mid.half}, m, g, cells_dir);
			out += "," + number(lo.mean - mid.half) + "," + number(hi.mean + mid.half);
		}
		out += "\n";
	}
	return out;
}

}  // namespace timersim::sweep
