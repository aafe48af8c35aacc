// The timersim command line: one file per subcommand (tools/cmd_*.cc), each
// adding its subcommand, options and action to the CLI11 app.
//
// Options are defined once, in the add_* functions (shared ones in
// tools/trace_options.cc): that one definition gives the parser, `--help`
// and docs/replay.md's option tables (`timersim options-table`, checked by a
// test against docs/replay.md).
//
// Errors: usage_error (sim/base/errors.h) and input_error
// (sim/trace/reader.h) exit 2, output_error (sim/output/output_file.h)
// exits 1; a command's action returns its exit status otherwise.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

namespace timersim::cli {

struct command {
	CLI::App *app;			// the subcommand
	std::function<int()> run;	// its action, called when it was chosen
};
using command_list = std::vector<command>;

// The app with every subcommand (tools/app.cc): main parses and runs it;
// the option-parser fuzz target parses it. Given the command line's first
// word, and it names a subcommand: that subcommand only (main's start-up).
void build(CLI::App &app, command_list &commands, std::string_view first_word = {});

void add_replay(CLI::App &app, command_list &commands);
void add_compare(CLI::App &app, command_list &commands);
void add_options_table(CLI::App &app, command_list &commands);
void add_lab(CLI::App &app, command_list &commands);	// tools/cmd_lab.cc
void add_step(CLI::App &app, command_list &commands);	// tools/cmd_step.cc
void add_view(CLI::App &app, command_list &commands);
void add_plot(CLI::App &app, command_list &commands);
void add_gen(CLI::App &app, command_list &commands);		// cmd_gen.cc
void add_sweep(CLI::App &app, command_list &commands);		// cmd_sweep.cc: sweep and merge
void add_cost_model(CLI::App &app, command_list &commands);	// cmd_cost_model.cc
void add_top(CLI::App &app, command_list &commands);		// cmd_top.cc

// `timersim ARGV...` short of the exit status (tools/dispatch.cc): parses
// the command line, prints help, version or --list-schemes, or runs the
// chosen command and returns its status. A bad command line throws
// usage_error with CLI11's words and a suggestion; the commands throw
// usage_error, input_error and output_error (tools/main.cc turns each into
// a message and a status, the Python module into an exception).
int run(int argc, char **argv);

// The version `--version` prints.
extern const char version[];

}  // namespace timersim::cli
