// Interns strings (callback names) to dense ids, so that events can be
// buffered without owning strings and counted per function cheaply.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/flat_ids.h"

namespace timersim {

class interner {
public:
	std::uint32_t intern(std::string_view s)
	{
		bool fresh;
		std::uint32_t id = ids_.find_or_add(
			hash(s), [&](std::uint32_t i) { return names_[i] == s; }, fresh);
		if (fresh)
			names_.emplace_back(s);
		return id;
	}
	const std::string &name(std::uint32_t id) const { return names_.at(id); }
	std::size_t size() const { return names_.size(); }

private:
	// Eight bytes at a time: names are a few words long ("0xffffffff81065e80",
	// "process_timeout"), a hash call per event would cost more than the rest.
	static std::uint64_t hash(std::string_view s)
	{
		std::uint64_t h = s.size();
		const char *p = s.data();
		std::size_t n = s.size();
		for (; n >= 8; p += 8, n -= 8) {
			std::uint64_t w;
			std::memcpy(&w, p, 8);
			h = flat_ids::mix(h ^ w);
		}
		if (n) {
			std::uint64_t w = 0;
			std::memcpy(&w, p, n);
			h = flat_ids::mix(h ^ w);
		}
		return h;
	}

	std::vector<std::string> names_;
	flat_ids ids_;
};

}  // namespace timersim
