// "Did you mean ...?" for mistyped option and scheme names.
#pragma once

#include <string>
#include <vector>

namespace timersim::cli {

// The candidate nearest to `word` by edit distance (insertions, deletions,
// substitutions, swaps of neighbours), if it is near enough to be a typo;
// "" otherwise.
std::string closest(const std::string &word, const std::vector<std::string> &candidates);

// " (did you mean 'X'?)" or "".
std::string did_you_mean(const std::string &word, const std::vector<std::string> &candidates);

}  // namespace timersim::cli
