// The header raw tracefs text opens with (`cat /sys/kernel/tracing/trace`,
// kernel/trace/trace.c's print_trace_header): one definition for the
// generator's writer and for the tests that write trace lines by hand.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sim/gen/machine.h"

namespace timersim::gen {

// "# tracer: nop", the buffer's ENTRIES and the CPU count (#P:), then the
// column key of KERNEL's generation (6.x adds the migrate-disable column
// and prints irqs-off/BH-disabled). GENERATED, when not empty, is one more
// comment line, "# generated: GENERATED", before the key.
std::string tracefs_header(kernel_gen kernel, std::uint64_t entries, unsigned cpus,
			   std::string_view generated = {});

}  // namespace timersim::gen
