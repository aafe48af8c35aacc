// Workload descriptions for `timersim gen`: "KIND:KEY=VALUE,KEY=VALUE".
//
// Each kind (networking, lognormal, periodic, ...) documents its
// parameters as param_specs (key, default, help), the same table the
// scheme parameters use, so that `gen --list-workloads`, docs/sweeps.md and
// the error for an unknown key all come from one place. Values are typed
// when read:
//   durations  "200ms", "1.5s", "300us", "5m", "2h", "5d"; a bare number is ms
//   rates      events per second ("250", "250/s")
//   fractions  0..1 or a percentage ("0.01", "1%")
//   counts     whole numbers ("10000", "1e4")
//   cpus       a CPU number, or "any" (spread over every CPU)
//   names      a callback (fn=): 1 to 128 of the characters kernel symbols
//              are made of (letters, digits, _ . $); a task (task=): 1 to
//              15 printable characters without blanks (TASK_COMM_LEN), so
//              that the trace's replay reads every line back as written
//   populations  counts of timers alive at once, after --scale: 1 to
//              max_population
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sim/scheme/params.h"

namespace timersim::gen {

struct workload {
	std::string kind;
	std::vector<std::pair<std::string, std::string>> given;	// as written

	// "kind:k=v,k=v" as given (the canonical spelling of the input).
	std::string text() const;
};

// Blanks (spaces, tabs, CR) off both ends.
std::string trim_blanks(const std::string &s);
// `s` cut at each `sep`, each piece trimmed (empty pieces kept).
std::vector<std::string> split_trimmed(const std::string &s, char sep);

// A duration ("200ms", "1.5s", "300us", "5m", "2h", "5d"; a bare number is
// in units of `bare_ns`): false when it is not one.
bool parse_duration(const std::string &text, double bare_ns, std::uint64_t &ns);

// Parses "KIND" or "KIND:K=V,K=V". Throws usage_error for an unknown kind,
// a malformed pair, a key given twice or an unknown key (naming the known
// ones), or a value out of its range.
workload parse_workload(const std::string &text);
// Several workloads separated by ';' (a mixture).
std::vector<workload> parse_mixture(const std::string &text);

// The effective parameters of one workload, typed on access. Errors name
// the kind, the key and the expected form.
// The most timers one population parameter (timers=, size=, initial=)
// may ask for after --scale: each costs the generator a few hundred bytes
// (its first jiffy holds their events) and the replay more; a million is
// past any recording's scale.
constexpr std::uint64_t max_population = 1'000'000;

// Bounds of fn= and task= (see the names above).
constexpr std::size_t max_function_name = 128;
constexpr std::size_t max_task_name = 15;

class workload_params {
public:
	workload_params(const workload &w, const std::vector<param_spec> &specs);

	const std::string &kind() const { return kind_; }
	std::uint64_t duration_ns(const char *key) const;
	std::uint64_t positive_duration_ns(const char *key) const;	// more than 0
	double rate(const char *key) const;
	double positive_rate(const char *key) const;	// more than 0
	double fraction(const char *key) const;
	double number(const char *key) const;	// a non-negative real
	std::uint64_t count(const char *key) const;
	// A count of timers times --scale, rounded: 1..max_population (0 too
	// when `zero_ok`).
	std::uint64_t population(const char *key, double scale, bool zero_ok = false) const;
	int cpu(const char *key) const;		// -1 for "any"
	const std::string &function_name(const char *key) const;	// fn=
	const std::string &task_name(const char *key) const;		// task=
	const std::string &text(const char *key) const;

private:
	[[noreturn]] void bad(const char *key, const std::string &expected) const;
	std::string kind_;
	std::vector<scheme_param> values_;
};

}  // namespace timersim::gen
