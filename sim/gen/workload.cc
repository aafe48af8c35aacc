#include "sim/gen/workload.h"

#include <cerrno>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "sim/base/errors.h"
#include "sim/gen/kinds.h"

namespace timersim::gen {

namespace {

// A finite real number filling the whole of s.
bool parse_real(const std::string &s, double &out)
{
	if (s.empty())
		return false;
	char *end = nullptr;
	errno = 0;
	out = std::strtod(s.c_str(), &end);
	return !*end && !errno && std::isfinite(out);
}

// A value as an error message quotes it: control characters as \xNN (a
// newline would forge a line of the message), cut at 80 characters.
std::string printable(const std::string &v)
{
	std::string out;
	for (unsigned char ch : v.substr(0, 80)) {
		if (ch >= 0x20 && ch < 0x7f) {
			out += static_cast<char>(ch);
		} else {
			char hex[8];
			std::snprintf(hex, sizeof hex, "\\x%02x", ch);
			out += hex;
		}
	}
	return v.size() > 80 ? out + "..." : out;
}

}  // namespace

std::string trim_blanks(const std::string &s)
{
	std::size_t b = s.find_first_not_of(" \t\r");
	if (b == std::string::npos)
		return "";
	return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

std::vector<std::string> split_trimmed(const std::string &s, char sep)
{
	std::vector<std::string> out;
	std::size_t start = 0;
	for (std::size_t i = 0; i <= s.size(); i++)
		if (i == s.size() || s[i] == sep) {
			out.push_back(trim_blanks(s.substr(start, i - start)));
			start = i + 1;
		}
	return out;
}

std::string workload::text() const
{
	std::string s = kind;
	for (std::size_t i = 0; i < given.size(); i++)
		s += (i ? "," : ":") + given[i].first + "=" + given[i].second;
	return s;
}

workload parse_workload(const std::string &text)
{
	workload w;
	std::string t = trim_blanks(text);
	std::size_t colon = t.find(':');
	w.kind = trim_blanks(t.substr(0, colon));
	const kind_info *k = find_kind(w.kind);
	if (!k)
		throw usage_error("workload '" + printable(t) + "': unknown kind '" + printable(w.kind) +
				  "' (known: " + kind_names() + ")");
	if (colon != std::string::npos)
		for (const std::string &pair : split_trimmed(t.substr(colon + 1), ',')) {
			std::size_t eq = pair.find('=');
			if (pair.empty() || eq == std::string::npos || eq == 0)
				throw usage_error("workload '" + printable(t) + "': expected KEY=VALUE, got '" +
						  printable(pair) + "'");
			std::string key = trim_blanks(pair.substr(0, eq));
			for (const auto &[seen, value] : w.given)
				if (seen == key)
					throw usage_error("workload '" + printable(t) + "': " + printable(key) +
							  "= given twice (" + printable(key + "=" + value) + " and " +
							  printable(pair) + ")");
			w.given.emplace_back(key, trim_blanks(pair.substr(eq + 1)));
		}
	// Bad keys and values are the user's words: say so now, not when
	// generating. Building the workload once reads every value.
	workload_params p(w, k->params);
	machine_options mo;
	mo.duration_ns = 1;
	machine scratch(mo);
	k->make(p, source_context{scratch, 1, 1.0, 0});
	return w;
}

std::vector<workload> parse_mixture(const std::string &text)
{
	std::vector<workload> out;
	for (const std::string &part : split_trimmed(text, ';'))
		if (!part.empty())
			out.push_back(parse_workload(part));
	if (out.empty())
		throw usage_error("empty workload '" + printable(text) + "'");
	return out;
}

workload_params::workload_params(const workload &w, const std::vector<param_spec> &specs)
	: kind_(w.kind), values_(resolve_params(w.kind, specs, w.given))
{
}

void workload_params::bad(const char *key, const std::string &expected) const
{
	throw usage_error(kind_ + ": parameter " + key + "=" + printable(text(key)) + " must be " + expected);
}

const std::string &workload_params::text(const char *key) const { return param_value(values_, key); }

bool parse_duration(const std::string &v, double bare_ns, std::uint64_t &ns)
{
	static const struct {
		const char *suffix;
		double ns;
	} units[] = {{"us", 1e3}, {"ms", 1e6}, {"s", 1e9}, {"m", 60e9}, {"h", 3600e9}, {"d", 86400e9}};
	double scale = bare_ns, x = 0;
	std::string number = v;
	for (const auto &u : units) {
		std::string suf = u.suffix;
		if (v.size() > suf.size() && v.compare(v.size() - suf.size(), suf.size(), suf) == 0) {
			// "ms" also ends in "s": the suffix that leaves a number wins.
			std::string head = v.substr(0, v.size() - suf.size());
			double tmp;
			if (parse_real(head, tmp)) {
				number = head;
				scale = u.ns;
			}
		}
	}
	if (!parse_real(number, x) || x < 0 || x * scale > 1e18)
		return false;
	ns = static_cast<std::uint64_t>(std::llround(x * scale));
	return true;
}

std::uint64_t workload_params::duration_ns(const char *key) const
{
	std::uint64_t ns = 0;
	if (!parse_duration(text(key), 1e6, ns))
		bad(key, "a duration (200ms, 1.5s, 5m, 2h, 5d; a bare number is ms)");
	return ns;
}

double workload_params::rate(const char *key) const
{
	std::string v = text(key);
	if (v.size() > 2 && v.ends_with("/s"))
		v.resize(v.size() - 2);
	double x;
	if (!parse_real(v, x) || x < 0 || x > 1e9)
		bad(key, "a rate per second (250, 250/s)");
	return x;
}

double workload_params::fraction(const char *key) const
{
	std::string v = text(key);
	double div = 1;
	if (!v.empty() && v.back() == '%') {
		v.pop_back();
		div = 100;
	}
	double x;
	if (!parse_real(v, x) || x / div < 0 || x / div > 1)
		bad(key, "a fraction in [0, 1] or a percentage");
	return x / div;
}

double workload_params::number(const char *key) const
{
	double x;
	if (!parse_real(text(key), x) || x < 0 || x > 1e12)
		bad(key, "a non-negative number");
	return x;
}

std::uint64_t workload_params::count(const char *key) const
{
	double x;
	if (!parse_real(text(key), x) || x < 0 || x > 1e9 || x != std::floor(x))
		bad(key, "a whole number up to 10^9");
	return static_cast<std::uint64_t>(x);
}

std::uint64_t workload_params::positive_duration_ns(const char *key) const
{
	std::uint64_t ns = duration_ns(key);
	if (ns == 0)
		bad(key, "more than 0");
	return ns;
}

double workload_params::positive_rate(const char *key) const
{
	double x = rate(key);
	if (!(x > 0))
		bad(key, "more than 0 per second (a rate of 0 generates nothing)");
	return x;
}

std::uint64_t workload_params::population(const char *key, double scale, bool zero_ok) const
{
	std::uint64_t n = count(key);
	double scaled = std::floor(double(n) * scale + 0.5);
	char times[64] = "";
	if (scale != 1.0)
		std::snprintf(times, sizeof times, " (times --scale %g)", scale);
	if (scaled > double(max_population))
		bad(key, "at most " + std::to_string(max_population) + " timers" + std::string(times) +
				 ": each costs memory in the generator and in the replay");
	if (scaled < 1 && !zero_ok)
		bad(key, "at least 1 timer" + std::string(times));
	return static_cast<std::uint64_t>(scaled);
}

// fn= values go into the trace after "function=" and are read back up to
// the next blank: the characters of kernel symbols only.
const std::string &workload_params::function_name(const char *key) const
{
	const std::string &v = text(key);
	bool ok = !v.empty() && v.size() <= max_function_name;
	for (unsigned char ch : v)
		ok = ok && (std::isalnum(ch) || ch == '_' || ch == '.' || ch == '$');
	if (!ok)
		bad(key, "a callback name: 1 to " + std::to_string(max_function_name) +
				 " letters, digits, _ . or $");
	return v;
}

// task= values are the line's first column, read back up to " [CPU] ":
// no blanks (nor control characters), and a kernel's comm length.
const std::string &workload_params::task_name(const char *key) const
{
	const std::string &v = text(key);
	bool ok = !v.empty() && v.size() <= max_task_name;
	for (unsigned char ch : v)
		ok = ok && ch > 0x20 && ch < 0x7f;
	if (!ok)
		bad(key, "a task name: 1 to " + std::to_string(max_task_name) +
				 " printable characters without blanks");
	return v;
}

int workload_params::cpu(const char *key) const
{
	if (text(key) == "any")
		return -1;
	double x;
	if (!parse_real(text(key), x) || x < 0 || x > 4095 || x != std::floor(x))
		bad(key, "a CPU number or 'any'");
	return static_cast<int>(x);
}

}  // namespace timersim::gen
