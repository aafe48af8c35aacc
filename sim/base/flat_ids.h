// Dense ids for keys seen in a trace (timer pointers, callback names), by
// open addressing: one probe of a flat array in the common case, where a
// node-based map costs a hash call and a pointer chase per event.
#pragma once

#include <cstdint>
#include <vector>

namespace timersim {

// Finds the id of a key by its 64-bit hash: SAME(id) says whether the key
// with that id is the one looked for. New keys get the next id (the count
// so far). Half full at most, so probes stay short.
class flat_ids {
public:
	// Inline always: every caller looks up at nearly every event, and
	// out of line (the replay's loop calls it from several places) the
	// call cost as much as the probe.
	template <typename Same>
	[[gnu::always_inline]] std::uint32_t find_or_add(std::uint64_t hash, Same &&same, bool &fresh)
	{
		if (2 * (count_ + 1) > slots_.size())
			grow();
		for (std::uint64_t i = slot_of(hash);; i = (i + 1) & mask_) {
			slot &s = slots_[i];
			if (!s.id_plus_1) {
				s = {hash, ++count_};
				fresh = true;
				return count_ - 1;
			}
			if (s.hash == hash && same(s.id_plus_1 - 1)) {
				fresh = false;
				return s.id_plus_1 - 1;
			}
		}
	}
	std::uint32_t size() const { return count_; }

	// A 64-bit key spread over every bit (pointers have zero low bits).
	static std::uint64_t mix(std::uint64_t k)
	{
		k *= 0x9e3779b97f4a7c15ull;
		return k ^ (k >> 29);
	}

private:
	struct slot {
		std::uint64_t hash = 0;
		std::uint32_t id_plus_1 = 0;	// 0: empty
	};

	std::uint64_t slot_of(std::uint64_t hash) const { return (hash >> 7) & mask_; }
	// Out of line: rare, and inlined it made every look-up save registers.
	[[gnu::noinline]] void grow()
	{
		std::vector<slot> old;
		old.swap(slots_);
		slots_.resize(old.empty() ? 64 : old.size() * 2);
		mask_ = slots_.size() - 1;
		for (const slot &s : old) {
			if (!s.id_plus_1)
				continue;
			std::uint64_t i = slot_of(s.hash);
			while (slots_[i].id_plus_1)
				i = (i + 1) & mask_;
			slots_[i] = s;
		}
	}

	std::vector<slot> slots_;
	std::uint64_t mask_ = 0;
	std::uint32_t count_ = 0;
};

}  // namespace timersim
