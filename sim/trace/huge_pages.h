// Anonymous memory on 2 MiB boundaries with transparent huge pages asked
// for (madvise; a kernel that says no gives small pages, no error). A
// large buffer filled once (inflated kallsyms, the event chunks a replay
// reads ahead) then costs a few faults instead of one per 4 KiB page:
// on a virtual machine each is some microseconds.
#pragma once

#include <cstddef>

namespace timersim {

constexpr std::size_t huge_page_bytes = std::size_t{2} << 20;

struct huge_region {
	void *map = nullptr;		// as mapped, for unmap_huge()
	std::size_t mapped = 0;
	char *data = nullptr;		// huge page aligned, at least the bytes asked for
	std::size_t bytes = 0;		// whole huge pages from data
};

// BYTES or more; throws std::bad_alloc.
huge_region map_huge(std::size_t bytes);
void unmap_huge(const huge_region &r);

}  // namespace timersim
