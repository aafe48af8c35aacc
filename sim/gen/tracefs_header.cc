// tracefs_header(): the key as 3.10 and 6.x print it, byte for byte.
#include "sim/gen/tracefs_header.h"

namespace timersim::gen {

namespace {

const char columns_3[] =
	"#\n"
	"#                              _-----=> irqs-off\n"
	"#                             / _----=> need-resched\n"
	"#                            | / _---=> hardirq/softirq\n"
	"#                            || / _--=> preempt-depth\n"
	"#                            ||| /     delay\n"
	"#           TASK-PID   CPU#  ||||    TIMESTAMP  FUNCTION\n"
	"#              | |       |   ||||       |         |\n";

const char columns_6[] =
	"#\n"
	"#                                _-----=> irqs-off/BH-disabled\n"
	"#                               / _----=> need-resched\n"
	"#                              | / _---=> hardirq/softirq\n"
	"#                              || / _--=> preempt-depth\n"
	"#                              ||| / _-=> migrate-disable\n"
	"#                              |||| /     delay\n"
	"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
	"#              | |         |   |||||     |         |\n";

}  // namespace

std::string tracefs_header(kernel_gen kernel, std::uint64_t entries, unsigned cpus, std::string_view generated)
{
	std::string n = std::to_string(entries);
	std::string text = "# tracer: nop\n#\n# entries-in-buffer/entries-written: " + n + "/" + n + "   #P:" +
			   std::to_string(cpus) + "\n";
	if (!generated.empty())
		text.append("# generated: ").append(generated).append("\n");
	text += kernel == kernel_gen::linux6 ? columns_6 : columns_3;
	return text;
}

}  // namespace timersim::gen
