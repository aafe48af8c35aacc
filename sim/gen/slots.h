// The live objects of one workload (connections, sleeping tasks, guards),
// addressed by the actions it schedules. An action carries a tag of
// (slot, generation, step); when the object was released meanwhile (the
// connection closed, the timer fired and its task went on), the
// generation no longer matches and the action is dropped.
#pragma once

#include <cstdint>
#include <vector>

namespace timersim::gen {

template <class T>
class slot_table {
public:
	// A fresh object (reusing a released slot first).
	std::uint32_t alloc()
	{
		std::uint32_t s;
		if (!free_.empty()) {
			s = free_.back();
			free_.pop_back();
		} else {
			s = static_cast<std::uint32_t>(items_.size());
			items_.emplace_back();
		}
		items_[s].obj = T{};
		items_[s].live = true;
		return s;
	}
	void release(std::uint32_t s)
	{
		items_[s].live = false;
		items_[s].generation++;
		free_.push_back(s);
	}
	T &operator[](std::uint32_t s) { return items_[s].obj; }
	std::size_t live() const { return items_.size() - free_.size(); }

	std::uint64_t tag(std::uint32_t s, std::uint8_t step) const
	{
		return (std::uint64_t{s} << 32) | (std::uint64_t{items_[s].generation & 0xffffff} << 8) | step;
	}
	static std::uint8_t step_of(std::uint64_t tag) { return static_cast<std::uint8_t>(tag & 0xff); }
	// The slot a tag names, if that object is still the one it named.
	bool resolve(std::uint64_t tag, std::uint32_t &s) const
	{
		s = static_cast<std::uint32_t>(tag >> 32);
		return s < items_.size() && items_[s].live &&
		       ((tag >> 8) & 0xffffff) == (items_[s].generation & 0xffffff);
	}

private:
	struct item {
		T obj{};
		std::uint32_t generation = 0;
		bool live = false;
	};
	std::vector<item> items_;
	std::vector<std::uint32_t> free_;
};

}  // namespace timersim::gen
