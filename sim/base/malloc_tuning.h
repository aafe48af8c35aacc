// How the process's allocator is set up, once, at the start of main().
#pragma once

namespace timersim {

// One malloc arena for every thread, and freed memory kept for reuse up to
// 32 MB blocks: a replay's memory is then touched once, not again fresh.
// Each first touch of an anonymous page costs 12-20 us on a virtual
// machine, and a small trace's replay is largely such faults: a reader's
// prefetch thread with an arena of its own faults in fresh heap for what
// the main arena has free, and blocks above glibc's 128 KB mmap threshold
// (growing vectors) are mapped fresh and unmapped at each growth. glibc
// only; elsewhere a no-op.
void tune_malloc();

}  // namespace timersim
