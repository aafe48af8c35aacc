#include "sim/trace/huge_pages.h"

#include <sys/mman.h>

#include <cstdint>
#include <new>

namespace timersim {

huge_region map_huge(std::size_t bytes)
{
	huge_region r;
	r.bytes = (bytes + huge_page_bytes - 1) / huge_page_bytes * huge_page_bytes;
	r.mapped = r.bytes + huge_page_bytes;	// room to start on a boundary
	r.map = mmap(nullptr, r.mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r.map == MAP_FAILED)
		throw std::bad_alloc();
	auto at = reinterpret_cast<std::uintptr_t>(r.map);
	r.data = reinterpret_cast<char *>((at + huge_page_bytes - 1) & ~(huge_page_bytes - 1));
#ifdef MADV_HUGEPAGE
	madvise(r.data, r.bytes, MADV_HUGEPAGE);
#endif
	return r;
}

void unmap_huge(const huge_region &r)
{
	if (r.map)
		munmap(r.map, r.mapped);
}

}  // namespace timersim
