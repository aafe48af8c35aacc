// A FIFO of at most a fixed number of trivially copyable records, in
// huge pages (huge_pages.h): the records a binary reader decodes ahead of
// the replay while its kallsyms load.
//
// A std::deque of them (136 bytes each, three to a 512-byte node) cost a
// malloc every three records and a first-touch page fault every thirty: up
// to 1,100 faults for the 32,768 a trace.dat reader may hold, on a virtual
// machine 10-15 ms, as much as its whole replay. Here the pages are mapped
// once and a 2 MiB page faults once; only the part reached is touched.
#pragma once

#include <cstddef>
#include <new>
#include <stdexcept>
#include <type_traits>

#include "sim/trace/huge_pages.h"

namespace timersim {

template <typename T>
class huge_ring {
	static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

public:
	explicit huge_ring(std::size_t capacity)
		: region_(map_huge(capacity * sizeof(T))), slots_(reinterpret_cast<T *>(region_.data)),
		  cap_(capacity)
	{
	}
	~huge_ring() { unmap_huge(region_); }
	huge_ring(const huge_ring &) = delete;
	huge_ring &operator=(const huge_ring &) = delete;

	bool empty() const { return !size_; }
	std::size_t size() const { return size_; }
	const T &front() const { return slots_[head_]; }
	void pop_front()
	{
		head_ = head_ + 1 == cap_ ? 0 : head_ + 1;
		size_--;
	}
	void push_back(const T &v)
	{
		if (size_ == cap_)
			throw std::logic_error("huge_ring: full");
		std::size_t at = head_ + size_;
		new (&slots_[at >= cap_ ? at - cap_ : at]) T(v);
		size_++;
	}

private:
	huge_region region_;
	T *slots_;
	std::size_t cap_;
	std::size_t head_ = 0, size_ = 0;
};

}  // namespace timersim
