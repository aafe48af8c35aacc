// The hrtimer queue designs by name, in the order reports list them.
#include <memory>
#include <string>
#include <vector>

#include "sim/hrtimer/queue_design.h"
#include "sim/hrtimer/queue_factories.h"

namespace timersim::hrq {

const std::vector<std::string> &queue_design_names()
{
	static const std::vector<std::string> names = {"timerqueue", "linked", "heap", "heap4", "wheel"};
	return names;
}

std::unique_ptr<queue_design> make_queue_design(const std::string &name)
{
	if (name == "timerqueue")
		return make_timerqueue_design();
	if (name == "linked")
		return make_linked_design();
	if (name == "heap")
		return make_heap_design(2);
	if (name == "heap4")
		return make_heap_design(4);
	if (name == "wheel")
		return make_wheel_design();
	return nullptr;
}

}  // namespace timersim::hrq
