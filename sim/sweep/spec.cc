#include "sim/sweep/spec.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

#include "sim/base/errors.h"
#include "sim/estimate/estimate.h"
#include "sim/gen/generator.h"
#include "sim/gen/workload.h"
#include "sim/measured/model_file.h"
#include "sim/scheme/scheme.h"
#include "sim/trace/line_source.h"
#include "sim/trace/reader.h"

namespace timersim::sweep {

namespace {

std::string trim(const std::string &s) { return gen::trim_blanks(s); }

std::vector<std::string> list(const std::string &v, char sep = ',') { return gen::split_trimmed(v, sep); }

// A sweep's axes multiply: a few long lists would make cells without end
// (and a Slurm array past any site's limit).
constexpr std::size_t max_cells = 100000;

// A SPEC is a few lines a person writes. The bounds keep /dev/zero, a
// FIFO that never ends or a huge file from filling memory, as the trace
// readers' line_source does; a line of 100,000 seeds still fits.
constexpr std::size_t max_spec_line = std::size_t{1} << 20;
constexpr std::size_t max_spec_bytes = std::size_t{16} << 20;
// A value that is not a list (a path, a mixture): a path's own limit.
constexpr std::size_t max_value = 4096;
// What all cells' descriptions (cell::key, cell::input) may take.
constexpr std::size_t max_descriptions = std::size_t{64} << 20;

// a x b, saturated just past max_cells: the product of a SPEC's axes is
// checked before any cell is built, and 64 two-valued param lines would
// wrap even a 64-bit count.
std::size_t times(std::size_t a, std::size_t b)
{
	std::size_t r;
	if (__builtin_mul_overflow(a, b, &r) || r > max_cells)
		return max_cells + 1;
	return r;
}

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

// The user's words in a message, cut short: a line may be 1 MiB.
std::string excerpt(const std::string &s)
{
	return s.size() <= 100 ? s : s.substr(0, 100) + "...";
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

	void read(line_source &in)
	{
		static const std::set<std::string> repeatable = {"trace", "workload", "param"};
		static const std::set<std::string> known = {"out", "trace", "workload", "duration", "scheme",
							    "param", "hz", "what_if_hz", "geometry", "expiries",
							    "kernel", "cpus", "seed", "scale", "calibration",
							    "cost_model"};
		static const std::set<std::string> lists = {"scheme", "hz", "what_if_hz", "geometry", "expiries",
							    "kernel", "cpus", "seed", "scale"};
		std::string_view text;
		while (in.next(text)) {
			std::uint64_t n = in.line_no();
			if (in.overlong() || text.size() > max_spec_line)
				fail(n, "a line longer than " + std::to_string(max_spec_line >> 20) +
						" MiB: not a sweep spec");
			if (in.bytes() > max_spec_bytes)
				fail(n, "the spec goes on past " + std::to_string(max_spec_bytes >> 20) +
						" MiB: not a sweep spec");
			check_characters(n, text);
			std::string s = trim(std::string(text.substr(0, text.find('#'))));
			if (s.empty())
				continue;
			std::size_t eq = s.find('=');
			if (eq == std::string::npos)
				fail(n, "expected KEY = VALUE, got '" + excerpt(s) + "'");
			std::string key = trim(s.substr(0, eq)), value = trim(s.substr(eq + 1));
			if (!known.count(key)) {
				std::string k;
				for (const std::string &x : known)
					k += (k.empty() ? "" : ", ") + x;
				fail(n, "unknown key '" + excerpt(key) + "' (known: " + k + ")");
			}
			if (value.empty())
				fail(n, "'" + key + "' has no value");
			// A trace, a mixture, a parameter's values: each is copied
			// into the description of every cell it is in, so one long
			// value would cost its length once per cell.
			if (!lists.count(key) && value.size() > max_value)
				fail(n, "'" + key + "' is longer than " + std::to_string(max_value) + " bytes");
			if (!repeatable.count(key) && lines_.count(key))
				fail(n, "'" + key + "' given twice (first at line " +
						std::to_string(lines_[key].front().line) + ")");
			lines_[key].push_back({n, value});
		}
	}

	// Values end up in file names, CSV, result lines and the scripts --emit
	// writes, where a control character would end a line (and start a
	// command): none is a value's, only a tab may separate words.
	// And a value goes into the JSON result lines, which hold UTF-8 only.
	void check_characters(std::uint64_t n, std::string_view text) const
	{
		for (std::size_t i = 0; i < text.size(); i++) {
			unsigned char c = static_cast<unsigned char>(text[i]);
			if (c >= 0x20 && c < 0x7f)
				continue;
			char hex[8];
			std::snprintf(hex, sizeof hex, "0x%02x", c);
			if (c < 0x20 || c == 0x7f) {
				if (c != '\t')
					fail(n, std::string("a control character (") + hex + ") at column " +
							std::to_string(i + 1) + ": not a sweep spec line");
				continue;
			}
			std::size_t len = utf8_length(text.substr(i));
			if (!len)
				fail(n, std::string("byte ") + hex + " at column " + std::to_string(i + 1) +
						" is not UTF-8: a sweep spec is UTF-8 text");
			i += len - 1;
		}
	}

	// The length of the UTF-8 sequence `s` starts with; 0 when it is not
	// one (a stray continuation byte, a cut or overlong sequence, a
	// surrogate, past U+10FFFF).
	static std::size_t utf8_length(std::string_view s)
	{
		auto at = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
		unsigned char c = at(0);
		std::size_t len = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3
			: c >= 0xf0 && c <= 0xf4 ? 4 : 0;
		if (!len || len > s.size())
			return 0;
		for (std::size_t k = 1; k < len; k++)
			if ((at(k) & 0xc0) != 0x80)
				return 0;
		if ((c == 0xe0 && at(1) < 0xa0) || (c == 0xed && at(1) > 0x9f) || (c == 0xf0 && at(1) < 0x90) ||
		    (c == 0xf4 && at(1) > 0x8f))
			return 0;
		return len;
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

namespace {

// Whether gen refuses these options; its own words, at `line`.
void check_gen(const parser &p, const gen::gen_options &g, std::uint64_t line, const std::string &what)
{
	try {
		gen::check_options(g);
	} catch (const usage_error &e) {
		p.fail(line, what + e.what());
	}
}

// SPEC from `in`. With `files`, the inputs it names are opened too: a
// trace that is not there, or a calibration that is not one, would fail
// every cell it is in, so it is refused here, at its line.
spec parse(line_source &in, const std::string &path, bool files)
{
	parser p(path);
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
	if (files && !calib.empty()) {
		try {
			load_calibration(s.calibration);
		} catch (const input_error &e) {
			p.fail(line, std::string("calibration: ") + e.what());
		}
	}
	std::string model = p.one("cost_model", "", line);
	s.cost_model = model.empty() ? "" : s.resolve(model);
	if (files && !model.empty()) {
		try {
			measured::load_model(s.cost_model);
		} catch (const input_error &e) {
			p.fail(line, std::string("cost_model: ") + e.what());
		}
	}
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
	std::map<std::string, std::size_t> param_product;	// scheme -> its parameter sets
	std::map<std::string, std::uint64_t> param_line;	// "scheme:key" -> its line
	if (const auto *params = p.get("param"))
		for (const raw_line &r : *params) {
			std::size_t colon = r.value.find(':'), eq = r.value.find('=');
			if (colon == std::string::npos || eq == std::string::npos || eq < colon)
				p.fail(r.line, "param: expected SCHEME:KEY=V1|V2|..., got '" + r.value + "'");
			std::string scheme = trim(r.value.substr(0, colon));
			std::string key = trim(r.value.substr(colon + 1, eq - colon - 1));
			if (std::find(schemes.begin(), schemes.end(), scheme) == schemes.end())
				p.fail(r.line, "param: scheme '" + scheme + "' is not swept (scheme = ...)");
			// A parameter has one value per cell: a second line for it
			// would only multiply the cells by copies of themselves.
			auto [at, fresh] = param_line.emplace(scheme + ":" + key, r.line);
			if (!fresh)
				p.fail(r.line, "param: " + scheme + ":" + key + " given twice (first at line " +
						       std::to_string(at->second) + ")");
			std::vector<std::string> values = list(r.value.substr(eq + 1), '|');
			std::size_t &sets = param_product.emplace(scheme, 1).first->second;
			sets = times(sets, values.size());
			if (sets > max_cells)
				p.fail(r.line, "param: " + scheme + "'s parameters make more than " +
						       std::to_string(max_cells) + " combinations: split the sweep");
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

	const auto *traces = p.get("trace");
	const auto *workloads = p.get("workload");
	if (!traces && !workloads)
		p.fail(0, "no input: give trace = PATH or workload = KIND:K=V,... lines");

	// The number of cells, before any is built: each input's share,
	// counted up in cell order, refused at the input that passes the cap.
	// So is the memory their descriptions take (each holds its input and
	// its parameters, given once but copied into every cell).
	std::size_t per_setting = 0;	// cells of one input at one setting of its own axes
	std::size_t longest_params = 0;	// the longest params text of any cell
	for (const std::string &scheme : schemes) {
		auto it = param_product.find(scheme);
		per_setting += times(times(it == param_product.end() ? 1 : it->second, geometries.size()), own.size());
		per_setting = std::min(per_setting, max_cells + 1);
		std::size_t longest = 0;
		auto ax = axes.find(scheme);
		for (const auto &[key, values] : ax == axes.end() ? param_axes::mapped_type{} : ax->second) {
			std::size_t v = 0;
			for (const std::string &x : values)
				v = std::max(v, x.size());
			longest += key.size() + v + 2;
		}
		longest_params = std::max(longest_params, longest);
	}
	std::size_t trace_cells = times(what_if.size(), per_setting);
	std::size_t workload_cells = times(times(times(times(times(hzs.size(), kernels.size()), cpus.size()),
						       seeds.size()), scales.size()), per_setting);
	std::size_t count = 0, bytes = 0;
	auto count_cells = [&](const std::vector<raw_line> *inputs, std::size_t each) {
		for (std::size_t i = 0; inputs && i < inputs->size(); i++) {
			const raw_line &r = (*inputs)[i];
			count = std::min(count + each, max_cells + 1);
			if (count > max_cells)
				p.fail(r.line, "the sweep has more than " + std::to_string(max_cells) +
						       " cells (the product of its axes): split it");
			// Fixed parts of a description (axis names and numbers)
			// take under 256 bytes; the input is in it and beside it.
			bytes += each * (2 * r.value.size() + longest_params + 256);
			if (bytes > max_descriptions)
				p.fail(r.line, "the sweep's " + std::to_string(count) + " cells so far would take over " +
						       std::to_string(max_descriptions >> 20) +
						       " MiB to describe (its inputs' names or parameters are long): "
						       "split it");
		}
	};
	count_cells(traces, trace_cells);
	count_cells(workloads, workload_cells);
	s.cells.reserve(count);

	std::set<std::string> keys;
	auto add = [&](cell c, std::uint64_t at) {
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

	if (traces)
		for (const raw_line &r : *traces) {
			if (files) {
				try {
					open_trace(s.resolve(r.value), trace_format::auto_detect, {});
				} catch (const input_error &e) {
					p.fail(r.line, std::string("trace: ") + e.what());
				} catch (const usage_error &e) {
					p.fail(r.line, std::string("trace: ") + e.what());
				}
			}
			for (unsigned hz : what_if) {
				cell c;
				c.input = r.value;
				c.hz = hz;
				c.key = "trace=" + r.value + "|what_if_hz=" + (hz ? std::to_string(hz) : "recorded");
				schemes_params_geometry(c, r.line);
			}
		}
	if (workloads)
		for (const raw_line &r : *workloads) {
			gen::gen_options g;
			try {
				g.workloads = gen::parse_mixture(r.value);
			} catch (const usage_error &e) {
				p.fail(r.line, e.what());
			}
			// What gen refuses, every cell asking for it would fail on:
			// the workload at gen's defaults (at its line), each axis
			// value alone (at the axis's line), then each combination.
			check_gen(p, g, r.line, "");
			auto axis = [&](const char *key, std::uint64_t dflt_line, auto values, auto set) {
				const auto *lines = p.get(key);
				for (const auto &v : values) {
					gen::gen_options one = g;
					set(one, v);
					check_gen(p, one, lines ? lines->front().line : dflt_line, std::string(key) + ": ");
				}
			};
			axis("duration", dur_line, std::vector<std::uint64_t>{duration_ns},
			     [](gen::gen_options &o, std::uint64_t v) { o.duration_ns = v; });
			axis("hz", r.line, hzs, [](gen::gen_options &o, unsigned v) { o.hz = v; });
			axis("kernel", r.line, kernels, [](gen::gen_options &o, unsigned v) {
				o.kernel = v == 6 ? gen::kernel_gen::linux6 : gen::kernel_gen::linux3;
			});
			axis("cpus", r.line, cpus, [](gen::gen_options &o, unsigned v) { o.cpus = v; });
			axis("seed", r.line, seeds, [](gen::gen_options &o, unsigned v) { o.seed = v; });
			axis("scale", r.line, scales, [](gen::gen_options &o, double v) { o.scale = v; });
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
							g.hz = hz;
							g.kernel = kernel == 6 ? gen::kernel_gen::linux6
									       : gen::kernel_gen::linux3;
							g.cpus = n;
							g.seed = seed;
							g.scale = scale;
							g.duration_ns = duration_ns;
							try {
								gen::check_options(g);
							} catch (const usage_error &e) {
								p.fail(r.line, "at hz " + std::to_string(hz) + ", kernel " +
										       std::to_string(kernel) + ", cpus " +
										       std::to_string(n) + ", scale " +
										       real_text(scale) + ": " + e.what());
							}
							schemes_params_geometry(c, r.line);
						}
		}
	return s;
}

}  // namespace

spec load_spec(const std::string &path)
{
	std::unique_ptr<line_source> in = line_source::open_file(path, max_spec_line + 1, "sweep spec");
	return parse(*in, path, true);
}

spec parse_spec(const std::string &text, const std::string &path)
{
	std::unique_ptr<line_source> in = line_source::from_memory(text, path, max_spec_line + 1);
	return parse(*in, path, false);
}

const cell &find_cell(const spec &s, const std::string &id_or_index)
{
	for (const cell &c : s.cells)
		if (c.id == id_or_index)
			return c;
	// Digits only: strtoull alone would take " 7", "+7" and "-1" (as 2^64-1).
	bool digits = !id_or_index.empty() && id_or_index.size() < 16 &&
		      id_or_index.find_first_not_of("0123456789") == std::string::npos;
	if (digits) {
		unsigned long long n = std::strtoull(id_or_index.c_str(), nullptr, 10);
		if (n < s.cells.size())
			return s.cells[n];
		throw usage_error(s.path + ": no cell " + id_or_index + " (the sweep has " +
				  std::to_string(s.cells.size()) + ", numbered from 0)");
	}
	throw usage_error(s.path + ": no cell with id " + id_or_index);
}

}  // namespace timersim::sweep
