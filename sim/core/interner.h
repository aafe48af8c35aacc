// Interns strings (callback names) to dense ids, so that events can be
// buffered without owning strings and counted per function cheaply.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace timersim {

class interner {
public:
	std::uint32_t intern(std::string_view s)
	{
		auto it = ids_.find(s);
		if (it != ids_.end())
			return it->second;
		auto id = static_cast<std::uint32_t>(names_.size());
		names_.emplace_back(s);
		ids_.emplace(names_.back(), id);
		return id;
	}
	const std::string &name(std::uint32_t id) const { return names_.at(id); }
	std::size_t size() const { return names_.size(); }

private:
	struct hash {
		using is_transparent = void;
		std::size_t operator()(std::string_view s) const
		{
			return std::hash<std::string_view>{}(s);
		}
	};
	std::vector<std::string> names_;
	std::unordered_map<std::string, std::uint32_t, hash, std::equal_to<>> ids_;
};

}  // namespace timersim
