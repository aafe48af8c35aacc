// The command line of the lab build (`make lab`, build/lab/timersim): the
// commands an OS-course lab uses -- lab, step, view -- and replay of text
// traces, without the subcommands whose sources the lab does not need
// (compare, gen, sweep, plot, cost-model, options-table). It stands
// in for tools/app.cc; main.cc and the cmd_*.cc files are the full build's.
#include "sim/base/version.h"
#include "tools/commands.h"

namespace timersim::cli {

const char version[] = "timersim " TIMERSIM_VERSION " (lab build: text traces only)";

// The lab's four subcommands are few enough to build all of them always.
void build(CLI::App &app, command_list &commands, std::string_view)
{
	app.set_version_flag("--version", version);
	app.require_subcommand(1);
	app.fallthrough(false);
	app.add_flag_callback("--list-schemes", [] {}, "print the scheme names and exit");
	app.footer("Run 'timersim COMMAND --help' for a command's options and examples.\n"
		   "This timersim was built by `make lab`: it reads text traces only; "
		   "run `make` for the full build (trace.dat, CTF, compare, gen, sweep, plot).");

	add_replay(app, commands);
	add_lab(app, commands);
	add_step(app, commands);
	add_view(app, commands);
}

}  // namespace timersim::cli
