// timersim options-table: docs/replay.md's option tables, made from the one
// definition of each option (a test checks docs/replay.md against it).
#include <cstdio>

#include "tools/commands.h"

namespace timersim::cli {

namespace {

std::string escape_cell(std::string s)
{
	std::string out;
	for (char c : s) {
		if (c == '|')
			out += '\\';
		out += c;
	}
	return out;
}

std::string table(const CLI::App &sub)
{
	std::string out = "| option | meaning |\n|---|---|\n";
	for (const CLI::Option *o : sub.get_options()) {
		if (o->get_positional() || o->get_lnames().empty() || o->get_lnames()[0] == "help")
			continue;
		std::string name = "--" + o->get_lnames()[0];
		std::string type = o->get_type_name();
		if (o->get_type_size() != 0 && !type.empty())
			name += " " + type;
		out += "| `" + escape_cell(name) + "` | " + escape_cell(o->get_description()) + " |\n";
	}
	return out;
}

}  // namespace

void add_options_table(CLI::App &app, command_list &commands)
{
	auto name = std::make_shared<std::string>();
	CLI::App *sub = app.add_subcommand("options-table",
					   "print a subcommand's options as a Markdown table (for docs/replay.md)");
	sub->group("");		// not listed in --help
	sub->add_option("COMMAND", *name, "the subcommand")->required();
	commands.push_back({sub, [name, &app] {
		const CLI::App *target = app.get_subcommand(*name);
		std::fputs(table(*target).c_str(), stdout);
		return std::fflush(stdout) == 0 ? 0 : 1;
	}});
}

}  // namespace timersim::cli
