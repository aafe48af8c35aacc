// The whole command line: every subcommand and the global options.
#include <string_view>

#include "sim/base/version.h"
#include "tools/commands.h"

namespace timersim::cli {

const char version[] = "timersim " TIMERSIM_VERSION;

namespace {

// Each subcommand's name and the function that adds it (cmd_sweep.cc adds
// sweep and merge together). options-table is left out: it reads the
// other subcommands' definitions, so it needs them all.
struct subcommand_adder {
	std::string_view name;
	void (*add)(CLI::App &, command_list &);
};
constexpr subcommand_adder adders[] = {
	{"replay", add_replay}, {"compare", add_compare}, {"lab", add_lab},
	{"step", add_step},	{"view", add_view},	  {"plot", add_plot},
	{"gen", add_gen},	{"sweep", add_sweep},	  {"merge", add_sweep},
	{"cost-model", add_cost_model}, {"top", add_top},
};

}  // namespace

void build(CLI::App &app, command_list &commands, std::string_view first_word)
{
	app.set_version_flag("--version", version);
	app.require_subcommand(1);
	app.fallthrough(false);
	app.add_flag_callback("--list-schemes", [] {}, "print the scheme names and exit");
	app.footer("Run 'timersim COMMAND --help' for a command's options and examples.");

	// A command line that starts with a subcommand's name needs that one
	// only: CLI11 builds every option of every subcommand eagerly, and
	// their allocations' first touches are a cost a short replay should
	// not pay for the commands it does not run. Anything else -- top-level help, a mistyped name, an
	// option first -- gets them all, for the help and the suggestions.
	for (const subcommand_adder &a : adders)
		if (a.name == first_word) {
			a.add(app, commands);
			return;
		}
	add_replay(app, commands);
	add_compare(app, commands);
	add_options_table(app, commands);
	add_lab(app, commands);
	add_step(app, commands);
	add_view(app, commands);
	add_plot(app, commands);
	add_gen(app, commands);
	add_sweep(app, commands);
	add_cost_model(app, commands);
	add_top(app, commands);
}

}  // namespace timersim::cli
