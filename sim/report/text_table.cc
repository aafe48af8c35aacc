#include "sim/report/text_table.h"

#include <algorithm>
#include <cstdio>

namespace timersim {

std::string text_table::render() const
{
	std::vector<std::size_t> width;
	for (const auto &r : rows_)
		for (std::size_t c = 0; c < r.size(); c++) {
			if (width.size() <= c)
				width.push_back(0);
			width[c] = std::max(width[c], r[c].size());
		}

	std::string out;
	for (const auto &r : rows_) {
		std::string line = indent_;
		for (std::size_t c = 0; c < r.size(); c++) {
			std::size_t pad = width[c] - r[c].size();
			if (c)
				line += "  ";
			if (c == 0 || align_ == words)
				line += r[c] + std::string(pad, ' ');
			else
				line += std::string(pad, ' ') + r[c];
		}
		while (!line.empty() && line.back() == ' ')
			line.pop_back();
		out += line + '\n';
	}
	return out;
}

std::string num(unsigned long long v)
{
	return std::to_string(v);
}

std::string percent(unsigned long long part, unsigned long long whole)
{
	if (!whole)
		return "-";
	char buf[32];
	std::snprintf(buf, sizeof buf, "%.2f%%", 100.0 * static_cast<double>(part) / whole);
	return buf;
}

}  // namespace timersim
