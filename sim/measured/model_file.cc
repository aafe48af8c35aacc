#include "sim/measured/model_file.h"

#include <cmath>

#include <nlohmann/json.hpp>

#include "sim/base/json_writer.h"
#include "sim/trace/reader.h"
#include "sim/trace/small_input.h"

namespace timersim::measured {

namespace {

constexpr const char *model_kind = "timersim softirq-run cost model";

void terms(json_writer &w, const char *key, const term_vector &v)
{
	w.key(key);
	w.begin_array();
	for (double x : v)
		w.value_fixed(x, 4);
	w.end_array();
}

// The most a coefficient may say a unit of work costs: a second. A fitted
// cost is ns to us; past this the predictions (a coefficient times counts
// of up to 2^64, summed over the runs) would leave a double's range and
// print as inf or 0, a number that looks like a measurement.
constexpr double max_ns_per_unit = 1e9;

// The terms in array A, which messages name SHOWN.
term_vector read_terms(const nlohmann::json &a, const std::string &shown, const std::string &path)
{
	if (!a.is_array() || a.size() != model_terms)
		throw input_error(path, 0, shown + " is not an array of " + std::to_string(model_terms) +
					       " numbers");
	term_vector v{};
	for (unsigned t = 0; t < model_terms; t++) {
		const nlohmann::json &x = a[t];
		std::string at = shown + "[" + std::to_string(t) + "]";
		if (!x.is_number() || !std::isfinite(x.get<double>()) || x.get<double>() < 0)
			throw input_error(path, 0, at + " is not a non-negative number");
		if (x.get<double>() > max_ns_per_unit)
			throw input_error(path, 0, at + " (" + model_term_name(t) + ") is " + x.dump() +
						       " ns a unit: past 1 s (1e9 ns), no cost a softirq run can have");
		v[t] = x.get<double>();
	}
	return v;
}

// The terms under KEY of object J.
term_vector read_terms(const nlohmann::json &j, const char *key, const std::string &path)
{
	static const nlohmann::json none;
	return read_terms(j.contains(key) ? j[key] : none, std::string("\"") + key + "\"", path);
}

}  // namespace

std::string model_json(const cost_model &m)
{
	std::string out;
	json_writer w(out);
	w.begin_object();
	w.field("kind", model_kind);
	w.field("version", std::uint64_t{1});
	w.field("unit", "ns");
	w.field("predicts", "a TIMER softirq run's own time less its callbacks'");
	w.key("terms");
	w.begin_array();
	for (unsigned t = 0; t < model_terms; t++)
		w.value(model_term_name(t));
	w.end_array();
	terms(w, "ns", m.ns);
	terms(w, "low", m.low);
	terms(w, "high", m.high);
	w.key("fitted");
	w.begin_array();
	for (bool f : m.fitted)
		w.value(f);
	w.end_array();
	w.field("runs", m.runs);
	w.field("seed", m.seed);
	w.key("sources");
	w.begin_array();
	for (const std::string &s : m.sources)
		w.value(s);
	w.end_array();
	w.key("draws");
	w.begin_array();
	for (const term_vector &d : m.draws) {
		w.begin_array();
		for (double x : d)
			w.value_fixed(x, 4);
		w.end_array();
	}
	w.end_array();
	w.end_object();
	out += "\n";
	return out;
}

cost_model load_model(const std::string &path)
{
	// A model is a few hundred KiB at most (its draws).
	nlohmann::json j = parse_json_input(read_small_text(path, 16u << 20, 1u << 20, "cost model"), path);
	if (!j.is_object() || !j.contains("kind") || j["kind"] != model_kind)
		throw input_error(path, 0, "not a timersim cost model (no \"kind\": \"" +
					       std::string(model_kind) + "\"; write one with `timersim cost-model`)");
	if (!j.contains("version") || j["version"] != 1)
		throw input_error(path, 0, "a cost model of another version (this timersim reads version 1)");
	if (!j.contains("terms") || !j["terms"].is_array() || j["terms"].size() != model_terms)
		throw input_error(path, 0, "\"terms\" is not the " + std::to_string(model_terms) + " terms");
	for (unsigned t = 0; t < model_terms; t++)
		if (j["terms"][t] != model_term_name(t))
			throw input_error(path, 0, "term " + std::to_string(t) + " is not \"" +
						       model_term_name(t) + "\"");
	cost_model m;
	m.ns = read_terms(j, "ns", path);
	m.low = read_terms(j, "low", path);
	m.high = read_terms(j, "high", path);
	if (!j.contains("fitted") || !j["fitted"].is_array() || j["fitted"].size() != model_terms)
		throw input_error(path, 0, "\"fitted\" is not an array of " + std::to_string(model_terms) + " booleans");
	for (unsigned t = 0; t < model_terms; t++) {
		if (!j["fitted"][t].is_boolean())
			throw input_error(path, 0, "\"fitted\"[" + std::to_string(t) + "] is not a boolean");
		m.fitted[t] = j["fitted"][t].get<bool>();
	}
	if (j.contains("runs") && j["runs"].is_number_unsigned())
		m.runs = j["runs"].get<std::uint64_t>();
	if (j.contains("seed") && j["seed"].is_number_unsigned())
		m.seed = j["seed"].get<std::uint64_t>();
	if (j.contains("sources") && j["sources"].is_array())
		for (const auto &s : j["sources"])
			if (s.is_string())
				m.sources.push_back(s.get<std::string>());
	if (!j.contains("draws") || !j["draws"].is_array())
		throw input_error(path, 0, "no \"draws\" array (the bootstrap's coefficient vectors)");
	for (std::size_t i = 0; i < j["draws"].size(); i++) {
		m.draws.push_back(read_terms(j["draws"][i], "\"draws\"[" + std::to_string(i) + "]", path));
	}
	return m;
}

}  // namespace timersim::measured
