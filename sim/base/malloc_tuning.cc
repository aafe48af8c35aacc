#include "sim/base/malloc_tuning.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace timersim {

void tune_malloc()
{
#if defined(__GLIBC__)
	// Measured on the 3.6 CTF recording / the 6.18 http trace.dat /
	// measured-network-quiet.txt.gz, page faults: 634 / 702 / 2,512 ->
	// 566 / 624 / 2,324. The thresholds are those glibc's own dynamic
	// threshold stops at (which setting any of them turns off): blocks
	// of up to 32 MB from the heap, and up to 64 MB of free memory at
	// its top kept.
	mallopt(M_ARENA_MAX, 1);
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
#endif
}

}  // namespace timersim
