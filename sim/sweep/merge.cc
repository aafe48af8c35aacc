// `timersim merge SPEC`: the cells' result lines as one CSV.
#include <sys/stat.h>

#include <map>

#include <nlohmann/json.hpp>

#include "sim/output/csv.h"
#include "sim/sweep/run.h"
#include "sim/trace/reader.h"
#include "sim/trace/small_input.h"

namespace timersim::sweep {

namespace {

// A result line is under 1 KiB but names its input, a SPEC value of up to
// its line bound (1 MiB).
constexpr std::size_t max_result = std::size_t{2} << 20;

}  // namespace

std::string merge_csv(const spec &s, bool partial)
{
	const std::vector<std::string> &cols = result_columns();
	std::string out;
	for (std::size_t i = 0; i < cols.size(); i++)
		out += (i ? "," : "") + cols[i];
	out += "\n";
	for (const nlohmann::json &j : merge_rows(s, partial)) {
		for (std::size_t i = 0; i < cols.size(); i++) {
			if (i)
				out += ',';
			const nlohmann::json &v = j[cols[i]];
			if (!v.is_null())
				append_csv_field(out, v.is_string() ? v.get<std::string>() : v.dump());
		}
		out += '\n';
	}
	return out;
}

std::vector<nlohmann::json> merge_rows(const spec &s, bool partial)
{
	const std::vector<std::string> &cols = result_columns();
	std::vector<nlohmann::json> rows;

	std::vector<std::size_t> missing;
	std::map<std::string, std::vector<std::size_t>> stale;	// why -> cells
	key_maker make_key(s);
	for (const cell &c : s.cells) {
		std::string path = s.result_path(c);
		struct stat st;
		if (lstat(path.c_str(), &st) != 0) {
			missing.push_back(c.index);
			continue;
		}
		// Not opened unless a file: a FIFO there would stop the merge,
		// and a link is none of the sweep's (the sweep replaces it).
		if (!S_ISREG(st.st_mode))
			throw input_error(path, 0, "not a regular file: not the result of cell " + c.id);
		nlohmann::json j = parse_json_input(read_small_text(path, max_result, max_result, "sweep result"), path);
		if (!j.is_object() || !j.contains("id") || j["id"] != c.id)
			throw input_error(path, 1, "not the result of cell " + c.id);
		// A result made by another program or from other input bytes is
		// not this sweep's: merged, it would mix old numbers into new.
		std::string why = stale_reason(make_key.of(c), j);
		if (!why.empty()) {
			stale[why].push_back(c.index);
			continue;
		}
		for (std::size_t i = 0; i < cols.size(); i++) {
			if (!j.contains(cols[i]))
				throw input_error(path, 1, "no \"" + cols[i] + "\" (an older timersim?)");
			// A result's values are numbers and words; anything nested
			// is not one (and would be dumped recursively, however deep).
			if (j[cols[i]].is_structured())
				throw input_error(path, 1, "\"" + cols[i] + "\" is not a number or a string");
		}
		rows.push_back(std::move(j));
	}
	if (partial)
		return rows;
	auto listed = [](const std::vector<std::size_t> &cells) {
		std::string list;
		for (std::size_t k = 0; k < cells.size() && k < 20; k++)
			list += (k ? ", " : "") + std::to_string(cells[k]);
		if (cells.size() > 20)
			list += ", ...";
		return list;
	};
	std::string of = " of " + std::to_string(s.cells.size()) + " cells ";
	if (!missing.empty())
		throw input_error(s.path, 0, std::to_string(missing.size()) + of + "have no result yet (" +
						     listed(missing) + "): run the sweep, or merge --partial");
	if (!stale.empty()) {
		std::string what;
		for (const auto &[why, cells] : stale)
			what += (what.empty() ? "" : "; ") + std::to_string(cells.size()) + " stale: " + why + " (" +
				listed(cells) + ")";
		throw input_error(s.path, 0, what + ": run the sweep again to re-run them, or merge --partial");
	}
	return rows;
}

}  // namespace timersim::sweep
