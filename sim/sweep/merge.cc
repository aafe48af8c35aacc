// `timersim merge SPEC`: the cells' result lines as one CSV.
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "sim/output/csv.h"
#include "sim/sweep/run.h"
#include "sim/trace/reader.h"

namespace timersim::sweep {

std::string merge_csv(const spec &s, bool partial)
{
	const std::vector<std::string> &cols = result_columns();
	std::string out;
	for (std::size_t i = 0; i < cols.size(); i++)
		out += (i ? "," : "") + cols[i];
	out += "\n";

	std::vector<std::size_t> missing;
	for (const cell &c : s.cells) {
		std::ifstream in(s.result_path(c));
		if (!in) {
			missing.push_back(c.index);
			continue;
		}
		std::string line;
		std::getline(in, line);
		nlohmann::json j;
		try {
			j = nlohmann::json::parse(line);
		} catch (const nlohmann::json::parse_error &e) {
			throw input_error(s.result_path(c), 1, std::string("not a result line: ") + e.what());
		}
		if (!j.is_object() || j.value("id", "") != c.id)
			throw input_error(s.result_path(c), 1, "not the result of cell " + c.id);
		for (std::size_t i = 0; i < cols.size(); i++) {
			if (i)
				out += ',';
			if (!j.contains(cols[i]))
				throw input_error(s.result_path(c), 1, "no \"" + cols[i] + "\" (an older timersim?)");
			const nlohmann::json &v = j[cols[i]];
			if (v.is_null())
				continue;
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
