// Interns strings (callback names) to dense ids, so that events can be
// buffered without owning strings and counted per function cheaply.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/base/flat_ids.h"

namespace timersim {

class interner {
public:
	std::uint32_t intern(std::string_view s)
	{
		// A trace's callbacks come in runs and pairs (a timer started
		// again as it expires, two timers of a socket): the last two
		// names answer most lookups with a compare, no hash.
		if (recent_[0] < names_.size() && is(recent_[0], s))
			return recent_[0];
		if (recent_[1] < names_.size() && is(recent_[1], s)) {
			std::swap(recent_[0], recent_[1]);
			return recent_[0];
		}
		bool fresh;
		std::uint32_t id = ids_.find_or_add(
			hash(s), [&](std::uint32_t i) { return is(i, s); }, fresh);
		if (fresh)
			names_.emplace_back(s);
		recent_[1] = recent_[0];
		recent_[0] = id;
		return id;
	}
	const std::string &name(std::uint32_t id) const { return names_.at(id); }
	std::size_t size() const { return names_.size(); }

	// Whether A and B hold the same N bytes, inline, by overlapping words
	// within them: names are a few words long, and a call of memcmp would
	// cost as much as the comparison (every event that names a callback
	// interns one).
	static bool same_bytes(const char *a, const char *b, std::size_t n)
	{
		if (n >= 8) {
			for (std::size_t i = 0; i + 8 < n; i += 8)
				if (word<std::uint64_t>(a + i) != word<std::uint64_t>(b + i))
					return false;
			return word<std::uint64_t>(a + n - 8) == word<std::uint64_t>(b + n - 8);
		}
		if (n >= 4)
			return word<std::uint32_t>(a) == word<std::uint32_t>(b) &&
			       word<std::uint32_t>(a + n - 4) == word<std::uint32_t>(b + n - 4);
		for (std::size_t i = 0; i < n; i++)
			if (a[i] != b[i])
				return false;
		return true;
	}

private:
	bool is(std::uint32_t id, std::string_view s) const
	{
		return names_[id].size() == s.size() && same_bytes(names_[id].data(), s.data(), s.size());
	}

	template <typename Word> static Word word(const char *p)
	{
		Word w;
		std::memcpy(&w, p, sizeof w);
		return w;
	}

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
	std::uint32_t recent_[2] = {~0u, ~0u};	// ids, the last looked up first
};

}  // namespace timersim
