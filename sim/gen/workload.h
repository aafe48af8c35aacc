// Workload descriptions for `timersim gen`: "KIND:KEY=VALUE,KEY=VALUE".
//
// Each kind (networking, lognormal, periodic, ...) documents its
// parameters as param_specs (key, default, help), the same table the
// scheme parameters use, so that `gen --list-workloads`, the README and
// the error for an unknown key all come from one place. Values are typed
// when read:
//   durations  "200ms", "1.5s", "300us", "5m", "2h", "5d"; a bare number is ms
//   rates      events per second ("250", "250/s")
//   fractions  0..1 or a percentage ("0.01", "1%")
//   counts     whole numbers ("10000", "1e4")
//   cpus       a CPU number, or "any" (spread over every CPU)
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
// a malformed pair or an unknown key (naming the known ones).
workload parse_workload(const std::string &text);
// Several workloads separated by ';' (a mixture).
std::vector<workload> parse_mixture(const std::string &text);

// The effective parameters of one workload, typed on access. Errors name
// the kind, the key and the expected form.
class workload_params {
public:
	workload_params(const workload &w, const std::vector<param_spec> &specs);

	const std::string &kind() const { return kind_; }
	std::uint64_t duration_ns(const char *key) const;
	double rate(const char *key) const;
	double fraction(const char *key) const;
	double number(const char *key) const;	// a non-negative real
	std::uint64_t count(const char *key) const;
	int cpu(const char *key) const;		// -1 for "any"
	const std::string &text(const char *key) const;

private:
	[[noreturn]] void bad(const char *key, const char *expected) const;
	std::string kind_;
	std::vector<scheme_param> values_;
};

}  // namespace timersim::gen
