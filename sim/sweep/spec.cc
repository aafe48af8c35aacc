#include "sim/sweep/spec.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "sim/core/errors.h"
#include "sim/gen/workload.h"
#include "sim/scheme/scheme.h"
#include "sim/trace/reader.h"

namespace timersim::sweep {

namespace {

std::string trim(const std::string &s) { return gen::trim_blanks(s); }

std::vector<std::string> list(const std::string &v, char sep = ',') { return gen::split_trimmed(v, sep); }

// A sweep's axes multiply: a few long lists would make cells without end
// (and a Slurm array past any site's limit).
constexpr std::size_t max_cells = 100000;

// FNV-1a, 64 bits: a stable id from the cell's description.
std::string hash_id(const std::string &s)
{
	std::uint64_t h = 0xcbf29ce484222325ull;
	for (unsigned char c : s) {
		h ^= c;
		h *= 0x100000001b3ull;
	}
	char buf[17];
	std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
	return buf;
}

struct raw_line {
	std::uint64_t line;
	std::string value;
};

class parser {
public:
	explicit parser(const std::string &path) : path_(path) {}

	[[noreturn]] void fail(std::uint64_t line, const std::string &why) const
	{
		throw input_error(path_, line, why);
	}

	void read(std::istream &in)
	{
		static const std::set<std::string> repeatable = {"trace", "workload", "param"};
		static const std::set<std::string> known = {"out", "trace", "workload", "duration", "scheme",
							    "param", "hz", "what_if_hz", "geometry", "expiries",
							    "kernel", "cpus", "seed", "scale", "calibration"};
		std::string text;
		for (std::uint64_t n = 1; std::getline(in, text); n++) {
			std::string s = trim(text.substr(0, text.find('#')));
			if (s.empty())
				continue;
			std::size_t eq = s.find('=');
			if (eq == std::string::npos)
				fail(n, "expected KEY = VALUE, got '" + s + "'");
			std::string key = trim(s.substr(0, eq)), value = trim(s.substr(eq + 1));
			if (!known.count(key)) {
				std::string k;
				for (const std::string &x : known)
					k += (k.empty() ? "" : ", ") + x;
				fail(n, "unknown key '" + key + "' (known: " + k + ")");
			}
			if (value.empty())
				fail(n, "'" + key + "' has no value");
			if (!repeatable.count(key) && lines_.count(key))
				fail(n, "'" + key + "' given twice (first at line " +
						std::to_string(lines_[key].front().line) + ")");
			lines_[key].push_back({n, value});
		}
	}

	const std::vector<raw_line> *get(const std::string &key) const
	{
		auto it = lines_.find(key);
		return it == lines_.end() ? nullptr : &it->second;
	}
	std::string one(const std::string &key, const std::string &dflt, std::uint64_t &line) const
	{
		const auto *v = get(key);
		line = v ? v->front().line : 0;
		return v ? v->front().value : dflt;
	}

	std::vector<unsigned> numbers(const std::string &key, const std::string &dflt, unsigned lo, unsigned hi,
				      bool allow_recorded = false) const
	{
		std::uint64_t line;
		std::vector<unsigned> out;
		for (const std::string &v : list(one(key, dflt, line))) {
			if (allow_recorded && v == "recorded") {
				out.push_back(0);
				continue;
			}
			char *end = nullptr;
			errno = 0;
			unsigned long n = std::strtoul(v.c_str(), &end, 10);
			if (v.empty() || *end || errno || n < lo || n > hi || v[0] == '-')
				fail(line, key + ": '" + v + "' is not " +
						   (allow_recorded ? "'recorded' or " : "") + "a whole number in [" +
						   std::to_string(lo) + ", " + std::to_string(hi) + "]");
			out.push_back(static_cast<unsigned>(n));
		}
		return out;
	}

	std::vector<double> reals(const std::string &key, const std::string &dflt) const
	{
		std::uint64_t line;
		std::vector<double> out;
		for (const std::string &v : list(one(key, dflt, line))) {
			char *end = nullptr;
			double x = std::strtod(v.c_str(), &end);
			if (v.empty() || *end || !(x > 0) || !std::isfinite(x))
				fail(line, key + ": '" + v + "' is not a positive number");
			out.push_back(x);
		}
		return out;
	}

private:
	std::string path_;
	std::map<std::string, std::vector<raw_line>> lines_;
};

// A duration as in `gen --duration`: 10s, 500ms, 2m; a bare number is s.
std::uint64_t duration(const parser &p, const std::string &v, std::uint64_t line)
{
	std::uint64_t ns = 0;
	if (!gen::parse_duration(v, 1e9, ns) || !ns)
		p.fail(line, "duration: '" + v + "' is not a duration above 0 (10s, 500ms, 2m)");
	return ns;
}

// Values of each parameter of one scheme: SCHEME:KEY=V1|V2.
using param_axes = std::map<std::string, std::vector<std::pair<std::string, std::vector<std::string>>>>;

std::vector<std::vector<std::pair<std::string, std::string>>> param_sets(const param_axes &axes,
									 const std::string &scheme)
{
	std::vector<std::vector<std::pair<std::string, std::string>>> sets = {{}};
	auto it = axes.find(scheme);
	if (it == axes.end())
		return sets;
	for (const auto &[key, values] : it->second) {
		std::vector<std::vector<std::pair<std::string, std::string>>> next;
		for (const auto &set : sets)
			for (const std::string &v : values) {
				auto s = set;
				s.emplace_back(key, v);
				next.push_back(s);
			}
		sets = next;
	}
	return sets;
}

std::string params_text(const std::vector<std::pair<std::string, std::string>> &ps)
{
	std::string s;
	for (const auto &[k, v] : ps)
		s += (s.empty() ? "" : ",") + k + "=" + v;
	return s;
}

std::string real_text(double x)
{
	char buf[32];
	std::snprintf(buf, sizeof buf, "%g", x);
	return buf;
}

}  // namespace

std::string spec::resolve(const std::string &p) const
{
	if (p.empty() || p[0] == '/' || dir == ".")
		return p;
	return dir + "/" + p;
}

spec load_spec(const std::string &path)
{
	std::ifstream in(path);
	if (!in)
		throw input_error(path, 0, "cannot read the sweep spec");
	std::ostringstream text;
	text << in.rdbuf();
	return parse_spec(text.str(), path);
}

spec parse_spec(const std::string &text, const std::string &path)
{
	parser p(path);
	std::istringstream in(text);
	p.read(in);
	spec s;
	s.path = path;
	std::filesystem::path fs_path(path);
	s.dir = fs_path.has_parent_path() ? fs_path.parent_path().string() : ".";

	std::uint64_t line = 0;
	std::string base = fs_path.filename().string();
	std::string stem = base.substr(0, base.rfind('.') == 0 || base.rfind('.') == std::string::npos
						  ? base.size()
						  : base.rfind('.'));
	s.out = s.resolve(p.one("out", stem + ".d", line));
	std::string calib = p.one("calibration", "", line);
	s.calibration = calib.empty() ? "" : s.resolve(calib);
	std::uint64_t dur_line = 0;
	std::string dur_text = p.one("duration", "10s", dur_line);
	std::uint64_t duration_ns = duration(p, dur_text, dur_line);

	std::vector<std::string> schemes = list(p.one("scheme", "classic, v48", line));
	for (const std::string &name : schemes) {
		bool ok = name == "auto";
		for (const std::string &n : scheme_names())
			ok = ok || n == name;
		if (!ok)
			p.fail(line, "unknown scheme '" + name + "'");
	}

	param_axes axes;
	if (const auto *params = p.get("param"))
		for (const raw_line &r : *params) {
			std::size_t colon = r.value.find(':'), eq = r.value.find('=');
			if (colon == std::string::npos || eq == std::string::npos || eq < colon)
				p.fail(r.line, "param: expected SCHEME:KEY=V1|V2|..., got '" + r.value + "'");
			std::string scheme = trim(r.value.substr(0, colon));
			std::string key = trim(r.value.substr(colon + 1, eq - colon - 1));
			if (std::find(schemes.begin(), schemes.end(), scheme) == schemes.end())
				p.fail(r.line, "param: scheme '" + scheme + "' is not swept (scheme = ...)");
			std::vector<std::string> values = list(r.value.substr(eq + 1), '|');
			for (const std::string &v : values) {
				scheme_options so;
				so.params = {{key, v}};
				try {
					make_scheme(scheme, so);
				} catch (const usage_error &e) {
					p.fail(r.line, e.what());
				}
			}
			axes[scheme].emplace_back(key, values);
		}

	std::vector<unsigned> hzs = p.numbers("hz", "250", 10, 10000);
	std::vector<unsigned> what_if = p.numbers("what_if_hz", "recorded", 10, 10000, true);
	std::vector<unsigned> kernels = p.numbers("kernel", "3", 3, 6);
	for (unsigned k : kernels)
		if (k != 3 && k != 6)
			p.fail(p.get("kernel")->front().line, "kernel: " + std::to_string(k) + " is not 3 or 6");
	std::vector<unsigned> cpus = p.numbers("cpus", "1", 1, 4096);
	std::vector<unsigned> seeds = p.numbers("seed", "1", 0, 4000000000u);
	std::vector<double> scales = p.reals("scale", "1");
	std::vector<bool> geometries;
	for (const std::string &g : list(p.one("geometry", "normal", line))) {
		if (g != "normal" && g != "base_small")
			p.fail(line, "geometry: '" + g + "' is not normal or base_small");
		geometries.push_back(g == "base_small");
	}

	std::vector<bool> own;
	for (const std::string &e : list(p.one("expiries", "recorded", line))) {
		if (e != "recorded" && e != "own")
			p.fail(line, "expiries: '" + e + "' is not recorded or own");
		own.push_back(e == "own");
	}

	std::set<std::string> keys;
	auto add = [&](cell c, std::uint64_t at) {
		if (s.cells.size() == max_cells)
			p.fail(at, "the sweep has more than " + std::to_string(max_cells) +
					   " cells (the product of its axes): split it");
		c.key = "v1|" + c.key;
		if (!keys.insert(c.key).second)
			p.fail(at, "this cell is in the sweep twice: " + c.key);
		c.index = s.cells.size();
		c.id = hash_id(c.key);
		s.cells.push_back(std::move(c));
	};
	auto schemes_params_geometry = [&](cell base, std::uint64_t at) {
		for (const std::string &scheme : schemes)
			for (const auto &params : param_sets(axes, scheme))
				for (bool small : geometries)
					for (bool mine : own) {
						cell c = base;
						c.scheme = scheme;
						c.params = params;
						c.base_small = small;
						c.own_expiries = mine;
						c.key += "|scheme=" + scheme + "|params=" + params_text(params) +
							 "|geometry=" + (small ? "base_small" : "normal");
						if (mine)	// absent when recorded: older ids stay valid
							c.key += "|expiries=own";
						add(c, at);
					}
	};

	const auto *traces = p.get("trace");
	const auto *workloads = p.get("workload");
	if (!traces && !workloads)
		p.fail(0, "no input: give trace = PATH or workload = KIND:K=V,... lines");
	if (traces)
		for (const raw_line &r : *traces)
			for (unsigned hz : what_if) {
				cell c;
				c.input = r.value;
				c.hz = hz;
				c.key = "trace=" + r.value + "|what_if_hz=" + (hz ? std::to_string(hz) : "recorded");
				schemes_params_geometry(c, r.line);
			}
	if (workloads)
		for (const raw_line &r : *workloads) {
			try {
				gen::parse_mixture(r.value);
			} catch (const usage_error &e) {
				p.fail(r.line, e.what());
			}
			for (unsigned hz : hzs)
				for (unsigned kernel : kernels)
				for (unsigned n : cpus)
					for (unsigned seed : seeds)
						for (double scale : scales) {
							cell c;
							c.generated = true;
							c.input = r.value;
							c.hz = hz;
							c.cpus = n;
							c.seed = seed;
							c.scale = scale;
							c.duration_ns = duration_ns;
							c.kernel = kernel;
							c.key = "workload=" + r.value + "|duration_ns=" +
								std::to_string(duration_ns) + "|hz=" + std::to_string(hz) +
								(kernel == 6 ? "|kernel=6" : "") +
								"|cpus=" + std::to_string(n) + "|seed=" + std::to_string(seed) +
								"|scale=" + real_text(scale);
							schemes_params_geometry(c, r.line);
						}
		}
	return s;
}

const cell &find_cell(const spec &s, const std::string &id_or_index)
{
	for (const cell &c : s.cells)
		if (c.id == id_or_index)
			return c;
	char *end = nullptr;
	errno = 0;
	unsigned long long n = std::strtoull(id_or_index.c_str(), &end, 10);
	if (!id_or_index.empty() && !*end && !errno && id_or_index.size() < 16) {
		if (n < s.cells.size())
			return s.cells[n];
		throw usage_error(s.path + ": no cell " + id_or_index + " (the sweep has " +
				  std::to_string(s.cells.size()) + ", numbered from 0)");
	}
	throw usage_error(s.path + ": no cell with id " + id_or_index);
}

}  // namespace timersim::sweep
