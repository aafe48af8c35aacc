// The design constructors the registry (queue_registry.cc) lists.
#pragma once

#include <memory>

#include "sim/hrtimer/queue_design.h"

namespace timersim::hrq {

std::unique_ptr<queue_design> make_timerqueue_design();
std::unique_ptr<queue_design> make_linked_design();
std::unique_ptr<queue_design> make_heap_design(unsigned arity);
std::unique_ptr<queue_design> make_wheel_design();

}  // namespace timersim::hrq
