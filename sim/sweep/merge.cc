// `timersim merge SPEC`: the cells' result lines as one CSV.
#include <sys/stat.h>

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

	std::vector<std::size_t> missing;
	for (const cell &c : s.cells) {
		std::string path = s.result_path(c);
		struct stat st;
		if (stat(path.c_str(), &st) != 0) {
			missing.push_back(c.index);
			continue;
		}
		// Not opened unless a file: a FIFO there would stop the merge.
		if (!S_ISREG(st.st_mode))
			throw input_error(path, 0, "not a regular file: not the result of cell " + c.id);
		nlohmann::json j = parse_json_input(read_small_text(path, max_result, max_result, "sweep result"), path);
		if (!j.is_object() || !j.contains("id") || j["id"] != c.id)
			throw input_error(path, 1, "not the result of cell " + c.id);
		for (std::size_t i = 0; i < cols.size(); i++) {
			if (i)
				out += ',';
			if (!j.contains(cols[i]))
				throw input_error(path, 1, "no \"" + cols[i] + "\" (an older timersim?)");
			const nlohmann::json &v = j[cols[i]];
			if (v.is_null())
				continue;
			// A result's values are numbers and words; anything nested
			// is not one (and would be dumped recursively, however deep).
			if (v.is_structured())
				throw input_error(path, 1, "\"" + cols[i] + "\" is not a number or a string");
			append_csv_field(out, v.is_string() ? v.get<std::string>() : v.dump());
		}
		out += '\n';
	}
	if (!missing.empty() && !partial) {
		std::string list;
		for (std::size_t k = 0; k < missing.size() && k < 20; k++)
			list += (k ? ", " : "") + std::to_string(missing[k]);
		if (missing.size() > 20)
			list += ", ...";
		throw input_error(s.path, 0, std::to_string(missing.size()) + " of " + std::to_string(s.cells.size()) +
						     " cells have no result yet (" + list +
						     "): run the sweep, or merge --partial");
	}
	return out;
}

}  // namespace timersim::sweep
