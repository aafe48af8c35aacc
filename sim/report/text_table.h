// Aligned plain-text tables: the first column left-aligned, the rest
// right-aligned, columns two spaces apart.
#pragma once

#include <string>
#include <vector>

namespace timersim {

class text_table {
public:
	enum align { numbers, words };	// numbers: columns after the first right-aligned
	explicit text_table(std::string indent = "  ", align a = numbers)
		: indent_(std::move(indent)), align_(a) {}
	void row(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }
	std::string render() const;

private:
	std::string indent_;
	align align_;
	std::vector<std::vector<std::string>> rows_;
};

// 1234567 -> "1234567"; kept as plain digits so that output greps easily.
std::string num(unsigned long long v);
// part/whole as a percentage with two decimals, "-" when whole is 0.
std::string percent(unsigned long long part, unsigned long long whole);

}  // namespace timersim
