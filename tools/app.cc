// The whole command line: every subcommand and the global options.
#include "sim/core/version.h"
#include "tools/commands.h"

namespace timersim::cli {

const char version[] = "timersim " TIMERSIM_VERSION;

void build(CLI::App &app, command_list &commands)
{
	app.set_version_flag("--version", version);
	app.require_subcommand(1);
	app.fallthrough(false);
	app.add_flag_callback("--list-schemes", [] {}, "print the scheme names and exit");
	app.footer("Run 'timersim COMMAND --help' for a command's options and examples.");

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
}

}  // namespace timersim::cli
