#include "tools/suggest.h"

#include <algorithm>

namespace timersim::cli {

namespace {

// Optimal string alignment distance.
std::size_t distance(const std::string &a, const std::string &b)
{
	std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
	for (std::size_t i = 0; i <= a.size(); i++)
		d[i][0] = i;
	for (std::size_t j = 0; j <= b.size(); j++)
		d[0][j] = j;
	for (std::size_t i = 1; i <= a.size(); i++)
		for (std::size_t j = 1; j <= b.size(); j++) {
			std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
			d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
				d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
		}
	return d[a.size()][b.size()];
}

}  // namespace

std::string closest(const std::string &word, const std::vector<std::string> &candidates)
{
	std::string best;
	std::size_t best_d = 0;
	for (const std::string &c : candidates) {
		std::size_t d = distance(word, c);
		if (best.empty() || d < best_d) {
			best = c;
			best_d = d;
		}
	}
	// A typo changes a few letters, not most of the word.
	std::size_t allowed = std::max<std::size_t>(2, word.size() / 3);
	return !best.empty() && best_d <= allowed && best_d < word.size() ? best : "";
}

std::string did_you_mean(const std::string &word, const std::vector<std::string> &candidates)
{
	std::string c = closest(word, candidates);
	return c.empty() ? "" : " (did you mean '" + c + "'?)";
}

}  // namespace timersim::cli
